//! The pass view, like Compiler Explorer's: for the selected step, every entity it
//! changed, its canonical line before and after, side by side, with the changed words
//! marked. Unchanged steps are hidden from the list by default.

use birlink_core::english::counted;
use birlink_core::output::report::{ModuleUnit, PassStatus, Unit};
use birlink_core::tools::compare::words;
use yew::prelude::*;

use super::table::{columns, DataTable};
use crate::context::use_app;
use birlink_core::tools::share::View;

use crate::state::{Action, DetailsAction, ViewAction};

/// The words of `before` and `after`, marked where they differ: the core's word diff
/// (`tools::compare::words`, the words `birlink diff` marks), A's line with `<del>`, B's
/// with `<ins>`. Unchanged runs are one text node each, so long lines stay cheap to draw.
pub fn word_diff(before: &str, after: &str) -> (Html, Html) {
    let pieces = words::word_diff(before, after);
    let render = |b: bool| {
        html! {
            <code>
                { for words::side(&pieces, b).into_iter().map(|(changed, text)| match (changed, b) {
                    (false, _) => html! { { text } },
                    (true, false) => html! { <del>{ text }</del> },
                    (true, true) => html! { <ins>{ text }</ins> },
                }) }
            </code>
        }
    };
    (render(false), render(true))
}

/// The pipeline view.
#[function_component(Pipeline)]
pub fn pipeline() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = state.result() else { return html! {} };
    let Some((p, s)) = state.step else {
        return html! { <div class="empty-state"><p>{ "Select a step in the pipeline list." }</p></div> };
    };
    let Some(pass) = result.report.passes.get(p) else { return html! {} };
    let Some(step) = pass.steps.get(s) else { return html! {} };
    let edits = step.edits.clone();
    let diagnostics = result.report.diagnostics.iter().filter(|d| d.pass == pass.name).count();
    let row = {
        let edits = edits.clone();
        Callback::from(move |i: usize| -> Vec<Html> {
            let edit = &edits[i];
            let unit = ModuleUnit::of(edit);
            let place = if edit.context.is_empty() { unit.to_string() } else { format!("{unit} · {}", edit.context) };
            let (before, after) = match (&edit.before, &edit.after) {
                (Some(b), Some(a)) => word_diff(b, a),
                (None, Some(a)) => {
                    (html! { <span class="none">{ "—" }</span> }, html! { <code><ins>{ a.clone() }</ins></code> })
                }
                (Some(b), None) => {
                    (html! { <code><del>{ b.clone() }</del></code> }, html! { <span class="none">{ "—" }</span> })
                }
                (None, None) => (html! {}, html! {}),
            };
            vec![html! { <span class="place">{ place }</span> }, before, after]
        })
    };
    let row_class = {
        let edits = edits.clone();
        Callback::from(move |i: usize| -> Classes {
            match (&edits[i].before, &edits[i].after) {
                (None, Some(_)) => classes!("added"),
                (Some(_), None) => classes!("removed"),
                _ => classes!("changed"),
            }
        })
    };
    let units: std::collections::BTreeSet<ModuleUnit> =
        edits.iter().map(ModuleUnit::of).filter(|u| u.unit != Unit::Module).collect();
    html! {
        <div class="pipeline" id="pipeline-view">
            <div class="view-head">
                <h2>{ format!("{} › {}", pass.name, step.name) }</h2>
                <span class={classes!("badge", pass.status.as_str())}>{ pass.status.as_str() }</span>
                <span class="muted">{ counted(step.changes as usize, "change") }</span>
                if diagnostics > 0 {
                    <button type="button" class="link" onclick={context.on(|| Action::View(ViewAction::Set(View::Diagnostics)))}>
                        { format!("{} of {}", counted(diagnostics, "diagnostic"), pass.name) }
                    </button>
                }
            </div>
            if matches!(step.name.as_str(), "link_dir" | "tensor_map") {
                <p>
                    { if step.name == "link_dir" { "The link directory is planned, not part of the module: " } else { "The merged tensor map is not part of the module: " } }
                    <button type="button" class="link" onclick={context.on(|| Action::View(ViewAction::Set(View::LinkDir)))}>{ "see the sgLnk view" }</button>
                </p>
            } else if edits.is_empty() {
                <p class="muted">{ if pass.status == PassStatus::Skipped { "This pass did not run." } else { "This step changed nothing." } }</p>
            } else {
                <DataTable caption={format!("What {} changed, before and after", step.name)} columns={columns(&["where", "before", "after"])}
                           rows={edits.len()} {row} row_class={Some(row_class)} id="step-edits" />
            }
            if !units.is_empty() {
                <div class="units">
                    <span class="muted">{ "Whole text after all passes: " }</span>
                    { for units.into_iter().take(12).map(|unit| {
                        let label = unit.to_string();
                        let onclick = context.on(move || Action::Details(DetailsAction::ShowUnit(unit.clone())));
                        html! { <button type="button" class="link" {onclick}>{ label }</button> }
                    }) }
                </div>
            }
        </div>
    }
}
