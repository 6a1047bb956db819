//! The main area: one tab per view, the open view below.

use yew::prelude::*;

use super::addresses::Addresses;
use super::barriers::Barriers;
use super::call_graph::CallGraph;
use super::compare::Compare;
use super::diagnostics::Diagnostics;
use super::link_dir::LinkDir;
use super::passes::PassesView;
use super::pipeline::Pipeline;
use super::semaphores::Semaphores;
use super::sync::SyncView;
use super::RunStatus;
use crate::context::use_app;
use birlink_core::tools::share::View;

use crate::state::{Action, Mode, Status, ViewAction, ViewLabels};

/// Tabs and the open view.
#[function_component(MainViews)]
pub fn main_views() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = state.result() else {
        let text = match &state.shown().link.status {
            Status::Running { phase, .. } => format!("Linking… {phase}"),
            Status::Failed(message) => message.clone(),
            _ if state.mode == Mode::Embed => {
                "Waiting for the host page's files (or give this page `sample=` or `src=`).".to_owned()
            }
            _ => "Open per-core module JSON (files, a folder or a bundle), drop it anywhere, or pick a sample."
                .to_owned(),
        };
        return html! { <><RunStatus /><div class="empty-state"><p>{ text }</p></div></> };
    };
    let count = |view: View| -> Option<String> {
        let report = &result.report;
        let n = match view {
            View::Pipeline => return None,
            View::CallGraph => report.dispatcher.len(),
            View::Barriers => report.barriers.len(),
            View::Semaphores => report.semaphores.relocations.len(),
            View::Addresses => report.address_map.len(),
            View::Diagnostics => report.diagnostics.len(),
            View::Sync => match report.sync.status {
                birlink_core::output::sync::SyncStatus::Ran => report.sync.counts.values().sum::<u64>() as usize,
                birlink_core::output::sync::SyncStatus::Skipped => return None,
            },
            View::LinkDir => report.link_dir.as_ref().map_or(0, |d| d.entries.len()),
            View::Passes => return state.history().map(|h| h.parted.len().to_string()),
            View::Compare => {
                return state.compare.comparison.as_ref().map(|c| {
                    if c.comparison.equal {
                        "=".to_owned()
                    } else {
                        "≠".to_owned()
                    }
                })
            }
        };
        Some(n.to_string())
    };
    html! {
        <>
            <RunStatus />
            <nav class="tabs" role="tablist" aria-label="Views">
                // The link directory's tab is a work directory's only (its view still
                // explains itself when a link names it).
                // The Compare tab is the full page's, and an embedded page's that compares.
                { for View::ALL.iter().enumerate().filter(|(_, &view)| match view {
                    View::LinkDir => result.report.link_dir.is_some() || state.view == View::LinkDir,
                    View::Compare => state.mode == Mode::Full || state.comparing() || state.view == View::Compare,
                    // The Passes tab is a work directory's with dumps after passes.
                    View::Passes => state.has_passes() || state.view == View::Passes,
                    _ => true,
                }).map(|(i, &view)| {
                    let selected = state.view == view;
                    let onclick = {
                        let context = context.clone();
                        Callback::from(move |_| context.dispatch(Action::View(ViewAction::Set(view))))
                    };
                    let errors = view == View::Diagnostics && result.counts.0 > 0;
                    html! {
                        <button type="button" role="tab" id={format!("tab-{}", view.id())} aria-selected={selected.to_string()}
                                aria-controls={format!("view-{}", view.id())} class={classes!("tab", selected.then_some("selected"), errors.then_some("has-errors"))}
                                {onclick} title={format!("{} ({})", view.label(), (i + 1) % 10)}>
                            { view.label() }
                            if let Some(n) = count(view) { <span class="count">{ n }</span> }
                        </button>
                    }
                }) }
            </nav>
            <section role="tabpanel" id={format!("view-{}", state.view.id())} aria-labelledby={format!("tab-{}", state.view.id())} class="view">
                { match state.view {
                    View::Pipeline => html! { <Pipeline /> },
                    View::CallGraph => html! { <CallGraph /> },
                    View::Barriers => html! { <Barriers /> },
                    View::Semaphores => html! { <Semaphores /> },
                    View::Addresses => html! { <Addresses /> },
                    View::Diagnostics => html! { <Diagnostics /> },
                    View::Sync => html! { <SyncView /> },
                    View::LinkDir => html! { <LinkDir /> },
                    View::Compare => html! { <Compare /> },
                    View::Passes => html! { <PassesView /> },
                } }
            </section>
        </>
    }
}
