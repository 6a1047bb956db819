//! The details panel: what is selected, as canonical text, as JSON in the linked module,
//! and as JSON in its input file with the file, line and column.

use yew::prelude::*;

use super::use_app;
use crate::state::{Action, Details as Shown};

/// The details panel.
#[function_component(Details)]
pub fn details() -> Html {
    let context = use_app();
    let state = &context.state;
    let close = {
        let context = context.clone();
        Callback::from(move |_| context.dispatch(Action::ClearSelection))
    };
    let body = match &state.details {
        Shown::Empty => html! {
            <p class="hint">{ "Select an instruction, a memory location, a function or a diagnostic: its canonical text and its JSON, linked and original, show here." }</p>
        },
        Shown::Loading(what) => html! { <p class="muted" role="status">{ format!("loading {what}…") }</p> },
        Shown::Missing(message) => html! { <p class="muted">{ message.clone() }</p> },
        Shown::Entity(view) => {
            let unit_button =
                view.entity.parent.clone().filter(|p| !p.is_empty() && view.entity.kind != "instance").map(|parent| {
                    let context = context.clone();
                    let unit = format!("function {parent}");
                    let label = format!("whole text of `{parent}`");
                    let onclick = Callback::from(move |_| context.dispatch(Action::ShowUnit(unit.clone())));
                    html! { <button type="button" class="link" {onclick}>{ label }</button> }
                });
            html! {
                <>
                    <h3 class="details-title">
                        <span class="kind">{ view.entity.kind.clone() }</span>
                        <span class="name">{ view.entity.name.clone() }</span>
                    </h3>
                    <p class="muted">
                        if let Some(parent) = view.entity.parent.clone().filter(|p| !p.is_empty()) { { format!("in {parent}") } }
                        if let Some(core) = view.core { { format!(" · core {core}") } }
                        { " " }{ unit_button.unwrap_or_default() }
                    </p>
                    <details open=true>
                        <summary>{ "Canonical text" }</summary>
                        <pre class="code">{ view.text.clone() }</pre>
                    </details>
                    <details open=true>
                        <summary>{ "Linked JSON" }</summary>
                        <pre class="code json" id="details-linked">{ view.linked.clone() }</pre>
                    </details>
                    <details open=true>
                        <summary>
                            { "Original JSON" }
                            if let Some(original) = &view.original {
                                <span class="muted">{ format!(" {}:{}:{}", original.file, original.line, original.column) }</span>
                            }
                        </summary>
                        { match &view.original {
                            Some(original) => html! {
                                <>
                                    <p class="pointer"><code>{ original.pointer.clone() }</code></p>
                                    <pre class="code json" id="details-original">{ original.json.clone() }</pre>
                                </>
                            },
                            None => html! { <p class="muted">{ "made by the linker: it has no input" }</p> },
                        } }
                    </details>
                </>
            }
        }
        Shown::Original { title, original } => html! {
            <>
                <h3 class="details-title"><span class="kind">{ "input" }</span><span class="name">{ "where the diagnostic points" }</span></h3>
                { match original {
                    Some(original) => html! {
                        <>
                            <p class="muted">{ format!("{}:{}:{}", original.file, original.line, original.column) }</p>
                            <p class="pointer"><code>{ original.pointer.clone() }</code></p>
                            <pre class="code json" id="details-original">{ original.json.clone() }</pre>
                        </>
                    },
                    None => html! { <p class="muted">{ format!("{title}: the file has no text at that place (it could not be read or parsed)") }</p> },
                } }
            </>
        },
        Shown::Unit { unit, text } => html! {
            <>
                <h3 class="details-title"><span class="kind">{ "text" }</span><span class="name">{ unit.clone() }</span></h3>
                { match text {
                    Some(text) => html! { <pre class="code unit" id="details-unit">{ (**text).clone() }</pre> },
                    None => html! { <p class="muted" role="status">{ "loading…" }</p> },
                } }
            </>
        },
    };
    html! {
        <aside class="details" aria-label="Details" id="details">
            <div class="details-head">
                <h2>{ "Details" }</h2>
                if state.details != Shown::Empty {
                    <button type="button" class="link" onclick={close} aria-label="Close details">{ "clear (Esc)" }</button>
                }
            </div>
            { body }
        </aside>
    }
}
