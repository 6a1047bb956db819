//! The Share dialog (embed spec §5): a link that carries the link set and the view, in
//! a read-only field (`#share-url`) with Copy; above the link budget, why not, and the
//! link set as a bundle to download instead. Nothing leaves the browser: the link is
//! made here, and only the user copies it anywhere.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::modal::Modal;
use crate::context::use_app;
use crate::protocol::Export;
use crate::state::{Action, ExportAction, ShareAction, ShareDialog};

/// The Share overlay.
#[function_component(ShareOverlay)]
pub fn share_overlay() -> Html {
    let context = use_app();
    let copied = use_state(|| false);
    let field = use_node_ref();
    let Some(share) = context.state.share.dialog.clone() else { return html! {} };
    let copy = {
        let copied = copied.clone();
        let field = field.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(input) = field.cast::<web_sys::HtmlInputElement>() else { return };
            input.select();
            let text = input.value();
            let clipboard = gloo::utils::window().navigator().clipboard();
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let done = wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text)).await.is_ok();
                copied.set(done);
            });
        })
    };
    let select_all = Callback::from(|event: FocusEvent| {
        if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            input.select();
        }
    });
    let body = match share {
        ShareDialog::Loading => html! { <p class="muted" role="status">{ "making the link…" }</p> },
        ShareDialog::Link(link) => html! {
            <>
                <p>{ "This link opens the same files, the same run and this view, in any browser: the files travel inside it (compressed), so nothing is uploaded anywhere." }</p>
                <label for="share-url" class="visually-hidden">{ "Share link" }</label>
                <input id="share-url" type="text" readonly=true value={link.clone()} ref={field} onfocus={select_all} />
                <p class="muted">{ format!("{} characters of {} at most", link.len(), birlink_core::tools::share::LINK_BUDGET) }</p>
                <div class="dialog-actions">
                    <button type="button" id="share-copy" onclick={copy}>{ if *copied { "Copied" } else { "Copy" } }</button>
                    <button type="button" onclick={context.on(|| Action::Share(ShareAction::Close))}>{ "Close" }</button>
                </div>
            </>
        },
        ShareDialog::NoLink(why) => html! {
            <>
                <p class="check warn" id="share-too-large">{ format!("No link: {why}.") }</p>
                <p>{ "Share the link set as one bundle file instead: birlink and the CLI open it as they open the files." }</p>
                <div class="dialog-actions">
                    <button type="button" id="share-bundle" onclick={context.on(|| Action::Export(ExportAction::File(Export::Bundle)))}>{ "Download linkset.json" }</button>
                    <button type="button" onclick={context.on(|| Action::Share(ShareAction::Close))}>{ "Close" }</button>
                </div>
            </>
        },
    };
    html! {
        <Modal id="share" labelledby="share-title" on_close={context.on(|| Action::Share(ShareAction::Close))}>
            <h2 id="share-title">{ "Share" }</h2>
            { body }
        </Modal>
    }
}
