//! The VNC passes as every flow ends: `vnc_remote_addr_map` then `vnc_link` over the
//! linked set, unless a pass before stopped the run, each held against the compiler's
//! own result right after it ran (`fidelity`).

use crate::diag::Diagnostic;
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::report::Report;
use crate::passes::bir_linker::log::Counts;
use crate::passes::fidelity;
use crate::passes::flow::Run;
use crate::passes::ledger::Ledger;
use crate::passes::options::Progress;
use crate::passes::{vnc_link, vnc_remote_addr_map};

/// What the VNC passes tell the compiler's log.
pub(super) struct VncRan {
    /// The counts of the modules `vnc_remote_addr_map` is given.
    pub before: Counts,
    /// Whether `vnc_remote_addr_map` ran.
    pub address_map_ran: bool,
    /// The remote updates `vnc_link` found, when it ran.
    pub remote_updates: Option<usize>,
}

/// What the VNC passes are given besides the set: where their rows and diagnostics go.
pub(super) struct Sinks<'a, 'w> {
    /// The report.
    pub report: &'a mut Report,
    /// The diagnostics.
    pub diags: &'a mut Vec<Diagnostic>,
    /// The pass rows.
    pub ledger: &'a mut Ledger,
    /// The compiler's results to hold birlink's against.
    pub fidelity: &'a mut fidelity::Check<'w>,
}

/// `vnc_remote_addr_map` then `vnc_link` over `set`, unless `stopped`.
pub(super) fn run(
    run: &Run<'_>,
    set: &mut LinkedSet,
    sinks: Sinks<'_, '_>,
    mut stopped: bool,
    progress: &mut dyn FnMut(Progress),
) -> VncRan {
    let Sinks { report, diags, ledger, fidelity } = sinks;
    let mut ran = VncRan { before: Counts::of(set.iter()), address_map_ran: false, remote_updates: None };
    if !stopped && run.wants(Pass::VncRemoteAddrMap) {
        progress(Progress::Pass(Pass::VncRemoteAddrMap));
        let result = vnc_remote_addr_map::run(set, report.options.lnc, diags);
        stopped = ledger.ran(Pass::VncRemoteAddrMap, None, result.failed, result.steps);
        report.address_map = result.rows;
        ran.address_map_ran = true;
        if !stopped {
            fidelity.after(Pass::VncRemoteAddrMap, set);
        }
    }
    if !stopped && run.wants(Pass::VncLink) {
        progress(Progress::Pass(Pass::VncLink));
        let result = vnc_link::run(set, report.options.lnc, diags);
        ledger.ran(Pass::VncLink, None, result.failed, result.steps);
        report.semaphores = result.semaphores;
        ran.remote_updates = Some(result.remote_updates);
        // A failing vnc_link changes nothing: the set is as vnc_link leaves it either way.
        fidelity.after(Pass::VncLink, set);
    }
    ran
}
