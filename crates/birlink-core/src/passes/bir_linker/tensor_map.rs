//! Step 11, `tensor_map`: the cores' tensor maps merged through the link and checked
//! (`buildMainTensorMap`, `copyTensorMapForFunc`, `verifyTensorMap`; seed §5e;
//! docs/spec/link.md §3.11).
//!
//! Each core's entries are copied to its function of the linked module
//! (`copyTensorMapForFunc(funcName, mlocDM)`): bir_linker keeps the names of sets and
//! memory locations, so an entry binds the tensor of its name in its core's partition,
//! and the link's alias edges (`report.aliases`) tell which entries of two cores are the
//! same memory. What the compiler's `verifyTensorMap` checks is not public; birlink's
//! checks are its reading of it, warnings: an entry naming no tensor (BL0310), one
//! memory laid out differently by two cores' entries (BL0312), an input or output of
//! the linked module with no entry (BL0313), a core with no map (BL0314); and a note
//! for an entry binding a tensor the link made internal, left out of the written map
//! (BL0311).

use crate::model::place::Place;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::entity::EntityKind;
use crate::model::ir::{Allocation, FileId, Function, Module};
use crate::model::pass::Pass;
use crate::output::report::{
    AliasEnd, AliasRow, ArtifactKind, EntryRef, EntryStatus, FileKind, OutputKindRow, StepRow, TensorMap,
    TensorMapEntry, TensorMapFile, TensorRef,
};
use crate::passes::partition::Partitions;
use crate::read::input::FileEntry;
use crate::read::tensor_map;
use crate::read::workdir::{self, Plan, WorkdirInput};

/// The fields that describe a tensor's layout: two entries of one memory must agree on
/// them (the others, `layer_name`, `tf_file`, … may name each core's own view).
pub const LAYOUT_FIELDS: &[&str] = &["sim_format", "sim_shape"];

/// What the bir_linker rows the merge follows.
pub struct LinkRows<'r> {
    /// `report.aliases`: which memory of one core is which of another.
    pub aliases: &'r [AliasRow],
    /// `report.output_kinds`: the sets the link made internal.
    pub output_kinds: &'r [OutputKindRow],
}

/// One function's part of the merged map: what `copyTensorMapForFunc` copies to it.
pub struct MapUnit {
    /// The core.
    pub core: u64,
    /// The subgraph whose map it is, in the modular flow (`None`: the seeds' reading,
    /// one map per core).
    pub subgraph: Option<u32>,
    /// The function the entries are copied to (the core function; `sgNNNN`).
    pub function: Handle<Function>,
    /// Every function whose tensors the entries may bind, that one first.
    pub functions: Vec<Handle<Function>>,
    /// The map's file, by index in the work directory, when there is one.
    pub map: Option<usize>,
}

impl MapUnit {
    /// Whose map it is, in words: `core 1`, or `nc00/sg01`.
    fn owner(&self) -> String {
        match self.subgraph {
            None => format!("core {}", self.core),
            Some(s) => Place::subgraph(self.core, s).to_string(),
        }
    }

    /// Where its tensors are, in words: `core 1 of the linked module`, or `function
    /// sg0001 of nc00/sgLnk`.
    fn holder(&self, linked: &Module) -> String {
        match self.subgraph {
            None => format!("core {} of the linked module", self.core),
            Some(_) => {
                format!("function {} of {}", linked.store.functions[self.function].name(), Place::linked(self.core))
            }
        }
    }
}

/// Merges and checks the tensor maps of a linked work directory in the seeds' reading,
/// one per core; `None` when no core has one. The maps become files of the run
/// (`files`), so diagnostics point into them.
pub fn merge(
    linked: &Module,
    input: &WorkdirInput,
    plan: &Plan,
    rows: LinkRows<'_>,
    files: &mut Vec<FileEntry>,
    diags: &mut Vec<Diagnostic>,
) -> Option<(TensorMap, StepRow)> {
    let paths = input.paths();
    let maps: BTreeMap<u64, usize> = workdir::artifacts(&paths, plan)
        .into_iter()
        .filter(|a| a.kind == ArtifactKind::TensorMap)
        .map(|a| (a.core, a.index))
        .collect();
    if maps.is_empty() {
        return None;
    }
    let units: Vec<MapUnit> = Partitions::of(linked)
        .iter()
        .map(|p| MapUnit {
            core: p.core,
            subgraph: None,
            function: p.function,
            functions: p.functions.clone(),
            map: maps.get(&p.core).copied(),
        })
        .collect();
    Some(merge_units(linked, input, &units, rows, files, diags))
}

/// Merges and checks the maps of `units`' functions: each entry bound to the tensor of
/// its name among its unit's functions; entries of one memory (the link's alias edges,
/// the netlist's handoffs) checked for one layout.
pub fn merge_units(
    linked: &Module,
    input: &WorkdirInput,
    units: &[MapUnit],
    rows: LinkRows<'_>,
    files: &mut Vec<FileEntry>,
    diags: &mut Vec<Diagnostic>,
) -> (TensorMap, StepRow) {
    let demoted: BTreeSet<(u64, &str)> =
        rows.output_kinds.iter().filter(|r| r.to == "Internal").map(|r| (r.core, r.set.as_str())).collect();
    let mut report = TensorMap::default();
    let mut limit = Limit::default();
    // Where each entry points into its file, for the diagnostics of the alias check.
    let mut places: Vec<(FileId, String)> = Vec::new();

    for unit in units {
        let core = unit.core;
        let owner = unit.owner();
        let function = linked.store.functions[unit.function].name().to_owned();
        let Some(index) = unit.map else {
            let message = match unit.subgraph {
                None => format!(
                    "core {core} has no tensor map in its subgraph folder; its inputs and outputs are bound by nothing"
                ),
                Some(_) => format!(
                    "{owner} has no tensor map in its folder; the inputs and outputs of {} are bound by nothing",
                    unit.holder(linked)
                ),
            };
            diags.push(
                Diagnostic::new(Code::TensorMapMissing, Pass::BirLinker, message)
                    .core(core)
                    .at(linked.store.functions[unit.function].src.as_ref()),
            );
            continue;
        };
        let file = &input.files[index];
        let text = file.content.as_deref().map(|b| String::from_utf8_lossy(b).into_owned());
        let id = FileId(files.len() as u32);
        files.push(FileEntry::held(file.path.clone(), text.clone().map(Arc::new), FileKind::TensorMap));
        let Some(map) = text.as_deref().and_then(|t| tensor_map::read(t, id, &file.path, diags)) else {
            if text.is_none() {
                diags.push(
                    Diagnostic::new(
                        Code::TensorMapUnreadable,
                        Pass::BirLinker,
                        format!("cannot read the tensor map `{}`: its bytes were not given", file.path),
                    )
                    .core(core),
                );
            }
            continue;
        };
        report.files.push(TensorMapFile {
            core,
            path: file.path.clone(),
            shape: map.describe(),
            entries: map.entries.len() as u64,
        });

        // This unit's tensors by name: every set and every memory location of its functions.
        let mut tensors: BTreeMap<&str, TensorRef> = BTreeMap::new();
        let mut io_sets = Vec::new();
        for &f in &unit.functions {
            for allocation in &linked.store.functions[f].allocations {
                let Allocation::Set(at_set) = allocation else { continue };
                let set = &linked.store.sets[*at_set];
                if set.memlocs.is_empty() {
                    continue;
                }
                let reference = TensorRef {
                    function: linked.store.functions[f].name().to_owned(),
                    set: set.name(&linked.store),
                    kind: set.kind().to_owned(),
                };
                for &memloc in &set.memlocs {
                    tensors.entry(linked.store.memlocs[memloc].name()).or_insert_with(|| reference.clone());
                }
                if let Some(name) = set.fields.get("name").and_then(|v| v.as_str()) {
                    tensors.entry(name).or_insert_with(|| reference.clone());
                }
                if matches!(set.kind(), "ExternalInput" | "ExternalOutput") && !io_sets.iter().any(|(s, _)| s == at_set)
                {
                    io_sets.push((*at_set, reference));
                }
            }
        }

        let mut named: BTreeSet<&str> = BTreeSet::new();
        // Entries of cross-core intermediates: one note for the core, not one each.
        let mut left_out: Vec<(&str, &str, TensorRef)> = Vec::new();
        for entry in &map.entries {
            named.insert(entry.name.as_str());
            let linked_ref = tensors.get(entry.name.as_str()).cloned();
            let status = match &linked_ref {
                None => {
                    let d = Diagnostic::new(
                        Code::TensorMapStale,
                        Pass::BirLinker,
                        format!(
                            "{owner}'s tensor map names `{}`, and {} has no tensor of that name",
                            entry.name,
                            unit.holder(linked)
                        ),
                    )
                    .core(core)
                    .at_pointer(id, entry.pointer.clone());
                    limit.push(diags, d, core);
                    EntryStatus::Stale
                }
                Some(r) if demoted.contains(&(core, r.set.as_str())) => {
                    left_out.push((entry.name.as_str(), entry.pointer.as_str(), r.clone()));
                    EntryStatus::Demoted
                }
                Some(_) => EntryStatus::Bound,
            };
            places.push((id, entry.pointer.clone()));
            report.entries.push(TensorMapEntry {
                core,
                function: function.clone(),
                name: entry.name.clone(),
                group: entry.group.clone(),
                fields: entry.fields.clone(),
                linked: linked_ref,
                same_memory: Vec::new(),
                status,
            });
        }

        if let Some((_, pointer, first)) = left_out.first() {
            const NAMED: usize = 8;
            let mut names: Vec<String> = left_out.iter().take(NAMED).map(|(n, _, _)| format!("`{n}`")).collect();
            if left_out.len() > NAMED {
                names.push(format!("and {} more", left_out.len() - NAMED));
            }
            let d = Diagnostic::new(
                Code::TensorMapDemoted,
                Pass::BirLinker,
                format!(
                    "{owner}'s tensor map binds {} the link made internal (cross-core intermediates): left out of the merged map: {}",
                    if left_out.len() == 1 { "1 tensor".to_owned() } else { format!("{} tensors", left_out.len()) },
                    names.join(", ")
                ),
            )
            .core(core)
            .at_pointer(id, (*pointer).to_owned())
            .entity(EntityKind::Set, &first.set, Some(&first.function));
            diags.push(d);
        }
        for (set, reference) in io_sets {
            let set = &linked.store.sets[set];
            let bound = named.contains(reference.set.as_str())
                || set.memlocs.iter().any(|&m| named.contains(linked.store.memlocs[m].name()));
            if bound {
                continue;
            }
            let message = match unit.subgraph {
                None => format!(
                    "`{}` is an `{}` of the linked module on core {core}, and core {core}'s tensor map has no entry for it",
                    reference.set, reference.kind
                ),
                Some(_) => format!(
                    "`{}` is an `{}` of {}, and {owner}'s tensor map has no entry for it",
                    reference.set,
                    reference.kind,
                    unit.holder(linked)
                ),
            };
            let d = Diagnostic::new(Code::TensorMapUnbound, Pass::BirLinker, message)
                .core(core)
                .at(set.src.as_ref())
                .entity(EntityKind::Set, &reference.set, Some(&reference.function));
            limit.push(diags, d, core);
        }
    }

    same_memory(&mut report, &places, rows.aliases, &mut limit, diags);
    limit.finish(diags);
    let changes = report.entries.len() as u64;
    (report, StepRow { name: "tensor_map".to_owned(), changes, edits: Vec::new() })
}

/// Pairs the entries of one memory on two cores through the link's alias edges, and
/// checks they agree on its layout ([`LAYOUT_FIELDS`]).
fn same_memory(
    report: &mut TensorMap,
    places: &[(FileId, String)],
    aliases: &[AliasRow],
    limit: &mut Limit,
    diags: &mut Vec<Diagnostic>,
) {
    // An entry binds a set; an alias edge joins a set of one core to a set of another
    // (a handoff of the netlist: of one function to another's).
    let mut by_set: BTreeMap<(u64, &str, &str), Vec<usize>> = BTreeMap::new();
    for (i, entry) in report.entries.iter().enumerate() {
        if let Some(linked) = &entry.linked {
            by_set.entry((entry.core, linked.function.as_str(), linked.set.as_str())).or_default().push(i);
        }
    }
    fn end(e: &AliasEnd) -> (u64, &str, &str) {
        (e.core, e.function.as_str(), e.set.as_str())
    }
    let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
    for row in aliases {
        let consumers = by_set.get(&end(&row.consumer));
        let producers = by_set.get(&end(&row.producer));
        for &c in consumers.into_iter().flatten() {
            for &p in producers.into_iter().flatten() {
                pairs.insert((p, c));
            }
        }
    }
    for (p, c) in pairs {
        let (producer, consumer) = (&report.entries[p], &report.entries[c]);
        let differ: Vec<String> = LAYOUT_FIELDS
            .iter()
            .filter(|k| producer.fields.get(**k) != consumer.fields.get(**k))
            .map(|k| format!("`{k}`"))
            .collect();
        // One core: a handoff between two functions of its linked module.
        let handoff = producer.core == consumer.core;
        let reference = |e: &TensorMapEntry| EntryRef {
            core: e.core,
            function: handoff.then(|| e.function.clone()),
            name: e.name.clone(),
        };
        let (p_ref, c_ref) = (reference(producer), reference(consumer));
        if !differ.is_empty() {
            let (file, pointer) = places[c].clone();
            let message = if handoff {
                format!(
                    "{}'s `{}` and {}'s `{}` on core {} are one memory (a handoff of the netlist), and their entries differ in {}",
                    consumer.function,
                    consumer.name,
                    producer.function,
                    producer.name,
                    consumer.core,
                    differ.join(", ")
                )
            } else {
                format!(
                    "core {}'s `{}` and core {}'s `{}` are one memory (an alias of the link), and their entries differ in {}",
                    consumer.core,
                    consumer.name,
                    producer.core,
                    producer.name,
                    differ.join(", ")
                )
            };
            let d = Diagnostic::new(Code::TensorMapConflict, Pass::BirLinker, message)
                .core(consumer.core)
                .at_pointer(file, pointer);
            limit.push(diags, d, consumer.core);
            report.entries[c].status = EntryStatus::Conflict;
        }
        report.entries[p].same_memory.push(c_ref);
        report.entries[c].same_memory.push(p_ref);
    }
}

/// Diagnostics of one code and core beyond which the rest are counted in one more.
const PER_CORE: usize = 20;

/// At most [`PER_CORE`] diagnostics of a code per core; the rest counted in one more.
#[derive(Default)]
struct Limit {
    seen: BTreeMap<(Code, u64), usize>,
}

impl Limit {
    fn push(&mut self, diags: &mut Vec<Diagnostic>, diagnostic: Diagnostic, core: u64) {
        let seen = self.seen.entry((diagnostic.code, core)).or_default();
        *seen += 1;
        if *seen <= PER_CORE {
            diags.push(diagnostic);
        }
    }

    fn finish(self, diags: &mut Vec<Diagnostic>) {
        for ((code, core), seen) in self.seen {
            if seen > PER_CORE {
                diags.push(
                    Diagnostic::new(
                        code,
                        Pass::BirLinker,
                        format!("{} more on core {core} like the ones above", seen - PER_CORE),
                    )
                    .core(core),
                );
            }
        }
    }
}
