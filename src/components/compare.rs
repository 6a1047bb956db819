//! The Compare view: the link set shown (A) against another (B), both linked by the
//! worker and compared there (`birlink_core::tools::compare`, what `birlink diff`
//! prints). First what explains the difference, then the sides, each core's first
//! divergence, the diagnostics of one side only, the per-core counts, the entities by
//! key, the barrier and remote DMA block sequences and the address copies. Every key
//! selects its entity: A's in the details panel as any name does, B's there too, marked
//! as B's. The core map and the masking of numbers are controls; Swap makes B the set
//! the other views show.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::diag::counted;
use birlink_core::gen::samples::SampleInfo;
use birlink_core::tools::compare::{Comparison, Counts, DiagnosticEntity, Side as CompareSide};
use birlink_core::tools::share::ViewState;
use birlink_core::EntityKey;

use super::bytes;
use super::pipeline::word_diff;
use crate::context::use_app;
use crate::services::{fetch, files};
use crate::state::{Action, CompareAction, ComparisonRef, DetailsAction, Side, Status};

/// How many keys each list shows before "and N more".
const SHOWN: usize = 200;

/// The view.
#[function_component(Compare)]
pub fn compare() -> Html {
    let context = use_app();
    let state = &context.state;
    let against = &state.against;
    let body = if !against.is_open() {
        html! {
            <div class="empty-state compare-empty">
                <p>{ "Compare this link set with another: rank 0 against rank 1, LNC 1 against LNC 2, before against after. Open B's files, a folder, a sample or a shared link above, or drop them on this panel." }</p>
                <p class="hint">{ "The samples menu has three public failure reports as pairs (Compare two link sets)." }</p>
            </div>
        }
    } else {
        match (&against.link.status, &against.comparison, &against.failed) {
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
                let story = state.link.open_sample.as_deref().and_then(|a| {
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

/// B: its files, how to open them, its LNC, Swap and Close; what to compare with.
#[function_component(AgainstPanel)]
fn against_panel() -> Html {
    let context = use_app();
    let state = &context.state;
    let files_input = use_node_ref();
    let folder_input = use_node_ref();
    let link_text = use_state(String::new);
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
                context.dispatch(Action::Compare(CompareAction::AddFiles(picked)));
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
            if !file.is_empty() {
                open_against_sample(context.clone(), file);
            }
        })
    };
    let on_link_input = {
        let link_text = link_text.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                link_text.set(input.value());
            }
        })
    };
    let on_link = {
        let context = context.clone();
        let link_text = link_text.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            open_against_link(context.clone(), link_text.trim());
            link_text.set(String::new());
        })
    };
    let on_drop = {
        let context = context.clone();
        Callback::from(move |event: DragEvent| {
            // B's files, not A's: the page's own drop target does not see them.
            event.prevent_default();
            event.stop_propagation();
            let Some(transfer) = event.data_transfer() else { return };
            let context = context.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let picked = files::from_drop(transfer).await;
                if !picked.is_empty() {
                    context.dispatch(Action::Compare(CompareAction::AddFiles(picked)));
                }
            });
        })
    };
    let on_dragover = Callback::from(|event: DragEvent| {
        event.prevent_default();
        event.stop_propagation();
    });
    let on_lnc = {
        let context = context.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                context.dispatch(Action::Compare(CompareAction::SetLnc(input.value().trim().parse().ok())));
            }
        })
    };
    let against = &state.against;
    let open_sample = against.link.open_sample.clone();
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
                <button type="button" onclick={open(files_input.clone())} id="against-open-files">{ "B's files" }</button>
                <button type="button" onclick={open(folder_input.clone())} id="against-open-folder">{ "B's folder" }</button>
                <input type="file" id="against-file-input" multiple=true accept=".json,application/json" class="hidden"
                       ref={files_input} onchange={on_picked.clone()} aria-label="Open B's files" tabindex="-1" />
                <input type="file" id="against-folder-input" webkitdirectory=true multiple=true class="hidden"
                       ref={folder_input} onchange={on_picked} aria-label="Open B's folder" tabindex="-1" />
                <label class="samples">
                    <span class="visually-hidden">{ "A sample as B" }</span>
                    <select id="against-samples" onchange={on_sample}>
                        <option value="" selected={open_sample.is_none()}>{ "A sample as B…" }</option>
                        { for samples.iter().filter(|s| s.files.is_empty()).map(|s| html! {
                            <option value={s.file.clone()} title={s.description.clone()}
                                    selected={open_sample.as_deref() == Some(s.file.as_str())}>{ s.title.clone() }</option>
                        }) }
                    </select>
                </label>
                <form class="against-link" onsubmit={on_link}>
                    <input type="text" id="against-link" placeholder="or paste a birlink link" value={(*link_text).clone()}
                           oninput={on_link_input} aria-label="A birlink link to compare against" spellcheck="false" />
                    <button type="submit" disabled={link_text.trim().is_empty()}>{ "Open" }</button>
                </form>
                <label class="lnc" title="B's vnc_nc_count (empty: from its inputs)">
                    { "B's LNC " }
                    <input type="number" min="1" max="64" placeholder="auto" id="against-lnc"
                           value={against.link.lnc.map(|n| n.to_string()).unwrap_or_default()} onchange={on_lnc} />
                </label>
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
                        let remove = context.on(move || Action::Compare(CompareAction::RemoveFile(id)));
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

/// Opens a sample as B, from the samples index.
fn open_against_sample(context: crate::context::AppContext, file: String) {
    wasm_bindgen_futures::spawn_local(async move {
        match fetch::sample(&file).await {
            Ok((files, name)) => {
                context.dispatch(Action::Compare(CompareAction::ReplaceFiles { files, sample: Some(name) }))
            }
            Err(error) => context.dispatch(Action::Notice(Some(error))),
        }
    });
}

/// Opens what a pasted birlink link names as B: the link set it carries (`data=`), its
/// sample, or its `src=` URLs.
fn open_against_link(context: crate::context::AppContext, text: &str) {
    let (query, fragment) = match text.split_once('#') {
        Some((before, fragment)) => (before, fragment),
        None => (text, ""),
    };
    let (view, _) = ViewState::parse(fragment);
    let search = query.split_once('?').map_or("", |(_, q)| q);
    let params = crate::params::parse(search);
    if let Some(data) = view.data {
        context.dispatch(Action::Compare(CompareAction::OpenLink { data, lnc: params.lnc }));
    } else if let Some(sample) = params.sample {
        open_against_sample(context, sample);
    } else if !params.src.is_empty() {
        wasm_bindgen_futures::spawn_local(async move {
            let mut picked = Vec::new();
            for url in &params.src {
                match fetch::blob(url).await {
                    Ok(file) => picked.push(file),
                    Err(error) => return context.dispatch(Action::Notice(Some(error))),
                }
            }
            context.dispatch(Action::Compare(CompareAction::ReplaceFiles { files: picked, sample: None }));
        });
    } else {
        context.dispatch(Action::Notice(Some(
            "that link names no link set to compare against (no `data=`, `sample=` or `src=`)".to_owned(),
        )));
    }
}

/// How to compare: numbers in names masked, and which of B's cores each of A's is
/// compared with.
#[function_component(CompareOptions)]
fn compare_options() -> Html {
    let context = use_app();
    let state = &context.state;
    let options = state.against.options.clone();
    let a_cores: Vec<u64> = core_list(state.result.as_ref().map(|r| &r.report));
    let b_cores: Vec<u64> = core_list(state.against.result.as_ref().map(|r| &r.report));
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

/// Props of the comparison's sections.
#[derive(Properties, PartialEq)]
struct ComparisonProps {
    comparison: ComparisonRef,
    /// A public report's story, when the two are one of the samples' pairs.
    #[prop_or_default]
    story: Option<AttrValue>,
}

/// A comparison: what explains it first, then every table.
#[function_component(ComparisonView)]
fn comparison_view(props: &ComparisonProps) -> Html {
    let c: &Comparison = &props.comparison.comparison;
    let explanation = c.explanation();
    html! {
        <div class="comparison">
            <p class={classes!("compare-verdict", if c.equal { "agree" } else { "differ" })} id="compare-verdict" role="status">
                <strong>{ if c.equal { "A and B agree" } else { "A and B differ" } }</strong>
                if let Some(explanation) = explanation { { format!(": {explanation}") } }
            </p>
            if let Some(story) = &props.story { <p class="compare-note" id="compare-story">{ story.clone() }</p> }
            <Sides comparison={props.comparison.clone()} />
            if !c.normalization.applied.is_empty() {
                <p class="compare-note" id="compare-masked">
                    { format!("Names compared with {} masked: {} keys read differently", c.normalization.applied.join(", "), c.normalization.keys_changed) }
                    if !c.normalization.examples.is_empty() {
                        { ", e.g. " }
                        { for c.normalization.examples.iter().take(3).enumerate().map(|(i, m)| html! {
                            <>{ if i > 0 { ", " } else { "" } }<code>{ m.written.clone() }</code>{ " as " }<code>{ m.compared.clone() }</code></>
                        }) }
                    }
                    { "." }
                </p>
            }
            <FirstDivergence comparison={props.comparison.clone()} />
            <DiagnosticsDiff comparison={props.comparison.clone()} />
            <CountsTable comparison={props.comparison.clone()} />
            <EntitiesDiff comparison={props.comparison.clone()} />
            <Sequences comparison={props.comparison.clone()} />
        </div>
    }
}

/// The two sides' provenance and verdicts, side by side.
#[function_component(Sides)]
fn sides(props: &ComparisonProps) -> Html {
    let [a, b] = &props.comparison.comparison.sides;
    let files = |s: &CompareSide| {
        let total: u64 = s.files.iter().map(|f| f.bytes).sum();
        format!("{} ({})", counted(s.files.len(), "file"), bytes(total))
    };
    let value = |v: &Option<serde_json::Value>| v.as_ref().map(super::value_text).unwrap_or_else(|| "—".to_owned());
    let or_dash = |text: String| if text.is_empty() { "—".to_owned() } else { text };
    let rows: Vec<(&str, String, String)> = vec![
        ("verdict", a.verdict(), b.verdict()),
        ("files", files(a), files(b)),
        ("modules", or_dash(a.modules.join(", ")), or_dash(b.modules.join(", "))),
        (
            "cores",
            a.cores.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
            b.cores.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
        ),
        ("LNC", format!("{} ({})", a.lnc, a.lnc_source.as_str()), format!("{} ({})", b.lnc, b.lnc_source.as_str())),
        ("codes", or_dash(a.codes.join(", ")), or_dash(b.codes.join(", "))),
        ("version", value(&a.version), value(&b.version)),
        ("arch", value(&a.arch), value(&b.arch)),
        (
            "linked",
            a.linked_name.clone().unwrap_or_else(|| "—".into()),
            b.linked_name.clone().unwrap_or_else(|| "—".into()),
        ),
    ];
    html! {
        <table class="compare-sides" id="compare-sides">
            <caption>{ "The two link sets" }</caption>
            <thead><tr><th scope="col"></th><th scope="col">{ "A (shown)" }</th><th scope="col">{ "B (compared against)" }</th></tr></thead>
            <tbody>
                { for rows.into_iter().map(|(name, x, y)| {
                    let differs = x != y;
                    html! {
                        <tr class={classes!(differs.then_some("differs"))}>
                            <th scope="row">{ name }</th>
                            <td>{ x }</td>
                            <td>{ y }</td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

/// Props of [`KeyLink`].
#[derive(Properties, PartialEq)]
struct KeyLinkProps {
    /// The entity key, as text.
    key_text: AttrValue,
    /// Whose.
    side: Side,
}

/// An entity key that selects its entity (A's, or B's) in the details panel.
#[function_component(KeyLink)]
fn key_link(props: &KeyLinkProps) -> Html {
    let context = use_app();
    let Ok(key) = props.key_text.parse::<EntityKey>() else {
        return html! { <code class="key">{ props.key_text.clone() }</code> };
    };
    let side = props.side;
    let onclick = context.on(move || match side {
        Side::Shown => Action::Details(DetailsAction::SelectKey(key.clone())),
        Side::Against => Action::Compare(CompareAction::SelectAgainst(key.clone())),
    });
    let (class, title) = match side {
        Side::Shown => ("side-a", format!("show A's {}", props.key_text)),
        Side::Against => ("side-b", format!("show B's {}", props.key_text)),
    };
    html! {
        <button type="button" class={classes!("entity", "key", class)} {onclick} {title}>{ props.key_text.clone() }</button>
    }
}

/// Props of [`NamedLink`].
#[derive(Properties, PartialEq)]
struct NamedLinkProps {
    /// The entity as its side names it.
    entity: DiagnosticEntity,
    /// What to show (the key the comparison matched it by).
    text: AttrValue,
    /// Whose.
    side: Side,
}

/// An entity a diagnostic is about, selected by what names it (A's, or B's).
#[function_component(NamedLink)]
fn named_link(props: &NamedLinkProps) -> Html {
    let context = use_app();
    let query = crate::state::query(props.entity.kind, &props.entity.name, props.entity.parent.as_deref());
    let side = props.side;
    let onclick = context.on(move || match side {
        Side::Shown => Action::Details(DetailsAction::Select(crate::state::Selection::Entity(query.clone()))),
        Side::Against => Action::Compare(CompareAction::SelectAgainstEntity(query.clone())),
    });
    let class = if side == Side::Against { "side-b" } else { "side-a" };
    html! {
        <button type="button" class={classes!("entity", "key", class)} {onclick}
                title={format!("show {}'s {} {}", if side == Side::Against { "B" } else { "A" }, props.entity.kind, props.entity.name)}>
            { props.text.clone() }
        </button>
    }
}

/// Each core's first instruction (walk order) whose canonical line differs.
#[function_component(FirstDivergence)]
fn first_divergence(props: &ComparisonProps) -> Html {
    let c = &props.comparison.comparison;
    if c.first_divergence.is_empty() {
        return html! {};
    }
    html! {
        <section class="compare-section" id="compare-first-divergence">
            <h3>{ "Where each core first parts" }</h3>
            <ul class="divergences">
                { for c.first_divergence.iter().map(|d| {
                    let place = |p: &Option<birlink_core::tools::compare::Place>, side: Side| match p {
                        Some(p) => html! {
                            <>
                                <KeyLink key_text={p.key.clone()} {side} />
                                if let Some(source) = &p.source { <span class="source" title="the kernel line">{ source.clone() }</span> }
                            </>
                        },
                        None => html! { <span class="muted">{ "(nothing more)" }</span> },
                    };
                    let diff = match (&d.a, &d.b) {
                        (Some(a), Some(b)) => {
                            let (before, after) = word_diff(&a.text, &b.text);
                            html! { <div class="line-diff"><div class="before"><span class="side">{ "A" }</span>{ before }</div><div class="after"><span class="side">{ "B" }</span>{ after }</div></div> }
                        }
                        (Some(a), None) => html! { <div class="line-diff"><div class="before"><span class="side">{ "A" }</span><code>{ a.text.clone() }</code></div></div> },
                        (None, Some(b)) => html! { <div class="line-diff"><div class="after"><span class="side">{ "B" }</span><code>{ b.text.clone() }</code></div></div> },
                        (None, None) => html! {},
                    };
                    html! {
                        <li data-core={d.core.to_string()}>
                            <div class="where">
                                { format!("core {}", d.core) }
                                if d.core_b != d.core { { format!(" (B's {})", d.core_b) } }
                                { format!(", instruction #{}: A ", d.index) }
                                { place(&d.a, Side::Shown) }
                                { " · B " }
                                { place(&d.b, Side::Against) }
                            </div>
                            { diff }
                        </li>
                    }
                }) }
            </ul>
        </section>
    }
}

/// Diagnostics of one side only, and how many both have.
#[function_component(DiagnosticsDiff)]
fn diagnostics_diff(props: &ComparisonProps) -> Html {
    let d = &props.comparison.comparison.diagnostics;
    let list = |label: &str, id: &str, keys: &[birlink_core::tools::compare::DiagnosticKey], side: Side| {
        if keys.is_empty() {
            return html! {};
        }
        html! {
            <div class="diag-side" id={id.to_owned()}>
                <h4>{ format!("{label} ({})", keys.len()) }</h4>
                <ul>
                    { for keys.iter().take(SHOWN).map(|k| html! {
                        <li>
                            <span class="code">{ code_with_ncc(&k.code) }</span>
                            { " " }
                            { match &k.at {
                                Some(at) => html! { <NamedLink entity={at.clone()} text={k.entity.clone()} {side} /> },
                                None if k.entity.is_empty() => html! { <span class="muted">{ "the link set" }</span> },
                                None => html! { <code class="key">{ k.entity.clone() }</code> },
                            } }
                        </li>
                    }) }
                    if keys.len() > SHOWN { <li class="muted">{ format!("and {} more", keys.len() - SHOWN) }</li> }
                </ul>
            </div>
        }
    };
    html! {
        <section class="compare-section" id="compare-diagnostics">
            <h3>{ "Diagnostics" }</h3>
            if d.only_a.is_empty() && d.only_b.is_empty() {
                <p class="muted">{ format!("The same on both sides ({} in both).", d.both.len()) }</p>
            } else {
                <div class="diag-sides">
                    { list("Only in A", "compare-only-a", &d.only_a, Side::Shown) }
                    { list("Only in B", "compare-only-b", &d.only_b, Side::Against) }
                </div>
                <p class="muted">{ format!("{} in both.", d.both.len()) }</p>
            }
        </section>
    }
}

/// A code with the compiler's, where it has one: `1514 (NCC_ILLC059)`.
fn code_with_ncc(code: &str) -> String {
    match birlink_core::Code::parse(code).and_then(|c| c.ncc()) {
        Some(ncc) => format!("{code} ({ncc})"),
        None => code.to_owned(),
    }
}

/// Per core, both sides' counts, the differing cells marked.
#[function_component(CountsTable)]
fn counts_table(props: &ComparisonProps) -> Html {
    let c = &props.comparison.comparison;
    let mut opcodes: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    for row in &c.cores {
        for counts in [&row.a, &row.b].into_iter().flatten() {
            opcodes.extend(counts.opcodes.keys().map(String::as_str));
        }
    }
    type Field = (String, fn(&Counts, &str) -> u64);
    let mut fields: Vec<Field> = vec![
        ("functions".into(), |c, _| c.functions),
        ("blocks".into(), |c, _| c.blocks),
        ("instructions".into(), |c, _| c.instructions),
        ("memlocs".into(), |c, _| c.memlocs),
        ("shared".into(), |c, _| c.shared),
        ("remote".into(), |c, _| c.remote),
        ("barriers".into(), |c, _| c.barriers),
        ("remote_dma_blocks".into(), |c, _| c.remote_dma_blocks),
        ("semaphores".into(), |c, _| c.semaphores),
    ];
    fields.extend(opcodes.iter().map(|op| {
        (
            format!("opcodes.{op}"),
            (|c: &Counts, name: &str| c.opcodes.get(name.trim_start_matches("opcodes.")).copied().unwrap_or(0))
                as fn(&Counts, &str) -> u64,
        )
    }));
    html! {
        <section class="compare-section" id="compare-counts">
            <h3>{ "Counts per core" }</h3>
            <div class="table-wrap">
                <table class="compare-counts">
                    <thead>
                        <tr>
                            <th scope="col">{ "" }</th>
                            { for c.cores.iter().map(|row| html! {
                                <th scope="col" colspan="2">{ if row.core == row.core_b { format!("core {}", row.core) } else { format!("A {} · B {}", row.core, row.core_b) } }</th>
                            }) }
                        </tr>
                        <tr>
                            <th scope="col"></th>
                            { for c.cores.iter().map(|_| html! { <><th scope="col">{ "A" }</th><th scope="col">{ "B" }</th></> }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for fields.iter().map(|(name, get)| html! {
                            <tr>
                                <th scope="row">{ name.clone() }</th>
                                { for c.cores.iter().map(|row| {
                                    let differs = row.differs.iter().any(|d| d == name || d == "core");
                                    let cell = |counts: &Option<Counts>| counts.as_ref().map_or("—".to_owned(), |counts| get(counts, name).to_string());
                                    let class = classes!(differs.then_some("differs"));
                                    html! { <><td class={class.clone()}>{ cell(&row.a) }</td><td class={class}>{ cell(&row.b) }</td></> }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// Entities added (B only), removed (A only) and changed, by kind, then by key.
#[function_component(EntitiesDiff)]
fn entities_diff(props: &ComparisonProps) -> Html {
    let e = &props.comparison.comparison.entities;
    if e.is_empty() {
        return html! {
            <section class="compare-section" id="compare-entities">
                <h3>{ "Entities" }</h3>
                <p class="muted">{ "Every entity has the same key and the same canonical line on both sides." }</p>
            </section>
        };
    }
    let keys = |label: &str, id: &str, list: &[String], side: Side| {
        if list.is_empty() {
            return html! {};
        }
        html! {
            <details class="key-list" id={id.to_owned()} open={list.len() <= 20}>
                <summary>{ format!("{label} ({})", list.len()) }</summary>
                <ul>
                    { for list.iter().take(SHOWN).map(|k| html! { <li><KeyLink key_text={k.clone()} {side} /></li> }) }
                    if list.len() > SHOWN { <li class="muted">{ format!("and {} more", list.len() - SHOWN) }</li> }
                </ul>
            </details>
        }
    };
    html! {
        <section class="compare-section" id="compare-entities">
            <h3>{ "Entities" }</h3>
            <table class="compare-kinds">
                <thead><tr><th scope="col">{ "kind" }</th><th scope="col">{ "added (B only)" }</th><th scope="col">{ "removed (A only)" }</th><th scope="col">{ "changed" }</th></tr></thead>
                <tbody>
                    { for e.by_kind.iter().map(|(kind, [added, removed, changed])| html! {
                        <tr><th scope="row">{ kind.clone() }</th><td>{ added }</td><td>{ removed }</td><td>{ changed }</td></tr>
                    }) }
                </tbody>
            </table>
            if e.truncated { <p class="muted">{ format!("Each list stops at {} keys; the counts above are complete.", 500) }</p> }
            { keys("Added: only B has them", "compare-added", &e.added, Side::Against) }
            { keys("Removed: only A has them", "compare-removed", &e.removed, Side::Shown) }
            if !e.changed.is_empty() {
                <details class="key-list" id="compare-changed" open={e.changed.len() <= 20}>
                    <summary>{ format!("Changed ({})", e.changed.len()) }</summary>
                    <ul class="changed">
                        { for e.changed.iter().take(SHOWN).map(|change| {
                            let (before, after) = word_diff(&change.a, &change.b);
                            html! {
                                <li>
                                    <KeyLink key_text={change.key.clone()} side={Side::Shown} />
                                    { " · " }
                                    <KeyLink key_text={change.key_b.clone().unwrap_or_else(|| change.key.clone())} side={Side::Against} />
                                    <div class="line-diff"><div class="before"><span class="side">{ "A" }</span>{ before }</div><div class="after"><span class="side">{ "B" }</span>{ after }</div></div>
                                </li>
                            }
                        }) }
                        if e.changed.len() > SHOWN { <li class="muted">{ format!("and {} more", e.changed.len() - SHOWN) }</li> }
                    </ul>
                </details>
            }
        </section>
    }
}

/// The CoreBarrier and remote DMA block sequences, and the address copies, where the
/// two sides differ, position by position.
#[function_component(Sequences)]
fn sequences(props: &ComparisonProps) -> Html {
    let c = &props.comparison.comparison;
    let id = |id: Option<u64>| id.map_or("—".to_owned(), |n| n.to_string());
    let barrier = |end: &Option<birlink_core::tools::compare::BarrierEnd>| match end {
        Some(end) => format!("{} (id {} → {})", end.name, id(end.id), id(end.new_id)),
        None => "(none)".to_owned(),
    };
    let block = |end: &Option<birlink_core::tools::compare::BlockEnd>| match end {
        Some(end) => format!("{} → cores {:?}", end.name, end.targets),
        None => "(none)".to_owned(),
    };
    let address = |tuple: &Option<birlink_core::model::ir::PhysTuple>| match tuple {
        Some(t) => serde_json::to_string(t).unwrap_or_default(),
        None => "(none)".to_owned(),
    };
    html! {
        <section class="compare-section" id="compare-sequences">
            <h3>{ "CoreBarriers, remote DMA blocks and address copies" }</h3>
            if c.barriers.is_empty() && c.blocks.is_empty() && c.addresses.is_empty() {
                <p class="muted">{ "The same, position by position, on every core." }</p>
            }
            if !c.barriers.is_empty() {
                <table class="compare-seq" id="compare-barriers">
                    <caption>{ format!("CoreBarriers that differ ({})", c.barriers.len()) }</caption>
                    <thead><tr><th scope="col">{ "core" }</th><th scope="col">{ "position" }</th><th scope="col">{ "A" }</th><th scope="col">{ "B" }</th></tr></thead>
                    <tbody>
                        { for c.barriers.iter().take(SHOWN).map(|row| html! {
                            <tr data-core={row.core.to_string()} data-index={row.index.to_string()}>
                                <td>{ row.core }</td><td>{ row.index }</td>
                                <td class="differs">{ barrier(&row.a) }</td><td class="differs">{ barrier(&row.b) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
            if !c.blocks.is_empty() {
                <table class="compare-seq" id="compare-blocks">
                    <caption>{ format!("Remote DMA blocks that differ ({})", c.blocks.len()) }</caption>
                    <thead><tr><th scope="col">{ "core" }</th><th scope="col">{ "position" }</th><th scope="col">{ "A" }</th><th scope="col">{ "B" }</th></tr></thead>
                    <tbody>
                        { for c.blocks.iter().take(SHOWN).map(|row| html! {
                            <tr><td>{ row.core }</td><td>{ row.index }</td><td class="differs">{ block(&row.a) }</td><td class="differs">{ block(&row.b) }</td></tr>
                        }) }
                    </tbody>
                </table>
            }
            if !c.addresses.is_empty() {
                <table class="compare-seq" id="compare-addresses">
                    <caption>{ format!("Address copies that differ ({})", c.addresses.len()) }</caption>
                    <thead><tr><th scope="col">{ "core" }</th><th scope="col">{ "view" }</th><th scope="col">{ "A" }</th><th scope="col">{ "B" }</th></tr></thead>
                    <tbody>
                        { for c.addresses.iter().take(SHOWN).map(|row| html! {
                            <tr><td>{ row.core }</td><td>{ row.memloc.clone() }</td><td class="differs">{ address(&row.a) }</td><td class="differs">{ address(&row.b) }</td></tr>
                        }) }
                    </tbody>
                </table>
            }
        </section>
    }
}
