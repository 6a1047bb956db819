//! Parsing and lowering in one pass.
//!
//! Building the whole `serde_json::Value` tree of a file and lowering it afterwards walks
//! every value twice, the second time long after it left the cache. Here serde drives
//! [`Reader`] directly: the containers (a module's `functions` and `queues`, a function's
//! `blocks`, a block's `instructions`, a queue's instances, a bundle's `modules`) are
//! streamed, and each function, block and instruction is lowered as soon as its JSON has
//! been parsed. Leaves (an instruction's map, a set, a memory location) are still parsed
//! into values first; they are small and stay hot.
//!
//! A container whose JSON type is wrong is kept as a raw value, so the reader reports it
//! exactly as it does for parsed input (`json::read`), and nothing is lost.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;

use super::document::{finish_root, lower_element, not_a_module, Document, Kind, Lowered, ModuleKeys, One, Streamed};
use super::lower::{Doc, Reader};
use super::parse::{classify, ParseError};
use crate::diag::Diagnostic;
use crate::model::ir::{Fields, FileId, FileText, Module};
use crate::model::uses::Uses;

/// Reads a document with serde_json driving, whatever the text: the reader of what the
/// direct one leaves, and its oracle (`json::read_serde`).
pub(super) fn read(text: &FileText, file: FileId, diags: &mut Vec<Diagnostic>) -> Result<Document, ParseError> {
    let mut local = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // Instructions are read from their text, whatever the layout (`json::fast`); those
    // kept as they are in the file hold a span of `text`.
    let doc = Doc::new(FileText::clone(text), true);
    let document = Root { file, diags: &mut local, doc: &doc }
        .deserialize(&mut deserializer)
        .and_then(|document| deserializer.end().map(|()| document))
        .map_err(|error| classify(&error, text))?;
    if !doc.repeated.get() {
        diags.append(&mut local);
        return Ok(document);
    }
    // A streamed container appeared twice in one object: read the document as the map
    // it parses into, which keeps the last (as every JSON reader of BIR does).
    drop(document);
    local.clear();
    let value: Value = serde_json::from_str(text).map_err(|error| classify(&error, text))?;
    let doc = Doc::new(FileText::clone(text), false);
    let document =
        Root { file, diags: &mut local, doc: &doc }.deserialize(value).map_err(|error| classify(&error, text))?;
    diags.append(&mut local);
    Ok(document)
}

/// Builds the value of whatever the visitor was handed instead of what it wanted.
macro_rules! keep_as_value {
    ($wrap:expr) => {
        fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::Bool(v)))
        }
        fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::from(v)))
        }
        fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::from(v)))
        }
        fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
            Ok($wrap(self, serde_json::Number::from_f64(v).map(Value::Number).unwrap_or(Value::Null)))
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::String(v.to_owned())))
        }
        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::String(v)))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::Null))
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok($wrap(self, Value::Null))
        }
    };
}

/// A container that is not an array.
fn raw_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Value, A::Error> {
    Value::deserialize(SeqAccessDeserializer::new(seq))
}

fn raw_map<'de, A: MapAccess<'de>>(map: A) -> Result<Value, A::Error> {
    Value::deserialize(MapAccessDeserializer::new(map))
}

/// The document root.
struct Root<'d> {
    file: FileId,
    diags: &'d mut Vec<Diagnostic>,
    /// The document (see [`read`]).
    doc: &'d Doc,
}

impl<'de> DeserializeSeed<'de> for Root<'_> {
    type Value = Document;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Document, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Root<'_> {
    type Value = Document;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a BIR module, a bundle or a netlist")
    }

    keep_as_value!(|_, value| Document::Other(value));

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Document, A::Error> {
        Ok(Document::Other(raw_seq(seq)?))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut bundle_diags = Vec::new();
        let mut reader = Reader::new(self.file, self.diags, self.doc);
        let mut keys = ModuleKeys::default();
        let mut modules = None;
        while let Some(key) = map.next_key::<String>()? {
            if read_module_key(&mut keys, &key, &mut map, &mut reader, "")? {
                continue;
            }
            if key == "modules" {
                if modules.is_some() || keys.fields.contains_key(&key) {
                    self.doc.repeated.set(true);
                }
                match map.next_value_seed(Modules { file: self.file, diags: &mut bundle_diags, doc: self.doc })? {
                    Ok(list) => modules = Some(list),
                    Err(value) => {
                        keys.fields.insert(key, value);
                    }
                }
            } else {
                let value = map.next_value::<Value>()?;
                keys.fields.insert(key, value);
            }
        }
        Ok(finish_root(reader, keys, modules, bundle_diags))
    }
}

/// Reads `key`'s value into a module's keys if it is one a module streams; `false` for
/// any other key (left for the caller to read).
fn read_module_key<'de, A: MapAccess<'de>>(
    keys: &mut ModuleKeys,
    key: &str,
    map: &mut A,
    reader: &mut Reader<'_>,
    pointer: &str,
) -> Result<bool, A::Error> {
    let (kind, seen) = match key {
        "functions" => (Kind::Functions, keys.functions.is_some()),
        "queues" => (Kind::Queues, keys.queues.is_some()),
        _ => return Ok(false),
    };
    if seen || keys.fields.contains_key(key) {
        reader.doc.repeated.set(true);
    }
    let said = keys.reading(key, reader);
    match map.next_value_seed(Items { reader, pointer, kind })? {
        Streamed::Functions(handles) => keys.functions = Some(handles),
        Streamed::Queues(handles) => keys.queues = Some(handles),
        other => keep(&mut keys.fields, key.to_owned(), other),
    }
    keys.read(key, said, reader);
    Ok(true)
}

fn keep(fields: &mut Fields, key: String, streamed: Streamed) {
    if let Streamed::Raw(value) = streamed {
        fields.insert(key, value);
    }
}

/// A bundle's `modules`: each module read with its own reader.
struct Modules<'d> {
    file: FileId,
    diags: &'d mut Vec<Diagnostic>,
    doc: &'d Doc,
}

impl<'de> DeserializeSeed<'de> for Modules<'_> {
    type Value = Result<Vec<(Module, Uses)>, Value>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Modules<'_> {
    type Value = Result<Vec<(Module, Uses)>, Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of modules")
    }

    keep_as_value!(|_, value| Err(value));

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Ok(Err(raw_map(map)?))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut modules = Vec::new();
        let mut index = 0;
        while let Some(module) =
            seq.next_element_seed(BundleModule { file: self.file, diags: &mut *self.diags, index, doc: self.doc })?
        {
            modules.extend(module);
            index += 1;
        }
        Ok(Ok(modules))
    }
}

/// One module of a bundle.
struct BundleModule<'d> {
    file: FileId,
    diags: &'d mut Vec<Diagnostic>,
    index: usize,
    doc: &'d Doc,
}

impl BundleModule<'_> {
    fn not_a_module(self, value: &Value) -> Option<(Module, Uses)> {
        not_a_module(self.diags, self.file, self.index, value);
        None
    }
}

impl<'de> DeserializeSeed<'de> for BundleModule<'_> {
    type Value = Option<(Module, Uses)>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BundleModule<'_> {
    type Value = Option<(Module, Uses)>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a BIR module")
    }

    keep_as_value!(|this: Self, value: Value| this.not_a_module(&value));

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let value = raw_seq(seq)?;
        Ok(self.not_a_module(&value))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let pointer = format!("/modules/{}", self.index);
        let mut reader = Reader::new(self.file, &mut *self.diags, self.doc);
        let mut keys = ModuleKeys::default();
        while let Some(key) = map.next_key::<String>()? {
            if !read_module_key(&mut keys, &key, &mut map, &mut reader, &pointer)? {
                let value = map.next_value::<Value>()?;
                keys.fields.insert(key, value);
            }
        }
        let ModuleKeys { fields, functions, queues, .. } = keys;
        if functions.is_none() && !fields.contains_key("functions") {
            drop(reader);
            return Ok(self.not_a_module(&Value::Object(fields)));
        }
        let module = reader.module(fields, &pointer, functions, queues);
        let uses = reader.into_unresolved(&module);
        Ok(Some((module, uses)))
    }
}

/// A container: an array whose elements are lowered one by one.
struct Items<'a, 'd> {
    reader: &'a mut Reader<'d>,
    pointer: &'a str,
    kind: Kind,
}

impl<'de> DeserializeSeed<'de> for Items<'_, '_> {
    type Value = Streamed;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Streamed, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Items<'_, '_> {
    type Value = Streamed;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array")
    }

    keep_as_value!(|_, value| Streamed::Raw(value));

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Streamed, A::Error> {
        Ok(Streamed::Raw(raw_map(map)?))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Streamed, A::Error> {
        let Items { reader, pointer, kind } = self;
        let key = kind.key();
        let mut lowered = Lowered::default();
        let mut index = 0usize;
        if let Kind::Insts { depth } = kind {
            // Instructions are leaves: each is taken as its text (borrowed from the file)
            // and lowered from it, by the fast path when it has the common shape.
            // Their pointers share the container's.
            let container = crate::model::ir::Container::new(reader.file, format!("{pointer}/{key}"));
            if reader.doc.from_text {
                while let Some(raw) = seq.next_element::<&'de serde_json::value::RawValue>()? {
                    if let Some(inst) = reader.inst_text(raw.get(), &container, index, depth) {
                        lowered.insts.push(inst);
                    }
                    index += 1;
                }
            } else {
                // Read from a parsed value (see `read_document`): each one lowered from it.
                while let Some(value) = seq.next_element::<Value>()? {
                    let at = format!("{container}/{index}");
                    match value {
                        Value::Object(fields) => lowered.insts.push(reader.inst(fields, &at, depth)),
                        other => reader.not_an_object(&other, "an instruction", &at),
                    }
                    index += 1;
                }
            }
            return Ok(Streamed::Insts(lowered.insts));
        }
        loop {
            let at = format!("{pointer}/{key}/{index}");
            let Some(element) = seq.next_element_seed(Element { reader: &mut *reader, pointer: &at, kind })? else {
                break;
            };
            lowered.push(element);
            index += 1;
        }
        Ok(lowered.streamed(kind))
    }
}

/// One element of a container: an object, lowered as soon as it is parsed.
struct Element<'a, 'd> {
    reader: &'a mut Reader<'d>,
    pointer: &'a str,
    kind: Kind,
}

impl Element<'_, '_> {
    fn not_an_object(self, value: &Value) -> Option<One> {
        self.reader.not_an_object(value, self.kind.element(), self.pointer);
        None
    }
}

impl<'de> DeserializeSeed<'de> for Element<'_, '_> {
    type Value = Option<One>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<One>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Element<'_, '_> {
    type Value = Option<One>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    keep_as_value!(|this: Self, value: Value| this.not_an_object(&value));

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<One>, A::Error> {
        let value = raw_seq(seq)?;
        Ok(self.not_an_object(&value))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<One>, A::Error> {
        let Element { reader, pointer, kind } = self;
        // Instructions are read as text by `Items`, never one by one here.
        let Some((streamed_key, inner)) = kind.begin(reader) else { return Ok(None) };
        let mut fields = Fields::new();
        let mut children = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == streamed_key {
                if children.is_some() || fields.contains_key(&key) {
                    reader.doc.repeated.set(true);
                }
                match map.next_value_seed(Items { reader: &mut *reader, pointer, kind: inner })? {
                    Streamed::Raw(value) => {
                        fields.insert(key, value);
                    }
                    streamed => children = Some(streamed),
                }
            } else {
                let value = map.next_value::<Value>()?;
                fields.insert(key, value);
            }
        }
        Ok(lower_element(reader, kind, fields, pointer, children))
    }
}
