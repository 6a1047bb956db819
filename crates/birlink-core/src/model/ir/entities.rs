//! The entities other than instructions and blocks — functions, allocations and
//! memory-location sets, memory locations, queues and their instances — each its JSON
//! fields plus typed child containers, with the typed accessors the passes read.

use serde_json::Value;

use super::fields::{core_attribute, str_field, u64_field, Fields};
use super::inst::{Block, Inst};
use super::src::Src;
use crate::model::arena::Handle;

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
