//! The Compare view: the link set shown (A) against another (B), both linked by the
//! worker and compared there (`birlink_core::tools::compare`, what `birlink diff`
//! prints). First what explains the difference, then the sides, each core's first
//! divergence, the diagnostics of one side only, the per-core counts, the entities by
//! key, the barrier and remote DMA block sequences and the address copies. Every key
//! selects its entity: A's in the details panel as any name does, B's there too, marked
//! as B's. The core map and the masking of numbers are controls; Swap makes B the set
//! the other views show.
//!
//! * [`sections`] — the comparison's sections, one component each;
//! * [`keys`] — a key or a name that selects its entity, A's or B's.

mod keys;
mod sections;

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::english::counted;
use birlink_core::gen::samples::SampleInfo;

use super::bytes;
use super::link_set_picker::LinkSetPicker;
use crate::context::use_app;
use crate::services::files;
use crate::side::Side;
use crate::state::{Action, CompareAction, LinkAction, LinkOp, Status};
use sections::ComparisonView;

/// How many keys each list shows before "and N more".
pub(super) const SHOWN: usize = 200;

/// The view.
#[function_component(Compare)]
pub fn compare() -> Html {
    let context = use_app();
    let state = &context.state;
    let against = &state.sides[Side::Against];
    let body = if !against.is_open() {
        html! {
            <div class="empty-state compare-empty">
                <p>{ "Compare this link set with another: rank 0 against rank 1, LNC 1 against LNC 2, before against after. Open B's files, a folder, a sample or a shared link above, or drop them on this panel." }</p>
                <p class="hint">{ "The samples menu has three public failure reports as pairs (Compare two link sets)." }</p>
            </div>
        }
    } else {
        match (&against.link.status, &state.compare.comparison, &state.compare.failed) {
            (Status::Running { phase, .. }, _, _) => {
                html! { <p class="compare-status" role="status">{ format!("Linking B… {phase}") }</p> }
            }
            (Status::Failed(message), _, _) => {
                html! { <p class="compare-status error" role="status">{ format!("B could not be linked: {message}") }</p> }
            }
            (_, _, Some(why)) => {
                html! { <p class="compare-status error" role="status">{ format!("The comparison could not be made: {why}") }</p> }
            }
            (_, Some(comparison), _) => {
                // A public report's pair: its story, under the comparison.
                let story = state.shown().link.open_sample.as_deref().and_then(|a| {
                    let info = state.samples.iter().find(|s| s.file == a)?;
                    (info.against.is_some() && info.against == against.link.open_sample)
                        .then(|| info.description.clone())
                });
                html! { <ComparisonView comparison={comparison.clone()} story={story.map(AttrValue::from)} /> }
            }
            (_, None, None) => html! { <p class="compare-status" role="status">{ "Comparing…" }</p> },
        }
    };
    html! {
        <div class="compare" id="compare">
            <AgainstPanel />
            { body }
        </div>
    }
}

/// B: its picker (the header's, for B), its files, Swap and Close; what to compare with.
#[function_component(AgainstPanel)]
fn against_panel() -> Html {
    let context = use_app();
    let state = &context.state;
    let on_drop = {
        let context = context.clone();
        Callback::from(move |event: DragEvent| {
            // B's files, not A's: the page's own drop target does not see them.
            event.prevent_default();
            event.stop_propagation();
            let Some(transfer) = event.data_transfer() else { return };
            let context = context.clone();
            files::take_drop(transfer, Side::Against, move |action| context.dispatch(action));
        })
    };
    let on_dragover = Callback::from(|event: DragEvent| {
        event.prevent_default();
        event.stop_propagation();
    });
    let against = &state.sides[Side::Against];
    let samples: Rc<Vec<SampleInfo>> = state.samples.clone();
    let result = against.result.as_ref();
    let cores = result.map(|r| {
        let cores: std::collections::BTreeSet<u64> = r.report.inputs.iter().filter_map(|i| i.core).collect();
        format!(
            " · {} · LNC {} ({})",
            counted(cores.len(), "core"),
            r.report.options.lnc,
            r.report.options.lnc_source.as_str()
        )
    });
    // Embedded, the page takes no files from the reader: B comes from the link or the host.
    let embedded = state.mode == crate::state::Mode::Embed;
    let (on_drop, on_dragover) = if embedded { (Callback::noop(), Callback::noop()) } else { (on_drop, on_dragover) };
    html! {
        <section class="panel against" aria-labelledby="against-title" id="against-panel" ondrop={on_drop} ondragover={on_dragover}>
            <h2 id="against-title">
                { "Compared against (B)" }
                if against.is_open() {
                    <button type="button" class="link" id="against-swap" title="Show B in the other views, and compare A against it"
                            onclick={context.on(|| Action::Compare(CompareAction::Swap))}>{ "swap A and B" }</button>
                    <button type="button" class="link" id="against-close" onclick={context.on(|| Action::Compare(CompareAction::Close))}>{ "close" }</button>
                }
            </h2>
            if !embedded {
                <div class="against-open">
                    <LinkSetPicker side={Side::Against} {samples}
                                   open_sample={against.link.open_sample.clone().map(AttrValue::from)} lnc={against.link.lnc} />
                </div>
            }
            if against.is_open() {
                <p class="summary" id="against-summary"
                   data-pipeline-ms={result.map(|r| format!("{:.0}", r.stats.pipeline_ms + r.stats.load_ms)).unwrap_or_default()}
                   data-memory-bytes={result.map(|r| r.stats.memory_bytes.to_string()).unwrap_or_default()}>
                    { counted(against.link.files.len(), "file") }
                    if let Some(cores) = cores { { cores } }
                </p>
                <ul class="against-files">
                    { for against.link.files.iter().map(|file| {
                        let id = file.id;
                        let remove = context.on(move || LinkAction::against(LinkOp::RemoveFile(id)));
                        html! {
                            <li data-file={file.path.clone()}>
                                <span class="file" title={file.path.clone()}>{ file.path.clone() }</span>
                                <span class="meta">{ bytes(file.size) }</span>
                                <button type="button" class="remove" aria-label={format!("remove {} from B", file.path)} onclick={remove}>{ "×" }</button>
                            </li>
                        }
                    }) }
                </ul>
                <CompareOptions />
            }
        </section>
    }
}

/// How to compare: numbers in names masked, and which of B's cores each of A's is
/// compared with.
#[function_component(CompareOptions)]
fn compare_options() -> Html {
    let context = use_app();
    let state = &context.state;
    let options = state.compare.options.clone();
    let a_cores: Vec<u64> = core_list(state.result().map(|r| &r.report));
    let b_cores: Vec<u64> = core_list(state.sides[Side::Against].result.as_ref().map(|r| &r.report));
    let on_numbers = {
        let context = context.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                context.dispatch(Action::Compare(CompareAction::SetNumbers(input.checked())));
            }
        })
    };
    html! {
        <div class="compare-options" role="group" aria-label="How to compare">
            <label title="Compare names with every run of digits masked, so the counters that differ between ranks and call sites (CoreBarrier-0_480, CoreBarrier-0_180) do not count">
                <input type="checkbox" id="compare-numbers" checked={options.numbers} onchange={on_numbers} />
                { " numbers in names masked" }
            </label>
            if !a_cores.is_empty() && !b_cores.is_empty() {
                <span class="core-map" id="compare-core-map">
                    { "cores: " }
                    { for a_cores.iter().map(|&a| {
                        let b = options.core_map.iter().find(|(x, _)| *x == a).map_or(a, |(_, b)| *b);
                        let onchange = {
                            let context = context.clone();
                            let map = options.core_map.clone();
                            Callback::from(move |event: Event| {
                                let Some(select) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else { return };
                                let Ok(b) = select.value().parse::<u64>() else { return };
                                let mut map: Vec<(u64, u64)> = map.iter().copied().filter(|(x, _)| *x != a).collect();
                                map.push((a, b));
                                map.sort_unstable();
                                context.dispatch(Action::Compare(CompareAction::SetCoreMap(map)));
                            })
                        };
                        html! {
                            <label>
                                { format!("A{a}\u{2192}B") }
                                <select {onchange} data-core={a.to_string()} aria-label={format!("B's core compared with A's core {a}")}>
                                    { for b_cores.iter().map(|&c| html! { <option value={c.to_string()} selected={c == b}>{ c }</option> }) }
                                </select>
                            </label>
                        }
                    }) }
                </span>
            }
        </div>
    }
}

fn core_list(report: Option<&birlink_core::output::report::Report>) -> Vec<u64> {
    let mut cores: Vec<u64> = report.map(|r| r.inputs.iter().filter_map(|i| i.core).collect()).unwrap_or_default();
    cores.sort_unstable();
    cores.dedup();
    cores
}
