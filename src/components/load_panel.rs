//! The link set: one card per file with what it holds (modules, cores, counts) and its
//! status, the LNC in force, and a drop target. Changes re-link (see `app.rs`).

use birlink_core::english::counted;
use yew::prelude::*;

use super::bytes;
use super::workdir::WorkdirSummary;
use crate::context::use_app;
use crate::state::{LinkAction, LinkOp, Status};

/// The load panel.
#[function_component(LoadPanel)]
pub fn load_panel() -> Html {
    let context = use_app();
    let state = &context.state;
    let rows = state.result().map(|r| r.report.inputs.clone()).unwrap_or_default();
    let cores: std::collections::BTreeSet<u64> = rows.iter().filter_map(|r| r.core).collect();
    let lnc = state.result().map(|r| (r.report.options.lnc, r.report.options.lnc_source.as_str()));
    let running = matches!(state.shown().link.status, Status::Running { .. });
    let clear = {
        let context = context.clone();
        Callback::from(move |_| context.dispatch(LinkAction::shown(LinkOp::ClearFiles)))
    };
    let on_after = {
        let context = context.clone();
        Callback::from(move |pass: String| context.dispatch(LinkAction::shown(LinkOp::SetAfter(Some(pass)))))
    };
    // A work directory shows the files it links; the rest are listed in its summary.
    let workdir = state.shown().link.workdir.clone();
    let shown: Vec<_> = match &workdir {
        Some(w) => w.plan.picked.iter().filter_map(|(i, _, _)| state.shown().link.files.get(*i)).collect(),
        None => state.shown().link.files.iter().collect(),
    };
    html! {
        <section class="panel load" aria-labelledby="load-title" id="load-panel">
            <h2 id="load-title">
                { "Link set" }
                if !state.shown().link.files.is_empty() {
                    <button type="button" class="link" onclick={clear}>{ "clear" }</button>
                }
            </h2>
            <p class="summary">
                { counted(state.shown().link.files.len(), "file") }
                if let Some(w) = &state.shown().link.workdir {
                    { format!(" ({} linked)", w.plan.picked.len()) }
                }
                if let Some((lnc, source)) = lnc {
                    { format!(" · {} · LNC {lnc} ({source})", counted(cores.len(), "core")) }
                }
                if running { <span class="spinner" aria-label="linking"></span> }
            </p>
            if let Some(run) = state.result() {
                <super::grid::FlowGrid run={run.clone()} />
            }
            if state.shown().link.files.is_empty() {
                <p class="hint">{ "Drop per-core module JSON, a bundle, a dump folder or the compiler's work directory anywhere on the page." }</p>
            }
            if let Some(workdir) = workdir {
                <WorkdirSummary command={workdir.plan.command.and_then(|i| state.shown().link.files.get(i).cloned())} {workdir} {on_after} />
            }
            <ul class="cards">
                { for shown.into_iter().map(|file| {
                    let modules: Vec<_> = rows.iter().filter(|r| r.file == file.path).cloned().collect();
                    let worst = modules.iter().map(|m| m.status).max()
                        .map(|status| status.as_str())
                        .unwrap_or(if running { "pending" } else { "ok" });
                    let remove = {
                        let context = context.clone();
                        let id = file.id;
                        Callback::from(move |_| context.dispatch(LinkAction::shown(LinkOp::RemoveFile(id))))
                    };
                    let kind = modules.first().map(|m| format!("{:?}", m.kind).to_lowercase()).unwrap_or_default();
                    html! {
                        <li class={classes!("card", worst)} data-file={file.path.clone()}>
                            <div class="card-head">
                                <span class="file" title={file.path.clone()}>{ file.path.clone() }</span>
                                <span class={classes!("badge", worst)}>{ worst }</span>
                                <button type="button" class="remove" aria-label={format!("remove {}", file.path)} onclick={remove}>{ "×" }</button>
                            </div>
                            <div class="card-meta">{ format!("{} · {kind}", bytes(file.size)) }</div>
                            { for modules.iter().filter(|m| m.module.is_some()).map(|m| html! {
                                <div class="card-module">
                                    <span class="module">{ m.module.clone().unwrap_or_default() }</span>
                                    <span class="core">{ m.core.map(|c| format!("core {c}")).unwrap_or_else(|| "no core id".to_owned()) }</span>
                                    <span class="counts">{ format!("{} fn · {} inst · {} memloc", m.functions, m.instructions, m.memlocs) }</span>
                                </div>
                            }) }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}
