//! Step 6, `aliases`: the cross-core handoffs (spec §3.6; `buildMainAliases`).
//!
//! For each memory location M on core `c` with `remote_local_target [R, o]`, and each
//! netlist alias, M and the owner's location R in core `o`'s partition get a symmetric
//! alias edge (kind 3, MustAlias; kinds OR-merged; the 4th element names the other
//! function), and M's `alloced_func` becomes the owner's function. Aliases are
//! DRAM-only (BL0303); a target on M's own core is BL0304; a target that names no core
//! or no location is BL0301 here (1514 in `vnc_remote_addr_map`); a netlist alias with
//! a missing end is BL0302. Every handoff is planned first, then applied.

use std::collections::HashMap;

use serde_json::Value;

use super::copy::CoreInfo;
use super::record::Step;
use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::ir::{AliasEntry, MemLoc, Module};
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{AliasEnd, AliasKind, AliasRow, AliasSource, StepRow, Unit};
use crate::passes::partition::{counterpart, memlocs, nearest_names, MemlocIndex, MemlocRef, Partition};
use crate::read::netlist::{Endpoint, Netlist};

/// One side of a planned handoff.
pub(super) struct End {
    pub(super) core: u64,
    pub(super) at: MemlocRef,
}

/// A planned alias edge.
pub(super) struct Handoff {
    pub(super) consumer: End,
    pub(super) producer: End,
    kind: AliasKind,
    source: AliasSource,
}

/// Finds every handoff, reporting the ones that cannot be made.
pub(super) fn plan(
    linked: &Module,
    cores: &[CoreInfo],
    netlist: Option<&Netlist>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Handoff> {
    let partitions: Vec<Partition> = cores
        .iter()
        .map(|c| Partition {
            core: c.core,
            module: 0,
            whole: false,
            function: c.function,
            functions: c.functions.clone(),
            instances: Vec::new(),
        })
        .collect();
    let partitions = partitions.as_slice();
    let store = &linked.store;
    let indexes: Vec<MemlocIndex<'_>> = partitions.iter().map(|p| MemlocIndex::build(linked, p)).collect();
    let by_core: HashMap<u64, usize> = partitions.iter().enumerate().map(|(i, p)| (p.core, i)).collect();
    let mut handoffs = Vec::new();
    for partition in partitions {
        for at in memlocs(linked, partition) {
            let view = &store.memlocs[at.memloc];
            let Some(target) = view.remote_target() else {
                continue;
            };
            let view_name = view.name();
            let function_name = store.functions[at.function].name();
            // Every diagnostic about the view points at its `remote_local_target`.
            let about_view = |d: Diagnostic| {
                d.core(partition.core).at_key(view.src.as_ref(), "remote_local_target").entity(
                    EntityKind::Memloc,
                    view_name,
                    Some(function_name),
                )
            };
            if target.core == partition.core {
                diags.push(about_view(
                    Diagnostic::new(
                        Code::SelfTarget,
                        Pass::BirLinker,
                        format!(
                            "`{view_name}` on core {} has `remote_local_target` [`{}`, {}]: a remote target on its own core",
                            partition.core, target.name, target.core
                        ),
                    )
                ));
                continue;
            }
            let Some(&oi) = by_core.get(&target.core) else {
                diags.push(about_view(Diagnostic::new(
                    Code::MissingRemoteTarget,
                    Pass::BirLinker,
                    format!(
                        "`{view_name}` on core {} targets core {}, which is not in the link set; no alias made",
                        partition.core, target.core
                    ),
                )));
                continue;
            };
            let owner = &partitions[oi];
            let prefer = counterpart((linked, partition), at.function, (linked, owner));
            let Some(found) = indexes[oi].find(&target.name, prefer) else {
                diags.push(about_view(Diagnostic::new(
                    Code::MissingRemoteTarget,
                    Pass::BirLinker,
                    format!(
                        "`{view_name}` on core {} targets `{}` on core {}, which does not exist there; no alias made",
                        partition.core, target.name, target.core
                    ),
                )));
                continue;
            };
            if let Some(diagnostic) = non_dram(linked, partition.core, at, owner.core, found) {
                diags.push(diagnostic.at(view.src.as_ref()));
                continue;
            }
            handoffs.push(Handoff {
                consumer: End { core: partition.core, at },
                producer: End { core: owner.core, at: found },
                kind: AliasKind::MUST_ALIAS,
                source: AliasSource::RemoteLocalTarget,
            });
        }
    }
    for alias in netlist.map(|n| n.aliases.as_slice()).unwrap_or_default() {
        let find = |end: &Endpoint| -> Option<(usize, MemlocRef)> {
            let &i = by_core.get(&end.core)?;
            Some((i, indexes[i].find(&end.memloc, None)?))
        };
        let (producer, consumer) = (find(&alias.producer), find(&alias.consumer));
        let (Some((pi, producer)), Some((ci, consumer))) = (producer, consumer) else {
            for (role, end, found) in
                [("producer", &alias.producer, producer.is_some()), ("consumer", &alias.consumer, consumer.is_some())]
            {
                if !found {
                    let mut diagnostic = Diagnostic::new(
                        Code::NetlistEndpointMissing,
                        Pass::BirLinker,
                        format!("netlist alias {role} `{}` on core {} does not exist", end.memloc, end.core),
                    )
                    .core(end.core)
                    .at(Some(&alias.src));
                    if let Some(&i) = by_core.get(&end.core) {
                        let near = nearest_names(&end.memloc, indexes[i].names(), 3);
                        diagnostic.nearest = near;
                    } else {
                        diagnostic = diagnostic.note(format!("core {} is not in the link set", end.core));
                    }
                    diags.push(diagnostic);
                }
            }
            continue;
        };
        let (pcore, ccore) = (partitions[pi].core, partitions[ci].core);
        if pcore == ccore {
            diags.push(
                Diagnostic::new(
                    Code::SelfTarget,
                    Pass::BirLinker,
                    format!(
                        "netlist alias from `{}` to `{}` stays on core {pcore}",
                        alias.producer.memloc, alias.consumer.memloc
                    ),
                )
                .core(pcore)
                .at(Some(&alias.src)),
            );
            continue;
        }
        if let Some(diagnostic) = non_dram(linked, ccore, consumer, pcore, producer) {
            diags.push(diagnostic.at(Some(&alias.src)));
            continue;
        }
        handoffs.push(Handoff {
            consumer: End { core: ccore, at: consumer },
            producer: End { core: pcore, at: producer },
            kind: AliasKind(alias.kind),
            source: AliasSource::Netlist,
        });
    }
    handoffs
}

fn non_dram(linked: &Module, view_core: u64, view: MemlocRef, owner_core: u64, owner: MemlocRef) -> Option<Diagnostic> {
    let v = &linked.store.memlocs[view.memloc];
    let o = &linked.store.memlocs[owner.memloc];
    if v.is_dram() && o.is_dram() {
        return None;
    }
    let mut sides = Vec::new();
    if !v.is_dram() {
        sides.push(format!("`{}` on core {view_core} is {}", v.name(), v.mem_type()));
    }
    if !o.is_dram() {
        sides.push(format!("`{}` on core {owner_core} is {}", o.name(), o.mem_type()));
    }
    Some(
        Diagnostic::new(
            Code::NonDramAlias,
            Pass::BirLinker,
            format!(
                "cross-core handoff `{}` (core {view_core}) → `{}` (core {owner_core}) is not in DRAM: {}",
                v.name(),
                o.name(),
                sides.join(" and ")
            ),
        )
        .core(view_core)
        .entity(EntityKind::Memloc, v.name(), Some(linked.store.functions[view.function].name())),
    )
}

/// Adds both alias edges of every handoff and each view's `alloced_func`; one
/// `report.aliases` row per handoff.
pub(super) fn apply(linked: &mut Module, handoffs: &[Handoff], rows: &mut Vec<AliasRow>) -> StepRow {
    let mut step = Step::new("aliases");
    for handoff in handoffs {
        rows.push(apply_one(linked, handoff, &mut step));
    }
    step.finish()
}

fn apply_one(linked: &mut Module, handoff: &Handoff, step: &mut Step) -> AliasRow {
    let end = |linked: &Module, e: &End| AliasEnd {
        core: e.core,
        call: None,
        function: linked.store.functions[e.at.function].name().to_owned(),
        set: linked.store.sets[e.at.set].name(&linked.store),
        memloc: linked.store.memlocs[e.at.memloc].name().to_owned(),
    };
    let consumer = end(linked, &handoff.consumer);
    let producer = end(linked, &handoff.producer);
    let (view, owner) = (handoff.consumer.at.memloc, handoff.producer.at.memloc);
    let consumer_before = print::memloc_line(linked, view);
    let producer_before = print::memloc_line(linked, owner);
    let kind = AliasKind(add_alias(&mut linked.store.memlocs[view], &producer, handoff.kind.0));
    add_alias(&mut linked.store.memlocs[owner], &consumer, handoff.kind.0);
    linked.store.memlocs[view].fields.insert("alloced_func".to_owned(), producer.function.clone().into());
    step.edit(
        &Unit::Function(consumer.function.clone()),
        &format!("set {}", consumer.set),
        consumer_before,
        print::memloc_line(linked, view),
    );
    step.edit(
        &Unit::Function(producer.function.clone()),
        &format!("set {}", producer.set),
        producer_before,
        print::memloc_line(linked, owner),
    );
    AliasRow { consumer, producer, kind, source: handoff.source, tensor: None }
}

/// Adds (or OR-merges into) the edge `memloc → other`; returns the edge's kind.
fn add_alias(memloc: &mut MemLoc, other: &AliasEnd, kind: u64) -> u64 {
    let entries = match memloc.fields.entry("alias").or_insert_with(|| Value::Array(Vec::new())) {
        Value::Array(entries) => entries,
        // The reader rejects a non-array `alias` before linking.
        _ => return kind,
    };
    for entry in entries.iter_mut() {
        let Some(mut existing) = AliasEntry::from_value(entry) else {
            continue;
        };
        if existing.set == other.set
            && existing.memloc == other.memloc
            && existing.function.as_deref() == Some(&other.function)
        {
            existing.kind |= kind;
            *entry = existing.to_value();
            return existing.kind;
        }
    }
    let new = AliasEntry {
        set: other.set.clone(),
        memloc: other.memloc.clone(),
        kind,
        function: Some(other.function.clone()),
    };
    entries.push(new.to_value());
    kind
}
