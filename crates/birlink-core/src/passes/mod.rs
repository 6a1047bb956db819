//! The pipeline (docs/spec/link.md §0.2, §2) and the report of it all (§7).
//!
//! A run reads the inputs, then decides what it is once ([`flow`]: the flow, the passes
//! selected, the number of cores), then hands the set to the flow's sibling:
//!
//! - [`grid`] — the compiler's flows: `verify` over the grid of cores × subgraphs, in
//!   the modular flow `bir_linker` once per core over its subgraphs
//!   ([`bir_linker::modular`]), in the flat flow none;
//! - [`seeds`] — the seeds' reading, only when asked: `verify` over one module per
//!   core, `bir_linker` merging them into one module ([`bir_linker::seeds`]).
//!
//! Both end in the VNC passes, `vnc_remote_addr_map` then `vnc_link`, across the linked
//! set (`vnc`). A pass that reports an error changes nothing and stops the passes after
//! it (they are `skipped`, [`ledger`]); everything computed before, the failing pass's
//! own rows and every diagnostic still reach the report. The run ends by resolving every
//! diagnostic's JSON pointer into a line and column, one scan per file ([`locations`]),
//! and marking each input with the worst diagnostic in it ([`rows`]).

pub mod bir_linker;
mod check;
pub mod fidelity;
mod flow;
mod grid;
mod ledger;
mod locations;
mod options;
pub mod outputs;
pub mod partition;
mod rows;
mod seeds;
pub mod sync;
pub mod verify;
mod vnc;
pub mod vnc_link;
pub mod vnc_remote_addr_map;

pub use crate::model::pass::Pass;
pub use check::check;
pub use flow::decide_flow;
pub use locations::resolve_locations;
pub use options::{LinkOptions, Outcome, Progress, SyncCheck};

use crate::diag::has_errors;
use crate::model::flow::Flow;
use crate::model::linked::LinkedSet;
use crate::output::report::{PassRow, PassStatus, Report};
use crate::output::sync::Sync;
use crate::read::input::SourceFile;
use crate::read::load::{self, LoadOptions};

/// Why the sync check does not run after this link, if it does not (§1): asked not to,
/// the seeds' reading, or `vnc_link` did not run or failed (its ids would be wrong).
fn skip_sync(flow: Flow, passes: &[PassRow], linked: Option<&LinkedSet>, check: SyncCheck) -> Option<&'static str> {
    let vnc_link = passes.iter().find(|row| row.name == Pass::VncLink).map(|row| row.status);
    if check == SyncCheck::Off {
        Some("--no-sync")
    } else if flow == Flow::Seeds {
        Some("the seeds' reading: one merged module, not the compiler's per-core modules")
    } else if vnc_link == Some(PassStatus::Error) {
        Some("vnc_link failed")
    } else if vnc_link != Some(PassStatus::Ok) || linked.is_none() {
        Some("vnc_link did not run")
    } else {
        None
    }
}

/// The sync check of `set`, `beside` (when given) given the set meanwhile: on its own
/// thread where threads may be spawned and more than one is allowed, else first. Beside
/// the check, the cores' programs are read on the threads left; but when the execution
/// will outlast the writing ([`sync::runs_long`]: a modular set), they are read on every
/// thread first and only the execution runs beside it.
fn check_beside(
    set: &LinkedSet,
    deny: sync::Deny,
    threads: usize,
    beside: Option<&mut (dyn FnMut(&LinkedSet) + Send)>,
) -> sync::Checked {
    let Some(beside) = beside else { return sync::check(set, deny, threads) };
    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 {
        let prepared = sync::runs_long(set).then(|| sync::prepare(set, threads));
        return std::thread::scope(|scope| {
            let other = scope.spawn(|| beside(set));
            let checked = match prepared {
                Some(prepared) => prepared.check(deny),
                None => sync::check(set, deny, threads - 1),
            };
            if let Err(panic) = other.join() {
                std::panic::resume_unwind(panic);
            }
            checked
        });
    }
    beside(set);
    sync::check(set, deny, threads)
}

/// Runs the pipeline over the inputs.
pub fn run(sources: Vec<SourceFile>, options: &LinkOptions) -> Outcome {
    run_with_progress(sources, options, &mut |_| {})
}

/// Runs the pipeline, telling `progress` what it is doing.
pub fn run_with_progress(
    sources: Vec<SourceFile>,
    options: &LinkOptions,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    run_beside(sources, options, progress, None)
}

/// [`run_with_progress`], giving `beside` (when given) the linked set once it is linked: on a thread
/// of its own while the sync check runs, where threads may be spawned and
/// `options.threads` is more than one, else before the check. What the CLI writes of the
/// linked set (`linked.json`) needs no sync finding, so it is written meanwhile.
pub fn run_beside(
    sources: Vec<SourceFile>,
    options: &LinkOptions,
    progress: &mut dyn FnMut(Progress),
    mut beside: Option<&mut (dyn FnMut(&LinkedSet) + Send)>,
) -> Outcome {
    let mut diags = Vec::new();
    let mut report = Report::default();
    let count = sources.len();
    let load = LoadOptions {
        max_input_bytes: options.max_input_bytes,
        input_bytes: options.input_bytes,
        held_estimate: options.held_estimate,
        threads: options.threads,
    };
    let mut set = load::load_with_progress(sources, &load, &mut diags, &mut |index, file| {
        progress(Progress::Reading { file: file.to_owned(), index, count })
    });

    // The compiler's linked modules dumped before the VNC passes, beside the subgraphs
    // (one run of the modular flow): kept apart from the grid, the VNC passes' input.
    let vnc_input = grid::take_vnc_input(&mut set, options.workdir.as_ref());
    let asked = match (&options.passes, &set.options.passes) {
        (Some(passes), _) => Some((passes, None)),
        (None, Some(passes)) => Some((passes, set.options.passes_at.as_ref())),
        (None, None) => None,
    };
    let selected = flow::select_passes(asked, &mut diags);
    report.options.passes = selected.clone();
    let stopped = has_errors(&diags);

    let (flow, flow_source) = decide_flow(options.flow.or(set.options.flow), &set);
    report.options.flow = flow;
    report.options.flow_source = flow_source;
    report.inputs = rows::input_rows(&set, flow);
    (report.options.lnc, report.options.lnc_source) = flow::decide_lnc(options, &set, flow);

    let run = flow::Run { flow, selected: &selected, options, stopped };
    let mut log = Vec::new();
    let (ledger, linked) = match flow {
        Flow::Seeds => seeds::run(&run, &mut set, &mut report, &mut diags, progress),
        Flow::Flat | Flow::Modular => {
            let out = grid::Out { report: &mut report, diags: &mut diags, log: &mut log };
            grid::run(&run, &mut set, vnc_input, out, progress)
        }
    };

    report.passes = ledger.rows;
    report.sync = match skip_sync(flow, &report.passes, linked.as_ref(), options.sync) {
        Some(why) => {
            if let (Some(set), Some(beside)) = (&linked, beside.as_mut()) {
                beside(set);
            }
            Sync::skipped(why, linked.as_ref().map_or(0, |l| l.modules.len() as u64))
        }
        None => {
            progress(Progress::Pass(Pass::Sync));
            let deny = if options.sync == SyncCheck::Deny { sync::Deny::Warnings } else { sync::Deny::No };
            let checked = linked.as_ref().map(|set| check_beside(set, deny, options.threads, beside.take()));
            checked.map_or_else(Sync::default, |checked| {
                diags.extend(checked.diagnostics);
                checked.sync
            })
        }
    };
    progress(Progress::Reporting);
    resolve_locations(&set.files, &mut diags);
    rows::set_input_statuses(&mut report.inputs, &diags);
    report.diagnostics = diags;
    Outcome { report, linked, files: set.files, log }
}
