//! Step 6 of the modular flow, `handoffs`: each intermediate's handoff, from the call
//! that produces it to each that consumes it, between the formal memory locations they
//! bind it to (`report.aliases` rows, `source: netlist`). Formal sets keep their kinds
//! and get no alias edge (one function serves every instance of its definition), so the
//! step changes no entity: the calls bind `main`'s one set of the tensor.

use super::bindings::{function_name, Bindings};
use super::record::Step;
use crate::output::report::{AliasEnd, AliasKind, AliasRow, AliasSource, StepRow};

/// The handoffs' rows.
pub(super) fn record(core: u64, bindings: &Bindings, rows: &mut Vec<AliasRow>) -> StepRow {
    let end = |partition: usize, tensor: &str, input: bool| -> Option<AliasEnd> {
        let call = bindings.call_of(partition)?;
        let definition = bindings.definition_of(call)?;
        let (formal, _) =
            bindings.arguments(call).find(|(f, t)| f.role.is_input() == input && t.as_deref() == Some(tensor))?;
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
                kind: AliasKind::MUST_ALIAS,
                source: AliasSource::Netlist,
                tensor: Some(tensor.clone()),
            });
        }
    }
    Step::new("handoffs").finish()
}
