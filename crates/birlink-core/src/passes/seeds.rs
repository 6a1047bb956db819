//! The seeds' reading (docs/spec/link.md §0.2, only when asked): `verify` over one
//! module per core, `bir_linker` merging the cores' modules into one `<base>/sgLnk`
//! module, the VNC passes over its partitions. It writes no compiler log and holds
//! nothing against the compiler's results: the compiler never builds this module.

use crate::diag::Diagnostic;
use crate::model::flow::Flow;
use crate::model::ir::Module;
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::report::{LncSource, Report};
use crate::passes::bir_linker;
use crate::passes::flow::{not_linked, Run};
use crate::passes::ledger::Ledger;
use crate::passes::options::Progress;
use crate::passes::partition::Partitions;
use crate::passes::verify;
use crate::passes::vnc::{self, Sinks};
use crate::read::input::{CoreModule, LinkSet};

/// Runs the seeds' reading's passes over the set.
pub(super) fn run(
    run: &Run<'_>,
    set: &mut LinkSet,
    report: &mut Report,
    diags: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(Progress),
) -> (Ledger, Option<LinkedSet>) {
    let mut ledger = Ledger::new(Flow::Seeds, &[]);
    let mut stopped = run.stopped;
    let mut linked: Option<Module> = None;
    if !stopped && run.vnc_only() {
        linked = linked_input(run, set, report, diags);
        stopped = linked.is_none();
    }
    if !stopped && run.wants(Pass::Verify) {
        progress(Progress::Pass(Pass::Verify));
        let verified = verify::run(set, Flow::Seeds, diags);
        stopped = ledger.ran(Pass::Verify, None, verified.failed, verified.steps);
        if let (false, true, Some(grid)) = (stopped, run.wants(Pass::BirLinker), verified.grid) {
            progress(Progress::Pass(Pass::BirLinker));
            let modules: Vec<(u64, CoreModule)> = grid.cores().zip(std::mem::take(&mut set.modules)).collect();
            let work = run.options.workdir.as_ref();
            let mut result = bir_linker::seeds::run(modules, set.netlist.as_ref(), work, &mut set.files, diags);
            stopped = ledger.ran(Pass::BirLinker, None, result.failed, std::mem::take(&mut result.steps));
            result.record(report);
            if let Some(module) = &result.module {
                report.options.linked_name = Some(module.name().to_owned()).filter(|n| !n.is_empty());
            }
            linked = result.module;
        }
    }
    let mut linked = linked.map(LinkedSet::one);
    if let Some(set) = linked.as_mut() {
        let mut fidelity = run.fidelity();
        let sinks = Sinks { report, diags, ledger: &mut ledger, fidelity: &mut fidelity };
        vnc::run(run, set, sinks, stopped, progress);
    }
    (ledger, linked)
}

/// The VNC passes on their own: the input must be one linked module, its partitions the
/// cores (BL0307 when it is not).
fn linked_input(run: &Run<'_>, set: &mut LinkSet, report: &mut Report, diags: &mut Vec<Diagnostic>) -> Option<Module> {
    let count = set.modules.len();
    let module = match set.modules.pop() {
        Some(module) if count == 1 && !Partitions::of(&module.module).is_empty() => module,
        other => {
            set.modules.extend(other);
            diags.push(not_linked(
                run.selected,
                format!("one linked module (a `linked.json`), but {count} module(s) without core-tagged functions were given"),
            ));
            return None;
        }
    };
    if run.options.lnc.is_none() && set.options.lnc.is_none() {
        report.options.lnc = Partitions::of(&module.module).len() as u64;
        report.options.lnc_source = LncSource::Modules;
    }
    report.options.linked_name = Some(module.module.name().to_owned()).filter(|n| !n.is_empty());
    Some(module.module)
}
