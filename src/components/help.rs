//! The keyboard shortcuts, as a modal dialog: focus moves into it when it opens, Tab
//! and Shift+Tab stay inside it, Escape (or Close) closes it, and focus goes back to
//! where it was.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::context::use_app;
use crate::state::Action;

const KEYS: &[(&str, &str)] = &[
    ("1 … 6", "Pipeline, Call graph, Barriers, Semaphores, Addresses, Diagnostics"),
    ("j / k", "next / previous step (Pipeline) or diagnostic (Diagnostics)"),
    ("↑ / ↓", "move in a focused table; Home / End, Page Up / Down"),
    ("/", "search names across cores; ↑ ↓ Enter in the results"),
    ("Tab, Enter", "reach a node of the call graph, show its details"),
    ("Esc", "close search or help, clear the selection"),
    ("?", "this help"),
];

/// The elements of `root` that Tab stops at, in order.
fn focusable(root: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = root.query_selector_all("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")
    else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok()).collect()
}

/// The help overlay.
#[function_component(HelpOverlay)]
pub fn help_overlay() -> Html {
    let context = use_app();
    let dialog = use_node_ref();
    {
        // Into the dialog on open; back to where focus was on close.
        let dialog = dialog.clone();
        use_effect_with((), move |_| {
            let before =
                gloo::utils::document().active_element().and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
            if let Some(first) = dialog.cast::<web_sys::Element>().and_then(|d| focusable(&d).into_iter().next()) {
                let _ = first.focus();
            }
            move || {
                if let Some(before) = before {
                    let _ = before.focus();
                }
            }
        });
    }
    let onkeydown = {
        let dialog = dialog.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() != "Tab" {
                return;
            }
            let Some(root) = dialog.cast::<web_sys::Element>() else { return };
            let stops = focusable(&root);
            let (Some(first), Some(last)) = (stops.first(), stops.last()) else { return };
            let active = gloo::utils::document().active_element();
            let at = |e: &web_sys::HtmlElement| active.as_ref().is_some_and(|a| a.is_same_node(Some(e)));
            if event.shift_key() && (at(first) || active.is_none()) {
                event.prevent_default();
                let _ = last.focus();
            } else if !event.shift_key() && at(last) {
                event.prevent_default();
                let _ = first.focus();
            }
        })
    };
    html! {
        <div class="overlay" onclick={context.on(|| Action::ToggleHelp)}>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="help-title" id="help" ref={dialog} {onkeydown}
                 onclick={Callback::from(|event: MouseEvent| event.stop_propagation())}>
                <h2 id="help-title">{ "Keyboard" }</h2>
                <table>
                    <caption class="visually-hidden">{ "Keyboard shortcuts" }</caption>
                    <tbody>{ for KEYS.iter().map(|(key, what)| html! { <tr><th scope="row"><kbd>{ *key }</kbd></th><td>{ *what }</td></tr> }) }</tbody>
                </table>
                <p class="muted">{ "Drop files or folders anywhere on the page. Nothing you open leaves this browser." }</p>
                <button type="button" onclick={context.on(|| Action::ToggleHelp)} id="help-close">{ "Close" }</button>
            </div>
        </div>
    }
}
