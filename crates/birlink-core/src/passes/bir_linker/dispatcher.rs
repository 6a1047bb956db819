//! Step 2, `dispatcher`: function `main` with one block `dispatcher` holding, in core
//! order, one `Call call_def_<core>_instance_0` per core whose `target` is that core's
//! function (spec §3.2; `addFnCall`).

use serde_json::json;

use super::record::{fields, Step};
use crate::model::arena::Handle;
use crate::model::ir::{opcode, Block, Function, Inst, Module};
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
