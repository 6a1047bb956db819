//! The two public failures seen at a glance: CoreBarriers and remote-notifying DMA
//! blocks of every core, aligned by position.
//!
//! The compiler pairs both by position, never by name. Its LncVerifier expects the i-th
//! CoreBarrier of every core to carry core 0's name (1189, the compiler's
//! `NCC_IXLV002`), and `vnc_link` pairs the k-th remote-notifying DMA block of a core
//! with the k-th of its peer (1512, `allEqual`). [`of`] lines them up row by row over
//! the linked module, so a mismatched name or an unpaired block stands out: the page's
//! Barriers and Semaphores views draw these rows. Nothing here changes `report.json`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::ir::Op;
use crate::model::linked::LinkedSet;
use crate::output::report::Report;
use crate::passes::partition::Partitions;
use crate::passes::{vnc_link, Outcome};

/// Both alignments of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Alignment {
    /// The cores, in partition order: the columns of both tables.
    pub cores: Vec<u64>,
    /// CoreBarriers, the i-th of every core in row i.
    pub barriers: Vec<Row<BarrierCell>>,
    /// Remote-notifying DMA blocks, the k-th of every core in row k.
    pub blocks: Vec<Row<BlockCell>>,
}

/// Row `index`: one cell per core (in [`Alignment::cores`] order), `None` where the core
/// has fewer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row<T> {
    /// The position on every core.
    pub index: usize,
    /// One cell per core.
    pub cells: Vec<Option<T>>,
    /// Barriers: a name differs from the first core's, or a core has none here.
    /// Blocks: a core has none here (the block is unpaired).
    pub mismatch: bool,
}

/// The i-th CoreBarrier of one core.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierCell {
    /// Its name (the instruction's).
    pub name: String,
    /// The function that holds it.
    pub function: String,
    /// The block that holds it.
    pub block: String,
    /// Its `id` before `renumber_barriers` (`None`: no integer id, left as it was).
    pub old_id: Option<u64>,
    /// Its `id` in the linked module.
    pub new_id: Option<u64>,
    /// Added by bir_linker (the completion barrier of `returns`), not in any input: its
    /// name carries the core, so it is not compared.
    pub added: bool,
}

/// The k-th remote-notifying DMA block of one core.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockCell {
    /// Its name.
    pub name: String,
    /// The function or queue instance that holds it.
    pub parent: String,
    /// The cores its remote updates target.
    pub targets: Vec<u64>,
    /// Its remote updates' ids, `old → new` as `vnc_link` relinked them (empty when it
    /// did not run to the end).
    pub relinked: Vec<(String, String)>,
}

/// Aligns the linked set's barriers and remote DMA blocks; empty when bir_linker
/// produced no module.
pub fn of(outcome: &Outcome) -> Alignment {
    let Some(set) = &outcome.linked else { return Alignment::default() };
    let partitions = Partitions::of_set(set);
    let cores = partitions.cores();
    let barriers = rows(barrier_columns(set, &partitions, &outcome.report), |cells| {
        // What the LncVerifier compares: the input barrier's name (a linker-added one
        // only with another linker-added one).
        fn compared(c: &Option<BarrierCell>) -> Option<(bool, Option<&str>)> {
            c.as_ref().map(|c| (c.added, (!c.added).then_some(c.name.as_str())))
        }
        let first = cells.first().map(compared);
        cells.iter().any(|c| Some(compared(c)) != first)
    });
    let blocks = rows(block_columns(set, &partitions, &outcome.report), |cells| cells.iter().any(Option::is_none));
    Alignment { cores, barriers, blocks }
}

/// Columns (one per core) into rows; `mismatch` judges a row's cells.
fn rows<T: Clone>(columns: Vec<Vec<T>>, mismatch: impl Fn(&[Option<T>]) -> bool) -> Vec<Row<T>> {
    let height = columns.iter().map(Vec::len).max().unwrap_or(0);
    (0..height)
        .map(|index| {
            let cells: Vec<Option<T>> = columns.iter().map(|column| column.get(index).cloned()).collect();
            Row { index, mismatch: mismatch(&cells), cells }
        })
        .collect()
}

fn barrier_columns(set: &LinkedSet, partitions: &Partitions, report: &Report) -> Vec<Vec<BarrierCell>> {
    // `report.barriers` lists the renumbered barriers in the same walk order: the n-th
    // barrier named so in a core's function is the n-th row of that core, function and
    // name.
    let mut old_ids: std::collections::HashMap<(Option<u64>, &str, &str), std::collections::VecDeque<u64>> =
        std::collections::HashMap::new();
    for row in &report.barriers {
        old_ids.entry((row.core, row.function.as_str(), row.instruction.as_str())).or_default().push_back(row.old_id);
    }
    partitions
        .iter()
        .map(|partition| {
            let module = &set.modules[partition.module].module;
            let store = &module.store;
            let mut column = Vec::new();
            for &function in &partition.functions {
                let function_name = store.functions[function].name();
                module.walk_function_in_blocks(function, &mut |block, inst| {
                    let inst = &store.insts[inst];
                    if inst.op != Op::CoreBarrier {
                        return;
                    }
                    let new_id = inst.fields().get("id").and_then(Value::as_u64);
                    let core = store.functions[function].core();
                    let old_id = match old_ids.get_mut(&(core, function_name, inst.name())) {
                        Some(queue) if new_id.is_some() => queue.pop_front(),
                        _ => new_id,
                    };
                    column.push(BarrierCell {
                        name: inst.name().to_owned(),
                        function: function_name.to_owned(),
                        block: store.blocks[block].name().to_owned(),
                        old_id,
                        new_id,
                        added: inst.src.is_none(),
                    });
                });
            }
            column
        })
        .collect()
}

fn block_columns(set: &LinkedSet, partitions: &Partitions, report: &Report) -> Vec<Vec<BlockCell>> {
    partitions
        .iter()
        .map(|partition| {
            let module = &set.modules[partition.module].module;
            let store = &module.store;
            // The pass reports stray updates itself; here they are not wanted twice.
            let mut ignored = Vec::new();
            vnc_link::collect(module, partition, &mut ignored)
                .into_iter()
                .enumerate()
                .map(|(ordinal, collected)| {
                    let inst = &store.insts[collected.inst];
                    let targets =
                        inst.updates().iter().filter_map(|u| u.get("target_core").and_then(Value::as_u64)).collect();
                    let relinked = report
                        .semaphores
                        .relocations
                        .iter()
                        .filter(|r| r.core == partition.core && r.ordinal == ordinal as u64)
                        .map(|r| (crate::diag::describe::compact(&r.old_id), crate::diag::describe::compact(&r.new_id)))
                        .collect();
                    BlockCell { name: inst.name().to_owned(), parent: collected.parent, targets, relinked }
                })
                .collect()
        })
        .collect()
}
