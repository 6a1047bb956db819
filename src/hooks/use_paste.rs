//! A paste on the page, outside any field: if it is a compiler log birlink knows, the
//! reducer reads it (as if pasted into the "Paste error" box); anything else is left to
//! the browser.

use gloo::events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::{Action, LogAction, State, MAX_LOG_BYTES};

/// Listens to pastes on the document for as long as the app lives.
#[hook]
pub fn use_paste(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let document = gloo::utils::document();
        let listener = EventListener::new(&document, "paste", move |event| {
            let Some(event) = event.dyn_ref::<web_sys::ClipboardEvent>() else { return };
            let target = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let tag = target.as_ref().map(|t| t.tag_name().to_ascii_lowercase()).unwrap_or_default();
            if matches!(tag.as_str(), "input" | "textarea" | "select") {
                return;
            }
            let Some(text) = event.clipboard_data().and_then(|data| data.get_data("text/plain").ok()) else {
                return;
            };
            if !text.is_empty() && text.len() <= MAX_LOG_BYTES {
                dispatcher.dispatch(Action::Log(LogAction::Pasted(text)));
            }
        });
        move || drop(listener)
    });
}
