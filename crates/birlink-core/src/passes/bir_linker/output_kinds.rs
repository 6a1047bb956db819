//! Step 7, `output_kinds`: a set of kind `ExternalOutput` holding the producer of a
//! cross-core handoff becomes `Internal` unless one of its locations is a netlist
//! `output`; a set of kind `ExternalInput` holding the consumer of a handoff becomes
//! `Internal` (spec §3.7; `fixOutputKind`, io2spill). Nothing is deleted.

use std::collections::BTreeSet;

use serde_json::Value;

use super::aliases::Handoff;
use super::copy::CoreInfo;
use super::record::Step;
use crate::model::arena::Handle;
use crate::model::ir::{Allocation, MemLocSet, Module};
use crate::output::print;
use crate::output::report::{OutputKindRow, StepRow, Unit};
use crate::read::netlist::Netlist;

/// Demotes the sets; one `report.output_kinds` row per set changed.
pub(super) fn fix(
    linked: &mut Module,
    cores: &[CoreInfo],
    handoffs: &[Handoff],
    netlist: Option<&Netlist>,
    rows: &mut Vec<OutputKindRow>,
) -> StepRow {
    let mut step = Step::new("output_kinds");
    let outputs: BTreeSet<&str> = netlist.map(|n| n.outputs.iter().map(String::as_str).collect()).unwrap_or_default();
    let producers: BTreeSet<Handle<MemLocSet>> = handoffs.iter().map(|h| h.producer.at.set).collect();
    let consumers: BTreeSet<Handle<MemLocSet>> = handoffs.iter().map(|h| h.consumer.at.set).collect();
    for info in cores {
        for &function in &info.functions {
            let sets: Vec<Handle<MemLocSet>> = linked.store.functions[function]
                .allocations
                .iter()
                .filter_map(|a| if let Allocation::Set(s) = a { Some(*s) } else { None })
                .collect();
            let function_name = linked.store.functions[function].name().to_owned();
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
                step.change(
                    linked,
                    &Unit::Function(function_name.clone()),
                    "",
                    |m| print::set_line(m, set),
                    |m| m.store.sets[set].fields.insert("kind".to_owned(), Value::from("Internal")),
                );
                rows.push(OutputKindRow {
                    core: info.core,
                    function: function_name.clone(),
                    set: linked.store.sets[set].name(&linked.store),
                    from: kind,
                    to: "Internal".to_owned(),
                });
            }
        }
    }
    step.finish()
}
