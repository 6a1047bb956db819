//! Writing a [`Module`] back to BIR JSON: the inverse of `json::read`.
//!
//! Each entity is written as its `fields` merged with its typed containers, keys in
//! sorted order (as neuronx-cc writes them), so the output is byte-for-byte a function of
//! the module. A container whose key is also in `fields` (the reader left a value of the
//! wrong shape there) is not written: the verbatim value wins and nothing is duplicated.

use serde::ser::{SerializeMap, SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::model::arena::Handle;
use crate::model::ir::{Allocation, Block, Fields, Function, Inst, MemLocSet, Module, Queue, QueueInstance};
use crate::model::linked::LinkedSet;

/// The module as pretty JSON text with a final newline.
pub fn module_to_string(module: &Module) -> String {
    let mut out = Vec::with_capacity(1 << 16);
    // Writing into a Vec cannot fail.
    let _ = write_module(module, &mut out);
    // serde_json writes valid UTF-8.
    let text = String::from_utf8(out);
    debug_assert!(text.is_ok(), "serde_json wrote invalid UTF-8");
    text.unwrap_or_default()
}

/// Writes the module as pretty JSON (two-space indent) with a final newline into any
/// sink the caller provides (a file, a buffer), without building the text first.
/// Instructions kept as text are copied as they are, one line each.
pub fn write_module<W: std::io::Write>(module: &Module, mut out: W) -> std::io::Result<()> {
    let mut serializer = serde_json::Serializer::pretty(&mut out);
    ModuleJson(module).serialize(&mut serializer).map_err(std::io::Error::other)?;
    out.write_all(b"\n")
}

/// The linked set as `linked.json` text (docs/spec/link.md §6): the seeds' one module
/// as a module; one module per core as a bundle `{"modules": [...]}`, in core order,
/// which birlink reads back like any bundle.
pub fn set_to_string(set: &LinkedSet) -> String {
    let mut out = Vec::with_capacity(1 << 16);
    // Writing into a Vec cannot fail.
    let _ = write_set(set, &mut out);
    let text = String::from_utf8(out);
    debug_assert!(text.is_ok(), "serde_json wrote invalid UTF-8");
    text.unwrap_or_default()
}

/// Writes the linked set as [`set_to_string`] does, into any sink.
pub fn write_set<W: std::io::Write>(set: &LinkedSet, mut out: W) -> std::io::Result<()> {
    if let Some(module) = set.single() {
        return write_module(module, out);
    }
    let mut serializer = serde_json::Serializer::pretty(&mut out);
    SetJson(set).serialize(&mut serializer).map_err(std::io::Error::other)?;
    out.write_all(b"\n")
}

/// A per-core linked set as a bundle.
struct SetJson<'a>(&'a LinkedSet);

impl Serialize for SetJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let modules: Vec<ModuleJson<'_>> = self.0.iter().map(ModuleJson).collect();
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("modules", &modules)?;
        map.end()
    }
}

/// Any value as pretty JSON with a final newline (used for `report.json`).
pub fn to_pretty_string<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// Text that is already one JSON value, written as it is.
///
/// This is how `serde_json::value::RawValue` serializes itself: a struct named by
/// `serde_json`'s raw-value token, which its serializers (text and `Value`) write out
/// verbatim. A `RawValue` can only be made from borrowed text by parsing it again, and
/// an instruction kept as a span of its file ([`Inst::kept_text`]) was parsed once
/// already; so the token is used directly. `verbatim_is_written_as_it_is` fails if a
/// `serde_json` upgrade ever changes it.
struct Verbatim<'a>(&'a str);

/// `serde_json`'s raw-value token (`serde_json::raw::TOKEN`, not exported).
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

impl Serialize for Verbatim<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut raw = serializer.serialize_struct(RAW_VALUE_TOKEN, 1)?;
        raw.serialize_field(RAW_VALUE_TOKEN, self.0)?;
        raw.end()
    }
}

/// One child container of an entity: its key and its contents.
struct Container<'a> {
    key: &'static str,
    value: Contents<'a>,
}

/// The kinds of child containers, so `write_entity` stays generic without copies.
enum Contents<'a> {
    Functions(Seq<'a, Function>),
    Queues(Seq<'a, Queue>),
    Allocations(AllocationsJson<'a>),
    Blocks(Seq<'a, Block>),
    Insts(Seq<'a, Inst>),
    Memlocs(MemlocsJson<'a>),
    Instances(Seq<'a, QueueInstance>),
}

impl Serialize for Contents<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Contents::Functions(seq) => seq.serialize(serializer),
            Contents::Queues(seq) => seq.serialize(serializer),
            Contents::Allocations(allocations) => allocations.serialize(serializer),
            Contents::Blocks(seq) => seq.serialize(serializer),
            Contents::Insts(seq) => seq.serialize(serializer),
            Contents::Memlocs(memlocs) => memlocs.serialize(serializer),
            Contents::Instances(seq) => seq.serialize(serializer),
        }
    }
}

/// Writes `fields` and `containers` (sorted by key) as one JSON object.
fn write_entity<S: Serializer>(
    serializer: S,
    fields: &Fields,
    containers: &[Container<'_>],
) -> Result<S::Ok, S::Error> {
    let mut pending = containers.iter().filter(|c| !fields.contains_key(c.key)).peekable();
    let n_containers = containers.iter().filter(|c| !fields.contains_key(c.key)).count();
    let mut map = serializer.serialize_map(Some(fields.len() + n_containers))?;
    for (key, value) in fields {
        while let Some(container) = pending.next_if(|c| c.key < key.as_str()) {
            map.serialize_entry(container.key, &container.value)?;
        }
        map.serialize_entry(key, value)?;
    }
    for container in pending {
        map.serialize_entry(container.key, &container.value)?;
    }
    map.end()
}

struct ModuleJson<'a>(&'a Module);
struct Seq<'a, T> {
    module: &'a Module,
    handles: &'a [Handle<T>],
}
struct AllocationsJson<'a> {
    module: &'a Module,
    allocations: &'a [Allocation],
}
struct MemlocsJson<'a> {
    module: &'a Module,
    handles: &'a [Handle<crate::model::ir::MemLoc>],
}
struct EntityJson<'a, T> {
    module: &'a Module,
    handle: Handle<T>,
}

impl Serialize for ModuleJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let module = self.0;
        write_entity(
            serializer,
            &module.fields,
            &[
                Container { key: "functions", value: Contents::Functions(Seq { module, handles: &module.functions }) },
                Container { key: "queues", value: Contents::Queues(Seq { module, handles: &module.queues }) },
            ],
        )
    }
}

impl<'a, T> Serialize for Seq<'a, T>
where
    EntityJson<'a, T>: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.handles.len()))?;
        for &handle in self.handles {
            seq.serialize_element(&EntityJson { module: self.module, handle })?;
        }
        seq.end()
    }
}

impl Serialize for AllocationsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.allocations.len()))?;
        for allocation in self.allocations {
            match allocation {
                Allocation::Set(set) => seq.serialize_element(&EntityJson { module: self.module, handle: *set })?,
                Allocation::Other(value) => seq.serialize_element(value)?,
            }
        }
        seq.end()
    }
}

impl Serialize for MemlocsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.handles.len()))?;
        for &memloc in self.handles {
            seq.serialize_element(&self.module.store.memlocs[memloc].fields)?;
        }
        seq.end()
    }
}

impl Serialize for EntityJson<'_, Function> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let function = &self.module.store.functions[self.handle];
        let module = self.module;
        write_entity(
            serializer,
            &function.fields,
            &[
                Container {
                    key: "allocations",
                    value: Contents::Allocations(AllocationsJson { module, allocations: &function.allocations }),
                },
                Container { key: "blocks", value: Contents::Blocks(Seq { module, handles: &function.blocks }) },
            ],
        )
    }
}

impl Serialize for EntityJson<'_, MemLocSet> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let set = &self.module.store.sets[self.handle];
        let memlocs = MemlocsJson { module: self.module, handles: &set.memlocs };
        write_entity(
            serializer,
            &set.fields,
            &[Container { key: "memorylocations", value: Contents::Memlocs(memlocs) }],
        )
    }
}

impl Serialize for EntityJson<'_, Block> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let block = &self.module.store.blocks[self.handle];
        let insts = Seq { module: self.module, handles: &block.insts };
        write_entity(serializer, &block.fields, &[Container { key: "instructions", value: Contents::Insts(insts) }])
    }
}

impl Serialize for EntityJson<'_, Inst> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let inst = &self.module.store.insts[self.handle];
        match &inst.body {
            Some(body) => {
                let blocks = Seq { module: self.module, handles: body };
                write_entity(
                    serializer,
                    &inst.fields(),
                    &[Container { key: "blocks", value: Contents::Blocks(blocks) }],
                )
            }
            None => match inst.kept_text() {
                Some(text) => Verbatim(text).serialize(serializer),
                None => inst.fields().serialize(serializer),
            },
        }
    }
}

impl Serialize for EntityJson<'_, Queue> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let queue = &self.module.store.queues[self.handle];
        let instances = Seq { module: self.module, handles: &queue.instances };
        write_entity(serializer, &queue.fields, &[Container { key: "blocks", value: Contents::Instances(instances) }])
    }
}

impl Serialize for EntityJson<'_, QueueInstance> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let instance = &self.module.store.instances[self.handle];
        let insts = Seq { module: self.module, handles: &instance.insts };
        write_entity(serializer, &instance.fields, &[Container { key: "instructions", value: Contents::Insts(insts) }])
    }
}

/// The JSON value of a module (for tests and small modules; large ones use `write_module`).
pub fn module_to_value(module: &Module) -> Value {
    serde_json::to_value(ModuleJson(module)).unwrap_or(Value::Null)
}

/// A function's JSON value (for viewers).
pub fn function_to_value(module: &Module, handle: Handle<Function>) -> Value {
    serde_json::to_value(EntityJson { module, handle }).unwrap_or(Value::Null)
}

/// A block's JSON value.
pub fn block_to_value(module: &Module, handle: Handle<Block>) -> Value {
    serde_json::to_value(EntityJson { module, handle }).unwrap_or(Value::Null)
}

/// An instruction's JSON value.
pub fn inst_to_value(module: &Module, handle: Handle<Inst>) -> Value {
    serde_json::to_value(EntityJson { module, handle }).unwrap_or(Value::Null)
}

/// A set's JSON value.
pub fn set_to_value(module: &Module, handle: Handle<MemLocSet>) -> Value {
    serde_json::to_value(EntityJson { module, handle }).unwrap_or(Value::Null)
}

/// A queue's JSON value.
pub fn queue_to_value(module: &Module, handle: Handle<Queue>) -> Value {
    serde_json::to_value(EntityJson { module, handle }).unwrap_or(Value::Null)
}

/// A queue instance's JSON value.
pub fn instance_to_value(module: &Module, handle: Handle<QueueInstance>) -> Value {
    serde_json::to_value(EntityJson { module, handle }).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::Verbatim;

    #[test]
    fn verbatim_is_written_as_it_is() {
        // Key order and spacing are the text's own: a re-serialized value would sort
        // `b` after `a` and drop nothing else.
        let text = r#"{"b":[1,2],"a":"x"}"#;
        assert_eq!(serde_json::to_string(&Verbatim(text)).unwrap(), text);
        let pretty = serde_json::to_string_pretty(&vec![Verbatim(text)]).unwrap();
        assert_eq!(pretty, format!("[\n  {text}\n]"));
        let value = serde_json::to_value(Verbatim(text)).unwrap();
        assert_eq!(value, serde_json::json!({"a": "x", "b": [1, 2]}));
    }
}
