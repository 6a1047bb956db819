//! The inspector's state: one reducer, one `Action` enum, no DOM.
//!
//! Components read [`State`] and dispatch [`Action`]s. The reducer owns every
//! transition, including what to ask the worker: an action that needs an answer (a new
//! link set, a selection, a unit's text, a search, an export) leaves a request in one
//! of the state's [`Outbox`]es, and `hooks::use_worker` sends whatever a new outbox
//! holds. When there is nothing to fetch (a diagnostic about the link set as a whole,
//! an entity the linked module does not have), the reducer says so at once
//! ([`Fetch::Missing`]): the details panel never waits for an answer that will not come.
//! What a run produced is a [`RunResult`]: the report as the CLI writes it, plus view
//! models derived from it once.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::Reducible;

use serde_json::Value;

use birlink_core::align::Alignment;
use birlink_core::diag::Severity;
use birlink_core::query::{EntityQuery, EntityView, Original, SearchHit};
use birlink_core::report::{PassStatus, Report, Unit};
use birlink_core::samples::SampleInfo;
use birlink_core::share::fragment::StepRef;
use birlink_core::share::{self, ViewState};
use birlink_core::{Code, EntityKey, EntityKind};

use crate::embed::protocol::{ErrorCode, HostError, PageMessage};
use crate::protocol::{Export, RunStats};

mod repro;
pub use repro::{LogState, Reducing, ReproAction, MAX_LOG_BYTES};

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

    /// The view as links name it.
    pub fn link(self) -> share::View {
        match self {
            View::Pipeline => share::View::Pipeline,
            View::CallGraph => share::View::CallGraph,
            View::Barriers => share::View::Barriers,
            View::Semaphores => share::View::Semaphores,
            View::Addresses => share::View::Addresses,
            View::Diagnostics => share::View::Diagnostics,
        }
    }

    /// The view a link names.
    pub fn from_link(view: share::View) -> View {
        match view {
            share::View::Pipeline => View::Pipeline,
            share::View::CallGraph => View::CallGraph,
            share::View::Barriers => View::Barriers,
            share::View::Semaphores => View::Semaphores,
            share::View::Addresses => View::Addresses,
            share::View::Diagnostics => View::Diagnostics,
        }
    }

    /// The view's id in the page (`tab-<id>`, `view-<id>`).
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

/// A file the user picked, dropped or the page fetched, before it joins the link set.
#[derive(Clone, Debug)]
pub struct PickedFile {
    /// Its name (relative path for folders).
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its bytes.
    pub blob: FileBlob,
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

/// What is selected: an entity, or a diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// An entity of the linked module.
    Entity(EntityQuery),
    /// A diagnostic, by index in the report.
    Diagnostic(usize),
}

/// Something the details panel asked the worker for.
#[derive(Clone, Debug, PartialEq)]
pub enum Fetch<T> {
    /// Asked; the answer has not come yet.
    Loading,
    /// There is nothing to show, and why.
    Missing(String),
    /// The answer.
    Ready(T),
}

/// What the details panel shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Details {
    /// Nothing selected.
    Empty,
    /// An entity of the linked module.
    Entity {
        /// The entity asked for.
        query: EntityQuery,
        /// Its details.
        view: Fetch<Rc<EntityView>>,
    },
    /// The place a diagnostic points at, in its input file.
    Original {
        /// The diagnostic's index in the report.
        diagnostic: usize,
        /// `file at pointer`.
        title: String,
        /// The text there.
        original: Fetch<Rc<Original>>,
    },
    /// A unit's canonical text.
    Unit {
        /// The unit.
        unit: Unit,
        /// Its text.
        text: Fetch<Rc<String>>,
    },
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

/// The last request the reducer decided to send on one channel; `seq` grows with each,
/// so the effect that sends them sees every new one (and only the newest matters: a
/// new link set supersedes the last, a new selection the last selection).
#[derive(Clone, Debug, PartialEq)]
pub struct Outbox<T> {
    /// How many requests were posted.
    pub seq: u64,
    /// The newest.
    pub message: Option<T>,
}

impl<T> Default for Outbox<T> {
    fn default() -> Self {
        Outbox { seq: 0, message: None }
    }
}

impl<T> Outbox<T> {
    fn post(&mut self, message: T) {
        self.seq += 1;
        self.message = Some(message);
    }
}

/// A link to run.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkOrder {
    /// The run number (answers for other runs are dropped).
    pub run: u64,
    /// The files, in order.
    pub files: Vec<LoadedFile>,
    /// `vnc_nc_count` set by the user.
    pub lnc: Option<u64>,
    /// Wait this long for more changes first (a folder arrives as many changes).
    pub delay_ms: u32,
}

/// A question about the current run.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// An entity's details.
    Entity(EntityQuery),
    /// The details of the entity a key names.
    EntityByKey(EntityKey),
    /// The link set as a link carries it.
    Share,
    /// The JSON at a place in an input file.
    Original {
        /// The file.
        file: String,
        /// The JSON pointer.
        pointer: String,
    },
    /// A unit's canonical text.
    Unit(Unit),
    /// Names across cores.
    Search(String),
    /// A file to download.
    Export(Export),
    /// Where a log's names are.
    Locate(String),
    /// Reduce the run's link set.
    Reduce,
    /// Stop reducing it.
    CancelReduce,
}

/// A question and the run it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    pub run: u64,
    /// The question.
    pub query: Query,
}

/// How the page is shown (embed spec §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The whole inspector; the URL follows the view.
    #[default]
    Full,
    /// Inside a host's page: the views and details only; the URL is never touched.
    Embed,
}

/// Where the page is, for the links it makes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    /// The page's URL without query or fragment (what share links start with).
    pub base: String,
    /// The query of the full page showing the same link set (`embed`, `origin` dropped).
    pub full_query: String,
}

/// Messages for a host, in order; each has a number so the hook that posts them sends
/// each once (several can come from one action: an `ack`, then a `linked`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mailbox {
    /// The number of the last message.
    pub seq: u64,
    /// The latest messages with their numbers (older ones are sent and dropped).
    pub messages: Vec<(u64, PageMessage)>,
}

impl Mailbox {
    fn post(&mut self, message: PageMessage) {
        self.seq += 1;
        self.messages.push((self.seq, message));
        let excess = self.messages.len().saturating_sub(32);
        self.messages.drain(..excess);
    }
}

/// A change the page makes to its own URL (full mode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryWrite {
    /// The new fragment.
    pub fragment: String,
    /// A new history entry (a user's step), or in place (a link applied, a run).
    pub push: bool,
}

/// The Share dialog.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareDialog {
    /// The worker is encoding the link set.
    Loading,
    /// The link.
    Link(String),
    /// Too large for a link: why, and the bundle is offered instead.
    TooLarge(String),
}

/// A host's request, checked, with its files in hand.
#[derive(Clone, Debug)]
pub enum HostCall {
    /// Link these files.
    Load {
        /// The files.
        files: Vec<PickedFile>,
        /// The LNC.
        lnc: Option<u64>,
        /// The view and selection once linked.
        state: ViewState,
    },
    /// Change the view.
    Show(ViewState),
    /// Answer `state`.
    GetState,
    /// Answer `ack`.
    Ping,
}

/// What a host waits for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostWaits {
    /// The `load` whose `linked` is due.
    pub load: Option<Value>,
    /// The request (a `load` or `show`) whose `select` is being looked for.
    pub select: Option<(Value, EntityKey)>,
    /// The `load`s already acknowledged (their `select` found needs no answer).
    pub loads_acked: Vec<Value>,
}

/// The whole inspector state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The link set.
    pub files: Vec<LoadedFile>,
    /// Next file id.
    pub next_file_id: u64,
    /// Whether the link set is one the app opened (a sample or a URL), not the user's
    /// own files: the user's first files then replace it rather than join it.
    pub replace_on_add: bool,
    /// The sample the link set is, when it is one (the samples menu shows it).
    pub open_sample: Option<String>,
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
    /// The link to run next.
    pub link_out: Outbox<LinkOrder>,
    /// The details panel's question.
    pub details_out: Outbox<Ask>,
    /// The search box's question.
    pub search_out: Outbox<Ask>,
    /// A download asked for.
    pub export_out: Outbox<Ask>,
    /// The call graph is to be exported as SVG once it is drawn.
    pub svg_export_pending: bool,
    /// Full page or embedded.
    pub mode: Mode,
    /// Where the page is.
    pub page: Page,
    /// A link's view state, applied when the next run finishes.
    pub pending: Option<ViewState>,
    /// What of that link was dropped already, said then.
    pub pending_notes: Vec<String>,
    /// The key of the selected entity, once the worker found it.
    pub selected_key: Option<EntityKey>,
    /// Whether the user made the selection (not a link or a host): the page then tells
    /// its host (`selected`) and adds a history entry.
    pub selection_by_user: bool,
    /// The link set as a link carries it, when known (`data=`).
    pub data: Option<String>,
    /// Whether `data` belongs in the page's own URL (the link set came from a link).
    pub data_in_url: bool,
    /// The page's URL to write.
    pub history: Outbox<HistoryWrite>,
    /// The Share dialog, when open.
    pub share: Option<ShareDialog>,
    /// Share's question to the worker.
    pub share_out: Outbox<Ask>,
    /// Whether the details panel is open (embed mode folds it).
    pub details_open: bool,
    /// What a host waits for.
    pub host: HostWaits,
    /// Messages for the host.
    pub host_out: Mailbox,
    /// The compiler log pasted.
    pub log: LogState,
    /// The log's question to the worker.
    pub log_out: Outbox<Ask>,
    /// A reduction the user started.
    pub reducing: Option<Reducing>,
    /// The reduction's requests (start, cancel).
    pub reduce_out: Outbox<Ask>,
    /// The link set before the reduction that replaced it.
    pub original: Option<Rc<repro::SavedSet>>,
    /// What that reduction kept (shown while its result is the link set).
    pub reduced: Option<crate::protocol::ReducedSummary>,
}

impl Default for State {
    fn default() -> Self {
        State {
            files: Vec::new(),
            next_file_id: 1,
            replace_on_add: false,
            open_sample: None,
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
            link_out: Outbox::default(),
            details_out: Outbox::default(),
            search_out: Outbox::default(),
            export_out: Outbox::default(),
            svg_export_pending: false,
            mode: Mode::Full,
            page: Page::default(),
            pending: None,
            pending_notes: Vec::new(),
            selected_key: None,
            selection_by_user: false,
            data: None,
            data_in_url: false,
            history: Outbox::default(),
            share: None,
            share_out: Outbox::default(),
            details_open: true,
            host: HostWaits::default(),
            host_out: Mailbox::default(),
            log: LogState::default(),
            log_out: Outbox::default(),
            reducing: None,
            reduce_out: Outbox::default(),
            original: None,
            reduced: None,
        }
    }
}

/// A key pressed on the page (outside a text field), as the reducer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `Escape`: close help, close search, or clear the selection.
    Escape,
    /// `1`–`6`: a view.
    View(usize),
    /// `?`: the keyboard help.
    Help,
    /// `j`: the next step (Pipeline) or diagnostic (Diagnostics).
    Next,
    /// `k`: the previous one.
    Previous,
    /// `s`: Share (full mode).
    Share,
}

/// Everything that changes the state.
#[derive(Debug)]
pub enum Action {
    /// Add files (a file with a path already loaded replaces it).
    AddFiles(Vec<PickedFile>),
    /// Replace the link set (opening a sample, a URL or a link's data).
    ReplaceFiles {
        /// The new link set.
        files: Vec<PickedFile>,
        /// The sample's file name, when it is one.
        sample: Option<String>,
    },
    /// The link set the page opens at start (its query's `src=` or `sample=`, or the
    /// default sample): ignored when another one came first (a host's `load`, the
    /// user's files), which must not be replaced by a fetch that was slower.
    StartFiles {
        /// The files.
        files: Vec<PickedFile>,
        /// The sample's file name, when it is one.
        sample: Option<String>,
    },
    /// Open a link set that came with a link (`data=`): its files, the LNC, the data.
    OpenData {
        /// The files.
        files: Vec<PickedFile>,
        /// The LNC it carries.
        lnc: Option<u64>,
        /// The `data=` text.
        data: String,
    },
    /// A link's view state, to apply once the run it is about has finished (at start,
    /// after the link set of the link is opened), and what of the link was dropped
    /// already (said with what does not apply to the run).
    LinkState(ViewState, Vec<String>),
    /// The user went Back or Forward: show what the URL now says.
    Navigate(ViewState),
    /// Select the entity a key names (a link, a host).
    SelectKey(EntityKey),
    /// A host's request, checked (or why it cannot be taken).
    Host {
        /// The host's `id`.
        id: Value,
        /// The request.
        call: Result<HostCall, HostError>,
    },
    /// The paste-a-log and reduce actions.
    Repro(ReproAction),
    /// Open the Share dialog.
    OpenShare,
    /// The worker answered Share.
    ShareLoaded {
        run: u64,
        /// The data, or why it does not go in a link.
        data: Result<String, String>,
    },
    /// Close the Share dialog.
    CloseShare,
    /// Fold or unfold the details panel (embed mode).
    ToggleDetails,
    /// Drop one file.
    RemoveFile(u64),
    /// Drop every file.
    ClearFiles,
    /// Set `vnc_nc_count` (`None`: automatic).
    SetLnc(Option<u64>),
    /// The worker reports progress.
    Progress {
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
        run: u64,
        /// Why.
        message: String,
    },
    /// Open a view.
    SetView(View),
    /// Show a pipeline step.
    SelectStep(usize, usize),
    /// Toggle hiding steps that changed nothing.
    ToggleHideUnchanged,
    /// Toggle alias edges.
    ToggleAliases,
    /// Select an entity or a diagnostic.
    Select(Selection),
    /// Clear the selection.
    ClearSelection,
    /// Show a unit's text.
    ShowUnit(Unit),
    /// The worker answered about an entity.
    EntityLoaded {
        run: u64,
        /// What was asked.
        query: EntityQuery,
        /// The answer (`None`: the linked module has no such entity).
        view: Option<Box<EntityView>>,
    },
    /// The worker answered about a place in a file.
    OriginalLoaded {
        run: u64,
        /// The file.
        file: String,
        /// The pointer.
        pointer: String,
        /// The text there (`None`: the file has no text there).
        original: Option<Original>,
    },
    /// The worker answered with a unit's text.
    UnitLoaded {
        run: u64,
        /// The unit.
        unit: Unit,
        /// Its text (`None`: no such unit).
        text: Option<String>,
    },
    /// The search text changed.
    SearchText(String),
    /// The worker answered a search.
    SearchResults {
        run: u64,
        /// What was searched.
        text: String,
        /// The hits.
        hits: Vec<SearchHit>,
    },
    /// Move the highlighted search result.
    SearchCursor(isize),
    /// Close the result list.
    CloseSearch,
    /// Download an export of the current run.
    Export(Export),
    /// Export the call graph as SVG (it is drawn first).
    ExportSvg,
    /// The SVG export is done.
    SvgExported,
    /// The samples index arrived.
    SamplesLoaded(Vec<SampleInfo>),
    /// Open or close the keyboard help.
    ToggleHelp,
    /// A key pressed on the page.
    Key(Key),
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

    /// The run the current result is, if any.
    fn result_run(&self) -> Option<u64> {
        self.result.as_ref().map(|r| r.run)
    }

    /// Asks the worker a details question about the current run.
    fn ask_details(&mut self, query: Query) {
        if let Some(run) = self.result_run() {
            self.details_out.post(Ask { run, query });
        }
    }

    /// Selects something and decides what the details panel shows and asks.
    fn select(&mut self, selection: Selection) {
        self.search.open = false;
        self.details_open = true;
        if matches!(selection, Selection::Diagnostic(_)) {
            self.selected_key = None;
        }
        match &selection {
            Selection::Entity(query) => {
                self.details = Details::Entity { query: query.clone(), view: Fetch::Loading };
                if self.result.as_ref().is_some_and(|r| r.linked) {
                    self.ask_details(Query::Entity(query.clone()));
                } else {
                    self.details = Details::Entity {
                        query: query.clone(),
                        view: Fetch::Missing("the link failed before bir_linker made a linked module".to_owned()),
                    };
                }
            }
            &Selection::Diagnostic(index) => {
                let diagnostic = self.result.as_ref().and_then(|r| r.report.diagnostics.get(index));
                let location = diagnostic.and_then(|d| d.location.clone());
                match location {
                    Some(location) => {
                        let title = if location.pointer.is_empty() {
                            location.file.clone()
                        } else {
                            format!("{} at {}", location.file, location.pointer)
                        };
                        self.details = Details::Original { diagnostic: index, title, original: Fetch::Loading };
                        self.ask_details(Query::Original { file: location.file, pointer: location.pointer });
                    }
                    None => {
                        let code = diagnostic.map(|d| d.code.as_str()).unwrap_or("");
                        self.details = Details::Original {
                            diagnostic: index,
                            title: String::new(),
                            original: Fetch::Missing(format!(
                                "{code} is about the link set as a whole, not a place in a file: the diagnostic says it all"
                            )),
                        };
                    }
                }
            }
        }
        self.selection = Some(selection);
    }

    fn clear_selection(&mut self) {
        self.selection = None;
        self.selected_key = None;
        self.details = Details::Empty;
    }

    /// The view state the page's URL shows (embed spec §2): the view, the step (on the
    /// pipeline), the diagnostic or the entity selected.
    pub fn view_state(&self) -> ViewState {
        let step = if self.view == View::Pipeline { self.step_ref() } else { None };
        let (select, diag) = match &self.selection {
            Some(Selection::Entity(_)) => (self.selected_key.clone(), None),
            Some(Selection::Diagnostic(index)) => (None, Some(*index)),
            None => (None, None),
        };
        ViewState { view: Some(self.view.link()), select, step, diag, data: None }
    }

    /// The fragment of the page's own URL (full mode).
    pub fn url_fragment(&self) -> String {
        let mut state = self.view_state();
        if self.data_in_url {
            state.data = self.data.clone();
        }
        state.to_string()
    }

    /// The full page's URL showing what this page shows, with the link set's data when
    /// it is known and fits in a link: "Open in birlink", and `state`'s `url`.
    pub fn full_url(&self) -> String {
        let plain = format!("{}{}", self.page.base, self.page.full_query);
        let mut state = self.view_state();
        if let Some(data) = &self.data {
            state.data = Some(data.clone());
            let with_data = format!("{plain}#{state}");
            if with_data.len() <= share::LINK_BUDGET {
                return with_data;
            }
            state.data = None;
        }
        format!("{plain}#{state}")
    }

    /// The share link of the current link set, given its data.
    fn share_link(&self, data: &str) -> ShareDialog {
        let mut state = self.view_state();
        state.data = Some(data.to_owned());
        let link = format!("{}#{}", self.page.base, state);
        if link.len() <= share::LINK_BUDGET {
            ShareDialog::Link(link)
        } else {
            ShareDialog::TooLarge(format!(
                "the link would be {} characters, above the budget of {}: browsers and chat tools may cut it",
                link.len(),
                share::LINK_BUDGET
            ))
        }
    }

    /// The current step as a link names it.
    fn step_ref(&self) -> Option<StepRef> {
        let (p, s) = self.step?;
        let pass = self.result.as_ref()?.report.passes.get(p)?;
        Some(StepRef { pass: pass.name, step: pass.steps.get(s)?.name.clone() })
    }

    /// The `(pass, step)` indices a link's step names in the current report.
    fn find_step(&self, step: &StepRef) -> Option<(usize, usize)> {
        let passes = &self.result.as_ref()?.report.passes;
        let p = passes.iter().position(|p| p.name == step.pass)?;
        let s = passes[p].steps.iter().position(|s| s.name == step.step)?;
        Some((p, s))
    }

    /// The page for a mode and a place.
    pub fn new(mode: Mode, page: Page) -> State {
        State { mode, page, details_open: mode == Mode::Full, ..State::default() }
    }

    /// Tells the host whose `load` this run was what became of it.
    fn linked_for_host(&mut self) {
        let (Some(id), Some(result)) = (self.host.load.clone(), self.result.clone()) else { return };
        let (errors, warnings, _) = result.counts;
        let ok = errors == 0 && result.report.passes.iter().all(|p| p.status == PassStatus::Ok);
        self.host_out.post(PageMessage::Linked {
            id,
            ok,
            failed_pass: result.failed_pass.map(|p| result.report.passes[p].name.as_str().to_owned()),
            errors,
            warnings,
            codes: result.report.diagnostics.iter().map(|d| d.code.as_str().to_owned()).collect(),
        });
    }

    /// The id of the host's `load` this run answers, if any.
    fn host_waiting_id(&self) -> Option<Value> {
        self.host.load.clone()
    }

    /// Whether `id` is a `load` (acknowledged when it came) rather than a `show`.
    fn host_load_was_acked(&self, id: &Value) -> bool {
        self.host.loads_acked.contains(id)
    }

    /// Selects the entity a key names: what it is named until the worker finds it.
    fn select_key(&mut self, key: EntityKey) {
        let query = birlink_core::query::query_of(&key);
        self.search.open = false;
        self.details_open = true;
        self.selection_by_user = false;
        self.selection = Some(Selection::Entity(query.clone()));
        if self.result.as_ref().is_some_and(|r| r.linked) {
            self.details = Details::Entity { query, view: Fetch::Loading };
            self.ask_details(Query::EntityByKey(key));
        } else {
            self.details = Details::Entity {
                query,
                view: Fetch::Missing("the link failed before bir_linker made a linked module".to_owned()),
            };
        }
    }

    /// Applies a link's (or a host's) view state to the current run; returns what of it
    /// does not apply, and why.
    fn apply_state(&mut self, state: &ViewState) -> Vec<(ErrorCode, String)> {
        let mut missed = Vec::new();
        if let Some(view) = state.view {
            self.view = View::from_link(view);
        }
        if let Some(step) = &state.step {
            match self.find_step(step) {
                Some(found) => self.step = Some(found),
                None => missed.push((
                    ErrorCode::NotFound,
                    format!("`step={}/{}`: this run has no such step", step.pass, step.step),
                )),
            }
        }
        if let Some(index) = state.diag {
            let count = self.result.as_ref().map_or(0, |r| r.report.diagnostics.len());
            if index < count {
                self.select(Selection::Diagnostic(index));
                self.selection_by_user = false;
            } else {
                missed.push((
                    ErrorCode::NotFound,
                    format!("`diag={index}`: this run has {}", birlink_core::diag::counted(count, "diagnostic")),
                ));
            }
        }
        if let Some(key) = &state.select {
            self.select_key(key.clone());
        }
        missed
    }

    /// Says, as a notice, what of a link was dropped.
    fn notice_dropped(&mut self, dropped: &[String]) {
        if !dropped.is_empty() {
            self.add_notice(format!("parts of the link were dropped: {}", dropped.join("; ")));
        }
    }

    /// Adds a notice to what the page already says (several can come from one link).
    fn add_notice(&mut self, notice: String) {
        self.notice = Some(match self.notice.take() {
            Some(before) if !before.contains(&notice) => format!("{before} · {notice}"),
            Some(before) => before,
            None => notice,
        });
    }

    /// Posts a link of the current files (or goes idle when there are none).
    fn relink(&mut self) {
        if self.files.is_empty() {
            self.data = None;
            self.data_in_url = false;
            self.share = None;
            self.status = Status::Idle;
            self.link_out.message = None;
            return;
        }
        // Another link set: what was known of the last one is not this one's.
        self.data = None;
        self.data_in_url = false;
        self.share = None;
        // The first link starts at once; later ones wait for the rest of a batch.
        let delay_ms = if self.run == 0 { 0 } else { 120 };
        self.run += 1;
        self.status = Status::Running { phase: "starting".to_owned(), done: 0, total: 1 };
        self.link_out.post(LinkOrder { run: self.run, files: self.files.clone(), lnc: self.lnc, delay_ms });
    }

    fn add(&mut self, new: Vec<PickedFile>) {
        for PickedFile { path, size, blob } in new {
            self.files.retain(|f| f.path != path);
            self.files.push(LoadedFile { id: self.next_file_id, path, size, blob });
            self.next_file_id += 1;
        }
    }

    /// Moves the step (Pipeline) or diagnostic (Diagnostics) selection.
    fn move_by(&mut self, delta: isize) {
        match self.view {
            View::Pipeline => {
                let steps = self.visible_steps();
                if !steps.is_empty() {
                    let at = self.step.and_then(|s| steps.iter().position(|x| *x == s));
                    let index = match at {
                        Some(i) => (i as isize + delta).clamp(0, steps.len() as isize - 1) as usize,
                        None => 0,
                    };
                    self.step = Some(steps[index]);
                }
            }
            View::Diagnostics => {
                let Some(result) = self.result.clone() else { return };
                let order = &result.diagnostic_order;
                if order.is_empty() {
                    return;
                }
                let at = match self.selection {
                    Some(Selection::Diagnostic(i)) => order.iter().position(|x| *x == i),
                    _ => None,
                };
                let next = match at {
                    Some(i) => (i as isize + delta).clamp(0, order.len() as isize - 1) as usize,
                    None => 0,
                };
                self.select(Selection::Diagnostic(order[next]));
            }
            View::CallGraph | View::Barriers | View::Semaphores | View::Addresses => {}
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        let user = matches!(
            action,
            Action::SetView(_)
                | Action::SelectStep(..)
                | Action::Select(_)
                | Action::ClearSelection
                | Action::Key(_)
                | Action::ToggleHideUnchanged
                | Action::EntityLoaded { .. }
        );
        let navigating = matches!(action, Action::Navigate(_));
        if !next.apply(action) {
            return self;
        }
        // The page's own URL follows what it shows (full mode): a user's step is a new
        // history entry, anything else (a run, a link applied) rewrites the current one;
        // Back and Forward write nothing (the URL already says it).
        let fragment = next.url_fragment();
        if next.mode == Mode::Full && !navigating && fragment != self.url_fragment() {
            let push = user && (next.selection_by_user || !matches!(next.selection, Some(Selection::Entity(_))));
            next.history.post(HistoryWrite { fragment, push });
        }
        Rc::new(next)
    }
}

impl State {
    /// Applies an action; false when it changes nothing (a stale answer).
    fn apply(&mut self, action: Action) -> bool {
        let next = self;
        // The user's own change of link set ends what a reduction left.
        if matches!(
            action,
            Action::AddFiles(_)
                | Action::ReplaceFiles { .. }
                | Action::RemoveFile(_)
                | Action::ClearFiles
                | Action::SetLnc(_)
                | Action::OpenData { .. }
        ) {
            next.forget_repro();
        }
        match action {
            Action::Repro(action) => return next.apply_repro(action),
            Action::AddFiles(new) => {
                if next.replace_on_add {
                    next.files.clear();
                    next.replace_on_add = false;
                }
                next.open_sample = None;
                next.add(new);
                next.notice = None;
                next.relink();
            }
            Action::ReplaceFiles { files, sample } => {
                next.files.clear();
                next.add(files);
                next.replace_on_add = true;
                next.open_sample = sample;
                next.notice = None;
                next.relink();
            }
            Action::RemoveFile(id) => {
                next.files.retain(|f| f.id != id);
                next.open_sample = None;
                next.relink();
            }
            Action::ClearFiles => {
                next.files.clear();
                next.open_sample = None;
                next.result = None;
                next.relink();
                next.clear_selection();
            }
            Action::SetLnc(lnc) => {
                next.lnc = lnc.filter(|n| *n > 0);
                next.relink();
            }
            Action::Progress { run, phase, done, total } => {
                if run != next.run {
                    return false;
                }
                next.status = Status::Running { phase, done, total };
            }
            Action::Linked(result) => {
                if result.run != next.run {
                    return false;
                }
                let failed = result.failed();
                let first_error = result.diagnostic_order.first().copied().filter(|_| failed);
                next.result = Some(Rc::from(result));
                next.status = Status::Done;
                next.step = next.default_step();
                next.search = Search::default();
                next.selection_by_user = false;
                // Failure first: open on the diagnostic that explains it.
                match first_error {
                    Some(index) => {
                        next.view = View::Diagnostics;
                        next.select(Selection::Diagnostic(index));
                        next.details_open = next.mode == Mode::Full;
                    }
                    None => {
                        if next.view == View::Diagnostics
                            && next.result.as_ref().is_some_and(|r| r.report.diagnostics.is_empty())
                        {
                            next.view = View::Pipeline;
                        }
                        next.clear_selection();
                    }
                }
                next.linked_for_host();
                next.relocate_log();
                // A link's view state (or a host's) applies to this run.
                if let Some(state) = next.pending.take() {
                    let missed = next.apply_state(&state);
                    if let Some(id) = next.host_waiting_id() {
                        if let Some(key) = state.select.clone() {
                            next.host.select = Some((id.clone(), key));
                        }
                        if let Some((code, message)) = missed.first().cloned() {
                            next.host_out.post(PageMessage::Error { id, error: HostError { code, message } });
                        }
                    } else {
                        let mut notes = std::mem::take(&mut next.pending_notes);
                        notes.extend(missed.into_iter().map(|(_, why)| why));
                        next.notice_dropped(&notes);
                    }
                }
                let notes = std::mem::take(&mut next.pending_notes);
                next.notice_dropped(&notes);
                next.host.load = None;
                // Embedded, a link set that came by message needs its data for "Open in
                // birlink": asked for once, if it is small enough for a link at all.
                let from_query = next.open_sample.is_some() || next.page.full_query.contains("src=");
                if next.mode == Mode::Embed && !from_query && next.data.is_none() {
                    if let Some(run) = next.result_run() {
                        next.share_out.post(Ask { run, query: Query::Share });
                    }
                }
            }
            Action::Failed { run, message } => {
                if run != next.run {
                    return false;
                }
                next.status = Status::Failed(message);
            }
            Action::SetView(view) => next.view = view,
            Action::SelectStep(pass, step) => {
                next.step = Some((pass, step));
                next.view = View::Pipeline;
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
                next.select(selection);
                next.selection_by_user = true;
            }
            Action::ClearSelection => next.clear_selection(),
            Action::ShowUnit(unit) => {
                if next.result.as_ref().is_some_and(|r| r.linked) {
                    next.details = Details::Unit { unit: unit.clone(), text: Fetch::Loading };
                    next.ask_details(Query::Unit(unit));
                } else {
                    next.details = Details::Unit { unit, text: Fetch::Missing("there is no linked module".to_owned()) };
                }
            }
            Action::EntityLoaded { run, query, view } => {
                let current = matches!(&next.details, Details::Entity { query: q, .. } if *q == query);
                if Some(run) != next.result_run() || !current {
                    return false;
                }
                let waiting = next.host.select.take();
                let view = match view {
                    Some(view) => {
                        next.selected_key = Some(view.key.clone());
                        match waiting {
                            // A `show`'s entity was found: the request is done. (A `load`'s
                            // was acknowledged when it came.)
                            Some((id, key)) if key == view.key && next.host_load_was_acked(&id) => {}
                            Some((id, key)) if key == view.key => next.host_out.post(PageMessage::Ack { id }),
                            other => next.host.select = other,
                        }
                        if next.mode == Mode::Embed && next.selection_by_user {
                            next.host_out.post(PageMessage::Selected { select: view.key.clone() });
                        }
                        Fetch::Ready(Rc::new(*view))
                    }
                    None => {
                        let why = format!("{} `{}` is not in the linked module", query.kind, query.name);
                        match waiting {
                            Some((id, key)) => next.host_out.post(PageMessage::Error {
                                id,
                                error: HostError {
                                    code: ErrorCode::NotFound,
                                    message: format!("`select={key}`: {why}"),
                                },
                            }),
                            None if !next.selection_by_user => {
                                next.add_notice(format!("the link's selection is not in this link set: {why}"));
                            }
                            None => {}
                        }
                        next.selected_key = None;
                        Fetch::Missing(why)
                    }
                };
                next.details = Details::Entity { query, view };
            }
            Action::OriginalLoaded { run, file, pointer, original } => {
                let Details::Original { diagnostic, title, .. } = &next.details else { return false };
                let asked = next
                    .result
                    .as_ref()
                    .and_then(|r| r.report.diagnostics.get(*diagnostic))
                    .and_then(|d| d.location.as_ref())
                    .is_some_and(|l| l.file == file && l.pointer == pointer);
                if Some(run) != next.result_run() || !asked {
                    return false;
                }
                let original = match original {
                    Some(original) => Fetch::Ready(Rc::new(original)),
                    None => Fetch::Missing(format!(
                        "{title}: the file has no text at that place (it could not be read or parsed)"
                    )),
                };
                next.details = Details::Original { diagnostic: *diagnostic, title: title.clone(), original };
            }
            Action::UnitLoaded { run, unit, text } => {
                let current = matches!(&next.details, Details::Unit { unit: u, .. } if *u == unit);
                if Some(run) != next.result_run() || !current {
                    return false;
                }
                let text = match text {
                    Some(text) => Fetch::Ready(Rc::new(text)),
                    None => Fetch::Missing(format!("`{unit}` is not in the linked module")),
                };
                next.details = Details::Unit { unit, text };
            }
            Action::SearchText(text) => {
                next.search.open = !text.trim().is_empty();
                next.search.cursor = 0;
                if let (Some(run), false) = (next.result_run(), text.trim().is_empty()) {
                    next.search_out.post(Ask { run, query: Query::Search(text.clone()) });
                }
                next.search.text = text;
            }
            Action::SearchResults { run, text, hits } => {
                if text == next.search.text && Some(run) == next.result_run() {
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
            Action::Export(what) => {
                if let Some(run) = next.result_run() {
                    next.export_out.post(Ask { run, query: Query::Export(what) });
                }
            }
            Action::ExportSvg => {
                if next.result.as_ref().is_some_and(|r| !r.report.dispatcher.is_empty()) {
                    next.view = View::CallGraph;
                    next.svg_export_pending = true;
                }
            }
            Action::SvgExported => next.svg_export_pending = false,
            Action::SamplesLoaded(samples) => next.samples = Rc::new(samples),
            Action::ToggleHelp => next.help = !next.help,
            Action::Key(key) => match key {
                Key::Escape => {
                    if next.share.is_some() {
                        next.share = None;
                    } else if next.log.editing {
                        next.log.editing = false;
                    } else if next.help {
                        next.help = false;
                    } else if next.search.open {
                        next.search.open = false;
                    } else {
                        next.clear_selection();
                    }
                }
                Key::View(index) => match View::ALL.get(index) {
                    Some(&view) => next.view = view,
                    None => return false,
                },
                Key::Help => next.help = !next.help,
                Key::Next => next.move_by(1),
                Key::Previous => next.move_by(-1),
                Key::Share if next.mode == Mode::Full => return next.apply(Action::OpenShare),
                Key::Share => return false,
            },
            Action::Notice(Some(notice)) => next.add_notice(notice),
            Action::Notice(None) => next.notice = None,
            Action::StartFiles { files, sample } => {
                if next.run > 0 {
                    return false;
                }
                return next.apply(Action::ReplaceFiles { files, sample });
            }
            Action::OpenData { files, lnc, data } => {
                next.files.clear();
                next.add(files);
                next.replace_on_add = true;
                next.open_sample = None;
                next.lnc = lnc;
                next.relink();
                next.data = Some(data);
                next.data_in_url = true;
            }
            Action::LinkState(state, notes) => {
                next.pending = Some(state);
                next.pending_notes = notes;
            }
            Action::Navigate(state) => {
                if next.result.is_none() {
                    next.pending = Some(state);
                } else {
                    if state.select.is_none() && state.diag.is_none() {
                        next.clear_selection();
                    }
                    let missed = next.apply_state(&state);
                    let missed: Vec<String> = missed.into_iter().map(|(_, why)| why).collect();
                    next.notice_dropped(&missed);
                }
            }
            Action::SelectKey(key) => next.select_key(key),
            Action::Host { id, call } => next.host_call(id, call),
            Action::OpenShare => {
                let Some(run) = next.result_run() else { return false };
                next.share = Some(match next.data.clone() {
                    Some(data) => next.share_link(&data),
                    None => {
                        next.share_out.post(Ask { run, query: Query::Share });
                        ShareDialog::Loading
                    }
                });
            }
            Action::ShareLoaded { run, data } => {
                if Some(run) != next.result_run() {
                    return false;
                }
                match data {
                    Ok(data) => {
                        if next.share.is_some() {
                            next.share = Some(next.share_link(&data));
                        }
                        next.data = Some(data);
                    }
                    Err(why) => {
                        if next.share.is_some() {
                            next.share = Some(ShareDialog::TooLarge(why));
                        }
                    }
                }
            }
            Action::CloseShare => next.share = None,
            Action::ToggleDetails => next.details_open = !next.details_open,
        }
        true
    }

    /// A host's request: answered now, or once the worker has answered (`linked`, a
    /// `select` found or not).
    fn host_call(&mut self, id: Value, call: Result<HostCall, HostError>) {
        match call {
            Err(error) => self.host_out.post(PageMessage::Error { id, error }),
            Ok(HostCall::Ping) => self.host_out.post(PageMessage::Ack { id }),
            Ok(HostCall::GetState) => {
                let url = self.full_url();
                let select = match self.selection {
                    Some(Selection::Entity(_)) => self.selected_key.clone(),
                    _ => None,
                };
                self.host_out.post(PageMessage::State { id, url, view: self.view.link(), select });
            }
            Ok(HostCall::Load { files, lnc, state }) => {
                self.host_out.post(PageMessage::Ack { id: id.clone() });
                self.host.loads_acked.push(id.clone());
                let excess = self.host.loads_acked.len().saturating_sub(16);
                self.host.loads_acked.drain(..excess);
                self.files.clear();
                self.add(files);
                self.replace_on_add = true;
                self.open_sample = None;
                self.lnc = lnc;
                self.pending = Some(state);
                self.host.load = Some(id);
                self.relink();
            }
            Ok(HostCall::Show(state)) => {
                if self.result.is_none() {
                    self.pending = Some(state);
                    self.host_out.post(PageMessage::Ack { id });
                    return;
                }
                let missed = self.apply_state(&state);
                if let Some((code, message)) = missed.into_iter().next() {
                    self.host_out.post(PageMessage::Error { id, error: HostError { code, message } });
                } else if let Some(key) = state.select {
                    self.host.select = Some((id, key));
                } else {
                    self.host_out.post(PageMessage::Ack { id });
                }
            }
        }
    }
}

/// The entity kind a view row names, for [`EntityQuery`]s built by components.
pub fn query(kind: EntityKind, name: &str, parent: Option<&str>) -> EntityQuery {
    EntityQuery { kind, name: name.to_owned(), parent: parent.map(str::to_owned) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_run(run: u64, file: &str) -> (RunResult, birlink_core::Outcome) {
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
        (
            RunResult::new(run, outcome.report.clone(), linked, RunStats::default())
                .aligned(birlink_core::align::of(&outcome)),
            outcome,
        )
    }

    fn sample_result(run: u64, file: &str) -> RunResult {
        sample_run(run, file).0
    }

    fn reduce(state: State, action: Action) -> State {
        (*Rc::new(state).reduce(action)).clone()
    }

    fn picked(path: &str, size: u64) -> PickedFile {
        PickedFile { path: path.to_owned(), size, blob: FileBlob(None) }
    }

    /// A state that has asked for run 1 of `file` and received it.
    fn linked(file: &str) -> State {
        let state = reduce(State::default(), Action::ReplaceFiles { files: vec![picked(file, 1)], sample: None });
        assert_eq!(state.run, 1);
        reduce(state, Action::Linked(Box::new(sample_result(1, file))))
    }

    #[test]
    fn a_failing_link_opens_on_its_first_error_and_asks_for_its_place() {
        let state = linked("error-1514.json");
        assert_eq!(state.view, View::Diagnostics);
        let Some(Selection::Diagnostic(index)) = state.selection else { panic!("no diagnostic selected") };
        let result = state.result.as_ref().expect("result");
        assert_eq!(result.report.diagnostics[index].code, Code::RemoteMemlocMissing);
        assert_eq!(result.failed_pass, Some(2));
        assert_eq!(state.step, Some((2, 0)), "the pipeline view starts at the failing pass");
        assert!(matches!(state.details, Details::Original { original: Fetch::Loading, .. }));
        let asked = state.details_out.message.as_ref().expect("a request for the failing place");
        assert!(
            matches!(&asked.query, Query::Original { file, pointer } if file == "error-1514.json" && pointer.ends_with("/remote_local_target"))
        );
    }

    #[test]
    fn a_diagnostic_without_a_place_says_so_and_asks_nothing() {
        for file in ["error-1512.json", "error-1513.json", "error-1509.json"] {
            let state = linked(file);
            let asked_before = state.details_out.seq;
            assert!(
                matches!(&state.details, Details::Original { original: Fetch::Missing(why), .. } if why.contains("as a whole")),
                "{file}: {:?}",
                state.details
            );
            assert_eq!(asked_before, 0, "{file}: nothing to fetch, nothing asked");
            // Moving away and back keeps it settled.
            let state = reduce(state, Action::Key(Key::Next));
            let state = reduce(state, Action::Key(Key::Previous));
            assert!(!matches!(&state.details, Details::Original { original: Fetch::Loading, .. }), "{file}");
        }
    }

    #[test]
    fn a_dma_block_of_a_queue_instance_shows_its_queue_as_its_unit() {
        let (result, outcome) = sample_run(1, "matmul-2core.json");
        let state = reduce(State::default(), Action::ReplaceFiles { files: vec![picked("m.json", 1)], sample: None });
        let state = reduce(state, Action::Linked(Box::new(result)));
        let module = outcome.linked.as_ref().expect("linked");
        let relocation = &state.result.as_ref().expect("result").report.semaphores.relocations[0];
        let query = query(EntityKind::Instruction, &relocation.block, Some(&relocation.block_parent));
        let state = reduce(state, Action::Select(Selection::Entity(query.clone())));
        assert_eq!(state.details, Details::Entity { query: query.clone(), view: Fetch::Loading });
        assert_eq!(state.details_out.message.as_ref().map(|a| &a.query), Some(&Query::Entity(query.clone())));
        let view = birlink_core::query::entity_view(module, &outcome.files, &query).expect("the DMA block");
        assert!(matches!(&view.unit, Unit::Queue(_)), "a queue instance's block belongs to a queue: {:?}", view.unit);
        let unit = view.unit.clone();
        let state =
            reduce(state, Action::EntityLoaded { run: 1, query: query.clone(), view: Some(Box::new(view.clone())) });
        assert!(matches!(&state.details, Details::Entity { view: Fetch::Ready(v), .. } if v.key == view.key));
        let state = reduce(state, Action::ShowUnit(unit.clone()));
        assert_eq!(state.details_out.message.as_ref().map(|a| &a.query), Some(&Query::Unit(unit.clone())));
        let text = birlink_core::query::unit_text(module, &unit);
        assert!(text.is_some(), "the worker has the queue's text");
        let state = reduce(state, Action::UnitLoaded { run: 1, unit: unit.clone(), text });
        assert!(matches!(&state.details, Details::Unit { text: Fetch::Ready(_), .. }));
        // A unit the worker does not have settles as missing, not loading.
        let other = Unit::Function("nowhere".into());
        let state = reduce(state, Action::ShowUnit(other.clone()));
        let state = reduce(state, Action::UnitLoaded { run: 1, unit: other, text: None });
        assert!(matches!(&state.details, Details::Unit { text: Fetch::Missing(_), .. }));
    }

    #[test]
    fn answers_for_another_selection_or_run_are_dropped() {
        let state = linked("matmul-2core.json");
        let a = query(EntityKind::Function, "nc00", None);
        let b = query(EntityKind::Function, "nc01", None);
        let state = reduce(state, Action::Select(Selection::Entity(b.clone())));
        let late = reduce(state.clone(), Action::EntityLoaded { run: 1, query: a, view: None });
        assert_eq!(late.details, state.details, "an answer about `a` does not show while `b` is selected");
        let stale = reduce(state.clone(), Action::EntityLoaded { run: 0, query: b, view: None });
        assert_eq!(stale.details, state.details);
    }

    #[test]
    fn a_clean_link_keeps_the_view_and_shows_the_first_change() {
        let state = State { view: View::Barriers, ..State::default() };
        let state = reduce(state, Action::ReplaceFiles { files: vec![picked("m.json", 1)], sample: None });
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "matmul-2core.json"))));
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
        let state = reduce(State::default(), Action::AddFiles(vec![picked("a.json", 1)]));
        let state = reduce(state, Action::AddFiles(vec![picked("b.json", 1)]));
        assert_eq!(state.run, 2);
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "matmul-2core.json"))));
        assert!(state.result.is_none());
        let state = reduce(state, Action::Progress { run: 1, phase: "old".into(), done: 1, total: 2 });
        assert_eq!(state.status, Status::Running { phase: "starting".into(), done: 0, total: 1 });
    }

    #[test]
    fn every_change_of_the_link_set_posts_a_link_the_first_at_once() {
        let state = reduce(State::default(), Action::AddFiles(vec![picked("nc00.json", 1)]));
        let first = state.link_out.message.clone().expect("a link");
        assert_eq!((first.run, first.delay_ms, first.files.len()), (1, 0, 1));
        let state = reduce(state, Action::AddFiles(vec![picked("nc01.json", 1)]));
        let second = state.link_out.message.clone().expect("a link");
        assert_eq!((second.run, second.delay_ms, second.files.len()), (2, 120, 2), "later links wait for the batch");
        let state = reduce(state, Action::SetLnc(Some(4)));
        assert_eq!(state.link_out.message.as_ref().map(|o| (o.run, o.lnc)), Some((3, Some(4))));
        let seq = state.link_out.seq;
        let state = reduce(state, Action::ClearFiles);
        assert_eq!(state.status, Status::Idle);
        assert_eq!((state.link_out.seq, state.link_out.message.is_none()), (seq, true), "nothing to link");
    }

    #[test]
    fn adding_a_file_with_the_same_path_replaces_it() {
        let state = reduce(State::default(), Action::AddFiles(vec![picked("nc00.json", 1), picked("nc01.json", 2)]));
        let state = reduce(state, Action::AddFiles(vec![picked("nc00.json", 3)]));
        let paths: Vec<(&str, u64)> = state.files.iter().map(|f| (f.path.as_str(), f.size)).collect();
        assert_eq!(paths, vec![("nc01.json", 2), ("nc00.json", 3)]);
        let id = state.files[0].id;
        let state = reduce(state, Action::RemoveFile(id));
        assert_eq!(state.files.len(), 1);
    }

    #[test]
    fn the_users_first_files_replace_the_sample_and_the_menu_follows() {
        let state = reduce(
            State::default(),
            Action::ReplaceFiles {
                files: vec![picked("matmul-2core.json", 1)],
                sample: Some("matmul-2core.json".into()),
            },
        );
        assert_eq!(state.open_sample.as_deref(), Some("matmul-2core.json"), "the menu shows the open sample");
        let state = reduce(state, Action::AddFiles(vec![picked("nc00.json", 1)]));
        assert_eq!(state.open_sample, None, "the user's files are no sample");
        let state = reduce(state, Action::AddFiles(vec![picked("nc01.json", 1)]));
        let paths: Vec<&str> = state.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, vec!["nc00.json", "nc01.json"]);
        let state = reduce(
            state,
            Action::ReplaceFiles { files: vec![picked("x.json", 1)], sample: Some("error-1512.json".into()) },
        );
        assert_eq!(state.open_sample.as_deref(), Some("error-1512.json"));
    }

    #[test]
    fn steps_move_with_the_keyboard_within_visible_steps() {
        let state = linked("matmul-2core.json");
        let steps = state.visible_steps();
        assert!(steps.len() > 3);
        assert!(steps.iter().all(|&(p, s)| state.result.as_ref().expect("r").report.passes[p].steps[s].changes > 0));
        let state = reduce(state, Action::Key(Key::Next));
        assert_eq!(state.step, Some(steps[1]));
        let state = (0..100).fold(state, |state, _| reduce(state, Action::Key(Key::Next)));
        assert_eq!(state.step, steps.last().copied());
        let state = reduce(state, Action::ToggleHideUnchanged);
        assert!(state.visible_steps().len() > steps.len());
    }

    #[test]
    fn diagnostics_move_with_the_keyboard_errors_first() {
        let state = linked("error-1514.json");
        let order = state.result.as_ref().expect("r").diagnostic_order.clone();
        assert!(order.len() > 1, "the sample has more than one diagnostic");
        assert_eq!(state.selection, Some(Selection::Diagnostic(order[0])));
        let state = reduce(state, Action::Key(Key::Next));
        assert_eq!(state.selection, Some(Selection::Diagnostic(order[1])));
        let state = reduce(state, Action::Key(Key::Previous));
        let state = reduce(state, Action::Key(Key::Previous));
        assert_eq!(state.selection, Some(Selection::Diagnostic(order[0])), "stops at the first");
    }

    #[test]
    fn escape_closes_help_then_search_then_the_selection() {
        let state = linked("matmul-2core.json");
        let state = reduce(state, Action::Select(Selection::Entity(query(EntityKind::Function, "nc00", None))));
        let state = reduce(state, Action::SearchText("c_".into()));
        let state = reduce(state, Action::Key(Key::Help));
        assert!(state.help && state.search.open);
        let state = reduce(state, Action::Key(Key::Escape));
        assert!(!state.help && state.search.open);
        let state = reduce(state, Action::Key(Key::Escape));
        assert!(!state.search.open && state.selection.is_some());
        let state = reduce(state, Action::Key(Key::Escape));
        assert_eq!((state.selection, state.details), (None, Details::Empty));
    }

    fn host_messages(state: &State) -> Vec<serde_json::Value> {
        state.host_out.messages.iter().map(|(_, m)| m.to_value()).collect()
    }

    #[test]
    fn a_hosts_load_is_acknowledged_then_answered_when_linked() {
        let state = State::new(Mode::Embed, Page::default());
        let load = HostCall::Load {
            files: vec![picked("error-1514.json", 1)],
            lnc: None,
            state: ViewState { view: Some(share::View::CallGraph), ..ViewState::default() },
        };
        let state = reduce(state, Action::Host { id: serde_json::json!(7), call: Ok(load) });
        assert_eq!(host_messages(&state), vec![serde_json::json!({"birlink": "ack", "id": 7})]);
        // The start-up fetch, slower than the host, does not replace its files.
        let late =
            reduce(state.clone(), Action::StartFiles { files: vec![picked("matmul-2core.json", 1)], sample: None });
        assert_eq!(late.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["error-1514.json"]);
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "error-1514.json"))));
        let linked = host_messages(&state).pop().expect("linked");
        assert_eq!(linked["birlink"], "linked");
        assert_eq!(linked["id"], 7);
        assert_eq!(linked["ok"], false);
        assert_eq!(linked["failed_pass"], "vnc_remote_addr_map");
        assert_eq!(state.view, View::CallGraph, "the load's view wins over opening on the failure");
        assert_eq!(state.history.seq, 0, "embedded, the page never writes its URL");
    }

    #[test]
    fn a_show_with_a_selection_is_acknowledged_once_found_or_refused() {
        let state = reduce(linked("matmul-2core.json"), Action::Notice(None));
        let key: EntityKey = "function:1:nc01".parse().expect("key");
        let show = ViewState { view: Some(share::View::Barriers), select: Some(key.clone()), ..ViewState::default() };
        let state = reduce(state, Action::Host { id: serde_json::json!("s"), call: Ok(HostCall::Show(show)) });
        assert!(host_messages(&state).is_empty(), "not before the entity is found");
        assert_eq!(state.details_out.message.as_ref().map(|a| &a.query), Some(&Query::EntityByKey(key.clone())));
        let query = birlink_core::query::query_of(&key);
        let found = reduce(state.clone(), Action::EntityLoaded { run: 1, query: query.clone(), view: None });
        assert_eq!(host_messages(&found).pop().expect("error")["code"], "not-found");
        let bad = ViewState { view: Some(share::View::Pipeline), diag: Some(99), ..ViewState::default() };
        let refused = reduce(found, Action::Host { id: serde_json::json!("d"), call: Ok(HostCall::Show(bad)) });
        let error = host_messages(&refused).pop().expect("error");
        assert_eq!(
            (error["id"].clone(), error["code"].clone()),
            (serde_json::json!("d"), serde_json::json!("not-found"))
        );
    }

    #[test]
    fn a_links_state_applies_to_the_run_and_what_does_not_apply_is_said() {
        let link = ViewState::parse("view=barriers&step=bir_linker/aliases&diag=0").0;
        let state = reduce(State::default(), Action::LinkState(link, vec!["`zoom=2`: not a part".into()]));
        let state = reduce(state, Action::ReplaceFiles { files: vec![picked("m.json", 1)], sample: None });
        let state = reduce(state, Action::Linked(Box::new(sample_result(1, "matmul-2core.json"))));
        assert_eq!(state.view, View::Barriers);
        assert!(
            state.notice.as_deref().is_some_and(|n| n.contains("zoom=2") && n.contains("diag=0")),
            "{:?}",
            state.notice
        );
        let (p, s) = state.step.expect("the step");
        assert_eq!(state.result.as_ref().expect("r").report.passes[p].steps[s].name, "aliases");
        let write = state.history.message.clone().expect("the URL follows");
        assert!(!write.push, "a link applied replaces the entry, it does not add one");
        assert_eq!(write.fragment, "view=barriers");
    }

    #[test]
    fn a_users_steps_push_history_and_navigation_writes_nothing() {
        let state = linked("matmul-2core.json");
        let state = reduce(state, Action::SetView(View::Addresses));
        assert_eq!(
            state.history.message.as_ref().map(|w| (w.fragment.as_str(), w.push)),
            Some(("view=addresses", true))
        );
        let seq = state.history.seq;
        let state = reduce(state, Action::Navigate(ViewState::parse("view=semaphores").0));
        assert_eq!((state.view, state.history.seq), (View::Semaphores, seq));
        // An entity selection is written once its key is known.
        let query = query(EntityKind::Function, "nc00", None);
        let state = reduce(state, Action::Select(Selection::Entity(query.clone())));
        assert_eq!(state.history.seq, seq, "not before the key is known");
        let (_, outcome) = sample_run(1, "matmul-2core.json");
        let view = birlink_core::query::entity_view(outcome.linked.as_ref().expect("linked"), &outcome.files, &query);
        let state = reduce(state, Action::EntityLoaded { run: 1, query, view: view.map(Box::new) });
        assert_eq!(
            state.history.message.as_ref().map(|w| (w.fragment.as_str(), w.push)),
            Some(("view=semaphores&select=function:0:nc00", true))
        );
    }

    #[test]
    fn share_shows_a_link_or_says_why_not() {
        let state = State {
            page: Page { base: "http://h/b/".into(), full_query: String::new() },
            ..linked("matmul-2core.json")
        };
        let state = reduce(state, Action::Key(Key::Share));
        assert_eq!(state.share, Some(ShareDialog::Loading));
        assert_eq!(state.share_out.message.as_ref().map(|a| &a.query), Some(&Query::Share));
        let ready = reduce(state.clone(), Action::ShareLoaded { run: 1, data: Ok("v1.abc".into()) });
        let Some(ShareDialog::Link(link)) = &ready.share else { panic!("{:?}", ready.share) };
        assert!(link.starts_with("http://h/b/#view=pipeline") && link.ends_with("&data=v1.abc"), "{link}");
        let huge = "v1.".to_owned() + &"a".repeat(share::LINK_BUDGET);
        let too_large = reduce(state.clone(), Action::ShareLoaded { run: 1, data: Ok(huge) });
        assert!(matches!(&too_large.share, Some(ShareDialog::TooLarge(why)) if why.contains("above the budget")));
        let refused = reduce(state, Action::ShareLoaded { run: 1, data: Err("the link set is 300 MB".into()) });
        assert!(matches!(&refused.share, Some(ShareDialog::TooLarge(why)) if why.contains("300 MB")));
        let embedded = State { mode: Mode::Embed, ..linked("matmul-2core.json") };
        assert_eq!(reduce(embedded, Action::Key(Key::Share)).share, None, "no Share embedded");
    }

    fn repro(state: State, action: ReproAction) -> State {
        reduce(state, Action::Repro(action))
    }

    #[test]
    fn a_pasted_log_is_read_and_its_names_located_in_the_run() {
        let state = linked("error-1514.json");
        // A paste that is no log changes nothing.
        let before = Rc::new(state.clone());
        let after = before.clone().reduce(Action::Repro(ReproAction::Pasted("hello".to_owned())));
        assert!(Rc::ptr_eq(&before, &after));
        let line = "[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named c_partial_0_remote_1 on core 0";
        let state = repro(state, ReproAction::Pasted(format!("INFO start\n{line}\n")));
        assert!(state.log.read && !state.log.editing);
        assert_eq!(state.log.findings.len(), 1);
        assert_eq!(state.log.findings[0].line, 2);
        let ask = state.log_out.message.clone().expect("asks the worker");
        assert_eq!(ask.run, 1);
        assert!(matches!(&ask.query, Query::Locate(text) if text.contains(line)));
        // The worker's answer for the run jumps to the run's diagnostic about the name.
        let (_, outcome) = sample_run(1, "error-1514.json");
        let located: Vec<Vec<birlink_core::log::Located>> =
            state.log.findings.iter().map(|f| birlink_core::log::locate(f, &outcome)).collect();
        let diagnostic = located[0][0].diagnostic.expect("the 1514 about it");
        let stale = repro(
            state.clone(),
            ReproAction::Located { run: 7, text: state.log.text.clone(), located: located.clone() },
        );
        assert!(stale.log.located.is_none(), "another run's answer is dropped");
        let state = repro(state.clone(), ReproAction::Located { run: 1, text: state.log.text.clone(), located });
        assert_eq!(state.view, View::Diagnostics);
        assert_eq!(state.selection, Some(Selection::Diagnostic(diagnostic)));
        assert_eq!(state.result.as_ref().unwrap().report.diagnostics[diagnostic].code, Code::RemoteMemlocMissing);
        // Closing forgets it.
        let closed = repro(state, ReproAction::CloseLog);
        assert_eq!(closed.log, LogState::default());
    }

    #[test]
    fn a_log_read_without_a_link_set_asks_nothing() {
        let state = repro(State::default(), ReproAction::OpenLog);
        assert!(state.log.editing);
        let state = repro(state, ReproAction::LogText("[NCC_IXLV002] Expected core barriers to have name A, but core barrier 5 in subgraph 0 on core 1 has name B".to_owned()));
        let state = repro(state, ReproAction::ReadLog);
        assert!(!state.log.editing && state.log.read);
        assert_eq!(state.log.findings[0].mentions.len(), 2);
        assert_eq!(state.log_out.seq, 0, "no run to look in");
        // Escape closes the box before anything else.
        let state = repro(state, ReproAction::OpenLog);
        let state = reduce(state, Action::Key(Key::Escape));
        assert!(!state.log.editing && state.log.read);
    }

    #[test]
    fn reduce_runs_in_the_worker_and_opens_its_result_with_the_original_one_step_away() {
        let state = linked("error-1514.json");
        let state = repro(state, ReproAction::StartReduce);
        assert!(matches!(state.reducing, Some(Reducing::Running { run: 1, step: None })));
        assert!(matches!(state.reduce_out.message, Some(Ask { run: 1, query: Query::Reduce })));
        // A second start while running asks nothing more.
        let seq = state.reduce_out.seq;
        assert_eq!(repro(state.clone(), ReproAction::StartReduce).reduce_out.seq, seq);
        let step = crate::protocol::ReduceStep {
            round: 1,
            level: "instructions".to_owned(),
            tests: 9,
            instructions: 4,
            bytes: 900,
        };
        let state = repro(state, ReproAction::Progress { run: 1, step: step.clone() });
        assert!(matches!(&state.reducing, Some(Reducing::Running { step: Some(s), .. }) if *s == step));
        // Cancel stops it in the worker too.
        let cancelled = repro(state.clone(), ReproAction::CancelReduce);
        assert_eq!(cancelled.reducing, None);
        assert!(matches!(cancelled.reduce_out.message, Some(Ask { run: 1, query: Query::CancelReduce })));
        // A late result after Cancel is dropped.
        let summary = crate::protocol::ReducedSummary {
            file_name: "reduced.json".to_owned(),
            code: "1514".to_owned(),
            pass: "vnc_remote_addr_map".to_owned(),
            tests: 40,
            bytes: (30_000, 700),
            instructions: (60, 0),
            ms: 120.0,
        };
        let late = repro(
            cancelled,
            ReproAction::Reduced { run: 1, file: picked("reduced.json", 700), summary: summary.clone() },
        );
        assert_eq!(late.files[0].path, "error-1514.json");
        // The result becomes the link set, linked at once; the original is one step away.
        let state = repro(state, ReproAction::Reduced { run: 1, file: picked("reduced.json", 700), summary });
        assert_eq!(state.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec!["reduced.json"]);
        assert_eq!(state.run, 2);
        assert_eq!(state.link_out.message.as_ref().map(|o| o.run), Some(2));
        assert!(state.original.is_some() && state.reduced.is_some());
        let back = repro(state.clone(), ReproAction::BackToOriginal);
        assert_eq!(back.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec!["error-1514.json"]);
        assert_eq!(back.run, 3);
        assert!(back.original.is_none() && back.reduced.is_none());
        // The user's own files end it: no way back to a set they replaced themselves.
        let replaced = reduce(state, Action::AddFiles(vec![picked("nc00.json", 5)]));
        assert!(replaced.original.is_none() && replaced.reduced.is_none());
    }

    #[test]
    fn a_reduction_that_cannot_run_says_why() {
        let state = repro(linked("error-1514.json"), ReproAction::StartReduce);
        let state = repro(state, ReproAction::Failed { run: 1, message: "the link set does not fail".to_owned() });
        assert_eq!(state.reducing, Some(Reducing::Failed("the link set does not fail".to_owned())));
        // It can be tried again.
        let again = repro(state, ReproAction::StartReduce);
        assert!(matches!(again.reducing, Some(Reducing::Running { .. })));
    }
}
