//! The app: state, the worker bridge, and the effects that connect them.
//!
//! Effects: at start, the samples index and the default sample (or `?src=` /
//! `?sample=`) are fetched; whenever the files or the LNC change, a new run is sent to
//! the worker (debounced); a new selection asks the worker for details; search text asks
//! it for names. Keys and drag-and-drop are handled for the whole page here.

use std::rc::Rc;

use gloo::events::EventListener;
use gloo::timers::callback::Timeout;
use gloo_worker::Spawnable;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::components::{Details as DetailsPanel, Header, HelpOverlay, LoadPanel, MainViews, PassList};
use crate::protocol::{Codec, InputFile, Request, Response};
use crate::services::{download, fetch, files};
use crate::state::{Action, Details, RunResult, Selection, State, View};
use crate::worker::LinkWorker;

/// What every component can reach.
#[derive(Clone)]
pub struct AppContext {
    /// The state and its dispatcher.
    pub state: UseReducerHandle<State>,
    /// Sends requests to the link worker.
    pub worker: Rc<dyn Fn(Request)>,
}

impl PartialEq for AppContext {
    fn eq(&self, other: &Self) -> bool {
        self.state == other.state
    }
}

impl AppContext {
    /// Dispatches an action.
    pub fn dispatch(&self, action: Action) {
        self.state.dispatch(action);
    }

    /// Asks the worker for something about the current run.
    pub fn send(&self, request: Request) {
        (self.worker)(request);
    }
}

fn response_action(response: Response) -> Option<Action> {
    Some(match response {
        Response::Progress { run, phase, done, total } => Action::Progress { run, phase, done, total },
        Response::Linked { run, report, linked, stats } => match serde_json::from_str(&report) {
            Ok(report) => Action::Linked(Box::new(RunResult::new(run, report, linked, stats))),
            Err(error) => Action::Failed { run, message: format!("the worker's report did not read back: {error}") },
        },
        Response::Entity { query, view, .. } => Action::DetailsLoaded(match view {
            Some(view) => Details::Entity(Rc::new(*view)),
            None => Details::Missing(format!("{} `{}` is not in the linked module", query.kind, query.name)),
        }),
        Response::Original { file, pointer, original, .. } => Action::DetailsLoaded(Details::Original {
            title: if pointer.is_empty() { file } else { format!("{file} at {pointer}") },
            original: original.map(Rc::new),
        }),
        Response::Unit { unit, text, .. } => Action::DetailsLoaded(Details::Unit { unit, text: text.map(Rc::new) }),
        Response::Search { text, hits, .. } => Action::SearchResults { text, hits },
        Response::Export { what, blob, .. } => {
            download::blob(&blob, what.file_name());
            return None;
        }
        Response::Failed { run, message } => Action::Failed { run, message },
    })
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    let worker = use_mut_ref(|| None::<gloo_worker::WorkerBridge<LinkWorker>>);
    if worker.borrow().is_none() {
        let dispatcher = state.dispatcher();
        let bridge = LinkWorker::spawner()
            .callback(move |response| {
                if let Some(action) = response_action(response) {
                    dispatcher.dispatch(action);
                }
            })
            .encoding::<Codec>()
            .spawn_with_loader("worker_loader.js");
        *worker.borrow_mut() = Some(bridge);
    }
    let send: Rc<dyn Fn(Request)> = {
        let worker = worker.clone();
        Rc::new(move |request| {
            if let Some(bridge) = worker.borrow().as_ref() {
                bridge.send(request);
            }
        })
    };
    let context = AppContext { state: state.clone(), worker: send.clone() };

    // Start: `?src=`, `?sample=` or the default sample, and the samples index, fetched
    // side by side (the link must not wait for the menu).
    {
        let dispatcher = state.dispatcher();
        use_effect_with((), move |_| {
            let menu = dispatcher.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match fetch::samples_index().await {
                    Ok(samples) => menu.dispatch(Action::SamplesLoaded(samples)),
                    Err(error) => menu.dispatch(Action::Notice(Some(error))),
                }
            });
            wasm_bindgen_futures::spawn_local(async move {
                let url = match (fetch::src_param(), fetch::sample_param()) {
                    (Some(src), _) => src,
                    (None, Some(sample)) => format!("samples/{sample}"),
                    (None, None) => format!("samples/{}", birlink_core::samples::DEFAULT_SAMPLE),
                };
                match fetch::blob(&url).await {
                    Ok(file) => dispatcher.dispatch(Action::ReplaceFiles(vec![file])),
                    Err(error) => dispatcher.dispatch(Action::Notice(Some(error))),
                }
            });
        });
    }

    // Re-link whenever the link set or the LNC changes (debounced: a folder arrives as
    // many changes at once).
    {
        let dispatcher = state.dispatcher();
        let send = send.clone();
        let pending = use_mut_ref(|| None::<Timeout>);
        let runs = use_mut_ref(|| 0u64);
        use_effect_with((state.files.clone(), state.lnc), move |(files, lnc)| {
            if files.is_empty() {
                pending.borrow_mut().take();
            } else {
                let inputs: Vec<InputFile> = files
                    .iter()
                    .filter_map(|f| f.blob.0.clone().map(|blob| InputFile { path: f.path.clone(), blob }))
                    .collect();
                let lnc = *lnc;
                // The first link starts at once; later ones wait for the rest of a batch.
                let delay = if *runs.borrow() == 0 { 0 } else { 120 };
                let timeout = Timeout::new(delay, move || {
                    let run = {
                        let mut runs = runs.borrow_mut();
                        *runs += 1;
                        *runs
                    };
                    dispatcher.dispatch(Action::RunStarted(run));
                    send(Request::Link { run, files: inputs, lnc });
                });
                *pending.borrow_mut() = Some(timeout);
            }
        });
    }

    // Details for the selection.
    {
        let send = send.clone();
        let run = state.result.as_ref().map(|r| r.run);
        let result = state.result.clone();
        use_effect_with((state.selection.clone(), run), move |(selection, run)| {
            if let (Some(selection), Some(run)) = (selection, run) {
                match selection {
                    Selection::Entity(query) => send(Request::Entity { run: *run, query: query.clone() }),
                    Selection::Diagnostic(index) => {
                        let location = result
                            .as_ref()
                            .and_then(|r| r.report.diagnostics.get(*index))
                            .and_then(|d| d.location.clone());
                        if let Some(location) = location {
                            send(Request::Original { run: *run, file: location.file, pointer: location.pointer });
                        }
                    }
                }
            }
        });
    }

    // Unit texts.
    {
        let send = send.clone();
        let run = state.result.as_ref().map(|r| r.run);
        let unit = match &state.details {
            Details::Unit { unit, text: None } => Some(unit.clone()),
            _ => None,
        };
        use_effect_with((unit, run), move |(unit, run)| {
            if let (Some(unit), Some(run)) = (unit, run) {
                send(Request::Unit { run: *run, unit: unit.clone() });
            }
        });
    }

    // Search.
    {
        let send = send.clone();
        let run = state.result.as_ref().map(|r| r.run);
        use_effect_with((state.search.text.clone(), run), move |(text, run)| {
            if let Some(run) = run {
                if !text.trim().is_empty() {
                    send(Request::Search { run: *run, text: text.clone() });
                }
            }
        });
    }

    // Keys for the whole page.
    {
        let state = state.clone();
        use_effect_with(state.clone(), move |state| {
            let state = state.clone();
            let document = gloo::utils::document();
            // Not passive: `/` must not also type itself into the search box.
            let options = gloo::events::EventListenerOptions::enable_prevent_default();
            let listener = EventListener::new_with_options(&document, "keydown", options, move |event| {
                let Some(event) = event.dyn_ref::<KeyboardEvent>() else { return };
                on_key(&state, event);
            });
            move || drop(listener)
        });
    }

    // Drag and drop anywhere on the page.
    let dragging = use_state(|| false);
    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |event: DragEvent| {
            // Only leaving the window counts (related target outside the page).
            if event.related_target().is_none() {
                dragging.set(false);
            }
        })
    };
    let ondrop = {
        let dragging = dragging.clone();
        let dispatcher = state.dispatcher();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            dragging.set(false);
            let Some(transfer) = event.data_transfer() else { return };
            let dispatcher = dispatcher.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let picked = files::from_drop(transfer).await;
                if picked.is_empty() {
                    dispatcher
                        .dispatch(Action::Notice(Some("nothing to open: drop `.json` files or folders".to_owned())));
                } else {
                    dispatcher.dispatch(Action::AddFiles(picked));
                }
            });
        })
    };

    html! {
        <ContextProvider<AppContext> context={context}>
            <div class={classes!("app", dragging.then_some("dragging"))} {ondragover} {ondragleave} {ondrop}>
                <Header />
                <div class="body">
                    <aside class="sidebar" aria-label="Link set and pipeline">
                        <LoadPanel />
                        <PassList />
                    </aside>
                    <main class="main" id="main">
                        <MainViews />
                    </main>
                    <DetailsPanel />
                </div>
                if *dragging {
                    <div class="drop-overlay" aria-hidden="true">
                        <p>{ "Drop per-core module JSON, bundles or folders" }</p>
                    </div>
                }
                if state.help {
                    <HelpOverlay />
                }
            </div>
        </ContextProvider<AppContext>>
    }
}

/// Page-wide keys. Keys typed into a field are the field's.
fn on_key(state: &UseReducerHandle<State>, event: &KeyboardEvent) {
    let target = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let tag = target.as_ref().map(|t| t.tag_name().to_ascii_lowercase()).unwrap_or_default();
    let typing = matches!(tag.as_str(), "input" | "textarea" | "select");
    if event.ctrl_key() || event.meta_key() || event.alt_key() {
        return;
    }
    let key = event.key();
    if key == "Escape" {
        if state.help {
            state.dispatch(Action::ToggleHelp);
        } else if state.search.open {
            state.dispatch(Action::CloseSearch);
        } else {
            state.dispatch(Action::ClearSelection);
        }
        return;
    }
    if typing {
        return;
    }
    match key.as_str() {
        "1" | "2" | "3" | "4" | "5" | "6" => {
            let index = key.parse::<usize>().unwrap_or(1) - 1;
            state.dispatch(Action::SetView(View::ALL[index]));
        }
        "?" => state.dispatch(Action::ToggleHelp),
        "/" => {
            event.prevent_default();
            if let Some(input) = gloo::utils::document().get_element_by_id("search") {
                if let Ok(input) = input.dyn_into::<web_sys::HtmlElement>() {
                    let _ = input.focus();
                }
            }
        }
        "j" | "k" if state.view == View::Pipeline => {
            state.dispatch(Action::MoveStep(if key == "j" { 1 } else { -1 }));
        }
        "j" | "k" if state.view == View::Diagnostics => {
            if let Some(result) = &state.result {
                let order = &result.diagnostic_order;
                let at = match state.selection {
                    Some(Selection::Diagnostic(i)) => order.iter().position(|x| *x == i),
                    _ => None,
                };
                let next = match (at, key.as_str()) {
                    (None, _) => 0,
                    (Some(i), "j") => (i + 1).min(order.len().saturating_sub(1)),
                    (Some(i), _) => i.saturating_sub(1),
                };
                if let Some(&index) = order.get(next) {
                    state.dispatch(Action::Select(Selection::Diagnostic(index)));
                }
            }
        }
        _ => {}
    }
}

/// Mounts the app on the page.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
