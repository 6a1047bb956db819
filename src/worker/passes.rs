//! A work directory's dumps read pass by pass for the Passes view
//! (`birlink_core::tools::history`, docs/spec/history.md §6): the dumps stay the page's
//! blobs and are read one at a time, synchronously (`FileReaderSync`), when their pass
//! comes; each slice reads passes for [`SLICE_MS`] at most past its first, answers how
//! far it is and schedules the next with a timer, so a Cancel (or a newer order) gets in
//! between. The budget applies per dump (`limits::WASM_MAX_DUMP_BYTES`): a dump over it
//! is listed unread with what to do, and the others are still compared.

use gloo_worker::{HandlerId, WorkerScope};

use birlink_core::limits::WASM_MAX_DUMP_BYTES;
use birlink_core::tools::history::{diff, HistoryOptions, HistoryRun};

use super::{blobs, LinkWorker, NextSlice};
use crate::protocol::{Bytes, InputFile, Response, Wire};

/// How long a slice reads passes before the worker reads its messages (a pass is read
/// whole: a slice ends after the pass that crossed it).
const SLICE_MS: f64 = 40.0;

/// A work directory being read.
pub(super) struct Reading {
    /// The page's order.
    pub seq: u64,
    /// Who asked.
    id: HandlerId,
    /// The dumps, as the run's paths index them.
    blobs: Vec<web_sys::Blob>,
    run: HistoryRun,
}

impl Reading {
    pub(super) fn new(
        seq: u64,
        id: HandlerId,
        files: Vec<InputFile>,
        ran: &[String],
        entity: Option<String>,
    ) -> Reading {
        let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        let blobs = files.into_iter().map(|f| f.blob).collect();
        let options = HistoryOptions { entity, ..HistoryOptions::default() };
        Reading { seq, id, blobs, run: HistoryRun::in_order(paths, ran, &options) }
    }
}

/// A dump's bytes, unless it is over the page's budget for one dump.
fn dump_bytes(blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
    let size = blob.size() as u64;
    if size > WASM_MAX_DUMP_BYTES {
        return Err(format!(
            "BL0010: this dump is {}, over the page's {} for one dump: run `birlink history` on the directory",
            birlink_core::english::human_bytes(size),
            birlink_core::english::human_bytes(WASM_MAX_DUMP_BYTES)
        ));
    }
    blobs::read_blob(blob)
}

/// Reads passes for a slice, then answers the progress and schedules the next slice, or
/// the history.
pub(super) fn slice(reading: &mut Option<Reading>, scope: &WorkerScope<LinkWorker>) {
    let Some(job) = reading.as_mut() else { return };
    let until = blobs::now() + SLICE_MS;
    let mut more = job.run.next_pass().is_some();
    while more {
        let blobs = &job.blobs;
        more = job
            .run
            .step(&mut |i| blobs.get(i).ok_or_else(|| "the file is no longer open".to_owned()).and_then(dump_bytes));
        if blobs::now() >= until {
            break;
        }
    }
    let (seq, id) = (job.seq, job.id);
    if more {
        let pass = job.run.next_pass().unwrap_or_default().to_owned();
        let progress =
            Response::HistoryProgress { seq, done: job.run.done() as u32, total: job.run.total() as u32, pass };
        scope.respond(id, Wire::new(progress));
        // A timer, not a microtask: the page's messages are read before the next slice.
        let scope = scope.clone();
        gloo::timers::callback::Timeout::new(0, move || scope.send_message(NextSlice::History(seq))).forget();
        return;
    }
    let Some(job) = reading.take() else { return };
    let history = job.run.finish();
    let json = serde_json::to_vec(&history)
        .map(|json| Bytes::from(&json))
        .map_err(|error| format!("could not write the history: {error}"));
    respond(scope, id, Response::History { seq, json });
}

fn respond(scope: &WorkerScope<LinkWorker>, id: HandlerId, response: Response) {
    scope.respond(id, Wire::new(response));
}

/// One pass's dump of a module against the module's previous dump.
pub(super) fn diff(seq: u64, before: Option<InputFile>, after: InputFile) -> Response {
    let read = |file: &InputFile| dump_bytes(&file.blob).map_err(|why| format!("{}: {why}", file.path));
    let json = before
        .as_ref()
        .map(|f| read(f).map(|bytes| (f.path.as_str(), bytes)))
        .transpose()
        .and_then(|before| Ok((before, read(&after)?)))
        .and_then(|(before, bytes)| diff::pass_diff(before, (after.path.as_str(), bytes)))
        .and_then(|d| serde_json::to_vec(&d).map_err(|error| format!("could not write the diff: {error}")))
        .map(|json| Bytes::from(&json));
    Response::PassDiff { seq, json }
}
