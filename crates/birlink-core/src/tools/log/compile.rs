//! A whole `log-neuron-cc.txt`, read as the compiler wrote it: each compile in it (a
//! run), with its compiler version, LNC, flow, the modules its backend loaded, every
//! backend pass it ran with its scope and status in order, each core's `BirLinker` block,
//! the VNC lines, its failure and its closing status. The JSON form is
//! `docs/spec/log.md`'s.
//!
//! Lines are read one at a time and never fatal: a line birlink does not know is counted
//! (and the first few kept); a log cut short leaves its last passes `started`; lines of
//! two cores interleave freely (a pass is matched to its end by name and scope).
//!
//! **Runs.** Parallel compiles writing one log are told apart by their process ids. A
//! compile's driver (the `[root]` line with its `neuronx-cc compile` command) starts a
//! run; the next process that speaks as `[root]` without a command is that run's
//! pipeline (the oldest run still without one takes it); a backend process (its
//! `[BackendDriver]` lines) joins the run whose pipeline named its directory
//! (`BackendDriver VNC cwd: DIR` then `… Cwd: "DIR"`), else the oldest run whose pipeline
//! started a backend and has none yet. A process already placed that starts a compile
//! again starts a new run, its old run's processes placed afresh. Lines without a
//! process id (the frontend's C++ lines, wrapped lines) belong to the run of the line
//! before them. birlink's reading, from the public logs' shape (log spec §2).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::barriers;
use super::findings::{self, recognise};
use super::line::{self, Line};
use super::stats::{self, InstructionStats, Kind, Row, Table};
use crate::model::flow::Flow;
use crate::model::place::{Place, Scope};
use crate::output::sync::{BarrierCount, Sync};

/// How many lines birlink does not know are kept (all are counted).
pub const KEPT_UNKNOWN: usize = 20;

/// How much of a kept line is kept (a frontend's options line runs to 100 kB).
pub const KEPT_CHARS: usize = 400;

/// A whole log, read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogReading {
    /// The run the top-level fields are: the first that failed, else the last.
    #[serde(flatten)]
    pub run: Run,
    /// Its index in `runs`.
    pub run_index: Option<usize>,
    /// Every compile in the log, in the order their first lines come.
    pub runs: Vec<Run>,
    /// Lines read.
    pub lines: usize,
    /// Lines birlink does not know (counted; the first [`KEPT_UNKNOWN`] kept).
    pub unknown: Unknown,
    /// The sync check's log rule over the run (docs/spec/sync.md §7): each core's
    /// `PSEUDO_CORE_BARRIER` count from its codegen opcode tables.
    pub sync: Sync,
}

/// The lines birlink does not know.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unknown {
    /// How many.
    pub count: usize,
    /// The first ones: 1-based line and text (its first [`KEPT_CHARS`] characters).
    pub first: Vec<(usize, String)>,
}

/// One compile.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Its processes: the driver's, the pipeline's, the backend's (as far as seen).
    pub pids: Vec<u64>,
    /// The compiler.
    pub compiler: Compiler,
    /// Logical cores per NeuronCore (`BackendDriver has 6 states with 2 core LNC`).
    pub lnc: Option<u64>,
    /// `modular` (`using VNC + MT modular flow`) or `flat` (`Switching to VNC + flat flow`).
    pub flow: Option<Flow>,
    /// `Loading module from nc00/sg00/bir.json`, in order.
    pub modules: Vec<LoadedModule>,
    /// Every backend pass run, in the order they started.
    pub passes: Vec<PassRun>,
    /// Each core's `BirLinker` block.
    pub bir_linker: Vec<LinkerBlock>,
    /// `[VncLink]: Found N remote updates`.
    pub vnc_link: Option<VncLink>,
    /// The VNC passes' own lines, in order: line (1-based) and message (`Running
    /// vnc_remote_addr_map`, `Inputs to vnc_link: …`, `[VncLink]: …`), what `birlink
    /// explain --log LOG DUMPS…` holds against birlink's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vnc_lines: Vec<(usize, String)>,
    /// What failed, when something did.
    pub failure: Option<Failure>,
    /// `Compilation status: Total subgraphs: 1, Passed: 0, Failed: 1` lines.
    pub status: Vec<Status>,
    /// `Subcommand returned with exitcode=N`.
    pub exit_code: Option<i64>,
    /// The walrus (backend) driver's flags as its command line gives them
    /// (`--enable-data-race-checker=false`, `--num-semaphores-per-queue 16`): flag
    /// without its dashes, and value (`true` for a flag given alone).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub backend_flags: BTreeMap<String, String>,
    /// Each codegen scope's `PSEUDO_CORE_BARRIER` count, as the log prints them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barrier_counts: Vec<BarrierCount>,
    /// Each codegen scope's opcode, engine and DMA-descriptor tables, in the log's
    /// order (`barrier_counts` has one row for each, at the same index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instruction_stats: Vec<InstructionStats>,
    /// The run's first and last lines (1-based).
    pub first_line: usize,
    /// See `first_line`.
    pub last_line: usize,
}

/// The compiler that wrote a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Compiler {
    /// `2.24.5133.0+58f8de22`.
    pub version: Option<String>,
}

/// A module the backend loaded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadedModule {
    /// Its core (`ncCC`).
    pub core: Option<u64>,
    /// Its subgraph (`sgKK`).
    pub subgraph: Option<u64>,
    /// As the log names it.
    pub file: String,
}

/// A timeline's lane: what a pass ran on, by the shape of its scope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lane {
    /// Every module (no scope: `[BackendPassManager]`).
    All,
    /// A core (`nc00`).
    Core,
    /// A subgraph across the cores (`sg00`).
    Subgraph,
    /// One module (`nc00/sg01`, `nc00/sgLnk`).
    Module,
}

impl Lane {
    /// The lane of a scope as the log writes it (none, or one birlink cannot read: every
    /// module).
    pub fn of(scope: Option<&str>) -> Lane {
        match scope.and_then(Scope::parse) {
            None => Lane::All,
            Some(Scope::Core(_)) => Lane::Core,
            Some(Scope::Subgraph(_)) => Lane::Subgraph,
            Some(Scope::Module(_)) => Lane::Module,
        }
    }
}

/// How a pass run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// `… finished after S seconds`.
    Passed,
    /// `… failed after S seconds`.
    Failed,
    /// No end in the log.
    Started,
}

impl RunStatus {
    /// `passed`, `failed` or `started`.
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Passed => "passed",
            RunStatus::Failed => "failed",
            RunStatus::Started => "started",
        }
    }
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One pass run on one scope.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PassRun {
    /// The pass (`bir_linker`).
    pub name: String,
    /// Its scope as the log writes it (`nc00`, `sg00`, `nc00/sg01`, `nc00/sgLnk`), or
    /// null for all modules (`[BackendPassManager]`).
    pub scope: Option<String>,
    /// The lane it is drawn in, by the scope's shape.
    pub lane: Lane,
    /// How it ended.
    pub status: RunStatus,
    /// Seconds it took, when it ended.
    pub seconds: Option<f64>,
    /// Where it started (1-based).
    pub line: usize,
}

/// One core's `BirLinker` block.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkerBlock {
    /// The core (`(nc00/sgLnk)`).
    pub core: Option<u64>,
    /// `Num intermediates N`.
    pub intermediates: Option<u64>,
    /// `Num Module Definitions N`.
    pub definitions: Option<u64>,
    /// `moving sg0000 …` and its `Inp[k]`/`Out[k]` lines.
    pub moved: Vec<Moved>,
    /// `linking Done.` was seen.
    pub done: bool,
    /// Where its first line is (1-based).
    pub line: usize,
    /// Every `[BirLinker]` line of the core, in order: its line (1-based) and message
    /// (what `birlink explain --log LOG DUMPS…` holds against birlink's own
    /// `bir_linker.log`).
    pub messages: Vec<(usize, String)>,
    /// The core's `CoreForkPass` lines around it, line and message: `Inputs to
    /// bir_linker: …` and `Output has …` (compared too: the input determines them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub framing: Vec<(usize, String)>,
}

/// One subgraph moved in as a function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    /// `sg0000`.
    pub function: String,
    /// `Inp[k]` names, in order.
    pub inputs: Vec<String>,
    /// `Out[k]` names, in order.
    pub outputs: Vec<String>,
}

/// `[VncLink]: Found N remote updates`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VncLink {
    /// N.
    pub remote_updates: u64,
}

/// What failed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The pass that failed (`… failed after`), when the log says.
    pub pass: Option<String>,
    /// Its scope.
    pub scope: Option<String>,
    /// The compiler's code (`NCC_ILLC059`).
    pub code: Option<String>,
    /// The error's text, without the support-ticket tail.
    pub message: String,
    /// The assertion printed before it.
    pub assertion: Option<Assertion>,
    /// The names it mentions, with the core it says.
    pub names: Vec<Name>,
    /// The error line (1-based).
    pub line: usize,
    /// The last pass that passed on the failing scope's modules before the failing one
    /// started: the dump to print to see what it failed on
    /// (`--internal-print-after=PASS`; birlink's reading, log spec §3).
    pub dump_after: Option<String>,
    /// Whose failure it is: what the user acts on ([`FailureKind`]).
    pub kind: Option<FailureKind>,
    /// The Python traceback it ended in, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceback: Option<Traceback>,
}

/// Whose failure a compile's is, as the user must act on it (birlink's reading, log
/// spec §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// The compiler: an `NCC_I…` code or an assertion in a pass.
    Compiler,
    /// The user's model or flags: a documented `NCC_E…` code.
    Input,
    /// The host: disk full, out of memory, killed by a signal, a missing file or a
    /// permission; the fix is on the machine, not in the model.
    Environment,
    /// An internal error with no code (a traceback, an exit code alone).
    Internal,
}

/// A Python traceback, read whole.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Traceback {
    /// The exception line (`OSError: [Errno 28] No space left on device`).
    pub exception: String,
    /// Its last frame: where it was raised.
    pub frame: Option<Frame>,
    /// How many frames it has.
    pub frames: usize,
    /// Where it starts (1-based).
    pub line: usize,
    /// While reading: a frame was the last line, so its source line may come next.
    #[serde(skip)]
    source_next: bool,
}

/// One frame of a traceback (`File "F", line N, in FUNCTION`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Frame {
    /// The file.
    pub file: String,
    /// The line.
    pub line: u64,
    /// The function.
    pub function: String,
}

impl FailureKind {
    /// Whose failure it is and where the fix is, in words (the CLI's and the page's).
    pub fn words(self) -> &'static str {
        match self {
            FailureKind::Compiler => {
                "the compiler's failure (an NCC_I… code or an assertion in a pass): report it, or change the input around it"
            }
            FailureKind::Input => "the model's or the flags' (a documented NCC_E… code): the fix is in the model or the command",
            FailureKind::Environment => {
                "the machine's (disk, memory, a signal, a file or a permission): the fix is on the host, not in the model"
            }
            FailureKind::Internal => "an internal error with no code: the lines before it say where",
        }
    }

    /// What a failure's words say of whose it is: the host's words first (a full disk
    /// fails a pass too), then the code's letter (`NCC_E…` the user's, `NCC_I…` the
    /// compiler's), then an assertion; anything else is internal.
    pub fn of(code: Option<&str>, message: &str, assertion: bool, exit_code: Option<i64>) -> FailureKind {
        const HOST: &[&str] = &[
            "No space left on device",
            "Errno 28",
            "Disk quota exceeded",
            "Cannot allocate memory",
            "MemoryError",
            "std::bad_alloc",
            "Killed",
            "killed by signal",
            "SIGKILL",
            "No such file or directory",
            "FileNotFoundError",
            "Permission denied",
            "PermissionError",
            "Read-only file system",
        ];
        if HOST.iter().any(|words| message.contains(words)) || exit_code.is_some_and(|c| c == 137 || c < 0) {
            return FailureKind::Environment;
        }
        match code.map(|c| c.trim_start_matches("NCC_")) {
            Some(c) if c.starts_with('E') => FailureKind::Input,
            Some(_) => FailureKind::Compiler,
            None if assertion => FailureKind::Compiler,
            None => FailureKind::Internal,
        }
    }
}

/// `[…/file.cpp:78]: Assertion failure: text`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assertion {
    /// The source file as printed.
    pub file: String,
    /// Its line.
    pub line: u64,
    /// The condition.
    pub text: String,
}

/// A name a failure mentions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Name {
    /// The name.
    pub name: String,
    /// The core it is (or is missing) on.
    pub core: Option<u64>,
}

/// `Compilation status: Total subgraphs: 3, Passed: 3, Failed: 0`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Status {
    /// `subgraphs` or `modules` (what was counted).
    pub of: String,
    /// Total.
    pub total: u64,
    /// Passed.
    pub passed: u64,
    /// Failed.
    pub failed: u64,
    /// Where (1-based).
    pub line: usize,
}

/// What a run's processes are known as, while reading.
#[derive(Default)]
struct Roles {
    pipeline: Option<u64>,
    backend: Option<u64>,
    /// The backend's directory, as the pipeline announced it.
    vnc_cwd: Option<String>,
    /// The pipeline started a backend (`BackendDriver has …`).
    expects_backend: bool,
}

/// Reads a whole log.
pub fn read_log(text: &str) -> LogReading {
    let mut reader = Reader::default();
    for (number, line) in findings::logical_lines(text) {
        reader.line(number, &line);
    }
    reader.finish(text.lines().count())
}

/// A run's passes started and not ended: by (name, scope), their indices in `passes`.
type OpenPasses = BTreeMap<(String, Option<String>), Vec<usize>>;

#[derive(Default)]
struct Reader {
    runs: Vec<Run>,
    roles: Vec<Roles>,
    /// Which run each process belongs to.
    by_pid: BTreeMap<u64, usize>,
    /// The run of the last line with a process id.
    current: Option<usize>,
    /// Per run: the open passes by (name, scope) → index in `passes`.
    open: Vec<OpenPasses>,
    /// Per run: the assertion seen last, waiting for its error.
    assertion: Vec<Option<Assertion>>,
    /// Per run: the codegen opcode table being read.
    tables: Vec<Option<Table>>,
    /// Per run: the traceback being read.
    tracebacks: Vec<Option<Traceback>>,
    unknown: Unknown,
}

impl Reader {
    fn new_run(&mut self, number: usize) -> usize {
        self.runs.push(Run { first_line: number, ..Run::default() });
        self.roles.push(Roles::default());
        self.open.push(BTreeMap::new());
        self.assertion.push(None);
        self.tables.push(None);
        self.tracebacks.push(None);
        self.runs.len() - 1
    }

    /// The run a process belongs to, placing a process seen for the first time.
    fn run_of(&mut self, pid: u64, line: &Line<'_>, number: usize) -> usize {
        let is_driver = line.logger == Some("root") && is_compile_command(line.message);
        if let Some(&run) = self.by_pid.get(&pid) {
            if !is_driver {
                return run;
            }
            // A known process starting a compile: the same driver compiling again (or
            // its id reused). Its run is over; its processes are placed afresh.
            self.by_pid.retain(|_, r| *r != run);
        }
        let run = if is_driver {
            self.new_run(number)
        } else if line.logger == Some("root")
            || line.logger.is_some_and(|l| l.starts_with("pipeline") || l.starts_with("job."))
        {
            // A pipeline: the oldest run without one.
            match self.roles.iter().position(|r| r.pipeline.is_none()) {
                Some(run) => run,
                None => self.new_run(number),
            }
        } else {
            // A backend: the run whose pipeline named its directory, else the oldest
            // expecting one, else the current run.
            let cwd = backend_cwd(line.message);
            let by_cwd = cwd.and_then(|cwd| {
                self.roles.iter().position(|r| r.backend.is_none() && r.vnc_cwd.as_deref() == Some(cwd))
            });
            let expecting = || self.roles.iter().position(|r| r.expects_backend && r.backend.is_none());
            match by_cwd.or_else(expecting).or(self.current) {
                Some(run) => run,
                None => self.new_run(number),
            }
        };
        let roles = &mut self.roles[run];
        if !is_driver {
            if line.logger == Some("root")
                || line.logger.is_some_and(|l| l.starts_with("pipeline") || l.starts_with("job."))
            {
                roles.pipeline.get_or_insert(pid);
            } else {
                roles.backend.get_or_insert(pid);
            }
        }
        self.runs[run].pids.push(pid);
        self.by_pid.insert(pid, run);
        run
    }

    fn line(&mut self, number: usize, text: &str) {
        let line = line::parse(text);
        let run = match line.pid {
            Some(pid) => {
                let run = self.run_of(pid, &line, number);
                self.current = Some(run);
                run
            }
            None => match self.current {
                Some(run) => run,
                None => {
                    let run = self.new_run(number);
                    self.current = Some(run);
                    run
                }
            },
        };
        self.runs[run].last_line = number;
        if let Some(table) = self.tables[run] {
            match stats::table_line(table, text) {
                Some((next, row)) => {
                    self.tables[run] = Some(next);
                    if let Some(row) = row {
                        self.stats_row(run, next.stats(), row, number);
                    }
                    return;
                }
                None => self.tables[run] = None,
            }
        }
        if self.tracebacks[run].is_some() && self.traceback_line(run, line.message) {
            return;
        }
        if !self.known(run, number, &line, text) {
            self.unknown.count += 1;
            if self.unknown.first.len() < KEPT_UNKNOWN && !text.trim().is_empty() {
                let kept = clip(text);
                let cut = if kept.len() < text.len() { "…" } else { "" };
                self.unknown.first.push((number, format!("{kept}{cut}")));
            }
        }
    }

    /// A row of a scope's statistics; the core-barrier row is also the sync check's.
    fn stats_row(&mut self, run: usize, at: usize, row: Row, number: usize) {
        let stats = &mut self.runs[run].instruction_stats[at];
        let before = stats.core_barriers();
        stats.add(row);
        let barriers = stats.core_barriers();
        if barriers != before {
            let counted = &mut self.runs[run].barrier_counts[at];
            counted.count = barriers;
            counted.line = Some(number as u64);
        }
    }

    /// A line of a traceback being read (whether it was one): a frame, its source
    /// line, or the exception that ends it, which is the run's failure when it has none
    /// with a code.
    fn traceback_line(&mut self, run: usize, message: &str) -> bool {
        let Some(traceback) = self.tracebacks[run].as_mut() else { return false };
        if let Some(frame) = frame_of(message) {
            traceback.frames += 1;
            traceback.frame = Some(frame);
            traceback.source_next = true;
            return true;
        }
        let source_next = std::mem::take(&mut traceback.source_next);
        // Python 3.11's markers under a source line.
        if !message.is_empty() && message.chars().all(|c| matches!(c, '^' | '~' | ' ')) {
            return true;
        }
        // Right after a frame, only a named error ends it (else it is the frame's source).
        let ends = if source_next { is_exception(message) && named_error(message) } else { is_exception(message) };
        if traceback.frame.is_some() && ends {
            let mut traceback = self.tracebacks[run].take().unwrap_or_default();
            traceback.exception = clip(message);
            let failure = self.runs[run].failure.get_or_insert_with(Failure::default);
            if failure.code.is_none() {
                let at = traceback.frame.as_ref().map(|f| format!(" (in {}, {}:{})", f.function, f.file, f.line));
                failure.message = format!("{}{}", traceback.exception, at.unwrap_or_default());
                failure.line = traceback.line;
            }
            failure.traceback.get_or_insert(traceback);
            return true;
        }
        // A frame's source line (indented, after its frame), else the traceback is over.
        if traceback.frame.is_some() && !message.is_empty() {
            return true;
        }
        self.tracebacks[run] = None;
        false
    }

    /// Reads what the line says into its run; whether birlink knows the line.
    fn known(&mut self, run: usize, number: usize, line: &Line<'_>, text: &str) -> bool {
        let message = line.message;
        // Every place the compiler says its LNC (the backend's own line wins, below).
        if self.runs[run].lnc.is_none() {
            self.runs[run].lnc = lnc_flag(text);
        }
        if is_walrus_command(message) {
            self.runs[run].backend_flags.extend(flags_of(message));
            return true;
        }
        if message.ends_with("Traceback (most recent call last):") {
            self.tracebacks[run] = Some(Traceback { line: number, ..Traceback::default() });
            return true;
        }
        if let Some(assertion) = assertion_in(text) {
            self.assertion[run] = Some(assertion);
            return true;
        }
        if text.contains("[NCC_") || text.contains("Could not find MemoryLocation named") {
            self.error(run, number, text);
            return true;
        }
        if let Some(at) = message.find("NeuronX Compiler version ") {
            let version = message[at + "NeuronX Compiler version ".len()..].split_whitespace().next().unwrap_or("");
            self.runs[run].compiler.version.get_or_insert(version.to_owned());
            return true;
        }
        if line.logger == Some("root") && is_compile_command(message) {
            return true;
        }
        if let Some(code) = message.strip_prefix("Subcommand returned with exitcode=") {
            self.runs[run].exit_code = code.trim().parse().ok();
            return true;
        }
        if let Some(rest) = message.strip_prefix("BackendDriver has ") {
            // `BackendDriver has 6 states with 2 core LNC`
            self.roles[run].expects_backend = true;
            if let Some(lnc) =
                rest.split(" with ").nth(1).and_then(|r| r.split_whitespace().next()).and_then(|n| n.parse().ok())
            {
                self.runs[run].lnc = Some(lnc);
            }
            return true;
        }
        if let Some(cwd) = message.strip_prefix("BackendDriver VNC cwd: ") {
            self.roles[run].vnc_cwd = Some(cwd.trim().to_owned());
            return true;
        }
        if message.contains("using VNC + MT modular flow") {
            self.runs[run].flow = Some(Flow::Modular);
            return true;
        }
        if message.contains("Switching to VNC + flat flow") {
            self.runs[run].flow = Some(Flow::Flat);
            return true;
        }
        if let Some(file) = message.strip_prefix("Loading module from ") {
            let file = file.trim().to_owned();
            let said = Place::of_path(&file);
            let (core, subgraph) = (said.core_number(), said.subgraph().map(u64::from));
            self.runs[run].modules.push(LoadedModule { core, subgraph, file });
            return true;
        }
        if let Some((core, scope)) = stats::stats_scope(line.scope, line.logger, message) {
            let module = scope.to_owned();
            self.runs[run].barrier_counts.push(BarrierCount { core, scope: module.clone(), count: 0, line: None });
            let stats = InstructionStats { core, module, line: number, ..InstructionStats::default() };
            self.runs[run].instruction_stats.push(stats);
            self.tables[run] = Some(Table::Awaiting(self.runs[run].instruction_stats.len() - 1));
            return true;
        }
        // The scope's other tables, and descriptors said a queue per line.
        if let Some(at) =
            line.scope.and_then(|scope| self.runs[run].instruction_stats.iter().rposition(|s| s.module == scope))
        {
            if stats::more_stats(line.logger, message) {
                self.tables[run] = Some(Table::Awaiting(at));
                return true;
            }
            if let Some((queue, count)) = stats::descriptors_line(line.logger, message) {
                self.stats_row(run, at, Row { kind: Kind::Queues, label: queue, count }, number);
                return true;
            }
        }
        if let Some(status) = status_of(message, number) {
            self.runs[run].status.push(status);
            return true;
        }
        if line.logger == Some("VncLink") {
            self.runs[run].vnc_lines.push((number, clip(message)));
            if let Some(n) = message.strip_prefix("Found ").and_then(|r| r.strip_suffix(" remote updates")) {
                if let Ok(remote_updates) = n.trim().parse() {
                    self.runs[run].vnc_link = Some(VncLink { remote_updates });
                    return true;
                }
            }
        }
        if line.logger == Some("BirLinker") {
            return self.linker(run, number, line);
        }
        if is_pass_logger(line.logger) {
            return self.pass(run, number, line);
        }
        false
    }

    fn pass(&mut self, run: usize, number: usize, line: &Line<'_>) -> bool {
        let scope = line.scope.map(str::to_owned);
        let message = line.message;
        // The VNC passes' lines, and the lines around a core's bir_linker: held against
        // birlink's own.
        let vnc = |m: &str| {
            m.strip_prefix("Running ").or_else(|| m.strip_prefix("Inputs to ")).is_some_and(|r| r.starts_with("vnc_"))
        };
        if scope.is_none() && line.logger == Some("BackendPassManager") && vnc(message) {
            self.runs[run].vnc_lines.push((number, clip(message)));
        }
        if let Some(core) = scope.as_deref().and_then(|s| place_of(s).0).filter(|_| line.logger == Some("CoreForkPass"))
        {
            let linking =
                self.open[run].get(&("bir_linker".to_owned(), scope.clone())).is_some_and(|open| !open.is_empty());
            if linking && (message.starts_with("Inputs to bir_linker") || message.starts_with("Output has ")) {
                let index = self.linker_block(run, Some(core), number);
                self.runs[run].bir_linker[index].framing.push((number, clip(message)));
            }
        }
        if let Some(name) = message.strip_prefix("Running ") {
            let name = name.trim().to_owned();
            let passes = &mut self.runs[run].passes;
            self.open[run].entry((name.clone(), scope.clone())).or_default().push(passes.len());
            let lane = Lane::of(scope.as_deref());
            passes.push(PassRun { name, scope, lane, status: RunStatus::Started, seconds: None, line: number });
            return true;
        }
        for (marker, status) in [(" finished after ", RunStatus::Passed), (" failed after ", RunStatus::Failed)] {
            if let Some(at) = message.find(marker) {
                let name = message[..at].trim().to_owned();
                let seconds = message[at + marker.len()..].split_whitespace().next().and_then(|s| s.parse().ok());
                let open = self.open[run].get_mut(&(name.clone(), scope.clone())).and_then(|list| list.pop());
                if let Some(index) = open {
                    let pass = &mut self.runs[run].passes[index];
                    pass.status = status;
                    pass.seconds = seconds;
                }
                if status == RunStatus::Failed {
                    let failure = self.runs[run].failure.get_or_insert_with(Failure::default);
                    if failure.pass.is_none() {
                        failure.pass = Some(name);
                        failure.scope = scope;
                    }
                    if failure.line == 0 {
                        failure.line = number;
                    }
                }
                return true;
            }
        }
        message.starts_with("Inputs to ") || message.starts_with("Output has ") || message.starts_with("curr_vmrss")
    }

    /// The index of a core's `BirLinker` block, made at `number` when it is the first.
    fn linker_block(&mut self, run: usize, core: Option<u64>, number: usize) -> usize {
        let blocks = &mut self.runs[run].bir_linker;
        match blocks.iter().position(|b| b.core == core) {
            Some(index) => index,
            None => {
                blocks.push(LinkerBlock { core, line: number, ..LinkerBlock::default() });
                blocks.len() - 1
            }
        }
    }

    fn linker(&mut self, run: usize, number: usize, line: &Line<'_>) -> bool {
        let core = line.scope.and_then(|s| place_of(s).0);
        let index = self.linker_block(run, core, number);
        let block = &mut self.runs[run].bir_linker[index];
        // Its line is its first `[BirLinker]` line's (not the framing's before it).
        if block.messages.is_empty() {
            block.line = number;
        }
        let message = line.message;
        block.messages.push((number, clip(message)));
        if let Some(n) = message.strip_prefix("Num intermediates ") {
            block.intermediates = n.trim().parse().ok();
        } else if let Some(n) = message.strip_prefix("Num Module Definitions ") {
            block.definitions = n.trim().parse().ok();
        } else if let Some(rest) = message.strip_prefix("moving ") {
            let function = rest.split_whitespace().next().unwrap_or("");
            if rest.contains("Module.getUniqueId") && !block.moved.iter().any(|m| m.function == function) {
                block.moved.push(Moved { function: function.to_owned(), ..Moved::default() });
            }
        } else if let Some((kind, name)) = indexed_name(message) {
            if let Some(moved) = block.moved.last_mut() {
                match kind {
                    "Inp" => moved.inputs.push(name.to_owned()),
                    _ => moved.outputs.push(name.to_owned()),
                }
            }
        } else if message == "linking Done." {
            block.done = true;
        }
        true
    }

    fn error(&mut self, run: usize, number: usize, text: &str) {
        let Some(finding) = recognise(number, text.trim().to_owned()).or_else(|| {
            // An NCC code birlink has no shape for: its code and text.
            let code = ncc_code(text)?;
            Some(findings::Finding { line: number, text: text.to_owned(), code, known: None, mentions: Vec::new() })
        }) else {
            return;
        };
        let code = ncc_code(text).unwrap_or_else(|| finding.code.clone());
        let message = error_message(text, &code);
        let failure = self.runs[run].failure.get_or_insert_with(Failure::default);
        if let Some(known) = &failure.code {
            // The driver echoing the error it was handed: the same failure.
            if *known == code {
                return;
            }
            // A second, different error: the first stays the failure.
            return;
        }
        failure.code = Some(code);
        failure.message = message;
        failure.line = number;
        failure.names = finding.mentions.iter().map(|m| Name { name: m.name.clone(), core: m.core }).collect();
        if failure.assertion.is_none() {
            failure.assertion = self.assertion[run].take();
        }
    }

    fn finish(mut self, lines: usize) -> LogReading {
        // A pass still open at the end of a run whose failure names no pass: the pass
        // it failed in, when only one is open (a log cut after the error).
        for run in &mut self.runs {
            if let Some(failure) = &mut run.failure {
                if failure.pass.is_none() {
                    let mut started = run.passes.iter().filter(|p| p.status == RunStatus::Started);
                    if let (Some(pass), None) = (started.next(), started.next()) {
                        failure.pass = Some(pass.name.clone());
                        failure.scope = pass.scope.clone();
                    }
                }
            }
        }
        for run in &mut self.runs {
            // A compile that exited non-zero and said nothing birlink knows still failed.
            if run.failure.is_none() {
                if let Some(code) = run.exit_code.filter(|&c| c != 0) {
                    let line = run.last_line;
                    run.failure = Some(Failure {
                        message: format!("the compiler exited with code {code}"),
                        line,
                        ..Failure::default()
                    });
                }
            }
            let dump_after = run.failure.as_ref().and_then(|f| dump_after(&run.passes, f));
            let exit_code = run.exit_code;
            if let Some(failure) = &mut run.failure {
                failure.dump_after = dump_after;
                let words = match &failure.traceback {
                    Some(traceback) => format!("{} {}", failure.message, traceback.exception),
                    None => failure.message.clone(),
                };
                failure.kind =
                    Some(FailureKind::of(failure.code.as_deref(), &words, failure.assertion.is_some(), exit_code));
            }
            // Last, the modules' folders: `nc01/sg00` is a second core.
            if run.lnc.is_none() {
                run.lnc = run.modules.iter().filter_map(|m| m.core).max().map(|c| c + 1);
            }
        }
        let chosen = self.runs.iter().position(|r| r.failure.is_some()).or(self.runs.len().checked_sub(1));
        let run = chosen.map(|i| self.runs[i].clone()).unwrap_or_default();
        let sync = barriers::sync_of(run.barrier_counts.clone());
        LogReading { run, run_index: chosen, runs: self.runs, lines, unknown: self.unknown, sync }
    }
}

/// The last pass that passed on the modules a failing pass ran on, before it started: a
/// pass on the same scope, on one of its modules, or on a scope holding them (a module
/// `nc00/sg01` is in subgraph `sg01` and core `nc00`). A failure on all modules takes
/// the last pass that passed anywhere.
fn dump_after(passes: &[PassRun], failure: &Failure) -> Option<String> {
    let name = failure.pass.as_deref()?;
    let failing =
        passes.iter().rposition(|p| p.name == name && p.scope == failure.scope && p.status != RunStatus::Passed)?;
    let (core, subgraph) = failure.scope.as_deref().map_or((None, None), place_of);
    let overlaps = |scope: Option<&str>| -> bool {
        let Some(failing) = failure.scope.as_deref() else { return true };
        let Some(scope) = scope else { return false };
        let (c, s) = place_of(scope);
        let agree = |a: Option<u64>, b: Option<u64>| a.is_none() || b.is_none() || a == b;
        scope == failing || (agree(c, core) && agree(s, subgraph) && (c.is_some() || s.is_some()))
    };
    passes[..failing]
        .iter()
        .rev()
        .find(|p| p.status == RunStatus::Passed && overlaps(p.scope.as_deref()))
        .map(|p| p.name.clone())
}

fn is_pass_logger(logger: Option<&str>) -> bool {
    matches!(logger, Some("ModuleForkPass" | "SubgraphForkPass" | "CoreForkPass" | "BackendPassManager"))
}

fn is_compile_command(message: &str) -> bool {
    message.contains("neuronx-cc compile") || message.contains("neuron-cc compile")
}

fn flag_value(message: &str, flag: &str) -> Option<u64> {
    let at = message.find(flag)? + flag.len();
    message[at..].split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The LNC a line's flags say: the driver's and hlo2penguin's `--logical-nc-config`,
/// `--lnc`, the walrus driver's `--vnc-nc-per-sengine` (each `=N` or ` N`).
fn lnc_flag(text: &str) -> Option<u64> {
    ["--logical-nc-config", "--lnc", "--vnc-nc-per-sengine"].iter().find_map(|flag| {
        [format!("{flag}="), format!("{flag} ")].iter().find_map(|spelled| {
            // A flag's name, not a longer one's prefix (`--lnc` in `--lnc-foo`).
            flag_value(text, spelled).filter(|&n| n > 0)
        })
    })
}

/// The walrus driver's command line: it names the driver, or links subgraphs.
fn is_walrus_command(message: &str) -> bool {
    (message.contains("walrus_driver") || message.contains("walrus-driver") || message.contains("--link-subgraphs"))
        && message.contains(" --")
}

/// A command line's flags: `--name=value`, `--name value`, or `--name` alone (`true`).
fn flags_of(command: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let mut flags = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let Some(flag) = word.strip_prefix("--") else { continue };
        match flag.split_once('=') {
            Some((name, value)) => flags.push((name.to_owned(), value.to_owned())),
            None => {
                let value = words.get(at + 1).filter(|next| !next.starts_with("--")).copied().unwrap_or("true");
                flags.push((flag.to_owned(), value.to_owned()));
            }
        }
    }
    flags
}

/// `File "F", line N, in FUNCTION`: a traceback's frame.
fn frame_of(message: &str) -> Option<Frame> {
    let rest = message.trim_start().strip_prefix("File \"")?;
    let (file, rest) = rest.split_once('"')?;
    let rest = rest.trim_start().strip_prefix(", line ")?;
    let (line, rest) = rest.split_once(',').unwrap_or((rest, ""));
    let function = rest.trim().strip_prefix("in ").unwrap_or("").trim().to_owned();
    Some(Frame { file: file.to_owned(), line: line.trim().parse().ok()?, function })
}

/// An exception line whose class is named as one (`…Error`, `…Exception`, …).
fn named_error(message: &str) -> bool {
    let name = message.split(':').next().unwrap_or("");
    ["Error", "Exception", "Exit", "Interrupt"].iter().any(|end| name.ends_with(end))
}

/// A traceback's last line: `Name: text` or `Name` where the name is a Python class
/// (dotted), flush left.
fn is_exception(message: &str) -> bool {
    let name = message.split(':').next().unwrap_or("");
    !message.starts_with(' ')
        && !name.is_empty()
        && name.chars().next().is_some_and(|c| c.is_ascii_uppercase() || c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && (name.ends_with("Error")
            || name.ends_with("Exception")
            || name.ends_with("Exit")
            || name.ends_with("Interrupt")
            || message.contains(": "))
}

fn backend_cwd(message: &str) -> Option<&str> {
    let at = message.find("Cwd: \"")? + "Cwd: \"".len();
    let end = message[at..].find('"')?;
    Some(&message[at..at + end])
}

/// A scope's core and subgraph: `nc00/sg01` → (0, 1); `sg02` → (None, 2); `nc01/sgLnk`
/// → (1, None).
fn place_of(scope: &str) -> (Option<u64>, Option<u64>) {
    let scope = Scope::parse(scope);
    (scope.and_then(Scope::core).map(|c| c.0), scope.and_then(Scope::subgraph).map(|s| u64::from(s.0)))
}

/// A line's first [`KEPT_CHARS`] characters.
fn clip(text: &str) -> String {
    text.chars().take(KEPT_CHARS).collect()
}

/// `Inp[0] input0` → ("Inp", "input0").
fn indexed_name(message: &str) -> Option<(&str, &str)> {
    let (kind, rest) = message.split_once('[')?;
    if kind != "Inp" && kind != "Out" {
        return None;
    }
    let (index, name) = rest.split_once(']')?;
    index.parse::<u64>().ok()?;
    Some((kind, name.trim()))
}

fn status_of(message: &str, line: usize) -> Option<Status> {
    let rest = &message[message.find("Compilation status: Total ")? + "Compilation status: Total ".len()..];
    let (of, rest) = rest.split_once(':')?;
    let number = |key: &str| -> Option<u64> {
        let at = rest.find(key)? + key.len();
        rest[at..].trim_start().split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    let total = rest.trim_start().split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    Some(Status { of: of.trim().to_owned(), total, passed: number("Passed:")?, failed: number("Failed:")?, line })
}

/// `NCC_ILLC059` in a line.
fn ncc_code(text: &str) -> Option<String> {
    let at = text.find("NCC_")?;
    let code: String = text[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (code.len() > 4).then_some(code)
}

/// The error's own words: after its code's bracket (and any `[INTERNAL_ERROR]`), without
/// the support-ticket tail.
fn error_message(text: &str, code: &str) -> String {
    let after = match text.find(&format!("[{code}]")) {
        Some(at) => &text[at + code.len() + 2..],
        None => text.find(code).map_or(text, |at| &text[at + code.len()..]),
    };
    let after = after.trim_start_matches([':', ']', ' ']);
    let end = after.find(" - Please open a support ticket").unwrap_or(after.len());
    after[..end].trim().to_owned()
}

/// `[…/lower_local_collectives.cpp:78]: Assertion failure: memlocOnOtherCore != nullptr`.
fn assertion_in(text: &str) -> Option<Assertion> {
    let at = text.find("Assertion failure:")?;
    let condition = text[at + "Assertion failure:".len()..].trim().to_owned();
    let before = text[..at].trim_end().trim_end_matches(':').trim_end().trim_end_matches(']');
    let token = before.rsplit([' ', '[', '(']).next().unwrap_or("");
    let (file, line) = token.rsplit_once(':')?;
    let line = line.parse().ok()?;
    let is_source = [".cpp", ".cc", ".c", ".h", ".hpp", ".cxx"].iter().any(|ext| file.ends_with(ext));
    is_source.then(|| Assertion { file: file.to_owned(), line, text: condition })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_fall_in_lanes() {
        assert_eq!(Lane::of(None), Lane::All);
        assert_eq!(Lane::of(Some("nc00")), Lane::Core);
        assert_eq!(Lane::of(Some("sg02")), Lane::Subgraph);
        assert_eq!(Lane::of(Some("nc01/sg00")), Lane::Module);
        assert_eq!(Lane::of(Some("nc00/sgLnk")), Lane::Module);
        assert_eq!(serde_json::to_string(&Lane::Subgraph).unwrap_or_default(), "\"subgraph\"");
        assert_eq!(serde_json::to_string(&RunStatus::Started).unwrap_or_default(), "\"started\"");
    }

    #[test]
    fn an_assertion_and_an_error_come_apart() {
        let a = assertion_in("[/opt/walrus/lower_local_collectives/src/lower_local_collectives.cpp:78]: Assertion failure: memlocOnOtherCore != nullptr").unwrap();
        assert_eq!(
            (a.file.as_str(), a.line, a.text.as_str()),
            ("/opt/walrus/lower_local_collectives/src/lower_local_collectives.cpp", 78, "memlocOnOtherCore != nullptr")
        );
        let text = "2026-03-02T10:00:01Z ERROR 4242 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named x on core 1 - Please open a support ticket at https://example";
        assert_eq!(ncc_code(text).as_deref(), Some("NCC_ILLC059"));
        assert_eq!(error_message(text, "NCC_ILLC059"), "Could not find MemoryLocation named x on core 1");
        let s = status_of("Compilation status: Total subgraphs: 1, Passed: 0, Failed: 1", 9).unwrap();
        assert_eq!((s.of.as_str(), s.total, s.passed, s.failed), ("subgraphs", 1, 0, 1));
    }
}
