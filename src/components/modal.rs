//! A modal dialog: focus moves into it when it opens, Tab and Shift+Tab stay inside
//! it, a click outside or Escape (the page's keys) closes it, and focus goes back to
//! where it was. The help and Share dialogs are its children.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Props of [`Modal`].
#[derive(Properties, PartialEq)]
pub struct ModalProps {
    /// The dialog's id.
    pub id: AttrValue,
    /// The id of its title.
    pub labelledby: AttrValue,
    /// Closes it.
    pub on_close: Callback<()>,
    /// Its content.
    pub children: Html,
}

/// The elements of `root` that Tab stops at, in order.
fn focusable(root: &web_sys::Element) -> Vec<web_sys::HtmlElement> {
    let Ok(list) = root.query_selector_all("button, [href], input, select, textarea, [tabindex]:not([tabindex='-1'])")
    else {
        return Vec::new();
    };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<web_sys::HtmlElement>().ok()).collect()
}

/// A modal dialog.
#[function_component(Modal)]
pub fn modal(props: &ModalProps) -> Html {
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
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <div class="overlay" onclick={close}>
            <div class="dialog" role="dialog" aria-modal="true" aria-labelledby={props.labelledby.clone()}
                 id={props.id.clone()} ref={dialog} {onkeydown}
                 onclick={Callback::from(|event: MouseEvent| event.stop_propagation())}>
                { props.children.clone() }
            </div>
        </div>
    }
}
