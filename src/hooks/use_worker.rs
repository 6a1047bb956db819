//! The link worker: spawned once, fed from the reducer's outboxes, answering with
//! actions.
//!
//! The reducer decides every request ([`crate::state::Outbox`]); this hook only sends
//! each new one (a link after its debounce delay, the rest at once) and turns the
//! worker's responses back into actions.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use gloo::timers::callback::Timeout;
use gloo_worker::{Spawnable, WorkerBridge};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::protocol::{Codec, InputFile, Request, Response, RunStats, Wire, WorkdirFiles};
use crate::services::download;
use crate::state::{
    Action, Ask, CompareAction, CompareOrder, DetailsAction, FileBlob, LinkAction, LinkOrder, Outbox, PickedFile,
    Query, ReproAction, RunResult, SearchAction, ShareAction, Side, State,
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
fn read_run(
    run: u64,
    report: &js_sys::Uint8Array,
    linked: bool,
    stats: RunStats,
    alignment: &js_sys::Uint8Array,
) -> Action {
    let read = serde_json::from_slice(&report.to_vec())
        .map_err(|error| format!("the worker's report did not read back: {error}"))
        .and_then(|report| {
            serde_json::from_slice(&alignment.to_vec())
                .map(|alignment| (report, alignment))
                .map_err(|error| format!("the worker's alignment did not read back: {error}"))
        });
    match read {
        Ok((report, alignment)) => {
            Action::Link(LinkAction::Linked(Box::new(RunResult::new(run, report, linked, stats).aligned(alignment))))
        }
        Err(message) => Action::Link(LinkAction::Failed { run, message }),
    }
}

/// A comparison's JSON read back, or why the worker could not make it.
fn read_comparison(a: u64, b: u64, numbers: bool, core_map: Vec<(u64, u64)>, json: JsValue) -> Action {
    let comparison = match json.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => serde_json::from_slice(&bytes.to_vec())
            .map(Box::new)
            .map_err(|error| format!("the worker's comparison did not read back: {error}")),
        Err(text) => Err(text.as_string().unwrap_or_else(|| "the comparison could not be made".to_owned())),
    };
    let options = birlink_core::tools::share::CompareState { numbers, core_map };
    Action::Compare(CompareAction::Compared { a, b, options, comparison })
}

fn response_action(response: Response) -> Option<Incoming> {
    let action = match response {
        Response::Progress { run, phase, done, total } => {
            Action::Link(LinkAction::Progress { run, phase, done, total })
        }
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
        Response::Failed { run, message } => Action::Link(LinkAction::Failed { run, message }),
        Response::Broken { message } => Action::Link(LinkAction::Broken(message)),
        Response::Decoded { data, files, lnc, against } => {
            let files = files
                .into_iter()
                .map(|f| PickedFile { path: f.path, size: f.blob.size() as u64, blob: FileBlob(Some(f.blob)) })
                .collect();
            if against {
                Action::Compare(CompareAction::OpenData { files, lnc, data })
            } else {
                Action::Link(LinkAction::OpenData { files, lnc, data })
            }
        }
        Response::Undecodable { message, against: false } => Action::Link(LinkAction::Undecodable(message)),
        Response::Undecodable { message, against: true } => {
            Action::Notice(Some(format!("the link's set to compare against could not be read: {message}")))
        }
        Response::Compared { a, b, numbers, core_map, json } => {
            return Some(Incoming::Read(Box::new(move || read_comparison(a, b, numbers, core_map, json))));
        }
        Response::Located { run, text, located } => Action::Repro(ReproAction::Located { run, text, located }),
        Response::Reducing { run, step } => Action::Repro(ReproAction::Progress { run, step }),
        Response::Reduced { run, summary, blob } => {
            let file =
                PickedFile { path: summary.file_name.clone(), size: blob.size() as u64, blob: FileBlob(Some(blob)) };
            Action::Repro(ReproAction::Reduced { run, file, summary })
        }
        Response::ReduceFailed { run, message } => Action::Repro(ReproAction::Failed { run, message }),
    };
    Some(Incoming::Action(Box::new(action)))
}

fn request(ask: &Ask) -> Request {
    let run = ask.run;
    match &ask.query {
        Query::Entity(query) => Request::Entity { run, query: query.clone() },
        Query::EntityByKey(key) => Request::EntityByKey { run, key: key.clone() },
        Query::Share => Request::Share { run },
        Query::Original { file, pointer } => Request::Original { run, file: file.clone(), pointer: pointer.clone() },
        Query::Unit(unit) => Request::Unit { run, unit: unit.clone() },
        Query::Search(text) => Request::Search { run, text: text.clone() },
        Query::Export(what) => Request::Export { run, what: *what },
        Query::Locate(text) => Request::Locate { run, text: text.clone() },
        Query::Reduce => Request::Reduce { run },
        Query::CancelReduce => Request::CancelReduce { run },
    }
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
                        Err(message) => Some(Incoming::Action(Box::new(Action::Link(LinkAction::Broken(message))))),
                    };
                    if let Some(incoming) = incoming {
                        inbox.receive(incoming);
                    }
                })
                .encoding::<Codec>()
                .spawn_with_loader(&worker_loader)
        })
    };

    // Links, of both link sets: a new order replaces (and so cancels) the one waiting
    // for its delay.
    use_link(bridge.clone(), &state.link.out, state.kept_run(Side::Shown));
    use_link(bridge.clone(), &state.against.link.out, state.kept_run(Side::Against));

    // A link's data to read (the shown link set's, the one compared against's): sent at
    // once.
    use_decode(bridge.clone(), &state.link.decode, false);
    use_decode(bridge.clone(), &state.against.decode, true);

    // Comparisons: sent at once.
    {
        let bridge = bridge.clone();
        let order = state.against.out.message.clone();
        use_effect_with(state.against.out.seq, move |_| {
            if let Some(CompareOrder { a, b, options }) = order {
                let (numbers, core_map) = (options.numbers, options.core_map);
                bridge.send(Wire::new(Request::Compare { a, b, numbers, core_map }));
            }
        });
    }

    // Questions: sent at once.
    use_send(bridge.clone(), &state.details.out);
    use_send(bridge.clone(), &state.search.out);
    use_send(bridge.clone(), &state.share.out);
    use_send(bridge.clone(), &state.against.share_out);
    use_send(bridge.clone(), &state.repro.log_out);
    use_send(bridge.clone(), &state.repro.reduce_out);
    use_send(bridge, &state.export.out);
}

/// Sends each new link order an outbox holds, after its delay (a newer order cancels
/// one still waiting), with the run of the other link set the worker keeps: the one the
/// state names when the order is sent, not when it was posted.
#[hook]
fn use_link(bridge: Rc<WorkerBridge<LinkWorker>>, outbox: &Outbox<LinkOrder>, keep: Option<u64>) {
    let pending = use_mut_ref(|| None::<Timeout>);
    let kept = use_mut_ref(|| None::<u64>);
    *kept.borrow_mut() = keep;
    let order = outbox.message.clone();
    use_effect_with(outbox.seq, move |_| {
        let Some(order) = order else {
            pending.borrow_mut().take();
            return;
        };
        let files: Vec<InputFile> = order
            .files
            .iter()
            .filter_map(|f| f.blob.0.clone().map(|blob| InputFile { path: f.path.clone(), blob }))
            .collect();
        let (run, lnc) = (order.run, order.lnc);
        let workdir = order.workdir.as_ref().map(|w| WorkdirFiles {
            after: w.after.clone(),
            files: w.files.clone(),
            wanted: w
                .wanted
                .iter()
                .filter_map(|f| f.blob.0.clone().map(|blob| InputFile { path: f.path.clone(), blob }))
                .collect(),
        });
        let send = move || {
            let keep = *kept.borrow();
            bridge.send(Wire::new(Request::Link { run, files, lnc, workdir, keep }))
        };
        *pending.borrow_mut() = Some(Timeout::new(order.delay_ms, send));
    });
}

/// Sends each new link data an outbox holds to be read.
#[hook]
fn use_decode(bridge: Rc<WorkerBridge<LinkWorker>>, outbox: &Outbox<(String, Option<u64>)>, against: bool) {
    let asked = outbox.message.clone();
    use_effect_with(outbox.seq, move |_| {
        if let Some((data, lnc)) = asked {
            bridge.send(Wire::new(Request::Decode { data, lnc, against }));
        }
    });
}

/// Sends each new question an outbox holds.
#[hook]
fn use_send(bridge: Rc<WorkerBridge<LinkWorker>>, outbox: &Outbox<Ask>) {
    let ask = outbox.message.clone();
    use_effect_with(outbox.seq, move |_| {
        if let Some(ask) = ask {
            bridge.send(Wire::new(request(&ask)));
        }
    });
}
