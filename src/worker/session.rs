//! One run the worker keeps: its outcome, its `report.json`, the blobs it was read
//! from; and what the page may ask of it — an entity, a place in a file, a unit's text,
//! a search, an export, the link set as a link carries it. [`Session::link`] runs the
//! pipeline over a [`LinkRequest`] with progress reports, reading each blob when the
//! loader reaches it.

use birlink_core::passes::{LinkOptions, Progress};
use birlink_core::{Outcome, SourceFile};

use super::blobs::{self, BlobParts};
use crate::protocol::{Bytes, Export, InputFile, LinkRequest, Response, RunStats};

/// A run the worker holds.
pub(super) struct Session {
    /// Its number.
    pub run: u64,
    /// What the pipeline made of it.
    pub outcome: Outcome,
    /// `report.json`, as the CLI writes it.
    pub report: String,
    /// The inputs as the page sent them (blob handles), for sharing and bundles.
    pub inputs: Vec<InputFile>,
    /// The LNC it was linked with.
    pub lnc: Option<u64>,
    /// The flow the user chose, if any.
    pub flow: Option<birlink_core::Flow>,
    /// What reading the inputs was estimated to hold (the other side's budget is what
    /// is left).
    pub held: u64,
}

/// Above this many input bytes a link set is not even compressed for a link: JSON would
/// have to shrink more than 64 times to fit the link budget.
const SHARE_MAX_INPUT: u64 = 64 * birlink_core::tools::share::LINK_BUDGET as u64;

impl Session {
    /// Links a request's files, with `kept` bytes already held by the other side's
    /// session; `progress` is told each step. Returns the page's answer and the session.
    pub(super) fn link(request: LinkRequest, kept: u64, progress: &mut dyn FnMut(Response)) -> (Response, Session) {
        let LinkRequest { run, files, lnc, flow, workdir, keep: _ } = request;
        // Steps: read and parse each file, four passes, the report.
        let n = files.len() as u32;
        let total = n + 5;
        // What the set will hold once read is estimated from each file's size and a
        // sample of it (its layout, its instructions): a set over the limit is refused
        // (BL0010) before a byte of it is parsed.
        let bytes: u64 = files.iter().map(|f| f.blob.size() as u64).sum();
        let samples: Vec<(u64, Vec<u8>)> =
            files.iter().map(|f| (f.blob.size() as u64, blobs::sample(&f.blob))).collect();
        let held = birlink_core::read::compact::held_estimate(samples.iter().map(|(len, s)| (*len, s.as_slice())));
        drop(samples);
        let max = birlink_core::limits::WASM_MAX_HELD_BYTES.saturating_sub(kept);
        blobs::keep_blobs(run, files.iter().map(|f| f.blob.clone()).collect());
        blobs::reset_read_ms();
        // Each file is read when the loader reaches it, one at a time.
        let sources: Vec<SourceFile> = files.iter().enumerate().map(|(i, file)| blobs::later(run, i, file)).collect();
        let memory_read_bytes = blobs::memory_bytes();
        // Over the limit nothing is read, the work directory's files neither.
        let workdir = if held > max { None } else { workdir.map(blobs::workdir_input) };
        let options = LinkOptions {
            lnc,
            passes: None,
            max_input_bytes: Some(max),
            input_bytes: Some(bytes),
            held_estimate: Some(held),
            threads: 1,
            workdir,
            flow,
            sync: birlink_core::SyncCheck::Run,
        };
        let started = blobs::now();
        let outcome = birlink_core::passes::run_with_progress(sources, &options, &mut |step| {
            let (phase, done) = match step {
                Progress::Reading { file, index, count } => {
                    (format!("reading {file} ({} of {count})", index + 1), index as u32)
                }
                Progress::Pass(pass) => (format!("running {pass}"), n + pass.index().unwrap_or(0) as u32),
                Progress::Reporting => ("writing the report".to_owned(), n + 4),
            };
            progress(Response::Progress { run, phase, done, total });
        });
        // Reading the blobs happened inside the pipeline, file by file.
        let load_ms = blobs::read_ms();
        let pipeline_ms = blobs::now() - started - load_ms;
        let started = blobs::now();
        let report = birlink_core::report_json(&outcome);
        let report_ms = blobs::now() - started;
        // Serializing plain data into a Vec cannot fail; were it to, the page says the
        // alignment did not read back.
        let alignment = serde_json::to_vec(&birlink_core::tools::align::of(&outcome)).unwrap_or_default();
        let answer = Response::Linked {
            run,
            report: Bytes::from(report.as_bytes()),
            linked: outcome.linked.is_some(),
            stats: RunStats {
                load_ms,
                pipeline_ms,
                report_ms,
                bytes,
                memory_bytes: blobs::memory_bytes(),
                memory_read_bytes,
            },
            alignment: Bytes::from(&alignment),
        };
        (answer, Session { run, outcome, report, inputs: files, lnc, flow, held })
    }

    /// The inputs read again, as a link carries them.
    pub(super) fn link_set(&self) -> Result<birlink_core::tools::share::LinkSetData, String> {
        let mut files = Vec::with_capacity(self.inputs.len());
        for input in &self.inputs {
            let bytes =
                blobs::read_blob(&input.blob).map_err(|why| format!("cannot read `{}` again: {why}", input.path))?;
            files.push(birlink_core::tools::share::SharedFile { name: input.path.clone(), bytes });
        }
        Ok(birlink_core::tools::share::LinkSetData { files, lnc: self.lnc, flow: self.flow })
    }

    /// The link set's `data=`, unless it is plainly too large for a link.
    pub(super) fn share_data(&self) -> Result<String, String> {
        let bytes = self.input_bytes();
        if bytes > SHARE_MAX_INPUT {
            return Err(format!(
                "the link set is {}: too large for a link of at most {} characters",
                birlink_core::english::human_bytes(bytes),
                birlink_core::tools::share::LINK_BUDGET
            ));
        }
        Ok(birlink_core::tools::share::data::encode(&self.link_set()?))
    }

    /// The inputs' size in bytes.
    pub(super) fn input_bytes(&self) -> u64 {
        self.inputs.iter().map(|f| f.blob.size() as u64).sum()
    }

    /// A file to download, or `None` when it cannot be built.
    pub(super) fn export(&self, what: Export) -> Option<web_sys::Blob> {
        match what {
            Export::Report => blobs::blob(self.report.as_bytes()),
            Export::Bundle => self
                .link_set()
                .and_then(|set| birlink_core::tools::share::bundle::to_bundle(&set).map_err(|e| e.0))
                .ok()
                .and_then(|text| blobs::blob(text.as_bytes())),
            Export::Log => birlink_core::bir_linker_log(&self.outcome).and_then(|log| blobs::blob(log.as_bytes())),
            Export::Linked => self.outcome.linked.as_ref().and_then(|set| {
                let mut parts = BlobParts::default();
                birlink_core::output::json::write_set(set, &mut parts).ok()?;
                parts.finish()
            }),
        }
    }
}
