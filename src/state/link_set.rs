//! The two link sets, one type: each side ([`Side::Shown`], A; [`Side::Against`], B)
//! is a [`LinkSide`] — its files and where they came from, its LNC, where its latest
//! run stands, its latest finished run, and what a link carries of it (`data=`,
//! `against-data=`). Every action on a link set names its side ([`LinkAction`]), and
//! [`State::relink`] is the one way a side's files become a link order; what differs
//! between the sides is said where it differs (B's changes open the Compare view; A's
//! end what a reduction left).
//!
//! Runs of both sides take their numbers from one counter, so an answer about a run
//! finds its side by number ([`State::side_of`]), and swapping the sides is a swap in
//! the page alone: the worker answers about either run by its number.

use birlink_core::read::workdir::{self, Plan};
use birlink_core::tools::share::View;

use super::{DecodeOrder, Outbox, RunRef, State};
use crate::side::Side;

/// A file of a link set. The blob itself is compared by `id` only.
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

/// A file the user picked, dropped or the page fetched, before it joins a link set.
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
#[derive(Clone, Debug, PartialEq)]
pub struct FileBlob(pub Option<web_sys::Blob>);

/// Where a link set came from: what a host may be told of it depends on it (embed
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

/// Where a side's latest run stands.
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

impl Status {
    fn starting(phase: &str) -> Status {
        Status::Running { phase: phase.to_owned(), done: 0, total: 1 }
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
    /// The work directory the files came from, for the link's last step.
    pub workdir: Option<WorkdirOrder>,
    /// How to link, when the user chose (`None`: as the compiler decides).
    pub flow: Option<birlink_core::Flow>,
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

/// A link set's files, and where its latest run stands.
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
    /// How to link, set by the user (`flow=`, the flow menu) or by a work directory
    /// sample's index entry (`None`: as the compiler decides).
    pub flow: Option<birlink_core::Flow>,
    /// `flow` is the open sample's, not the user's: it goes with the sample.
    pub flow_of_sample: bool,
    /// The latest run requested.
    pub run: u64,
    /// Where that run stands.
    pub status: Status,
    /// The link to run next.
    pub out: Outbox<LinkOrder>,
    /// In a compiler work directory, the pass whose dumps to link (`None`: the default
    /// rule, `lower_sync`).
    pub after: Option<String>,
    /// The files are a compiler work directory: what the last link took of them.
    pub workdir: Option<Workdir>,
}

/// A link set read as a compiler work directory (docs/spec/link.md §1): which file
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
            flow: None,
            flow_of_sample: false,
            run: 0,
            status: Status::Idle,
            out: Outbox::default(),
            after: None,
            workdir: None,
        }
    }
}

impl LinkSet {
    /// Whether it has files.
    pub fn is_open(&self) -> bool {
        !self.files.is_empty()
    }

    /// Adds files (a file with a path already there replaces it).
    pub(crate) fn add(&mut self, new: Vec<PickedFile>) {
        for PickedFile { path, size, blob } in new {
            self.files.retain(|f| f.path != path);
            self.files.push(LoadedFile { id: self.next_file_id, path, size, blob });
            self.next_file_id += 1;
        }
    }

    /// Replaces the files: a link set the page opened (the user's first files replace
    /// it), from `source`, the sample it is.
    pub(crate) fn replace(&mut self, files: Vec<PickedFile>, source: Source, sample: Option<String>) {
        self.files.clear();
        self.after = None;
        self.add(files);
        self.replace_on_add = true;
        self.source = source;
        self.open_sample = sample;
    }

    /// The files to link, the LNC and the work directory, deciding on the way whether
    /// the files are one: then only each core's dump after the chosen pass are linked,
    /// and the rest go to the link's last step (names and sizes, the bytes it reads).
    /// Otherwise every file but a folder's `command.txt`, which is provenance only.
    pub(crate) fn take_for_link(&mut self) -> (Vec<LoadedFile>, Option<u64>, Option<WorkdirOrder>) {
        let paths: Vec<String> = self.files.iter().map(|f| f.path.clone()).collect();
        let names: Vec<&str> = paths.iter().map(String::as_str).collect();
        match workdir::pick(&names, self.after.as_deref()) {
            Some(plan) => {
                let files = plan.inputs().into_iter().map(|i| self.files[i].clone()).collect();
                // A missing core makes the LNC the folders' count: the core decides it
                // from the work directory (`lnc_source` `workdir`).
                let order = WorkdirOrder {
                    after: self.after.clone(),
                    files: self.files.iter().map(|f| (f.path.clone(), f.size)).collect(),
                    wanted: workdir::wanted(&names, &plan).into_iter().map(|i| self.files[i].clone()).collect(),
                };
                self.workdir = Some(Workdir { paths, plan });
                (files, self.lnc, Some(order))
            }
            None => {
                self.workdir = None;
                let files = self.files.iter().filter(|f| !f.path.ends_with("/command.txt")).cloned().collect();
                (files, self.lnc, None)
            }
        }
    }
}

/// New files parted into compiler logs and the rest.
pub(super) fn split_logs(files: Vec<PickedFile>) -> (Vec<PickedFile>, Vec<PickedFile>) {
    files.into_iter().partition(|f| workdir::is_log(&f.path))
}

/// What a link carries of a link set (`data=` for A, `against-data=` for B), made by
/// the worker (`birlink_core::tools::share::data`), or why it does not go in one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkData {
    /// The link set as a link carries it, when known.
    pub text: Option<String>,
    /// Whether `text` belongs in the page's own URL (the link set came from a link).
    pub in_url: bool,
    /// Why the link set does not go in a link, once the worker said so.
    pub error: Option<String>,
}

impl LinkData {
    /// Another link set: its data is not known yet.
    pub(crate) fn forget(&mut self) {
        self.text = None;
        self.in_url = false;
        self.error = None;
    }

    /// Whether the worker has answered (the data, or why there is none).
    pub fn known(&self) -> bool {
        self.text.is_some() || self.error.is_some()
    }
}

/// One side: its link set, its latest finished run, and what a link carries of it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkSide {
    /// The files, the LNC and where the latest run stands.
    pub link: LinkSet,
    /// The latest finished run, compared by identity (a new run re-renders; an action
    /// never compares a report field by field).
    pub result: Option<RunRef>,
    /// What a link carries of it.
    pub data: LinkData,
}

impl LinkSide {
    /// Whether it has files.
    pub fn is_open(&self) -> bool {
        self.link.is_open()
    }

    /// Its latest finished run's number.
    pub fn result_run(&self) -> Option<u64> {
        self.result.as_ref().map(|r| r.run)
    }
}

/// An action on one side's link set.
#[derive(Debug)]
pub struct LinkAction {
    /// Which link set.
    pub side: Side,
    /// What to do to it.
    pub op: LinkOp,
}

impl LinkAction {
    /// An action on the link set shown (A).
    pub fn shown(op: LinkOp) -> super::Action {
        super::Action::Link(LinkAction { side: Side::Shown, op })
    }

    /// An action on the link set compared against (B).
    pub fn against(op: LinkOp) -> super::Action {
        super::Action::Link(LinkAction { side: Side::Against, op })
    }
}

/// What can be done to a link set.
#[derive(Debug)]
pub enum LinkOp {
    /// Add files (a file with a path already loaded replaces it; the first files of the
    /// user's replace a link set the page opened).
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
    /// A link came with its link set (`data=`, `against-data=`): the worker reads it
    /// (the query's LNC, if any, wins over the data's).
    OpenLink {
        /// The `data=` text.
        data: String,
        /// The query's LNC.
        lnc: Option<u64>,
    },
    /// Drop one file.
    RemoveFile(u64),
    /// Drop every file (for B: stop comparing).
    ClearFiles,
    /// In a work directory, link the dumps after this pass (`None`: the default rule).
    SetAfter(Option<String>),
    /// Set `vnc_nc_count` (`None`: automatic).
    SetLnc(Option<u64>),
    /// Set how to link (`None`: as the compiler decides).
    SetFlow(Option<birlink_core::Flow>),
}

impl State {
    /// A new run number, unique across both sides.
    pub(crate) fn next_run(&mut self) -> u64 {
        self.runs += 1;
        self.runs
    }

    /// Which side a run number belongs to (its latest run requested, not settled as
    /// idle: a side closed meanwhile takes no answer), if either.
    pub(crate) fn side_of(&self, run: u64) -> Option<Side> {
        Side::BOTH.into_iter().find(|&side| {
            let link = &self.sides[side].link;
            link.run == run && link.status != Status::Idle
        })
    }

    /// Which side's latest finished run this is, if either.
    pub(crate) fn side_of_result(&self, run: u64) -> Option<Side> {
        Side::BOTH.into_iter().find(|&side| self.sides[side].result_run() == Some(run) && self.sides[side].is_open())
    }

    /// The other side's latest run, whose worker session is kept while this side
    /// relinks: read when the link is sent (after its delay), so a run the other side
    /// asked for meanwhile is the one kept. The worker takes requests in order: a run
    /// asked for before is there by then, or comes later and keeps this one in turn.
    pub(crate) fn kept_run(&self, side: Side) -> Option<u64> {
        let other = &self.sides[side.other()];
        Some(other.link.run).filter(|&run| run > 0 && other.is_open())
    }

    /// Posts a link of a side's files, or, when it has none, leaves it idle with no run.
    /// Either way it is another link set: what a link carried of the last one, and the
    /// comparison of the last one, are not this one's.
    pub(crate) fn relink(&mut self, side: Side) {
        self.sides[side].data.forget();
        self.share.dialog = None;
        self.compare.forget();
        if !self.sides[side].is_open() {
            let shown = &mut self.sides[side];
            shown.link.status = Status::Idle;
            shown.link.out.message = None;
            shown.link.source = Source::None;
            shown.link.workdir = None;
            shown.result = None;
            if side == Side::Shown || self.details.side == side {
                self.clear_selection();
            }
            return;
        }
        let run = self.next_run();
        let link = &mut self.sides[side].link;
        // The side's first link starts at once; later ones wait for the rest of a batch.
        let delay_ms = if link.out.seq == 0 { 0 } else { 120 };
        let (files, lnc, workdir) = link.take_for_link();
        let flow = link.flow;
        link.run = run;
        link.status = Status::starting("starting");
        link.out.post(LinkOrder { run, files, lnc, delay_ms, workdir, flow });
    }

    /// Applies an action on one side's link set; false when it changes nothing. A
    /// compiler log among new files (`log-neuron-cc.txt`, `workdir::is_log`) is not
    /// linked: it is the page's log, read by the worker and shown as a timeline; a link
    /// set that replaces the one a log file came with closes that log.
    pub(super) fn apply_link(&mut self, LinkAction { side, op }: LinkAction) -> bool {
        let (op, logs) = match op {
            LinkOp::AddFiles(files) => {
                let (logs, files) = split_logs(files);
                if files.is_empty() && !logs.is_empty() {
                    return self.apply_log(super::LogAction::Files(logs));
                }
                (LinkOp::AddFiles(files), logs)
            }
            LinkOp::ReplaceFiles { files, sample } => {
                let (logs, files) = split_logs(files);
                (LinkOp::ReplaceFiles { files, sample }, logs)
            }
            // A start comes before the side's first run, or not at all: then it replaces
            // the files like a link (nothing of a reduction exists yet to forget).
            LinkOp::StartFiles { files, sample } => {
                if self.sides[side].link.run > 0 {
                    return false;
                }
                let (logs, files) = split_logs(files);
                (LinkOp::ReplaceFiles { files, sample }, logs)
            }
            op => (op, Vec::new()),
        };
        let replaces = matches!(op, LinkOp::ReplaceFiles { .. }) && side == Side::Shown;
        let changed = self.apply_link_op(side, op);
        if !logs.is_empty() {
            self.apply_log(super::LogAction::Files(logs));
        } else if replaces && self.log.file.is_some() {
            self.log = self.log.cleared();
        }
        changed
    }

    fn apply_link_op(&mut self, side: Side, op: LinkOp) -> bool {
        // The user's own change of the shown link set ends what a reduction left (a start
        // is a `ReplaceFiles` by now: `apply_link`).
        let changes_files = !matches!(op, LinkOp::OpenLink { .. });
        if side == Side::Shown && changes_files {
            self.forget_reduction();
        }
        let link = &mut self.sides[side].link;
        match op {
            LinkOp::AddFiles(new) => {
                if link.replace_on_add {
                    link.files.clear();
                    link.replace_on_add = false;
                    // A sample's flow was the sample's, not the user's choice.
                    if std::mem::take(&mut link.flow_of_sample) {
                        link.flow = None;
                    }
                }
                link.open_sample = None;
                link.source = Source::User;
                link.add(new);
                self.opened(side);
            }
            LinkOp::ReplaceFiles { files, sample } => {
                // A work directory sample links in the flow its index says (a bundle
                // says its own).
                let own = sample.as_ref().and_then(|name| {
                    let info = self.samples.iter().find(|s| &s.file == name && !s.files.is_empty())?;
                    Some(info.flow).filter(|f| *f == birlink_core::Flow::Seeds)
                });
                if own.is_some() || std::mem::take(&mut link.flow_of_sample) {
                    link.flow = own;
                    link.flow_of_sample = own.is_some();
                }
                link.replace(files, Source::Link, sample);
                self.opened(side);
            }
            LinkOp::StartFiles { .. } => return false,
            LinkOp::OpenLink { data, lnc } => {
                // Reading the data is the side's run until it opens what it read.
                let run = self.next_run();
                let link = &mut self.sides[side].link;
                link.run = run;
                link.status = Status::starting("reading the link's data");
                self.decode.post(DecodeOrder { run, data, lnc });
            }
            LinkOp::RemoveFile(id) => {
                link.files.retain(|f| f.id != id);
                link.open_sample = None;
                self.relink(side);
            }
            LinkOp::ClearFiles => {
                link.files.clear();
                link.after = None;
                link.open_sample = None;
                self.relink(side);
            }
            LinkOp::SetAfter(after) => {
                if link.after == after {
                    return false;
                }
                link.after = after;
                self.relink(side);
            }
            LinkOp::SetLnc(lnc) => {
                let max = birlink_core::limits::MAX_LNC;
                link.lnc = lnc.filter(|n| (1..=max).contains(n));
                if let Some(n) = lnc.filter(|n| *n > max) {
                    let whose = if side == Side::Shown { String::new() } else { format!(" for {}", side.noun()) };
                    self.add_notice(format!(
                        "an LNC of {n}{whose} is more cores than birlink links (at most {max}): the LNC is read from the files"
                    ));
                }
                self.relink(side);
            }
            LinkOp::SetFlow(flow) => {
                link.flow_of_sample = false;
                if link.flow == flow {
                    return false;
                }
                link.flow = flow;
                self.relink(side);
            }
        }
        true
    }

    /// A link's data, read by the worker, opens on its side (`in_url`: the data is the
    /// page's own link's, and stays in its URL).
    pub(crate) fn open_data(&mut self, side: Side, files: Vec<PickedFile>, lnc: Option<u64>, data: String) {
        if side == Side::Shown {
            self.forget_reduction();
        }
        let link = &mut self.sides[side].link;
        link.replace(files, Source::Link, None);
        link.lnc = lnc;
        self.relink(side);
        self.sides[side].data.text = Some(data);
        self.sides[side].data.in_url = true;
    }

    /// A link's data could not be read: nothing is opened, and the page says why.
    pub(crate) fn undecodable(&mut self, side: Side, why: &str) {
        self.sides[side].link.status = Status::Idle;
        let prefix = if side == Side::Shown { String::new() } else { format!("{}: ", side.noun()) };
        self.add_notice(format!("{prefix}{why}; nothing was opened"));
    }

    /// New files opened on a side: what the page said of the last ones is done with, B's
    /// are shown compared, and the side links.
    fn opened(&mut self, side: Side) {
        self.notice = None;
        if side == Side::Against {
            self.view = View::Compare;
        }
        self.relink(side);
    }
}
