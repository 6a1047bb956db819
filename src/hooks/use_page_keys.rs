//! Keys for the whole page, registered once: each becomes a [`Key`] action (the reducer
//! decides what it means in the current view), except `/`, which moves focus to the
//! search box. Keys typed into a field are the field's, and modified keys the
//! browser's.

use gloo::events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::{Action, Key, State};

/// What a key means on the page, if anything.
fn key_of(event: &KeyboardEvent) -> Option<Key> {
    match event.key().as_str() {
        "Escape" => Some(Key::Escape),
        digit @ ("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9") => {
            digit.parse::<usize>().ok().map(|n| Key::View(n - 1))
        }
        "0" => Some(Key::View(9)),
        "?" => Some(Key::Help),
        "j" => Some(Key::Next),
        "k" => Some(Key::Previous),
        "s" => Some(Key::Share),
        _ => None,
    }
}

/// Listens to keys on the document for as long as the app lives.
#[hook]
pub fn use_page_keys(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let document = gloo::utils::document();
        // Not passive: `/` must not also type itself into the search box.
        let options = EventListenerOptions::enable_prevent_default();
        let listener = EventListener::new_with_options(&document, "keydown", options, move |event| {
            let Some(event) = event.dyn_ref::<KeyboardEvent>() else { return };
            if event.ctrl_key() || event.meta_key() || event.alt_key() {
                return;
            }
            let target = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let tag = target.as_ref().map(|t| t.tag_name().to_ascii_lowercase()).unwrap_or_default();
            let typing = matches!(tag.as_str(), "input" | "textarea" | "select");
            if event.key() == "Escape" {
                dispatcher.dispatch(Action::Key(Key::Escape));
                return;
            }
            if typing {
                return;
            }
            if event.key() == "/" {
                event.prevent_default();
                if let Some(input) = gloo::utils::document().get_element_by_id("search") {
                    if let Ok(input) = input.dyn_into::<web_sys::HtmlElement>() {
                        let _ = input.focus();
                    }
                }
                return;
            }
            if let Some(key) = key_of(event) {
                dispatcher.dispatch(Action::Key(key));
            }
        });
        move || drop(listener)
    });
}
