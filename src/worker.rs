//! The link worker: runs the pipeline off the page's thread and answers questions
//! about the last run.
//!
//! It reads the input blobs itself (`FileReaderSync`), runs `birlink_core::run` with
//! progress reports, and keeps the outcome so the page can ask for details, search,
//! unit texts and exports without holding the linked module itself.

use gloo_worker::{HandlerId, Worker, WorkerScope};
use wasm_bindgen::JsCast;

use birlink_core::passes::{LinkOptions, Progress};
use birlink_core::{Outcome, SourceFile};

use crate::protocol::{Export, InputFile, Request, Response, RunStats};

/// The worker's state: the last run.
pub struct LinkWorker {
    last: Option<Session>,
}

struct Session {
    run: u64,
    outcome: Outcome,
    report: String,
}

fn now() -> f64 {
    js_sys::global()
        .dyn_into::<web_sys::WorkerGlobalScope>()
        .ok()
        .and_then(|scope| scope.performance())
        .map(|performance| performance.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Reads a blob's bytes synchronously (allowed in workers).
fn read(file: &InputFile) -> SourceFile {
    let content = web_sys::FileReaderSync::new()
        .and_then(|reader| reader.read_as_array_buffer(&file.blob))
        .map(|buffer| js_sys::Uint8Array::new(&buffer).to_vec())
        .map_err(|error| {
            error.as_string().unwrap_or_else(|| "the browser could not read the file".to_owned()).to_lowercase()
        });
    SourceFile { path: file.path.clone(), content, role: birlink_core::Role::Auto }
}

fn blob(bytes: &[u8]) -> Option<web_sys::Blob> {
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()
}

impl Worker for LinkWorker {
    type Message = ();
    type Input = Request;
    type Output = Response;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        LinkWorker { last: None }
    }

    fn update(&mut self, _scope: &WorkerScope<Self>, _msg: Self::Message) {}

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        match msg {
            Request::Link { run, files, lnc } => self.link(scope, id, run, files, lnc),
            Request::Entity { run, query } => {
                let view = self.session(run).and_then(|s| {
                    let module = s.outcome.linked.as_ref()?;
                    birlink_core::query::entity_view(module, &s.outcome.files, &query)
                });
                scope.respond(id, Response::Entity { run, query, view: view.map(Box::new) });
            }
            Request::Original { run, file, pointer } => {
                let original = self.session(run).and_then(|s| {
                    let entry = s.outcome.files.iter().find(|f| f.path == file)?;
                    birlink_core::query::original(entry, &pointer)
                });
                scope.respond(id, Response::Original { run, file, pointer, original });
            }
            Request::Unit { run, unit } => {
                let text = self
                    .session(run)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .and_then(|module| birlink_core::query::unit_text(module, &unit));
                scope.respond(id, Response::Unit { run, unit, text });
            }
            Request::Search { run, text } => {
                let hits = self
                    .session(run)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .map(|module| birlink_core::query::search(module, &text, 50))
                    .unwrap_or_default();
                scope.respond(id, Response::Search { run, text, hits });
            }
            Request::Export { run, what } => {
                let Some(session) = self.session(run) else { return };
                let bytes = match what {
                    Export::Report => session.report.clone().into_bytes(),
                    Export::Linked => {
                        let Some(module) = session.outcome.linked.as_ref() else { return };
                        let mut out = Vec::new();
                        if birlink_core::json::write::write_module(module, &mut out).is_err() {
                            return;
                        }
                        out
                    }
                };
                match blob(&bytes) {
                    Some(blob) => scope.respond(id, Response::Export { run, what, blob }),
                    None => scope.respond(
                        id,
                        Response::Failed { run, message: format!("could not build {}", what.file_name()) },
                    ),
                }
            }
        }
    }
}

impl LinkWorker {
    fn session(&self, run: u64) -> Option<&Session> {
        self.last.as_ref().filter(|s| s.run == run)
    }

    fn link(&mut self, scope: &WorkerScope<Self>, id: HandlerId, run: u64, files: Vec<InputFile>, lnc: Option<u64>) {
        // The previous run's memory goes first: a big link set must not be held twice.
        self.last = None;
        let total = files.len() as u32 + 5;
        let progress = |phase: String, done: u32| Response::Progress { run, phase, done, total };
        let started = now();
        let mut sources = Vec::with_capacity(files.len());
        let mut bytes = 0u64;
        for (i, file) in files.iter().enumerate() {
            scope.respond(id, progress(format!("reading {}", file.path), i as u32));
            let source = read(file);
            bytes += source.content.as_ref().map(|b| b.len() as u64).unwrap_or(0);
            sources.push(source);
        }
        let load_ms = now() - started;
        let options =
            LinkOptions { lnc, passes: None, max_input_bytes: Some(birlink_core::limits::WASM_MAX_INPUT_BYTES) };
        let started = now();
        let files_done = files.len() as u32;
        let outcome = birlink_core::passes::run_with_progress(sources, &options, &mut |step| {
            let (phase, done) = match step {
                Progress::Reading => ("parsing and checking the files".to_owned(), files_done),
                Progress::Pass(name) => {
                    let index = birlink_core::passes::PASSES.iter().position(|p| *p == name).unwrap_or(0) as u32;
                    (format!("running {name}"), files_done + 1 + index)
                }
                Progress::Reporting => ("writing the report".to_owned(), files_done + 5),
            };
            scope.respond(id, progress(phase, done));
        });
        let pipeline_ms = now() - started;
        let started = now();
        let report = birlink_core::report_json(&outcome);
        let report_ms = now() - started;
        let linked = outcome.linked.is_some();
        scope.respond(
            id,
            Response::Linked {
                run,
                report: report.clone(),
                linked,
                stats: RunStats { load_ms, pipeline_ms, report_ms, bytes },
            },
        );
        self.last = Some(Session { run, outcome, report });
    }
}
