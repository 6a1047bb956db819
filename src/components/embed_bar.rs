//! Embed mode's one line of chrome (embed spec §3): what is shown, a notice if any, and
//! "Open in birlink ↗": the full page with the current view, and the link set's data
//! when it fits in a link, in a new tab.

use yew::prelude::*;

use crate::context::use_app;
use crate::state::Action;

/// The bar above an embedded inspector.
#[function_component(EmbedBar)]
pub fn embed_bar() -> Html {
    let context = use_app();
    let state = &context.state;
    html! {
        <div class="embed-bar">
            <span class="logo-small">{ "birlink" }</span>
            if let Some(notice) = &state.notice {
                <span class="notice" role="alert">
                    { notice.clone() }
                    <button type="button" aria-label="Dismiss" onclick={context.on(|| Action::Notice(None))}>{ "×" }</button>
                </span>
            }
            // A page its host wrote (a notebook's frame) has no address to open.
            if !state.page.base.is_empty() {
                <a class="open-full" id="open-full" href={state.full_url()} target="_blank" rel="noopener">{ "Open in birlink ↗" }</a>
            }
        </div>
    }
}
