//! `vnc_link`: relink remote semaphore ids from the peer core (spec §5; seed `003_…`
//! "vnc_link (L35) — the Semaphore Relocator").
//!
//! Precondition: one partition per virtual core, else **1509**. Per core, in partition
//! order (its functions' blocks depth-first, then its queue instances in linked queue
//! order), collect the `DMABlock`s with a non-empty `remote_notifications`
//! (`isRemoteUpdateInstruction`). The SPMD cores must collect the same number, else
//! **1512** (`allEqual`, with the per-core table). Then for core `c`'s k-th block and each
//! of its `on_update` entries with `target_core t`: the peer is core `t`'s k-th block, and
//! the first of the peer's `on_update` entries without `target_core` gives the new `id`;
//! none is **1511**, as is a `target_core` that names no core. Only `id` changes: `type`,
//! `mode`, `update_value` and `target_core` stay, as the `sync::Update` constructor call
//! in the seed shows. A remote update anywhere else is never relinked (BL0402).
//!
//! All relocations are planned first and applied only if the pass found no error.

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::{has_errors, CoreCount, Diagnostic};
use crate::model::arena::Handle;
use crate::model::entity::EntityKind;
use crate::model::ir::{Inst, Module, Op, UpdateView};
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{Edit, Relocation, SemaphoreBlocks, Semaphores, StepRow, Unit};
use crate::passes::partition::{Partition, Partitions};

/// The pass name.
pub const PASS: Pass = Pass::VncLink;

/// What the pass did.
#[derive(Debug, Default)]
pub struct Relinked {
    /// Collection counts and relocations (applied only when `failed` is false).
    pub semaphores: Semaphores,
    /// Steps in order.
    pub steps: Vec<StepRow>,
    /// The remote updates (`on_update` entries with `target_core`) in the DMA blocks
    /// it collected, over every core: the compiler's `Found R remote updates`.
    pub remote_updates: usize,
    /// Whether it reported an error.
    pub failed: bool,
}

/// A collected remote DMA block and where it lives.
#[derive(Clone)]
pub(crate) struct Collected {
    pub(crate) inst: Handle<Inst>,
    /// The function or queue instance that holds it, for messages and rows.
    pub(crate) parent: String,
    /// Its unit and context in the canonical text (`function f` / `queue q`, `instance i`).
    unit: Unit,
    context: String,
}

/// Runs the pass over a linked set: the seeds' one module, or one module per core.
pub fn run(set: &mut LinkedSet, vnc_nc_count: u64, diags: &mut Vec<Diagnostic>) -> Relinked {
    let start = diags.len();
    let mut out = Relinked::default();
    let checked = (Code::VncLinkCoreCount, PASS);
    let nothing = "remote semaphores to relink";
    let Some(partitions) = Partitions::checked(set, checked, vnc_nc_count, nothing, &mut out.steps, diags) else {
        out.failed = true;
        return out;
    };
    let module_of = |p: &Partition| &set.modules[p.module].module;

    let collected: Vec<(&Partition, Vec<Collected>)> =
        partitions.iter().map(|p| (p, collect(module_of(p), p, diags))).collect();
    for (partition, blocks) in &collected {
        let module = module_of(partition);
        out.semaphores.counts.push(SemaphoreBlocks {
            core: partition.core,
            // The per-core module's name in the compiler's flows, the core function's in
            // the seeds' one module.
            function: if partition.whole {
                set.modules[partition.module].name.clone()
            } else {
                module.store.functions[partition.function].name().to_owned()
            },
            remote_dma_blocks: blocks.len() as u64,
        });
    }
    out.steps.push(StepRow { name: "collect_remote_dma_blocks".to_owned(), changes: 0, edits: Vec::new() });

    let counts: Vec<usize> = collected.iter().map(|(_, blocks)| blocks.len()).collect();
    if counts.windows(2).any(|w| w[0] != w[1]) {
        let mut diagnostic = Diagnostic::new(
            Code::RemoteBlockCountMismatch,
            PASS,
            format!(
                "cores have different numbers of remote-notifying DMA blocks ({}): `allEqual` failed",
                out.semaphores
                    .counts
                    .iter()
                    .map(|c| format!("core {}: {}", c.core, c.remote_dma_blocks))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
        diagnostic.table = out
            .semaphores
            .counts
            .iter()
            .map(|c| CoreCount { core: c.core, module: c.function.clone(), count: c.remote_dma_blocks })
            .collect();
        diags.push(diagnostic);
        out.failed = true;
        out.steps.push(StepRow { name: "relink_semaphores".to_owned(), changes: 0, edits: Vec::new() });
        return out;
    }

    let cores = partitions.cores();
    let mut plan: Vec<(usize, Handle<Inst>, usize, Value, Unit, String)> = Vec::new();
    for (partition, blocks) in &collected {
        let module = module_of(partition);
        for (ordinal, block) in blocks.iter().enumerate() {
            let inst = &module.store.insts[block.inst];
            for (index, update) in inst.updates().iter().enumerate() {
                let view = UpdateView::of(update);
                let Some(target_value) = view.target_core else {
                    continue;
                };
                out.remote_updates += 1;
                let describe = || {
                    format!(
                        "update {index} of DMA block `{}` in `{}` (core {})",
                        inst.name(),
                        block.parent,
                        partition.core
                    )
                };
                let peer_core = target_value.as_u64().filter(|t| partitions.get(*t).is_some());
                let Some(target_core) = peer_core else {
                    diags.push(
                        Diagnostic::new(
                            Code::PeerUpdateMissing,
                            PASS,
                            format!(
                                "{} has `target_core` {}, which names no core (cores [{}])",
                                describe(),
                                crate::diag::describe::compact(target_value),
                                cores.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
                            ),
                        )
                        .core(partition.core)
                        .at(inst.src.as_ref())
                        .entity(EntityKind::Instruction, inst.name(), Some(&block.parent))
                        .help("set `target_core` to the core whose semaphore the DMA signals"),
                    );
                    continue;
                };
                let Some((peer_partition, peer_blocks)) = collected.iter().find(|(p, _)| p.core == target_core) else {
                    continue;
                };
                let peer = &peer_blocks[ordinal];
                let peer_inst = &module_of(peer_partition).store.insts[peer.inst];
                let peer_updates = peer_inst.updates();
                let local = peer_updates.iter().find(|u| !UpdateView::of(u).is_remote());
                let Some(local) = local else {
                    diags.push(
                        Diagnostic::new(
                            Code::PeerUpdateMissing,
                            PASS,
                            format!(
                                "DMA block {ordinal} `{}` of core {target_core} (in `{}`) has no local (no `target_core`) `on_update` entry to relink {}",
                                peer_inst.name(),
                                peer.parent,
                                describe()
                            ),
                        )
                        .core(target_core)
                        .at(peer_inst.src.as_ref().or(inst.src.as_ref()))
                        .entity(EntityKind::Instruction, peer_inst.name(), Some(&peer.parent)),
                    );
                    continue;
                };
                let new_id = local.get("id").cloned().unwrap_or(Value::Null);
                out.semaphores.relocations.push(Relocation {
                    core: partition.core,
                    block: inst.name().to_owned(),
                    block_parent: block.parent.clone(),
                    ordinal: ordinal as u64,
                    update: index as u64,
                    target_core,
                    peer_block: peer_inst.name().to_owned(),
                    peer_parent: peer.parent.clone(),
                    old_id: view.id.cloned().unwrap_or(Value::Null),
                    new_id: new_id.clone(),
                });
                plan.push((partition.module, block.inst, index, new_id, block.unit.clone(), block.context.clone()));
            }
        }
    }
    out.failed = has_errors(&diags[start..]);
    let mut edits = Vec::new();
    if !out.failed {
        // Several updates of one block make one edit: the first `before`, the last `after`.
        let mut last: Option<(usize, Handle<Inst>)> = None;
        for (at, inst, index, new_id, unit, context) in plan {
            let linked = &mut set.modules[at];
            let module_name = linked.core.map(|_| linked.module.name().to_owned());
            let module = &mut linked.module;
            let before = print::inst_line(module, inst);
            if let Some(Value::Object(entry)) = module.store.insts[inst].updates_mut().and_then(|u| u.get_mut(index)) {
                entry.insert("id".to_owned(), new_id);
            }
            let after = print::inst_line(module, inst);
            match edits.last_mut() {
                Some(edit) if last == Some((at, inst)) => {
                    let edit: &mut Edit = edit;
                    edit.after = Some(after);
                }
                _ => edits.push(Edit { module: module_name, unit, context, before: Some(before), after: Some(after) }),
            }
            last = Some((at, inst));
        }
    }
    out.steps.push(StepRow { name: "relink_semaphores".to_owned(), changes: edits.len() as u64, edits });
    out
}

/// Collects a partition's remote DMA blocks; warns about remote updates elsewhere.
/// Core `partition`'s remote-notifying DMA blocks in collection order (its functions'
/// blocks depth-first, then its queue instances in linked queue order); a remote update
/// anywhere else is reported (BL0402). `crate::tools::align` pairs them for the page.
pub(crate) fn collect(module: &Module, partition: &Partition, diags: &mut Vec<Diagnostic>) -> Vec<Collected> {
    let store = &module.store;
    let mut out = Vec::new();
    let mut stray = |inst: Handle<Inst>, parent: &str, unit: &Unit, context: &str, diags: &mut Vec<Diagnostic>| {
        let i = &store.insts[inst];
        if i.is_remote_dma_block() {
            out.push(Collected { inst, parent: parent.to_owned(), unit: unit.clone(), context: context.to_owned() });
        } else if i.remote_update {
            let why =
                if i.op == Op::DmaBlock { "a DMA block without `remote_notifications`" } else { "not a DMA block" };
            diags.push(
                Diagnostic::new(
                    Code::StrayRemoteUpdate,
                    PASS,
                    format!(
                        "`{}` in `{parent}` (core {}) has a remote update but is {why}; it is not relinked",
                        i.name(),
                        partition.core
                    ),
                )
                .core(partition.core)
                .at(i.src.as_ref())
                .entity(EntityKind::Instruction, i.name(), Some(parent)),
            );
        }
    };
    for &function in &partition.functions {
        let name = store.functions[function].name().to_owned();
        let mut insts = Vec::new();
        module.walk_function(function, &mut |inst| insts.push(inst));
        let unit = Unit::Function(name.clone());
        for inst in insts {
            stray(inst, &name, &unit, "", diags);
        }
    }
    let queue_of: std::collections::HashMap<Handle<crate::model::ir::QueueInstance>, &str> = module
        .queues
        .iter()
        .flat_map(|&q| store.queues[q].instances.iter().map(move |&i| (i, store.queues[q].name())))
        .collect();
    for &instance in &partition.instances {
        let name = store.instances[instance].name().unwrap_or("").to_owned();
        let unit = Unit::Queue(queue_of.get(&instance).copied().unwrap_or("").to_owned());
        let context = format!("instance {name}");
        for &inst in &store.instances[instance].insts {
            stray(inst, &name, &unit, &context, diags);
        }
    }
    out
}
