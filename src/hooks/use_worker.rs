//! The link worker: spawned once, fed from the reducer's outboxes, answering with
//! actions.
//!
//! The reducer decides every request ([`crate::state::Outbox`], [`crate::state::Mailbox`]);
//! this hook only sends each new one (a link after its debounce delay, the rest at once)
//! and turns the worker's responses back into actions.
//!
//! Links are sent by run number, not by the side that posted them: each side's newest
//! order is sent once, after its delay, unless a newer order of the same side came
//! first; a swap of the two sides moves their orders with them, and sends nothing again.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use gloo_worker::{Spawnable, WorkerBridge};
use yew::prelude::*;

use crate::protocol::{Bytes, Codec, InputFile, LinkRequest, Request, Response, RunStats, Wire, WorkdirFiles};
use crate::services::download;
use crate::side::Side;
use crate::state::{
    Action, Ask, CompareAction, CompareOrder, DetailsAction, DiffOrder, FileBlob, LinkOrder, LogAction, Mailbox,
    Outbox, PassesAction, PassesOrder, PickedFile, Query, ReduceAction, RunAction, RunResult, SearchAction,
    ShareAction, State, SyncAction,
};
use crate::worker::LinkWorker;

/// What an answer from the worker becomes.
enum Incoming {
    /// An action, dispatched in the task after the one that received it.
    Action(Box<Action>),
    /// Bytes to read back first (a run's report and alignment, a comparison): read in a
    /// task of their own, and the action dispatched in the next, so that receiving a
    /// large run is three short tasks (the message, the reading, the drawing).
    Read(Box<dyn FnOnce() -> Action>),
}

/// A run's `report.json` and alignment, read back.
fn read_run(run: u64, report: &Bytes, linked: bool, stats: RunStats, alignment: &Bytes) -> Action {
    let read = serde_json::from_slice(&report.to_vec())
        .map_err(|error| format!("the worker's report did not read back: {error}"))
        .and_then(|report| {
            serde_json::from_slice(&alignment.to_vec())
                .map(|alignment| (report, alignment))
                .map_err(|error| format!("the worker's alignment did not read back: {error}"))
        });
    match read {
        Ok((report, alignment)) => {
            Action::Run(RunAction::Linked(Box::new(RunResult::new(run, report, linked, stats).aligned(alignment))))
        }
        Err(message) => Action::Run(RunAction::Failed { run, message }),
    }
}

/// A comparison's JSON read back, or why the worker could not make it.
fn read_comparison(a: u64, b: u64, numbers: bool, core_map: Vec<(u64, u64)>, json: Result<Bytes, String>) -> Action {
    let comparison = json.and_then(|bytes| {
        serde_json::from_slice(&bytes.to_vec())
            .map(Box::new)
            .map_err(|error| format!("the worker's comparison did not read back: {error}"))
    });
    let options = birlink_core::tools::share::CompareState { numbers, core_map };
    Action::Compare(CompareAction::Compared { a, b, options, comparison })
}

/// JSON the worker wrote, read back (`what` names it in the message), or why the
/// worker could not write it.
fn read_back<T: serde::de::DeserializeOwned>(json: Result<Bytes, String>, what: &str) -> Result<Box<T>, String> {
    json.and_then(|bytes| {
        serde_json::from_slice(&bytes.to_vec())
            .map(Box::new)
            .map_err(|error| format!("the worker's {what} did not read back: {error}"))
    })
}

/// A log file's reading read back, or why the worker could not read it.
fn read_log_read(seq: u64, json: Result<Bytes, String>) -> Action {
    let read = json.and_then(|bytes| {
        serde_json::from_slice(&bytes.to_vec())
            .map(Box::new)
            .map_err(|error| format!("the worker's reading of the log did not read back: {error}"))
    });
    Action::Log(LogAction::FileRead { seq, read })
}

fn response_action(response: Response) -> Option<Incoming> {
    let action = match response {
        Response::Progress { run, phase, done, total } => Action::Run(RunAction::Progress { run, phase, done, total }),
        Response::Linked { run, report, linked, stats, alignment } => {
            return Some(Incoming::Read(Box::new(move || read_run(run, &report, linked, stats, &alignment))));
        }
        Response::Entity { run, query, view } => Action::Details(DetailsAction::EntityLoaded { run, query, view }),
        Response::Original { run, file, pointer, original } => {
            Action::Details(DetailsAction::OriginalLoaded { run, file, pointer, original })
        }
        Response::Unit { run, unit, text } => Action::Details(DetailsAction::UnitLoaded { run, unit, text }),
        Response::Search { run, text, hits } => Action::Search(SearchAction::Results { run, text, hits }),
        Response::Share { run, data } => Action::Share(ShareAction::Loaded { run, data }),
        Response::Export { what, blob, .. } => {
            download::blob(&blob, what.file_name());
            return None;
        }
        Response::Failed { run, message } => Action::Run(RunAction::Failed { run, message }),
        Response::Broken { message } => Action::Run(RunAction::Broken(message)),
        Response::Decoded { run, data, files, lnc } => {
            let files = files
                .into_iter()
                .map(|f| PickedFile { path: f.path, size: f.blob.size() as u64, blob: FileBlob(Some(f.blob)) })
                .collect();
            Action::Run(RunAction::Decoded { run, files, lnc, data })
        }
        Response::Undecodable { run, message } => Action::Run(RunAction::Undecodable { run, message }),
        Response::Compared { a, b, numbers, core_map, json } => {
            return Some(Incoming::Read(Box::new(move || read_comparison(a, b, numbers, core_map, json))));
        }
        Response::Located { run, text, located, beside } => {
            Action::Log(LogAction::Located { run, text, located, beside })
        }
        Response::LogJson { blob } => {
            download::blob(&blob, "log.json");
            return None;
        }
        Response::LogJsonFailed { message } => Action::Notice(Some(format!("could not make log.json: {message}"))),
        Response::LogRead { log, json } => {
            return Some(Incoming::Read(Box::new(move || read_log_read(log, json))));
        }
        Response::Reducing { run, step } => Action::Reduce(ReduceAction::Progress { run, step }),
        Response::Reduced { run, summary, blob } => {
            let file =
                PickedFile { path: summary.file_name.clone(), size: blob.size() as u64, blob: FileBlob(Some(blob)) };
            Action::Reduce(ReduceAction::Reduced { run, file, summary })
        }
        Response::ReduceFailed { run, message } => Action::Reduce(ReduceAction::Failed { run, message }),
        Response::Replayed { run, replay } => Action::Sync(SyncAction::Replayed { run, replay }),
        Response::HistoryProgress { seq, done, total, pass } => {
            Action::Passes(PassesAction::Progress { seq, done, total, pass })
        }
        Response::History { seq, json } => {
            return Some(Incoming::Read(Box::new(move || {
                Action::Passes(PassesAction::Read { seq, history: read_back(json, "history") })
            })));
        }
        Response::PassDiff { seq, json } => {
            return Some(Incoming::Read(Box::new(move || {
                Action::Passes(PassesAction::Diffed { seq, diff: read_back(json, "diff") })
            })));
        }
    };
    Some(Incoming::Action(Box::new(action)))
}

/// The request for a question; `None` for a log file without bytes (only native tests
/// make one).
fn request(ask: &Ask) -> Option<Request> {
    let run = ask.run;
    Some(match &ask.query {
        Query::Entity(query) => Request::Entity { run, query: query.clone() },
        Query::EntityByKey(key) => Request::EntityByKey { run, key: key.clone() },
        Query::Share => Request::Share { run },
        Query::Original { file, pointer } => Request::Original { run, file: file.clone(), pointer: pointer.clone() },
        Query::Unit(unit) => Request::Unit { run, unit: unit.clone() },
        Query::Search(text) => Request::Search { run, text: text.clone() },
        Query::Export(what) => Request::Export { run, what: *what },
        Query::Locate(text) => Request::Locate { run, text: text.clone() },
        Query::LogJson { path, blob } => Request::LogJson {
            run: (run > 0).then_some(run),
            file: InputFile { path: path.clone(), blob: blob.0.clone()? },
        },
        Query::ReadLog { seq, path, blob } => Request::ReadLog {
            run: (run > 0).then_some(run),
            log: *seq,
            file: InputFile { path: path.clone(), blob: blob.0.clone()? },
        },
        Query::Reduce => Request::Reduce { run },
        Query::CancelReduce => Request::CancelReduce { run },
        Query::Replay(upto) => Request::Replay { run, upto: *upto, window: crate::state::sync::WINDOW },
    })
}

/// The worker's answers, turned into actions in the task that receives them and
/// dispatched in the next one, in order; an answer whose bytes must be read back first is
/// read in a task of its own before it is dispatched. Reading a large report back and
/// drawing the views it opens are separate tasks, none long enough to freeze the page.
struct Inbox {
    dispatcher: UseReducerDispatcher<State>,
    queue: RefCell<VecDeque<Incoming>>,
}

impl Inbox {
    fn receive(self: &Rc<Self>, incoming: Incoming) {
        let first = {
            let mut queue = self.queue.borrow_mut();
            queue.push_back(incoming);
            queue.len() == 1
        };
        if first {
            self.later();
        }
    }

    fn later(self: &Rc<Self>) {
        let inbox = self.clone();
        Timeout::new(0, move || inbox.deliver()).forget();
    }

    /// Dispatches what was received, in order, up to the first answer to read: that one
    /// is read in this task, and it and what follows it wait for the next.
    fn deliver(self: &Rc<Self>) {
        loop {
            let next = self.queue.borrow_mut().pop_front();
            match next {
                None => return,
                Some(Incoming::Action(action)) => self.dispatcher.dispatch(*action),
                Some(Incoming::Read(read)) => {
                    let action = read();
                    self.queue.borrow_mut().push_front(Incoming::Action(Box::new(action)));
                    self.later();
                    return;
                }
            }
        }
    }
}

/// Spawns the worker once and sends it what the state's outboxes hold.
#[hook]
pub fn use_worker(state: &UseReducerHandle<State>) {
    let bridge: Rc<WorkerBridge<LinkWorker>> = {
        let dispatcher = state.dispatcher();
        use_memo((), move |_| {
            let inbox = Rc::new(Inbox { dispatcher, queue: RefCell::new(VecDeque::new()) });
            // Beside the page, unless the document that wrote it says where (a notebook).
            let worker_loader =
                crate::services::location::host_page().worker_loader.unwrap_or_else(|| "worker_loader.js".to_owned());
            LinkWorker::spawner()
                .callback(move |response: Wire<Response>| {
                    let incoming = match response.0 {
                        Ok(response) => response_action(response),
                        Err(message) => Some(Incoming::Action(Box::new(Action::Run(RunAction::Broken(message))))),
                    };
                    if let Some(incoming) = incoming {
                        inbox.receive(incoming);
                    }
                })
                .encoding::<Codec>()
                .spawn_with_loader(&worker_loader)
        })
    };

    // Links, of both sides.
    use_links(bridge.clone(), state);

    // Links' data to read, either side's: each sent once, in order.
    {
        let bridge = bridge.clone();
        let sent = use_mut_ref(|| 0u64);
        let decode = state.decode.clone();
        use_effect_with(state.decode.seq, move |_| {
            let from = *sent.borrow();
            for (seq, order) in decode.after(from) {
                let (run, data, lnc) = (order.run, order.data.clone(), order.lnc);
                bridge.send(Wire::new(Request::Decode { run, data, lnc }));
                *sent.borrow_mut() = *seq;
            }
        });
    }

    // Comparisons: sent at once.
    {
        let bridge = bridge.clone();
        let order = state.compare.out.message.clone();
        use_effect_with(state.compare.out.seq, move |_| {
            if let Some(CompareOrder { a, b, options }) = order {
                let (numbers, core_map) = (options.numbers, options.core_map);
                bridge.send(Wire::new(Request::Compare { a, b, numbers, core_map }));
            }
        });
    }

    // The Passes view's readings and diffs: sent at once.
    {
        let bridge = bridge.clone();
        let order = state.passes.out.message.clone();
        use_effect_with(state.passes.out.seq, move |_| {
            let request = match order {
                Some(PassesOrder::Read { seq, files, ran, entity, no_table }) => {
                    Some(Request::History { seq, files: input_files(&files), ran, entity, no_table })
                }
                Some(PassesOrder::Cancel { seq }) => Some(Request::CancelHistory { seq }),
                None => None,
            };
            if let Some(request) = request {
                bridge.send(Wire::new(request));
            }
        });
    }
    {
        let bridge = bridge.clone();
        let order = state.passes.diff_out.message.clone();
        use_effect_with(state.passes.diff_out.seq, move |_| {
            if let Some(DiffOrder { seq, before, after }) = order {
                let one = |f: &crate::state::LoadedFile| {
                    f.blob.0.clone().map(|blob| InputFile { path: f.path.clone(), blob })
                };
                if let Some(after) = one(&after) {
                    let before = before.as_ref().and_then(one);
                    bridge.send(Wire::new(Request::PassDiff { seq, before, after }));
                }
            }
        });
    }

    // Questions: sent at once.
    use_send(bridge.clone(), &state.details.out);
    use_send(bridge.clone(), &state.search.out);
    use_send_all(bridge.clone(), &state.share.out);
    use_send(bridge.clone(), &state.log.out);
    use_send(bridge.clone(), &state.reduction.out);
    use_send(bridge.clone(), &state.sync.out);
    use_send(bridge, &state.export.out);
}

/// A link order waiting for its delay.
struct Pending {
    run: u64,
    _timer: Timeout,
}

/// Sends each side's newest link order once, after its delay, with the run of the other
/// side the worker keeps: the one the state names when the order is sent, not when it
/// was posted. An order no longer a side's newest (a newer one came, the side closed)
/// is not sent. Orders are told apart by run number, which is unique across both sides,
/// so a swap of the sides (which moves their outboxes) sends nothing again.
#[hook]
fn use_links(bridge: Rc<WorkerBridge<LinkWorker>>, state: &State) {
    let pending = use_mut_ref(Vec::<Pending>::new);
    let scheduled = use_mut_ref(|| 0u64);
    // Each side's latest run, when it has files: what the worker keeps beside a link.
    let live = use_mut_ref(Vec::<u64>::new);
    *live.borrow_mut() = Side::BOTH.iter().filter_map(|&side| state.kept_run(side.other())).collect();
    let orders: Vec<LinkOrder> =
        Side::BOTH.iter().filter_map(|&side| state.sides[side].link.out.message.clone()).collect();
    let runs: Vec<u64> = orders.iter().map(|o| o.run).collect();
    use_effect_with(runs, move |runs| {
        // Superseded orders are dropped with their timers.
        pending.borrow_mut().retain(|p| runs.contains(&p.run));
        // New orders (a run above every one scheduled so far) are scheduled, all of
        // them: which is new is decided before any is scheduled (both sides can post in
        // one render, the lower run on the side listed second).
        let before = *scheduled.borrow();
        let new: Vec<LinkOrder> = orders.into_iter().filter(|o| o.run > before).collect();
        for order in new {
            let latest = order.run.max(*scheduled.borrow());
            *scheduled.borrow_mut() = latest;
            let run = order.run;
            let bridge = bridge.clone();
            let live = live.clone();
            let request = link_request(&order);
            let send = move || {
                let keep = live.borrow().iter().copied().find(|&other| other != run);
                bridge.send(Wire::new(Request::Link(LinkRequest { keep, ..request })))
            };
            pending.borrow_mut().push(Pending { run, _timer: Timeout::new(order.delay_ms, send) });
        }
    });
}

/// The files that have blobs, as the worker takes them.
fn input_files(files: &[crate::state::LoadedFile]) -> Vec<InputFile> {
    files.iter().filter_map(|f| f.blob.0.clone().map(|blob| InputFile { path: f.path.clone(), blob })).collect()
}

/// What a link order asks the worker (the run it keeps is decided when it is sent).
fn link_request(order: &LinkOrder) -> LinkRequest {
    let input = input_files;
    LinkRequest {
        run: order.run,
        files: input(&order.files),
        lnc: order.lnc,
        flow: order.flow,
        workdir: order.workdir.as_ref().map(|w| WorkdirFiles {
            after: w.after.clone(),
            files: w.files.clone(),
            wanted: input(&w.wanted),
        }),
        keep: None,
    }
}

/// Sends each new question a mailbox holds, in order.
#[hook]
fn use_send_all(bridge: Rc<WorkerBridge<LinkWorker>>, mailbox: &Mailbox<Ask>) {
    let sent = use_mut_ref(|| 0u64);
    let mailbox = mailbox.clone();
    use_effect_with(mailbox.seq, move |_| {
        let from = *sent.borrow();
        for (seq, ask) in mailbox.after(from) {
            if let Some(request) = request(ask) {
                bridge.send(Wire::new(request));
            }
            *sent.borrow_mut() = *seq;
        }
    });
}

/// Sends each new question an outbox holds.
#[hook]
fn use_send(bridge: Rc<WorkerBridge<LinkWorker>>, outbox: &Outbox<Ask>) {
    let ask = outbox.message.clone();
    use_effect_with(outbox.seq, move |_| {
        if let Some(request) = ask.as_ref().and_then(request) {
            bridge.send(Wire::new(request));
        }
    });
}
