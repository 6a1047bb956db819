//! Step 9, `renumber_barriers`: walking functions, blocks (nested `Loop` bodies
//! depth-first) and instructions in order, every `CoreBarrier` with a non-negative
//! integer `id` gets the next id `0, 1, 2, …`; any other is left as it is and noted
//! (BL0305). Afterwards no two renumbered barriers share an id (spec §3.9;
//! `renumberCoreBarriers`).

use serde_json::Value;

use super::record::Step;
use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::ir::{Module, Op};
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{BarrierRow, StepRow, Unit};

/// Renumbers every barrier; `report.barriers` lists the renumbered ones in walk order.
pub(super) fn renumber(linked: &mut Module, rows: &mut Vec<BarrierRow>, diags: &mut Vec<Diagnostic>) -> StepRow {
    let mut step = Step::new("renumber_barriers");
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
        let unit = Unit::Function(function_name.clone());
        let core = f.core();
        for barrier in barriers {
            let inst = &linked.store.insts[barrier];
            let old_id = inst.fields().get("id").and_then(Value::as_u64);
            let Some(old_id) = old_id else {
                let found = match inst.fields().get("id") {
                    Some(id) => format!("`id` {}", crate::diag::describe::compact(id)),
                    None => "no `id`".to_owned(),
                };
                let mut diagnostic = Diagnostic::new(
                    Code::BarrierSkipped,
                    Pass::BirLinker,
                    format!("core barrier `{}` in function `{function_name}` has {found}; left as it is", inst.name()),
                )
                .at(inst.src.as_ref())
                .entity(EntityKind::Instruction, inst.name(), Some(&function_name));
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
                step.change(
                    linked,
                    &unit,
                    "",
                    |m| print::inst_line(m, barrier),
                    |m| m.store.insts[barrier].fields_mut().insert("id".to_owned(), Value::from(new_id)),
                );
            }
            rows.push(BarrierRow { core, function: function_name.clone(), instruction, old_id, new_id });
        }
    }
    step.finish()
}
