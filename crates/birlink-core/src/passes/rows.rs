//! The report's rows about the input, before and after the passes: one per module read
//! (`inputs[]`, with the worst diagnostic pointing into it) and each module's place in
//! the grid (`subgraphs[]`).

use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::flow::Flow;
use crate::output::report::{FileKind, InputRow, InputStatus, SubgraphRow};
use crate::read::input::{CoreModule, LinkSet};
use crate::read::netlist::Netlist;

/// Each module's place in the grid, as its keys and path say (before any check: the
/// page shows the grid even when it does not hold), with its netlist definition.
pub(super) fn subgraph_rows(set: &LinkSet) -> Vec<SubgraphRow> {
    let definitions = set.netlist.as_ref().map(Netlist::definitions).unwrap_or_default();
    let alone = set.modules.len() == 1;
    let mut rows: Vec<SubgraphRow> = set
        .modules
        .iter()
        .filter_map(|m| {
            let core = m.place.core_number().or(if alone { Some(0) } else { None })?;
            let subgraph = m.place.subgraph_or_first();
            Some(SubgraphRow {
                core,
                subgraph,
                module: m.name.clone(),
                file: set.path(m.file).to_owned(),
                definition: (!m.place.is_linked()).then(|| definitions.get(subgraph as usize).copied()).flatten(),
            })
        })
        .collect();
    rows.sort_by(|a, b| (a.core, a.subgraph, &a.file).cmp(&(b.core, b.subgraph, &b.file)));
    rows
}

/// One row per module read; a module's core is its `neuron_core_id`, or in the
/// compiler's flows its place (its path or name says it).
pub(super) fn input_rows(set: &LinkSet, flow: Flow) -> Vec<InputRow> {
    let mut rows = Vec::new();
    for (i, file) in set.files.iter().enumerate() {
        let bytes = file.len;
        let modules: Vec<&CoreModule> = set.modules.iter().filter(|m| m.file.0 as usize == i).collect();
        if modules.is_empty() {
            rows.push(InputRow {
                file: file.path.clone(),
                kind: file.kind,
                pointer: String::new(),
                module: None,
                core: None,
                functions: 0,
                instructions: 0,
                memlocs: 0,
                queues: 0,
                bytes,
                status: InputStatus::Ok,
            });
            continue;
        }
        for module in modules {
            let m = &module.module;
            rows.push(InputRow {
                file: file.path.clone(),
                kind: if file.kind == FileKind::Bundle { FileKind::Bundle } else { FileKind::Module },
                pointer: m.src.as_ref().map(|s| s.pointer().into_owned()).unwrap_or_default(),
                module: Some(module.name.clone()),
                core: if flow.per_core() { module.core.or(module.place.core_number()) } else { module.core },
                functions: m.functions.len() as u64,
                instructions: m.store.insts.len() as u64,
                memlocs: m.store.memlocs.len() as u64,
                queues: m.queues.len() as u64,
                bytes,
                status: InputStatus::Ok,
            });
        }
    }
    rows
}

/// Marks each input row with the worst diagnostic pointing into it.
pub(super) fn set_input_statuses(rows: &mut [InputRow], diags: &[Diagnostic]) {
    for row in rows.iter_mut() {
        let worst = diags
            .iter()
            .filter(|d| {
                d.location.as_ref().is_some_and(|l| {
                    l.file == row.file && (row.pointer.is_empty() || l.pointer.starts_with(&row.pointer))
                }) || (row.module.is_some()
                    && d.entity
                        .as_ref()
                        .is_some_and(|e| e.kind == EntityKind::Module && Some(&e.name) == row.module.as_ref()))
            })
            .map(|d| d.severity)
            .max();
        row.status = InputStatus::of(worst);
    }
}
