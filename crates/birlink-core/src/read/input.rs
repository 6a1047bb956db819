//! From input files to a link set: classify each file, read modules, name them (spec §1).
//!
//! An input is a per-core module file (an object with `functions`), a bundle (`modules`
//! and no `functions`), or a netlist (`hlo_netlist.json`, or a document with only netlist
//! keys). The caller does the IO: files arrive as bytes, or as the reason they could not
//! be read, so a missing file is a diagnostic like any other. Every file is read and
//! checked even when another one fails.

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::flow::Flow;
use crate::model::ir::{FileId, FileText, Module, Src};
use crate::model::pass::Pass;
use crate::output::report::FileKind;
use crate::read::compact::{self, Sink};
use crate::read::json;
use crate::read::json::Document;
use crate::read::netlist::{self, Netlist, NETLIST_KEYS};

/// One input file, as the caller read it (or will read it).
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path or upload name, shown in diagnostics.
    pub path: String,
    /// The bytes, why they could not be read, or how to read them.
    pub content: Content,
    /// How to read it.
    pub role: Role,
}

impl SourceFile {
    /// A file whose text is known.
    pub fn text(path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile::bytes(path, text.into().into_bytes())
    }

    /// A file whose bytes are known.
    pub fn bytes(path: impl Into<String>, bytes: Vec<u8>) -> Self {
        SourceFile { path: path.into(), content: Content::Bytes(bytes), role: Role::Auto }
    }
}

/// A source's bytes.
#[derive(Clone, Debug)]
pub enum Content {
    /// Read by the caller.
    Bytes(Vec<u8>),
    /// Why the caller could not read them.
    Unreadable(String),
    /// Read when the loader reaches the file, through the caller's [`Reader`], and read
    /// again when a location or an original text is asked for after the loader has
    /// dropped the text. The loader holds at most one such file per thread at a time,
    /// and keeps a file's text only while instructions are spans of it: an indented
    /// dump is held as its instructions' compact copies alone, and one whose keys are not
    /// sorted is read in place (each instruction's canonical text written over the bytes
    /// it was read from, which its instructions then share), so it too is held once.
    Later {
        /// The size, known without reading (for BL0010 and the inputs table).
        len: u64,
        /// How to read the bytes.
        reader: Reader,
    },
}

impl Content {
    /// The bytes, when they are held.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Content::Bytes(bytes) => Some(bytes),
            _ => None,
        }
    }

    /// The size, when it is known without reading.
    pub fn len(&self) -> u64 {
        match self {
            Content::Bytes(bytes) => bytes.len() as u64,
            Content::Unreadable(_) => 0,
            Content::Later { len, .. } => *len,
        }
    }

    /// Whether there is nothing (or nothing known) to read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes, read now if they are read later.
    pub fn read(self) -> Result<Vec<u8>, String> {
        match self {
            Content::Bytes(bytes) => Ok(bytes),
            Content::Unreadable(reason) => Err(reason),
            Content::Later { reader, .. } => reader.read(),
        }
    }
}

impl From<Result<Vec<u8>, String>> for Content {
    fn from(result: Result<Vec<u8>, String>) -> Content {
        match result {
            Ok(bytes) => Content::Bytes(bytes),
            Err(reason) => Content::Unreadable(reason),
        }
    }
}

/// How a file's bytes are read (again): the caller's IO, behind a function, so the core
/// does none itself. The CLI's reads the path; the browser's worker reads the blob. A
/// reader hands the bytes over in chunks, so the loader can compact an indented file
/// as it arrives instead of holding it whole (`read::compact`).
#[derive(Clone)]
pub struct Reader(Fill);

/// A function that gives a file's bytes to a [`Sink`], in order.
type Fill = std::sync::Arc<dyn Fn(&mut dyn Sink) -> Result<(), String> + Send + Sync>;

/// A sink of chunks alone.
struct Chunks<'a>(&'a mut dyn FnMut(&[u8]));

impl Sink for Chunks<'_> {
    fn chunk(&mut self, bytes: &[u8]) {
        (self.0)(bytes);
    }
}

impl Reader {
    /// A reader from a function that reads the whole file.
    pub fn new(read: impl Fn() -> Result<Vec<u8>, String> + Send + Sync + 'static) -> Reader {
        Reader::chunked(move |each| {
            each(&read()?);
            Ok(())
        })
    }

    /// A reader from a function that calls its argument with every chunk of the file.
    pub fn chunked(read: impl Fn(&mut dyn FnMut(&[u8])) -> Result<(), String> + Send + Sync + 'static) -> Reader {
        Reader::filling(move |sink| read(&mut |chunk| sink.chunk(chunk)))
    }

    /// A reader from a function that gives the file to a [`Sink`] (asking it for
    /// [`Sink::rest`] between chunks).
    pub fn filling(fill: impl Fn(&mut dyn Sink) -> Result<(), String> + Send + Sync + 'static) -> Reader {
        Reader(std::sync::Arc::new(fill))
    }

    /// Reads the bytes.
    pub fn read(&self) -> Result<Vec<u8>, String> {
        let mut bytes = Vec::new();
        self.each_chunk(&mut |chunk| bytes.extend_from_slice(chunk))?;
        Ok(bytes)
    }

    /// Calls `each` with every chunk of the bytes, in order.
    pub fn each_chunk(&self, each: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        (self.0)(&mut Chunks(each))
    }

    /// Gives the bytes to `sink`.
    pub fn fill(&self, sink: &mut dyn Sink) -> Result<(), String> {
        (self.0)(sink)
    }
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reader")
    }
}

/// How an input file is to be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// By its name and content.
    Auto,
    /// As the netlist (`--netlist`).
    Netlist,
}

/// A file of the link set, kept for locations and the UI's original text.
#[derive(Clone, Debug)]
pub struct FileEntry {
    /// As given.
    pub path: String,
    /// The text, when it was readable UTF-8 and is held (shared with the instructions
    /// kept as spans of it); see [`FileEntry::read_text`].
    pub text: Option<FileText>,
    /// Its size in bytes.
    pub len: u64,
    /// How to read it again, when its text was dropped after reading.
    pub reader: Option<Reader>,
    /// What it was.
    pub kind: FileKind,
}

impl FileEntry {
    /// A file entry with its text held.
    pub fn held(path: String, text: Option<FileText>, kind: FileKind) -> FileEntry {
        let len = text.as_ref().map_or(0, |t| t.len() as u64);
        FileEntry { path, text, len, reader: None, kind }
    }

    /// The text: held, or read again through the caller's reader (`None` when it was
    /// never readable, or reads back other bytes than it had: a file changed since).
    pub fn read_text(&self) -> Option<FileText> {
        if let Some(text) = &self.text {
            return Some(std::sync::Arc::clone(text));
        }
        let bytes = self.reader.as_ref()?.read().ok()?;
        if bytes.len() as u64 != self.len {
            return None;
        }
        String::from_utf8(bytes).ok().map(FileText::new)
    }
}

/// One per-core module of the link set, with its identity.
#[derive(Clone, Debug)]
pub struct CoreModule {
    /// The module.
    pub module: Module,
    /// Its name (`name` key, path, or `nc<CC>`).
    pub name: String,
    /// `attributes.neuron_core_id`, when present.
    pub core: Option<u64>,
    /// Where it sits in the grid of cores × subgraphs (docs/spec/link.md §1.1).
    pub place: Place,
    /// Its file.
    pub file: FileId,
    /// The names its instructions refer to, recorded while reading (for `verify`).
    pub uses: crate::model::uses::Uses,
}

/// Where a module sits in the grid: its core and subgraph, and whether it is already a
/// core's linked module (`ncCC/sgLnk`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Place {
    /// Its core: `attributes.neuron_core_id`, else its path (`ncCC/…`, `ncCC.json`), else
    /// a module name `ncCC/sgKK` (or `ncCC/sgLnk`).
    pub core: Option<u64>,
    /// Its subgraph: its path's `sgKK` folder, else a module name `ncCC/sgKK`.
    pub subgraph: Option<u32>,
    /// A core's linked module: named `ncCC/sgLnk`, or found in an `sgLnk` folder.
    pub linked: bool,
}

impl Place {
    /// A module's place, from its keys and (for a file of its own) its path.
    pub fn of(module: &Module, path: Option<&str>) -> Place {
        let from_path = path.map(place_from_path).unwrap_or_default();
        let name = module.name();
        let from_name = place_from_path(name);
        Place {
            core: module.core_id().or(from_path.core).or(from_name.core),
            subgraph: from_path.subgraph.or(from_name.subgraph),
            linked: from_path.linked || from_name.linked,
        }
    }

    /// The subgraph, 0 when nothing says.
    pub fn subgraph_or_first(self) -> u32 {
        self.subgraph.unwrap_or(0)
    }
}

/// What a path (or a module name) says of a place: the last `ncCC` component (a folder,
/// or `ncCC.json`), the `sgKK` or `sgLnk` folder after it.
fn place_from_path(path: &str) -> Place {
    let normalized = path.replace('\\', "/");
    let parts: Vec<&str> = normalized.split('/').filter(|p| !p.is_empty()).collect();
    let number = |text: &str, prefix: &str| -> Option<u64> {
        let digits = text.strip_prefix(prefix)?;
        (!digits.is_empty() && digits.len() <= 6 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    };
    let mut place = Place::default();
    for (i, part) in parts.iter().enumerate() {
        let stem = part.strip_suffix(".json").unwrap_or(part);
        let Some(core) = number(stem, "nc") else { continue };
        place = Place { core: Some(core), subgraph: None, linked: false };
        if let Some(next) = parts.get(i + 1) {
            let next = next.strip_suffix(".json").unwrap_or(next);
            place.subgraph = number(next, "sg").and_then(|s| u32::try_from(s).ok());
            place.linked = next == "sgLnk";
        }
    }
    place
}

/// Options a bundle carries (`options` key).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BundleOptions {
    /// `options.lnc`.
    pub lnc: Option<u64>,
    /// `options.passes`: which passes to run.
    pub passes: Option<Vec<String>>,
    /// Where `options.passes` is, for a diagnostic about it.
    pub passes_at: Option<Src>,
    /// `options.flow`: how to link (`modular`, `flat`, `seeds`).
    pub flow: Option<Flow>,
}

/// Everything read from the inputs.
#[derive(Clone, Debug, Default)]
pub struct LinkSet {
    /// Every input file; `FileId` indexes this.
    pub files: Vec<FileEntry>,
    /// The modules, in input order.
    pub modules: Vec<CoreModule>,
    /// The netlist in force, if any.
    pub netlist: Option<Netlist>,
    /// Options from a bundle.
    pub options: BundleOptions,
}

impl LinkSet {
    /// The path of a file.
    pub fn path(&self, file: FileId) -> &str {
        self.files.get(file.0 as usize).map(|f| f.path.as_str()).unwrap_or("")
    }
}

/// Reads every source, telling `on_file` which one it starts. `max_input_bytes` bounds the
/// total size (the browser build sets it); `input_bytes` is that total when the caller
/// knows it without reading. With `threads` above 1 (never in the browser), files are
/// decoded and parsed on that many threads; the link set and its diagnostics are the same
/// as a single thread's, in the same order.
pub fn load(
    sources: Vec<SourceFile>,
    max_input_bytes: Option<u64>,
    input_bytes: Option<u64>,
    held_estimate: Option<u64>,
    threads: usize,
    diags: &mut Vec<Diagnostic>,
    on_file: &mut dyn FnMut(usize, &str),
) -> LinkSet {
    let mut set = LinkSet::default();
    let total = input_bytes.unwrap_or_else(|| sources.iter().map(|s| s.content.len()).sum());
    let held = held_estimate.unwrap_or(total);
    let too_large = max_input_bytes.is_some_and(|max| held > max);
    if too_large {
        let max = max_input_bytes.unwrap_or(0);
        let message = match held_estimate {
            Some(held) => format!(
                "the link set is {}, which would take about {} once read, and this build holds at most {}",
                human_bytes(total),
                human_bytes(held),
                human_bytes(max)
            ),
            None => format!("the link set is {} and this build reads at most {}", human_bytes(total), human_bytes(max)),
        };
        diags.push(
            Diagnostic::new(Code::InputTooLarge, Pass::Read, message)
                .note(format!("{} file(s) given; nothing was read", sources.len())),
        );
    }
    let mut netlists: Vec<(Netlist, bool)> = Vec::new();
    let decoded = decode_all(sources, too_large, threads, on_file);
    for Decoded { file, mut entry, document, diags: own, role, is_netlist_name } in decoded {
        diags.extend(own);
        let path = entry.path.clone();
        let Some(document) = document else {
            set.files.push(entry);
            continue;
        };
        match document {
            Document::Module(module, uses) => {
                entry.kind = FileKind::Module;
                let name = module_name(&module, Some(&path));
                let core = module.core_id();
                let place = Place::of(&module, Some(&path));
                set.modules.push(CoreModule { module: *module, name, core, place, file, uses });
            }
            Document::Bundle { modules, fields } => {
                entry.kind = FileKind::Bundle;
                read_bundle(&mut set, &fields, file, &mut netlists, diags);
                for (module, uses) in modules {
                    let name = module_name(&module, None);
                    let core = module.core_id();
                    let place = Place::of(&module, None);
                    set.modules.push(CoreModule { module, name, core, place, file, uses });
                }
            }
            Document::Other(value) => match classify(&value, role, is_netlist_name) {
                Classified::Netlist => {
                    entry.kind = FileKind::Netlist;
                    netlists.push((netlist::parse(&value, file, "", diags), role == Role::Netlist));
                }
                Classified::Other(what) => {
                    diags.push(
                        Diagnostic::new(
                            Code::NotAModule,
                            Pass::Read,
                            format!("`{path}` is not a BIR module, bundle or netlist: {what}"),
                        )
                        .entity(EntityKind::File, &path, None)
                        .at_pointer(file, ""),
                    );
                }
            },
        }
        set.files.push(entry);
    }
    // Precedence: `--netlist`, then files and bundles in input order.
    netlists.sort_by_key(|(_, explicit)| !explicit);
    let mut netlists = netlists.into_iter().map(|(n, _)| n);
    set.netlist = netlists.next();
    for extra in netlists {
        let used = set.netlist.as_ref().and_then(|n| n.src.as_ref()).map(|s| set.path(s.file()).to_owned());
        diags.push(
            Diagnostic::new(Code::ExtraNetlist, Pass::Read, "more than one netlist given; this one is ignored")
                .at(extra.src.as_ref())
                .note(format!("the netlist in `{}` is used", used.unwrap_or_default())),
        );
    }
    // An empty link set is only news when no file failed: a failed file explains it.
    if set.modules.is_empty() && !crate::diag::has_errors(diags) {
        diags.push(Diagnostic::new(Code::EmptyLinkSet, Pass::Read, "no per-core module was given: nothing to link"));
    }
    set
}

/// One source decoded and parsed, with the diagnostics of doing so.
struct Decoded {
    file: FileId,
    entry: FileEntry,
    /// The document, unless the file could not be read, decoded or parsed.
    document: Option<Document>,
    diags: Vec<Diagnostic>,
    role: Role,
    is_netlist_name: bool,
}

/// Decodes every source, in order; on `threads` threads where there are several files
/// and threads may be spawned (not in wasm).
fn decode_all(
    sources: Vec<SourceFile>,
    too_large: bool,
    threads: usize,
    on_file: &mut dyn FnMut(usize, &str),
) -> Vec<Decoded> {
    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 && sources.len() > 1 && !too_large {
        let decoded = decode_parallel(sources, threads);
        for (i, d) in decoded.iter().enumerate() {
            on_file(i, &d.entry.path);
        }
        return decoded;
    }
    let _ = threads;
    let spare = Spare::new(1);
    sources
        .into_iter()
        .enumerate()
        .map(|(i, source)| {
            on_file(i, &source.path);
            decode(FileId(i as u32), source, too_large, &spare)
        })
        .collect()
}

/// The bytes of files read and let go (no instruction is a span of them: a producer's
/// key order, an indented dump), kept for the next files' bytes. Their pages are the
/// process's already; a fresh buffer's first touch of each page costs the kernel a
/// fault and a cleared page, about a tenth of reading a producer's compact dump. It
/// holds at most one buffer per reading thread, only between two files, and only of
/// files of at least [`Spare::MIN`] bytes.
struct Spare {
    held: std::sync::Mutex<Vec<Vec<u8>>>,
    /// The reading threads.
    most: usize,
}

impl Spare {
    /// Smaller files are read into buffers of their own (a large spare would be shrunk
    /// to them, and lost).
    const MIN: u64 = 1 << 20;

    fn new(threads: usize) -> Spare {
        Spare { held: std::sync::Mutex::default(), most: threads.max(1) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A buffer for a file of `len` bytes, when one is spare.
    fn take(&self, len: u64) -> Option<Vec<u8>> {
        if len < Self::MIN {
            return None;
        }
        self.held().pop()
    }

    /// Keeps `text`'s bytes when nothing else holds them (else they are let go).
    fn give(&self, text: FileText) {
        if (text.len() as u64) < Self::MIN {
            return;
        }
        if let Ok(text) = std::sync::Arc::try_unwrap(text) {
            let mut held = self.held();
            if held.len() < self.most {
                held.push(text.into_bytes());
            }
        }
    }
}

/// Files are independent until they are assembled: each thread takes the next file not
/// yet taken, and the results are put back in input order.
#[cfg(not(target_arch = "wasm32"))]
fn decode_parallel(sources: Vec<SourceFile>, threads: usize) -> Vec<Decoded> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let count = sources.len();
    let slots: Vec<Mutex<Option<SourceFile>>> = sources.into_iter().map(|s| Mutex::new(Some(s))).collect();
    let results: Vec<Mutex<Option<Decoded>>> = (0..count).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let spare = Spare::new(threads);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(count) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let source = slots[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
                if let Some(source) = source {
                    let decoded = decode(FileId(i as u32), source, false, &spare);
                    *results[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(decoded);
                }
            });
        }
    });
    results
        .into_iter()
        .enumerate()
        .map(|(i, slot)| {
            slot.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner).unwrap_or_else(|| Decoded {
                file: FileId(i as u32),
                entry: FileEntry::held(String::new(), None, FileKind::Invalid),
                document: None,
                diags: Vec::new(),
                role: Role::Auto,
                is_netlist_name: false,
            })
        })
        .collect()
}

/// Checks a source's bytes are UTF-8 and parses them (streaming for modules and
/// bundles): everything about one file that needs no other file.
fn decode(file: FileId, source: SourceFile, too_large: bool, spare: &Spare) -> Decoded {
    let path = source.path.clone();
    let role = source.role;
    let is_netlist_name = file_name(&path) == "hlo_netlist.json";
    let mut diags = Vec::new();
    let mut entry = FileEntry::held(source.path, None, FileKind::Invalid);
    let reader = match &source.content {
        Content::Later { reader, .. } => Some(reader.clone()),
        _ => None,
    };
    let failed = |entry: FileEntry, diags: Vec<Diagnostic>| Decoded {
        file,
        entry,
        document: None,
        diags,
        role,
        is_netlist_name,
    };
    if too_large {
        return failed(entry, diags);
    }
    // A file read later is read in chunks and compacted as it arrives: an indented dump
    // is never held whole, and is read as the compact dump it is. Its text is then not
    // the file's: lines and columns are found in the file, read again.
    let netlist = role == Role::Netlist || is_netlist_name;
    // A file read later is read in place when its keys are not sorted (its text given
    // up, `json::read_direct_owning`): when the direct reader then leaves it, the file is
    // read again, and read as any other.
    let mut owning = reader.is_some() && !netlist;
    let read = match source.content {
        Content::Later { reader, len } if !netlist => match read_compacted(&reader, len, spare.take(len)) {
            Ok(Compacted::Whole(bytes)) => Ok(bytes),
            Ok(Compacted::Text(text, len)) => {
                if let json::Owned::Read(document, mut read_diags, text) = json::read_direct_owning(text, file) {
                    diags.append(&mut read_diags);
                    // Held while instructions are spans of it; else spare.
                    if let Some(text) = text {
                        spare.give(text);
                    }
                    entry.len = len;
                    entry.reader = Some(reader);
                    return Decoded { file, entry, document: Some(document), diags, role, is_netlist_name };
                }
                // Not JSON, or odd: the file itself is read, whole, so that what is said
                // about it points into it.
                owning = false;
                reader.read()
            }
            Err(reason) => Err(reason),
        },
        other => other.read(),
    };
    let mut read = read;
    loop {
        let bytes = match read {
            Ok(bytes) => bytes,
            Err(reason) => {
                diags.push(
                    Diagnostic::new(Code::UnreadableFile, Pass::Read, format!("cannot read `{path}`: {reason}"))
                        .entity(EntityKind::File, &path, None)
                        .at_pointer(file, ""),
                );
                return failed(entry, diags);
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => FileText::new(text),
            Err(error) => {
                let offset = error.utf8_error().valid_up_to();
                let valid = std::str::from_utf8(&error.as_bytes()[..offset]).unwrap_or("");
                let (line, column) = json::locate::line_column(valid, offset);
                let mut diagnostic = Diagnostic::new(
                    Code::UnreadableFile,
                    Pass::Read,
                    format!("`{path}` is not UTF-8 text (invalid byte at offset {offset})"),
                )
                .entity(EntityKind::File, &path, None);
                diagnostic.location = Some(crate::diag::Location {
                    file: path.clone(),
                    pointer: String::new(),
                    line: Some(line),
                    column: Some(column),
                });
                diags.push(diagnostic);
                return failed(entry, diags);
            }
        };
        entry.len = text.len() as u64;
        let (document, text) = if netlist {
            (json::parse(&text).map(Document::Other), Some(text))
        } else if owning {
            match json::read_direct_owning(text, file) {
                json::Owned::Read(document, mut read_diags, text) => {
                    diags.append(&mut read_diags);
                    (Ok(document), text)
                }
                json::Owned::Left(text) => (json::read_serde(&text, file, &mut diags), Some(text)),
                json::Owned::Lost => {
                    // Written over, then found odd: read again, as any other file.
                    owning = false;
                    read = reader.as_ref().map_or_else(|| Err("read again".to_owned()), Reader::read);
                    continue;
                }
            }
        } else {
            (json::read_document(&text, file, &mut diags), Some(text))
        };
        // A text no instruction is a span of is dropped when it can be read again: the
        // instructions hold their own compact copies (or share the text they were written
        // over, which is not the file's), and a location is found in the text read back
        // (`FileEntry::read_text`).
        match (reader, text) {
            (Some(reader), Some(text)) if FileText::strong_count(&text) == 1 => {
                spare.give(text);
                entry.reader = Some(reader);
            }
            (Some(reader), None) => entry.reader = Some(reader),
            (_, text) => entry.text = text,
        }
        return match document {
            Ok(document) => Decoded { file, entry, document: Some(document), diags, role, is_netlist_name },
            Err(error) => {
                let mut diagnostic = Diagnostic::new(error.code, Pass::Read, format!("`{path}`: {}", error.message))
                    .entity(EntityKind::File, &path, None)
                    .at_pointer(file, "");
                diagnostic.location = Some(crate::diag::Location {
                    file: path.clone(),
                    pointer: String::new(),
                    line: Some(error.line),
                    column: Some(error.column),
                });
                diags.push(diagnostic);
                failed(entry, diags)
            }
        };
    }
}

/// A file read in chunks through a [`compact::Compactor`].
enum Compacted {
    /// Nothing was dropped (a compact file): its bytes, as read.
    Whole(Vec<u8>),
    /// Its compacted text, and the file's size.
    Text(FileText, u64),
}

fn read_compacted(reader: &Reader, len: u64, spare: Option<Vec<u8>>) -> Result<Compacted, String> {
    let mut compactor = match spare {
        Some(buffer) => compact::Compactor::reusing(len, buffer),
        None => compact::Compactor::new(len),
    };
    reader.fill(&mut compactor)?;
    let seen = compactor.seen();
    let (bytes, compacted) = compactor.finish();
    if !compacted {
        return Ok(Compacted::Whole(bytes));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Compacted::Text(FileText::new(text), seen)),
        // Not UTF-8: the file as it is says where.
        Err(_) => reader.read().map(Compacted::Whole),
    }
}

/// What a document that is neither a module nor a bundle is.
enum Classified {
    Netlist,
    Other(String),
}

fn classify(value: &Value, role: Role, is_netlist_name: bool) -> Classified {
    if role == Role::Netlist || is_netlist_name {
        return Classified::Netlist;
    }
    let Some(map) = value.as_object() else {
        return Classified::Other(format!("the document is {}", crate::diag::describe::type_name(value)));
    };
    if map.contains_key("functions") || map.contains_key("modules") {
        Classified::Other("`functions` or `modules` is not an array".to_owned())
    } else if !map.is_empty() && map.keys().all(|k| NETLIST_KEYS.contains(&k.as_str())) {
        Classified::Netlist
    } else if map.is_empty() {
        Classified::Other("the document is an empty object".to_owned())
    } else {
        let keys: Vec<&str> = map.keys().take(5).map(String::as_str).collect();
        Classified::Other(format!("it has no `functions` or `modules` (keys: {})", keys.join(", ")))
    }
}

/// A bundle's keys other than its (already read) modules: `options`, `netlist`.
fn read_bundle(
    set: &mut LinkSet,
    fields: &serde_json::Map<String, Value>,
    file: FileId,
    netlists: &mut Vec<(Netlist, bool)>,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(options) = fields.get("options") {
        match options.as_object() {
            Some(options) => {
                if let Some(lnc) = options.get("lnc") {
                    match lnc.as_u64() {
                        Some(n) if (1..=crate::limits::MAX_LNC).contains(&n) => set.options.lnc = Some(n),
                        _ => diags.push(
                            Diagnostic::new(
                                if lnc.is_number() { Code::NumberOutOfRange } else { Code::WrongType },
                                Pass::Read,
                                format!(
                                    "bundle `options.lnc` must be an integer from 1 to {}, found {}",
                                    crate::limits::MAX_LNC,
                                    crate::diag::describe::compact(lnc)
                                ),
                            )
                            .at_pointer(file, "/options/lnc"),
                        ),
                    }
                }
                if let Some(flow) = options.get("flow") {
                    match flow.as_str().and_then(Flow::parse) {
                        Some(flow) => set.options.flow = Some(flow),
                        None => diags.push(
                            Diagnostic::new(
                                Code::WrongType,
                                Pass::Read,
                                format!(
                                    "bundle `options.flow` must be `modular`, `flat` or `seeds`, found {}",
                                    crate::diag::describe::compact(flow)
                                ),
                            )
                            .at_pointer(file, "/options/flow"),
                        ),
                    }
                }
                if let Some(passes) = options.get("passes") {
                    let names: Option<Vec<String>> = passes
                        .as_array()
                        .and_then(|items| items.iter().map(|p| p.as_str().map(str::to_owned)).collect());
                    match names {
                        Some(names) => {
                            set.options.passes = Some(names);
                            set.options.passes_at = Some(Src::new(file, "/options/passes"));
                        }
                        None => diags.push(
                            Diagnostic::new(
                                Code::WrongType,
                                Pass::Read,
                                format!(
                                    "bundle `options.passes` must be a list of pass names, found {}",
                                    crate::diag::describe::compact(passes)
                                ),
                            )
                            .at_pointer(file, "/options/passes"),
                        ),
                    }
                }
            }
            None => diags.push(
                Diagnostic::new(Code::WrongType, Pass::Read, "bundle `options` must be an object")
                    .at_pointer(file, "/options"),
            ),
        }
    }
    if let Some(value) = fields.get("netlist") {
        netlists.push((netlist::parse(value, file, "/netlist", diags), false));
    }
    if let Some(other) = fields.get("modules") {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                Pass::Read,
                format!("bundle `modules` must be an array, found {}", crate::diag::describe::type_name(other)),
            )
            .at_pointer(file, "/modules"),
        );
    }
}

/// A module's name: its `name` key, else from the path (`nc01.json`,
/// `nc01/sg00/<file>.json`), else `nc<CC>` from its core id (`nc00` without one).
pub fn module_name(module: &Module, path: Option<&str>) -> String {
    if let Some(name) = module.fields.get("name").and_then(Value::as_str) {
        return name.to_owned();
    }
    if let Some(name) = path.and_then(name_from_path) {
        return name;
    }
    format!("nc{:02}", module.core_id().unwrap_or(0))
}

/// `nc<digits>` from `…/nc<digits>.json` or `…/nc<digits>/sg<digits>/<file>.json`.
pub fn name_from_path(path: &str) -> Option<String> {
    let normalized = path.replace('\\', "/");
    let parts: Vec<&str> = normalized.split('/').filter(|p| !p.is_empty()).collect();
    let file = *parts.last()?;
    let stem = file.strip_suffix(".json")?;
    if is_prefixed_number(stem, "nc") {
        return Some(stem.to_owned());
    }
    if parts.len() >= 3 {
        let (nc, sg) = (parts[parts.len() - 3], parts[parts.len() - 2]);
        // A core's first subgraph is the core (the seeds' per-core module); its other
        // subgraphs and its linked module are named as the compiler scopes them.
        if is_prefixed_number(nc, "nc") && sg.strip_prefix("sg").is_some_and(|n| n.bytes().all(|b| b == b'0')) {
            return Some(nc.to_owned());
        }
        if is_prefixed_number(nc, "nc") && (is_prefixed_number(sg, "sg") || sg == "sgLnk") {
            return Some(format!("{nc}/{sg}"));
        }
    }
    None
}

fn is_prefixed_number(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix).is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `12.3 MB`, `512 B`.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The source of a module's object, for diagnostics about the module as a whole.
pub fn module_src(module: &CoreModule) -> Option<&Src> {
    module.module.src.as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_modules_place_comes_from_its_core_id_its_path_or_its_name() {
        let module = |fields: serde_json::Value| Module {
            fields: fields.as_object().cloned().unwrap_or_default(),
            ..Module::default()
        };
        let plain = module(serde_json::json!({}));
        let at = |path: &str| Place::of(&plain, Some(path));
        assert_eq!(
            at("work/nc01/sg02/bir_debug.12.after-dep_reduction.before-bir_linker.json"),
            Place { core: Some(1), subgraph: Some(2), linked: false }
        );
        assert_eq!(at("dumps/nc03.json"), Place { core: Some(3), subgraph: None, linked: false });
        assert_eq!(
            at("w/nc00/sgLnk/bir_debug.40.after-coloring_allocator_reg.json"),
            Place { core: Some(0), subgraph: None, linked: true }
        );
        assert_eq!(at("a/b/module.json"), Place::default());
        let named = module(serde_json::json!({"name": "nc01/sg00", "attributes": {"neuron_core_id": 1}}));
        assert_eq!(Place::of(&named, None), Place { core: Some(1), subgraph: Some(0), linked: false });
        // The core id wins over the path.
        let tagged = module(serde_json::json!({"attributes": {"neuron_core_id": 2}}));
        assert_eq!(Place::of(&tagged, Some("nc00/sg01/x.json")).core, Some(2));
    }

    #[test]
    fn names_from_paths() {
        assert_eq!(name_from_path("dump/nc01.json").as_deref(), Some("nc01"));
        assert_eq!(name_from_path("dump/nc03/sg00/bir.json").as_deref(), Some("nc03"));
        assert_eq!(name_from_path("C:\\dump\\nc02\\sg01\\x.json").as_deref(), Some("nc02/sg01"));
        assert_eq!(name_from_path("w/nc01/sgLnk/bir_debug.5.json").as_deref(), Some("nc01/sgLnk"));
        assert_eq!(name_from_path("dump/core1.json"), None);
        assert_eq!(name_from_path("nc.json"), None);
        assert_eq!(name_from_path("ncx1.json"), None);
    }

    #[test]
    fn a_spare_is_a_large_text_nothing_else_holds_one_per_thread() -> Result<(), &'static str> {
        let large = || FileText::new("x".repeat(Spare::MIN as usize));
        let spare = Spare::new(2);
        // Held by an instruction still, or too small: let go.
        let held = large();
        spare.give(FileText::clone(&held));
        spare.give(FileText::new("small".to_owned()));
        assert!(spare.take(Spare::MIN).is_none());
        for _ in 0..3 {
            spare.give(large());
        }
        assert_eq!(spare.held().len(), 2);
        // A small file is read into bytes of its own; a large one into a spare.
        assert!(spare.take(Spare::MIN - 1).is_none());
        let bytes = spare.take(Spare::MIN).ok_or("no spare")?;
        assert!(bytes.capacity() >= Spare::MIN as usize);
        assert_eq!(spare.held().len(), 1);
        Ok(())
    }

    #[test]
    fn human_sizes() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1_500_000), "1.5 MB");
    }
}
