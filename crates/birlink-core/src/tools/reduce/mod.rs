//! Reduction: a failing link set shrunk to a small bundle that fails the same way —
//! the same error code in the same pass, about the same things — as llvm-reduce and
//! C-Reduce do for programs.
//!
//! The link set becomes one bundle (`share::bundle`), with the LNC and the flow of the
//! original run recorded in `options.lnc` and `options.flow`. Then delta debugging runs level by level, largest pieces
//! first: cores (modules), functions, queues, blocks, queue instances, allocations,
//! memory locations, instructions, DMA blocks, then every object key, then — unless
//! names are kept — names, each shortened (`m3`) everywhere it appears at once, so a
//! repro leaks less of a model (never a name the kept diagnostic quotes). Each level
//! first tries removing everything, then sweeps chunks of half, a quarter, … down to
//! single pieces (a removed chunk does not restart the sweep, which keeps a level near
//! one test per chunk, as llvm-reduce does).
//!
//! A candidate is kept when it reports the target's code in its pass (as its first
//! error, when the first error is what is kept) and the message still names what the
//! original's named (`c_partial_0`, or its short name): a repro of one missing buffer
//! does not turn into a repro of another. Every test runs the real pipeline
//! in-process. Rounds repeat until one removes nothing and a new reduction of the
//! result would keep the same diagnostic, so the result is a fixed point: reducing it
//! again changes nothing.
//!
//! A [`Reduction`] runs one test per [`Reduction::step`], so a caller can show
//! progress and stop between tests (the page's worker does, for Cancel); [`reduce`]
//! runs one to the end. Deterministic: no clock, no randomness, the same steps in the
//! same order.
//!
//! A single file that cannot become a bundle is reduced as the JSON document it is,
//! or, when it is not JSON, by its lines ([`Form`]).

mod edit;
mod level;

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::Severity;
use crate::model::flow::Flow;
use crate::model::pass::Pass;
use crate::passes::{run, LinkOptions};
use crate::read::input::SourceFile;
use crate::tools::share::bundle::to_bundle;
use crate::tools::share::{LinkSetData, SharedFile};

use edit::{instructions_in, Edit, EditSet, Seg};
pub use level::Level;

/// What to reduce toward.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReduceOptions {
    /// The LNC, as `--lnc` (else the link set's own).
    pub lnc: Option<u64>,
    /// Keep this code (in its pass) rather than the first error; any severity.
    pub code: Option<Code>,
    /// Keep every name as it is.
    pub keep_names: bool,
    /// Refuse a link set larger than this (the browser's bound: a reduction holds the
    /// link set as a tree and runs the whole link once per test).
    pub max_input_bytes: Option<u64>,
}

/// Why a link set cannot be reduced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReduceError {
    /// It does not fail (or does not report the code asked for): nothing to keep.
    NotFailing(String),
    /// It cannot be made into something to reduce.
    Input(String),
    /// It is larger than this build reduces (BL0010).
    TooLarge {
        /// Its size.
        bytes: u64,
        /// The bound.
        max: u64,
    },
}

impl std::fmt::Display for ReduceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReduceError::NotFailing(why) | ReduceError::Input(why) => f.write_str(why),
            ReduceError::TooLarge { bytes, max } => write!(
                f,
                "{}: the link set is {}; the page reduces at most {} (each test runs the whole link): run `birlink reduce --out repro.json FILES…`, which has no such limit",
                Code::InputTooLarge,
                crate::english::human_bytes(*bytes),
                crate::english::human_bytes(*max)
            ),
        }
    }
}

/// What the reduction keeps: a diagnostic of this code from this pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The code.
    pub code: Code,
    /// The pass that reports it.
    pub pass: Pass,
    /// Whether it must be the run's first error (the default), or only be reported.
    pub first_error: bool,
}

/// How far a reduction is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReduceProgress {
    /// The level being reduced (`None` once done).
    pub level: Option<Level>,
    /// Tests run so far.
    pub tests: usize,
    /// The current candidate's size in bytes (compact JSON).
    pub bytes: usize,
    /// Its instructions.
    pub instructions: usize,
    /// The round (every level once per round).
    pub round: usize,
}

/// The result of a reduction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduced {
    /// The reduced link set, as one file (see `form`).
    pub contents: Vec<u8>,
    /// What `contents` is.
    pub form: Form,
    /// What was kept.
    pub target: Target,
    /// Tests run.
    pub tests: usize,
    /// Sizes in bytes: the input files together, then `contents`.
    pub bytes: (usize, usize),
    /// Instructions before and after.
    pub instructions: (usize, usize),
}

/// What a reduced link set is, as a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A bundle (pretty JSON) with the LNC in `options.lnc`: the usual result.
    Bundle,
    /// A single JSON file that is no bundle and cannot become one (its failure is that
    /// it is not a module), reduced as a JSON document.
    Document,
    /// A single file that is not JSON, reduced by lines and kept byte for byte: its
    /// failure may be in those bytes.
    Lines,
}

impl Form {
    /// The file name a reduced link set of this form gets.
    pub fn file_name(self) -> &'static str {
        match self {
            Form::Bundle | Form::Document => "reduced.json",
            Form::Lines => "reduced.txt",
        }
    }
}

/// What is being reduced.
enum Subject {
    /// A bundle.
    Bundle(Value),
    /// One file's lines, as bytes (a file that is not UTF-8 keeps its bad bytes).
    Lines { name: String, lines: Vec<Vec<u8>> },
}

/// A reduction under way, one test per step.
pub struct Reduction {
    subject: Subject,
    form: Form,
    target: Target,
    /// The names (in backticks) of the kept diagnostic's message that are strings of
    /// the subject, as they are now: the reduced set must report the same things, so
    /// a repro of `x` is not turned into one of `y`.
    names: Vec<String>,
    keep_names: bool,
    lnc: Option<u64>,
    /// The flow every test links in (the original run's).
    flow: Option<Flow>,
    /// The level (`None` once done), the round, and whether this round removed anything.
    level: Option<Level>,
    round: usize,
    changed: bool,
    /// The level's candidates and those still present; the chunk size of the sweep
    /// and where in `alive` it is; whether removing all at once was tried.
    edits: Vec<Edit>,
    alive: Vec<usize>,
    size: usize,
    pos: usize,
    started: bool,
    tests: usize,
    done: bool,
    before: (usize, usize),
    /// The current candidate's size (compact JSON) and instructions, kept as tests
    /// are accepted: progress never writes the bundle to count them.
    now: (usize, usize),
}

/// The first error of a run of these files, or `code`'s diagnostic, with its message
/// and the LNC and flow the run used.
fn target_of(
    sources: Vec<SourceFile>,
    options: &LinkOptions,
    code: Option<Code>,
) -> Result<(Target, String, (u64, Flow)), ReduceError> {
    let outcome = run(sources, options);
    let diagnostics = &outcome.report.diagnostics;
    let lnc = (outcome.report.options.lnc, outcome.report.options.flow);
    match code {
        Some(code) => diagnostics
            .iter()
            .find(|d| d.code == code)
            .map(|d| (Target { code, pass: d.pass, first_error: false }, d.message.clone(), lnc))
            .ok_or_else(|| ReduceError::NotFailing(format!("the link set does not report {code}: nothing to keep"))),
        None => diagnostics
            .iter()
            .find(|d| d.severity == Severity::Error)
            .map(|d| (Target { code: d.code, pass: d.pass, first_error: true }, d.message.clone(), lnc))
            .ok_or_else(|| {
                ReduceError::NotFailing(
                    "the link set does not fail (no error diagnostic): nothing to reduce; `--code` keeps a warning"
                        .to_owned(),
                )
            }),
    }
}

impl Reduction {
    /// Starts reducing a link set's files.
    pub fn new(set: &LinkSetData, options: &ReduceOptions) -> Result<Reduction, ReduceError> {
        let bytes: u64 = set.files.iter().map(|f| f.bytes.len() as u64).sum();
        if let Some(max) = options.max_input_bytes.filter(|max| bytes > *max) {
            return Err(ReduceError::TooLarge { bytes, max });
        }
        let sources: Vec<SourceFile> = set
            .files
            .iter()
            .map(|f| SourceFile {
                path: f.name.clone(),
                content: crate::read::input::Content::Bytes(f.bytes.clone()),
                role: crate::read::input::Role::Auto,
            })
            .collect();
        let lnc = options.lnc.or(set.lnc);
        let link_options = LinkOptions { lnc, flow: set.flow, ..LinkOptions::default() };
        let (target, message, (run_lnc, run_flow)) = target_of(sources, &link_options, options.code)?;
        // The bundle keeps the LNC and the flow the set failed under: a candidate with
        // fewer subgraphs must not be linked another way.
        let bundled = LinkSetData { files: set.files.clone(), lnc: Some(run_lnc), flow: Some(run_flow) };
        let (subject, form) = match to_bundle(&bundled) {
            Ok(text) => (
                Subject::Bundle(
                    serde_json::from_str(&text)
                        .map_err(|e| ReduceError::Input(format!("the bundle does not read back: {e}")))?,
                ),
                Form::Bundle,
            ),
            Err(why) => match set.files.as_slice() {
                [file] => match serde_json::from_slice::<Value>(&file.bytes) {
                    Ok(value) => (Subject::Bundle(value), Form::Document),
                    Err(_) => {
                        (Subject::Lines { name: file.name.clone(), lines: split_lines(&file.bytes) }, Form::Lines)
                    }
                },
                _ => return Err(ReduceError::Input(format!("{why}; a file that is not a module is reduced alone"))),
            },
        };
        let mut reduction = Reduction {
            subject,
            form,
            target,
            names: Vec::new(),
            keep_names: options.keep_names,
            lnc: if matches!(set.files.as_slice(), [_]) { lnc } else { None },
            flow: Some(run_flow),
            level: Some(Level::Cores),
            round: 1,
            changed: false,
            edits: Vec::new(),
            alive: Vec::new(),
            size: 1,
            pos: 0,
            started: false,
            tests: 0,
            done: false,
            before: (0, 0),
            now: (0, 0),
        };
        reduction.names = names_in(&message, &reduction.subject);
        // The bundle must fail as the files did; if not (a read error that a bundle
        // does not have), reduce the one file as the JSON it is, else by its lines.
        if !reduction.test(&[]) {
            let [file] = set.files.as_slice() else {
                return Err(ReduceError::Input(format!(
                    "as one bundle the link set no longer fails with {} in `{}`: reduce its files one by one",
                    target.code, target.pass
                )));
            };
            if reduction.form == Form::Bundle {
                if let Ok(value) = serde_json::from_slice::<Value>(&file.bytes) {
                    reduction.subject = Subject::Bundle(value);
                    reduction.form = Form::Document;
                    reduction.names = names_in(&message, &reduction.subject);
                }
            }
            if !reduction.test(&[]) {
                reduction.subject = Subject::Lines { name: file.name.clone(), lines: split_lines(&file.bytes) };
                reduction.form = Form::Lines;
                reduction.names = Vec::new();
            }
            if !reduction.test(&[]) {
                return Err(ReduceError::Input(format!(
                    "the file no longer fails with {} in `{}` when read again",
                    target.code, target.pass
                )));
            }
        }
        let input_bytes = set.files.iter().map(|f| f.bytes.len()).sum();
        reduction.before = (input_bytes, reduction.current_instructions());
        reduction.now = (reduction.materialize(&[]).0.len(), reduction.before.1);
        reduction.start_level();
        Ok(reduction)
    }

    /// What is kept.
    pub fn target(&self) -> Target {
        self.target
    }

    fn current_instructions(&self) -> usize {
        match &self.subject {
            Subject::Bundle(bundle) => instructions_in(bundle),
            Subject::Lines { lines, .. } => lines.iter().filter(|l| l.windows(8).any(|w| w == b"\"opcode\"")).count(),
        }
    }

    /// How far it is.
    pub fn progress(&self) -> ReduceProgress {
        ReduceProgress {
            level: self.level,
            tests: self.tests,
            bytes: self.now.0,
            instructions: self.now.1,
            round: self.round,
        }
    }

    /// Whether it is finished.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The candidate with `removed` edits applied, as the bytes a run reads, and its
    /// instructions: written from the subject with the edits skipped, never a copy of it.
    fn materialize(&self, removed: &[usize]) -> (Vec<u8>, usize) {
        match &self.subject {
            Subject::Bundle(bundle) => EditSet::of(removed.iter().map(|&i| &self.edits[i])).write(bundle),
            Subject::Lines { lines, .. } => {
                let gone = self.removed_lines(removed);
                let mut bytes = Vec::new();
                let mut count = 0;
                for (_, line) in lines.iter().enumerate().filter(|(i, _)| !gone.contains(i)) {
                    bytes.extend_from_slice(line);
                    bytes.push(b'\n');
                    count += usize::from(line.windows(8).any(|w| w == b"\"opcode\""));
                }
                (bytes, count)
            }
        }
    }

    /// The lines `removed` edits take away (a file reduced by its lines).
    fn removed_lines(&self, removed: &[usize]) -> std::collections::BTreeSet<usize> {
        removed
            .iter()
            .filter_map(|&i| match &self.edits[i] {
                Edit::Remove(path) => match path.as_slice() {
                    [Seg::Index(line)] => Some(*line),
                    _ => None,
                },
                Edit::Rename { .. } => None,
            })
            .collect()
    }

    /// Whether the candidate with `removed` edits applied fails the same way, about the
    /// same names (renamed as the candidate renames them).
    fn test(&mut self, removed: &[usize]) -> bool {
        let renames: std::collections::HashMap<&str, &str> = removed
            .iter()
            .filter_map(|&i| match &self.edits[i] {
                Edit::Rename { from, to } => Some((from.as_str(), to.as_str())),
                Edit::Remove(_) => None,
            })
            .collect();
        let names: Vec<String> = self
            .names
            .iter()
            .map(|name| format!("`{}`", renames.get(name.as_str()).copied().unwrap_or(name)))
            .collect();
        let (bytes, instructions) = self.materialize(removed);
        let kept = self.interesting(&bytes, &names);
        if kept {
            self.now = (bytes.len(), instructions);
        }
        kept
    }

    /// Whether a candidate fails the same way: the target's code in its pass (the first
    /// error, when that is what is kept) with a message naming `names`.
    fn interesting(&self, bytes: &[u8], names: &[String]) -> bool {
        let name = match &self.subject {
            Subject::Bundle(_) => "linkset.json".to_owned(),
            Subject::Lines { name, .. } => name.clone(),
        };
        let options = LinkOptions { lnc: self.lnc, flow: self.flow, ..LinkOptions::default() };
        let source = SourceFile {
            path: name,
            content: crate::read::input::Content::Bytes(bytes.to_vec()),
            role: crate::read::input::Role::Auto,
        };
        let outcome = run(vec![source], &options);
        let diagnostics = &outcome.report.diagnostics;
        let same = |d: &&crate::diag::Diagnostic| {
            d.code == self.target.code && d.pass == self.target.pass && names.iter().all(|n| d.message.contains(n))
        };
        if self.target.first_error {
            diagnostics.iter().find(|d| d.severity == Severity::Error).is_some_and(|d| same(&d))
        } else {
            diagnostics.iter().any(|d| same(&d))
        }
    }

    /// The names of the diagnostic a new reduction of the current set would keep (the
    /// first error, or the first of the code): `None` when it is not there at all.
    fn chosen_names(&self) -> Option<Vec<String>> {
        let (name, lnc) = match &self.subject {
            Subject::Bundle(_) => ("linkset.json".to_owned(), self.lnc),
            Subject::Lines { name, .. } => (name.clone(), self.lnc),
        };
        let source = SourceFile {
            path: name,
            content: crate::read::input::Content::Bytes(self.materialize(&[]).0),
            role: crate::read::input::Role::Auto,
        };
        let outcome = run(vec![source], &LinkOptions { lnc, flow: self.flow, ..LinkOptions::default() });
        let diagnostics = &outcome.report.diagnostics;
        let chosen = if self.target.first_error {
            diagnostics.iter().find(|d| d.severity == Severity::Error)
        } else {
            diagnostics.iter().find(|d| d.code == self.target.code)
        };
        chosen.map(|d| names_in(&d.message, &self.subject))
    }

    /// Collects the current level's candidates.
    fn start_level(&mut self) {
        self.edits = match (&self.subject, self.level) {
            (Subject::Bundle(bundle), Some(level)) => level.candidates(bundle, self.keep_names),
            (Subject::Lines { lines, .. }, Some(Level::Cores)) => {
                (0..lines.len()).map(|i| Edit::Remove(vec![Seg::Index(i)])).collect()
            }
            _ => Vec::new(),
        };
        // The names the kept diagnostic quotes stay as the compiler's log has them: the
        // repro reads as the failure the user has, and they are in that line already.
        let quoted = &self.names;
        self.edits.retain(|edit| !matches!(edit, Edit::Rename { from, .. } if quoted.contains(from)));
        self.alive = (0..self.edits.len()).collect();
        self.size = self.alive.len().div_ceil(2);
        self.pos = 0;
        self.started = false;
    }

    /// Commits what the level removed and moves on (a new round, or done).
    fn finish_level(&mut self) {
        let removed: Vec<usize> = {
            let alive = self.alive_mask();
            (0..self.edits.len()).filter(|&i| !alive[i]).collect()
        };
        if !removed.is_empty() {
            self.changed = true;
            for &i in &removed {
                if let Edit::Rename { from, to } = &self.edits[i] {
                    for name in self.names.iter_mut().filter(|n| *n == from) {
                        name.clone_from(to);
                    }
                }
            }
            let gone = self.removed_lines(&removed);
            match &mut self.subject {
                Subject::Bundle(bundle) => EditSet::of(removed.iter().map(|&i| &self.edits[i])).apply(bundle),
                Subject::Lines { lines, .. } => {
                    let mut index = 0;
                    lines.retain(|_| {
                        let keep = !gone.contains(&index);
                        index += 1;
                        keep
                    });
                }
            }
        }
        let next = match self.subject {
            Subject::Bundle(_) => self.level.and_then(Level::next),
            // A file's lines are one level.
            Subject::Lines { .. } => None,
        };
        self.level = next;
        if self.level.is_none() {
            if self.changed {
                self.level = Some(Level::Cores);
                self.round += 1;
                self.changed = false;
            } else {
                // Stable only if reducing the result again would keep the same
                // diagnostic (the first of its code may now be another one): if not,
                // go on toward that one, so the result is a fixed point.
                match self.chosen_names() {
                    Some(names) if names != self.names => {
                        self.names = names;
                        self.level = Some(Level::Cores);
                        self.round += 1;
                    }
                    _ => {
                        self.done = true;
                        return;
                    }
                }
            }
        }
        self.start_level();
    }

    /// Runs one test (or finishes a level that has nothing to test). Returns false once
    /// the reduction is done.
    pub fn step(&mut self) -> bool {
        if self.done {
            return false;
        }
        if self.alive.is_empty() {
            self.finish_level();
            return !self.done;
        }
        // First, everything at once.
        if !self.started {
            self.started = true;
            let all: Vec<usize> = self.removed_with(&self.alive);
            self.tests += 1;
            if self.test(&all) {
                self.alive.clear();
            }
            return true;
        }
        // Then sweeps of chunks of `size`, halving the size after each sweep; a chunk
        // that goes leaves the sweep where it is (the next chunk slides into place), so
        // a sweep costs one test per chunk however much it removes.
        if self.pos >= self.alive.len() {
            if self.size <= 1 {
                self.finish_level();
            } else {
                self.size = self.size.div_ceil(2);
                self.pos = 0;
            }
            return !self.done;
        }
        let (from, to) = (self.pos, (self.pos + self.size).min(self.alive.len()));
        let removed = self.removed_with(&self.alive[from..to]);
        self.tests += 1;
        if self.test(&removed) {
            self.alive.drain(from..to);
        } else {
            self.pos = to;
        }
        !self.done
    }

    /// Which of the level's edits are still present.
    fn alive_mask(&self) -> Vec<bool> {
        let mut alive = vec![false; self.edits.len()];
        for &i in &self.alive {
            alive[i] = true;
        }
        alive
    }

    /// The edits removed so far at this level, plus `more`.
    fn removed_with(&self, more: &[usize]) -> Vec<usize> {
        let mut removed = self.alive_mask();
        removed.iter_mut().for_each(|gone| *gone = !*gone);
        for &i in more {
            removed[i] = true;
        }
        (0..self.edits.len()).filter(|&i| removed[i]).collect()
    }

    /// The result (of a reduction that is done, or as far as it got).
    pub fn result(&self) -> Reduced {
        let contents = match &self.subject {
            Subject::Bundle(bundle) => crate::output::json::to_pretty_string(bundle).into_bytes(),
            Subject::Lines { .. } => self.materialize(&[]).0,
        };
        let after = (contents.len(), self.current_instructions());
        Reduced {
            contents,
            form: self.form,
            target: self.target,
            tests: self.tests,
            bytes: (self.before.0, after.0),
            instructions: (self.before.1, after.1),
        }
    }
}

/// Reduces a link set to the end, telling `progress` after each test.
pub fn reduce(
    set: &LinkSetData,
    options: &ReduceOptions,
    progress: &mut dyn FnMut(&ReduceProgress),
) -> Result<Reduced, ReduceError> {
    let mut reduction = Reduction::new(set, options)?;
    while reduction.step() {
        progress(&reduction.progress());
    }
    Ok(reduction.result())
}

/// Reduces one file as a link set of its own (for a bundle or a single module).
pub fn reduce_file(name: &str, bytes: &[u8], options: &ReduceOptions) -> Result<Reduced, ReduceError> {
    let set =
        LinkSetData { files: vec![SharedFile { name: name.to_owned(), bytes: bytes.to_vec() }], lnc: None, flow: None };
    reduce(&set, options, &mut |_| {})
}

/// The names in backticks in `message` that are strings of the subject (a file name
/// or a count is not: only what the reduction could rename or remove).
fn names_in(message: &str, subject: &Subject) -> Vec<String> {
    let Subject::Bundle(value) = subject else {
        return Vec::new();
    };
    let mut strings = std::collections::BTreeSet::new();
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => {
                strings.insert(text.as_str());
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    let mut names: Vec<String> = Vec::new();
    for name in message.split('`').skip(1).step_by(2) {
        if strings.contains(name) && !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}

/// A file's lines, without their `\n`.
fn split_lines(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    if lines.last().is_some_and(Vec::is_empty) {
        lines.pop();
    }
    lines
}
