//! The keyboard shortcuts.

use yew::prelude::*;

use super::use_app;
use crate::state::Action;

const KEYS: &[(&str, &str)] = &[
    ("1 … 6", "Pipeline, Call graph, Barriers, Semaphores, Addresses, Diagnostics"),
    ("j / k", "next / previous step (Pipeline) or diagnostic (Diagnostics)"),
    ("↑ / ↓", "move in a focused table; Home / End, Page Up / Down"),
    ("/", "search names across cores; ↑ ↓ Enter in the results"),
    ("Esc", "close search or help, clear the selection"),
    ("?", "this help"),
];

/// The help overlay.
#[function_component(HelpOverlay)]
pub fn help_overlay() -> Html {
    let context = use_app();
    let close = Callback::from(move |_| context.dispatch(Action::ToggleHelp));
    html! {
        <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="help-title">
            <div class="dialog">
                <h2 id="help-title">{ "Keyboard" }</h2>
                <table>
                    <caption class="visually-hidden">{ "Keyboard shortcuts" }</caption>
                    <tbody>{ for KEYS.iter().map(|(key, what)| html! { <tr><th scope="row"><kbd>{ *key }</kbd></th><td>{ *what }</td></tr> }) }</tbody>
                </table>
                <p class="muted">{ "Drop files or folders anywhere on the page. Nothing you open leaves this browser." }</p>
                <button type="button" onclick={close}>{ "Close" }</button>
            </div>
        </div>
    }
}
