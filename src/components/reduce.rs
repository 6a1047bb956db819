//! "Reduce to a minimal repro" on a failing link: its progress and Cancel, and the
//! reduced link set with the original one step away, to download or share.

use yew::prelude::*;

use super::bytes;
use crate::context::use_app;
use crate::protocol::Export;
use crate::state::{Action, ExportAction, ReduceAction, Reducing, ShareAction};

fn duration(ms: f64) -> String {
    if ms < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// "Reduce to a minimal repro" on a failing link, its progress and Cancel, and the
/// reduced link set with the original one step away.
#[function_component(ReproBar)]
pub fn repro_bar() -> Html {
    let context = use_app();
    let state = &context.state;
    let failed = state.result().is_some_and(|r| r.failed());
    if let Some(Reducing::Running { step, .. }) = &state.reduction.reducing {
        let text = match step {
            None => "reducing: linking the whole set once…".to_owned(),
            Some(s) => format!(
                "reducing: round {} · {} · {} tests · {} instructions · {} left",
                s.round,
                s.level.map_or("done", |level| level.name()),
                s.tests,
                s.instructions,
                bytes(s.bytes)
            ),
        };
        return html! {
            <div class="repro-bar running" id="repro-bar" role="status" aria-live="polite">
                <progress></progress>
                <span id="reduce-progress">{ text }</span>
                <button type="button" id="reduce-cancel" onclick={context.on(|| Action::Reduce(ReduceAction::Cancel))}>{ "Cancel" }</button>
            </div>
        };
    }
    let failure = match &state.reduction.reducing {
        Some(Reducing::Failed(why)) => {
            Some(html! { <span class="failed" role="alert">{ format!("could not reduce: {why}") }</span> })
        }
        _ => None,
    };
    if let (Some(summary), true) = (&state.reduction.reduced, state.reduction.original.is_some()) {
        return html! {
            <div class="repro-bar done" id="repro-bar">
                <span id="reduce-result">
                    <strong>{ format!("Reduced: still {} in {}", summary.code, summary.pass) }</strong>
                    { format!(
                        " · {} → {} instructions · {} → {} · {} tests in {}",
                        summary.instructions.0, summary.instructions.1, bytes(summary.bytes.0), bytes(summary.bytes.1),
                        summary.tests, duration(summary.ms)
                    ) }
                </span>
                <button type="button" id="reduce-download" onclick={context.on(|| Action::Export(ExportAction::File(Export::Bundle)))}>{ "Download bundle" }</button>
                <button type="button" id="reduce-share" onclick={context.on(|| Action::Share(ShareAction::Open))}>{ "Share" }</button>
                <button type="button" id="reduce-back" onclick={context.on(|| Action::Reduce(ReduceAction::BackToOriginal))}>{ "Back to the original" }</button>
            </div>
        };
    }
    if !failed {
        return html! {};
    }
    html! {
        <div class="repro-bar" id="repro-bar">
            <button type="button" id="reduce-button" class="primary" onclick={context.on(|| Action::Reduce(ReduceAction::Start))}
                    title="Shrink the link set to the smallest one that still fails with the same first error (like birlink reduce)">
                { "Reduce to a minimal repro" }
            </button>
            <span class="muted">{ "the smallest link set that still fails the same way, to attach to a bug report" }</span>
            { for failure }
        </div>
    }
}
