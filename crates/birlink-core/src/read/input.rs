//! What reading is given and gives (spec §1): the input files ([`SourceFile`]: bytes,
//! a reader, or why a file could not be read) and the link set they make ([`LinkSet`]:
//! each file, each module with its name and place in the grid, a netlist, a bundle's
//! options). An input is a per-core module file (an object with `functions`), a bundle
//! (`modules` and no `functions`), or a netlist (`hlo_netlist.json`, or a document with
//! only netlist keys); `load` reads them.

use serde_json::Value;

use crate::model::flow::Flow;
use crate::model::ir::{FileId, FileText, Module, Src};
use crate::model::place::{CoreId, PartialPlace, Place, Slot, SubgraphId};
use crate::output::report::FileKind;
use crate::read::compact::Sink;
use crate::read::netlist::Netlist;

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

/// A sink that takes the whole file into a buffer, the rest as the reader appends it.
struct Whole<'a>(&'a mut Vec<u8>);

impl Sink for Whole<'_> {
    fn chunk(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
    }

    fn rest(&mut self) -> Option<&mut Vec<u8>> {
        Some(self.0)
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

    /// Reads the bytes into `bytes` (appended), which a reader that can append them
    /// itself (a file's `read_to_end`) fills with no copy between: a buffer kept from an
    /// earlier file is filled in pages already the process's.
    pub fn read_into(&self, bytes: &mut Vec<u8>) -> Result<(), String> {
        (self.0)(&mut Whole(bytes))
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
    pub place: PartialPlace,
    /// Its file.
    pub file: FileId,
    /// The names its instructions refer to, recorded while reading (for `verify`).
    pub uses: crate::model::uses::Uses,
}

/// Where a module sits in the grid (docs/spec/link.md §1.1): its core —
/// `attributes.neuron_core_id`, else its path (`ncCC/…`, `ncCC.json`), else a module name
/// `ncCC/sgKK` — and its slot: its path's `sgKK`/`sgLnk` folder, else its name's.
pub fn place_of(module: &Module, path: Option<&str>) -> PartialPlace {
    let from_path = path.map(Place::of_path).unwrap_or_default();
    let from_name = Place::of_path(module.name());
    PartialPlace {
        core: module.core_id().map(CoreId).or(from_path.core).or(from_name.core),
        slot: from_path.slot.or(from_name.slot),
    }
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

/// A module's name: its `name` key, else from the path (`nc01.json`,
/// `nc01/sg00/<file>.json`), else `nc<CC>` from its core id (`nc00` without one).
pub fn module_name(module: &Module, path: Option<&str>) -> String {
    if let Some(name) = module.fields.get("name").and_then(Value::as_str) {
        return name.to_owned();
    }
    if let Some(name) = path.and_then(name_from_path) {
        return name;
    }
    CoreId(module.core_id().unwrap_or(0)).to_string()
}

/// A module's name from its path: `ncCC` from `…/ncCC.json` or `…/ncCC/sg00/<file>.json`
/// (a core's first subgraph is the core: the seeds' per-core module), `ncCC/sgKK` or
/// `ncCC/sgLnk` from `…/ncCC/sgKK/<file>.json` (as the compiler scopes them).
pub fn name_from_path(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let stem = parts.last()?.strip_suffix(".json")?;
    if let Some(core) = CoreId::parse(stem) {
        return Some(core.to_string());
    }
    let [.., core, slot, _file] = parts.as_slice() else { return None };
    let core = CoreId::parse(core)?;
    match Slot::parse(slot)? {
        Slot::Subgraph(SubgraphId(0)) => Some(core.to_string()),
        slot => Some(Place { core, slot }.to_string()),
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
        let at = |path: &str| place_of(&plain, Some(path));
        let said = |core: u64, slot: Option<Slot>| PartialPlace { core: Some(CoreId(core)), slot };
        assert_eq!(
            at("work/nc01/sg02/bir_debug.12.after-dep_reduction.before-bir_linker.json"),
            said(1, Some(Slot::Subgraph(SubgraphId(2))))
        );
        assert_eq!(at("dumps/nc03.json"), said(3, None));
        assert_eq!(at("w/nc00/sgLnk/bir_debug.40.after-coloring_allocator_reg.json"), said(0, Some(Slot::Linked)));
        assert_eq!(at("a/b/module.json"), PartialPlace::default());
        let named = module(serde_json::json!({"name": "nc01/sg00", "attributes": {"neuron_core_id": 1}}));
        assert_eq!(place_of(&named, None), said(1, Some(Slot::Subgraph(SubgraphId(0)))));
        // The core id wins over the path.
        let tagged = module(serde_json::json!({"attributes": {"neuron_core_id": 2}}));
        assert_eq!(place_of(&tagged, Some("nc00/sg01/x.json")).core, Some(CoreId(2)));
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
}
