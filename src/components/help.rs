//! The keyboard shortcuts and the version, in a [`Modal`].

use yew::prelude::*;

use super::modal::Modal;
use crate::context::use_app;
use crate::state::{Action, Mode};

const KEYS: &[(&str, &str)] = &[
    (
        "1 … 9, 0",
        "Pipeline, Call graph, Barriers, Semaphores, Addresses, Diagnostics, Sync, sgLnk (a work directory), Compare, Passes (dumps after every pass)",
    ),
    (
        "j / k",
        "next / previous step (Pipeline), diagnostic (Diagnostics), replayed step (Sync) or pass (Passes)",
    ),
    ("↑ / ↓", "move in a focused table; Home / End, Page Up / Down"),
    ("/", "search names across cores (source:FILE: the instructions of a kernel file); ↑ ↓ Enter in the results"),
    ("Tab, Enter", "reach a node of the call graph, show its details"),
    ("s", "share: a link that carries this link set"),
    ("Esc", "close a dialog or search, clear the selection"),
    ("?", "this help"),
];

/// What the help dialog says it is: the version, and the commit when the build was told
/// it (`cargo xtask dist` sets `BIRLINK_COMMIT`; a development build has none).
fn version() -> String {
    match option_env!("BIRLINK_COMMIT").filter(|commit| !commit.is_empty()) {
        Some(commit) => format!("birlink {} ({commit})", env!("CARGO_PKG_VERSION")),
        None => format!("birlink {}", env!("CARGO_PKG_VERSION")),
    }
}

/// The help overlay.
#[function_component(HelpOverlay)]
pub fn help_overlay() -> Html {
    let context = use_app();
    let full = context.state.mode == Mode::Full;
    let keys = KEYS.iter().filter(|(key, _)| full || !matches!(*key, "/" | "s"));
    html! {
        <Modal id="help" labelledby="help-title" on_close={context.on(|| Action::ToggleHelp)}>
            <h2 id="help-title">{ "Keyboard" }</h2>
            <table>
                <caption class="visually-hidden">{ "Keyboard shortcuts" }</caption>
                <tbody>{ for keys.map(|(key, what)| html! { <tr><th scope="row"><kbd>{ *key }</kbd></th><td>{ *what }</td></tr> }) }</tbody>
            </table>
            if full {
                <p class="muted">{ "Drop files or folders anywhere on the page. Nothing you open leaves this browser unless you share it." }</p>
            }
            <p class="muted" id="help-version">{ version() }</p>
            <button type="button" onclick={context.on(|| Action::ToggleHelp)} id="help-close">{ "Close" }</button>
        </Modal>
    }
}
