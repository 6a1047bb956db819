//! A side's runs: what a finished run produced ([`RunResult`]: the report as the CLI
//! writes it, plus view models derived from it once), and the worker's answers about a
//! run ([`RunAction`]), which go to the side whose run it is.
//!
//! A finished run is held behind [`RunRef`], compared by identity: an action never
//! compares two reports field by field on the main thread.

use std::collections::BTreeMap;
use std::rc::Rc;

use birlink_core::diag::Severity;
use birlink_core::output::report::{PassStatus, Report};
use birlink_core::tools::align::Alignment;
use birlink_core::tools::share::View;
use birlink_core::Code;

use super::{Ask, Mode, PickedFile, Query, Selection, State, Status};
use crate::protocol::RunStats;
use crate::side::Side;

/// What one finished run produced, with view models derived once.
#[derive(Debug, PartialEq)]
pub struct RunResult {
    /// The run.
    pub run: u64,
    /// `report.json`, parsed.
    pub report: Report,
    /// Whether there is a linked module.
    pub linked: bool,
    /// Worker timings.
    pub stats: RunStats,
    /// Diagnostic indices, errors first, then warnings, then notes (stable).
    pub diagnostic_order: Vec<usize>,
    /// `diagnostic_order` grouped by code, codes in the order of their first diagnostic
    /// (the view shows a few of each and counts the rest).
    pub diagnostic_groups: Vec<(Code, Vec<usize>)>,
    /// The first pass that failed.
    pub failed_pass: Option<usize>,
    /// `(errors, warnings, notes)`.
    pub counts: (usize, usize, usize),
    /// Barriers and remote DMA blocks aligned across cores (the worker's).
    pub alignment: Rc<Alignment>,
}

impl RunResult {
    /// Derives the view models of a report.
    pub fn new(run: u64, report: Report, linked: bool, stats: RunStats) -> Self {
        let mut diagnostic_order: Vec<usize> = (0..report.diagnostics.len()).collect();
        diagnostic_order.sort_by_key(|&i| std::cmp::Reverse(report.diagnostics[i].severity));
        let failed_pass = report.passes.iter().position(|p| p.status == PassStatus::Error);
        let count = |s: Severity| report.diagnostics.iter().filter(|d| d.severity == s).count();
        let counts = (count(Severity::Error), count(Severity::Warning), count(Severity::Note));
        let alignment = Rc::new(Alignment::default());
        let mut diagnostic_groups: Vec<(Code, Vec<usize>)> = Vec::new();
        let mut group_of: BTreeMap<Code, usize> = BTreeMap::new();
        for &i in &diagnostic_order {
            let code = report.diagnostics[i].code;
            let group = *group_of.entry(code).or_insert_with(|| {
                diagnostic_groups.push((code, Vec::new()));
                diagnostic_groups.len() - 1
            });
            diagnostic_groups[group].1.push(i);
        }
        RunResult { run, report, linked, stats, diagnostic_order, diagnostic_groups, failed_pass, counts, alignment }
    }

    /// With the worker's alignment of the run.
    pub fn aligned(self, alignment: Alignment) -> Self {
        RunResult { alignment: Rc::new(alignment), ..self }
    }

    /// Whether the run failed (an error diagnostic).
    pub fn failed(&self) -> bool {
        self.counts.0 > 0
    }

    /// Barrier rows grouped by the core that holds them (`None`: `main`).
    pub fn barriers_by_core(&self) -> BTreeMap<Option<u64>, Vec<usize>> {
        let mut groups: BTreeMap<Option<u64>, Vec<usize>> = BTreeMap::new();
        for (i, row) in self.report.barriers.iter().enumerate() {
            groups.entry(row.core).or_default().push(i);
        }
        groups
    }

    /// New ids given to more than one barrier (must be empty).
    pub fn barrier_collisions(&self) -> Vec<u64> {
        let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
        for row in &self.report.barriers {
            *seen.entry(row.new_id).or_default() += 1;
        }
        seen.into_iter().filter(|(_, n)| *n > 1).map(|(id, _)| id).collect()
    }

    /// Old ids used on more than one core: the clashes renumbering removes.
    pub fn reused_old_ids(&self) -> BTreeMap<u64, Vec<u64>> {
        let mut cores: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
        for row in &self.report.barriers {
            if let Some(core) = row.core {
                let entry = cores.entry(row.old_id).or_default();
                if !entry.contains(&core) {
                    entry.push(core);
                }
            }
        }
        cores.retain(|_, cores| cores.len() > 1);
        cores
    }

    /// CoreBarriers left as they were (BL0305 notes): `(function, instruction)`.
    pub fn skipped_barriers(&self) -> Vec<(String, String)> {
        self.report
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::BarrierSkipped)
            .filter_map(|d| {
                let entity = d.entity.as_ref()?;
                Some((entity.parent.clone().unwrap_or_default(), entity.name.clone()))
            })
            .collect()
    }

    /// The status of a pass (`skipped` when the report has no row for it).
    pub fn pass_status(&self, pass: birlink_core::Pass) -> PassStatus {
        self.report.passes.iter().find(|p| p.name == pass).map(|p| p.status).unwrap_or(PassStatus::Skipped)
    }
}

/// A run, compared by identity: components that take one as a prop re-render when a new
/// run arrives, not when an equal report is compared field by field.
#[derive(Clone, Debug)]
pub struct RunRef(pub Rc<RunResult>);

impl PartialEq for RunRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for RunRef {
    type Target = RunResult;
    fn deref(&self) -> &RunResult {
        &self.0
    }
}

/// The worker's answers about a run: they go to the side whose run it is, and are
/// dropped when it is neither side's latest.
#[derive(Debug)]
pub enum RunAction {
    /// The worker reports progress.
    Progress {
        /// The run.
        run: u64,
        /// What it is doing.
        phase: String,
        /// Steps done.
        done: u32,
        /// Steps in all.
        total: u32,
    },
    /// A run finished.
    Linked(Box<RunResult>),
    /// A run could not be done.
    Failed {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
    /// A link's data, read (`Request::Decode`): its files and LNC open on the side
    /// whose run it was.
    Decoded {
        /// The run the side was at.
        run: u64,
        /// The files.
        files: Vec<PickedFile>,
        /// The LNC (the query's, else the data's).
        lnc: Option<u64>,
        /// The data.
        data: String,
    },
    /// A link's data could not be read, and why: nothing is opened.
    Undecodable {
        /// The run the side was at.
        run: u64,
        /// Why.
        message: String,
    },
    /// A message between the page and the worker could not be read (a bug in birlink,
    /// said as such): the shown side's run under way ends with it.
    Broken(String),
}

impl State {
    /// The shown side's latest finished run, if any.
    pub fn result(&self) -> Option<&RunRef> {
        self.sides[Side::Shown].result.as_ref()
    }

    /// The run the current result is, if any.
    pub(crate) fn result_run(&self) -> Option<u64> {
        self.sides[Side::Shown].result_run()
    }

    /// Applies a worker's answer about a run; false when it is about no side's latest.
    pub(super) fn apply_run(&mut self, action: RunAction) -> bool {
        match action {
            RunAction::Progress { run, phase, done, total } => match self.side_of(run) {
                Some(side) => self.sides[side].link.status = Status::Running { phase, done, total },
                None => return false,
            },
            RunAction::Linked(result) => match self.side_of(result.run) {
                Some(side) => self.linked(side, RunRef(Rc::from(result))),
                None => return false,
            },
            RunAction::Failed { run, message } => match self.side_of(run) {
                Some(side) => self.sides[side].link.status = Status::Failed(message),
                None => return false,
            },
            RunAction::Decoded { run, files, lnc, data } => match self.side_of(run) {
                Some(side) => self.open_data(side, files, lnc, data),
                None => return false,
            },
            RunAction::Undecodable { run, message } => match self.side_of(run) {
                Some(side) => self.undecodable(side, &message),
                None => return false,
            },
            RunAction::Broken(message) => {
                self.sides[Side::Shown].link.status =
                    Status::Failed(format!("the worker's message could not be read: {message}"));
            }
        }
        true
    }

    /// A side's run finished: it becomes the side's result, the two sides are compared
    /// again, and for the shown side every concern moves on to it.
    fn linked(&mut self, side: Side, result: RunRef) {
        let failed = result.failed();
        let first_error = result.diagnostic_order.first().copied().filter(|_| failed);
        self.sides[side].result = Some(result);
        self.sides[side].link.status = Status::Done;
        match side {
            Side::Shown => self.shown_linked(first_error),
            Side::Against => self.compare_again(),
        }
    }

    fn shown_linked(&mut self, first_error: Option<usize>) {
        self.step = self.default_step();
        self.search.reset();
        self.details.by_user = false;
        // Failure first: open on the diagnostic that explains it (unless the page is
        // comparing: the Compare view says what failed, on which side).
        let comparing = self.view == View::Compare && self.comparing();
        match first_error.filter(|_| !comparing) {
            Some(index) => {
                self.view = View::Diagnostics;
                self.select(Selection::Diagnostic(index));
                self.details.open = self.mode == Mode::Full;
            }
            None => {
                if self.view == View::Diagnostics && self.result().is_some_and(|r| r.report.diagnostics.is_empty()) {
                    self.view = View::Pipeline;
                }
                self.clear_selection();
            }
        }
        self.linked_for_host();
        self.relocate_log();
        self.compare_again();
        // A link's view state (or a host's) applies to this run.
        self.apply_pending();
        self.host.waits.load = None;
        // Embedded, a link set that came by message needs its data for "Open in
        // birlink": asked for once, if it is small enough for a link at all.
        let shown = &self.sides[Side::Shown];
        let from_query = shown.link.open_sample.is_some() || self.page.full_query.contains("src=");
        if self.mode == Mode::Embed && !from_query && !shown.data.known() {
            if let Some(run) = self.result_run() {
                self.share.out.post(Ask { run, query: Query::Share });
            }
        }
    }
}
