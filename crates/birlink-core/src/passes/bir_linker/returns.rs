//! Step 5, `returns`: at the end of each core function's last block, the completion
//! `CoreBarrier` `cb_return_call_def_<core>_instance_0` over all cores (created with id 0,
//! renumbered in step 9), then `Return` `return_call_def_<core>_instance_0` (spec §3.5;
//! `fpassInsertReturns`).

use serde_json::json;

use super::copy::CoreInfo;
use super::queue_switches::first_block;
use super::record::{fields, Step};
use crate::model::arena::Handle;
use crate::model::ir::{opcode, Block, Function, Inst, Module};
use crate::output::print;
use crate::output::report::{StepRow, Unit};

/// Appends the barrier and the return, core by core.
pub(super) fn insert(linked: &mut Module, cores: &[CoreInfo]) -> StepRow {
    let mut step = Step::new("returns");
    let all_cores: Vec<u64> = cores.iter().map(|c| c.core).collect();
    returns(linked, cores, &all_cores, &mut step);
    step.finish()
}

/// The barrier over `all_cores` and the return, at the end of each definition's
/// function.
pub(super) fn returns(linked: &mut Module, cores: &[CoreInfo], all_cores: &[u64], step: &mut Step) {
    for info in cores {
        let barrier = linked.store.insts.push(Inst::new(
            fields(json!({
                "name": format!("cb_return_{}", info.call),
                "opcode": opcode::CORE_BARRIER,
                "id": 0,
                "cores": all_cores,
            })),
            None,
            None,
        ));
        let ret = linked.store.insts.push(Inst::new(
            fields(json!({"name": format!("return_{}", info.call), "opcode": opcode::RETURN})),
            None,
            None,
        ));
        let block = last_block(linked, info.function);
        let unit = Unit::Function(info.name.clone());
        let context = format!("block {}", linked.store.blocks[block].name());
        step.added(&unit, &context, print::inst_line(linked, barrier));
        step.added(&unit, &context, print::inst_line(linked, ret));
        linked.store.blocks[block].insts.extend([barrier, ret]);
    }
}

/// The core function's last top-level block, created (`entry`) when it has none.
fn last_block(linked: &mut Module, function: Handle<Function>) -> Handle<Block> {
    match linked.store.functions[function].blocks.last() {
        Some(&block) => block,
        None => first_block(linked, function),
    }
}
