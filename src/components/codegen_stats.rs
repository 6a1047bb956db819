//! Codegen's statistics per core, side by side (`tools::log::InstructionStats`): for each
//! kind of module (`sgLnk`, `sg00`), its opcode, engine and DMA-descriptor tables with a
//! column per core, the rows whose counts differ between the cores marked. An opcode the
//! compiler printed unnamed and public material names says so, with the source.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use birlink_core::tools::log::{InstructionStats, LogReading};

/// The tables' props.
#[derive(Properties, PartialEq)]
pub struct CodegenStatsProps {
    /// The log, read: its run's codegen statistics, in the log's order.
    pub reading: Rc<LogReading>,
}

/// A module's kind: what follows its core (`nc01/sgLnk` → `sgLnk`).
fn slot(module: &str) -> &str {
    module.split_once('/').map_or(module, |(_, slot)| slot)
}

/// One table: a row per name, a column per module of the slot.
fn table(
    title: &str,
    id: String,
    modules: &[&InstructionStats],
    rows: impl Fn(&InstructionStats) -> &BTreeMap<String, u64>,
) -> Html {
    let mut names: Vec<&String> = modules.iter().flat_map(|m| rows(m).keys()).collect();
    names.sort();
    names.dedup();
    if names.is_empty() {
        return html! {};
    }
    let differ = |name: &String| modules.iter().any(|m| rows(m).get(name) != rows(modules[0]).get(name));
    let body = names.iter().map(|name| {
        let class = classes!(differ(name).then_some("cg-differs"));
        let cells = modules.iter().map(|m| {
            let count = rows(m).get(*name).map_or_else(|| "—".to_owned(), u64::to_string);
            html! { <td class="num">{ count }</td> }
        });
        html! { <tr {class}><th scope="row"><code>{ (*name).clone() }</code></th>{ for cells }</tr> }
    });
    let heads = modules.iter().map(|m| html! { <th scope="col">{ format!("core {}", m.core) }</th> });
    html! {
        <table class="cg-table" id={id}>
            <caption>{ title }</caption>
            <thead><tr><th scope="col">{ "" }</th>{ for heads }</tr></thead>
            <tbody>{ for body }</tbody>
        </table>
    }
}

#[function_component(CodegenStats)]
pub fn codegen_stats(props: &CodegenStatsProps) -> Html {
    let stats = &props.reading.run.instruction_stats;
    if stats.is_empty() {
        return html! {};
    }
    let mut slots: Vec<&str> = stats.iter().map(|s| slot(&s.module)).collect();
    slots.sort_unstable();
    slots.dedup();
    let groups = slots.into_iter().map(|name| {
        let modules: Vec<&InstructionStats> = stats.iter().filter(|s| slot(&s.module) == name).collect();
        let differing = modules.iter().any(|m| m.opcodes != modules[0].opcodes);
        let verdict = match (modules.len(), differing) {
            (1, _) => "one core".to_owned(),
            (_, false) => "the cores' opcode counts are equal".to_owned(),
            (_, true) => "the cores' opcode counts differ (marked)".to_owned(),
        };
        let named = modules.iter().flat_map(|m| &m.named).map(|n| (n.printed.clone(), n.name.clone(), n.source.clone()));
        let mut named: Vec<(String, String, String)> = named.collect();
        named.sort();
        named.dedup();
        let named = named.into_iter().map(|(printed, name, source)| {
            html! { <li><code>{ name }</code>{ " is printed " }<code>{ printed }</code>{ format!(": named from {source}") }</li> }
        });
        html! {
            <section class="cg-slot" data-slot={name.to_owned()}>
                <p><strong>{ name.to_owned() }</strong>{ format!(" — {verdict}") }</p>
                <div class="cg-tables">
                    { table("Opcodes", format!("cg-{name}-opcodes"), &modules, |m| &m.opcodes) }
                    { table("Engines", format!("cg-{name}-engines"), &modules, |m| &m.engines) }
                    { table("DMA descriptors", format!("cg-{name}-queues"), &modules, |m| &m.queues) }
                </div>
                <ul class="muted cg-named">{ for named }</ul>
            </section>
        }
    });
    html! {
        <details class="codegen-stats" id="log-codegen-stats" open=true>
            <summary>{ "Codegen's Instruction Stats, each core side by side" }</summary>
            { for groups }
        </details>
    }
}
