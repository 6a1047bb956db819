//! The page's own URL (full mode): its fragment follows the view, the step and the
//! selection (embed spec §2); a link's view state is applied once its run has
//! finished, and what of it does not apply is said; Back and Forward show what the URL
//! then says.

use birlink_core::tools::share::fragment::StepRef;
use birlink_core::tools::share::ViewState;

use super::{Outbox, Selection, State};
use crate::embed::protocol::{ErrorCode, HostError, PageMessage};
use crate::side::Side;

/// A change the page makes to its own URL (full mode).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryWrite {
    /// The new fragment.
    pub fragment: String,
    /// A new history entry (a user's step), or in place (a link applied, a run).
    pub push: bool,
}

/// The page's URL: what to write, and a link's state waiting for its run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct History {
    /// A link's (or a host's) view state, applied when the next run finishes.
    pub pending: Option<ViewState>,
    /// What of that link was dropped already, said then.
    pub notes: Vec<String>,
    /// The page's URL to write.
    pub out: Outbox<HistoryWrite>,
}

/// The history's actions.
#[derive(Debug)]
pub enum HistoryAction {
    /// A link's view state, to apply once the run it is about has finished (at start,
    /// after the link set of the link is opened), and what of the link was dropped
    /// already (said with what does not apply to the run).
    LinkState(ViewState, Vec<String>),
    /// The user went Back or Forward: show what the URL now says.
    Navigate(ViewState),
}

impl State {
    /// The view state the page's URL shows (embed spec §2): the view, the step (on the
    /// pipeline), the diagnostic or the entity selected.
    pub fn view_state(&self) -> ViewState {
        let step = if self.view == birlink_core::tools::share::View::Pipeline { self.step_ref() } else { None };
        let (select, diag) = match &self.details.selection {
            // An entity of the link set compared against is not the shown one's.
            Some(Selection::Entity(_)) if self.details.side == Side::Against => (None, None),
            Some(Selection::Entity(_)) => (self.details.key.clone(), None),
            Some(Selection::Diagnostic(index)) => (None, Some(*index)),
            None => (None, None),
        };
        let compare = if self.comparing() { self.compare.options.clone() } else { Default::default() };
        ViewState { view: Some(self.view), select, step, diag, data: None, compare, against_data: None }
    }

    /// The fragment of the page's own URL (full mode).
    pub fn url_fragment(&self) -> String {
        let mut state = self.view_state();
        let in_url = |side: Side| Some(&self.sides[side].data).filter(|d| d.in_url).and_then(|d| d.text.clone());
        state.data = in_url(Side::Shown);
        if self.comparing() {
            state.against_data = in_url(Side::Against);
        }
        state.to_string()
    }

    /// The current step as a link names it.
    fn step_ref(&self) -> Option<StepRef> {
        let (p, s) = self.step?;
        let pass = self.result()?.report.passes.get(p)?;
        Some(StepRef { pass: pass.name, step: pass.steps.get(s)?.name.clone() })
    }

    /// The `(pass, step)` indices a link's step names in the current report.
    fn find_step(&self, step: &StepRef) -> Option<(usize, usize)> {
        let passes = &self.result()?.report.passes;
        let p = passes.iter().position(|p| p.name == step.pass)?;
        let s = passes[p].steps.iter().position(|s| s.name == step.step)?;
        Some((p, s))
    }

    /// Applies a link's (or a host's) view state to the current run; returns what of it
    /// does not apply, and why.
    pub(crate) fn apply_state(&mut self, state: &ViewState) -> Vec<(ErrorCode, String)> {
        let mut missed = Vec::new();
        if let Some(view) = state.view {
            self.view = view;
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
            let count = self.result().map_or(0, |r| r.report.diagnostics.len());
            if index < count {
                self.select(Selection::Diagnostic(index));
                self.details.by_user = false;
            } else {
                missed.push((
                    ErrorCode::NotFound,
                    format!("`diag={index}`: this run has {}", birlink_core::english::counted(count, "diagnostic")),
                ));
            }
        }
        if let Some(key) = &state.select {
            self.select_key(key.clone());
        }
        if state.compare != birlink_core::tools::share::CompareState::default() {
            self.compare.options = state.compare.clone();
            self.compare_again();
        }
        missed
    }

    /// Says, as a notice, what of a link was dropped.
    pub(crate) fn notice_dropped(&mut self, dropped: &[String]) {
        if !dropped.is_empty() {
            self.add_notice(format!("parts of the link were dropped: {}", dropped.join("; ")));
        }
    }

    /// A run finished: the view state waiting for it (a link's, a host's) applies, and
    /// what of it does not is said (to the host that asked, else as a notice).
    pub(crate) fn apply_pending(&mut self) {
        if let Some(state) = self.history.pending.take() {
            let missed = self.apply_state(&state);
            if let Some(id) = self.host.waits.load.clone() {
                if let Some(key) = state.select.clone() {
                    self.wait_for_select(id.clone(), key);
                }
                if let Some((code, message)) = missed.first().cloned() {
                    self.host.out.post(PageMessage::Error { id, error: HostError { code, message } });
                }
            } else {
                let mut notes = std::mem::take(&mut self.history.notes);
                notes.extend(missed.into_iter().map(|(_, why)| why));
                self.notice_dropped(&notes);
            }
        }
        let notes = std::mem::take(&mut self.history.notes);
        self.notice_dropped(&notes);
    }

    /// Applies a history action.
    pub(super) fn apply_history(&mut self, action: HistoryAction) -> bool {
        match action {
            HistoryAction::LinkState(state, notes) => {
                self.history.pending = Some(state);
                self.history.notes = notes;
            }
            HistoryAction::Navigate(state) => {
                if self.result().is_none() {
                    self.history.pending = Some(state);
                } else {
                    if state.select.is_none() && state.diag.is_none() {
                        self.clear_selection();
                    }
                    let missed = self.apply_state(&state);
                    let missed: Vec<String> = missed.into_iter().map(|(_, why)| why).collect();
                    self.notice_dropped(&missed);
                }
            }
        }
        true
    }
}
