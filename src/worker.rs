//! The link worker: runs the pipeline off the page's thread and answers questions
//! about the last run — and, when the page compares two link sets, about the other one's
//! too, and compares them.
//!
//! It reads the input blobs itself (`FileReaderSync`), runs `birlink_core::run` with
//! progress reports, and keeps the outcome so the page can ask for details, search,
//! unit texts and exports without holding the linked module itself. It keeps at most two
//! runs (the shown link set's and the one compared against), each found by its number.

use gloo_worker::{HandlerId, Worker, WorkerScope};
use wasm_bindgen::JsCast;

use birlink_core::passes::{LinkOptions, Progress};
use birlink_core::{Outcome, SourceFile};

use crate::protocol::{Export, InputFile, ReduceStep, ReducedSummary, Request, Response, RunStats, Wire, WorkdirFiles};

/// The worker's state: the runs it keeps (the link set shown, and the one compared
/// against), and a reduction under way.
pub struct LinkWorker {
    sessions: Vec<Session>,
    reducing: Option<Job>,
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

/// The worker's own message: run the next slice of the reduction of `run`.
pub struct NextSlice(u64);

/// A link to run (`Request::Link`).
struct Order {
    run: u64,
    files: Vec<InputFile>,
    lnc: Option<u64>,
    workdir: Option<WorkdirFiles>,
    keep: Option<u64>,
}

struct Session {
    run: u64,
    outcome: Outcome,
    report: String,
    /// The inputs as the page sent them (blob handles), for sharing and bundles.
    inputs: Vec<InputFile>,
    lnc: Option<u64>,
    /// What reading the inputs was estimated to hold (the other link set's budget is
    /// what is left).
    held: u64,
}

/// Above this many input bytes a link set is not even compressed for a link: JSON would
/// have to shrink more than 64 times to fit the link budget.
const SHARE_MAX_INPUT: u64 = 64 * birlink_core::tools::share::LINK_BUDGET as u64;

fn now() -> f64 {
    js_sys::global()
        .dyn_into::<web_sys::WorkerGlobalScope>()
        .ok()
        .and_then(|scope| scope.performance())
        .map(|performance| performance.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Reads a blob's bytes synchronously (allowed in workers).
fn read_blob(blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
    web_sys::FileReaderSync::new()
        .and_then(|reader| reader.read_as_array_buffer(blob))
        .map(|buffer| js_sys::Uint8Array::new(&buffer).to_vec())
        .map_err(|error| {
            error.as_string().unwrap_or_else(|| "the browser could not read the file".to_owned()).to_lowercase()
        })
}

thread_local! {
    /// The kept runs' input blobs, by run, which their sources read when the loader
    /// reaches them (and again for a location): a reader holds a run and an index, which
    /// can cross threads as the core's `Reader` must, where a blob cannot. The worker has
    /// one thread.
    static BLOBS: std::cell::RefCell<Vec<(u64, Vec<web_sys::Blob>)>> = const { std::cell::RefCell::new(Vec::new()) };
    /// Milliseconds spent reading blobs in this run.
    static READ_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// The size of the slices a blob is read in.
const SLICE: f64 = (8 << 20) as f64;

/// Calls `each` with every slice of a blob, in order, through one buffer: the loader
/// compacts an indented file as it arrives, so the file itself is never in wasm memory
/// whole.
fn read_slices(blob: &web_sys::Blob, each: &mut dyn FnMut(&[u8])) -> Result<(), String> {
    let reader = web_sys::FileReaderSync::new().map_err(|_| "the browser could not read the file".to_owned())?;
    let size = blob.size();
    let mut buffer = Vec::new();
    let mut at = 0.0;
    while at < size {
        let end = (at + SLICE).min(size);
        let slice =
            blob.slice_with_f64_and_f64(at, end).map_err(|_| "the browser could not slice the file".to_owned())?;
        let array = reader.read_as_array_buffer(&slice).map_err(|error| {
            error.as_string().unwrap_or_else(|| "the browser could not read the file".to_owned()).to_lowercase()
        })?;
        let array = js_sys::Uint8Array::new(&array);
        buffer.resize(array.length() as usize, 0);
        array.copy_to(&mut buffer);
        each(&buffer);
        at = end;
    }
    Ok(())
}

/// A source read when the loader reaches it, in slices: the loader holds one file at a
/// time, compacted as it arrives, and drops the text no instruction is a span of,
/// reading the blob again for a location.
fn later(run: u64, index: usize, file: &InputFile) -> SourceFile {
    let reader = birlink_core::Reader::chunked(move |each| {
        let blob = BLOBS.with(|blobs| {
            blobs.borrow().iter().find(|(r, _)| *r == run).and_then(|(_, blobs)| blobs.get(index).cloned())
        });
        let blob = blob.ok_or_else(|| "the file is no longer open".to_owned())?;
        let started = now();
        let read = read_slices(&blob, each);
        READ_MS.with(|ms| ms.set(ms.get() + now() - started));
        read
    });
    SourceFile {
        path: file.path.clone(),
        content: birlink_core::Content::Later { len: file.blob.size() as u64, reader },
        role: birlink_core::Role::Auto,
    }
}

/// A blob's sample for `read::compact::held_estimate` (from its middle); none when it
/// cannot be read (the read itself will say why).
fn sample(blob: &web_sys::Blob) -> Vec<u8> {
    let start = birlink_core::read::compact::sample_start(blob.size() as u64) as f64;
    let end = blob.size().min(start + birlink_core::limits::SAMPLE_BYTES as f64);
    blob.slice_with_f64_and_f64(start, end).ok().and_then(|slice| read_blob(&slice).ok()).unwrap_or_default()
}

/// The largest file of a work directory whose bytes the link's last step reads here
/// (a tensor map, a name two cores offer); a larger one is compared by its size.
const WORKDIR_READ_MAX: u64 = 64 << 20;

/// A work directory's files as the core's link reads them: names and sizes, the bytes
/// of the wanted ones.
fn workdir_input(files: WorkdirFiles) -> birlink_core::read::workdir::WorkdirInput {
    let mut wanted: std::collections::BTreeMap<String, Vec<u8>> = std::collections::BTreeMap::new();
    for file in &files.wanted {
        if (file.blob.size() as u64) <= WORKDIR_READ_MAX {
            if let Ok(bytes) = read_blob(&file.blob) {
                wanted.insert(file.path.clone(), bytes);
            }
        }
    }
    birlink_core::read::workdir::WorkdirInput {
        after: files.after,
        files: files
            .files
            .into_iter()
            .map(|(path, size)| {
                let content = wanted.remove(&path);
                birlink_core::read::workdir::WorkFile { path, size, content }
            })
            .collect(),
    }
}

/// The size of this worker's wasm memory.
fn memory_bytes() -> u64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|memory| memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64)
        .unwrap_or(0)
}

fn blob(bytes: &[u8]) -> Option<web_sys::Blob> {
    let mut parts = BlobParts::default();
    std::io::Write::write_all(&mut parts, bytes).ok()?;
    parts.finish()
}

/// An `io::Write` that hands its bytes to JavaScript in chunks, so exporting a large
/// linked module never holds its whole text in wasm memory (which never shrinks).
#[derive(Default)]
struct BlobParts {
    parts: Vec<js_sys::Uint8Array>,
    buffer: Vec<u8>,
}

impl BlobParts {
    const CHUNK: usize = 4 << 20;

    fn flush_chunk(&mut self) {
        if !self.buffer.is_empty() {
            self.parts.push(js_sys::Uint8Array::from(self.buffer.as_slice()));
            self.buffer.clear();
        }
    }

    fn finish(mut self) -> Option<web_sys::Blob> {
        self.flush_chunk();
        let parts: js_sys::Array = self.parts.into_iter().collect();
        let options = web_sys::BlobPropertyBag::new();
        options.set_type("application/json");
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()
    }
}

impl std::io::Write for BlobParts {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        if self.buffer.len() >= Self::CHUNK {
            self.flush_chunk();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Worker for LinkWorker {
    type Message = NextSlice;
    type Input = Wire<Request>;
    type Output = Wire<Response>;

    fn create(_scope: &WorkerScope<Self>) -> Self {
        LinkWorker { sessions: Vec::new(), reducing: None }
    }

    fn update(&mut self, scope: &WorkerScope<Self>, NextSlice(run): Self::Message) {
        if self.reducing.as_ref().is_some_and(|job| job.run == run) {
            self.slice(scope);
        }
    }

    fn received(&mut self, scope: &WorkerScope<Self>, msg: Self::Input, id: HandlerId) {
        let msg = match msg.0 {
            Ok(request) => request,
            Err(message) => return scope.respond(id, Wire::new(Response::Broken { message })),
        };
        match msg {
            Request::Link { run, files, lnc, workdir, keep } => {
                self.reducing = None;
                self.link(scope, id, Order { run, files, lnc, workdir, keep })
            }
            Request::Compare { a, b, numbers, core_map } => {
                let json = match (self.session(a), self.session(b)) {
                    (Some(a), Some(b)) => {
                        let options = birlink_core::tools::compare::CompareOptions {
                            core_map: core_map.iter().copied().collect(),
                            normalize: birlink_core::tools::compare::Normalize { numbers },
                        };
                        let comparison = birlink_core::tools::compare::compare(&a.outcome, &b.outcome, &options);
                        match serde_json::to_vec(&comparison) {
                            Ok(json) => js_sys::Uint8Array::from(json.as_slice()).into(),
                            Err(error) => {
                                wasm_bindgen::JsValue::from_str(&format!("could not write the comparison: {error}"))
                            }
                        }
                    }
                    _ => wasm_bindgen::JsValue::from_str("the worker no longer holds both runs: link them again"),
                };
                scope.respond(id, Wire::new(Response::Compared { a, b, numbers, core_map, json }));
            }
            Request::Locate { run, text } => {
                let Some(session) = self.session(run) else { return };
                let located =
                    birlink_core::tools::log::locate_all(&birlink_core::tools::log::read(&text), &session.outcome);
                scope.respond(id, Wire::new(Response::Located { run, text, located }));
            }
            Request::Decode { data, lnc, against } => {
                let response = match birlink_core::tools::share::data::decode(&data) {
                    Ok(set) => {
                        let files = set
                            .files
                            .iter()
                            .filter_map(|f| Some(InputFile { path: f.name.clone(), blob: blob(&f.bytes)? }))
                            .collect::<Vec<_>>();
                        if files.len() == set.files.len() {
                            Response::Decoded { data, files, lnc: lnc.or(set.lnc), against }
                        } else {
                            Response::Undecodable {
                                message: "the browser could not hold the link's files".to_owned(),
                                against,
                            }
                        }
                    }
                    Err(error) => Response::Undecodable { message: error.to_string(), against },
                };
                scope.respond(id, Wire::new(response));
            }
            Request::Reduce { run } => self.start_reduce(scope, id, run),
            Request::CancelReduce { run } => {
                if self.reducing.as_ref().is_some_and(|job| job.run == run) {
                    self.reducing = None;
                }
            }
            Request::Entity { run, query } => {
                let view = self.session(run).and_then(|s| {
                    let module = s.outcome.linked.as_ref()?;
                    birlink_core::tools::query::entity_view(module, &s.outcome.files, &query)
                });
                scope.respond(id, Wire::new(Response::Entity { run, query, view: view.map(Box::new) }));
            }
            Request::EntityByKey { run, key } => {
                let view = self.session(run).and_then(|s| {
                    let module = s.outcome.linked.as_ref()?;
                    birlink_core::tools::query::entity_view_by_key(module, &s.outcome.files, &key)
                });
                let query = birlink_core::tools::query::query_of(&key);
                scope.respond(id, Wire::new(Response::Entity { run, query, view: view.map(Box::new) }));
            }
            Request::Share { run } => {
                let Some(session) = self.session(run) else { return };
                scope.respond(id, Wire::new(Response::Share { run, data: session.share_data() }));
            }
            Request::Original { run, file, pointer } => {
                let original = self.session(run).and_then(|s| {
                    let entry = s.outcome.files.iter().find(|f| f.path == file)?;
                    birlink_core::tools::query::original(entry, &pointer)
                });
                scope.respond(id, Wire::new(Response::Original { run, file, pointer, original }));
            }
            Request::Unit { run, unit } => {
                let text = self
                    .session(run)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .and_then(|module| birlink_core::tools::query::unit_text(module, &unit));
                scope.respond(id, Wire::new(Response::Unit { run, unit, text }));
            }
            Request::Search { run, text } => {
                let hits = self
                    .session(run)
                    .and_then(|s| s.outcome.linked.as_ref())
                    .map(|module| birlink_core::tools::query::search(module, &text, 50))
                    .unwrap_or_default();
                scope.respond(id, Wire::new(Response::Search { run, text, hits }));
            }
            Request::Export { run, what } => {
                let Some(session) = self.session(run) else { return };
                let made = match what {
                    Export::Report => blob(session.report.as_bytes()),
                    Export::Bundle => session
                        .link_set()
                        .and_then(|set| birlink_core::tools::share::bundle::to_bundle(&set).map_err(|e| e.0))
                        .ok()
                        .and_then(|text| blob(text.as_bytes())),
                    Export::Linked => session.outcome.linked.as_ref().and_then(|module| {
                        let mut parts = BlobParts::default();
                        birlink_core::output::json::write_module(module, &mut parts).ok()?;
                        parts.finish()
                    }),
                };
                match made {
                    Some(blob) => scope.respond(id, Wire::new(Response::Export { run, what, blob })),
                    None => scope.respond(
                        id,
                        Wire::new(Response::Failed { run, message: format!("could not build {}", what.file_name()) }),
                    ),
                }
            }
        }
    }
}

impl Session {
    /// The inputs read again, as a link carries them.
    fn link_set(&self) -> Result<birlink_core::tools::share::LinkSetData, String> {
        let mut files = Vec::with_capacity(self.inputs.len());
        for input in &self.inputs {
            let bytes = read_blob(&input.blob).map_err(|why| format!("cannot read `{}` again: {why}", input.path))?;
            files.push(birlink_core::tools::share::SharedFile { name: input.path.clone(), bytes });
        }
        Ok(birlink_core::tools::share::LinkSetData { files, lnc: self.lnc })
    }

    /// The link set's `data=`, unless it is plainly too large for a link.
    fn share_data(&self) -> Result<String, String> {
        let bytes: u64 = self.inputs.iter().map(|f| f.blob.size() as u64).sum();
        if bytes > SHARE_MAX_INPUT {
            return Err(format!(
                "the link set is {}: too large for a link of at most {} characters",
                birlink_core::read::input::human_bytes(bytes),
                birlink_core::tools::share::LINK_BUDGET
            ));
        }
        Ok(birlink_core::tools::share::data::encode(&self.link_set()?))
    }
}

impl LinkWorker {
    fn session(&self, run: u64) -> Option<&Session> {
        self.sessions.iter().find(|s| s.run == run)
    }

    fn start_reduce(&mut self, scope: &WorkerScope<Self>, id: HandlerId, run: u64) {
        let Some(session) = self.session(run) else { return };
        let options = birlink_core::tools::reduce::ReduceOptions {
            lnc: session.lnc,
            max_input_bytes: Some(birlink_core::limits::WASM_MAX_REDUCE_BYTES),
            ..Default::default()
        };
        // Above the bound, nothing of the link set is read again.
        let bytes: u64 = session.inputs.iter().map(|f| f.blob.size() as u64).sum();
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
                self.reducing = Some(Job { run, id, reduction, started: now() });
                self.slice(scope);
            }
            Err(message) => scope.respond(id, Wire::new(Response::ReduceFailed { run, message })),
        }
    }

    /// Runs tests for a slice, then answers the progress and schedules the next slice,
    /// or the result.
    fn slice(&mut self, scope: &WorkerScope<Self>) {
        let Some(job) = self.reducing.as_mut() else { return };
        let until = now() + SLICE_MS;
        while job.reduction.step() && now() < until {}
        let (run, id) = (job.run, job.id);
        if !job.reduction.is_done() {
            let p = job.reduction.progress();
            let step = ReduceStep {
                round: p.round as u32,
                level: p.level.map_or("done", |level| level.name()).to_owned(),
                tests: p.tests as u32,
                instructions: p.instructions as u64,
                bytes: p.bytes as u64,
            };
            scope.respond(id, Wire::new(Response::Reducing { run, step }));
            // A timer, not a microtask: the page's messages are read before the next slice.
            let scope = scope.clone();
            gloo::timers::callback::Timeout::new(0, move || scope.send_message(NextSlice(run))).forget();
            return;
        }
        let reduced = job.reduction.result();
        let ms = now() - job.started;
        self.reducing = None;
        let summary = ReducedSummary {
            file_name: reduced.form.file_name().to_owned(),
            code: reduced.target.code.as_str().to_owned(),
            pass: reduced.target.pass.to_string(),
            tests: reduced.tests as u32,
            bytes: (reduced.bytes.0 as u64, reduced.bytes.1 as u64),
            instructions: (reduced.instructions.0 as u64, reduced.instructions.1 as u64),
            ms,
        };
        match blob(&reduced.contents) {
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

    fn link(&mut self, scope: &WorkerScope<Self>, id: HandlerId, order: Order) {
        let Order { run, files, lnc, workdir, keep } = order;
        // The previous run's memory goes first: a big link set must not be held twice.
        // The other link set of a comparison stays, and what it holds is taken from
        // this one's budget.
        self.sessions.retain(|s| Some(s.run) == keep);
        BLOBS.with(|blobs| blobs.borrow_mut().retain(|(r, _)| Some(*r) == keep));
        let kept: u64 = self.sessions.iter().map(|s| s.held).sum();
        // Steps: read and parse each file, four passes, the report.
        let n = files.len() as u32;
        let total = n + 5;
        let progress = |phase: String, done: u32| Response::Progress { run, phase, done, total };
        // What the set will hold once read is estimated from each file's size and a
        // sample of it (its layout, its instructions): a set over the limit is refused
        // (BL0010) before a byte of it is parsed.
        let bytes: u64 = files.iter().map(|f| f.blob.size() as u64).sum();
        let samples: Vec<(u64, Vec<u8>)> = files.iter().map(|f| (f.blob.size() as u64, sample(&f.blob))).collect();
        let held = birlink_core::read::compact::held_estimate(samples.iter().map(|(len, s)| (*len, s.as_slice())));
        drop(samples);
        let max = birlink_core::limits::WASM_MAX_HELD_BYTES.saturating_sub(kept);
        BLOBS.with(|blobs| blobs.borrow_mut().push((run, files.iter().map(|f| f.blob.clone()).collect())));
        READ_MS.with(|ms| ms.set(0.0));
        // Each file is read when the loader reaches it, one at a time.
        let sources: Vec<SourceFile> = files.iter().enumerate().map(|(i, file)| later(run, i, file)).collect();
        let memory_read_bytes = memory_bytes();
        // Over the limit nothing is read, the work directory's files neither.
        let workdir = if held > max { None } else { workdir.map(workdir_input) };
        let options = LinkOptions {
            lnc,
            passes: None,
            max_input_bytes: Some(max),
            input_bytes: Some(bytes),
            held_estimate: Some(held),
            threads: 1,
            workdir,
        };
        let started = now();
        let outcome = birlink_core::passes::run_with_progress(sources, &options, &mut |step| {
            let (phase, done) = match step {
                Progress::Reading { file, index, count } => {
                    (format!("reading {file} ({} of {count})", index + 1), index as u32)
                }
                Progress::Pass(pass) => (format!("running {pass}"), n + pass.index().unwrap_or(0) as u32),
                Progress::Reporting => ("writing the report".to_owned(), n + 4),
            };
            scope.respond(id, Wire::new(progress(phase, done)));
        });
        // Reading the blobs happened inside the pipeline, file by file.
        let load_ms = READ_MS.with(std::cell::Cell::get);
        let pipeline_ms = now() - started - load_ms;
        let started = now();
        let report = birlink_core::report_json(&outcome);
        let report_ms = now() - started;
        let linked = outcome.linked.is_some();
        // Serializing plain data into a Vec cannot fail; were it to, the page says the
        // alignment did not read back.
        let alignment = serde_json::to_vec(&birlink_core::tools::align::of(&outcome)).unwrap_or_default();
        scope.respond(
            id,
            Wire::new(Response::Linked {
                run,
                report: js_sys::Uint8Array::from(report.as_bytes()),
                linked,
                stats: RunStats {
                    load_ms,
                    pipeline_ms,
                    report_ms,
                    bytes,
                    memory_bytes: memory_bytes(),
                    memory_read_bytes,
                },
                alignment: js_sys::Uint8Array::from(alignment.as_slice()),
            }),
        );
        self.sessions.push(Session { run, outcome, report, inputs: files, lnc, held });
    }
}
