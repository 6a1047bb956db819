//! Control flow (BL0703, BL0704): per function (by name, core 0 against each other
//! core), the basic blocks in walk order (a block, then its loops' bodies) and the
//! loops' trip counts, over the whole set. AWS: the cores must run identical control
//! flow, which the compiler does not enforce.

use serde_json::json;

use super::findings::Draft;
use super::program::{static_walk, trips_of, Program};
use crate::diag::codes::Code;
use crate::model::arena::Handle;
use crate::model::ir::{Function, Inst, Module, Op};

/// A function's loops, each with its trip count, in walk order.
type Loops = Vec<(Handle<Inst>, Option<u64>)>;

/// A function's blocks' names and loops, in walk order.
fn shape(module: &Module, function: Handle<Function>) -> (Vec<&str>, Loops) {
    let (insts, blocks) = static_walk(module, function);
    let names = blocks.iter().map(|&b| module.store.blocks[b].name()).collect();
    let loops = insts
        .into_iter()
        .filter(|&i| module.store.insts[i].op == Op::Loop)
        .map(|i| (i, trips_of(&module.store.insts[i])))
        .collect();
    (names, loops)
}

/// BL0703 and BL0704 for every core but core 0.
pub(super) fn check(program: &Program<'_>, drafts: &mut Vec<Draft>) {
    let Some(first) = program.cores.first() else { return };
    for core in 1..program.cores.len() {
        let other = &program.cores[core];
        let by_name: std::collections::HashMap<&str, Handle<Function>> =
            other.module.functions.iter().rev().map(|&f| (other.module.store.functions[f].name(), f)).collect();
        let (core0, corec) = (program.core_id(0), program.core_id(core));
        for &f in &first.module.functions {
            let function = first.module.store.functions[f].name();
            let Some(&g) = by_name.get(function) else { continue };
            let (blocks0, loops0) = shape(first.module, f);
            let (blocks, loops) = shape(other.module, g);
            let parted = blocks0.iter().zip(&blocks).position(|(a, b)| a != b);
            if parted.is_some() || blocks0.len() != blocks.len() {
                let index = parted.unwrap_or(blocks0.len().min(blocks.len()));
                let (expected, found) = (blocks0.get(index), blocks.get(index));
                let at = match (expected, found) {
                    (Some(a), Some(b)) => format!("block {index} is `{b}` where core {core0} has `{a}`"),
                    (Some(a), None) => format!("it lacks core {core0}'s block `{a}`"),
                    (None, Some(b)) => format!("it has a block `{b}` core {core0} does not"),
                    (None, None) => String::new(),
                };
                let message = format!(
                    "`{function}` has {} on core {corec} and {} on core {core0}, and {at}: the cores do not run the same \
                     control flow (the compiler's NCC_IXGM002), and a core whose path holds other barriers or semaphore \
                     waits than its peer's hangs (NRT status 5)",
                    crate::english::counted(blocks.len(), "block"),
                    blocks0.len(),
                );
                let help = format!(
                    "compile every core from the same program: a branch on a value that differs per core gives `{function}` \
                     other blocks on one core"
                );
                let detail = json!({"blocks": [blocks0.len(), blocks.len()], "index": index, "expected": expected, "found": found});
                let mut draft = Draft::at(Some(core), Code::SyncBlocks, Some(function.to_owned()), None);
                draft.at_function = Some(g);
                drafts.push(draft.says(message, help, detail));
            }
            for (index, ((_, trips0), (inst, trips))) in loops0.iter().zip(&loops).enumerate() {
                if trips0 == trips {
                    continue;
                }
                let said = |t: &Option<u64>| t.map_or("an unknown number of".to_owned(), |t| t.to_string());
                let name = other.module.store.insts[*inst].name();
                let message = format!(
                    "loop {index} of `{function}` (`{name}`) runs {} times on core {corec} and {} times on core {core0}: \
                     every barrier or semaphore in it pairs with another iteration of the other core's, or with nothing \
                     (NRT status 5 when a core waits for an iteration its peer never runs)",
                    said(trips),
                    said(trips0),
                );
                let help = "give the loop the same bounds on every core; split the work per core with data, not with the loop's count".to_owned();
                let detail = json!({"index": index, "trips": [trips0, trips]});
                let draft = Draft::at(Some(core), Code::SyncTripCount, Some(function.to_owned()), Some(*inst));
                drafts.push(draft.says(message, help, detail));
            }
        }
    }
}
