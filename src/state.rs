//! The inspector's state: one reducer, one `Action` enum, no DOM.
//!
//! Components read [`State`] and dispatch [`Action`]s; `app.rs` turns state changes
//! into worker requests (link, details, search). What a run produced is a
//! [`RunResult`]: the report as the CLI writes it, plus view models derived from it once.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::Reducible;

use birlink_core::diag::Severity;
use birlink_core::query::{EntityQuery, EntityView, Original, SearchHit};
use birlink_core::report::Report;
use birlink_core::samples::SampleInfo;

use crate::protocol::RunStats;

/// The views of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Passes, steps and what each changed.
    Pipeline,
    /// The dispatcher, one lane per core, alias edges.
    CallGraph,
    /// CoreBarrier renumbering.
    Barriers,
    /// vnc_link's lockstep counts and relocations.
    Semaphores,
    /// vnc_remote_addr_map's copies.
    Addresses,
    /// Every diagnostic, errors first.
    Diagnostics,
}

impl View {
    /// Every view, in tab order (keys 1–6).
    pub const ALL: [View; 6] =
        [View::Pipeline, View::CallGraph, View::Barriers, View::Semaphores, View::Addresses, View::Diagnostics];

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            View::Pipeline => "Pipeline",
            View::CallGraph => "Call graph",
            View::Barriers => "Barriers",
            View::Semaphores => "Semaphores",
            View::Addresses => "Addresses",
            View::Diagnostics => "Diagnostics",
        }
    }

    /// The view's id (URL fragment, test ids).
    pub fn id(self) -> &'static str {
        match self {
            View::Pipeline => "pipeline",
            View::CallGraph => "call-graph",
            View::Barriers => "barriers",
            View::Semaphores => "semaphores",
            View::Addresses => "addresses",
            View::Diagnostics => "diagnostics",
        }
    }
}

/// A file of the link set. The blob itself is compared by `id` only.
#[derive(Clone, Debug)]
pub struct LoadedFile {
    /// Stable id within the session.
    pub id: u64,
    /// Name shown (relative path for folders).
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// The bytes, as a browser blob (never read on the page's thread).
    pub blob: FileBlob,
}

impl PartialEq for LoadedFile {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && self.path == other.path && self.size == other.size
    }
}

/// A browser blob, or nothing in native tests.
#[derive(Clone, Debug)]
pub struct FileBlob(pub Option<web_sys::Blob>);

/// Where a run stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Nothing loaded yet.
    Idle,
    /// The worker is at it.
    Running {
        /// What it is doing.
        phase: String,
        /// Steps done.
        done: u32,
        /// Steps in all.
        total: u32,
    },
    /// The last run finished.
    Done,
    /// The worker could not run.
    Failed(String),
}

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
    /// The first pass that failed.
    pub failed_pass: Option<usize>,
    /// `(errors, warnings, notes)`.
    pub counts: (usize, usize, usize),
}

impl RunResult {
    /// Derives the view models of a report.
    pub fn new(run: u64, report: Report, linked: bool, stats: RunStats) -> Self {
        let mut diagnostic_order: Vec<usize> = (0..report.diagnostics.len()).collect();
        diagnostic_order.sort_by_key(|&i| std::cmp::Reverse(report.diagnostics[i].severity));
        let failed_pass = report.passes.iter().position(|p| p.status == "error");
        let count = |s: Severity| report.diagnostics.iter().filter(|d| d.severity == s).count();
        let counts = (count(Severity::Error), count(Severity::Warning), count(Severity::Note));
        RunResult { run, report, linked, stats, diagnostic_order, failed_pass, counts }
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
            .filter(|d| d.code == "BL0305")
            .filter_map(|d| {
                let entity = d.entity.as_ref()?;
                Some((entity.parent.clone().unwrap_or_default(), entity.name.clone()))
            })
            .collect()
    }
}

/// What is selected: an entity, or a diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// An entity of the linked module.
    Entity(EntityQuery),
    /// A diagnostic, by index in the report.
    Diagnostic(usize),
}

/// What the details panel shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Details {
    /// Nothing selected.
    Empty,
    /// Waiting for the worker.
    Loading(String),
    /// An entity of the linked module.
    Entity(Rc<EntityView>),
    /// The place a diagnostic points at, in its input file.
    Original {
        /// A title.
        title: String,
        /// The text, when the worker found it.
        original: Option<Rc<Original>>,
    },
    /// A unit's canonical text.
    Unit {
        /// `function x` / `queue y`.
        unit: String,
        /// The text.
        text: Option<Rc<String>>,
    },
    /// The entity does not exist in the linked module.
    Missing(String),
}

/// The search box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Search {
    /// The text typed.
    pub text: String,
    /// Results for `text`.
    pub hits: Vec<SearchHit>,
    /// Whether the result list is open.
    pub open: bool,
    /// Highlighted result.
    pub cursor: usize,
}

/// The whole inspector state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The link set.
    pub files: Vec<LoadedFile>,
    /// Next file id.
    pub next_file_id: u64,
    /// Whether the link set is a sample (or a URL) the app opened, not the user's own
    /// files: the user's first files then replace it rather than join it.
    pub opened_for_user: bool,
    /// `vnc_nc_count` set by the user (`None`: automatic).
    pub lnc: Option<u64>,
    /// The latest run requested.
    pub run: u64,
    /// Where that run stands.
    pub status: Status,
    /// The latest finished run.
    pub result: Option<Rc<RunResult>>,
    /// The open view.
    pub view: View,
    /// The pipeline step shown: `(pass, step)`.
    pub step: Option<(usize, usize)>,
    /// Hide steps that changed nothing.
    pub hide_unchanged: bool,
    /// Draw alias edges in the call graph.
    pub show_aliases: bool,
    /// The selection.
    pub selection: Option<Selection>,
    /// The details panel.
    pub details: Details,
    /// The search box.
    pub search: Search,
    /// The samples menu.
    pub samples: Rc<Vec<SampleInfo>>,
    /// Whether the keyboard help is open.
    pub help: bool,
    /// A message for the user (a fetch that failed, a file that could not be opened).
    pub notice: Option<String>,
}

impl Default for State {
    fn default() -> Self {
        State {
            files: Vec::new(),
            next_file_id: 1,
            opened_for_user: false,
            lnc: None,
            run: 0,
            status: Status::Idle,
            result: None,
            view: View::Pipeline,
            step: None,
            hide_unchanged: true,
            show_aliases: true,
            selection: None,
            details: Details::Empty,
            search: Search::default(),
            samples: Rc::new(Vec::new()),
            help: false,
            notice: None,
        }
    }
}

/// Everything that changes the state.
#[derive(Debug)]
pub enum Action {
    /// Add files (a file with a path already loaded replaces it).
    AddFiles(Vec<(String, u64, FileBlob)>),
    /// Replace the link set (opening a sample or a URL).
    ReplaceFiles(Vec<(String, u64, FileBlob)>),
    /// Drop one file.
    RemoveFile(u64),
    /// Drop every file.
    ClearFiles,
    /// Set `vnc_nc_count` (`None`: automatic).
    SetLnc(Option<u64>),
    /// A run was sent to the worker.
    RunStarted(u64),
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
    /// Open a view.
    SetView(View),
    /// Show a pipeline step.
    SelectStep(usize, usize),
    /// Move the step selection by one (keyboard).
    MoveStep(isize),
    /// Toggle hiding steps that changed nothing.
    ToggleHideUnchanged,
    /// Toggle alias edges.
    ToggleAliases,
    /// Select an entity or a diagnostic.
    Select(Selection),
    /// Clear the selection.
    ClearSelection,
    /// Show a unit's text.
    ShowUnit(String),
    /// The worker answered a details request.
    DetailsLoaded(Details),
    /// The search text changed.
    SearchText(String),
    /// The worker answered a search.
    SearchResults {
        /// What was searched.
        text: String,
        /// The hits.
        hits: Vec<SearchHit>,
    },
    /// Move the highlighted search result.
    SearchCursor(isize),
    /// Close the result list.
    CloseSearch,
    /// The samples index arrived.
    SamplesLoaded(Vec<SampleInfo>),
    /// Open or close the keyboard help.
    ToggleHelp,
    /// Show or clear a notice.
    Notice(Option<String>),
}

impl State {
    /// The visible steps of the pipeline, in order: `(pass, step)`.
    pub fn visible_steps(&self) -> Vec<(usize, usize)> {
        let Some(result) = &self.result else { return Vec::new() };
        let mut steps = Vec::new();
        for (p, pass) in result.report.passes.iter().enumerate() {
            for (s, step) in pass.steps.iter().enumerate() {
                if !self.hide_unchanged || step.changes > 0 {
                    steps.push((p, s));
                }
            }
        }
        steps
    }

    /// The first step worth showing: the failing pass's first, else the first change.
    fn default_step(&self) -> Option<(usize, usize)> {
        let result = self.result.as_ref()?;
        if let Some(p) = result.failed_pass {
            if !result.report.passes[p].steps.is_empty() {
                return Some((p, 0));
            }
        }
        self.visible_steps().into_iter().next()
    }
}

fn add(files: &mut Vec<LoadedFile>, next_id: &mut u64, new: Vec<(String, u64, FileBlob)>) {
    for (path, size, blob) in new {
        files.retain(|f| f.path != path);
        files.push(LoadedFile { id: *next_id, path, size, blob });
        *next_id += 1;
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::AddFiles(new) => {
                if next.opened_for_user {
                    next.files.clear();
                    next.opened_for_user = false;
                }
                add(&mut next.files, &mut next.next_file_id, new);
                next.notice = None;
            }
            Action::ReplaceFiles(new) => {
                next.files.clear();
                add(&mut next.files, &mut next.next_file_id, new);
                next.opened_for_user = true;
                next.notice = None;
            }
            Action::RemoveFile(id) => next.files.retain(|f| f.id != id),
            Action::ClearFiles => {
                next.files.clear();
                next.result = None;
                next.status = Status::Idle;
                next.selection = None;
                next.details = Details::Empty;
            }
            Action::SetLnc(lnc) => next.lnc = lnc.filter(|n| *n > 0),
            Action::RunStarted(run) => {
                next.run = run;
                next.status = Status::Running { phase: "starting".to_owned(), done: 0, total: 1 };
            }
            Action::Progress { run, phase, done, total } => {
                if run != next.run {
                    return self;
                }
                next.status = Status::Running { phase, done, total };
            }
            Action::Linked(result) => {
                if result.run != next.run {
                    return self;
                }
                let failed = result.failed();
                let first_error = result.diagnostic_order.first().copied().filter(|_| failed);
                next.result = Some(Rc::from(result));
                next.status = Status::Done;
                next.step = next.default_step();
                next.search = Search::default();
                // Failure first: open on the diagnostic that explains it.
                match first_error {
                    Some(index) => {
                        next.view = View::Diagnostics;
                        next.selection = Some(Selection::Diagnostic(index));
                        next.details = Details::Loading("the failing input".to_owned());
                    }
                    None => {
                        if next.view == View::Diagnostics
                            && next.result.as_ref().is_some_and(|r| r.report.diagnostics.is_empty())
                        {
                            next.view = View::Pipeline;
                        }
                        next.selection = None;
                        next.details = Details::Empty;
                    }
                }
            }
            Action::Failed { run, message } => {
                if run != next.run {
                    return self;
                }
                next.status = Status::Failed(message);
            }
            Action::SetView(view) => next.view = view,
            Action::SelectStep(pass, step) => next.step = Some((pass, step)),
            Action::MoveStep(delta) => {
                let steps = next.visible_steps();
                if !steps.is_empty() {
                    let at = next.step.and_then(|s| steps.iter().position(|x| *x == s));
                    let index = match at {
                        Some(i) => (i as isize + delta).clamp(0, steps.len() as isize - 1) as usize,
                        None => 0,
                    };
                    next.step = Some(steps[index]);
                }
            }
            Action::ToggleHideUnchanged => {
                next.hide_unchanged = !next.hide_unchanged;
                if let Some(step) = next.step {
                    if !next.visible_steps().contains(&step) {
                        next.step = next.default_step();
                    }
                }
            }
            Action::ToggleAliases => next.show_aliases = !next.show_aliases,
            Action::Select(selection) => {
                next.details = Details::Loading(match &selection {
                    Selection::Entity(query) => format!("{} `{}`", query.kind, query.name),
                    Selection::Diagnostic(_) => "the diagnostic's place in its file".to_owned(),
                });
                next.selection = Some(selection);
                next.search.open = false;
            }
            Action::ClearSelection => {
                next.selection = None;
                next.details = Details::Empty;
            }
            Action::ShowUnit(unit) => {
                next.details = Details::Unit { unit, text: None };
            }
            Action::DetailsLoaded(details) => next.details = details,
            Action::SearchText(text) => {
                next.search.open = !text.trim().is_empty();
                next.search.text = text;
                next.search.cursor = 0;
            }
            Action::SearchResults { text, hits } => {
                if text == next.search.text {
                    next.search.hits = hits;
                    next.search.cursor = 0;
                }
            }
            Action::SearchCursor(delta) => {
                let n = next.search.hits.len();
                if n > 0 {
                    next.search.cursor = (next.search.cursor as isize + delta).rem_euclid(n as isize) as usize;
                }
            }
            Action::CloseSearch => next.search.open = false,
            Action::SamplesLoaded(samples) => next.samples = Rc::new(samples),
            Action::ToggleHelp => next.help = !next.help,
            Action::Notice(notice) => next.notice = notice,
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_result(run: u64, file: &str) -> RunResult {
        let bytes = std::fs::read(format!("{}/www/samples/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default();
        let outcome = birlink_core::run(
            vec![birlink_core::SourceFile {
                path: file.to_owned(),
                content: Ok(bytes),
                role: birlink_core::Role::Auto,
            }],
            &birlink_core::LinkOptions::default(),
        );
        let linked = outcome.linked.is_some();
        RunResult::new(run, outcome.report, linked, RunStats::default())
    }

    fn reduce(state: State, action: Action) -> State {
        (*Rc::new(state).reduce(action)).clone()
    }

    #[test]
    fn a_failing_link_opens_on_its_first_error() {
        let state = reduce(State::default(), Action::RunStarted(1));
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "error-1514.json"))));
        assert_eq!(state.view, View::Diagnostics);
        let Some(Selection::Diagnostic(index)) = state.selection else { panic!("no diagnostic selected") };
        let result = state.result.as_ref().expect("result");
        assert_eq!(result.report.diagnostics[index].code, "1514");
        assert_eq!(result.failed_pass, Some(2));
        assert_eq!(state.step, Some((2, 0)), "the pipeline view starts at the failing pass");
    }

    #[test]
    fn a_clean_link_keeps_the_view_and_shows_the_first_change() {
        let state = State { view: View::Barriers, ..State::default() };
        let state = reduce(state, Action::RunStarted(3));
        let state = reduce(state, Action::Linked(Box::new(sample_result(3, "matmul-2core.json"))));
        assert_eq!(state.view, View::Barriers);
        assert_eq!(state.selection, None);
        let (pass, step) = state.step.expect("a step");
        let result = state.result.as_ref().expect("result");
        assert!(result.report.passes[pass].steps[step].changes > 0);
        assert!(result.barrier_collisions().is_empty());
        assert!(!result.reused_old_ids().is_empty(), "both cores number barriers from 0");
    }

    #[test]
    fn stale_answers_are_ignored() {
        let state = reduce(State::default(), Action::RunStarted(2));
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "matmul-2core.json"))));
        assert!(state.result.is_none());
        let state = reduce(state, Action::Progress { run: 1, phase: "old".into(), done: 1, total: 2 });
        assert_eq!(state.status, Status::Running { phase: "starting".into(), done: 0, total: 1 });
    }

    #[test]
    fn adding_a_file_with_the_same_path_replaces_it() {
        let file = |path: &str, size| (path.to_owned(), size, FileBlob(None));
        let state = reduce(State::default(), Action::AddFiles(vec![file("nc00.json", 1), file("nc01.json", 2)]));
        let state = reduce(state, Action::AddFiles(vec![file("nc00.json", 3)]));
        let paths: Vec<(&str, u64)> = state.files.iter().map(|f| (f.path.as_str(), f.size)).collect();
        assert_eq!(paths, vec![("nc01.json", 2), ("nc00.json", 3)]);
        let id = state.files[0].id;
        let state = reduce(state, Action::RemoveFile(id));
        assert_eq!(state.files.len(), 1);
    }

    #[test]
    fn the_users_first_files_replace_the_sample() {
        let file = |path: &str| (path.to_owned(), 1, FileBlob(None));
        let state = reduce(State::default(), Action::ReplaceFiles(vec![file("matmul-2core.json")]));
        let state = reduce(state, Action::AddFiles(vec![file("nc00.json")]));
        let state = reduce(state, Action::AddFiles(vec![file("nc01.json")]));
        let paths: Vec<&str> = state.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, vec!["nc00.json", "nc01.json"]);
    }

    #[test]
    fn steps_move_with_the_keyboard_within_visible_steps() {
        let state = reduce(State::default(), Action::RunStarted(1));
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "matmul-2core.json"))));
        let steps = state.visible_steps();
        assert!(steps.len() > 3);
        assert!(steps.iter().all(|&(p, s)| state.result.as_ref().expect("r").report.passes[p].steps[s].changes > 0));
        let state = reduce(state, Action::MoveStep(1));
        assert_eq!(state.step, Some(steps[1]));
        let state = reduce(state, Action::MoveStep(100));
        assert_eq!(state.step, steps.last().copied());
        let state = reduce(state, Action::ToggleHideUnchanged);
        assert!(state.visible_steps().len() > steps.len());
    }
}
