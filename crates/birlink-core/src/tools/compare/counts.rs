//! Per-core counts of both sides, the differing cells named: functions, blocks,
//! instructions by opcode, memory locations (shared and remote ones), CoreBarriers,
//! remote-notifying DMA blocks, semaphores.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::ir::Op;
use crate::passes::partition::{memlocs, Partitions};
use crate::passes::Outcome;

/// One core's counts on one side (`None` on a side without that core).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Functions of the core's partition.
    pub functions: u64,
    /// Blocks, nested ones included.
    pub blocks: u64,
    /// Instructions of its functions and queue instances.
    pub instructions: u64,
    /// Instructions by opcode.
    pub opcodes: BTreeMap<String, u64>,
    /// Memory locations.
    pub memlocs: u64,
    /// Memory locations in the `Shared` address space.
    pub shared: u64,
    /// Memory locations with a `remote_local_target` (remote views).
    pub remote: u64,
    /// CoreBarriers.
    pub barriers: u64,
    /// Remote-notifying DMA blocks (what `vnc_link` collects).
    pub remote_dma_blocks: u64,
    /// Local semaphores of its DMA blocks, over every merged queue.
    pub semaphores: u64,
}

/// `cores[]`: a core's counts on both sides.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreCounts {
    /// A's core.
    pub core: u64,
    /// B's core it is compared with.
    pub core_b: u64,
    /// A's counts.
    pub a: Option<Counts>,
    /// B's counts.
    pub b: Option<Counts>,
    /// The fields that differ (`opcodes.<name>` for one opcode).
    pub differs: Vec<String>,
}

fn counts_of(outcome: &Outcome) -> BTreeMap<u64, Counts> {
    let mut out = BTreeMap::new();
    let Some(set) = &outcome.linked else {
        // No linked module: what the inputs say, per module.
        for row in &outcome.report.inputs {
            if let Some(core) = row.core {
                let c: &mut Counts = out.entry(core).or_default();
                c.functions += row.functions;
                c.instructions += row.instructions;
                c.memlocs += row.memlocs;
            }
        }
        return out;
    };
    for partition in Partitions::of_set(set).iter() {
        let module = &set.modules[partition.module].module;
        let store = &module.store;
        let mut c = Counts { functions: partition.functions.len() as u64, ..Counts::default() };
        let count_inst = |c: &mut Counts, inst: &crate::model::ir::Inst| {
            c.instructions += 1;
            let opcode = inst.opcode();
            match c.opcodes.get_mut(opcode.as_ref()) {
                Some(n) => *n += 1,
                None => {
                    c.opcodes.insert(opcode.into_owned(), 1);
                }
            }
            if inst.op == Op::CoreBarrier {
                c.barriers += 1;
            }
        };
        for &function in &partition.functions {
            module.walk_function_blocks(function, &mut |_| c.blocks += 1);
            module.walk_function_in_blocks(function, &mut |_, inst| count_inst(&mut c, &store.insts[inst]));
        }
        for &instance in &partition.instances {
            for &inst in &store.instances[instance].insts {
                count_inst(&mut c, &store.insts[inst]);
            }
        }
        for at in memlocs(module, partition) {
            c.memlocs += 1;
            if store.sets[at.set].addr_space() == "Shared" {
                c.shared += 1;
            }
            if store.memlocs[at.memloc].remote_target().is_some() {
                c.remote += 1;
            }
        }
        out.insert(partition.core, c);
    }
    for row in &outcome.report.semaphores.counts {
        if let Some(c) = out.get_mut(&row.core) {
            c.remote_dma_blocks = row.remote_dma_blocks;
        }
    }
    for queue in &outcome.report.queues {
        for (core, n) in queue.semaphores.per_core.iter().enumerate() {
            if let Some(c) = out.get_mut(&(core as u64)) {
                c.semaphores += n;
            }
        }
    }
    out
}

fn differs(a: &Counts, b: &Counts) -> Vec<String> {
    let mut out = Vec::new();
    let fields: [(&str, u64, u64); 9] = [
        ("functions", a.functions, b.functions),
        ("blocks", a.blocks, b.blocks),
        ("instructions", a.instructions, b.instructions),
        ("memlocs", a.memlocs, b.memlocs),
        ("shared", a.shared, b.shared),
        ("remote", a.remote, b.remote),
        ("barriers", a.barriers, b.barriers),
        ("remote_dma_blocks", a.remote_dma_blocks, b.remote_dma_blocks),
        ("semaphores", a.semaphores, b.semaphores),
    ];
    out.extend(fields.iter().filter(|(_, x, y)| x != y).map(|(name, _, _)| (*name).to_owned()));
    let opcodes: std::collections::BTreeSet<&String> = a.opcodes.keys().chain(b.opcodes.keys()).collect();
    for op in opcodes {
        if a.opcodes.get(op) != b.opcodes.get(op) {
            out.push(format!("opcodes.{op}"));
        }
    }
    out
}

/// Both sides' counts, core by core through the core map.
pub fn compare(a: &Outcome, b: &Outcome, pairs: &[(u64, u64)]) -> Vec<CoreCounts> {
    let (mut of_a, mut of_b) = (counts_of(a), counts_of(b));
    pairs
        .iter()
        .map(|&(core, core_b)| {
            let (ca, cb) = (of_a.remove(&core), of_b.remove(&core_b));
            let differs = match (&ca, &cb) {
                (Some(x), Some(y)) => differs(x, y),
                _ => vec!["core".to_owned()],
            };
            CoreCounts { core, core_b, a: ca, b: cb, differs }
        })
        .collect()
}
