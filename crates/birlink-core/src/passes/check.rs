//! `birlink check` (docs/spec/sync.md §1): the sync check alone, over a set that is
//! already linked — `OUT/linked.json`, the compiler's dumps after `vnc_link`, per-core
//! files — read as `link` reads it, with no pass run (every `passes[]` row `skipped`)
//! and remote ids taken as they are.

use std::collections::BTreeMap;

use super::ledger::Ledger;
use super::options::{LinkOptions, Outcome, SyncCheck};
use super::{decide_flow, flow, resolve_locations, rows, sync};
use crate::diag::has_errors;
use crate::model::flow::Flow;
use crate::model::linked::LinkedSet;
use crate::output::report::Report;
use crate::output::sync::Sync;
use crate::read::input::{CoreModule, LinkSet, SourceFile};
use crate::read::load::{self, LoadOptions};

/// Checks a linked set's synchronization, running no pass.
pub fn check(sources: Vec<SourceFile>, options: &LinkOptions) -> Outcome {
    let mut diags = Vec::new();
    let mut report = Report::default();
    let load = LoadOptions {
        max_input_bytes: options.max_input_bytes,
        input_bytes: options.input_bytes,
        held_estimate: options.held_estimate,
        threads: options.threads,
    };
    let mut set = load::load(sources, &load, &mut diags);
    let (flow, flow_source) = decide_flow(options.flow.or(set.options.flow), &set);
    report.options.flow = flow;
    report.options.flow_source = flow_source;
    report.inputs = rows::input_rows(&set, flow);
    (report.options.lnc, report.options.lnc_source) = flow::decide_lnc(options, &set, flow);
    let cores: Vec<u64> = set.modules.iter().filter_map(|m| m.place.core_number()).collect();
    report.passes = Ledger::new(flow, &cores).rows;
    let read_failed = has_errors(&diags);
    let linked = match (read_failed, per_core(&mut set, flow)) {
        (true, _) => Err("the input could not be read"),
        (false, linked) => linked,
    };
    report.sync = match &linked {
        Err(why) => Sync::skipped(*why, set.modules.len() as u64),
        Ok(linked) => {
            let deny = if options.sync == SyncCheck::Deny { sync::Deny::Warnings } else { sync::Deny::No };
            let checked = sync::check(linked, deny, options.threads);
            diags.extend(checked.diagnostics);
            checked.sync
        }
    };
    if let Ok(linked) = &linked {
        let names: Vec<&str> = linked.modules.iter().map(|m| m.name.as_str()).collect();
        report.options.linked_name = Some(names.join(", ")).filter(|n| !n.is_empty());
    }
    resolve_locations(&set.files, &mut diags);
    rows::set_input_statuses(&mut report.inputs, &diags);
    report.diagnostics = diags;
    Outcome { report, linked: linked.ok(), files: set.files, log: Vec::new() }
}

/// The set's modules as one per core, or why they are not a linked set: the seeds'
/// merged module, or subgraphs still to link.
fn per_core(set: &mut LinkSet, flow: Flow) -> Result<LinkedSet, &'static str> {
    if set.modules.is_empty() {
        return Err("no module was read");
    }
    if flow == Flow::Seeds {
        return Err("the seeds' reading: one merged module, not the compiler's per-core modules");
    }
    let alone = set.modules.len() == 1;
    let mut by_core: BTreeMap<u64, CoreModule> = BTreeMap::new();
    for (index, module) in std::mem::take(&mut set.modules).into_iter().enumerate() {
        let core = module.place.core_number().or(module.core).unwrap_or(if alone { 0 } else { index as u64 });
        if by_core.insert(core, module).is_some() {
            return Err("a core has several modules: subgraphs before bir_linker (`birlink link` links them first)");
        }
    }
    Ok(LinkedSet::per_core(by_core.into_iter().map(|(core, m)| (core, m.name, m.module)).collect()))
}
