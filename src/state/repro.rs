//! From the compiler's error line to a minimal repro: the pasted log (its findings read
//! here with `birlink_core::tools::log`, their names located by the worker) and the reduction
//! (run by the worker in slices, opened as the current link set with the original one
//! step away). The reducer decides every request; the components only dispatch.

use std::rc::Rc;

use birlink_core::tools::log::{self, Beside, Finding, Located, LogReading};
use birlink_core::EntityKey;

use birlink_core::tools::share::View;

use super::{Ask, FileBlob, LoadedFile, Outbox, PickedFile, Query, Selection, Source, State};
use crate::protocol::{LogRead, ReduceStep, ReducedSummary};
use crate::side::Side;

/// A pasted log larger than this is not read (a log line is short; a paste of a whole
/// dump is not a log).
pub const MAX_LOG_BYTES: usize = 1 << 20;

/// The compiler log the user pasted, read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogState {
    /// The text in the box.
    pub text: String,
    /// Whether the paste box is open.
    pub editing: bool,
    /// The lines birlink recognised in the last text read.
    pub findings: Rc<Vec<Finding>>,
    /// Whether a text was read (so "nothing recognised" can be said).
    pub read: bool,
    /// The text read as a whole log (`tools::log::read_log`): the compile, its passes,
    /// its failure at its pass.
    pub reading: Option<Rc<LogReading>>,
    /// Where the findings' names are in the current run: per finding, per mention
    /// (`None` until the worker answers, or when no link set is open).
    pub located: Option<Rc<Vec<Vec<Located>>>>,
    /// The log held beside the current run (its BirLinker blocks against birlink's
    /// `bir_linker.log`, its failure against the run's diagnostics), once the worker
    /// answered.
    pub beside: Option<Rc<Beside>>,
    /// The log file, when the log came as one (dropped, picked, or a sample's), read
    /// by the worker.
    pub file: Option<LogFile>,
    /// The pass the user chose on the timeline, by index in the run's passes.
    pub pass: Option<usize>,
    /// How many compiles the log holds (`reading.runs` of a file's reading is left in
    /// the worker).
    pub runs: usize,
}

/// A compiler log that came as a file: read by the worker (a log of 50 MB is not read
/// on the page's thread), again for each new run.
#[derive(Clone, Debug)]
pub struct LogFile {
    /// Which log of the page's it is (answers about an older one are dropped).
    pub seq: u64,
    /// Its name.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its bytes.
    pub blob: FileBlob,
    /// Whether the worker is reading it.
    pub reading: bool,
    /// Why it could not be read.
    pub error: Option<String>,
}

impl PartialEq for LogFile {
    fn eq(&self, other: &Self) -> bool {
        (self.seq, &self.path, self.size, self.reading, &self.error)
            == (other.seq, &other.path, other.size, other.reading, &other.error)
    }
}

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

/// The pasted log and the reduction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Repro {
    /// The compiler log pasted.
    pub log: LogState,
    /// The log's question to the worker.
    pub log_out: Outbox<Ask>,
    /// A reduction the user started.
    pub reducing: Option<Reducing>,
    /// The reduction's requests (start, cancel).
    pub reduce_out: Outbox<Ask>,
    /// The link set before the reduction that replaced it.
    pub original: Option<Rc<SavedSet>>,
    /// What that reduction kept (shown while its result is the link set).
    pub reduced: Option<ReducedSummary>,
    /// The last log file's number.
    pub log_seq: u64,
}

/// The repro actions.
#[derive(Debug)]
pub enum ReproAction {
    /// Open the "Paste error" box.
    OpenLog,
    /// Close the box and the findings.
    CloseLog,
    /// The text in the box changed.
    LogText(String),
    /// Read the box's text.
    ReadLog,
    /// A paste on the page (outside any field): read it if it is a log.
    Pasted(String),
    /// The worker located the log's names.
    Located {
        /// The run.
        run: u64,
        /// The log it was about.
        text: String,
        /// Per finding, per mention.
        located: Vec<Vec<Located>>,
        /// The log held beside the run.
        beside: Box<Beside>,
    },
    /// Compiler logs among the files the user dropped or picked, or a sample carries:
    /// the last one is read (by the worker).
    LogFiles(Vec<PickedFile>),
    /// The worker read a log file.
    LogRead {
        /// Which log.
        seq: u64,
        /// What it read, or why it could not.
        read: Result<Box<LogRead>, String>,
    },
    /// A pass chosen on the timeline (`None`: none).
    Pass(Option<usize>),
    /// Download the log's reading as JSON (a file's from the worker).
    DownloadLog,
    /// Show a finding's entity and the run's diagnostic about it.
    Jump {
        /// The entity.
        key: Option<EntityKey>,
        /// The diagnostic, by index.
        diagnostic: Option<usize>,
    },
    /// Reduce the current link set.
    StartReduce,
    /// Stop reducing.
    CancelReduce,
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
    /// Applies a repro action; false when it changes nothing.
    pub(super) fn apply_repro(&mut self, action: ReproAction) -> bool {
        match action {
            ReproAction::OpenLog => {
                self.repro.log.editing = true;
            }
            ReproAction::CloseLog => self.repro.log = LogState::default(),
            ReproAction::LogText(text) => self.repro.log.text = text,
            ReproAction::ReadLog => {
                self.repro.log.editing = false;
                self.read_log();
            }
            ReproAction::Pasted(text) => {
                if text.len() > MAX_LOG_BYTES || log::read(&text).is_empty() {
                    return false;
                }
                self.repro.log.text = text;
                self.repro.log.editing = false;
                self.read_log();
            }
            ReproAction::Located { run, text, located, beside } => {
                if Some(run) != self.result_run() || text != self.repro.log.text || self.repro.log.file.is_some() {
                    return false;
                }
                self.repro.log.beside = Some(Rc::new(*beside));
                self.located(located);
            }
            ReproAction::LogFiles(files) => {
                let Some(file) = files.into_iter().last() else { return false };
                self.repro.log_seq += 1;
                self.repro.log = LogState {
                    file: Some(LogFile {
                        seq: self.repro.log_seq,
                        path: file.path,
                        size: file.size,
                        blob: file.blob,
                        reading: true,
                        error: None,
                    }),
                    ..LogState::default()
                };
                self.read_log_file();
            }
            ReproAction::LogRead { seq, read } => {
                let log = &mut self.repro.log;
                let Some(file) = log.file.as_mut().filter(|f| f.seq == seq) else { return false };
                file.reading = false;
                match read {
                    Err(message) => file.error = Some(message),
                    Ok(read) => {
                        let LogRead { run, reading, runs, findings, located, beside } = *read;
                        log.read = true;
                        log.runs = runs;
                        log.reading = Some(Rc::new(reading));
                        log.findings = Rc::new(findings.into_iter().map(Finding::known_again).collect());
                        log.beside = beside.map(Rc::new);
                        log.located = None;
                        if let (Some(located), true) = (located, run.is_some() && run == self.result_run()) {
                            self.located(located);
                        }
                    }
                }
            }
            ReproAction::DownloadLog => {
                let Some(file) = &self.repro.log.file else { return false };
                let query = Query::LogJson { path: file.path.clone(), blob: file.blob.clone() };
                self.repro.log_out.post(Ask { run: self.result_run().unwrap_or(0), query });
            }
            ReproAction::Pass(pass) => {
                if self.repro.log.pass == pass {
                    return false;
                }
                self.repro.log.pass = pass;
            }
            ReproAction::Jump { key, diagnostic } => self.jump(key, diagnostic),
            ReproAction::StartReduce => {
                let Some(run) = self.result_run() else { return false };
                if matches!(self.repro.reducing, Some(Reducing::Running { .. })) {
                    return false;
                }
                self.repro.reducing = Some(Reducing::Running { run, step: None });
                self.repro.reduce_out.post(Ask { run, query: Query::Reduce });
            }
            ReproAction::CancelReduce => {
                let Some(Reducing::Running { run, .. }) = self.repro.reducing else { return false };
                self.repro.reducing = None;
                self.repro.reduce_out.post(Ask { run, query: Query::CancelReduce });
            }
            ReproAction::Progress { run, step } => match &mut self.repro.reducing {
                Some(Reducing::Running { run: running, step: last }) if *running == run => *last = Some(step),
                _ => return false,
            },
            ReproAction::Reduced { run, file, summary } => {
                if !matches!(self.repro.reducing, Some(Reducing::Running { run: running, .. }) if running == run) {
                    return false;
                }
                self.repro.reducing = None;
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
                self.repro.original = Some(Rc::new(saved));
                self.repro.reduced = Some(summary);
            }
            ReproAction::Failed { run, message } => {
                if !matches!(self.repro.reducing, Some(Reducing::Running { run: running, .. }) if running == run) {
                    return false;
                }
                self.repro.reducing = Some(Reducing::Failed(message));
            }
            ReproAction::BackToOriginal => {
                let Some(saved) = self.repro.original.take() else { return false };
                let saved = Rc::unwrap_or_clone(saved);
                self.repro.reduced = None;
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

    /// Where the log's names are, found: kept, and the first place shown (the run's
    /// diagnostic about it, else the entity).
    fn located(&mut self, located: Vec<Vec<Located>>) {
        let first = located.iter().flatten().find(|l| l.diagnostic.is_some() || !l.keys.is_empty()).cloned();
        self.repro.log.located = Some(Rc::new(located));
        if let Some(place) = first {
            self.jump(place.keys.first().cloned(), place.diagnostic);
        }
    }

    /// Asks the worker to read the log file (again, for a new run).
    fn read_log_file(&mut self) {
        let run = self.result_run().unwrap_or(0);
        let Some(file) = self.repro.log.file.as_mut() else { return };
        file.reading = true;
        file.error = None;
        let query = Query::ReadLog { seq: file.seq, path: file.path.clone(), blob: file.blob.clone() };
        self.repro.log_out.post(Ask { run, query });
    }

    /// A new run: the log is held beside it, its names looked for in it.
    pub(super) fn relocate_log(&mut self) {
        if self.repro.log.file.is_some() {
            self.repro.log.located = None;
            self.repro.log.beside = None;
            self.read_log_file();
        } else if self.repro.log.read {
            self.repro.log.located = None;
            self.repro.log.beside = None;
            if let Some(run) = self.result_run() {
                self.repro.log_out.post(Ask { run, query: Query::Locate(self.repro.log.text.clone()) });
            }
        }
    }

    /// Reads the pasted text and, with a run open, asks where its names are and holds
    /// it beside the run.
    fn read_log(&mut self) {
        let findings = log::read(&self.repro.log.text);
        self.repro.log.file = None;
        self.repro.log.pass = None;
        let reading = log::read_log(&self.repro.log.text);
        self.repro.log.runs = reading.runs.len();
        self.repro.log.reading = Some(Rc::new(reading));
        self.repro.log.read = true;
        self.repro.log.located = None;
        self.repro.log.beside = None;
        if let Some(run) = self.result_run() {
            self.repro.log_out.post(Ask { run, query: Query::Locate(self.repro.log.text.clone()) });
        }
        self.repro.log.findings = Rc::new(findings);
    }

    fn jump(&mut self, key: Option<EntityKey>, diagnostic: Option<usize>) {
        match (diagnostic, key) {
            (Some(index), _) => {
                self.view = View::Diagnostics;
                self.select(Selection::Diagnostic(index));
                self.details.by_user = true;
            }
            (None, Some(key)) => self.select_key(key),
            (None, None) => {}
        }
    }

    /// A change of link set by the user: a reduction under way stops, and the original
    /// is no longer one step away.
    pub(super) fn forget_repro(&mut self) {
        if let Some(Reducing::Running { run, .. }) = self.repro.reducing.take() {
            self.repro.reduce_out.post(Ask { run, query: Query::CancelReduce });
        }
        self.repro.reducing = None;
        self.repro.original = None;
        self.repro.reduced = None;
    }
}
