//! `bir_linker` in the modular flow, once per core (docs/spec/link.md §3, the
//! compiler's flows): core C's subgraph modules — the definitions — linked into one new
//! module `ncCC/sgLnk` through the netlist's partitions, as the compiler's `BirLinker`
//! does (`(nc00) [CoreForkPass]: Running bir_linker`).
//!
//! The steps are the step files the seeds' reading uses too, over another grouping
//! (definitions = the core's subgraphs, calls = the netlist's partitions):
//!
//! 1. `create_module` — `ncCC/sgLnk`, `version` and `arch` of the first subgraph, tagged
//!    with the core ([`super::module`]);
//! 2. `dispatcher` — `main` with one set per netlist tensor and one call per partition,
//!    bound through the netlist ([`super::dispatcher`], [`super::bindings`]);
//! 3. `copy_functions` — each subgraph's functions moved in, the entry one named
//!    `sg0000`, `sg0001`, … ([`super::copy`]), tagged with the core;
//! 4. `switch_queue_instances`, 5. `returns` — one of each per definition's function,
//!    not per call ([`super::queue_switches`], [`super::returns`]);
//! 6. `handoffs` — each intermediate's producing and consuming calls
//!    ([`super::handoffs`]);
//! 7. `merge_queues` — by name across the subgraphs, instances `<instance>_defId_<def>`
//!    ([`super::queues`]);
//! 8. `renumber_barriers` — over the linked module ([`super::barriers`]);
//! 9. `link_dir` — for a work directory, the core's `ncCC/sgLnk/` planned
//!    ([`super::link_dir::plan_core`]);
//! 10. `tensor_map` — each subgraph's map copied to its function
//!     (`copyTensorMapForFunc2 sgNNNN`) and checked ([`super::tensor_map::merge_units`]),
//!     written as `ncCC/sgLnk/sg00/tensor_map.json`.
//!
//! The run's own log, in the compiler's words, is [`super::log`]'s.

use std::collections::{BTreeMap, BTreeSet};

use super::bindings::{self, function_name, Bindings};
use super::copy::{self, CoreInfo, Definition};
use super::linked::Linked;
use super::log;
use super::record::Step;
use super::tensor_map::{self, MapUnit};
use super::{barriers, dispatcher, handoffs, link_dir, module, queue_switches, queues, returns};
use crate::diag::codes::Code;
use crate::diag::has_errors;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::ir::{Function, Module};
use crate::model::place::Place;
use crate::output::report::{ArtifactKind, LinkDir, StepRow, TensorMap};
use crate::read::input::{CoreModule, FileEntry};
use crate::read::netlist::Netlist;
use crate::read::workdir::{self, Plan, WorkdirInput};

/// Links core `core`'s subgraph modules (`subgraphs`, in subgraph order) through the
/// netlist; `cores` are every core of the set (the completion barriers span them).
pub fn run(
    core: u64,
    subgraphs: Vec<(u32, CoreModule)>,
    netlist: Option<&Netlist>,
    cores: &[u64],
    work: Option<Work<'_>>,
    diags: &mut Vec<Diagnostic>,
) -> Linked {
    let start = diags.len();
    let name = Place::linked(core).to_string();
    let mut out = Linked::default();
    let before = log::Counts::of(subgraphs.iter().map(|(_, m)| &m.module));
    let views: Vec<(u32, &Module, Option<&crate::model::ir::Src>)> =
        subgraphs.iter().map(|(s, m)| (*s, &m.module, m.module.src.as_ref())).collect();
    let bindings = bindings::bind(netlist, &views, core, diags);
    drop(views);
    out.partitions = bindings.partition_rows();

    let (mut linked, step) = module::create_core(core, subgraphs.first().map(|(_, m)| &m.module));
    out.steps.push(tag(step, &name));
    out.steps.push(tag(dispatcher::add_calls(&mut linked, core, &bindings, &mut out.dispatcher), &name));
    let order: Vec<u32> = subgraphs.iter().map(|(s, _)| *s).collect();
    let (infos, step) = copy_definitions(&mut linked, core, subgraphs, &bindings, diags);
    out.steps.push(tag(step, &name));
    let plan = queues::plan(&linked, &infos);
    out.steps.push(tag(queue_switches::insert(&mut linked, &infos, &plan), &name));
    let mut step = Step::new("returns");
    returns::returns(&mut linked, &infos, cores, &mut step);
    out.steps.push(tag(step.finish(), &name));
    out.steps.push(tag(handoffs::record(core, &bindings, &mut out.aliases), &name));
    let n_cores = cores.iter().max().map_or(1, |c| c + 1);
    out.steps.push(tag(queues::merge(&mut linked, &infos, &plan, n_cores, &mut out.queues, diags), &name));
    out.steps.push(tag(barriers::renumber(&mut linked, &mut out.barriers, diags), &name));
    let lines = match work {
        Some(work) if !has_errors(&diags[start..]) => {
            let units = order.iter().zip(&infos).map(|(s, info)| (*s, info.function, info.functions.clone())).collect();
            Some(link_directory(&linked, core, units, work, &mut out, diags))
        }
        _ => None,
    };

    out.failed = has_errors(&diags[start..]);
    out.log = log::core_block(core, &before, &bindings, &linked, lines.as_ref(), out.failed);
    if !out.failed {
        out.module = Some(linked);
    }
    out
}

/// Step 3: each subgraph's module moved in as its definition's function.
fn copy_definitions(
    linked: &mut Module,
    core: u64,
    subgraphs: Vec<(u32, CoreModule)>,
    bindings: &Bindings,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<CoreInfo>, StepRow) {
    let mut step = Step::new("copy_functions");
    let mut infos: Vec<CoreInfo> = Vec::new();
    for (subgraph, module) in subgraphs {
        let def = bindings.definition(subgraph).map_or(u64::from(subgraph), |d| d.def);
        let call = bindings.first_call(def).map_or_else(|| format!("call_def_{def}_instance_0"), bindings::Call::name);
        let definition = Definition { core, def, call, name: function_name(subgraph) };
        infos.push(copy::copy_module(linked, definition, module, &mut step, diags));
    }
    (infos, step.finish())
}

/// The work directory a core's subgraphs came from, for its link directory and tensor
/// map (their files become files of the run, so diagnostics point into them).
pub struct Work<'w> {
    /// The directory.
    pub input: &'w WorkdirInput,
    /// What was picked of it.
    pub plan: &'w Plan,
    /// The run's files.
    pub files: &'w mut Vec<FileEntry>,
}

/// Steps 9 and 10: the core's `ncCC/sgLnk/` planned and its subgraphs' maps merged;
/// what the log says of them.
fn link_directory(
    linked: &Module,
    core: u64,
    units: Vec<(u32, Handle<Function>, Vec<Handle<Function>>)>,
    work: Work<'_>,
    out: &mut Linked,
    diags: &mut Vec<Diagnostic>,
) -> log::LinkDirLines {
    let name = Place::linked(core).to_string();
    let planned = link_dir::plan_core(work.input, work.plan, core, diags);
    let paths = work.input.paths();
    let maps: BTreeMap<u32, usize> = workdir::all_artifacts(&paths)
        .into_iter()
        .filter(|a| a.core == core && a.kind == ArtifactKind::TensorMap)
        .filter_map(|a| Some((a.subgraph?, a.index)))
        .collect();
    out.steps.push(StepRow { name: "link_dir".to_owned(), changes: planned.entries.len() as u64, edits: Vec::new() });
    let link_dir = format!("{}/sgLnk", planned.core_dir);
    let mut lines = log::LinkDirLines {
        core_dir: planned.core_dir.clone(),
        tensor_map: planned.has_maps.then(|| format!("{link_dir}/{}", link_dir::CORE_TENSOR_MAP)),
        link_dir,
        collisions: 0,
        verified: true,
    };
    if planned.has_maps {
        let units: Vec<MapUnit> = units
            .into_iter()
            .map(|(subgraph, function, functions)| MapUnit {
                core,
                subgraph: Some(subgraph),
                function,
                functions,
                map: maps.get(&subgraph).copied(),
            })
            .collect();
        let from = diags.len();
        let rows = tensor_map::LinkRows { aliases: &out.aliases, output_kinds: &[] };
        let (map, step) = tensor_map::merge_units(linked, work.input, &units, rows, work.files, diags);
        lines.verified = !diags[from..]
            .iter()
            .any(|d| matches!(d.code, Code::TensorMapStale | Code::TensorMapConflict | Code::TensorMapUnreadable));
        lines.collisions = collisions(&map);
        out.steps.push(tag(step, &name));
        out.tensor_map = Some(map);
    }
    out.link_dir = Some(LinkDir { root: ".".to_owned(), entries: planned.entries, in_place: planned.in_place });
    lines
}

/// `# Internal tensor-map collisions: K` — birlink's reading: the names the merged map
/// holds for two or more functions of the core where one of them binds an `Internal`
/// set (a function's own tensor, not one the calls hand it).
fn collisions(map: &TensorMap) -> usize {
    let mut by_name: BTreeMap<&str, (BTreeSet<&str>, bool)> = BTreeMap::new();
    for entry in &map.entries {
        let seen = by_name.entry(entry.name.as_str()).or_default();
        seen.0.insert(entry.function.as_str());
        seen.1 |= entry.linked.as_ref().is_some_and(|t| t.kind == "Internal");
    }
    by_name.values().filter(|(functions, internal)| functions.len() > 1 && *internal).count()
}

/// Every edit of a step is in this core's module.
fn tag(mut row: StepRow, module: &str) -> StepRow {
    for edit in &mut row.edits {
        edit.module = Some(module.to_owned());
    }
    row
}
