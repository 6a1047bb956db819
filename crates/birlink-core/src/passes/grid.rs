//! The compiler's flows (docs/spec/link.md §0.2), as named stages:
//!
//! 1. [`verify`] over the grid of cores × subgraphs (LncVerifier per subgraph across the
//!    cores);
//! 2. in the modular flow, [`link_cores`]: `bir_linker` once per core over its
//!    subgraphs, each core's rows recorded as it ends; in the flat flow (and for a set
//!    of linked modules, or when `bir_linker` was not selected) the per-core modules go
//!    on as they are ([`as_given`]);
//! 3. [`compiler_vnc_input`]: the compiler's own linked modules dumped before the VNC
//!    passes, when the run dumped every core's, take the place of birlink's;
//! 4. the VNC passes across the per-core modules (`vnc`), and their lines of the log.
//!
//! Each stage of birlink's is held against the compiler's own dump after the same pass,
//! when the work directory has one, as soon as the stage ends (`fidelity::Check`).

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::Diagnostic;
use crate::model::flow::Flow;
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::log::LogLine;
use crate::output::report::{Report, VncInputRow};
use crate::passes::bir_linker::{self, modular::Work};
use crate::passes::flow::{not_linked, Run};
use crate::passes::ledger::Ledger;
use crate::passes::options::Progress;
use crate::passes::rows;
use crate::passes::verify::{self, Grid};
use crate::passes::vnc::{self, Sinks};
use crate::read::input::{CoreModule, LinkSet};
use crate::read::workdir::WorkdirInput;

/// The VNC passes' own input from a work directory: each core's linked module as the
/// compiler dumped it before them, with the pass it was dumped after.
pub(super) type VncInput = Vec<(CoreModule, String)>;

/// What the compiler's flows write to.
pub(super) struct Out<'a> {
    /// The report.
    pub report: &'a mut Report,
    /// The diagnostics.
    pub diags: &'a mut Vec<Diagnostic>,
    /// birlink's `bir_linker.log`.
    pub log: &'a mut Vec<LogLine>,
}

/// Runs the compiler's flow `run.flow` over the set.
pub(super) fn run(
    run: &Run<'_>,
    set: &mut LinkSet,
    vnc_input: VncInput,
    out: Out<'_>,
    progress: &mut dyn FnMut(Progress),
) -> (Ledger, Option<LinkedSet>) {
    let Out { report, diags, log } = out;
    let mut ledger = Ledger::new(run.flow, &planned_cores(set));
    report.subgraphs = rows::subgraph_rows(set);
    let mut fidelity = run.fidelity();
    let mut stopped = run.stopped;
    let mut linked: Option<LinkedSet> = None;

    if !stopped && run.vnc_only() {
        linked = linked_input(run, set, diags);
        stopped = linked.is_none();
    }
    if !stopped && run.wants(Pass::Verify) {
        progress(Progress::Pass(Pass::Verify));
        let verified = verify::run(set, run.flow, diags);
        stopped = ledger.ran(Pass::Verify, None, verified.failed, verified.steps);
        if let (false, Some(grid)) = (stopped, verified.grid) {
            let modules = std::mem::take(&mut set.modules);
            if run.flow == Flow::Flat || grid.linked || !run.wants(Pass::BirLinker) {
                linked = Some(as_given(&grid, modules));
            } else {
                let work =
                    Sinks { report: &mut *report, diags: &mut *diags, ledger: &mut ledger, fidelity: &mut fidelity };
                let (ours, failed) = link_cores(run, &grid, modules, set, work, log, progress);
                stopped |= failed;
                linked = ours.filter(|_| !stopped);
                linked = compiler_vnc_input(vnc_input, linked, set, report);
            }
        }
    }
    if let Some(set) = linked.as_mut() {
        // The per-core modules' names, in core order (`nc00/sgLnk, nc01/sgLnk`).
        let names: Vec<&str> = set.modules.iter().map(|m| m.name.as_str()).collect();
        report.options.linked_name = Some(names.join(", ")).filter(|n| !n.is_empty());
        let sinks = Sinks { report: &mut *report, diags, ledger: &mut ledger, fidelity: &mut fidelity };
        let vnc = vnc::run(run, set, sinks, stopped, progress);
        log.extend(bir_linker::log::vnc_lines(&vnc.before, vnc.address_map_ran, vnc.remote_updates));
    }
    report.fidelity = fidelity.finish();
    (ledger, linked)
}

/// The cores the modules are placed on, ascending (one module alone is core 0): one
/// `bir_linker` row each in the modular flow.
fn planned_cores(set: &LinkSet) -> Vec<u64> {
    let alone = set.modules.len() == 1;
    let cores: BTreeSet<u64> =
        set.modules.iter().filter_map(|m| m.place.core_number().or(alone.then_some(0))).collect();
    cores.into_iter().collect()
}

/// The VNC passes on their own: one module per core (one module alone is core 0); why
/// not (BL0307) when the modules do not each name a core of their own.
fn linked_input(run: &Run<'_>, set: &mut LinkSet, diags: &mut Vec<Diagnostic>) -> Option<LinkedSet> {
    let alone = set.modules.len() == 1;
    let cores: Vec<Option<u64>> =
        set.modules.iter().map(|m| m.place.core_number().or(if alone { Some(0) } else { None })).collect();
    let distinct: BTreeSet<Option<u64>> = cores.iter().copied().collect();
    if distinct.len() != cores.len() || cores.iter().any(Option::is_none) {
        diags.push(not_linked(
            run.selected,
            format!(
                "one module per core, but the {} module(s) given do not each name a core of their own",
                set.modules.len()
            ),
        ));
        return None;
    }
    let modules = std::mem::take(&mut set.modules);
    Some(LinkedSet::per_core(
        cores.into_iter().zip(modules).map(|(core, m)| (core.unwrap_or(0), m.name, m.module)).collect(),
    ))
}

/// The per-core modules as they are: the VNC passes' input (the flat flow, a set of
/// linked modules, or `bir_linker` not selected).
fn as_given(grid: &Grid, modules: Vec<CoreModule>) -> LinkedSet {
    LinkedSet::per_core(grid.cores().zip(modules).map(|(core, m)| (core, m.name, m.module)).collect())
}

/// `bir_linker` once per core over its subgraphs, in core order: each core's rows and
/// log recorded as it ends. The per-core linked set when every core linked, and whether
/// any core failed.
fn link_cores(
    run: &Run<'_>,
    grid: &Grid,
    modules: Vec<CoreModule>,
    set: &mut LinkSet,
    sinks: Sinks<'_, '_>,
    log: &mut Vec<LogLine>,
    progress: &mut dyn FnMut(Progress),
) -> (Option<LinkedSet>, bool) {
    let Sinks { report, diags, ledger, fidelity } = sinks;
    let mut per_core: BTreeMap<u64, Vec<(u32, CoreModule)>> = BTreeMap::new();
    for (place, module) in grid.places.iter().zip(modules) {
        let subgraph = place.slot.subgraph().map_or(0, |s| s.0);
        per_core.entry(place.core.0).or_default().push((subgraph, module));
    }
    let cores: Vec<u64> = per_core.keys().copied().collect();
    // A work directory's link directory and tensor maps, each core's.
    let work = run.options.workdir.as_ref().and_then(|w| Some((w, w.plan()?)));
    let mut failed = false;
    let mut outputs = Vec::new();
    for (core, mut subgraphs) in per_core {
        subgraphs.sort_by_key(|(subgraph, _)| *subgraph);
        progress(Progress::Pass(Pass::BirLinker));
        let files = &mut set.files;
        let work = work.as_ref().map(|(input, plan)| Work { input, plan, files });
        let mut result = bir_linker::modular::run(core, subgraphs, set.netlist.as_ref(), &cores, work, diags);
        failed |= ledger.ran(Pass::BirLinker, Some(core), result.failed, std::mem::take(&mut result.steps));
        result.record(report);
        log.append(&mut result.log);
        if let Some(module) = result.module {
            outputs.push((core, module.name().to_owned(), module));
        }
    }
    if failed {
        return (None, true);
    }
    let linked = LinkedSet::per_core(outputs);
    fidelity.after(Pass::BirLinker, &linked);
    (Some(linked), false)
}

/// The compiler's linked modules before the VNC passes, when the run dumped every
/// core's: their input instead of birlink's `ours` (they carry what the post-link passes
/// birlink does not run made of the link). Each is a row of `report.vnc_input`.
fn compiler_vnc_input(
    taken: VncInput,
    ours: Option<LinkedSet>,
    set: &LinkSet,
    report: &mut Report,
) -> Option<LinkedSet> {
    let core_of = |module: &CoreModule| module.place.core_number().or(module.core);
    let every_core =
        ours.as_ref().is_some_and(|ours| ours.modules.iter().all(|m| taken.iter().any(|(t, _)| core_of(t) == m.core)));
    for (module, after) in &taken {
        report.vnc_input.push(VncInputRow {
            core: core_of(module).unwrap_or(0),
            file: set.files.get(module.file.0 as usize).map(|f| f.path.clone()).unwrap_or_default(),
            after: after.clone(),
            used: every_core,
        });
    }
    if !every_core {
        return ours;
    }
    let mut modules: Vec<_> = taken.into_iter().map(|(m, _)| (core_of(&m).unwrap_or(0), m.name, m.module)).collect();
    modules.sort_by_key(|(core, _, _)| *core);
    Some(LinkedSet::per_core(modules))
}

/// Takes the work directory's VNC input (`Plan::vnc_input`) out of the modules read: its
/// files are inputs of the run (diagnostics point into them), its modules not part of
/// the grid.
pub(super) fn take_vnc_input(set: &mut LinkSet, workdir: Option<&WorkdirInput>) -> VncInput {
    let Some((work, plan)) = workdir.and_then(|w| Some((w, w.plan()?))) else { return Vec::new() };
    let mut taken = Vec::new();
    for (index, dump) in &plan.vnc_input {
        let Some(path) = work.files.get(*index).map(|f| f.path.as_str()) else { continue };
        if let Some(at) =
            set.modules.iter().position(|m| set.files.get(m.file.0 as usize).is_some_and(|f| f.path == path))
        {
            taken.push((set.modules.remove(at), dump.after.clone()));
        }
    }
    taken
}
