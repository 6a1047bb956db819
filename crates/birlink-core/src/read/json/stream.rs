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

use crate::diag::codes::Code;
use crate::diag::describe::describe_value;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::ir::{Block, Fields, FileId, FileText, Function, Inst, Module, Queue, QueueInstance};
use crate::model::pass::Pass;
use crate::model::uses::Uses;
use crate::read::json::lower::{Doc, Reader};
use crate::read::json::ParseError;

/// A document of a link set, read.
#[derive(Debug)]
pub enum Document {
    /// A per-core module and the names its instructions use.
    Module(Box<Module>, Uses),
    /// A bundle: its modules (with their pointers), and its other keys.
    Bundle {
        /// Each module with its uses.
        modules: Vec<(Module, Uses)>,
        /// The bundle's other keys (`options`, `netlist`, …).
        fields: Fields,
    },
    /// Anything else (a netlist, or not a BIR document at all), as parsed.
    Other(Value),
}

/// Parses and lowers one document. Diagnostics about its shape are added only when the
/// text is well-formed JSON; otherwise the parse error says it all.
///
/// The document is read straight from its text (`json::direct`: each byte once); what
/// that reader leaves — text that is not JSON, a container given twice, a root that is
/// not an object — is read here, serde_json driving, with its words for what is wrong.
pub fn read_document(text: &FileText, file: FileId, diags: &mut Vec<Diagnostic>) -> Result<Document, ParseError> {
    if let Some((document, mut local)) = super::direct::read(text, file) {
        diags.append(&mut local);
        return Ok(document);
    }
    read_serde(text, file, diags)
}

/// [`read_document`] by the direct reader alone: `None` for a text it leaves to
/// serde_json (not JSON, a container given twice, …), with nothing said.
pub(crate) fn read_direct(text: &FileText, file: FileId) -> Option<(Document, Vec<Diagnostic>)> {
    super::direct::read(text, file)
}

/// [`read_document`] with serde_json driving, whatever the text: the reader of what the
/// direct one leaves, and its oracle.
pub(crate) fn read_serde(text: &FileText, file: FileId, diags: &mut Vec<Diagnostic>) -> Result<Document, ParseError> {
    let mut local = Vec::new();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    // Instructions are read from their text, whatever the layout (`json::fast`); those
    // kept as they are in the file hold a span of `text`.
    let doc = Doc::new(FileText::clone(text), true);
    let document = Root { file, diags: &mut local, doc: &doc }
        .deserialize(&mut deserializer)
        .and_then(|document| deserializer.end().map(|()| document))
        .map_err(|error| super::classify(&error, text))?;
    if !doc.repeated.get() {
        diags.append(&mut local);
        return Ok(document);
    }
    // A streamed container appeared twice in one object: read the document as the map
    // it parses into, which keeps the last (as every JSON reader of BIR does).
    drop(document);
    local.clear();
    let value: Value = serde_json::from_str(text).map_err(|error| super::classify(&error, text))?;
    let doc = Doc::new(FileText::clone(text), false);
    let document = Root { file, diags: &mut local, doc: &doc }
        .deserialize(value)
        .map_err(|error| super::classify(&error, text))?;
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
    /// The document (see [`read_document`]).
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
            if keys.read(&key, &mut map, &mut reader, "")? {
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

/// A document's root object, its keys read: a module (a `modules` key on it is just
/// data, written back as it came), a bundle, or anything else as its value. Both
/// readers (`json::direct`, this one) finish a root with it.
pub(super) fn finish_root(
    mut reader: Reader<'_>,
    keys: ModuleKeys,
    modules: Option<Vec<(Module, Uses)>>,
    bundle_diags: Vec<Diagnostic>,
) -> Document {
    let ModuleKeys { mut fields, functions, queues } = keys;
    if functions.is_some() || fields.contains_key("functions") {
        if let Some(list) = modules {
            let values = list.iter().map(|(m, _)| crate::output::json::module_to_value(m)).collect();
            fields.insert("modules".to_owned(), Value::Array(values));
        }
        let module = reader.module(fields, "", functions, queues);
        let uses = reader.into_uses();
        return Document::Module(Box::new(module), uses);
    }
    if let Some(modules) = modules {
        reader.report_all(bundle_diags);
        return Document::Bundle { modules, fields };
    }
    if fields.contains_key("modules") {
        reader.report_all(bundle_diags);
        return Document::Bundle { modules: Vec::new(), fields };
    }
    if queues.is_some() {
        // Not a module after all: give the queues back as data for the message.
        fields.insert("queues".to_owned(), Value::Array(Vec::new()));
    }
    Document::Other(Value::Object(fields))
}

/// A module's keys as they stream: its `functions` and `queues` lowered (a repeat of
/// either noted on the document), every other key kept. Both a module document and a
/// bundle's module read their keys through it.
#[derive(Default)]
pub(super) struct ModuleKeys {
    pub(super) fields: Fields,
    pub(super) functions: Option<Vec<Handle<Function>>>,
    pub(super) queues: Option<Vec<Handle<Queue>>>,
}

impl ModuleKeys {
    /// Reads `key`'s value if it is one a module streams; `false` for any other key
    /// (left for the caller to read).
    fn read<'de, A: MapAccess<'de>>(
        &mut self,
        key: &str,
        map: &mut A,
        reader: &mut Reader<'_>,
        pointer: &str,
    ) -> Result<bool, A::Error> {
        let (kind, seen) = match key {
            "functions" => (Kind::Functions, self.functions.is_some()),
            "queues" => (Kind::Queues, self.queues.is_some()),
            _ => return Ok(false),
        };
        if seen || self.fields.contains_key(key) {
            reader.doc.repeated.set(true);
        }
        match map.next_value_seed(Items { reader, pointer, kind })? {
            Streamed::Functions(handles) => self.functions = Some(handles),
            Streamed::Queues(handles) => self.queues = Some(handles),
            other => keep(&mut self.fields, key.to_owned(), other),
        }
        Ok(true)
    }
}

fn keep(fields: &mut Fields, key: String, streamed: Streamed) {
    if let Streamed::Raw(value) = streamed {
        fields.insert(key, value);
    }
}

impl Reader<'_> {
    pub(super) fn report_all(&mut self, diagnostics: Vec<Diagnostic>) {
        for diagnostic in diagnostics {
            self.report(diagnostic);
        }
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

/// Reports a bundle's module `index` that is not one.
pub(super) fn not_a_module(diags: &mut Vec<Diagnostic>, file: FileId, index: usize, value: &Value) {
    let message =
        format!("bundle module {index} is not a BIR module (it has no `functions`): {}", describe_value(value));
    diags.push(Diagnostic::new(Code::NotAModule, Pass::Read, message).at_pointer(file, format!("/modules/{index}")));
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
            if !keys.read(&key, &mut map, &mut reader, &pointer)? {
                let value = map.next_value::<Value>()?;
                keys.fields.insert(key, value);
            }
        }
        let ModuleKeys { fields, functions, queues } = keys;
        if functions.is_none() && !fields.contains_key("functions") {
            drop(reader);
            return Ok(self.not_a_module(&Value::Object(fields)));
        }
        let module = reader.module(fields, &pointer, functions, queues);
        Ok(Some((module, reader.into_uses())))
    }
}

/// The kinds of streamed containers.
#[derive(Clone, Copy)]
pub(super) enum Kind {
    Functions,
    Queues,
    Blocks { depth: usize },
    Insts { depth: usize },
    Instances,
}

impl Kind {
    pub(super) fn key(self) -> &'static str {
        match self {
            Kind::Functions => "functions",
            Kind::Queues => "queues",
            Kind::Blocks { .. } | Kind::Instances => "blocks",
            Kind::Insts { .. } => "instructions",
        }
    }

    pub(super) fn element(self) -> &'static str {
        match self {
            Kind::Functions => "a function",
            Kind::Queues => "a queue",
            Kind::Blocks { .. } => "a block",
            Kind::Insts { .. } => "an instruction",
            Kind::Instances => "a queue instance",
        }
    }
}

/// What a streamed container became.
pub(super) enum Streamed {
    Functions(Vec<Handle<Function>>),
    Queues(Vec<Handle<Queue>>),
    Blocks(Vec<Handle<Block>>),
    Insts(Vec<Handle<Inst>>),
    Instances(Vec<Handle<QueueInstance>>),
    /// Not an array: kept as it was.
    Raw(Value),
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
            let container: std::sync::Arc<str> = format!("{pointer}/{key}").into();
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

/// Handles collected while a container streams.
#[derive(Default)]
pub(super) struct Lowered {
    pub(super) functions: Vec<Handle<Function>>,
    pub(super) queues: Vec<Handle<Queue>>,
    pub(super) blocks: Vec<Handle<Block>>,
    pub(super) insts: Vec<Handle<Inst>>,
    pub(super) instances: Vec<Handle<QueueInstance>>,
}

impl Lowered {
    /// The handles of a container of `kind`.
    pub(super) fn streamed(self, kind: Kind) -> Streamed {
        match kind {
            Kind::Functions => Streamed::Functions(self.functions),
            Kind::Queues => Streamed::Queues(self.queues),
            Kind::Blocks { .. } => Streamed::Blocks(self.blocks),
            Kind::Insts { .. } => Streamed::Insts(self.insts),
            Kind::Instances => Streamed::Instances(self.instances),
        }
    }

    pub(super) fn push(&mut self, element: Option<One>) {
        match element {
            Some(One::Function(h)) => self.functions.push(h),
            Some(One::Queue(h)) => self.queues.push(h),
            Some(One::Block(h)) => self.blocks.push(h),
            Some(One::Instance(h)) => self.instances.push(h),
            None => {}
        }
    }
}

/// One lowered element.
pub(super) enum One {
    Function(Handle<Function>),
    Queue(Handle<Queue>),
    Block(Handle<Block>),
    Instance(Handle<QueueInstance>),
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

impl Kind {
    /// Starts an element of this kind (a function's or a queue instance's uses are
    /// recorded from here on): the key of the container streamed inside it, and that
    /// container's kind; `None` for an instruction, which is read as text.
    pub(super) fn begin(self, reader: &mut Reader<'_>) -> Option<(&'static str, Kind)> {
        match self {
            Kind::Insts { .. } => None,
            Kind::Functions => {
                reader.begin_function();
                Some(("blocks", Kind::Blocks { depth: 0 }))
            }
            Kind::Blocks { depth } => Some(("instructions", Kind::Insts { depth })),
            Kind::Queues => Some(("blocks", Kind::Instances)),
            Kind::Instances => {
                reader.begin_instance();
                Some(("instructions", Kind::Insts { depth: 0 }))
            }
        }
    }
}

/// An element whose keys are read, lowered: `children` is what its streamed container
/// became, when it was an array. Both readers (`json::direct`, this one) end an element
/// with it.
pub(super) fn lower_element(
    reader: &mut Reader<'_>,
    kind: Kind,
    fields: Fields,
    pointer: &str,
    children: Option<Streamed>,
) -> Option<One> {
    match (kind, children) {
        (Kind::Functions, Some(Streamed::Blocks(blocks))) => {
            Some(One::Function(reader.function(fields, pointer, Some(blocks))))
        }
        (Kind::Functions, _) => Some(One::Function(reader.function(fields, pointer, None))),
        (Kind::Blocks { depth }, Some(Streamed::Insts(insts))) => {
            Some(One::Block(reader.block(fields, pointer, depth, Some(insts))))
        }
        (Kind::Blocks { depth }, _) => Some(One::Block(reader.block(fields, pointer, depth, None))),
        (Kind::Queues, Some(Streamed::Instances(instances))) => {
            Some(One::Queue(reader.queue(fields, pointer, Some(instances))))
        }
        (Kind::Queues, _) => Some(One::Queue(reader.queue(fields, pointer, None))),
        (Kind::Instances, Some(Streamed::Insts(insts))) => {
            Some(One::Instance(reader.instance(fields, pointer, Some(insts))))
        }
        (Kind::Instances, _) => Some(One::Instance(reader.instance(fields, pointer, None))),
        (Kind::Insts { .. }, _) => None,
    }
}

/// One text read by both readers, each reading described ([`describe_document`], then
/// the diagnostics): the direct one's (`None` when it leaves the text to this one) and
/// this one's.
pub(crate) fn both_readings(text: &str) -> (Option<String>, String) {
    let text = FileText::new(text.to_owned());
    let describe = |document: &Document, diags: &[Diagnostic]| {
        let diags: Vec<String> = diags
            .iter()
            .map(|d| format!("{:?} {:?} {}", d.code, d.src.0.as_ref().map(|s| s.pointer()), d.message))
            .collect();
        format!("{}{}", describe_document(document), diags.join("\n"))
    };
    let direct = super::direct::read(&text, FileId(0)).map(|(document, diags)| describe(&document, &diags));
    let mut diags = Vec::new();
    let general = match read_serde(&text, FileId(0), &mut diags) {
        Ok(document) => describe(&document, &diags),
        Err(error) => format!("{error:?}"),
    };
    (direct, general)
}

/// Everything a read document holds, as text, for comparing two readings: each
/// module's JSON, its entities in store order with their pointers, its uses, a
/// bundle's other keys, or the value of anything else.
pub(crate) fn describe_document(document: &Document) -> String {
    use std::fmt::Write as _;
    let describe_module = |out: &mut String, module: &Module, uses: &Uses| {
        let _ = writeln!(out, "{}", crate::output::json::module_to_value(module));
        let _ = writeln!(out, "module at {:?}", module.src.as_ref().map(|s| s.pointer()));
        for (handle, inst) in module.store.insts.iter() {
            let pointer = inst.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(
                out,
                "inst {} {} {:?} {} {pointer:?}",
                handle.index(),
                inst.name(),
                inst.op,
                inst.remote_update
            );
        }
        for (handle, block) in module.store.blocks.iter() {
            let pointer = block.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "block {} {} {} {pointer:?}", handle.index(), block.name(), block.insts.len());
        }
        for (handle, function) in module.store.functions.iter() {
            let pointer = function.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "function {} {pointer:?}", handle.index());
        }
        for (handle, queue) in module.store.queues.iter() {
            let pointer = queue.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "queue {} {} {pointer:?}", handle.index(), queue.instances.len());
        }
        for (handle, instance) in module.store.instances.iter() {
            let pointer = instance.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "instance {} {} {pointer:?}", handle.index(), instance.insts.len());
        }
        for (handle, set) in module.store.sets.iter() {
            let pointer = set.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "set {} {} {pointer:?}", handle.index(), set.memlocs.len());
        }
        for (handle, memloc) in module.store.memlocs.iter() {
            let pointer = memloc.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "memloc {} {pointer:?}", handle.index());
        }
        for function in &uses.functions {
            let _ = write!(out, "uses of {:?}:", function.function.map(|f| f.index()));
            for u in &function.uses {
                let _ = write!(out, " {}:{:?}:{}", u.inst.index(), u.kind, uses.name(u.name));
            }
            let _ = writeln!(out);
        }
    };
    let mut out = String::new();
    match document {
        Document::Module(module, uses) => describe_module(&mut out, module, uses),
        Document::Bundle { modules, fields } => {
            let _ = writeln!(out, "bundle {}", Value::Object(fields.clone()));
            for (module, uses) in modules {
                describe_module(&mut out, module, uses);
            }
        }
        Document::Other(value) => {
            let _ = writeln!(out, "other {value}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::FileText;

    fn module(text: &FileText) -> Module {
        let mut diags = Vec::new();
        match read_document(text, FileId(0), &mut diags) {
            Ok(Document::Module(module, _)) => *module,
            other => panic!("not a module: {other:?} {diags:?}"),
        }
    }

    const INSTS: &str = r#"[{"name":"a","opcode":"Matmult"},{"opcode":"Activation","name":"b"},{"name":"c","opcode":"Call","target":"f"}]"#;

    #[test]
    fn a_compact_dump_keeps_its_common_instructions_as_spans_of_its_text() {
        let text = FileText::new(format!(
            r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b0","instructions":{INSTS}}}]}}]}}"#
        ));
        let module = module(&text);
        let range = text.as_ptr() as usize..text.as_ptr() as usize + text.len();
        let insts: Vec<&Inst> = module.store.insts.iter().map(|(_, inst)| inst).collect();
        // `a` is canonical: a span, its name inside it, no byte copied.
        let a = insts[0].kept_text().unwrap();
        assert_eq!(a, r#"{"name":"a","opcode":"Matmult"}"#);
        assert!(range.contains(&(a.as_ptr() as usize)));
        assert!(range.contains(&(insts[0].name().as_ptr() as usize)));
        // `b`'s keys are out of order: kept as the writer prints it, a copy.
        let b = insts[1].kept_text().unwrap();
        assert_eq!(b, r#"{"name":"b","opcode":"Activation"}"#);
        assert!(!range.contains(&(b.as_ptr() as usize)));
        assert_eq!(insts[1].name(), "b");
        // A `Call` is parsed: the passes change it.
        assert_eq!(insts[2].kept_text(), None);
        // Pointers share their container's text, and read as before.
        let src = insts[1].src.as_ref().unwrap();
        assert_eq!(src.pointer(), "/functions/0/blocks/0/instructions/1");
        assert_eq!(*src, crate::model::ir::Src::new(FileId(0), "/functions/0/blocks/0/instructions/1"));
    }

    #[test]
    fn a_kept_instruction_changed_by_a_pass_keeps_its_name() {
        let text = FileText::new(format!(
            r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b0","instructions":{INSTS}}}]}}]}}"#
        ));
        let mut module = module(&text);
        let handle = module.store.insts.iter().next().map(|(h, _)| h).unwrap();
        let inst = &mut module.store.insts[handle];
        inst.fields_mut().insert("added".to_owned(), Value::from(1));
        assert_eq!(inst.kept_text(), None);
        assert_eq!(inst.name(), "a");
        assert_eq!(inst.fields().get("added"), Some(&Value::from(1)));
    }

    #[test]
    fn an_indented_instruction_is_kept_as_its_compact_copy() {
        // The first instruction is indented, the second written compactly inside the
        // same pretty file: the first is copied without its whitespace, the second is a
        // span (its own text already is what the writer prints).
        let text = FileText::new(
            "{\n  \"functions\": [{\"name\":\"f\",\"blocks\":[{\"name\":\"b0\",\"instructions\":[\n    {\n      \"opcode\": \"Matmult\",\n      \"name\": \"a\"\n    },\n    {\"name\":\"b\",\"opcode\":\"Activation\"}\n  ]}]}]\n}\n"
                .to_owned(),
        );
        let module = module(&text);
        let range = text.as_ptr() as usize..text.as_ptr() as usize + text.len();
        let insts: Vec<&Inst> = module.store.insts.iter().map(|(_, inst)| inst).collect();
        let a = insts[0].kept_text().unwrap();
        assert_eq!(a, r#"{"name":"a","opcode":"Matmult"}"#);
        assert!(!range.contains(&(a.as_ptr() as usize)));
        assert_eq!(insts[0].name(), "a");
        let b = insts[1].kept_text().unwrap();
        assert!(range.contains(&(b.as_ptr() as usize)));
    }

    #[test]
    fn a_container_given_twice_keeps_the_last_as_a_map_does() {
        // The first `blocks` is streamed before the second is seen: the document is read
        // again from its value, so nothing of the first is left (no instruction, no use).
        let text = FileText::new(
            r#"{"functions":[{"name":"f","blocks":[{"name":"b0","instructions":[{"name":"x","opcode":"Matmult","queue":"q1"}]}],"blocks":[{"name":"b1","instructions":[{"name":"y","opcode":"Matmult"}]}]}]}"#
                .to_owned(),
        );
        let mut diags = Vec::new();
        let Ok(Document::Module(module, uses)) = read_document(&text, FileId(0), &mut diags) else {
            panic!("not a module: {diags:?}")
        };
        let names: Vec<&str> = module.store.insts.iter().map(|(_, inst)| inst.name()).collect();
        assert_eq!(names, ["y"]);
        assert_eq!(module.store.blocks.len(), 1);
        assert!(uses.is_empty(), "{uses:?}");
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[cfg(target_pointer_width = "64")]
    #[test]
    fn an_instruction_stays_small() {
        // A million instructions: every 8 bytes here is 8 MB of a link set's memory.
        assert!(std::mem::size_of::<Inst>() <= 104, "{}", std::mem::size_of::<Inst>());
    }
}
