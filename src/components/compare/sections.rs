//! The comparison's sections: what explains it, the two sides, each core's first
//! divergence, the diagnostics of one side only, the per-core counts, the entities by
//! key, and the barrier, remote DMA block and address sequences.

use yew::prelude::*;

use birlink_core::english::counted;
use birlink_core::tools::compare::{Comparison, Counts, Side as CompareSide};

use super::keys::{KeyLink, NamedLink};
use super::SHOWN;
use crate::components::bytes;
use crate::components::pipeline::word_diff;
use crate::side::Side;
use crate::state::ComparisonRef;

/// Props of the comparison's sections.
#[derive(Properties, PartialEq)]
pub(super) struct ComparisonProps {
    pub comparison: ComparisonRef,
    /// A public report's story, when the two are one of the samples' pairs.
    #[prop_or_default]
    pub story: Option<AttrValue>,
}

/// A comparison: what explains it first, then every table.
#[function_component(ComparisonView)]
pub(super) fn comparison_view(props: &ComparisonProps) -> Html {
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
    let value =
        |v: &Option<serde_json::Value>| v.as_ref().map(crate::components::value_text).unwrap_or_else(|| "—".to_owned());
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
