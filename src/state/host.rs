//! The embed protocol's side of the state (embed spec §4): a host's checked requests,
//! what it waits for, and the messages the page posts to it.
//!
//! What a host hears of the link set depends on where the set came from
//! ([`super::Source`]): a set the host loaded itself, or one the page's own link names,
//! it may read back (`state`'s `url` with the data, the selected entity); the user's
//! own files never reach a host (`state` then carries the plain page URL and no
//! selection). A `show` still looking for its entity when another comes is answered
//! `superseded`: every request gets an answer.

use serde_json::Value;

use birlink_core::output::report::PassStatus;
use birlink_core::tools::share::ViewState;
use birlink_core::EntityKey;

use super::{Mailbox, Mode, PickedFile, Selection, Source, State};
use crate::embed::protocol::{ErrorCode, HostError, PageMessage};
use crate::side::Side;

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
        /// A link set to compare against (`None`: the one open stays; empty: it closes).
        against: Option<Vec<PickedFile>>,
        /// Its LNC.
        against_lnc: Option<u64>,
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

/// The host's requests and the page's answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostState {
    /// What the host waits for.
    pub waits: HostWaits,
    /// Messages for the host.
    pub out: Mailbox<PageMessage>,
}

impl HostState {
    /// Whether `id` is a `load` (acknowledged when it came) rather than a `show`.
    pub(crate) fn load_was_acked(&self, id: &Value) -> bool {
        self.waits.loads_acked.contains(id)
    }
}

impl State {
    /// Tells the host what became of this run: the `load` it answers, or, embedded,
    /// every run the frame shows (with id `null`).
    pub(crate) fn linked_for_host(&mut self) {
        let id = match self.host.waits.load.clone() {
            Some(id) => id,
            None if self.mode == Mode::Embed => Value::Null,
            None => return,
        };
        let Some(result) = self.result().cloned() else { return };
        let (errors, warnings, _) = result.counts;
        let ok = errors == 0 && result.report.passes.iter().all(|p| p.status == PassStatus::Ok);
        self.host.out.post(PageMessage::Linked {
            id,
            ok,
            failed_pass: result.failed_pass.map(|p| result.report.passes[p].name.as_str().to_owned()),
            errors,
            warnings,
            codes: result.report.diagnostics.iter().map(|d| d.code.as_str().to_owned()).collect(),
        });
    }

    /// A request waits for its `select` to be found; one that waited before is answered
    /// `superseded`.
    pub(crate) fn wait_for_select(&mut self, id: Value, key: EntityKey) {
        if let Some((before, _)) = self.host.waits.select.replace((id, key)) {
            self.host.out.post(PageMessage::Error {
                id: before,
                error: HostError {
                    code: ErrorCode::Superseded,
                    message: "another request changed the selection before this one's entity was found".to_owned(),
                },
            });
        }
    }

    /// The `state` answer: the full page's URL and the selection, unless the link set is
    /// the user's own (then the plain page URL, the view only).
    fn host_state(&self, id: Value) -> PageMessage {
        if self.sides[Side::Shown].link.source == Source::User {
            let url = format!("{}{}", self.page.base, self.page.full_query);
            return PageMessage::State { id, url, view: self.view, select: None };
        }
        let select = match self.details.selection {
            Some(Selection::Entity(_)) => self.details.key.clone(),
            _ => None,
        };
        PageMessage::State { id, url: self.full_url(), view: self.view, select }
    }

    /// A host's request: answered now, or once the worker has answered (`linked`, a
    /// `select` found or not).
    pub(super) fn host_call(&mut self, id: Value, call: Result<HostCall, HostError>) {
        match call {
            Err(error) => self.host.out.post(PageMessage::Error { id, error }),
            Ok(HostCall::Ping) => self.host.out.post(PageMessage::Ack { id }),
            Ok(HostCall::GetState) => {
                let answer = self.host_state(id);
                self.host.out.post(answer);
            }
            Ok(HostCall::Load { files, lnc, state, against, against_lnc }) => {
                self.forget_reduction();
                self.host.out.post(PageMessage::Ack { id: id.clone() });
                self.host.waits.loads_acked.push(id.clone());
                let excess = self.host.waits.loads_acked.len().saturating_sub(16);
                self.host.waits.loads_acked.drain(..excess);
                // A compiler log among them is the page's log, as with the user's files.
                let (logs, files) = super::link_set::split_logs(files);
                let shown = &mut self.sides[Side::Shown].link;
                shown.replace(files, Source::Host, None);
                shown.lnc = lnc;
                self.history.pending = Some(state);
                self.host.waits.load = Some(id);
                self.relink(Side::Shown);
                if !logs.is_empty() {
                    self.apply_log(super::LogAction::Files(logs));
                } else if self.log.file.is_some() {
                    self.log = self.log.cleared();
                }
                // A set to compare against comes with the load (or an empty one closes it).
                if let Some(against) = against {
                    let comparing = !against.is_empty();
                    let link = &mut self.sides[Side::Against].link;
                    link.replace(against, Source::Host, None);
                    link.lnc = against_lnc;
                    self.relink(Side::Against);
                    if comparing {
                        self.view = birlink_core::tools::share::View::Compare;
                    }
                }
            }
            Ok(HostCall::Show(state)) => {
                if self.result().is_none() {
                    self.history.pending = Some(state);
                    self.host.out.post(PageMessage::Ack { id });
                    return;
                }
                let missed = self.apply_state(&state);
                if let Some((code, message)) = missed.into_iter().next() {
                    self.host.out.post(PageMessage::Error { id, error: HostError { code, message } });
                } else if let Some(key) = state.select {
                    self.wait_for_select(id, key);
                } else {
                    self.host.out.post(PageMessage::Ack { id });
                }
            }
        }
    }
}
