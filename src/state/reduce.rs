//! A minimal repro of a failing link: the reduction, run by the worker in slices and
//! opened as the current link set with the original one step away. The reducer decides
//! every request; the components only dispatch.

use std::rc::Rc;

use super::{Ask, LoadedFile, Outbox, PickedFile, Query, Source, State};
use crate::protocol::{ReduceStep, ReducedSummary};
use crate::side::Side;

/// A reduction the user started.
#[derive(Clone, Debug, PartialEq)]
pub enum Reducing {
    /// The worker is reducing the run; its last progress.
    Running {
        /// The run being reduced.
        run: u64,
        /// How far, once it said.
        step: Option<ReduceStep>,
    },
    /// It could not.
    Failed(String),
}

/// The link set before a reduction replaced it, to go back to.
#[derive(Clone, Debug, PartialEq)]
pub struct SavedSet {
    files: Vec<LoadedFile>,
    lnc: Option<u64>,
    open_sample: Option<String>,
    replace_on_add: bool,
    source: Source,
}

/// The reduction: under way, or what it left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reduction {
    /// A reduction the user started.
    pub reducing: Option<Reducing>,
    /// Its requests (start, cancel).
    pub out: Outbox<Ask>,
    /// The link set before the reduction that replaced it.
    pub original: Option<Rc<SavedSet>>,
    /// What that reduction kept (shown while its result is the link set).
    pub reduced: Option<ReducedSummary>,
}

/// What can happen to a reduction.
#[derive(Debug)]
pub enum ReduceAction {
    /// Reduce the current link set.
    Start,
    /// Stop reducing.
    Cancel,
    /// The worker's progress.
    Progress {
        /// The run.
        run: u64,
        /// How far.
        step: ReduceStep,
    },
    /// The reduction finished: its file.
    Reduced {
        /// The run.
        run: u64,
        /// The reduced link set.
        file: PickedFile,
        /// What it kept.
        summary: ReducedSummary,
    },
    /// The reduction could not be done.
    Failed {
        /// The run.
        run: u64,
        /// Why.
        message: String,
    },
    /// Go back to the link set before the reduction.
    BackToOriginal,
}

impl State {
    /// Applies a reduction's action; false when it changes nothing.
    pub(super) fn apply_reduce(&mut self, action: ReduceAction) -> bool {
        match action {
            ReduceAction::Start => {
                let Some(run) = self.result_run() else { return false };
                if matches!(self.reduction.reducing, Some(Reducing::Running { .. })) {
                    return false;
                }
                self.reduction.reducing = Some(Reducing::Running { run, step: None });
                self.reduction.out.post(Ask { run, query: Query::Reduce });
            }
            ReduceAction::Cancel => {
                let Some(Reducing::Running { run, .. }) = self.reduction.reducing else { return false };
                self.reduction.reducing = None;
                self.reduction.out.post(Ask { run, query: Query::CancelReduce });
            }
            ReduceAction::Progress { run, step } => match &mut self.reduction.reducing {
                Some(Reducing::Running { run: running, step: last }) if *running == run => *last = Some(step),
                _ => return false,
            },
            ReduceAction::Reduced { run, file, summary } => {
                if !matches!(self.reduction.reducing, Some(Reducing::Running { run: running, .. }) if running == run) {
                    return false;
                }
                self.reduction.reducing = None;
                let shown = &mut self.sides[Side::Shown].link;
                let saved = SavedSet {
                    files: shown.files.clone(),
                    lnc: shown.lnc,
                    open_sample: shown.open_sample.clone(),
                    replace_on_add: shown.replace_on_add,
                    source: shown.source,
                };
                shown.files.clear();
                shown.add(vec![file]);
                // The bundle records the LNC.
                shown.lnc = None;
                shown.open_sample = None;
                shown.replace_on_add = false;
                self.notice = None;
                self.relink(Side::Shown);
                self.reduction.original = Some(Rc::new(saved));
                self.reduction.reduced = Some(summary);
            }
            ReduceAction::Failed { run, message } => {
                if !matches!(self.reduction.reducing, Some(Reducing::Running { run: running, .. }) if running == run) {
                    return false;
                }
                self.reduction.reducing = Some(Reducing::Failed(message));
            }
            ReduceAction::BackToOriginal => {
                let Some(saved) = self.reduction.original.take() else { return false };
                let saved = Rc::unwrap_or_clone(saved);
                self.reduction.reduced = None;
                let shown = &mut self.sides[Side::Shown].link;
                shown.files = saved.files;
                shown.lnc = saved.lnc;
                shown.open_sample = saved.open_sample;
                shown.replace_on_add = saved.replace_on_add;
                shown.source = saved.source;
                self.notice = None;
                self.relink(Side::Shown);
            }
        }
        true
    }
}

impl State {
    /// A change of link set by the user: a reduction under way stops, and the original
    /// is no longer one step away.
    pub(super) fn forget_reduction(&mut self) {
        if let Some(Reducing::Running { run, .. }) = self.reduction.reducing.take() {
            self.reduction.out.post(Ask { run, query: Query::CancelReduce });
        }
        self.reduction.reducing = None;
        self.reduction.original = None;
        self.reduction.reduced = None;
    }
}
