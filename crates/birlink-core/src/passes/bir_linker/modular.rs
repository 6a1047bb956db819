//! `bir_linker` in the modular flow, once per core (docs/spec/link.md §3, the
//! compiler's flows): core C's subgraph modules — the definitions — linked into one new
//! module `ncCC/sgLnk` through the netlist's partitions, as the compiler's `BirLinker`
//! does (`(nc00) [CoreForkPass]: Running bir_linker`).
//!
//! The steps are the seeds' reading's steps over another grouping (definitions = the
//! core's subgraphs, calls = the netlist's partitions), reusing its step files where
//! the mechanics are the same:
//!
//! 1. `create_module` — `ncCC/sgLnk`, `version` and `arch` of the first subgraph, tagged
//!    with the core;
//! 2. `dispatcher` — function `main`, holding one set per distinct netlist tensor (model
//!    inputs `ExternalInput`, model outputs `ExternalOutput`, intermediates `Internal`
//!    in shared DRAM, unallocated: the post-link allocator places them), and block
//!    `dispatcher`: one `Call call_def_<definition>_instance_<i>` per partition in
//!    netlist order, its `arguments` binding each formal set of the callee to `main`'s
//!    set of the partition's tensor ([`super::bindings`]; the representation is
//!    birlink's reading);
//! 3. `copy_functions` — each subgraph's functions moved in, the entry one named
//!    `sg0000`, `sg0001`, … ([`super::copy`]), tagged with the core;
//! 4. `switch_queue_instances`, 5. `returns` — one of each per definition's function,
//!    not per call ([`super::queue_switches`], [`super::returns`]);
//! 6. `handoffs` — each intermediate's producing and consuming calls, as
//!    `report.aliases` rows (`source: netlist`); formal sets keep their kinds and get no
//!    alias edge (one function serves every instance of its definition);
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

use serde_json::{json, Value};

use super::bindings::{self, function_name, Bindings, TensorKind};
use super::copy::{self, CoreInfo, Definition};
use super::log;
use super::record::{fields, Step};
use super::tensor_map::{self, MapUnit};
use super::{barriers, link_dir, queue_switches, queues, returns, Linked};
use crate::diag::codes::Code;
use crate::diag::has_errors;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::ir::{edit_object_field, opcode, Allocation, Block, Function, Inst, MemLoc, MemLocSet, Module};
use crate::output::print;
use crate::output::report::{
    AliasEnd, AliasRow, ArtifactKind, DispatchRow, LinkDir, PartitionRow, StepRow, TensorMap, Unit,
};
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
    let name = format!("nc{core:02}/sgLnk");
    let mut out = Linked { base_name: format!("nc{core:02}"), ..Linked::default() };
    let before = log::Counts::of(subgraphs.iter().map(|(_, m)| &m.module));
    let views: Vec<(u32, &Module, Option<&crate::model::ir::Src>)> =
        subgraphs.iter().map(|(s, m)| (*s, &m.module, m.module.src.as_ref())).collect();
    let bindings = bindings::bind(netlist, &views, core, diags);
    drop(views);
    out.partitions = partition_rows(&bindings);

    let mut linked = create(&name, core, subgraphs.first().map(|(_, m)| &m.module));
    out.steps.push(tag(created(&linked), &name));
    let main = main_function(&mut linked, core, &bindings);
    out.steps.push(tag(dispatch(&mut linked, core, main, &bindings, &mut out.dispatcher), &name));

    let mut step = Step::new("copy_functions");
    let mut infos: Vec<CoreInfo> = Vec::new();
    let order: Vec<u32> = subgraphs.iter().map(|(s, _)| *s).collect();
    for (subgraph, module) in subgraphs {
        let definition = bindings.definition(subgraph);
        let def = definition.map_or(u64::from(subgraph), |d| d.def);
        let call = bindings
            .calls
            .iter()
            .find(|c| c.def == def)
            .map_or_else(|| format!("call_def_{def}_instance_0"), bindings::Call::name);
        let definition = Definition { core, def, call, name: function_name(subgraph) };
        infos.push(copy::copy_module(&mut linked, definition, module, &mut step, diags));
    }
    out.steps.push(tag(step.finish(), &name));
    let plan = queues::plan(&linked, &infos);
    out.steps.push(tag(queue_switches::insert(&mut linked, &infos, &plan), &name));
    let mut step = Step::new("returns");
    returns::returns(&mut linked, &infos, cores, &mut step);
    out.steps.push(tag(step.finish(), &name));
    out.steps.push(tag(handoffs(core, &bindings, &mut out.aliases), &name));
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
    let name = format!("nc{core:02}/sgLnk");
    let planned = link_dir::plan_core(work.input, work.plan, core, diags);
    let paths = work.input.paths();
    let maps: BTreeMap<u32, usize> = workdir::all_artifacts(&paths)
        .into_iter()
        .filter(|a| u64::from(a.core) == core && a.kind == ArtifactKind::TensorMap)
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

/// The partitions as the dispatcher calls them: each call's tensors by what they are to
/// it.
fn partition_rows(bindings: &Bindings) -> Vec<PartitionRow> {
    let mut rows = Vec::with_capacity(bindings.calls.len());
    for call in &bindings.calls {
        let Some(definition) = bindings.definitions.iter().find(|d| d.def == call.def) else { continue };
        let mut row = PartitionRow {
            index: call.partition as u64,
            definition: call.def,
            instance: call.instance,
            call: call.name(),
            function: function_name(definition.subgraph),
            inputs: Vec::new(),
            outputs: Vec::new(),
            reads: Vec::new(),
            writes: Vec::new(),
        };
        for (formal, tensor) in definition.formals.iter().zip(&call.tensors) {
            let Some(tensor) = tensor.clone() else { continue };
            match (formal.input, formal.intermediate) {
                (true, false) => row.inputs.push(tensor),
                (true, true) => row.reads.push(tensor),
                (false, true) => row.writes.push(tensor),
                (false, false) => row.outputs.push(tensor),
            }
        }
        rows.push(row);
    }
    rows
}

/// Every edit of a step is in this core's module.
fn tag(mut row: StepRow, module: &str) -> StepRow {
    for edit in &mut row.edits {
        edit.module = Some(module.to_owned());
    }
    row
}

/// The new module, named and tagged.
fn create(name: &str, core: u64, base: Option<&Module>) -> Module {
    let mut linked = Module::default();
    linked.fields.insert("name".to_owned(), Value::from(name));
    if let Some(base) = base {
        for key in ["version", "arch"] {
            if let Some(value) = base.fields.get(key) {
                linked.fields.insert(key.to_owned(), value.clone());
            }
        }
    }
    edit_object_field(&mut linked.fields, "attributes", |attributes| {
        attributes.insert("neuron_core_id".to_owned(), Value::from(core));
    });
    linked
}

fn created(linked: &Module) -> StepRow {
    let mut step = Step::new("create_module");
    step.added(&Unit::Module, "", print::module_line(linked));
    step.finish()
}

/// `main`, tagged with the core, holding one set per tensor of the netlist.
fn main_function(linked: &mut Module, core: u64, bindings: &Bindings) -> Handle<Function> {
    let mut allocations = Vec::with_capacity(bindings.tensors.len());
    for (tensor, kind) in &bindings.tensors {
        let (set_kind, space, memloc) = match kind {
            TensorKind::Input => {
                ("ExternalInput", "Local", json!({"name": tensor, "type": "DRAM", "allocated": false}))
            }
            TensorKind::Output => {
                ("ExternalOutput", "Local", json!({"name": tensor, "type": "DRAM", "allocated": false}))
            }
            TensorKind::Intermediate => {
                ("Internal", "Shared", json!({"name": tensor, "type": "DRAM", "allocated": false}))
            }
        };
        let memloc = linked.store.memlocs.push(MemLoc { fields: fields(memloc), src: None });
        let set = linked.store.sets.push(MemLocSet {
            fields: fields(json!({"name": format!("{tensor}_set"), "kind": set_kind, "addr_space": space})),
            memlocs: vec![memloc],
            src: None,
        });
        allocations.push(Allocation::Set(set));
    }
    let mut main = Function { fields: fields(json!({"name": "main"})), allocations, blocks: Vec::new(), src: None };
    edit_object_field(&mut main.fields, "attributes", |attributes| {
        attributes.insert("neuron_core_id".to_owned(), Value::from(core));
    });
    let main = linked.store.functions.push(main);
    linked.functions.push(main);
    main
}

/// Block `dispatcher`: one call per partition, in netlist order.
fn dispatch(
    linked: &mut Module,
    core: u64,
    main: Handle<Function>,
    bindings: &Bindings,
    rows: &mut Vec<DispatchRow>,
) -> StepRow {
    let mut calls = Vec::new();
    for call in &bindings.calls {
        let Some(definition) = bindings.definitions.iter().find(|d| d.def == call.def) else { continue };
        let target = function_name(definition.subgraph);
        let arguments: Vec<(String, String)> = definition
            .formals
            .iter()
            .zip(&call.tensors)
            .filter_map(|(formal, tensor)| Some((formal.set.clone(), format!("{}_set", tensor.as_ref()?))))
            .collect();
        let inst = linked.store.insts.push(Inst::new(
            fields(json!({
                "name": call.name(),
                "opcode": opcode::CALL,
                "target": target,
                "arguments": arguments.iter().map(|(formal, actual)| json!([formal, actual])).collect::<Vec<_>>(),
            })),
            None,
            None,
        ));
        calls.push(inst);
        rows.push(DispatchRow { call: call.name(), core, target, partition: Some(call.partition as u64), arguments });
    }
    let block =
        linked.store.blocks.push(Block { fields: fields(json!({"name": "dispatcher"})), insts: calls, src: None });
    linked.store.functions[main].blocks.push(block);
    super::dispatcher::recorded(linked, main, block)
}

/// Each intermediate's handoff, from the call that produces it to each that consumes
/// it, between the formal memory locations they bind it to.
fn handoffs(core: u64, bindings: &Bindings, rows: &mut Vec<AliasRow>) -> StepRow {
    let end = |partition: usize, tensor: &str, input: bool| -> Option<AliasEnd> {
        let call = bindings.calls.iter().find(|c| c.partition == partition)?;
        let definition = bindings.definitions.iter().find(|d| d.def == call.def)?;
        let at = definition
            .formals
            .iter()
            .zip(&call.tensors)
            .position(|(f, t)| f.input == input && t.as_deref() == Some(tensor))?;
        let formal = &definition.formals[at];
        Some(AliasEnd {
            core,
            call: Some(call.name()),
            function: function_name(definition.subgraph),
            set: formal.set.clone(),
            memloc: formal.memloc.clone(),
        })
    };
    for (tensor, (producer, consumers)) in &bindings.handoffs {
        let Some(producer) = end(*producer, tensor, false) else { continue };
        for &consumer in consumers {
            let Some(consumer) = end(consumer, tensor, true) else { continue };
            rows.push(AliasRow {
                consumer,
                producer: producer.clone(),
                kind: 3,
                source: "netlist".to_owned(),
                tensor: Some(tensor.clone()),
            });
        }
    }
    // The handoffs change no entity: the calls bind `main`'s one set of the tensor.
    Step::new("handoffs").finish()
}
