//! The BIR module model: entities in arenas, each one its JSON fields plus typed containers.
//!
//! A BIR module is a tree (module → functions → allocations → memory locations, and
//! functions → blocks → instructions, `Loop` instructions nesting blocks; module →
//! queues → queue instances → `DMABlock`s) whose cross-references are name strings
//! (spec §1). The model keeps that shape:
//!
//! * every entity is a [`Fields`] map holding **all** of its JSON keys except its child
//!   containers, which become typed lists of [`Handle`]s into the module's [`Store`];
//! * typed accessors (`name()`, `opcode()`, `addr()`, …) read the fields with the
//!   spec's defaults; the passes write back through setters on the same fields.
//!
//! **Invariant:** no key of the input is ever dropped. Lowering removes only child
//! containers that are arrays; anything with an unexpected shape stays in `fields` and
//! is written back verbatim (`json::write`). The property test `no_input_key_lost`
//! checks this.
//!
//! Every input entity remembers where it came from ([`Src`]: file and JSON pointer), so
//! diagnostics raised after linking still point into the user's file.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::model::arena::{Arena, Handle, HandleMap};
use crate::model::view::{JsonView, Text};

/// The JSON keys of one entity, minus its typed child containers. Keys are kept sorted,
/// which is also how neuronx-cc writes them.
pub type Fields = Map<String, Value>;

/// A file's text, shared by its `input::FileEntry` and the instructions kept as spans
/// of it (see [`Inst`]).
pub type FileText = Arc<String>;

/// Index of an input file in a link set (see `input::LinkSet::files`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// Where an input entity came from: its file and the JSON pointer of its object there.
///
/// 16 bytes (a test keeps it there): every instruction holds one.
#[derive(Clone, Debug)]
pub struct Src(Place);

/// A JSON pointer and its file: the pointer's text, or the `index`-th element of a
/// container whose place all its elements share. An instruction of a compact dump is the
/// latter, so a million of them hold no pointer text of their own.
#[derive(Clone, Debug)]
enum Place {
    Text(Box<(FileId, Box<str>)>),
    Element(Container, u32),
}

/// The place of a container (a block's `instructions`, say) that its elements' sources
/// share: made once per container, counted by each element's [`Src`].
#[derive(Clone, Debug)]
pub struct Container(Arc<(FileId, Box<str>)>);

impl Container {
    /// The container at `pointer` in `file`.
    pub fn new(file: FileId, pointer: impl Into<Box<str>>) -> Container {
        Container(Arc::new((file, pointer.into())))
    }

    /// Its pointer.
    pub fn pointer(&self) -> &str {
        &self.0 .1
    }
}

impl std::fmt::Display for Container {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.pointer())
    }
}

impl Src {
    /// A source at `pointer` in `file`.
    pub fn new(file: FileId, pointer: impl Into<Box<str>>) -> Src {
        Src(Place::Text(Box::new((file, pointer.into()))))
    }

    /// The `index`-th element of `container`.
    pub fn element(container: &Container, index: usize) -> Src {
        match u32::try_from(index) {
            Ok(index) => Src(Place::Element(container.clone(), index)),
            Err(_) => Src::new(container.0 .0, format!("{}/{index}", container.pointer())),
        }
    }

    /// The input file.
    pub fn file(&self) -> FileId {
        match &self.0 {
            Place::Text(text) => text.0,
            Place::Element(container, _) => container.0 .0,
        }
    }

    /// The RFC 6901 pointer.
    pub fn pointer(&self) -> Cow<'_, str> {
        match &self.0 {
            Place::Text(text) => Cow::Borrowed(&text.1),
            Place::Element(container, index) => Cow::Owned(format!("{}/{index}", container.pointer())),
        }
    }
}

impl PartialEq for Src {
    fn eq(&self, other: &Src) -> bool {
        if self.file() != other.file() {
            return false;
        }
        match (&self.0, &other.0) {
            (Place::Text(a), Place::Text(b)) => a.1 == b.1,
            (Place::Element(a, i), Place::Element(b, j)) => {
                i == j && (Arc::ptr_eq(&a.0, &b.0) || a.pointer() == b.pointer())
            }
            // The same pointer written both ways (rare): compare the text.
            _ => self.pointer() == other.pointer(),
        }
    }
}

impl Eq for Src {}

/// Escapes one RFC 6901 pointer segment.
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// All entities of one module, by kind.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Functions, in storage order.
    pub functions: Arena<Function>,
    /// Blocks of functions and of `Loop` instructions.
    pub blocks: Arena<Block>,
    /// Instructions of blocks and of queue instances.
    pub insts: Arena<Inst>,
    /// Memory-location sets (`allocations` entries of kind `memory_location_set`).
    pub sets: Arena<MemLocSet>,
    /// Memory locations of sets.
    pub memlocs: Arena<MemLoc>,
    /// DMA queues.
    pub queues: Arena<Queue>,
    /// Queue instances (a queue's `blocks`).
    pub instances: Arena<QueueInstance>,
}

/// Where an appended store's entities went: one old → new map per arena.
#[derive(Debug)]
pub struct Relocation {
    /// Functions.
    pub functions: HandleMap<Function>,
    /// Blocks.
    pub blocks: HandleMap<Block>,
    /// Instructions.
    pub insts: HandleMap<Inst>,
    /// Memory-location sets.
    pub sets: HandleMap<MemLocSet>,
    /// Memory locations.
    pub memlocs: HandleMap<MemLoc>,
    /// Queues.
    pub queues: HandleMap<Queue>,
    /// Queue instances.
    pub instances: HandleMap<QueueInstance>,
}

impl Store {
    /// Moves every entity of `from` to the end of this store's arenas and rewrites every
    /// handle inside the moved entities through the per-arena maps; `from`'s entities
    /// are moved, never edited where they were (the linked module is new). Every arena
    /// and every entity is destructured whole: a new arena, or a new handle-bearing
    /// field of an entity, does not compile until it is relocated here.
    pub fn append(&mut self, from: Store) -> Relocation {
        let Store { functions, blocks, insts, sets, memlocs, queues, instances } = from;
        let maps = Relocation {
            functions: self.functions.append(functions),
            blocks: self.blocks.append(blocks),
            insts: self.insts.append(insts),
            sets: self.sets.append(sets),
            memlocs: self.memlocs.append(memlocs),
            queues: self.queues.append(queues),
            instances: self.instances.append(instances),
        };
        for function in maps.functions.new_handles() {
            let Function { fields: _, allocations, blocks, src: _ } = &mut self.functions[function];
            maps.blocks.adjust_all(blocks);
            for allocation in allocations {
                match allocation {
                    Allocation::Set(set) => maps.sets.adjust(set),
                    Allocation::Other(_) => {}
                }
            }
        }
        for set in maps.sets.new_handles() {
            let MemLocSet { fields: _, memlocs, src: _ } = &mut self.sets[set];
            maps.memlocs.adjust_all(memlocs);
        }
        for memloc in maps.memlocs.new_handles() {
            // A memory location holds no handle (its views are named, not pointed at).
            let MemLoc { fields: _, src: _ } = &self.memlocs[memloc];
        }
        for block in maps.blocks.new_handles() {
            let Block { fields: _, insts, src: _ } = &mut self.blocks[block];
            maps.insts.adjust_all(insts);
        }
        for inst in maps.insts.new_handles() {
            let Inst { held: _, body, src: _, op: _, remote_update: _ } = &mut self.insts[inst];
            if let Some(body) = body {
                maps.blocks.adjust_all(body);
            }
        }
        for queue in maps.queues.new_handles() {
            let Queue { fields: _, instances, src: _ } = &mut self.queues[queue];
            maps.instances.adjust_all(instances);
        }
        for instance in maps.instances.new_handles() {
            let QueueInstance { fields: _, insts, src: _ } = &mut self.instances[instance];
            maps.insts.adjust_all(insts);
        }
        maps
    }

    /// Gives back the arenas' spare capacity (their last chunks').
    pub fn shrink_to_fit(&mut self) {
        let Store { functions, blocks, insts, sets, memlocs, queues, instances } = self;
        functions.shrink_to_fit();
        blocks.shrink_to_fit();
        insts.shrink_to_fit();
        sets.shrink_to_fit();
        memlocs.shrink_to_fit();
        queues.shrink_to_fit();
        instances.shrink_to_fit();
    }
}

/// One BIR module: a per-core input, or the linked `<base>/sgLnk` module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Top-level keys other than `functions` and `queues` (`version`, `arch`,
    /// `attributes`, and anything unknown).
    pub fields: Fields,
    /// Functions in program order; `main` (when present) is the entry.
    pub functions: Vec<Handle<Function>>,
    /// DMA queues in order.
    pub queues: Vec<Handle<Queue>>,
    /// The entities the lists above refer to.
    pub store: Store,
    /// The module's object in its input file, if it came from one.
    pub src: Option<Src>,
}

/// A function: allocations and blocks.
#[derive(Clone, Debug, Default)]
pub struct Function {
    /// Keys other than `allocations` and `blocks`.
    pub fields: Fields,
    /// The `allocations` list, in order.
    pub allocations: Vec<Allocation>,
    /// Top-level blocks in order.
    pub blocks: Vec<Handle<Block>>,
    /// Where it came from.
    pub src: Option<Src>,
}

/// One entry of a function's `allocations`.
#[derive(Clone, Debug)]
pub enum Allocation {
    /// A memory-location set (`Skind` `memory_location_set`, the default).
    Set(Handle<MemLocSet>),
    /// Any other storage (a `register`, a lone `memory_location`), carried verbatim.
    Other(Value),
}

/// A memory-location set: a logical tensor and its physical pieces.
#[derive(Clone, Debug, Default)]
pub struct MemLocSet {
    /// Keys other than `memorylocations`.
    pub fields: Fields,
    /// Its memory locations in order.
    pub memlocs: Vec<Handle<MemLoc>>,
    /// Where it came from.
    pub src: Option<Src>,
}

/// A memory location: a physical placement.
#[derive(Clone, Debug, Default)]
pub struct MemLoc {
    /// All of its keys.
    pub fields: Fields,
    /// Where it came from.
    pub src: Option<Src>,
}

/// A basic block.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Keys other than `instructions`.
    pub fields: Fields,
    /// Instructions in order.
    pub insts: Vec<Handle<Inst>>,
    /// Where it came from.
    pub src: Option<Src>,
}

/// An instruction. Only a `Loop` has a typed body; any other nested structure (a
/// `DMABlock`'s descriptor blocks, say) stays in its JSON.
///
/// Most instructions of a real program (matmuls, copies, activations) are never changed
/// by the passes, so once read and checked they are kept as compact JSON text
/// ([`Held`]): no tree of maps, written back as it is, parsed again only to be printed.
/// When the file already holds that text (a compact dump), it is a span of the file's
/// shared text, so the instruction costs no copy of its bytes. The instructions the
/// passes act on (calls, barriers, queue switches, DMA blocks, loops) keep their parsed
/// fields.
///
/// `name`, `op` and `remote_update` are facts read once, when the instruction is made
/// ([`Inst::new`]); no pass renames an instruction, changes an opcode or adds a
/// `target_core`, so they stay true.
///
/// Its size is what a link set holds per instruction besides the text (56 bytes; a
/// test keeps it there): a million instructions are 56 MB.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Its JSON: kept text, or its parsed fields (minus a `Loop`'s `blocks`).
    held: Held,
    /// A `Loop`'s nested blocks, walked depth-first by the passes (boxed twice: a loop
    /// is rare, and a thin pointer is 8 bytes where a slice's is 16).
    pub body: Option<Box<Vec<Handle<Block>>>>,
    /// Where it came from.
    pub src: Option<Src>,
    /// The opcode, as far as the passes care.
    pub op: Op,
    /// Whether some `sync_info.on_update` entry has a `target_core`.
    pub remote_update: bool,
}

/// An instruction's JSON. Kept text is valid compact JSON, exactly what `serde_json`
/// prints for its fields, so it is written back byte for byte; its name is where it is
/// in that text (a kept instruction's name has no escape, so the JSON string's bytes
/// are the name).
#[derive(Clone, Debug)]
enum Held {
    /// A span of its file's text (`start..start + len`), which already was that text.
    Span { file: FileText, start: u32, len: u32, name: NameAt },
    /// Text the reader printed (from a pretty dump, or with its keys sorted).
    Owned { text: Box<str>, name: NameAt },
    /// Parsed fields: an instruction a pass acts on or changed (its name is its
    /// `name` field).
    Fields(Box<Fields>),
}

/// Where a kept instruction's name lies in its text (packed to 2 bytes' alignment, so
/// that [`Held`]'s tag and it fill the 8 bytes before its span: 24 bytes in all).
#[derive(Clone, Copy, Debug)]
#[repr(C, packed(2))]
struct NameAt {
    start: u32,
    len: u16,
}

impl NameAt {
    /// `name`'s place in `text`, when it is a slice of it and short enough.
    fn of(text: &str, name: &str) -> Option<NameAt> {
        let (start, len) = span_in(text, name)?;
        Some(NameAt { start, len: u16::try_from(len).ok()? })
    }

    fn get(self, text: &str) -> &str {
        let NameAt { start, len } = self;
        let start = start as usize;
        text.get(start..start + usize::from(len)).unwrap_or("")
    }
}

impl Held {
    /// Kept `text`, as a span of `file` when it lies inside it (and offsets fit 32
    /// bits), else as a copy; `None` when the name is not where it can be pointed at.
    fn kept(text: &str, file: Option<&FileText>, name: &str) -> Option<Held> {
        let name = NameAt::of(text, name)?;
        let span = file.and_then(|file| {
            let (start, len) = span_in(file, text)?;
            Some(Held::Span { file: Arc::clone(file), start, len, name })
        });
        Some(span.unwrap_or_else(|| Held::Owned { text: text.into(), name }))
    }

    /// The kept text, if kept.
    fn text(&self) -> Option<&str> {
        match self {
            Held::Span { file, start, len, .. } => {
                let start = *start as usize;
                let text = file.get(start..start + *len as usize);
                // A span is made from a slice of this very text (`span_in`).
                debug_assert!(text.is_some(), "a kept instruction's span lies outside its file");
                Some(text.unwrap_or("{}"))
            }
            Held::Owned { text, .. } => Some(text),
            Held::Fields(_) => None,
        }
    }
}

/// Where `inner`, a slice of `outer`, lies in it (start, length), when it is one and the
/// offsets fit 32 bits.
fn span_in(outer: &str, inner: &str) -> Option<(u32, u32)> {
    let start = (inner.as_ptr() as usize).checked_sub(outer.as_ptr() as usize)?;
    (start.checked_add(inner.len())? <= outer.len()).then_some(())?;
    Some((u32::try_from(start).ok()?, u32::try_from(inner.len()).ok()?))
}

/// The opcodes the passes act on; every other opcode is `Other`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Op {
    /// `Call`.
    Call,
    /// `Return`.
    Return,
    /// `CoreBarrier`.
    CoreBarrier,
    /// `SwitchQueueInstance`.
    SwitchQueueInstance,
    /// `DMABlock`.
    DmaBlock,
    /// `Loop`.
    Loop,
    /// `GPSIMDSB2SB`.
    Sb2Sb,
    /// `CollectiveCompute` (`verify` reads its operands: lower_local_collectives' look-up).
    CollectiveCompute,
    /// Anything else.
    #[default]
    Other,
}

impl Op {
    /// The kind of an opcode name.
    pub fn of(name: &str) -> Op {
        match name {
            opcode::CALL => Op::Call,
            opcode::RETURN => Op::Return,
            opcode::CORE_BARRIER => Op::CoreBarrier,
            opcode::SWITCH_QUEUE_INSTANCE => Op::SwitchQueueInstance,
            opcode::DMA_BLOCK => Op::DmaBlock,
            opcode::LOOP => Op::Loop,
            opcode::GPSIMD_SB2SB => Op::Sb2Sb,
            opcode::COLLECTIVE_COMPUTE => Op::CollectiveCompute,
            _ => Op::Other,
        }
    }
}

/// A DMA queue.
#[derive(Clone, Debug, Default)]
pub struct Queue {
    /// Keys other than `blocks` (the queue-level keys).
    pub fields: Fields,
    /// Its instances (the queue's `blocks`) in order.
    pub instances: Vec<Handle<QueueInstance>>,
    /// Where it came from.
    pub src: Option<Src>,
}

/// A queue instance: a named block of `DMABlock` instructions.
#[derive(Clone, Debug, Default)]
pub struct QueueInstance {
    /// Keys other than `instructions`.
    pub fields: Fields,
    /// Its instructions in order.
    pub insts: Vec<Handle<Inst>>,
    /// Where it came from.
    pub src: Option<Src>,
}

/// Opcodes the passes act on.
pub mod opcode {
    /// A call of another function (the dispatcher's calls).
    pub const CALL: &str = "Call";
    /// Return to the caller.
    pub const RETURN: &str = "Return";
    /// A cross-core barrier, renumbered by `bir_linker`.
    pub const CORE_BARRIER: &str = "CoreBarrier";
    /// Switches the active instance of a DMA queue.
    pub const SWITCH_QUEUE_INSTANCE: &str = "SwitchQueueInstance";
    /// A DMA block; with `remote_notifications` it signals another core.
    pub const DMA_BLOCK: &str = "DMABlock";
    /// A structured loop nesting its own blocks.
    pub const LOOP: &str = "Loop";
    /// The SB-to-SB copy counted by LncVerifier 1198.
    pub const GPSIMD_SB2SB: &str = "GPSIMDSB2SB";
    /// A collective (all-reduce, send/receive), lowered on-chip when local.
    pub const COLLECTIVE_COMPUTE: &str = "CollectiveCompute";
    /// A branch on a condition (`on_true`, `on_false` name blocks).
    pub const COMPARE_AND_BRANCH: &str = "CompareAndBranch";
    /// A jump (`target` names a block).
    pub const UNCONDITIONAL_BRANCH: &str = "UnconditionalBranch";
}

/// A `remote_local_target`: the owner core's memory location this one views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteTarget {
    /// Name of the owner's memory location.
    pub name: String,
    /// The owner core.
    pub core: u64,
}

/// One `alias` entry: `[dest_set, dest_memloc, kind]` or `[dest_set, dest_memloc, kind,
/// dest_function]` (old form `[dest_memloc, kind]` is read with an empty set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasEntry {
    /// Destination set name (empty in the old two-element form).
    pub set: String,
    /// Destination memory location name.
    pub memloc: String,
    /// Alias kind bits; 3 = MustAlias.
    pub kind: u64,
    /// Destination function, for an alias that crosses functions.
    pub function: Option<String>,
}

impl AliasEntry {
    /// The wire form: `[set, memloc, kind]` or `[set, memloc, kind, function]`.
    pub fn to_value(&self) -> Value {
        let mut items = vec![Value::from(self.set.clone()), Value::from(self.memloc.clone()), Value::from(self.kind)];
        if let Some(function) = &self.function {
            items.push(Value::from(function.clone()));
        }
        Value::Array(items)
    }

    /// Reads one entry; `None` when it has neither wire shape.
    pub fn from_value(value: &Value) -> Option<AliasEntry> {
        let items = value.as_array()?;
        match items.as_slice() {
            [memloc, kind] => Some(AliasEntry {
                set: String::new(),
                memloc: memloc.as_str()?.to_owned(),
                kind: kind.as_u64()?,
                function: None,
            }),
            [set, memloc, kind] => Some(AliasEntry {
                set: set.as_str()?.to_owned(),
                memloc: memloc.as_str()?.to_owned(),
                kind: kind.as_u64()?,
                function: None,
            }),
            [set, memloc, kind, function] => Some(AliasEntry {
                set: set.as_str()?.to_owned(),
                memloc: memloc.as_str()?.to_owned(),
                kind: kind.as_u64()?,
                function: Some(function.as_str()?.to_owned()),
            }),
            _ => None,
        }
    }
}

/// The physical tuple `vnc_remote_addr_map` copies from owner to view.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PhysTuple {
    /// MemoryType name (`DRAM`, `SB`, …); `Unallocated` when absent.
    #[serde(rename = "type")]
    pub mem_type: String,
    /// The set's address space (`Local`, `Shared`, `Debug`).
    pub addr_space: String,
    /// Address.
    pub addr: u64,
    /// Bank.
    pub bank: i64,
    /// Base partition.
    pub base: u64,
    /// Whether it is allocated.
    pub allocated: bool,
}

/// Reads a string field.
pub fn str_field<'a>(fields: &'a Fields, key: &str) -> Option<&'a str> {
    fields.get(key).and_then(Value::as_str)
}

/// Reads a non-negative integer field.
pub fn u64_field(fields: &Fields, key: &str) -> Option<u64> {
    fields.get(key).and_then(Value::as_u64)
}

/// Edits the object under `key`, creating it when absent. A value there that is not an
/// object is moved to `source_<key>` first, so nothing is lost.
pub fn edit_object_field(fields: &mut Fields, key: &str, edit: impl FnOnce(&mut Fields)) {
    let mut map = match fields.remove(key) {
        Some(Value::Object(map)) => map,
        Some(other) => {
            fields.insert(format!("source_{key}"), other);
            Fields::new()
        }
        None => Fields::new(),
    };
    edit(&mut map);
    fields.insert(key.to_owned(), Value::Object(map));
}

/// `attributes.neuron_core_id` of a fields map, when it is a non-negative integer.
pub fn core_attribute(fields: &Fields) -> Option<u64> {
    fields.get("attributes").and_then(|a| a.get("neuron_core_id")).and_then(Value::as_u64)
}

impl Function {
    /// The function's name (required; empty when missing).
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }

    /// The core it is tagged with (`attributes.neuron_core_id`).
    pub fn core(&self) -> Option<u64> {
        core_attribute(&self.fields)
    }
}

impl MemLocSet {
    /// The set's name; default `<first memloc name>_set`.
    pub fn name(&self, store: &Store) -> String {
        match str_field(&self.fields, "name") {
            Some(name) => name.to_owned(),
            None => {
                let first = self.memlocs.first().map(|&m| store.memlocs[m].name()).unwrap_or("");
                format!("{first}_set")
            }
        }
    }

    /// TensorKind name; default `Internal`.
    pub fn kind(&self) -> &str {
        str_field(&self.fields, "kind").unwrap_or("Internal")
    }

    /// Address space; default `Local`.
    pub fn addr_space(&self) -> &str {
        str_field(&self.fields, "addr_space").unwrap_or("Local")
    }
}

impl MemLoc {
    /// The location's name (required; empty when missing).
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }

    /// MemoryType name; default `Unallocated` (so a location without `type` is not DRAM).
    pub fn mem_type(&self) -> &str {
        str_field(&self.fields, "type").unwrap_or("Unallocated")
    }

    /// Whether the location is in DRAM (the only memory aliases may live in).
    pub fn is_dram(&self) -> bool {
        self.mem_type() == "DRAM"
    }

    /// The remote target, accepting `[name, core]` and `{"name", "core"}`.
    pub fn remote_target(&self) -> Option<RemoteTarget> {
        parse_remote_target(self.fields.get("remote_local_target")?)
    }

    /// Its physical tuple, with `addr_space` taken from its set.
    pub fn phys_tuple(&self, addr_space: &str) -> PhysTuple {
        PhysTuple {
            mem_type: self.mem_type().to_owned(),
            addr_space: addr_space.to_owned(),
            addr: u64_field(&self.fields, "addr").unwrap_or(0),
            bank: self.fields.get("bank").and_then(Value::as_i64).unwrap_or(0),
            base: u64_field(&self.fields, "base").unwrap_or(0),
            allocated: self.fields.get("allocated").and_then(Value::as_bool).unwrap_or(false),
        }
    }

    /// The `alias` entries that have a readable shape.
    pub fn aliases(&self) -> Vec<AliasEntry> {
        match self.fields.get("alias") {
            Some(Value::Array(items)) => items.iter().filter_map(AliasEntry::from_value).collect(),
            _ => Vec::new(),
        }
    }
}

/// Parses a `remote_local_target` value in either accepted shape.
pub fn parse_remote_target(value: &Value) -> Option<RemoteTarget> {
    match value {
        Value::Array(items) => match items.as_slice() {
            [name, core] => Some(RemoteTarget { name: name.as_str()?.to_owned(), core: core.as_u64()? }),
            _ => None,
        },
        Value::Object(map) => {
            Some(RemoteTarget { name: map.get("name")?.as_str()?.to_owned(), core: map.get("core")?.as_u64()? })
        }
        _ => None,
    }
}

impl Block {
    /// The block's name.
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }
}

impl Inst {
    /// An instruction from its fields (and a `Loop`'s body), with its facts read. An
    /// instruction no pass acts on is kept as compact text.
    pub fn new(fields: Fields, body: Option<Vec<Handle<Block>>>, src: Option<Src>) -> Inst {
        let body = body.map(Box::new);
        let op = Op::of(str_field(&fields, "opcode").unwrap_or(""));
        let remote_update = crate::model::view::remote_update(fields.get("sync_info"));
        let keep_as_text = op == Op::Other && body.is_none();
        let held = match keep_as_text.then(|| compact_with_name(&fields)).flatten() {
            Some((text, name)) => Held::Owned { text: text.into(), name },
            None => Held::Fields(Box::new(fields)),
        };
        Inst { held, body, src, op, remote_update }
    }

    /// An instruction no pass acts on, kept as `text`, which is already its compact form
    /// (`json::fast` parsed and checked it): what [`Inst::new`] would make of its fields,
    /// without them. When `text` is a slice of `file`, the instruction keeps a span of it;
    /// `name` is a slice of `text` (else, rarely, the fields are parsed and held).
    pub(crate) fn kept(text: &str, file: Option<&FileText>, name: &str, remote_update: bool, src: Option<Src>) -> Inst {
        let held = Held::kept(text, file, name).unwrap_or_else(|| Held::Fields(Box::new(parse_kept(text))));
        Inst { held, body: None, src, op: Op::Other, remote_update }
    }

    /// An instruction kept as `text`, its canonical form, which the reader gathers at
    /// `at` of a text it shares later: until [`Inst::share_kept`] gives it that text it
    /// points at `waiting` (and is not read). The flag says it waits; when the name
    /// cannot be pointed at in `text` (or `at` passes 32 bits), the fields are parsed
    /// and held instead, and it does not.
    pub(crate) fn kept_waiting(
        text: &str,
        waiting: &FileText,
        at: usize,
        name: &str,
        remote_update: bool,
        src: Option<Src>,
    ) -> (Inst, bool) {
        let span = NameAt::of(text, name).and_then(|name| {
            let start = u32::try_from(at).ok()?;
            let len = u32::try_from(text.len()).ok()?;
            Some(Held::Span { file: Arc::clone(waiting), start, len, name })
        });
        let waits = span.is_some();
        let held = span.unwrap_or_else(|| Held::Fields(Box::new(parse_kept(text))));
        (Inst { held, body: None, src, op: Op::Other, remote_update }, waits)
    }

    /// Gives a waiting instruction ([`Inst::kept_waiting`]) the text its span is in.
    pub(crate) fn share_kept(&mut self, text: &FileText) {
        if let Held::Span { file, start, len, .. } = &mut self.held {
            debug_assert!(
                text.get(*start as usize..(*start + *len) as usize).is_some(),
                "a waiting instruction's span lies outside the shared text"
            );
            *file = Arc::clone(text);
        }
    }

    /// [`Inst::share_kept`] for an instruction waiting on `waiting` (any other is left).
    pub(crate) fn share_kept_from(&mut self, waiting: &FileText, text: &FileText) {
        if matches!(&self.held, Held::Span { file, .. } if Arc::ptr_eq(file, waiting)) {
            self.share_kept(text);
        }
    }

    /// The instruction's fields: borrowed when parsed, parsed again from the text otherwise.
    pub fn fields(&self) -> Cow<'_, Fields> {
        match &self.held {
            Held::Fields(fields) => Cow::Borrowed(fields),
            kept => Cow::Owned(kept.text().map(parse_kept).unwrap_or_default()),
        }
    }

    /// The fields, to change them (kept text is parsed first).
    pub fn fields_mut(&mut self) -> &mut Fields {
        if let Some(text) = self.held.text() {
            self.held = Held::Fields(Box::new(parse_kept(text)));
        }
        match &mut self.held {
            Held::Fields(fields) => fields,
            // Kept text was parsed into fields just above.
            Held::Span { .. } | Held::Owned { .. } => unreachable!("kept text is parsed before it is changed"),
        }
    }

    /// The compact JSON text, when the instruction is kept as text.
    pub fn kept_text(&self) -> Option<&str> {
        self.held.text()
    }

    /// The instruction's name.
    pub fn name(&self) -> &str {
        match &self.held {
            Held::Span { name, .. } | Held::Owned { name, .. } => name.get(self.held.text().unwrap_or("")),
            Held::Fields(fields) => str_field(fields, "name").unwrap_or(""),
        }
    }

    /// The opcode name (empty when missing).
    pub fn opcode(&self) -> Cow<'_, str> {
        // Kept text is read without a map when its opcode has no escape.
        let kept = self.kept_text().and_then(|text| match Text(text).get("opcode") {
            None => Some(""),
            Some(opcode) => opcode.as_str(),
        });
        if let Some(opcode) = kept {
            return Cow::Borrowed(opcode);
        }
        match self.fields() {
            Cow::Borrowed(fields) => Cow::Borrowed(str_field(fields, "opcode").unwrap_or("")),
            Cow::Owned(fields) => Cow::Owned(str_field(&fields, "opcode").unwrap_or("").to_owned()),
        }
    }

    /// Whether this is a `DMABlock` with a non-empty `remote_notifications`.
    pub fn is_remote_dma_block(&self) -> bool {
        self.op == Op::DmaBlock
            && matches!(self.fields().get("remote_notifications"), Some(Value::Array(items)) if !items.is_empty())
    }

    /// The `sync_info.on_update` entries, if present and an array.
    pub fn updates(&self) -> Vec<Value> {
        match self.fields().get("sync_info").and_then(|s| s.get("on_update")) {
            Some(Value::Array(items)) => items.clone(),
            _ => Vec::new(),
        }
    }

    /// Mutable `sync_info.on_update` entries.
    pub fn updates_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self.fields_mut().get_mut("sync_info").and_then(|s| s.get_mut("on_update")) {
            Some(Value::Array(items)) => Some(items),
            _ => None,
        }
    }
}

/// A kept instruction's fields. Kept text is what `serde_json` printed, or a span the
/// fast path checked is exactly that: it always parses.
fn parse_kept(text: &str) -> Fields {
    let parsed = serde_json::from_str(text);
    debug_assert!(parsed.is_ok(), "a kept instruction's text does not parse: {text}");
    parsed.unwrap_or_default()
}

/// `fields` as `serde_json` prints them (compact, in key order), with where the
/// `name` member's string lies in that text — `None` when it has no such string or
/// the string has an escape (its characters are not the name's bytes).
fn compact_with_name(fields: &Fields) -> Option<(String, NameAt)> {
    let mut text = String::with_capacity(256);
    let mut name = None;
    text.push('{');
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&serde_json::to_string(key).ok()?);
        text.push(':');
        let at = text.len();
        text.push_str(&serde_json::to_string(value).ok()?);
        if let ("name", Value::String(string)) = (key.as_str(), value) {
            let inner = text.get(at + 1..text.len() - 1)?;
            name = (inner == string)
                .then(|| Some(NameAt { start: u32::try_from(at + 1).ok()?, len: u16::try_from(string.len()).ok()? }))
                .flatten();
        }
    }
    text.push('}');
    Some((text, name?))
}

/// One `on_update` entry as the passes see it.
#[derive(Clone, Debug, PartialEq)]
pub struct UpdateView<'a> {
    /// The semaphore or event id (any JSON value; normally an integer).
    pub id: Option<&'a Value>,
    /// The target core when the update is remote (present ⇔ remote).
    pub target_core: Option<&'a Value>,
    /// `semaphore` (default) or `event`.
    pub kind: &'a str,
}

impl<'a> UpdateView<'a> {
    /// Reads an `on_update` entry; non-objects read as a local update without id.
    pub fn of(value: &'a Value) -> Self {
        UpdateView {
            id: value.get("id"),
            target_core: value.get("target_core"),
            kind: value.get("type").and_then(Value::as_str).unwrap_or("semaphore"),
        }
    }

    /// An update is remote exactly when `target_core` is present.
    pub fn is_remote(&self) -> bool {
        self.target_core.is_some()
    }
}

impl Queue {
    /// The queue's name.
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }
}

impl QueueInstance {
    /// The instance's name, if it has one (real dumps often leave instances unnamed).
    pub fn name(&self) -> Option<&str> {
        str_field(&self.fields, "name")
    }

    /// The core it is tagged with (`attributes.neuron_core_id`).
    pub fn core(&self) -> Option<u64> {
        core_attribute(&self.fields)
    }
}

/// A queue instance's name in its module: its `name`, or `<queue>_<index>` when it has
/// none, as real dumps often leave them (spec §3.8). Both `verify` and `bir_linker`
/// name instances this way.
pub fn instance_source_name(queue: &str, name: Option<&str>, index: usize) -> String {
    match name {
        Some(name) => name.to_owned(),
        None => format!("{queue}_{index}"),
    }
}

impl Module {
    /// Its `name` (birlink's; empty when it has none).
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }

    /// `attributes.neuron_core_id`.
    pub fn core_id(&self) -> Option<u64> {
        core_attribute(&self.fields)
    }

    /// The entry function: `main` if present, else the first.
    pub fn entry_function(&self) -> Option<Handle<Function>> {
        self.functions
            .iter()
            .copied()
            .find(|&f| self.store.functions[f].name() == "main")
            .or_else(|| self.functions.first().copied())
    }

    /// Visits every instruction of a function's blocks, depth-first through `Loop`
    /// bodies, in program order.
    pub fn walk_function(&self, function: Handle<Function>, visit: &mut dyn FnMut(Handle<Inst>)) {
        self.walk_blocks(&self.store.functions[function].blocks, visit);
    }

    /// Visits every instruction of these blocks, depth-first through `Loop` bodies.
    pub fn walk_blocks(&self, blocks: &[Handle<Block>], visit: &mut dyn FnMut(Handle<Inst>)) {
        self.walk(blocks, &mut |_| {}, &mut |_, inst| visit(inst));
    }

    /// Visits every instruction of a function with the block that holds it, in program
    /// order (depth-first through `Loop` bodies).
    pub fn walk_function_in_blocks(
        &self,
        function: Handle<Function>,
        visit: &mut dyn FnMut(Handle<Block>, Handle<Inst>),
    ) {
        self.walk(&self.store.functions[function].blocks, &mut |_| {}, visit);
    }

    /// Visits every block of a function (top-level and nested), depth-first.
    pub fn walk_function_blocks(&self, function: Handle<Function>, visit: &mut dyn FnMut(Handle<Block>)) {
        self.walk(&self.store.functions[function].blocks, visit, &mut |_, _| {});
    }

    /// The one depth-first walk: each block, then its instructions in order, entering a
    /// `Loop`'s body right after the `Loop` itself. An explicit stack keeps the walk
    /// independent of nesting depth.
    fn walk(
        &self,
        blocks: &[Handle<Block>],
        visit_block: &mut dyn FnMut(Handle<Block>),
        visit_inst: &mut dyn FnMut(Handle<Block>, Handle<Inst>),
    ) {
        struct Frame<'a> {
            blocks: std::slice::Iter<'a, Handle<Block>>,
            block: Option<Handle<Block>>,
            insts: std::slice::Iter<'a, Handle<Inst>>,
        }
        let mut stack = vec![Frame { blocks: blocks.iter(), block: None, insts: [].iter() }];
        while let Some(frame) = stack.last_mut() {
            if let (Some(block), Some(&inst)) = (frame.block, frame.insts.next()) {
                visit_inst(block, inst);
                if let Some(body) = &self.store.insts[inst].body {
                    stack.push(Frame { blocks: body.iter(), block: None, insts: [].iter() });
                }
            } else if let Some(&block) = frame.blocks.next() {
                visit_block(block);
                frame.block = Some(block);
                frame.insts = self.store.blocks[block].insts.iter();
            } else {
                stack.pop();
            }
        }
    }
}
