//! Step 4, `switch_queue_instances`: at the front of each core function's first block,
//! one `SwitchQueueInstance` per queue that core has instances in, switching to the
//! (renamed, step 8) first instance of that core (spec §3.4).

use serde_json::json;

use super::copy::CoreInfo;
use super::queues::MergePlan;
use super::record::{fields, Step};
use crate::model::arena::Handle;
use crate::model::ir::{opcode, Block, Function, Inst, Module};
use crate::output::print;
use crate::output::report::{StepRow, Unit};

/// Inserts the switches, core by core.
pub(super) fn insert(linked: &mut Module, cores: &[CoreInfo], plan: &MergePlan) -> StepRow {
    let mut step = Step::new("switch_queue_instances");
    for info in cores {
        let mut switches = Vec::new();
        for (queue_name, first) in plan.first_instances(info.def) {
            switches.push(linked.store.insts.push(Inst::new(
                fields(json!({
                    "name": format!("I-SQI-{queue_name}-{}", info.call),
                    "opcode": opcode::SWITCH_QUEUE_INSTANCE,
                    "queue": queue_name,
                    "instance": first,
                })),
                None,
                None,
            )));
        }
        if switches.is_empty() {
            continue;
        }
        let block = first_block(linked, info.function);
        let unit = Unit::Function(info.name.clone());
        let context = format!("block {}", linked.store.blocks[block].name());
        for &switch in &switches {
            step.added(&unit, &context, print::inst_line(linked, switch));
        }
        linked.store.blocks[block].insts.splice(0..0, switches);
    }
    step.finish()
}

/// The core function's first block, created (`entry`) when it has none.
pub(super) fn first_block(linked: &mut Module, function: Handle<Function>) -> Handle<Block> {
    if let Some(&block) = linked.store.functions[function].blocks.first() {
        return block;
    }
    let block =
        linked.store.blocks.push(Block { fields: fields(json!({"name": "entry"})), insts: Vec::new(), src: None });
    linked.store.functions[function].blocks.push(block);
    block
}
