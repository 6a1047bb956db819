//! The link set and its runs: the files, the LNC, where the set came from, where the
//! latest run stands, and what a finished run produced ([`RunResult`]: the report as the
//! CLI writes it, plus view models derived from it once).
//!
//! A finished run is held behind [`RunRef`], compared by identity: an action never
//! compares two reports field by field on the main thread.

use std::collections::BTreeMap;
use std::rc::Rc;

use birlink_core::diag::Severity;
use birlink_core::output::report::{PassStatus, Report};
use birlink_core::read::workdir::{self, Plan};
use birlink_core::tools::align::Alignment;
use birlink_core::tools::share::View;
use birlink_core::Code;

use super::{Ask, Mode, Outbox, Query, Selection, Side, State};
use crate::protocol::RunStats;

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

/// Where the link set came from: what a host may be told of it depends on it (embed
/// spec §4, "What a host hears").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// Nothing is open.
    #[default]
    None,
    /// The page's own link: `sample=`, `src=`, `data=` or the default sample.
    Link,
    /// A host's `load`.
    Host,
    /// The user's own files (picked, dropped, or a reduction of them).
    User,
}

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
    /// The work directory the files came from, for the link's last step.
    pub workdir: Option<WorkdirOrder>,
}

/// A work directory's other files, as a link order carries them.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkdirOrder {
    /// The pass whose dumps are linked.
    pub after: Option<String>,
    /// Every file: path and size.
    pub files: Vec<(String, u64)>,
    /// The files whose bytes the last step reads.
    pub wanted: Vec<LoadedFile>,
}

/// The link set, and where its latest run stands.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkSet {
    /// The files.
    pub files: Vec<LoadedFile>,
    /// Next file id.
    pub next_file_id: u64,
    /// Whether the link set is one the app opened (a sample or a URL), not the user's
    /// own files: the user's first files then replace it rather than join it.
    pub replace_on_add: bool,
    /// The sample the link set is, when it is one (the samples menu shows it).
    pub open_sample: Option<String>,
    /// Where the link set came from.
    pub source: Source,
    /// `vnc_nc_count` set by the user (`None`: automatic).
    pub lnc: Option<u64>,
    /// The latest run requested.
    pub run: u64,
    /// Where that run stands.
    pub status: Status,
    /// The link to run next.
    pub out: Outbox<LinkOrder>,
    /// A link's `data=` to read (in the worker), with the query's LNC.
    pub decode: Outbox<(String, Option<u64>)>,
    /// In a compiler work directory, the pass whose dumps to link (`None`: the default
    /// rule, `lower_sync`).
    pub after: Option<String>,
    /// The files are a compiler work directory: what the last link took of them.
    pub workdir: Option<Workdir>,
}

/// The link set read as a compiler work directory (docs/spec/link.md §1): which file
/// each core links from and why, and what was set aside.
#[derive(Clone, Debug, PartialEq)]
pub struct Workdir {
    /// The files' paths, as the plan's indices count them.
    pub paths: Vec<String>,
    /// What `birlink_core::read::workdir::pick` chose.
    pub plan: Plan,
}

impl Default for LinkSet {
    fn default() -> Self {
        LinkSet {
            files: Vec::new(),
            next_file_id: 1,
            replace_on_add: false,
            open_sample: None,
            source: Source::None,
            lnc: None,
            run: 0,
            status: Status::Idle,
            out: Outbox::default(),
            decode: Outbox::default(),
            after: None,
            workdir: None,
        }
    }
}

impl LinkSet {
    /// Adds files (a file with a path already there replaces it).
    pub(crate) fn add(&mut self, new: Vec<PickedFile>) {
        for PickedFile { path, size, blob } in new {
            self.files.retain(|f| f.path != path);
            self.files.push(LoadedFile { id: self.next_file_id, path, size, blob });
            self.next_file_id += 1;
        }
    }

    /// Replaces the files.
    pub(crate) fn replace(&mut self, files: Vec<PickedFile>, source: Source) {
        self.files.clear();
        self.after = None;
        self.add(files);
        self.replace_on_add = true;
        self.source = source;
    }
}

impl LinkSet {
    /// The files to link, the LNC and the work directory, deciding on the way whether
    /// the files are one: then only each core's dump after the chosen pass are linked,
    /// and the rest go to the link's last step (names and sizes, the bytes it reads).
    /// Otherwise every file but a folder's `command.txt`, which is provenance only.
    pub(crate) fn take_for_link(&mut self) -> (Vec<LoadedFile>, Option<u64>, Option<WorkdirOrder>) {
        let paths: Vec<String> = self.files.iter().map(|f| f.path.clone()).collect();
        let names: Vec<&str> = paths.iter().map(String::as_str).collect();
        match workdir::pick(&names, self.after.as_deref()) {
            Some(plan) => {
                let files = plan.picked.iter().map(|(i, _, _)| self.files[*i].clone()).collect();
                // A missing core makes the LNC the folders' count: the core decides it
                // from the work directory (`lnc_source` `workdir`).
                let lnc = self.lnc;
                let order = WorkdirOrder {
                    after: self.after.clone(),
                    files: self.files.iter().map(|f| (f.path.clone(), f.size)).collect(),
                    wanted: workdir::wanted(&names, &plan).into_iter().map(|i| self.files[i].clone()).collect(),
                };
                self.workdir = Some(Workdir { paths, plan });
                (files, lnc, Some(order))
            }
            None => {
                self.workdir = None;
                let files = self.files.iter().filter(|f| !f.path.ends_with("/command.txt")).cloned().collect();
                (files, self.lnc, None)
            }
        }
    }
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

/// The link set's actions.
#[derive(Debug)]
pub enum LinkAction {
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
    /// A link came with its link set (`data=`): the worker reads it (the query's LNC,
    /// if any, wins over the data's).
    OpenLink {
        /// The `data=` text.
        data: String,
        /// The query's LNC.
        lnc: Option<u64>,
    },
    /// The link's data could not be read, and why: nothing is opened.
    Undecodable(String),
    /// Open a link set that came with a link (`data=`), decoded by the worker: its
    /// files, the LNC, the data.
    OpenData {
        /// The files.
        files: Vec<PickedFile>,
        /// The LNC it carries.
        lnc: Option<u64>,
        /// The `data=` text.
        data: String,
    },
    /// Drop one file.
    RemoveFile(u64),
    /// Drop every file.
    ClearFiles,
    /// In a work directory, link the dumps after this pass (`None`: the default rule).
    SetAfter(Option<String>),
    /// Set `vnc_nc_count` (`None`: automatic).
    SetLnc(Option<u64>),
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
    /// A message between the page and the worker could not be read (a bug in birlink,
    /// said as such): the run under way ends with it.
    Broken(String),
}

impl State {
    /// Posts a link of the current files (or goes idle when there are none).
    pub(crate) fn relink(&mut self) {
        // Another link set: what was known of the last one is not this one's.
        self.share.forget_data();
        if self.link.files.is_empty() {
            self.link.status = Status::Idle;
            self.link.out.message = None;
            self.link.source = Source::None;
            return;
        }
        // The first link starts at once; later ones wait for the rest of a batch.
        let run = self.next_run();
        let link = &mut self.link;
        let delay_ms = if link.run == 0 { 0 } else { 120 };
        let (files, lnc, workdir) = link.take_for_link();
        link.run = run;
        link.status = Status::Running { phase: "starting".to_owned(), done: 0, total: 1 };
        link.out.post(LinkOrder { run, files, lnc, delay_ms, workdir });
    }

    /// Applies a link set action; false when it changes nothing.
    pub(super) fn apply_link(&mut self, action: LinkAction) -> bool {
        // The user's own change of link set ends what a reduction left.
        if matches!(
            action,
            LinkAction::AddFiles(_)
                | LinkAction::ReplaceFiles { .. }
                | LinkAction::RemoveFile(_)
                | LinkAction::ClearFiles
                | LinkAction::SetLnc(_)
                | LinkAction::SetAfter(_)
                | LinkAction::OpenData { .. }
        ) {
            self.forget_repro();
        }
        match action {
            LinkAction::AddFiles(new) => {
                if self.link.replace_on_add {
                    self.link.files.clear();
                    self.link.replace_on_add = false;
                }
                self.link.open_sample = None;
                self.link.source = Source::User;
                self.link.add(new);
                self.notice = None;
                self.relink();
            }
            LinkAction::ReplaceFiles { files, sample } => {
                self.link.replace(files, Source::Link);
                self.link.open_sample = sample;
                self.notice = None;
                self.relink();
            }
            LinkAction::StartFiles { files, sample } => {
                if self.link.run > 0 {
                    return false;
                }
                return self.apply_link(LinkAction::ReplaceFiles { files, sample });
            }
            LinkAction::OpenLink { data, lnc } => {
                self.link.status = Status::Running { phase: "reading the link's data".to_owned(), done: 0, total: 1 };
                self.link.decode.post((data, lnc));
            }
            LinkAction::Undecodable(why) => {
                self.link.status = Status::Idle;
                self.add_notice(format!("{why}; nothing was opened"));
            }
            LinkAction::OpenData { files, lnc, data } => {
                self.link.replace(files, Source::Link);
                self.link.open_sample = None;
                self.link.lnc = lnc;
                self.relink();
                self.share.know_data(data, true);
            }
            LinkAction::RemoveFile(id) => {
                self.link.files.retain(|f| f.id != id);
                self.link.open_sample = None;
                self.relink();
            }
            LinkAction::SetAfter(after) => {
                if self.link.after == after {
                    return false;
                }
                self.link.after = after;
                self.relink();
            }
            LinkAction::ClearFiles => {
                self.link.files.clear();
                self.link.after = None;
                self.link.open_sample = None;
                self.result = None;
                self.relink();
                self.clear_selection();
            }
            LinkAction::SetLnc(lnc) => {
                self.link.lnc = lnc.filter(|n| (1..=birlink_core::limits::MAX_LNC).contains(n));
                if let Some(n) = lnc.filter(|n| *n > birlink_core::limits::MAX_LNC) {
                    self.add_notice(format!(
                        "an LNC of {n} is more cores than birlink links (at most {}): the LNC is read from the files",
                        birlink_core::limits::MAX_LNC
                    ));
                }
                self.relink();
            }
            // A run's answers go to the link set whose run it is (the one compared
            // against is linked by the same worker).
            LinkAction::Progress { run, phase, done, total } => match self.side_of(run) {
                Some(Side::Shown) => self.link.status = Status::Running { phase, done, total },
                Some(Side::Against) => self.against.link.status = Status::Running { phase, done, total },
                None => return false,
            },
            LinkAction::Linked(result) => match self.side_of(result.run) {
                Some(Side::Shown) => self.linked(result),
                Some(Side::Against) => self.against_linked(RunRef(Rc::from(result))),
                None => return false,
            },
            LinkAction::Failed { run, message } => match self.side_of(run) {
                Some(Side::Shown) => self.link.status = Status::Failed(message),
                Some(Side::Against) => self.against.link.status = Status::Failed(message),
                None => return false,
            },
            LinkAction::Broken(message) => {
                self.link.status = Status::Failed(format!("the worker's message could not be read: {message}"));
            }
        }
        true
    }

    /// A run finished: it becomes the result, and every concern moves on to it.
    fn linked(&mut self, result: Box<RunResult>) {
        let failed = result.failed();
        let first_error = result.diagnostic_order.first().copied().filter(|_| failed);
        self.result = Some(RunRef(Rc::from(result)));
        self.link.status = Status::Done;
        self.step = self.default_step();
        self.search.reset();
        self.details.by_user = false;
        // Failure first: open on the diagnostic that explains it (unless the page is
        // comparing: the Compare view says what failed, on which side).
        let comparing = self.view == View::Compare && self.against.is_open();
        match first_error.filter(|_| !comparing) {
            Some(index) => {
                self.view = View::Diagnostics;
                self.select(Selection::Diagnostic(index));
                self.details.open = self.mode == Mode::Full;
            }
            None => {
                if self.view == View::Diagnostics
                    && self.result.as_ref().is_some_and(|r| r.report.diagnostics.is_empty())
                {
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
        let from_query = self.link.open_sample.is_some() || self.page.full_query.contains("src=");
        if self.mode == Mode::Embed && !from_query && self.share.data.is_none() {
            if let Some(run) = self.result_run() {
                self.share.out.post(Ask { run, query: Query::Share });
            }
        }
    }
}
