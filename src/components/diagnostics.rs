//! Every diagnostic, errors first: code, message, where (file, line, column, pointer),
//! what to do, the names that do exist, the per-core table — and the code's full
//! explanation one click away. Selecting one shows its place in the input. A code
//! repeated many times shows its first few and counts the rest, which open a hundred at
//! a time (the selected one is always drawn): 10,000 findings are not 10,000 cards.

use yew::prelude::*;

use birlink_core::diag::Diagnostic;
use birlink_core::tools::query::EntityQuery;
use birlink_core::{Code, EntityKind};

use crate::context::use_app;
use crate::state::{Action, DetailsAction, Selection};

/// Cards drawn of each code before the rest are counted.
const SHOWN_PER_CODE: usize = 10;
/// Cards one "show more" adds.
const MORE: usize = 100;

/// The diagnostics view.
#[function_component(Diagnostics)]
pub fn diagnostics() -> Html {
    let context = use_app();
    // Extra cards opened per code, for the run they were opened in.
    let opened = use_state(|| (0u64, std::collections::BTreeMap::<Code, usize>::new()));
    let state = &context.state;
    let Some(result) = state.result() else { return html! {} };
    let report = &result.report;
    let selected = match state.details.selection {
        Some(Selection::Diagnostic(i)) => Some(i),
        _ => None,
    };
    if report.diagnostics.is_empty() {
        return html! { <div class="empty-state" id="diagnostics-view"><p>{ "✓ No diagnostics: the link is clean." }</p></div> };
    }
    let (errors, warnings, notes) = result.counts;
    html! {
        <div class="diagnostics" id="diagnostics-view">
            <p class="muted">{ format!("{} · j / k to move", birlink_core::diag::tally(errors, warnings, notes)) }</p>
            <ol class="diag-list">
                { for result.diagnostic_groups.iter().map(|(code, group)| {
                    let extra = if opened.0 == result.run { opened.1.get(code).copied().unwrap_or(0) } else { 0 };
                    let rank = selected.and_then(|s| group.iter().position(|&i| i == s)).map_or(0, |r| r + 1);
                    let shown = (SHOWN_PER_CODE + extra).max(rank).min(group.len());
                    let rest = group.len() - shown;
                    let more = {
                        let opened = opened.clone();
                        let (run, code) = (result.run, *code);
                        Callback::from(move |_: MouseEvent| {
                            let mut map = if opened.0 == run { opened.1.clone() } else { Default::default() };
                            *map.entry(code).or_default() = shown + MORE - SHOWN_PER_CODE;
                            opened.set((run, map));
                        })
                    };
                    let first = &report.diagnostics[group[0]];
                    html! {
                        <>
                            { for group[..shown].iter().map(|&i| html! {
                                <DiagnosticCard index={i} diagnostic={report.diagnostics[i].clone()} selected={selected == Some(i)} linked={result.linked} />
                            }) }
                            if rest > 0 {
                                <li class="diag-more" data-code={code.as_str()}>
                                    { format!("{rest} more {}[{code}] like these — {}", first.severity.as_str(), code.info().title) }
                                    <button type="button" class="link" onclick={more}>{ format!("show {}", rest.min(MORE)) }</button>
                                </li>
                            }
                        </>
                    }
                }) }
            </ol>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct CardProps {
    index: usize,
    diagnostic: Diagnostic,
    selected: bool,
    linked: bool,
}

#[function_component(DiagnosticCard)]
fn diagnostic_card(props: &CardProps) -> Html {
    let context = use_app();
    let d = &props.diagnostic;
    let node = use_node_ref();
    {
        let node = node.clone();
        use_effect_with(props.selected, move |selected| {
            if *selected {
                if let Some(element) = node.cast::<web_sys::Element>() {
                    let options = web_sys::ScrollIntoViewOptions::new();
                    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    element.scroll_into_view_with_scroll_into_view_options(&options);
                }
            }
        });
    }
    let onclick = {
        let context = context.clone();
        let index = props.index;
        Callback::from(move |_| context.dispatch(Action::Details(DetailsAction::Select(Selection::Diagnostic(index)))))
    };
    let info = d.code.info();
    let entity = d.entity.clone().filter(|e| props.linked && !matches!(e.kind, EntityKind::File | EntityKind::Module));
    let show_entity = entity.map(|e| {
        let context = context.clone();
        let label = format!("show {} `{}`", e.kind, e.name);
        let query = EntityQuery::new(e.kind, e.name, e.parent).on(d.core);
        let onclick = Callback::from(move |event: MouseEvent| {
            event.stop_propagation();
            context.dispatch(Action::Details(DetailsAction::Select(Selection::Entity(query.clone()))));
        });
        html! { <button type="button" class="link" {onclick}>{ label }</button> }
    });
    let severity = d.severity.as_str();
    html! {
        <li ref={node} class={classes!("diag", severity, props.selected.then_some("selected"))} data-code={d.code.as_str()}>
            <button type="button" class="diag-main" {onclick} aria-pressed={props.selected.to_string()}>
                <span class={classes!("badge", severity)}>{ format!("{severity}[{}]", d.code) }</span>
                if let Some(ncc) = d.code.ncc() {
                    <span class="ncc" title="the compiler's code for the same failure">{ ncc }</span>
                }
                <span class="message">{ d.message.clone() }</span>
            </button>
            <div class="diag-meta">
                <span class="pass">{ d.pass.as_str() }</span>
                if let Some(core) = d.core { <span class="core">{ format!("core {core}") }</span> }
                if let Some(location) = &d.location {
                    <span class="location" title={location.pointer.clone()}>
                        { match (location.line, location.column) {
                            (Some(line), Some(column)) => format!("{}:{line}:{column}", location.file),
                            _ => location.file.clone(),
                        } }
                        if !location.pointer.is_empty() { <code>{ location.pointer.clone() }</code> }
                    </span>
                }
                { show_entity.unwrap_or_default() }
            </div>
            if !d.nearest.is_empty() {
                <p class="nearest">{ "closest names: " }{ for d.nearest.iter().map(|n| html! { <code>{ n.clone() }</code> }) }</p>
            }
            if !d.found_on_cores.is_empty() {
                <p class="nearest">{ format!("the name exists on {} {}", if d.found_on_cores.len() == 1 { "core" } else { "cores" }, d.found_on_cores.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")) }</p>
            }
            if !d.table.is_empty() {
                <table class="diag-table">
                    <caption>{ "per core" }</caption>
                    <thead><tr><th scope="col">{ "core" }</th><th scope="col">{ "module" }</th><th scope="col">{ "count" }</th></tr></thead>
                    <tbody>{ for d.table.iter().map(|row| html! { <tr><td>{ row.core }</td><td>{ row.module.clone() }</td><td class="num">{ row.count }</td></tr> }) }</tbody>
                </table>
            }
            if let Some(source) = &d.source {
                <p class="source">{ "source: " }<code>{ source.clone() }</code></p>
            }
            { for d.notes.iter().map(|note| html! { <p class="note">{ format!("note: {note}") }</p> }) }
            if !d.help.is_empty() { <p class="help"><strong>{ "help: " }</strong>{ d.help.clone() }</p> }
            <details class="explain">
                <summary>{ format!("{} — {}", info.code, info.title) }</summary>
                <p>{ info.explanation }</p>
                <pre>{ info.example }</pre>
            </details>
        </li>
    }
}
