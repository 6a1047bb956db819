//! A work directory's dumps read pass by pass for the Passes view
//! (`birlink_core::tools::history`, docs/spec/history.md §6): the dumps stay the page's
//! blobs and are read one at a time, synchronously (`FileReaderSync`) and in slices the
//! loader compacts as they arrive, when their pass comes; each slice reads passes for [`SLICE_MS`] at most past its first, answers how
//! far it is and schedules the next with a timer, so a Cancel (or a newer order) gets in
//! between. The budget applies per dump (`limits::WASM_MAX_DUMP_BYTES`): a dump over it
//! is listed unread with what to do, and the others are still compared.

use gloo_worker::{HandlerId, WorkerScope};

use birlink_core::limits::WASM_MAX_DUMP_BYTES;
use birlink_core::tools::history::{diff, HistoryOptions, HistoryRun};
use birlink_core::{Content, Role, SourceFile};

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
        no_table: bool,
    ) -> Reading {
        let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        let blobs = files.into_iter().map(|f| f.blob).collect();
        let options = HistoryOptions { entity, no_table, ..HistoryOptions::default() };
        Reading { seq, id, blobs, run: HistoryRun::in_order(paths, ran, &options) }
    }
}

/// A dump's content, read in slices when the loader reaches it, with the loan that
/// keeps its blob meanwhile; unreadable when it is over the page's budget for one dump.
fn dump(blob: Option<&web_sys::Blob>) -> (Content, Option<blobs::Lent>) {
    let Some(blob) = blob else { return (Content::Unreadable("the file is no longer open".to_owned()), None) };
    let size = blob.size() as u64;
    if size > WASM_MAX_DUMP_BYTES {
        let why = format!(
            "BL0010: this dump is {}, over the page's {} for one dump: run `birlink history` on the directory",
            birlink_core::english::human_bytes(size),
            birlink_core::english::human_bytes(WASM_MAX_DUMP_BYTES)
        );
        return (Content::Unreadable(why), None);
    }
    let (content, lent) = blobs::lend(blob);
    (content, Some(lent))
}

/// Reads passes for a slice, then answers the progress and schedules the next slice, or
/// the history.
pub(super) fn slice(reading: &mut Option<Reading>, scope: &WorkerScope<LinkWorker>) {
    let Some(job) = reading.as_mut() else { return };
    let until = blobs::now() + SLICE_MS;
    let mut more = job.run.next_pass().is_some();
    while more {
        let blobs = &job.blobs;
        // The loans last the pass: its dumps are read inside the step.
        let mut loans = Vec::new();
        more = job.run.step(&mut |i| {
            let (content, lent) = dump(blobs.get(i));
            loans.extend(lent);
            content
        });
        drop(loans);
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
    scope.respond(id, Wire::new(Response::History { seq, json }));
}

/// One pass's dump of a module against the module's previous dump.
pub(super) fn diff(seq: u64, before: Option<InputFile>, after: InputFile) -> Response {
    let mut loans = Vec::new();
    let mut file = |input: &InputFile| {
        let (content, lent) = dump(Some(&input.blob));
        loans.extend(lent);
        SourceFile { path: input.path.clone(), content, role: Role::Auto }
    };
    let before = before.as_ref().map(&mut file);
    let after = file(&after);
    let json = diff::pass_diff(before, after)
        .and_then(|d| serde_json::to_vec(&d).map_err(|error| format!("could not write the diff: {error}")))
        .map(|json| Bytes::from(&json));
    drop(loans);
    Response::PassDiff { seq, json }
}
