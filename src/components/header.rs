//! The top bar: the shown link set's picker (files, a folder, the samples menu, the
//! LNC), search across cores, exports, and the run's verdict.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::bytes;
use super::link_set_picker::LinkSetPicker;
use crate::context::{use_app, AppContext};
use crate::protocol::Export;
use crate::side::Side;
use crate::state::{Action, DetailsAction, ExportAction, LogAction, SearchAction, Selection, ShareAction, Status};

/// The top bar.
#[function_component(Header)]
pub fn header() -> Html {
    let context = use_app();
    let state = &context.state;
    let shown = state.shown();
    let run = state.result_run();
    let linked = state.result().is_some_and(|r| r.linked);
    // bir_linker's log, in the compiler's flows (the seeds' reading has none).
    let log = state.result().is_some_and(|r| r.report.options.flow != birlink_core::Flow::Seeds);
    let drawn = state.result().is_some_and(|r| !r.report.dispatcher.is_empty());

    html! {
        <header class="topbar">
            <h1 class="logo">
                <svg class="logo-mark" viewBox="0 0 32 32" aria-hidden="true" width="20" height="20">
                    <rect x="2" y="6" width="12" height="20" rx="3" class="logo-a" />
                    <rect x="18" y="6" width="12" height="20" rx="3" class="logo-b" />
                    <path d="M14 16h4" class="logo-link" />
                </svg>
                { "birlink" }
            </h1>
            <div class="open">
                <LinkSetPicker side={Side::Shown} samples={state.samples.clone()}
                               open_sample={shown.link.open_sample.clone().map(AttrValue::from)} lnc={shown.link.lnc} />
            </div>
            <SearchBox {linked} />
            <div class="export" role="group" aria-label="Export">
                <button type="button" onclick={context.on(|| Action::Export(ExportAction::File(Export::Linked)))} disabled={!linked} id="export-linked">{ "linked.json" }</button>
                <button type="button" onclick={context.on(|| Action::Export(ExportAction::File(Export::Report)))} disabled={run.is_none()} id="export-report">{ "report.json" }</button>
                <button type="button" onclick={context.on(|| Action::Export(ExportAction::File(Export::Log)))} disabled={!log} id="export-log"
                        title="bir_linker's own log, in the compiler's words: hold it beside the compiler's log-neuron-cc.txt">{ "bir_linker.log" }</button>
                <button type="button" onclick={context.on(|| Action::Export(ExportAction::Svg))} disabled={!drawn} id="export-svg">{ "SVG" }</button>
                <button type="button" onclick={context.on(|| Action::Share(ShareAction::Open))} disabled={run.is_none()} id="share-button"
                        title="A link that carries this link set (s)">{ "Share" }</button>
            </div>
            <button type="button" id="paste-error" onclick={context.on(|| Action::Log(LogAction::Open))}
                    title="Paste a line of the compiler's log (NCC_ILLC059, NCC_IXLV002, …) to find what it names; or paste it anywhere on the page">
                { "Paste error" }
            </button>
            <button type="button" class="help-button" aria-label="Keyboard shortcuts" id="help-button"
                    onclick={context.on(|| Action::ToggleHelp)}>{ "?" }</button>
            if let Some(notice) = &state.notice {
                <div class="notice" role="alert">
                    { notice.clone() }
                    <button type="button" aria-label="Dismiss" onclick={context.on(|| Action::Notice(None))}>{ "×" }</button>
                </div>
            }
        </header>
    }
}

#[derive(Properties, PartialEq)]
struct SearchProps {
    linked: bool,
}

/// Search names across cores: an ARIA combobox (the input) over a listbox of hits; ↑ ↓
/// move the active option, Enter selects it.
#[function_component(SearchBox)]
fn search_box(props: &SearchProps) -> Html {
    let context = use_app();
    let search = &context.state.search;
    let on_input = {
        let context = context.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                context.dispatch(Action::Search(SearchAction::Text(input.value())));
            }
        })
    };
    let pick = |context: &AppContext, query: birlink_core::tools::query::EntityQuery| {
        context.dispatch(Action::Details(DetailsAction::Select(Selection::Entity(query))));
    };
    let on_key = {
        let context = context.clone();
        Callback::from(move |event: KeyboardEvent| match event.key().as_str() {
            "ArrowDown" => {
                event.prevent_default();
                context.dispatch(Action::Search(SearchAction::Cursor(1)));
            }
            "ArrowUp" => {
                event.prevent_default();
                context.dispatch(Action::Search(SearchAction::Cursor(-1)));
            }
            "Enter" => {
                let search = &context.state.search;
                // Only a hit of the text typed: an older text's answer is never chosen.
                if let Some(hit) = search.chosen().filter(|_| search.open) {
                    pick(&context, hit.entity.clone());
                }
            }
            _ => {}
        })
    };
    let expanded = search.open;
    let active = (expanded && search.cursor < search.hits().len()).then(|| format!("search-hit-{}", search.cursor));
    html! {
        <div class="search" role="search">
            <label for="search" class="visually-hidden">{ "Search names across cores" }</label>
            <input type="search" id="search" placeholder="Search names across cores  (/)" autocomplete="off"
                   role="combobox" aria-autocomplete="list" aria-expanded={expanded.to_string()}
                   aria-controls="search-results" aria-activedescendant={active}
                   value={search.text.clone()} oninput={on_input} onkeydown={on_key} />
            if expanded {
                <ul class="search-results" id="search-results" role="listbox" aria-label="Names found">
                    if search.searching() {
                        <li class="empty" role="presentation">{ "searching…" }</li>
                    } else if search.hits().is_empty() {
                        <li class="empty" role="presentation">{ if props.linked { "no match" } else { "search needs a linked module" } }</li>
                    }
                    { for search.hits().iter().enumerate().map(|(i, hit)| {
                        let context = context.clone();
                        let query = hit.entity.clone();
                        let onclick = Callback::from(move |_| pick(&context, query.clone()));
                        html! {
                            <li role="option" id={format!("search-hit-{i}")} aria-selected={(i == search.cursor).to_string()}
                                class={classes!((i == search.cursor).then_some("cursor"))} {onclick}>
                                <span class="kind">{ hit.entity.kind.as_str() }</span>
                                <span class="name">{ hit.entity.name.clone() }</span>
                                <span class="parent">{ hit.entity.parent.clone().unwrap_or_default() }</span>
                                <span class="core">{ hit.core.map(|c| format!("core {c}")).unwrap_or_default() }</span>
                            </li>
                        }
                    }) }
                </ul>
            }
        </div>
    }
}

/// The run's verdict: progress while linking, then linked or failed, with counts and
/// the worker's time.
#[function_component(RunStatus)]
pub fn run_status() -> Html {
    let context = use_app();
    let state = &context.state;
    match (&state.shown().link.status, state.result()) {
        (Status::Running { phase, done, total }, _) => html! {
            <div class="status running" role="status" aria-live="polite">
                <progress max={total.to_string()} value={done.to_string()}></progress>
                <span>{ phase.clone() }</span>
            </div>
        },
        (Status::Failed(message), _) => html! { <div class="status failed" role="alert">{ message.clone() }</div> },
        (_, Some(result)) => {
            let (errors, warnings, notes) = result.counts;
            let text = if result.failed() {
                let pass = result.failed_pass.map(|p| result.report.passes[p].name).unwrap_or(birlink_core::Pass::Read);
                format!("link failed in {pass}")
            } else {
                format!("linked {}", result.report.options.linked_name.clone().unwrap_or_default())
            };
            html! {
                <div class={classes!("status", if result.failed() { "failed" } else { "ok" })} role="status" aria-live="polite" id="verdict"
                     data-load-ms={format!("{:.1}", result.stats.load_ms)} data-pipeline-ms={format!("{:.1}", result.stats.pipeline_ms)}
                     data-memory-bytes={result.stats.memory_bytes.to_string()}
                     data-memory-read-bytes={result.stats.memory_read_bytes.to_string()}>
                    <strong>{ text }</strong>
                    <span class="counts">{ birlink_core::diag::tally(errors, warnings, notes) }</span>
                    <span class="timing" title={format!("time in the worker: reading the files, then the pipeline; the worker's memory is {}", bytes(result.stats.memory_bytes))}>
                        { format!("{} in {:.0} ms", bytes(result.stats.bytes), result.stats.load_ms + result.stats.pipeline_ms) }
                    </span>
                </div>
            }
        }
        _ => html! { <div class="status">{ "open per-core module JSON to link it" }</div> },
    }
}
