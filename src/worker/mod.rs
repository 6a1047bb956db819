//! The link worker: runs the pipeline off the page's thread and answers questions
//! about the runs it keeps — the shown side's and, when the page compares two link
//! sets, the other side's — and compares them. Every request names the run it is about,
//! and the worker answers about that run, whichever side the page now shows it on.
//!
//! * [`blobs`] — reading the page's blobs (in slices, when the loader reaches them) and
//!   writing blobs back;
//! * [`session`] — one run kept: the link itself, and what can be asked of it;
//! * [`passes`] — a work directory's dumps read pass by pass (the Passes view);
//! * this file — the dispatch of requests, and a reduction run in slices.

mod blobs;
mod passes;
mod session;

use gloo_worker::{HandlerId, Worker, WorkerScope};

use crate::protocol::{InputFile, LinkRequest, ReduceStep, ReducedSummary, Request, Response, Wire};
use session::Session;

/// The worker's state: the runs it keeps (at most one per side), and a reduction under
/// way.
pub struct LinkWorker {
    sessions: Vec<Session>,
    reducing: Option<Job>,
    /// A work directory's passes being read (the Passes view).
    reading: Option<passes::Reading>,
}

/// A reduction in slices: each runs tests for [`SLICE_MS`], answers its progress, and
/// schedules the next with a timer, so a `CancelReduce` (or a new link) gets in between.
struct Job {
    run: u64,
    /// Who asked (the answers go there).
    id: HandlerId,
    reduction: birlink_core::tools::reduce::Reduction,
    started: f64,
}

/// How long one slice of a reduction runs before the worker reads its messages.
const SLICE_MS: f64 = 40.0;

/// The worker's own message: run the next slice of a job.
pub enum NextSlice {
    /// Of the reduction of a run.
    Reduce(u64),
    /// Of the reading of a work directory's passes (the page's order).
    History(u64),
}

impl Worker for LinkWorker {
    type Message = NextSlice;
    type Input = Wire<Request>;
    type Output = Wire<Response>;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        LinkWorker { sessions: Vec::new(), reducing: None, reading: None }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, message: Self::Message) {
        match message {
            NextSlice::Reduce(run) if self.reducing.as_ref().is_some_and(|job| job.run == run) => self.slice(scope),
            NextSlice::History(seq) if self.reading.as_ref().is_some_and(|r| r.seq == seq) => {
                passes::slice(&mut self.reading, scope)
            }
            _ => {}
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        let request = match msg.0 {
            Ok(request) => request,
            Err(message) => return scope.respond(id, Wire::new(Response::Broken { message })),
        };
        let answer = match request {
            Request::Link(request) => {
                self.reducing = None;
                self.link(scope, id, request);
                return;
            }
            Request::Reduce { run } => return self.start_reduce(scope, id, run),
            Request::CancelReduce { run } => {
                if self.reducing.as_ref().is_some_and(|job| job.run == run) {
                    self.reducing = None;
                }
                return;
            }
            Request::History { seq, files, ran, entity, no_table } => {
                self.reading = Some(passes::Reading::new(seq, id, files, &ran, entity, no_table));
                return passes::slice(&mut self.reading, scope);
            }
            Request::CancelHistory { seq } => {
                if self.reading.as_ref().is_some_and(|r| r.seq == seq) {
                    self.reading = None;
                }
                return;
            }
            Request::PassDiff { seq, before, after } => passes::diff(seq, before, after),
            Request::Decode { run, data, lnc } => decode(run, data, lnc),
            Request::Compare { a, b, numbers, core_map } => {
                let json = match (self.session(a), self.session(b)) {
                    (Some(a), Some(b)) => {
                        let options = birlink_core::tools::compare::CompareOptions {
                            core_map: core_map.iter().copied().collect(),
                            normalize: birlink_core::tools::compare::Normalize { numbers },
                        };
                        let comparison = birlink_core::tools::compare::compare(&a.outcome, &b.outcome, &options);
                        serde_json::to_vec(&comparison)
                            .map(|json| crate::protocol::Bytes::from(&json))
                            .map_err(|error| format!("could not write the comparison: {error}"))
                    }
                    _ => Err("the worker no longer holds both runs: link them again".to_owned()),
                };
                Response::Compared { a, b, numbers, core_map, json }
            }
            // The rest is about one run, which the worker may no longer hold.
            request => match self.answer(request) {
                Some(answer) => answer,
                None => return,
            },
        };
        scope.respond(id, Wire::new(answer));
    }
}

/// Reads a link's data into files.
fn decode(run: u64, data: String, lnc: Option<u64>) -> Response {
    match birlink_core::tools::share::data::decode(&data) {
        Ok(set) => {
            let files = set
                .files
                .iter()
                .filter_map(|f| Some(InputFile { path: f.name.clone(), blob: blobs::blob(&f.bytes)? }))
                .collect::<Vec<_>>();
            if files.len() == set.files.len() {
                Response::Decoded { run, data, files, lnc: lnc.or(set.lnc) }
            } else {
                Response::Undecodable { run, message: "the browser could not hold the link's files".to_owned() }
            }
        }
        Err(error) => Response::Undecodable { run, message: error.to_string() },
    }
}

impl LinkWorker {
    fn session(&self, run: u64) -> Option<&Session> {
        self.sessions.iter().find(|s| s.run == run)
    }

    /// The answer to a question about one run; `None` when the worker no longer holds
    /// the run (the page has moved on, and drops answers about it anyway) or the
    /// request is not one about a run.
    fn answer(&self, request: Request) -> Option<Response> {
        use birlink_core::tools::query;
        Some(match request {
            Request::Entity { run, query } => {
                let view = self
                    .session(run)
                    .and_then(|s| query::entity_view(s.outcome.linked.as_ref()?, &s.outcome.files, &query));
                Response::Entity { run, query, view: view.map(Box::new) }
            }
            Request::EntityByKey { run, key } => {
                let view = self
                    .session(run)
                    .and_then(|s| query::entity_view_by_key(s.outcome.linked.as_ref()?, &s.outcome.files, &key));
                Response::Entity { run, query: query::query_of(&key), view: view.map(Box::new) }
            }
            Request::Share { run } => Response::Share { run, data: self.session(run)?.share_data() },
            Request::Original { run, file, pointer } => {
                let original = self.session(run).and_then(|s| {
                    let entry = s.outcome.files.iter().find(|f| f.path == file)?;
                    query::original(entry, &pointer)
                });
                Response::Original { run, file, pointer, original }
            }
            Request::Unit { run, unit } => {
                let text = self
                    .session(run)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .and_then(|set| query::unit_text(set, &unit));
                Response::Unit { run, unit, text }
            }
            Request::Search { run, text } => {
                let hits = self
                    .session(run)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .map(|module| query::search(module, &text, 50))
                    .unwrap_or_default();
                Response::Search { run, text, hits }
            }
            Request::Locate { run, text } => {
                use birlink_core::tools::log;
                let session = self.session(run)?;
                let located = log::locate_all(&log::read(&text), &session.outcome);
                let beside = Box::new(log::beside(&text, &log::read_log(&text), &session.outcome));
                Response::Located { run, text, located, beside }
            }
            Request::ReadLog { run, log, file } => Response::LogRead { log, json: self.read_log(run, &file) },
            Request::LogJson { run, file } => {
                let json = blobs::read_blob(&file.blob).map(|bytes| {
                    use birlink_core::tools::log;
                    match run.and_then(|run| self.session(run)) {
                        Some(session) => log::read_log_beside_json(&bytes, &session.outcome),
                        None => log::read_log_json(&bytes),
                    }
                });
                match json.map(|json| blobs::blob(json.as_bytes())) {
                    Ok(Some(blob)) => Response::LogJson { blob },
                    Ok(None) => Response::LogJsonFailed { message: "the browser could not hold its bytes".to_owned() },
                    Err(why) => Response::LogJsonFailed { message: why },
                }
            }
            Request::Replay { run, upto, window } => {
                use birlink_core::output::sync::SyncStatus;
                let replay = self
                    .session(run)
                    .filter(|s| s.outcome.report.sync.status == SyncStatus::Ran)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .map(|set| Box::new(birlink_core::passes::sync::replay(set, upto, window)));
                Response::Replayed { run, replay }
            }
            Request::Export { run, what } => match self.session(run)?.export(what) {
                Some(blob) => Response::Export { run, what, blob },
                None => Response::Failed { run, message: format!("could not build {}", what.file_name()) },
            },
            Request::Link(_)
            | Request::Compare { .. }
            | Request::Decode { .. }
            | Request::Reduce { .. }
            | Request::CancelReduce { .. }
            | Request::History { .. }
            | Request::CancelHistory { .. }
            | Request::PassDiff { .. } => return None,
        })
    }

    /// Reads a log file, and holds it beside the run when the worker holds it.
    fn read_log(&self, run: Option<u64>, file: &InputFile) -> Result<crate::protocol::Bytes, String> {
        use birlink_core::tools::log;
        let bytes = blobs::read_blob(&file.blob).map_err(|error| format!("cannot read `{}`: {error}", file.path))?;
        let text = String::from_utf8_lossy(&bytes);
        let mut reading = log::read_log(&text);
        let findings = log::read(&text);
        let session = run.and_then(|run| self.session(run));
        let runs = std::mem::take(&mut reading.runs).len();
        let read = crate::protocol::LogRead {
            run: session.map(|s| s.run),
            located: session.map(|s| log::locate_all(&findings, &s.outcome)),
            beside: session.map(|s| log::beside(&text, &reading, &s.outcome)),
            reading,
            runs,
            findings,
        };
        serde_json::to_vec(&read)
            .map(|json| crate::protocol::Bytes::from(&json))
            .map_err(|error| format!("could not write the log's reading: {error}"))
    }

    /// Links a request's files into a session, keeping the other side's.
    fn link(&mut self, scope: &WorkerScope<Self>, id: HandlerId, request: LinkRequest) {
        // The previous run's memory goes first: a big link set must not be held twice.
        // The other side's session stays, and what it holds is taken from this one's
        // budget.
        let keep = request.keep;
        self.sessions.retain(|s| Some(s.run) == keep);
        blobs::drop_blobs_but(keep);
        let kept: u64 = self.sessions.iter().map(|s| s.held).sum();
        let (answer, session) = Session::link(request, kept, &mut |progress| scope.respond(id, Wire::new(progress)));
        scope.respond(id, Wire::new(answer));
        self.sessions.push(session);
    }

    fn start_reduce(&mut self, scope: &WorkerScope<Self>, id: HandlerId, run: u64) {
        let Some(session) = self.session(run) else { return };
        let options = birlink_core::tools::reduce::ReduceOptions {
            lnc: session.lnc,
            max_input_bytes: Some(birlink_core::limits::WASM_MAX_REDUCE_BYTES),
            ..Default::default()
        };
        // Above the bound, nothing of the link set is read again.
        let bytes = session.input_bytes();
        if bytes > birlink_core::limits::WASM_MAX_REDUCE_BYTES {
            let error = birlink_core::tools::reduce::ReduceError::TooLarge {
                bytes,
                max: birlink_core::limits::WASM_MAX_REDUCE_BYTES,
            };
            return scope.respond(id, Wire::new(Response::ReduceFailed { run, message: error.to_string() }));
        }
        let reduction = session.link_set().and_then(|set| {
            birlink_core::tools::reduce::Reduction::new(&set, &options).map_err(|error| error.to_string())
        });
        match reduction {
            Ok(reduction) => {
                self.reducing = Some(Job { run, id, reduction, started: blobs::now() });
                self.slice(scope);
            }
            Err(message) => scope.respond(id, Wire::new(Response::ReduceFailed { run, message })),
        }
    }

    /// Runs tests for a slice, then answers the progress and schedules the next slice,
    /// or the result.
    fn slice(&mut self, scope: &WorkerScope<Self>) {
        let Some(job) = self.reducing.as_mut() else { return };
        let until = blobs::now() + SLICE_MS;
        while job.reduction.step() && blobs::now() < until {}
        let (run, id) = (job.run, job.id);
        if !job.reduction.is_done() {
            let p = job.reduction.progress();
            let step = ReduceStep {
                round: p.round as u32,
                level: p.level,
                tests: p.tests as u32,
                instructions: p.instructions as u64,
                bytes: p.bytes as u64,
            };
            scope.respond(id, Wire::new(Response::Reducing { run, step }));
            // A timer, not a microtask: the page's messages are read before the next slice.
            let scope = scope.clone();
            gloo::timers::callback::Timeout::new(0, move || scope.send_message(NextSlice::Reduce(run))).forget();
            return;
        }
        let reduced = job.reduction.result();
        let ms = blobs::now() - job.started;
        self.reducing = None;
        let summary = ReducedSummary {
            file_name: reduced.form.file_name().to_owned(),
            code: reduced.target.code,
            pass: reduced.target.pass,
            tests: reduced.tests as u32,
            bytes: (reduced.bytes.0 as u64, reduced.bytes.1 as u64),
            instructions: (reduced.instructions.0 as u64, reduced.instructions.1 as u64),
            ms,
        };
        match blobs::blob(&reduced.contents) {
            Some(blob) => scope.respond(id, Wire::new(Response::Reduced { run, summary, blob })),
            None => scope.respond(
                id,
                Wire::new(Response::ReduceFailed {
                    run,
                    message: "the browser could not hold the reduced file".to_owned(),
                }),
            ),
        }
    }
}
