//! Reading every input file into a link set (spec §1): each file decoded (a compact
//! file's rest read straight into its bytes, an indented one compacted as it arrives,
//! `compact`), classified — a per-core module, a bundle, a netlist — and its documents
//! read into the model (`json`), on the caller's thread or several. The caller does the
//! IO: files arrive as bytes or as a reader to fill them, or as the reason they could
//! not be read, so a missing file is a diagnostic like any other. Every file is read and
//! checked even when another one fails. A file let go lends its bytes to the next
//! ([`Spare`]).

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::english::human_bytes;
use crate::model::entity::EntityKind;
use crate::model::flow::Flow;
use crate::model::ir::{FileId, FileText, Src};
use crate::model::pass::Pass;
use crate::output::report::FileKind;
use crate::read::compact::{self};
use crate::read::input::{module_name, place_of, Content, CoreModule, FileEntry, LinkSet, Reader, Role, SourceFile};
use crate::read::json;
use crate::read::json::Document;
use crate::read::netlist::{self, Netlist, NETLIST_KEYS};

/// How to read: bounds and threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadOptions {
    /// Refuse inputs that would hold more than this once read (BL0010; the browser
    /// build sets it): compared with `held_estimate` when given, else with the total.
    pub max_input_bytes: Option<u64>,
    /// The inputs' total size, when the caller knows it without reading them; else the
    /// sum of the contents.
    pub input_bytes: Option<u64>,
    /// What reading the inputs would hold, estimated before reading them.
    pub held_estimate: Option<u64>,
    /// Threads to decode and parse on (0 or 1: the caller's only, as in the browser);
    /// the link set and its diagnostics are the same as one thread's, in the same order.
    pub threads: usize,
}

/// Reads every source.
pub fn load(sources: Vec<SourceFile>, options: &LoadOptions, diags: &mut Vec<Diagnostic>) -> LinkSet {
    load_with_progress(sources, options, diags, &mut |_, _| {})
}

/// Reads every source, telling `on_file` which one it starts.
pub fn load_with_progress(
    sources: Vec<SourceFile>,
    options: &LoadOptions,
    diags: &mut Vec<Diagnostic>,
    on_file: &mut dyn FnMut(usize, &str),
) -> LinkSet {
    let LoadOptions { max_input_bytes, input_bytes, held_estimate, threads } = *options;
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
                let place = place_of(&module, Some(&path));
                set.modules.push(CoreModule { module: *module, name, core, place, file, uses });
            }
            Document::Bundle { modules, fields } => {
                entry.kind = FileKind::Bundle;
                read_bundle(&mut set, &fields, file, &mut netlists, diags);
                for (module, uses) in modules {
                    let name = module_name(&module, None);
                    let core = module.core_id();
                    let place = place_of(&module, None);
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
pub(crate) struct Spare {
    held: std::sync::Mutex<Vec<Vec<u8>>>,
    /// The reading threads.
    most: usize,
}

impl Spare {
    /// Smaller files are read into buffers of their own (a large spare would be shrunk
    /// to them, and lost).
    const MIN: u64 = 1 << 20;

    pub(crate) fn new(threads: usize) -> Spare {
        Spare { held: std::sync::Mutex::default(), most: threads.max(1) }
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Vec<Vec<u8>>> {
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A buffer for a file of `len` bytes, when one is spare.
    pub(crate) fn take(&self, len: u64) -> Option<Vec<u8>> {
        if len < Self::MIN {
            return None;
        }
        self.held().pop()
    }

    /// Keeps `text`'s bytes when nothing else holds them (else they are let go).
    pub(crate) fn give(&self, text: FileText) {
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

/// A path's last component.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
