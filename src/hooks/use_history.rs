//! The page's own URL, in full mode (embed spec §2): the reducer decides each write
//! (`State::history`: a user's step pushes an entry, anything else replaces it); Back
//! and Forward come back as `Navigate`. A different link set in the fragment (Back past
//! a share link) reloads the page; in an editor's webview each write is told to the
//! editor too (`services::editor::state_changed`). Embedded, the page never touches its
//! URL or history.

use gloo::events::EventListener;
use wasm_bindgen::JsValue;
use yew::prelude::*;

use birlink_core::tools::share::ViewState;

use crate::state::{Action, HistoryAction, Mode, State};

/// The fragment of the page's URL, without `#`.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|hash| hash.trim_start_matches('#').to_owned())
        .unwrap_or_default()
}

/// Writes the reducer's URL changes and listens for Back and Forward (full mode only).
#[hook]
pub fn use_history(state: &UseReducerHandle<State>) {
    let full = state.mode == Mode::Full;
    let write = state.history.out.message.clone();
    use_effect_with(state.history.out.seq, move |_| {
        let (Some(write), true) = (write, full) else { return };
        if write.fragment == current_fragment() {
            return;
        }
        crate::services::editor::state_changed(&write.fragment);
        let Some(history) = web_sys::window().and_then(|w| w.history().ok()) else { return };
        let url = format!("#{}", write.fragment);
        let _ = if write.push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    });
    let dispatcher = state.dispatcher();
    let shown = &state.shown().data;
    let data = shown.text.clone().filter(|_| shown.in_url);
    use_effect_with((full, data), move |(full, data)| {
        let data = data.clone();
        let listener = full.then(|| {
            EventListener::new(&gloo::utils::window(), "popstate", move |_| {
                let (state, _) = ViewState::parse(&current_fragment());
                if state.data != data {
                    let _ = gloo::utils::window().location().reload();
                    return;
                }
                dispatcher.dispatch(Action::History(HistoryAction::Navigate(state)));
            })
        });
        move || drop(listener)
    });
}
