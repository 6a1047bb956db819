//! Step 2, `dispatcher`: function `main` with one block `dispatcher` (`addFnCall`).
//!
//! - The modular flow ([`add_calls`]): `main`, tagged with the core, holds one set per
//!   distinct netlist tensor (model inputs `ExternalInput`, model outputs
//!   `ExternalOutput`, intermediates `Internal` in shared DRAM, unallocated: the
//!   post-link allocator places them); the block holds one `Call
//!   call_def_<definition>_instance_<i>` per partition in netlist order, its `arguments`
//!   binding each formal set of the callee to `main`'s set of the partition's tensor
//!   (`bindings`; the representation is birlink's reading).
//! - The seeds' reading ([`add`], spec §3.2): in core order, one `Call
//!   call_def_<core>_instance_0` per core whose `target` is that core's function.

use serde_json::{json, Value};

use super::bindings::{function_name, Bindings, TensorKind};
use super::record::{fields, Step};
use crate::model::arena::Handle;
use crate::model::ir::{edit_object_field, opcode, Allocation, Block, Function, Inst, MemLoc, MemLocSet, Module};
use crate::output::print;
use crate::output::report::{DispatchRow, StepRow, Unit};
use crate::read::input::CoreModule;

/// Adds `main` and its calls; one `report.dispatcher` row per call.
pub(super) fn add(linked: &mut Module, modules: &[(u64, CoreModule)], rows: &mut Vec<DispatchRow>) -> StepRow {
    let mut calls = Vec::new();
    for (core, module) in modules {
        let call = linked.store.insts.push(Inst::new(
            fields(json!({"name": call_name(*core), "opcode": opcode::CALL, "target": module.name})),
            None,
            None,
        ));
        calls.push(call);
        rows.push(DispatchRow {
            call: call_name(*core),
            core: *core,
            target: module.name.clone(),
            partition: None,
            arguments: Vec::new(),
        });
    }
    let block =
        linked.store.blocks.push(Block { fields: fields(json!({"name": "dispatcher"})), insts: calls, src: None });
    let main = linked.store.functions.push(Function {
        fields: fields(json!({"name": "main"})),
        allocations: Vec::new(),
        blocks: vec![block],
        src: None,
    });
    linked.functions.push(main);
    recorded(linked, main, block)
}

/// The modular flow's `main`, tagged with `core`, holding one set per tensor of the
/// netlist, and its block of calls, one per partition; one `report.dispatcher` row per
/// call.
pub(super) fn add_calls(linked: &mut Module, core: u64, bindings: &Bindings, rows: &mut Vec<DispatchRow>) -> StepRow {
    let main = main_function(linked, core, bindings);
    let mut calls = Vec::new();
    for call in &bindings.calls {
        let Some(definition) = bindings.definition_of(call) else { continue };
        let target = function_name(definition.subgraph);
        let arguments: Vec<(String, String)> = bindings
            .arguments(call)
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
    recorded(linked, main, block)
}

/// `main`, tagged with the core, holding one set per tensor of the netlist.
fn main_function(linked: &mut Module, core: u64, bindings: &Bindings) -> Handle<Function> {
    let mut allocations = Vec::with_capacity(bindings.tensors.len());
    for (tensor, kind) in &bindings.tensors {
        let (set_kind, space) = match kind {
            TensorKind::Input => ("ExternalInput", "Local"),
            TensorKind::Output => ("ExternalOutput", "Local"),
            TensorKind::Intermediate => ("Internal", "Shared"),
        };
        let memloc = json!({"name": tensor, "type": "DRAM", "allocated": false});
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

/// The `dispatcher` step's row: `main`, its block `dispatcher` and each call added.
pub(super) fn recorded(linked: &Module, main: Handle<Function>, block: Handle<Block>) -> StepRow {
    let unit = Unit::Function("main".to_owned());
    let mut step = Step::new("dispatcher");
    step.added(&unit, "", print::function_line(linked, main));
    step.added(&unit, "", print::block_line(linked, block));
    for &call in &linked.store.blocks[block].insts {
        step.added(&unit, "block dispatcher", print::inst_line(linked, call));
    }
    step.finish()
}

/// The name of core `core`'s call (`call_def_<core>_instance_<idx>`, idx = 0).
pub fn call_name(core: u64) -> String {
    format!("call_def_{core}_instance_0")
}
