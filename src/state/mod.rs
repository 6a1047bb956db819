//! The inspector's state: one reducer, one `Action` enum, no DOM.
//!
//! Components read [`State`] and dispatch [`Action`]s. The reducer owns every
//! transition, including what to ask the worker: an action that needs an answer (a new
//! link set, a selection, a unit's text, a search, an export) leaves a request in one
//! of the state's [`Outbox`]es, and `hooks::use_worker` sends whatever a new outbox
//! holds. When there is nothing to fetch (a diagnostic about the link set as a whole,
//! an entity the linked module does not have), the reducer says so at once
//! ([`Fetch::Missing`]): the details panel never waits for an answer that will not come.
//!
//! The state is split by concern, one module each with its part of the state, its
//! actions and its `apply`:
//!
//! * [`link_set`] — the two link sets, one type indexed by [`Side`] ([`LinkSide`]: the
//!   files, where they came from, the LNC, the latest run, what a link carries of it),
//!   and every action on either ([`LinkAction`] names its side);
//! * [`run`] — what a run produced ([`RunResult`], held behind the identity-compared
//!   [`RunRef`]), and the worker's answers about a run, which go to its side;
//! * [`compare`] — how the two sides are compared, and the comparison;
//! * [`view`] — which view and pipeline step is shown;
//! * [`details`] — the selection and the details panel;
//! * [`search`] — the search box;
//! * [`export`] — downloads;
//! * [`share`] — the Share dialog and the link set's `data=`;
//! * [`history`] — the page's own URL, links applied, Back and Forward;
//! * [`host`] — the embed protocol's requests and answers;
//! * [`log`] — the compiler's log: pasted or dropped, located, beside the run;
//! * [`reduce`] — a minimal repro of a failing link;
//! * [`sync`] — the Sync view's replay of the execution;
//! * [`passes`] — the Passes view: a work directory's dumps after every pass.
//!
//! This file holds what they share: the [`State`] itself, the page's mode and place,
//! the keys, and the reducer that dispatches each action to its concern.

use std::rc::Rc;

use yew::Reducible;

use serde_json::Value;

use birlink_core::gen::samples::SampleInfo;
use birlink_core::tools::query::EntityQuery;
use birlink_core::tools::share::View;
use birlink_core::EntityKind;

use crate::embed::protocol::HostError;

pub mod compare;
pub mod details;
pub mod export;
pub mod history;
pub mod host;
pub mod link_set;
pub mod log;
pub mod outbox;
pub mod passes;
pub mod reduce;
pub mod run;
pub mod search;
pub mod share;
pub mod sync;
pub mod view;

pub use crate::side::{Side, Sides};
pub use compare::{CompareAction, CompareOrder, Comparing, ComparisonRef};
pub use details::{Details, DetailsAction, DetailsState, Fetch, Selection};
pub use export::{ExportAction, Exports};
pub use history::{History, HistoryAction, HistoryWrite};
pub use host::{HostCall, HostState, HostWaits};
pub use link_set::{
    FileBlob, LinkAction, LinkData, LinkOp, LinkOrder, LinkSet, LinkSide, LoadedFile, PickedFile, Source, Status,
    Workdir,
};
pub use log::{LogAction, LogFile, LogState, MAX_LOG_BYTES};
pub use outbox::{Ask, DecodeOrder, Mailbox, Outbox, Query};
pub use passes::{DiffFetch, DiffOrder, PassesAction, PassesOrder, PassesState, PassesStatus};
pub use reduce::{ReduceAction, Reducing, Reduction};
pub use run::{RunAction, RunRef, RunResult};
pub use search::{Search, SearchAction};
pub use share::{ShareAction, ShareDialog, ShareState};
pub use sync::{SyncAction, SyncState};
pub use view::{ViewAction, ViewLabels};

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

/// The whole inspector state, by concern.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Full page or embedded.
    pub mode: Mode,
    /// Where the page is.
    pub page: Page,
    /// The samples menu.
    pub samples: Rc<Vec<SampleInfo>>,
    /// Whether the keyboard help is open.
    pub help: bool,
    /// A message for the user (a fetch that failed, a file that could not be opened).
    pub notice: Option<String>,
    /// The two link sets: the one the views show and the one compared against.
    pub sides: Sides<LinkSide>,
    /// How the two are compared, and the comparison.
    pub compare: Comparing,
    /// Runs numbered so far, across both sides.
    pub runs: u64,
    /// Links' data to read in the worker (either side's `data=`), in order.
    pub decode: Mailbox<DecodeOrder>,
    /// The open view.
    pub view: View,
    /// The pipeline step shown: `(pass, step)`.
    pub step: Option<(usize, usize)>,
    /// Hide steps that changed nothing.
    pub hide_unchanged: bool,
    /// Draw alias edges in the call graph.
    pub show_aliases: bool,
    /// The selection and the details panel.
    pub details: DetailsState,
    /// The search box.
    pub search: Search,
    /// Downloads.
    pub export: Exports,
    /// The Share dialog and the link set's data.
    pub share: ShareState,
    /// The page's URL.
    pub history: History,
    /// The host's requests and the page's answers.
    pub host: HostState,
    /// The compiler's log.
    pub log: LogState,
    /// The reduction.
    pub reduction: Reduction,
    /// The Sync view's replay.
    pub sync: SyncState,
    /// The Passes view.
    pub passes: PassesState,
}

impl From<LogAction> for Action {
    fn from(action: LogAction) -> Action {
        Action::Log(action)
    }
}

impl From<ReduceAction> for Action {
    fn from(action: ReduceAction) -> Action {
        Action::Reduce(action)
    }
}

impl Default for State {
    fn default() -> Self {
        State {
            mode: Mode::Full,
            page: Page::default(),
            samples: Rc::new(Vec::new()),
            help: false,
            notice: None,
            sides: Sides::default(),
            compare: Comparing::default(),
            runs: 0,
            decode: Mailbox::default(),
            view: View::Pipeline,
            step: None,
            hide_unchanged: true,
            show_aliases: true,
            details: DetailsState::default(),
            search: Search::default(),
            export: Exports::default(),
            share: ShareState::default(),
            history: History::default(),
            host: HostState::default(),
            log: LogState::default(),
            reduction: Reduction::default(),
            sync: SyncState::default(),
            passes: PassesState::default(),
        }
    }
}

/// A key pressed on the page (outside a text field), as the reducer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `Escape`: close help, close search, or clear the selection.
    Escape,
    /// `1`–`9`, `0`: a view.
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

/// Everything that changes the state, by concern.
#[derive(Debug)]
pub enum Action {
    /// Either side's link set.
    Link(LinkAction),
    /// The worker's answers about a run (they go to its side).
    Run(RunAction),
    /// How the two sides are compared, and the comparison.
    Compare(CompareAction),
    /// The view and the pipeline step.
    View(ViewAction),
    /// The selection and the details panel.
    Details(DetailsAction),
    /// The search box.
    Search(SearchAction),
    /// Downloads.
    Export(ExportAction),
    /// The Share dialog.
    Share(ShareAction),
    /// Links applied, Back and Forward.
    History(HistoryAction),
    /// A host's request, checked (or why it cannot be taken).
    Host {
        /// The host's `id`.
        id: Value,
        /// The request.
        call: Result<HostCall, HostError>,
    },
    /// The compiler's log.
    Log(LogAction),
    /// The reduction.
    Reduce(ReduceAction),
    /// The Sync view's replay.
    Sync(SyncAction),
    /// The Passes view.
    Passes(PassesAction),
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
    /// The page for a mode and a place.
    pub fn new(mode: Mode, page: Page) -> State {
        State {
            mode,
            page,
            details: DetailsState { open: mode == Mode::Full, ..DetailsState::default() },
            ..State::default()
        }
    }

    /// The link set shown (A).
    pub fn shown(&self) -> &LinkSide {
        &self.sides[Side::Shown]
    }

    /// Adds a notice to what the page already says (several can come from one link).
    pub(crate) fn add_notice(&mut self, notice: String) {
        self.notice = Some(match self.notice.take() {
            Some(before) if !before.contains(&notice) => format!("{before} · {notice}"),
            Some(before) => before,
            None => notice,
        });
    }

    /// Applies an action; false when it changes nothing (a stale answer).
    fn apply(&mut self, action: Action) -> bool {
        match action {
            Action::Link(action) => return self.apply_link(action),
            Action::Run(action) => return self.apply_run(action),
            Action::Compare(action) => return self.apply_compare(action),
            Action::View(action) => return self.apply_view(action),
            Action::Details(action) => return self.apply_details(action),
            Action::Search(action) => return self.apply_search(action),
            Action::Export(action) => return self.apply_export(action),
            Action::Share(action) => return self.apply_share(action),
            Action::History(action) => return self.apply_history(action),
            Action::Host { id, call } => self.host_call(id, call),
            Action::Log(action) => return self.apply_log(action),
            Action::Reduce(action) => return self.apply_reduce(action),
            Action::Sync(action) => return self.apply_sync(action),
            Action::Passes(action) => return self.apply_passes(action),
            Action::SamplesLoaded(samples) => self.samples = Rc::new(samples),
            Action::ToggleHelp => self.help = !self.help,
            Action::Key(key) => return self.apply_key(key),
            Action::Notice(Some(notice)) => self.add_notice(notice),
            Action::Notice(None) => self.notice = None,
        }
        true
    }

    fn apply_key(&mut self, key: Key) -> bool {
        match key {
            Key::Escape => {
                if self.share.dialog.is_some() {
                    self.share.dialog = None;
                } else if self.log.editing {
                    self.log.editing = false;
                } else if self.help {
                    self.help = false;
                } else if self.search.open {
                    self.search.open = false;
                } else {
                    self.clear_selection();
                }
            }
            Key::View(index) => match View::ALL.get(index) {
                Some(&view) => self.view = view,
                None => return false,
            },
            Key::Help => self.help = !self.help,
            Key::Next => self.move_by(1),
            Key::Previous => self.move_by(-1),
            Key::Share if self.mode == Mode::Full => return self.apply_share(ShareAction::Open),
            Key::Share => return false,
        }
        true
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        let user = matches!(
            action,
            Action::View(ViewAction::Set(_) | ViewAction::SelectStep(..) | ViewAction::ToggleHideUnchanged)
                | Action::Details(
                    DetailsAction::Select(_)
                        | DetailsAction::PickKey(..)
                        | DetailsAction::PickOn(..)
                        | DetailsAction::Clear
                        | DetailsAction::EntityLoaded { .. }
                )
                | Action::Key(_)
        );
        let navigating = matches!(action, Action::History(HistoryAction::Navigate(_)));
        if !next.apply(action) {
            return self;
        }
        // The page's own URL follows what it shows (full mode): a user's step is a new
        // history entry, anything else (a run, a link applied) rewrites the current one;
        // Back and Forward write nothing (the URL already says it).
        let fragment = next.url_fragment();
        if next.mode == Mode::Full && !navigating && fragment != self.url_fragment() {
            let push = user && (next.details.by_user || !matches!(next.details.selection, Some(Selection::Entity(_))));
            next.history.out.post(HistoryWrite { fragment, push });
        }
        Rc::new(next)
    }
}

/// The entity kind a view row names, for [`EntityQuery`]s built by components.
pub fn query(kind: EntityKind, name: &str, parent: Option<&str>) -> EntityQuery {
    EntityQuery::new(kind, name, parent.map(str::to_owned))
}

#[cfg(test)]
mod tests;
