//! Barriers and remote DMA blocks side by side, one column per core, the i-th of every
//! core in row i (`birlink_core::tools::align`): the compiler pairs both by position, so a
//! name that differs (1189, `NCC_IXLV002`) or a block with no partner (1512,
//! `allEqual`) is a highlighted row.

use std::rc::Rc;

use yew::prelude::*;

use birlink_core::tools::align::{Alignment, BarrierCell, BlockCell, Row};
use birlink_core::EntityKind;

use super::table::DataTable;
use super::EntityLink;

/// Props of the aligned tables.
#[derive(Properties, PartialEq)]
pub struct AlignedProps {
    /// The run's alignment.
    pub alignment: Rc<Alignment>,
}

fn core_columns(first: &'static str, cores: &[u64]) -> Vec<AttrValue> {
    std::iter::once(AttrValue::Static(first))
        .chain(cores.iter().map(|c| AttrValue::from(format!("core {c}"))))
        .collect()
}

/// `mismatch` on the rows that differ; `rows` picks the table's rows out of the shared
/// alignment (no copy of them).
fn row_class<T: 'static>(alignment: Rc<Alignment>, rows: fn(&Alignment) -> &[Row<T>]) -> Callback<usize, Classes> {
    Callback::from(move |i: usize| if rows(&alignment)[i].mismatch { classes!("mismatch") } else { classes!() })
}

fn absent(what: &str) -> Html {
    html! { <span class="absent">{ format!("— no {what}") }</span> }
}

fn id_text(id: Option<u64>) -> String {
    id.map(|id| id.to_string()).unwrap_or_else(|| "—".to_owned())
}

fn barrier_cell(cell: &BarrierCell, expected: Option<&str>) -> Html {
    let differs = !cell.added && expected.is_some_and(|name| name != cell.name);
    let ids = if cell.old_id == cell.new_id {
        format!("id {}", id_text(cell.new_id))
    } else {
        format!("id {} → {}", id_text(cell.old_id), id_text(cell.new_id))
    };
    html! {
        <span class={classes!("aligned-cell", differs.then_some("differs"))}>
            <EntityLink kind={EntityKind::Instruction} name={cell.name.clone()} parent={Some(AttrValue::from(cell.function.clone()))} />
            <span class="muted">{ format!(" {} · {ids}", cell.block) }</span>
            if cell.added { <span class="muted">{ " · added by bir_linker" }</span> }
        </span>
    }
}

/// The i-th CoreBarrier of every core side by side.
#[function_component(AlignedBarriers)]
pub fn aligned_barriers(props: &AlignedProps) -> Html {
    let alignment = &props.alignment;
    let rows = &alignment.barriers;
    let first = rows.iter().find(|r| r.mismatch);
    let check = match first {
        None => html! {
            <p class="check ok" id="barrier-alignment">
                { format!("✓ the i-th CoreBarrier has the same name on every core ({} positions)", rows.len()) }
            </p>
        },
        Some(row) => {
            let expected = row.cells.first().and_then(Option::as_ref).filter(|c| !c.added).map(|c| c.name.clone());
            let differing = row
                .cells
                .iter()
                .zip(&alignment.cores)
                .skip(1)
                .find(|(cell, _)| cell.as_ref().filter(|c| !c.added).map(|c| &c.name) != expected.as_ref());
            let said = match (expected, differing) {
                (Some(expected), Some((Some(cell), core))) => format!(
                    "✕ core barrier {} of core {core} is `{}` where core {} has `{expected}` (1189, the compiler's NCC_IXLV002)",
                    row.index,
                    cell.name,
                    alignment.cores.first().copied().unwrap_or(0)
                ),
                _ => format!("✕ the cores have different numbers of CoreBarriers from position {}", row.index),
            };
            let count = rows.iter().filter(|r| r.mismatch).count();
            html! {
                <p class="check failed" id="barrier-alignment">
                    { said }
                    if count > 1 { { format!("; {count} positions differ in all") } }
                </p>
            }
        }
    };
    let row = {
        let alignment = alignment.clone();
        Callback::from(move |i: usize| -> Vec<Html> {
            let r = &alignment.barriers[i];
            let expected = r.cells.first().and_then(Option::as_ref).filter(|c| !c.added).map(|c| c.name.as_str());
            std::iter::once(html! { <span class="num">{ r.index }</span> })
                .chain(r.cells.iter().map(|cell| match cell {
                    Some(cell) => barrier_cell(cell, expected),
                    None => absent("barrier"),
                }))
                .collect()
        })
    };
    html! {
        <section class="aligned" id="aligned-barriers">
            <h3>{ "Aligned across cores" }</h3>
            { check }
            if rows.is_empty() {
                <p class="muted">{ "No CoreBarrier in the linked module." }</p>
            } else {
                <DataTable caption="The i-th CoreBarrier of every core: name, block, id before → after renumbering"
                           columns={core_columns("#", &alignment.cores)} rows={rows.len()} {row}
                           row_class={Some(row_class(alignment.clone(), |a| &a.barriers))} id="aligned-barriers-table" />
            }
        </section>
    }
}

fn block_cell(cell: &BlockCell) -> Html {
    let targets = cell.targets.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    let relinked = cell.relinked.iter().map(|(old, new)| format!("{old} → {new}")).collect::<Vec<_>>().join(", ");
    html! {
        <span class="aligned-cell">
            <EntityLink kind={EntityKind::Instruction} name={cell.name.clone()} parent={Some(AttrValue::from(cell.parent.clone()))} />
            <span class="muted">
                { format!(" in {} · to core {targets}", cell.parent) }
                if !relinked.is_empty() { { format!(" · id {relinked}") } }
            </span>
        </span>
    }
}

/// Remote-notifying DMA blocks paired k-th to k-th across cores.
#[function_component(PairedBlocks)]
pub fn paired_blocks(props: &AlignedProps) -> Html {
    let alignment = &props.alignment;
    let rows = &alignment.blocks;
    let unpaired = rows.iter().filter(|r| r.mismatch).count();
    let check = if unpaired == 0 {
        html! {
            <p class="check ok" id="block-pairing">
                { format!("✓ every block has a partner: {} pairs by position", rows.len()) }
            </p>
        }
    } else {
        let first = rows.iter().position(|r| r.mismatch).unwrap_or(0);
        html! {
            <p class="check failed" id="block-pairing">
                { format!("✕ {unpaired} position(s) from k = {first} have a block on some cores only: vnc_link cannot pair them (1512, `allEqual`)") }
            </p>
        }
    };
    let row = {
        let alignment = alignment.clone();
        Callback::from(move |i: usize| -> Vec<Html> {
            let r = &alignment.blocks[i];
            std::iter::once(html! { <span class="num">{ r.index }</span> })
                .chain(r.cells.iter().map(|cell| match cell {
                    Some(cell) => block_cell(cell),
                    None => absent("block: unpaired"),
                }))
                .collect()
        })
    };
    html! {
        <section class="aligned" id="paired-blocks">
            <h3>{ "Remote-notifying DMA blocks, paired by position" }</h3>
            { check }
            if rows.is_empty() {
                <p class="muted">{ "No remote-notifying DMA block in the linked module." }</p>
            } else {
                <DataTable caption="The k-th remote-notifying DMA block of every core: block, holder, target cores, relinked ids"
                           columns={core_columns("k", &alignment.cores)} rows={rows.len()} {row}
                           row_class={Some(row_class(alignment.clone(), |a| &a.blocks))} id="paired-blocks-table" />
            }
        </section>
    }
}
