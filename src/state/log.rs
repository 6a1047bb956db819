//! The compiler's log on the page: a pasted error line or a whole `log-neuron-cc.txt`
//! (its findings read here with `birlink_core::tools::log`, a log file read by the
//! worker), its names located in the run and the log held beside it (by the worker),
//! the pass chosen on its timeline. The reducer decides every request; the components
//! only dispatch.

use std::rc::Rc;

use birlink_core::tools::log::{self, Beside, Finding, Located, LogReading};
use birlink_core::tools::share::View;
use birlink_core::EntityKey;

use super::{Ask, FileBlob, Outbox, PickedFile, Query, Selection, State};
use crate::protocol::LogRead;

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
    /// The log's questions to the worker.
    pub out: Outbox<Ask>,
    /// The last log file's number.
    pub seq: u64,
}

impl LogState {
    /// No log, its questions' outbox and numbering kept (a later answer about an
    /// earlier log is told apart by them).
    pub fn cleared(&mut self) -> LogState {
        LogState { out: std::mem::take(&mut self.out), seq: self.seq, ..LogState::default() }
    }
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

/// What can happen to the compiler log.
#[derive(Debug)]
pub enum LogAction {
    /// Open the "Paste error" box.
    Open,
    /// Close the box and the findings.
    Close,
    /// The text in the box changed.
    Text(String),
    /// Read the box's text.
    Read,
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
    Files(Vec<PickedFile>),
    /// The worker read a log file.
    FileRead {
        /// Which log.
        seq: u64,
        /// What it read, or why it could not.
        read: Result<Box<LogRead>, String>,
    },
    /// A pass chosen on the timeline (`None`: none).
    Pass(Option<usize>),
    /// Download the log's reading as JSON (a file's from the worker).
    Download,
    /// Show a finding's entity and the run's diagnostic about it.
    Jump {
        /// The entity.
        key: Option<EntityKey>,
        /// The diagnostic, by index.
        diagnostic: Option<usize>,
    },
}

impl State {
    /// Applies a log action; false when it changes nothing.
    pub(super) fn apply_log(&mut self, action: LogAction) -> bool {
        match action {
            LogAction::Open => {
                self.log.editing = true;
            }
            LogAction::Close => self.log = self.log.cleared(),
            LogAction::Text(text) => self.log.text = text,
            LogAction::Read => {
                self.log.editing = false;
                self.read_log();
            }
            LogAction::Pasted(text) => {
                if text.len() > MAX_LOG_BYTES || log::read(&text).is_empty() {
                    return false;
                }
                self.log.text = text;
                self.log.editing = false;
                self.read_log();
            }
            LogAction::Located { run, text, located, beside } => {
                if Some(run) != self.result_run() || text != self.log.text || self.log.file.is_some() {
                    return false;
                }
                self.log.beside = Some(Rc::new(*beside));
                self.located(located);
            }
            LogAction::Files(files) => {
                let Some(file) = files.into_iter().last() else { return false };
                let seq = self.log.seq + 1;
                self.log = self.log.cleared();
                self.log.seq = seq;
                self.log.file = Some(LogFile {
                    seq,
                    path: file.path,
                    size: file.size,
                    blob: file.blob,
                    reading: true,
                    error: None,
                });
                self.read_log_file();
            }
            LogAction::FileRead { seq, read } => {
                let log = &mut self.log;
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
            LogAction::Pass(pass) => {
                if self.log.pass == pass {
                    return false;
                }
                self.log.pass = pass;
            }
            LogAction::Download => {
                let Some(file) = &self.log.file else { return false };
                let query = Query::LogJson { path: file.path.clone(), blob: file.blob.clone() };
                self.log.out.post(Ask { run: self.result_run().unwrap_or(0), query });
            }
            LogAction::Jump { key, diagnostic } => self.jump(key, diagnostic),
        }
        true
    }
    /// Where the log's names are, found: kept, and the first place shown (the run's
    /// diagnostic about it, else the entity).
    fn located(&mut self, located: Vec<Vec<Located>>) {
        let first = located.iter().flatten().find(|l| l.diagnostic.is_some() || !l.keys.is_empty()).cloned();
        self.log.located = Some(Rc::new(located));
        if let Some(place) = first {
            self.jump(place.keys.first().cloned(), place.diagnostic);
        }
    }

    /// Asks the worker to read the log file (again, for a new run).
    fn read_log_file(&mut self) {
        let run = self.result_run().unwrap_or(0);
        let Some(file) = self.log.file.as_mut() else { return };
        file.reading = true;
        file.error = None;
        let query = Query::ReadLog { seq: file.seq, path: file.path.clone(), blob: file.blob.clone() };
        self.log.out.post(Ask { run, query });
    }

    /// A new run: the log is held beside it, its names looked for in it.
    pub(super) fn relocate_log(&mut self) {
        if self.log.file.is_some() {
            self.log.located = None;
            self.log.beside = None;
            self.read_log_file();
        } else if self.log.read {
            self.log.located = None;
            self.log.beside = None;
            if let Some(run) = self.result_run() {
                self.log.out.post(Ask { run, query: Query::Locate(self.log.text.clone()) });
            }
        }
    }

    /// Reads the pasted text and, with a run open, asks where its names are and holds
    /// it beside the run.
    fn read_log(&mut self) {
        let findings = log::read(&self.log.text);
        self.log.file = None;
        self.log.pass = None;
        let reading = log::read_log(&self.log.text);
        self.log.runs = reading.runs.len();
        self.log.reading = Some(Rc::new(reading));
        self.log.read = true;
        self.log.located = None;
        self.log.beside = None;
        if let Some(run) = self.result_run() {
            self.log.out.post(Ask { run, query: Query::Locate(self.log.text.clone()) });
        }
        self.log.findings = Rc::new(findings);
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
}
