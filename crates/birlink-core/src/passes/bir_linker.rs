//! `bir_linker`: N per-core modules → one `<base>/sgLnk` module (contract §3; seed
//! `000_…` "bir_linker — Multi-LNC Re-Assembly", §2–§7).
//!
//! As in `BirLinker::run`, the result is a **new** module; the per-core modules are moved
//! into it, each core's arenas appended through explicit `HandleMap`s, never edited in
//! place. The steps, in the order they are reported:
//!
//! 1. `create_module` — the module `<base>/sgLnk`, `version` and `arch` of the base module.
//! 2. `dispatcher` — function `main`, block `dispatcher`, one `Call call_def_<c>_instance_0`
//!    per core in core order (`addFnCall`).
//! 3. `copy_functions` — each module's entry function becomes the core function, named
//!    after the module and tagged with its core, carrying `source_module` and
//!    `source_function`; its other functions follow as `<module>/<name>`
//!    (`copyModulesAsFunctions`). `Call` targets inside a module follow the renames.
//! 4. `switch_queue_instances` — one `SwitchQueueInstance` per queue the core has
//!    instances in, at the front of the core function's first block.
//! 5. `returns` — the completion `CoreBarrier` and the `Return` at the end of the core
//!    function's last block (`fpassInsertReturns`).
//! 6. `aliases` — symmetric MustAlias edges for each `remote_local_target` and netlist
//!    alias, kinds OR-merged, DRAM-only; the view's `alloced_func` (`buildMainAliases`).
//! 7. `output_kinds` — cross-core intermediates are no longer external (`fixOutputKind`,
//!    io2spill).
//! 8. `merge_queues` — queues merged by name, instances renamed `<instance>_defId_<core>`
//!    and tagged, semaphores counted (`initQueues`).
//! 9. `renumber_barriers` — one monotonic id over the whole module (`renumberCoreBarriers`).
//!
//! An error in any step leaves no linked module (the rows computed so far are kept).

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Value};

use crate::arena::{Handle, HandleMap};
use crate::codes::Code;
use crate::diag::{has_errors, Diagnostic};
use crate::input::CoreModule;
use crate::ir::{
    edit_object_field, opcode, str_field, Allocation, Block, Fields, Function, Inst, MemLoc, MemLocSet, Module, Op,
    Queue, QueueInstance, Store, UpdateView,
};
use crate::netlist::Netlist;
use crate::partition::{counterpart, memlocs, MemlocIndex, MemlocRef, Partition};
use crate::passes::verify::instance_source_name;
use crate::print;
use crate::report::{
    AliasEnd, AliasRow, BarrierRow, DispatchRow, Edit, InstanceRow, OutputKindRow, QueueRow, SemaphoreCount, StepRow,
};

/// The pass name.
pub const NAME: &str = "bir_linker";

/// Everything `bir_linker` produced.
#[derive(Debug, Default)]
pub struct Linked {
    /// The linked module; `None` when the pass reported an error.
    pub module: Option<Module>,
    /// Steps in order.
    pub steps: Vec<StepRow>,
    /// `report.dispatcher`.
    pub dispatcher: Vec<DispatchRow>,
    /// `report.aliases`.
    pub aliases: Vec<AliasRow>,
    /// `report.output_kinds`.
    pub output_kinds: Vec<OutputKindRow>,
    /// `report.queues`.
    pub queues: Vec<QueueRow>,
    /// `report.barriers`.
    pub barriers: Vec<BarrierRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

/// The name of core `core`'s call (`call_def_<core>_instance_<idx>`, idx = 0).
pub fn call_name(core: u64) -> String {
    format!("call_def_{core}_instance_0")
}

/// One core being linked.
struct CoreInfo {
    core: u64,
    /// The module's name: the core function's name.
    name: String,
    /// The core function.
    function: Handle<Function>,
    /// All of its functions, the core function first.
    functions: Vec<Handle<Function>>,
    /// Its queues (moved handles), in module order.
    queues: Vec<Handle<Queue>>,
}

/// A planned queue merge.
struct MergePlan {
    /// Merged queue names in first-appearance order, with the queue entity kept.
    queues: Vec<(String, Handle<Queue>)>,
    /// Per merged queue, its instances in merged order.
    instances: Vec<Vec<PlannedInstance>>,
}

/// One queue instance of a merge plan.
struct PlannedInstance {
    core: u64,
    instance: Handle<QueueInstance>,
    /// Its name in the input (`<queue>_<index>` when it had none).
    source: String,
    /// Its linked name, `<source>_defId_<core>`.
    name: String,
    /// The queue it came from, before merging.
    source_queue: Handle<Queue>,
}

/// Links the modules. `modules` pairs each module with its verified core id.
pub fn run(modules: Vec<(u64, CoreModule)>, netlist: Option<&Netlist>, diags: &mut Vec<Diagnostic>) -> Linked {
    let start = diags.len();
    let mut modules = modules;
    modules.sort_by_key(|(core, _)| *core);
    let mut out = Linked::default();
    let n_cores = modules.len() as u64;
    let base_name = base_name(&modules, netlist);
    let mut linked = Module::default();

    // 1. create_module
    linked.fields.insert("name".to_owned(), Value::from(format!("{base_name}/sgLnk")));
    if let Some((_, base)) = modules.first() {
        for key in ["version", "arch"] {
            if let Some(value) = base.module.fields.get(key) {
                linked.fields.insert(key.to_owned(), value.clone());
            }
        }
    }
    out.steps.push(step("create_module", vec![edit("module", "", None, Some(print::module_line(&linked)))]));

    // 2. dispatcher
    let mut edits = Vec::new();
    let main_block = {
        let mut calls = Vec::new();
        for (core, module) in &modules {
            let call = linked.store.insts.push(Inst::new(
                fields(json!({"name": call_name(*core), "opcode": opcode::CALL, "target": module.name})),
                None,
                None,
            ));
            calls.push(call);
            out.dispatcher.push(DispatchRow { call: call_name(*core), core: *core, target: module.name.clone() });
        }
        linked.store.blocks.push(Block { fields: fields(json!({"name": "dispatcher"})), insts: calls, src: None })
    };
    let main = linked.store.functions.push(Function {
        fields: fields(json!({"name": "main"})),
        allocations: Vec::new(),
        blocks: vec![main_block],
        src: None,
    });
    linked.functions.push(main);
    edits.push(edit("function main", "", None, Some(print::function_line(&linked, main))));
    edits.push(edit("function main", "", None, Some(print::block_line(&linked, main_block))));
    for &call in &linked.store.blocks[main_block].insts {
        edits.push(edit("function main", "block dispatcher", None, Some(print::inst_line(&linked, call))));
    }
    out.steps.push(step("dispatcher", edits));

    // 3. copy_functions
    let mut edits = Vec::new();
    let mut cores: Vec<CoreInfo> = Vec::with_capacity(modules.len());
    for (core, core_module) in modules {
        cores.push(copy_module(&mut linked, core, core_module, &mut edits, diags));
    }
    out.steps.push(step("copy_functions", edits));

    let plan = plan_queue_merge(&linked, &cores);

    // 4. switch_queue_instances
    let mut edits = Vec::new();
    for info in &cores {
        let mut sqis = Vec::new();
        for (i, (queue_name, _)) in plan.queues.iter().enumerate() {
            let Some(first) = plan.instances[i].iter().find(|entry| entry.core == info.core) else {
                continue;
            };
            let sqi = linked.store.insts.push(Inst::new(
                fields(json!({
                    "name": format!("I-SQI-{queue_name}-{}", call_name(info.core)),
                    "opcode": opcode::SWITCH_QUEUE_INSTANCE,
                    "queue": queue_name,
                    "instance": first.name,
                })),
                None,
                None,
            ));
            sqis.push(sqi);
        }
        if sqis.is_empty() {
            continue;
        }
        let block = first_block(&mut linked, info.function);
        let unit = format!("function {}", info.name);
        let context = format!("block {}", linked.store.blocks[block].name());
        for &sqi in &sqis {
            edits.push(edit(&unit, &context, None, Some(print::inst_line(&linked, sqi))));
        }
        let insts = &mut linked.store.blocks[block].insts;
        insts.splice(0..0, sqis);
    }
    out.steps.push(step("switch_queue_instances", edits));

    // 5. returns
    let mut edits = Vec::new();
    let all_cores: Vec<u64> = cores.iter().map(|c| c.core).collect();
    for info in &cores {
        let barrier = linked.store.insts.push(Inst::new(
            fields(json!({
                "name": format!("cb_return_{}", call_name(info.core)),
                "opcode": opcode::CORE_BARRIER,
                "id": 0,
                "cores": all_cores,
            })),
            None,
            None,
        ));
        let ret = linked.store.insts.push(Inst::new(
            fields(json!({"name": format!("return_{}", call_name(info.core)), "opcode": opcode::RETURN})),
            None,
            None,
        ));
        let block = last_block(&mut linked, info.function);
        let unit = format!("function {}", info.name);
        let context = format!("block {}", linked.store.blocks[block].name());
        edits.push(edit(&unit, &context, None, Some(print::inst_line(&linked, barrier))));
        edits.push(edit(&unit, &context, None, Some(print::inst_line(&linked, ret))));
        linked.store.blocks[block].insts.extend([barrier, ret]);
    }
    out.steps.push(step("returns", edits));

    // 6. aliases
    let partitions: Vec<Partition> = cores
        .iter()
        .map(|c| Partition {
            core: c.core,
            function: c.function,
            functions: c.functions.clone(),
            instances: Vec::new(),
        })
        .collect();
    let handoffs = plan_handoffs(&linked, &partitions, netlist, diags);
    let mut edits = Vec::new();
    for handoff in &handoffs {
        let row = apply_handoff(&mut linked, handoff, &mut edits);
        out.aliases.push(row);
    }
    out.steps.push(step("aliases", edits));

    // 7. output_kinds
    let mut edits = Vec::new();
    let outputs: BTreeSet<&str> = netlist.map(|n| n.outputs.iter().map(String::as_str).collect()).unwrap_or_default();
    let producers: BTreeSet<Handle<MemLocSet>> = handoffs.iter().map(|h| h.producer.at.set).collect();
    let consumers: BTreeSet<Handle<MemLocSet>> = handoffs.iter().map(|h| h.consumer.at.set).collect();
    for partition in &partitions {
        for &function in &partition.functions {
            let sets: Vec<Handle<MemLocSet>> = linked.store.functions[function]
                .allocations
                .iter()
                .filter_map(|a| if let Allocation::Set(s) = a { Some(*s) } else { None })
                .collect();
            for set in sets {
                let kind = linked.store.sets[set].kind().to_owned();
                let demote = match kind.as_str() {
                    "ExternalOutput" if producers.contains(&set) => !linked.store.sets[set]
                        .memlocs
                        .iter()
                        .any(|&m| outputs.contains(linked.store.memlocs[m].name())),
                    "ExternalInput" => consumers.contains(&set),
                    _ => false,
                };
                if !demote {
                    continue;
                }
                let before = print::set_line(&linked, set);
                linked.store.sets[set].fields.insert("kind".to_owned(), Value::from("Internal"));
                let after = print::set_line(&linked, set);
                let function_name = linked.store.functions[function].name().to_owned();
                edits.push(edit(&format!("function {function_name}"), "", Some(before), Some(after)));
                out.output_kinds.push(OutputKindRow {
                    core: partition.core,
                    function: function_name,
                    set: linked.store.sets[set].name(&linked.store),
                    from: kind,
                    to: "Internal".to_owned(),
                });
            }
        }
    }
    out.steps.push(step("output_kinds", edits));

    // 8. merge_queues
    let mut edits = Vec::new();
    out.queues = merge_queues(&mut linked, &cores, &plan, n_cores, &mut edits, diags);
    out.steps.push(step("merge_queues", edits));

    // 9. renumber_barriers
    let mut edits = Vec::new();
    out.barriers = renumber_barriers(&mut linked, diags, &mut edits);
    out.steps.push(step("renumber_barriers", edits));

    out.failed = has_errors(&diags[start..]);
    if !out.failed {
        out.module = Some(linked);
    }
    out
}

/// `<base>`: the netlist's `name`, else the name of the module with the lowest core id.
pub fn base_name(modules: &[(u64, CoreModule)], netlist: Option<&Netlist>) -> String {
    if let Some(name) = netlist.and_then(|n| n.name.clone()) {
        return name;
    }
    modules.iter().min_by_key(|(core, _)| *core).map(|(_, m)| m.name.clone()).unwrap_or_else(|| "nc00".to_owned())
}

fn fields(value: Value) -> Fields {
    match value {
        Value::Object(map) => map,
        _ => Fields::new(),
    }
}

fn step(name: &str, edits: Vec<Edit>) -> StepRow {
    StepRow { name: name.to_owned(), changes: edits.len() as u64, edits }
}

fn edit(unit: &str, context: &str, before: Option<String>, after: Option<String>) -> Edit {
    Edit { unit: unit.to_owned(), context: context.to_owned(), before, after }
}

/// Moves one module into the linked module (step 3).
fn copy_module(
    linked: &mut Module,
    core: u64,
    core_module: CoreModule,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) -> CoreInfo {
    let CoreModule { module, name, .. } = core_module;
    let Module { fields: module_fields, functions, queues, store, src: _ } = module;
    let maps = append_store(&mut linked.store, store);
    let functions: Vec<Handle<Function>> = functions.iter().map(|&f| maps.functions.get(f)).collect();
    let queues: Vec<Handle<Queue>> = queues.iter().map(|&q| maps.queues.get(q)).collect();
    let entry = functions
        .iter()
        .copied()
        .find(|&f| linked.store.functions[f].name() == "main")
        .or_else(|| functions.first().copied());
    let mut ordered = Vec::with_capacity(functions.len());
    ordered.extend(entry);
    ordered.extend(functions.iter().copied().filter(|&f| Some(f) != entry));
    let mut renames: HashMap<String, String> = HashMap::new();
    let source_module = Value::Object(module_fields);
    for &function in &ordered {
        let old_name = linked.store.functions[function].name().to_owned();
        let new_name = if Some(function) == entry { name.clone() } else { format!("{name}/{old_name}") };
        let before = format!("function {}", print::name_text(&old_name));
        let f = &mut linked.store.functions[function];
        warn_attributes(&f.fields, "function", &old_name, core, f.src.as_ref(), diags);
        f.fields.insert("name".to_owned(), Value::from(new_name.clone()));
        f.fields.insert("source_function".to_owned(), Value::from(old_name.clone()));
        edit_object_field(&mut f.fields, "attributes", |attributes| {
            attributes.insert("neuron_core_id".to_owned(), Value::from(core));
        });
        if Some(function) == entry {
            f.fields.insert("source_module".to_owned(), source_module.clone());
        }
        linked.functions.push(function);
        edits.push(edit(
            &format!("function {new_name}"),
            "",
            Some(before),
            Some(print::function_line(linked, function)),
        ));
        renames.insert(old_name, new_name);
    }
    // Calls between the module's functions follow the renames.
    for &function in &ordered {
        let mut calls = Vec::new();
        linked.walk_function(function, &mut |inst| {
            if linked.store.insts[inst].op == Op::Call {
                calls.push(inst);
            }
        });
        for call in calls {
            let Some(target) = str_field(&linked.store.insts[call].fields(), "target").map(str::to_owned) else {
                continue;
            };
            let Some(new_target) = renames.get(&target) else {
                continue;
            };
            let before = print::inst_line(linked, call);
            let new_target = Value::from(new_target.clone());
            linked.store.insts[call].fields_mut().insert("target".to_owned(), new_target);
            let function_name = linked.store.functions[function].name().to_owned();
            edits.push(edit(
                &format!("function {function_name}"),
                "",
                Some(before),
                Some(print::inst_line(linked, call)),
            ));
        }
    }
    let function = match entry {
        Some(function) => function,
        // `verify` rejects a module without functions (BL0105); should one get here
        // anyway, it links as an empty core function rather than vanish.
        None => {
            let mut f =
                Function { fields: fields(json!({"name": name, "source_function": ""})), ..Function::default() };
            edit_object_field(&mut f.fields, "attributes", |attributes| {
                attributes.insert("neuron_core_id".to_owned(), Value::from(core));
            });
            f.fields.insert("source_module".to_owned(), source_module);
            let function = linked.store.functions.push(f);
            linked.functions.push(function);
            ordered.push(function);
            function
        }
    };
    CoreInfo { core, name, function, functions: ordered, queues }
}

/// The per-arena old → new maps of one appended module.
struct StoreMaps {
    functions: HandleMap<Function>,
    queues: HandleMap<Queue>,
}

/// Appends every arena of `from` to `into`, rewriting every handle inside the moved
/// entities through the per-kind maps.
fn append_store(into: &mut Store, from: Store) -> StoreMaps {
    let Store { functions, blocks, insts, sets, memlocs, queues, instances } = from;
    let function_map = into.functions.append(functions);
    let block_map = into.blocks.append(blocks);
    let inst_map = into.insts.append(insts);
    let set_map = into.sets.append(sets);
    let memloc_map: HandleMap<MemLoc> = into.memlocs.append(memlocs);
    let queue_map = into.queues.append(queues);
    let instance_map = into.instances.append(instances);
    for function in function_map.new_handles() {
        let f = &mut into.functions[function];
        block_map.adjust_all(&mut f.blocks);
        for allocation in &mut f.allocations {
            if let Allocation::Set(set) = allocation {
                set_map.adjust(set);
            }
        }
    }
    for set in set_map.new_handles() {
        memloc_map.adjust_all(&mut into.sets[set].memlocs);
    }
    for block in block_map.new_handles() {
        inst_map.adjust_all(&mut into.blocks[block].insts);
    }
    for inst in inst_map.new_handles() {
        if let Some(body) = &mut into.insts[inst].body {
            block_map.adjust_all(body);
        }
    }
    for queue in queue_map.new_handles() {
        instance_map.adjust_all(&mut into.queues[queue].instances);
    }
    for instance in instance_map.new_handles() {
        inst_map.adjust_all(&mut into.instances[instance].insts);
    }
    StoreMaps { functions: function_map, queues: queue_map }
}

/// The core function's first block, created (`entry`) when it has none.
fn first_block(linked: &mut Module, function: Handle<Function>) -> Handle<Block> {
    if let Some(&block) = linked.store.functions[function].blocks.first() {
        return block;
    }
    let block =
        linked.store.blocks.push(Block { fields: fields(json!({"name": "entry"})), insts: Vec::new(), src: None });
    linked.store.functions[function].blocks.push(block);
    block
}

/// The core function's last top-level block, created (`entry`) when it has none.
fn last_block(linked: &mut Module, function: Handle<Function>) -> Handle<Block> {
    match linked.store.functions[function].blocks.last() {
        Some(&block) => block,
        None => first_block(linked, function),
    }
}

/// Decides the merged queues and every instance's new name (used by steps 4 and 8).
fn plan_queue_merge(linked: &Module, cores: &[CoreInfo]) -> MergePlan {
    let mut plan = MergePlan { queues: Vec::new(), instances: Vec::new() };
    let mut index: HashMap<String, usize> = HashMap::new();
    for info in cores {
        for &queue in &info.queues {
            let q = &linked.store.queues[queue];
            let name = q.name().to_owned();
            let slot = *index.entry(name.clone()).or_insert_with(|| {
                plan.queues.push((name.clone(), queue));
                plan.instances.push(Vec::new());
                plan.queues.len() - 1
            });
            for (i, &instance) in q.instances.iter().enumerate() {
                let source = instance_source_name(&name, linked.store.instances[instance].name(), i);
                let new_name = format!("{source}_defId_{}", info.core);
                plan.instances[slot].push(PlannedInstance {
                    core: info.core,
                    instance,
                    source,
                    name: new_name,
                    source_queue: queue,
                });
            }
        }
    }
    plan
}

/// One side of a planned handoff.
struct End {
    core: u64,
    at: MemlocRef,
}

/// A planned alias edge.
struct Handoff {
    consumer: End,
    producer: End,
    kind: u64,
    source: &'static str,
}

/// Finds every handoff (step 6), reporting the ones that cannot be made.
fn plan_handoffs(
    linked: &Module,
    partitions: &[Partition],
    netlist: Option<&Netlist>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Handoff> {
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
                    "memloc",
                    view_name,
                    Some(function_name),
                )
            };
            if target.core == partition.core {
                diags.push(about_view(
                    Diagnostic::new(
                        Code::SelfTarget,
                        NAME,
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
                    NAME,
                    format!(
                        "`{view_name}` on core {} targets core {}, which is not in the link set; no alias made",
                        partition.core, target.core
                    ),
                )));
                continue;
            };
            let owner = &partitions[oi];
            let prefer = counterpart(linked, partition, at.function, owner);
            let Some(found) = indexes[oi].find(&target.name, prefer) else {
                diags.push(about_view(Diagnostic::new(
                    Code::MissingRemoteTarget,
                    NAME,
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
                kind: 3,
                source: "remote_local_target",
            });
        }
    }
    for alias in netlist.map(|n| n.aliases.as_slice()).unwrap_or_default() {
        let find = |end: &crate::netlist::Endpoint| -> Option<(usize, MemlocRef)> {
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
                        NAME,
                        format!("netlist alias {role} `{}` on core {} does not exist", end.memloc, end.core),
                    )
                    .core(end.core)
                    .at(Some(&alias.src));
                    if let Some(&i) = by_core.get(&end.core) {
                        let near = crate::partition::nearest_names(&end.memloc, indexes[i].names(), 3);
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
                    NAME,
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
            kind: alias.kind,
            source: "netlist",
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
            NAME,
            format!(
                "cross-core handoff `{}` (core {view_core}) → `{}` (core {owner_core}) is not in DRAM: {}",
                v.name(),
                o.name(),
                sides.join(" and ")
            ),
        )
        .core(view_core)
        .entity("memloc", v.name(), Some(linked.store.functions[view.function].name())),
    )
}

/// Adds both alias edges of a handoff and the view's `alloced_func`.
fn apply_handoff(linked: &mut Module, handoff: &Handoff, edits: &mut Vec<Edit>) -> AliasRow {
    let end = |linked: &Module, e: &End| AliasEnd {
        core: e.core,
        function: linked.store.functions[e.at.function].name().to_owned(),
        set: linked.store.sets[e.at.set].name(&linked.store),
        memloc: linked.store.memlocs[e.at.memloc].name().to_owned(),
    };
    let consumer = end(linked, &handoff.consumer);
    let producer = end(linked, &handoff.producer);
    let consumer_before = print::memloc_line(linked, handoff.consumer.at.memloc);
    let producer_before = print::memloc_line(linked, handoff.producer.at.memloc);
    let kind = add_alias(&mut linked.store.memlocs[handoff.consumer.at.memloc], &producer, handoff.kind);
    add_alias(&mut linked.store.memlocs[handoff.producer.at.memloc], &consumer, handoff.kind);
    linked.store.memlocs[handoff.consumer.at.memloc]
        .fields
        .insert("alloced_func".to_owned(), Value::from(producer.function.clone()));
    edits.push(edit(
        &format!("function {}", consumer.function),
        &format!("set {}", consumer.set),
        Some(consumer_before),
        Some(print::memloc_line(linked, handoff.consumer.at.memloc)),
    ));
    edits.push(edit(
        &format!("function {}", producer.function),
        &format!("set {}", producer.set),
        Some(producer_before),
        Some(print::memloc_line(linked, handoff.producer.at.memloc)),
    ));
    AliasRow { consumer, producer, kind, source: handoff.source.to_owned() }
}

/// Adds (or OR-merges into) the edge `memloc → other`; returns the edge's kind.
fn add_alias(memloc: &mut MemLoc, other: &AliasEnd, kind: u64) -> u64 {
    let entries = match memloc.fields.entry("alias").or_insert_with(|| Value::Array(Vec::new())) {
        Value::Array(entries) => entries,
        // The reader rejects a non-array `alias` before linking.
        _ => return kind,
    };
    for entry in entries.iter_mut() {
        let Some(mut existing) = crate::ir::AliasEntry::from_value(entry) else {
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
    let new = crate::ir::AliasEntry {
        set: other.set.clone(),
        memloc: other.memloc.clone(),
        kind,
        function: Some(other.function.clone()),
    };
    entries.push(new.to_value());
    kind
}

/// Step 8.
fn merge_queues(
    linked: &mut Module,
    cores: &[CoreInfo],
    plan: &MergePlan,
    n_cores: u64,
    edits: &mut Vec<Edit>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<QueueRow> {
    let mut rows = Vec::new();
    let mut renames: HashMap<(u64, String, String), String> = HashMap::new();
    for (slot, (queue_name, merged)) in plan.queues.iter().enumerate() {
        let merged_fields = linked.store.queues[*merged].fields.clone();
        let unit = format!("queue {queue_name}");
        let mut instances = Vec::new();
        let mut row = QueueRow {
            name: queue_name.clone(),
            instances: Vec::new(),
            semaphores: SemaphoreCount { total: 0, per_core: vec![0; n_cores as usize] },
        };
        let mut semaphores: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n_cores as usize];
        for PlannedInstance { core, instance, source, name: new_name, source_queue } in &plan.instances[slot] {
            let before = print::instance_line(linked, *instance);
            let source_fields = linked.store.queues[*source_queue].fields.clone();
            let i = &mut linked.store.instances[*instance];
            warn_attributes(&i.fields, "instance", source, *core, i.src.as_ref(), diags);
            i.fields.insert("name".to_owned(), Value::from(new_name.clone()));
            edit_object_field(&mut i.fields, "attributes", |attributes| {
                attributes.insert("neuron_core_id".to_owned(), Value::from(*core));
            });
            if source_fields != merged_fields {
                i.fields.insert("source_queue".to_owned(), Value::Object(source_fields));
            }
            edits.push(edit(&unit, "", Some(before), Some(print::instance_line(linked, *instance))));
            instances.push(*instance);
            renames.insert((*core, queue_name.clone(), source.clone()), new_name.clone());
            row.instances.push(InstanceRow { core: *core, name: new_name.clone(), source_name: source.clone() });
            for &inst in &linked.store.instances[*instance].insts {
                let inst = &linked.store.insts[inst];
                if inst.op != Op::DmaBlock {
                    continue;
                }
                for update in &inst.updates() {
                    let view = UpdateView::of(update);
                    if view.is_remote() || view.kind != "semaphore" {
                        continue;
                    }
                    if let (Some(id), Some(slot)) = (view.id, semaphores.get_mut(*core as usize)) {
                        slot.insert(id.to_string());
                    }
                }
            }
        }
        for (core, ids) in semaphores.iter().enumerate() {
            row.semaphores.per_core[core] = ids.len() as u64;
        }
        row.semaphores.total = row.semaphores.per_core.iter().sum();
        linked.store.queues[*merged].instances = instances;
        linked.queues.push(*merged);
        rows.push(row);
    }
    // Existing SwitchQueueInstance instructions follow their instance's new name.
    for info in cores {
        for &function in &info.functions {
            let mut sqis = Vec::new();
            linked.walk_function(function, &mut |inst| {
                if linked.store.insts[inst].op == Op::SwitchQueueInstance && linked.store.insts[inst].src.is_some() {
                    sqis.push(inst);
                }
            });
            for sqi in sqis {
                let fields = linked.store.insts[sqi].fields();
                let (Some(queue), Some(instance)) = (str_field(&fields, "queue"), str_field(&fields, "instance"))
                else {
                    continue;
                };
                let Some(new_name) = renames.get(&(info.core, queue.to_owned(), instance.to_owned())) else {
                    continue;
                };
                let before = print::inst_line(linked, sqi);
                linked.store.insts[sqi].fields_mut().insert("instance".to_owned(), Value::from(new_name.clone()));
                let unit = format!("function {}", linked.store.functions[function].name());
                edits.push(edit(&unit, "", Some(before), Some(print::inst_line(linked, sqi))));
            }
        }
    }
    rows
}

/// BL0306: tagging needs `attributes` to be an object; an old list form is moved aside.
fn warn_attributes(
    fields: &Fields,
    kind: &str,
    name: &str,
    core: u64,
    src: Option<&crate::ir::Src>,
    diags: &mut Vec<Diagnostic>,
) {
    match fields.get("attributes") {
        None | Some(Value::Object(_)) => {}
        Some(other) => diags.push(
            Diagnostic::new(
                Code::AttributesReplaced,
                NAME,
                format!(
                    "`attributes` of {kind} `{name}` (core {core}) is {}, not an object; it is kept as `source_attributes`",
                    crate::json::read::type_name(other)
                ),
            )
            .core(core)
            .at(src)
            .entity(kind, name, None),
        ),
    }
}

/// Step 9: every `CoreBarrier` with an integer id gets the next global id, in walk order.
fn renumber_barriers(linked: &mut Module, diags: &mut Vec<Diagnostic>, edits: &mut Vec<Edit>) -> Vec<BarrierRow> {
    let mut rows = Vec::new();
    let mut next = 0u64;
    for function in linked.functions.clone() {
        let mut barriers = Vec::new();
        linked.walk_function(function, &mut |inst| {
            if linked.store.insts[inst].op == Op::CoreBarrier {
                barriers.push(inst);
            }
        });
        let f = &linked.store.functions[function];
        let function_name = f.name().to_owned();
        let core = f.core();
        for barrier in barriers {
            let inst = &linked.store.insts[barrier];
            let fields = inst.fields();
            let Some(old_id) = fields.get("id").and_then(Value::as_u64) else {
                let found = match fields.get("id") {
                    Some(id) => format!("`id` {}", crate::json::read::compact(id)),
                    None => "no `id`".to_owned(),
                };
                let mut diagnostic = Diagnostic::new(
                    Code::BarrierSkipped,
                    NAME,
                    format!("core barrier `{}` in function `{function_name}` has {found}; left as it is", inst.name()),
                )
                .at(inst.src.as_ref())
                .entity("instruction", inst.name(), Some(&function_name));
                if let Some(core) = core {
                    diagnostic = diagnostic.core(core);
                }
                diags.push(diagnostic);
                continue;
            };
            let new_id = next;
            next += 1;
            let instruction = inst.name().to_owned();
            if old_id != new_id {
                let before = print::inst_line(linked, barrier);
                linked.store.insts[barrier].fields_mut().insert("id".to_owned(), Value::from(new_id));
                edits.push(edit(
                    &format!("function {function_name}"),
                    "",
                    Some(before),
                    Some(print::inst_line(linked, barrier)),
                ));
            }
            rows.push(BarrierRow { core, function: function_name.clone(), instruction, old_id, new_id });
        }
    }
    rows
}
