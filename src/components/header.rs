//! The top bar: open files or a folder, the samples menu, the LNC, search across
//! cores, exports, and the run's verdict.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::query::EntityQuery;

use super::{bytes, use_app};
use crate::protocol::{Export, Request};
use crate::services::{download, fetch, files};
use crate::state::{Action, Selection, Status};

/// The top bar.
#[function_component(Header)]
pub fn header() -> Html {
    let context = use_app();
    let state = &context.state;
    let files_input = use_node_ref();
    let folder_input = use_node_ref();

    let open = |input: NodeRef| {
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = input.cast::<web_sys::HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on_picked = {
        let context = context.clone();
        Callback::from(move |event: Event| {
            let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
                return;
            };
            let picked = files::from_input(&input);
            input.set_value("");
            if !picked.is_empty() {
                context.dispatch(Action::AddFiles(picked));
            }
        })
    };
    let on_sample = {
        let context = context.clone();
        Callback::from(move |event: Event| {
            let Some(select) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else {
                return;
            };
            let file = select.value();
            select.set_value("");
            if file.is_empty() {
                return;
            }
            let context = context.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match fetch::blob(&format!("samples/{file}")).await {
                    Ok(picked) => context.dispatch(Action::ReplaceFiles(vec![picked])),
                    Err(error) => context.dispatch(Action::Notice(Some(error))),
                }
            });
        })
    };
    let on_lnc = {
        let context = context.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                context.dispatch(Action::SetLnc(input.value().trim().parse().ok()));
            }
        })
    };
    let on_search = {
        let context = context.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                context.dispatch(Action::SearchText(input.value()));
            }
        })
    };
    let pick = |context: &crate::app::AppContext, query: EntityQuery| {
        context.dispatch(Action::Select(Selection::Entity(query)));
    };
    let on_search_key = {
        let context = context.clone();
        Callback::from(move |event: KeyboardEvent| match event.key().as_str() {
            "ArrowDown" => {
                event.prevent_default();
                context.dispatch(Action::SearchCursor(1));
            }
            "ArrowUp" => {
                event.prevent_default();
                context.dispatch(Action::SearchCursor(-1));
            }
            "Enter" => {
                let search = &context.state.search;
                if let Some(hit) = search.hits.get(search.cursor) {
                    pick(&context, hit.entity.clone());
                }
            }
            _ => {}
        })
    };
    let run = state.result.as_ref().map(|r| r.run);
    let export = |what: Export| {
        let context = context.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(run) = run {
                context.send(Request::Export { run, what });
            }
        })
    };
    let export_svg = {
        let context = context.clone();
        Callback::from(move |_: MouseEvent| {
            // The graph is drawn only in its view: open it, export once it is there.
            context.dispatch(Action::SetView(crate::state::View::CallGraph));
            gloo::timers::callback::Timeout::new(50, || {
                if let Some(svg) = gloo::utils::document().get_element_by_id("call-graph-svg") {
                    download::text(&svg_document(&svg), "call-graph.svg", "image/svg+xml");
                }
            })
            .forget();
        })
    };
    let linked = state.result.as_ref().is_some_and(|r| r.linked);

    let samples = state.samples.clone();
    let group = |title: &str, filter: fn(&birlink_core::samples::SampleInfo) -> bool| -> Html {
        html! {
            <optgroup label={title.to_owned()}>
                { for samples.iter().filter(|s| filter(s)).map(|s| html! {
                    <option value={s.file.clone()} title={s.description.clone()}>{ s.title.clone() }</option>
                }) }
            </optgroup>
        }
    };

    let search = &state.search;
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
                <button type="button" onclick={open(files_input.clone())} title="Open per-core module files or bundles">{ "Open files" }</button>
                <button type="button" onclick={open(folder_input.clone())} title="Open a folder of nc*/sg*/*.json dumps">{ "Open folder" }</button>
                <input type="file" id="file-input" multiple=true accept=".json,application/json" class="hidden"
                       ref={files_input} onchange={on_picked.clone()} aria-label="Open files" />
                <input type="file" id="folder-input" webkitdirectory=true multiple=true class="hidden"
                       ref={folder_input} onchange={on_picked} aria-label="Open folder" />
                <label class="samples">
                    <span class="visually-hidden">{ "Open a sample" }</span>
                    <select onchange={on_sample} id="samples">
                        <option value="" selected=true>{ "Samples…" }</option>
                        { group("Link sets", |s| s.code.is_none()) }
                        { group("Errors", |s| s.expect == "error") }
                        { group("Warnings", |s| s.expect == "warning") }
                        { group("Notes", |s| s.expect == "note") }
                    </select>
                </label>
                <label class="lnc" title="vnc_nc_count: the expected number of cores (empty: from the inputs)">
                    { "LNC " }
                    <input type="number" min="1" max="64" placeholder="auto" id="lnc"
                           value={state.lnc.map(|n| n.to_string()).unwrap_or_default()} onchange={on_lnc} />
                </label>
            </div>
            <div class="search" role="search">
                <label for="search" class="visually-hidden">{ "Search names across cores" }</label>
                <input type="search" id="search" placeholder="Search names across cores  (/)" autocomplete="off"
                       value={search.text.clone()} oninput={on_search} onkeydown={on_search_key}
                       aria-expanded={search.open.to_string()} aria-controls="search-results" />
                if search.open {
                    <ul class="search-results" id="search-results" role="listbox">
                        if search.hits.is_empty() {
                            <li class="empty">{ if linked { "no match" } else { "search needs a linked module" } }</li>
                        }
                        { for search.hits.iter().enumerate().map(|(i, hit)| {
                            let context = context.clone();
                            let query = hit.entity.clone();
                            let onclick = Callback::from(move |_| pick(&context, query.clone()));
                            html! {
                                <li role="option" aria-selected={(i == search.cursor).to_string()}
                                    class={classes!((i == search.cursor).then_some("cursor"))} {onclick}>
                                    <span class="kind">{ hit.entity.kind.clone() }</span>
                                    <span class="name">{ hit.entity.name.clone() }</span>
                                    <span class="parent">{ hit.entity.parent.clone().unwrap_or_default() }</span>
                                    <span class="core">{ hit.core.map(|c| format!("core {c}")).unwrap_or_default() }</span>
                                </li>
                            }
                        }) }
                    </ul>
                }
            </div>
            <div class="export" role="group" aria-label="Export">
                <button type="button" onclick={export(Export::Linked)} disabled={!linked} id="export-linked">{ "linked.json" }</button>
                <button type="button" onclick={export(Export::Report)} disabled={run.is_none()} id="export-report">{ "report.json" }</button>
                <button type="button" onclick={export_svg} disabled={!linked} id="export-svg">{ "SVG" }</button>
            </div>
            <button type="button" class="help-button" aria-label="Keyboard shortcuts"
                    onclick={let c = context.clone(); Callback::from(move |_| c.dispatch(Action::ToggleHelp))}>{ "?" }</button>
            if let Some(notice) = &state.notice {
                <div class="notice" role="alert">
                    { notice.clone() }
                    <button type="button" aria-label="Dismiss"
                            onclick={let c = context.clone(); Callback::from(move |_| c.dispatch(Action::Notice(None)))}>{ "×" }</button>
                </div>
            }
        </header>
    }
}

/// The run's verdict: progress while linking, then linked or failed, with counts and
/// the worker's time.
#[function_component(RunStatus)]
pub fn run_status() -> Html {
    let context = use_app();
    let state = &context.state;
    match (&state.status, &state.result) {
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
                let pass = result
                    .failed_pass
                    .map(|p| result.report.passes[p].name.clone())
                    .unwrap_or_else(|| "read".to_owned());
                format!("link failed in {pass}")
            } else {
                format!("linked {}", result.report.options.linked_name.clone().unwrap_or_default())
            };
            html! {
                <div class={classes!("status", if result.failed() { "failed" } else { "ok" })} role="status" aria-live="polite" id="verdict"
                     data-load-ms={format!("{:.1}", result.stats.load_ms)} data-pipeline-ms={format!("{:.1}", result.stats.pipeline_ms)}
                     data-memory-bytes={result.stats.memory_bytes.to_string()}>
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

/// A standalone SVG document of the call graph at its natural size (no pan or zoom),
/// with its styles inlined.
fn svg_document(svg: &web_sys::Element) -> String {
    let copy = svg.clone_node_with_deep(true).ok().and_then(|n| n.dyn_into::<web_sys::Element>().ok());
    let body = match copy {
        Some(copy) => {
            let width = svg.get_attribute("data-width").unwrap_or_else(|| "1000".to_owned());
            let height = svg.get_attribute("data-height").unwrap_or_else(|| "600".to_owned());
            let _ = copy.set_attribute("width", &width);
            let _ = copy.set_attribute("height", &height);
            let _ = copy.set_attribute("viewBox", &format!("0 0 {width} {height}"));
            if let Ok(Some(viewport)) = copy.query_selector("g.viewport") {
                let _ = viewport.remove_attribute("transform");
            }
            copy.outer_html()
        }
        None => svg.outer_html(),
    };
    let style = "<style>text{font:12px ui-monospace,monospace;fill:#1f2328}.lane{fill:#f6f8fa;stroke:#d0d7de}\
                 .node rect{fill:#fff;stroke:#57606a}.call path{stroke:#0969da;fill:none}.alias path{stroke:#bf3989;fill:none;stroke-dasharray:4 3}</style>";
    let body = body.replacen('>', &format!(">{style}"), 1);
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{body}\n")
}
