//! The worker's file IO: the page's blobs read synchronously (`FileReaderSync`, which
//! workers may use), in 8 MB slices that the loader compacts as they arrive, so an
//! indented file is never in wasm memory whole; each run's blobs kept by run number for
//! its sources to read when the loader reaches them (and again for a location); and
//! what the worker hands back (exports, decoded files) written into blobs in chunks.

use wasm_bindgen::JsCast;

use birlink_core::SourceFile;

use crate::protocol::{InputFile, WorkdirFiles};

pub(super) fn now() -> f64 {
    js_sys::global()
        .dyn_into::<web_sys::WorkerGlobalScope>()
        .ok()
        .and_then(|scope| scope.performance())
        .map(|performance| performance.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Reads a blob's bytes synchronously (allowed in workers).
pub(super) fn read_blob(blob: &web_sys::Blob) -> Result<Vec<u8>, String> {
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
pub(super) fn later(run: u64, index: usize, file: &InputFile) -> SourceFile {
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

thread_local! {
    /// Blobs lent to a reader while one read uses them (a dump the Passes view
    /// compares), by number: a reader holds the number, as the core's `Reader` must
    /// cross threads and a blob cannot.
    static LENT: std::cell::RefCell<Vec<(u64, web_sys::Blob)>> = const { std::cell::RefCell::new(Vec::new()) };
    static NEXT_LENT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A blob lent to a reader; given back when dropped.
pub(super) struct Lent(u64);

impl Drop for Lent {
    fn drop(&mut self) {
        let key = self.0;
        LENT.with(|lent| lent.borrow_mut().retain(|(k, _)| *k != key));
    }
}

/// A blob's content read when the loader reaches it, in slices (held once, compacted
/// as it arrives), and the loan that keeps the blob while it is read.
pub(super) fn lend(blob: &web_sys::Blob) -> (birlink_core::Content, Lent) {
    let key = NEXT_LENT.with(|next| {
        next.set(next.get() + 1);
        next.get()
    });
    LENT.with(|lent| lent.borrow_mut().push((key, blob.clone())));
    let reader = birlink_core::Reader::chunked(move |each| {
        let blob = LENT.with(|lent| lent.borrow().iter().find(|(k, _)| *k == key).map(|(_, b)| b.clone()));
        let blob = blob.ok_or_else(|| "the file is no longer open".to_owned())?;
        read_slices(&blob, each)
    });
    (birlink_core::Content::Later { len: blob.size() as u64, reader }, Lent(key))
}

/// A blob's sample for `read::compact::held_estimate` (from its middle); none when it
/// cannot be read (the read itself will say why).
pub(super) fn sample(blob: &web_sys::Blob) -> Vec<u8> {
    let start = birlink_core::read::compact::sample_start(blob.size() as u64) as f64;
    let end = blob.size().min(start + birlink_core::limits::SAMPLE_BYTES as f64);
    blob.slice_with_f64_and_f64(start, end).ok().and_then(|slice| read_blob(&slice).ok()).unwrap_or_default()
}

/// The largest file of a work directory whose bytes the link's last step reads here
/// (a tensor map, a name two cores offer); a larger one is compared by its size.
const WORKDIR_READ_MAX: u64 = 64 << 20;

/// A work directory's files as the core's link reads them: names and sizes, the bytes
/// of the wanted ones.
pub(super) fn workdir_input(files: WorkdirFiles) -> birlink_core::read::workdir::WorkdirInput {
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
pub(super) fn memory_bytes() -> u64 {
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|memory| memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as u64)
        .unwrap_or(0)
}

pub(super) fn blob(bytes: &[u8]) -> Option<web_sys::Blob> {
    let mut parts = BlobParts::default();
    std::io::Write::write_all(&mut parts, bytes).ok()?;
    parts.finish()
}

/// An `io::Write` that hands its bytes to JavaScript in chunks, so exporting a large
/// linked module never holds its whole text in wasm memory (which never shrinks).
#[derive(Default)]
pub(super) struct BlobParts {
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

    pub(super) fn finish(mut self) -> Option<web_sys::Blob> {
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

/// Keeps a run's blobs for its sources.
pub(super) fn keep_blobs(run: u64, blobs: Vec<web_sys::Blob>) {
    BLOBS.with(|kept| kept.borrow_mut().push((run, blobs)));
}

/// Drops every run's blobs but `keep`'s.
pub(super) fn drop_blobs_but(keep: Option<u64>) {
    BLOBS.with(|kept| kept.borrow_mut().retain(|(r, _)| Some(*r) == keep));
}

/// Starts counting the time spent reading blobs (a new run).
pub(super) fn reset_read_ms() {
    READ_MS.with(|ms| ms.set(0.0));
}

/// The time spent reading blobs since [`reset_read_ms`].
pub(super) fn read_ms() -> f64 {
    READ_MS.with(std::cell::Cell::get)
}
