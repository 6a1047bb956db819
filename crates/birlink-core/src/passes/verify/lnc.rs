//! The LncVerifier invariants across cores (1187–1189, 1191–1198), as warnings: what
//! the compiler asserts of N per-core modules before linking them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::ir::{Allocation, Module, Op, RemoteTarget, Src};
use crate::model::pass::Pass;
use crate::read::input::CoreModule;

/// What the LncVerifier compares across cores, for one core.
struct CoreSummary<'m> {
    core: u64,
    name: &'m str,
    module: &'m Module,
    /// Functions in order, each with its blocks (nested ones included) in walk order.
    functions: Vec<FunctionShape<'m>>,
    /// CoreBarriers in walk order.
    barriers: Vec<Barrier<'m>>,
    /// How many `GPSIMDSB2SB` instructions.
    sb2sb: usize,
    /// Shared post-DRAM-alloc memory locations.
    shared: Vec<SharedTensor<'m>>,
}

/// A function's name and its blocks' names.
struct FunctionShape<'m> {
    name: &'m str,
    blocks: Vec<&'m str>,
}

/// A CoreBarrier as 1187–1189 see it.
struct Barrier<'m> {
    name: &'m str,
    id: Option<u64>,
    src: Option<&'m Src>,
}

/// A memory location with `is_shared_post_dram_alloc: true` (1195–1197).
struct SharedTensor<'m> {
    name: &'m str,
    addr: u64,
    target: Option<RemoteTarget>,
    src: Option<&'m Src>,
}

fn summarize<'m>(core: u64, core_module: &'m CoreModule) -> CoreSummary<'m> {
    let module = &core_module.module;
    let store = &module.store;
    let mut summary = CoreSummary {
        core,
        name: &core_module.name,
        module,
        functions: Vec::new(),
        barriers: Vec::new(),
        sb2sb: 0,
        shared: Vec::new(),
    };
    for &function in &module.functions {
        let mut blocks = Vec::new();
        module.walk_function_blocks(function, &mut |b| blocks.push(store.blocks[b].name()));
        summary.functions.push(FunctionShape { name: store.functions[function].name(), blocks });
        module.walk_function(function, &mut |i| {
            let inst = &store.insts[i];
            match inst.op {
                Op::CoreBarrier => summary.barriers.push(Barrier {
                    name: inst.name(),
                    id: inst.fields().get("id").and_then(Value::as_u64),
                    src: inst.src.as_ref(),
                }),
                Op::Sb2Sb => summary.sb2sb += 1,
                _ => {}
            }
        });
        for allocation in &store.functions[function].allocations {
            if let Allocation::Set(set) = allocation {
                for &memloc in &store.sets[*set].memlocs {
                    let m = &store.memlocs[memloc];
                    if m.fields.get("is_shared_post_dram_alloc").and_then(Value::as_bool) == Some(true) {
                        summary.shared.push(SharedTensor {
                            name: m.name(),
                            addr: m.fields.get("addr").and_then(Value::as_u64).unwrap_or(0),
                            target: m.remote_target(),
                            src: m.src.as_ref(),
                        });
                    }
                }
            }
        }
    }
    summary
}

/// The invariants across the modules of one subgraph (each with its core).
pub(super) fn check_modules(modules: &[(u64, &CoreModule)], diags: &mut Vec<Diagnostic>) {
    let mut summaries: Vec<CoreSummary<'_>> = modules.iter().map(|&(core, module)| summarize(core, module)).collect();
    summaries.sort_by_key(|s| s.core);
    let Some((first, rest)) = summaries.split_first() else {
        return;
    };
    let msrc = |s: &CoreSummary<'_>| s.module.src.clone();
    for other in rest {
        let c = other.core;
        if other.functions.len() != first.functions.len() {
            diags.push(
                Diagnostic::new(
                    Code::FunctionCountMismatch,
                    Pass::Verify,
                    format!(
                        "core {c} (`{}`) has {} function(s), core {} (`{}`) has {}",
                        other.name,
                        other.functions.len(),
                        first.core,
                        first.name,
                        first.functions.len()
                    ),
                )
                .core(c)
                .at(msrc(other).as_ref()),
            );
        }
        for FunctionShape { name: fname, blocks: blocks0 } in &first.functions {
            let Some(FunctionShape { blocks, .. }) = other.functions.iter().find(|f| f.name == *fname) else {
                diags.push(
                    Diagnostic::new(
                        Code::FunctionMissing,
                        Pass::Verify,
                        format!("core {c} (`{}`) has no function `{fname}`, which core {} has", other.name, first.core),
                    )
                    .core(c)
                    .at(msrc(other).as_ref())
                    .entity(EntityKind::Function, fname, None),
                );
                continue;
            };
            if blocks.len() != blocks0.len() {
                diags.push(
                    Diagnostic::new(
                        Code::BlockCountMismatch,
                        Pass::Verify,
                        format!(
                            "function `{fname}` has {} block(s) on core {c} and {} on core {}",
                            blocks.len(),
                            blocks0.len(),
                            first.core
                        ),
                    )
                    .core(c)
                    .at(msrc(other).as_ref())
                    .entity(EntityKind::Function, fname, None),
                );
            } else if let Some(i) = (0..blocks.len()).find(|&i| blocks[i] != blocks0[i]) {
                diags.push(
                    Diagnostic::new(
                        Code::BlockOrderMismatch,
                        Pass::Verify,
                        format!(
                            "block {i} of function `{fname}` is `{}` on core {c} but `{}` on core {}",
                            blocks[i], blocks0[i], first.core
                        ),
                    )
                    .core(c)
                    .at(msrc(other).as_ref())
                    .entity(EntityKind::Block, blocks[i], Some(fname)),
                );
            }
        }
        if other.barriers.len() != first.barriers.len() {
            diags.push(
                Diagnostic::new(
                    Code::BarrierCountMismatch,
                    Pass::Verify,
                    format!(
                        "core {c} (`{}`) has {} CoreBarrier(s), core {} has {}",
                        other.name,
                        other.barriers.len(),
                        first.core,
                        first.barriers.len()
                    ),
                )
                .core(c)
                .at(msrc(other).as_ref()),
            );
        }
        if let Some(i) = (0..other.barriers.len().min(first.barriers.len()))
            .find(|&i| other.barriers[i].name != first.barriers[i].name)
        {
            diags.push(
                Diagnostic::new(
                    Code::BarrierNameMismatch,
                    Pass::Verify,
                    format!(
                        "expected core barrier {i} of core {c} to have name `{}` (as on core {}), but it is `{}`",
                        first.barriers[i].name, first.core, other.barriers[i].name
                    ),
                )
                .core(c)
                .at(other.barriers[i].src)
                .entity(EntityKind::Instruction, other.barriers[i].name, None),
            );
        }
        if other.sb2sb != first.sb2sb {
            diags.push(
                Diagnostic::new(
                    Code::Sb2SbCountMismatch,
                    Pass::Verify,
                    format!(
                        "core {c} has {} GPSIMDSB2SB instruction(s), core {} has {}",
                        other.sb2sb, first.core, first.sb2sb
                    ),
                )
                .core(c)
                .at(msrc(other).as_ref()),
            );
        }
    }
    for summary in &summaries {
        if let Some((i, Barrier { name, id, src })) =
            summary.barriers.iter().enumerate().find(|(i, b)| b.id != Some(*i as u64))
        {
            let found = id.map(|id| format!("id {id}")).unwrap_or_else(|| "no integer id".to_owned());
            diags.push(
                Diagnostic::new(
                    Code::BarrierIdsNotDense,
                    Pass::Verify,
                    format!("core barrier `{name}` is barrier {i} of core {} but has {found}", summary.core),
                )
                .core(summary.core)
                .at(*src)
                .entity(EntityKind::Instruction, name, None),
            );
        }
    }
    // Shared post-DRAM-allocation tensors (1195–1197).
    let by_core: BTreeMap<u64, &CoreSummary<'_>> = summaries.iter().map(|s| (s.core, s)).collect();
    let addresses = |s: &CoreSummary<'_>| -> BTreeSet<u64> { s.shared.iter().map(|x| x.addr).collect() };
    let first_addresses = addresses(first);
    for summary in &summaries {
        for SharedTensor { name, addr, target, src } in &summary.shared {
            match target {
                None if summary.core > 0 => diags.push(
                    Diagnostic::new(
                        Code::SharedWithoutRemoteTarget,
                        Pass::Verify,
                        format!("shared tensor `{name}` on core {} has no `remote_local_target`", summary.core),
                    )
                    .core(summary.core)
                    .at(*src)
                    .entity(EntityKind::Memloc, name, None),
                ),
                None => {}
                Some(target) => {
                    let owner = by_core.get(&target.core).and_then(|o| {
                        o.shared
                            .iter()
                            .find(|x| x.name == target.name)
                            .map(|x| x.addr)
                            .or_else(|| find_memloc_addr(o.module, &target.name))
                    });
                    match owner {
                        Some(owner_addr) if owner_addr == *addr => {}
                        // Missing owner and mismatched address both point at the target.
                        Some(owner_addr) => diags.push(
                            Diagnostic::new(
                                Code::SharedAddressMismatch,
                                Pass::Verify,
                                format!(
                                    "shared tensor `{name}` on core {} is at address {addr}, its target `{}` on core {} at {owner_addr}",
                                    summary.core, target.name, target.core
                                ),
                            )
                            .core(summary.core)
                            .at(*src)
                            .entity(EntityKind::Memloc, name, None),
                        ),
                        None => diags.push(
                            Diagnostic::new(
                                Code::SharedAddressMismatch,
                                Pass::Verify,
                                format!("shared tensor `{name}` on core {} targets `{}` on core {}, which does not exist", summary.core, target.name, target.core),
                            )
                            .core(summary.core)
                            .at_key(*src, "remote_local_target")
                            .entity(EntityKind::Memloc, name, None),
                        ),
                    }
                }
            }
        }
    }
    for other in rest {
        let other_addresses = addresses(other);
        if other_addresses != first_addresses {
            let only_here: Vec<String> =
                other_addresses.difference(&first_addresses).take(5).map(u64::to_string).collect();
            let only_first: Vec<String> =
                first_addresses.difference(&other_addresses).take(5).map(u64::to_string).collect();
            diags.push(
                Diagnostic::new(
                    Code::SharedAddressSetMismatch,
                    Pass::Verify,
                    format!("shared tensor addresses of core {} differ from core {}'s", other.core, first.core),
                )
                .core(other.core)
                .at(msrc(other).as_ref())
                .note(format!("only on core {}: [{}]", other.core, only_here.join(", ")))
                .note(format!("only on core {}: [{}]", first.core, only_first.join(", "))),
            );
        }
    }
}

fn find_memloc_addr(module: &Module, name: &str) -> Option<u64> {
    module
        .store
        .memlocs
        .iter()
        .find(|(_, m)| m.name() == name)
        .map(|(_, m)| m.fields.get("addr").and_then(Value::as_u64).unwrap_or(0))
}
