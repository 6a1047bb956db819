//! Lowering a parsed BIR JSON document into a [`Module`] (contract §1).
//!
//! The reader is tolerant the way the compiler's loader is: a missing key takes its
//! default (nothing is stored for it), an unknown key is kept in the entity's `fields`.
//! Values are *moved* out of the parsed document, never copied, so reading costs little
//! more than parsing.
//!
//! Every shape problem becomes a diagnostic with the file and JSON pointer (line and
//! column are resolved later, in one pass over the text). Only keys the passes rely on
//! are checked; any other key is carried through whatever it holds. A value with the
//! wrong shape is left in `fields`, so even a failed read loses nothing.

use serde_json::Value;

use crate::arena::Handle;
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::ir::{
    opcode, Allocation, Block, Fields, FileId, Function, Inst, MemLoc, MemLocSet, Module, Queue, QueueInstance, Src,
    Store,
};
use crate::limits::MAX_LOOP_DEPTH;

/// Lowers a module document (an object with `functions`). `pointer` is the module's
/// own pointer in its file (empty, or `/modules/<i>` inside a bundle).
pub fn lower_module(map: Fields, file: FileId, pointer: &str, diags: &mut Vec<Diagnostic>) -> Module {
    let mut reader = Reader { file, store: Store::default(), diags };
    reader.module(map, pointer)
}

/// A JSON type name for messages (`an object`, `a string`, …).
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a fractional number",
        Value::Number(n) if n.is_i64() && n.as_i64().is_some_and(|i| i < 0) => "a negative number",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Escapes one RFC 6901 pointer segment.
pub fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

struct Reader<'d> {
    file: FileId,
    store: Store,
    diags: &'d mut Vec<Diagnostic>,
}

/// What a checked key must hold.
#[derive(Clone, Copy)]
enum Expect {
    String,
    Array,
    Object,
    Bool,
    /// A non-negative integer that fits `u64`.
    Unsigned,
    /// Any integer that fits `i64`.
    Signed,
}

impl Expect {
    fn describe(self) -> &'static str {
        match self {
            Expect::String => "a string",
            Expect::Array => "an array",
            Expect::Object => "an object",
            Expect::Bool => "a boolean",
            Expect::Unsigned => "a non-negative integer",
            Expect::Signed => "an integer",
        }
    }

    fn accepts(self, value: &Value) -> bool {
        match self {
            Expect::String => value.is_string(),
            Expect::Array => value.is_array(),
            Expect::Object => value.is_object(),
            Expect::Bool => value.is_boolean(),
            Expect::Unsigned => value.as_u64().is_some(),
            Expect::Signed => value.as_i64().is_some(),
        }
    }
}

impl Reader<'_> {
    fn src(&self, pointer: &str) -> Option<Src> {
        Some(Src { file: self.file, pointer: pointer.into() })
    }

    fn report(&mut self, diagnostic: Diagnostic) {
        self.diags.push(diagnostic);
    }

    /// Checks `fields[key]` when present; reports and returns false on a wrong shape.
    /// `kind` describes the entity (`function`, `the module`); its name is added from
    /// `fields` only when there is something to report.
    fn check(&mut self, fields: &Fields, key: &str, expect: Expect, kind: &str, pointer: &str) -> bool {
        let Some(value) = fields.get(key) else {
            return true;
        };
        if expect.accepts(value) {
            return true;
        }
        let what = describe(kind, fields);
        let at = format!("{pointer}/{}", escape_segment(key));
        let numeric = matches!(expect, Expect::Unsigned | Expect::Signed) && value.is_number();
        let code = if numeric { Code::NumberOutOfRange } else { Code::WrongType };
        let message = format!("`{key}` of {what} must be {}, found {}", expect.describe(), describe_value(value));
        self.report(Diagnostic::new(code, "read", message).at_pointer(self.file, at));
        false
    }

    /// Reports a missing required key.
    fn require(&mut self, fields: &Fields, key: &str, kind: &str, pointer: &str) -> bool {
        if fields.contains_key(key) {
            return self.check(fields, key, Expect::String, kind, pointer);
        }
        let message = if fields.contains_key("name") || kind.starts_with("the ") {
            format!("{} has no `{key}`", describe(kind, fields))
        } else {
            let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            format!("{article} {kind} has no `{key}`")
        };
        self.report(Diagnostic::new(Code::MissingKey, "read", message).at_pointer(self.file, pointer.to_owned()));
        false
    }

    /// Takes the array under `key` out of `fields`; a non-array is reported and left in place.
    fn take_array(&mut self, fields: &mut Fields, key: &str, kind: &str, pointer: &str) -> Vec<Value> {
        if !self.check(fields, key, Expect::Array, kind, pointer) {
            return Vec::new();
        }
        match fields.remove(key) {
            Some(Value::Array(items)) => items,
            // `check` accepted it, so it is an array or absent.
            _ => Vec::new(),
        }
    }

    fn object(&mut self, value: Value, kind: &str, pointer: &str) -> Option<Fields> {
        match value {
            Value::Object(map) => Some(map),
            other => {
                let message = format!("{kind} must be an object, found {}", describe_value(&other));
                self.report(
                    Diagnostic::new(Code::WrongType, "read", message).at_pointer(self.file, pointer.to_owned()),
                );
                None
            }
        }
    }

    fn module(&mut self, mut fields: Fields, pointer: &str) -> Module {
        let what = "the module";
        let functions = self.take_array(&mut fields, "functions", what, pointer);
        let queues = self.take_array(&mut fields, "queues", what, pointer);
        self.check(&fields, "name", Expect::String, what, pointer);
        self.check(&fields, "arch", Expect::String, what, pointer);
        if self.check(&fields, "attributes", Expect::Object, what, pointer) {
            if let Some(attributes) = fields.get("attributes").and_then(Value::as_object) {
                let at = format!("{pointer}/attributes");
                self.check(attributes, "neuron_core_id", Expect::Unsigned, "the module's attributes", &at);
            }
        }
        match fields.get("version") {
            None => {}
            Some(v) if v.as_u64() == Some(1) || v.as_u64() == Some(2) => {}
            Some(v) => {
                let message = format!("BIR JSON `version` is {}, expected 1 or 2", compact(v));
                self.report(
                    Diagnostic::new(Code::UnsupportedVersion, "read", message)
                        .at_pointer(self.file, format!("{pointer}/version")),
                );
            }
        }
        let mut function_handles = Vec::with_capacity(functions.len());
        for (i, value) in functions.into_iter().enumerate() {
            let at = format!("{pointer}/functions/{i}");
            if let Some(map) = self.object(value, "a function", &at) {
                function_handles.push(self.function(map, &at));
            }
        }
        let mut queue_handles = Vec::with_capacity(queues.len());
        for (i, value) in queues.into_iter().enumerate() {
            let at = format!("{pointer}/queues/{i}");
            if let Some(map) = self.object(value, "a queue", &at) {
                queue_handles.push(self.queue(map, &at));
            }
        }
        Module {
            fields,
            functions: function_handles,
            queues: queue_handles,
            store: std::mem::take(&mut self.store),
            src: self.src(pointer),
        }
    }

    fn function(&mut self, mut fields: Fields, pointer: &str) -> Handle<Function> {
        self.require(&fields, "name", "function", pointer);
        let allocations = self.take_array(&mut fields, "allocations", "function", pointer);
        let blocks = self.take_array(&mut fields, "blocks", "function", pointer);
        let mut allocation_list = Vec::with_capacity(allocations.len());
        for (i, value) in allocations.into_iter().enumerate() {
            let at = format!("{pointer}/allocations/{i}");
            let is_set = match &value {
                Value::Object(map) => match map.get("Skind") {
                    None => true,
                    Some(Value::String(kind)) => kind == "memory_location_set",
                    Some(_) => {
                        self.check(map, "Skind", Expect::String, "an allocation", &at);
                        false
                    }
                },
                _ => {
                    self.object(value.clone(), "an allocation", &at);
                    false
                }
            };
            if is_set {
                if let Value::Object(map) = value {
                    allocation_list.push(Allocation::Set(self.set(map, &at)));
                }
            } else {
                allocation_list.push(Allocation::Other(value));
            }
        }
        let block_handles = self.blocks(blocks, pointer, 0);
        self.store.functions.push(Function {
            fields,
            allocations: allocation_list,
            blocks: block_handles,
            src: self.src(pointer),
        })
    }

    fn set(&mut self, mut fields: Fields, pointer: &str) -> Handle<MemLocSet> {
        let what = "set";
        self.check(&fields, "name", Expect::String, what, pointer);
        self.check(&fields, "kind", Expect::String, what, pointer);
        self.check(&fields, "addr_space", Expect::String, what, pointer);
        let memlocs = self.take_array(&mut fields, "memorylocations", what, pointer);
        let mut handles = Vec::with_capacity(memlocs.len());
        for (i, value) in memlocs.into_iter().enumerate() {
            let at = format!("{pointer}/memorylocations/{i}");
            if let Some(map) = self.object(value, "a memory location", &at) {
                handles.push(self.memloc(map, &at));
            }
        }
        self.store.sets.push(MemLocSet { fields, memlocs: handles, src: self.src(pointer) })
    }

    fn memloc(&mut self, fields: Fields, pointer: &str) -> Handle<MemLoc> {
        let what = "memory location";
        self.require(&fields, "name", what, pointer);
        self.check(&fields, "type", Expect::String, what, pointer);
        self.check(&fields, "addr", Expect::Unsigned, what, pointer);
        self.check(&fields, "bank", Expect::Signed, what, pointer);
        self.check(&fields, "base", Expect::Unsigned, what, pointer);
        self.check(&fields, "allocated", Expect::Bool, what, pointer);
        self.check(&fields, "alloced_func", Expect::String, what, pointer);
        if self.check(&fields, "alias", Expect::Array, what, pointer) {
            if let Some(Value::Array(entries)) = fields.get("alias") {
                for (i, entry) in entries.iter().enumerate() {
                    if crate::ir::AliasEntry::from_value(entry).is_none() {
                        let message = format!(
                            "`alias` entry {i} of {} must be `[set, memloc, kind]` or `[set, memloc, kind, function]`, found {}",
                            describe(what, &fields),
                            compact(entry)
                        );
                        self.report(
                            Diagnostic::new(Code::WrongType, "read", message)
                                .at_pointer(self.file, format!("{pointer}/alias/{i}")),
                        );
                    }
                }
            }
        }
        if let Some(target) = fields.get("remote_local_target") {
            if crate::ir::parse_remote_target(target).is_none() {
                let negative = match target {
                    Value::Array(items) => items.get(1).is_some_and(Value::is_number),
                    Value::Object(map) => map.get("core").is_some_and(Value::is_number),
                    _ => false,
                };
                let code = if negative { Code::NumberOutOfRange } else { Code::WrongType };
                let message = format!(
                    "`remote_local_target` of {} must be `[name, core]` or `{{\"name\", \"core\"}}` with a non-negative integer core, found {}",
                    describe(what, &fields),
                    compact(target)
                );
                self.report(
                    Diagnostic::new(code, "read", message)
                        .at_pointer(self.file, format!("{pointer}/remote_local_target")),
                );
            }
        }
        self.store.memlocs.push(MemLoc { fields, src: self.src(pointer) })
    }

    fn blocks(&mut self, values: Vec<Value>, pointer: &str, depth: usize) -> Vec<Handle<Block>> {
        let mut handles = Vec::with_capacity(values.len());
        for (i, value) in values.into_iter().enumerate() {
            let at = format!("{pointer}/blocks/{i}");
            if let Some(map) = self.object(value, "a block", &at) {
                handles.push(self.block(map, &at, depth));
            }
        }
        handles
    }

    fn block(&mut self, mut fields: Fields, pointer: &str, depth: usize) -> Handle<Block> {
        self.require(&fields, "name", "block", pointer);
        let insts = self.take_array(&mut fields, "instructions", "block", pointer);
        let handles = self.insts(insts, pointer, depth);
        self.store.blocks.push(Block { fields, insts: handles, src: self.src(pointer) })
    }

    fn insts(&mut self, values: Vec<Value>, pointer: &str, depth: usize) -> Vec<Handle<Inst>> {
        let mut handles = Vec::with_capacity(values.len());
        for (i, value) in values.into_iter().enumerate() {
            let at = format!("{pointer}/instructions/{i}");
            if let Some(map) = self.object(value, "an instruction", &at) {
                handles.push(self.inst(map, &at, depth));
            }
        }
        handles
    }

    fn inst(&mut self, mut fields: Fields, pointer: &str, depth: usize) -> Handle<Inst> {
        let what = "instruction";
        self.require(&fields, "name", what, pointer);
        self.require(&fields, "opcode", what, pointer);
        let is_loop = fields.get("opcode").and_then(Value::as_str) == Some(opcode::LOOP);
        let op = if is_loop { opcode::LOOP } else { fields.get("opcode").and_then(Value::as_str).unwrap_or("") };
        let mut body = None;
        match op {
            opcode::LOOP => {
                let blocks = self.take_array(&mut fields, "blocks", what, pointer);
                if depth >= MAX_LOOP_DEPTH {
                    let message = format!("{} nests more than {MAX_LOOP_DEPTH} `Loop` levels", describe(what, &fields));
                    self.report(Diagnostic::new(Code::TooDeep, "read", message).at_pointer(self.file, pointer));
                } else {
                    body = Some(self.blocks(blocks, pointer, depth + 1));
                }
            }
            opcode::CALL => {
                self.check(&fields, "target", Expect::String, what, pointer);
            }
            opcode::SWITCH_QUEUE_INSTANCE => {
                self.check(&fields, "queue", Expect::String, what, pointer);
                self.check(&fields, "instance", Expect::String, what, pointer);
            }
            opcode::CORE_BARRIER => {
                self.check(&fields, "cores", Expect::Array, what, pointer);
            }
            opcode::DMA_BLOCK => {
                self.check(&fields, "remote_notifications", Expect::Array, what, pointer);
            }
            _ => {}
        }
        self.sync_info(&fields, pointer);
        self.store.insts.push(Inst::new(fields, body, self.src(pointer)))
    }

    fn sync_info(&mut self, fields: &Fields, pointer: &str) {
        if !self.check(fields, "sync_info", Expect::Object, "instruction", pointer) {
            return;
        }
        let Some(sync) = fields.get("sync_info").and_then(Value::as_object) else {
            return;
        };
        let at = format!("{pointer}/sync_info");
        self.check(sync, "on_wait", Expect::Array, "the `sync_info`", &at);
        if !self.check(sync, "on_update", Expect::Array, "the `sync_info`", &at) {
            return;
        }
        let Some(Value::Array(updates)) = sync.get("on_update") else {
            return;
        };
        for (i, update) in updates.iter().enumerate() {
            let at = format!("{pointer}/sync_info/on_update/{i}");
            let Some(entry) = update.as_object() else {
                let message = format!(
                    "`on_update` entry {i} of {} must be an object, found {}",
                    describe("instruction", fields),
                    describe_value(update)
                );
                self.report(Diagnostic::new(Code::WrongType, "read", message).at_pointer(self.file, at));
                continue;
            };
            self.check(entry, "target_core", Expect::Unsigned, "the `on_update` entry", &at);
            self.check(entry, "type", Expect::String, "the `on_update` entry", &at);
            self.check(entry, "mode", Expect::String, "the `on_update` entry", &at);
        }
    }

    fn queue(&mut self, mut fields: Fields, pointer: &str) -> Handle<Queue> {
        self.require(&fields, "name", "queue", pointer);
        let instances = self.take_array(&mut fields, "blocks", "queue", pointer);
        let mut handles = Vec::with_capacity(instances.len());
        for (i, value) in instances.into_iter().enumerate() {
            let at = format!("{pointer}/blocks/{i}");
            if let Some(map) = self.object(value, "a queue instance", &at) {
                handles.push(self.instance(map, &at));
            }
        }
        self.store.queues.push(Queue { fields, instances: handles, src: self.src(pointer) })
    }

    fn instance(&mut self, mut fields: Fields, pointer: &str) -> Handle<QueueInstance> {
        self.check(&fields, "name", Expect::String, "queue instance", pointer);
        let insts = self.take_array(&mut fields, "instructions", "queue instance", pointer);
        let handles = self.insts(insts, pointer, 0);
        self.store.instances.push(QueueInstance { fields, insts: handles, src: self.src(pointer) })
    }
}

/// `function `sg0000``, `instruction without a name`, or `the module` as is.
fn describe(kind: &str, fields: &Fields) -> String {
    if kind.starts_with("the ") {
        kind.to_owned()
    } else {
        format!("{kind} {}", quoted_name(fields))
    }
}

/// `` `name` `` for messages, or `without a name`.
fn quoted_name(fields: &Fields) -> String {
    match fields.get("name").and_then(Value::as_str) {
        Some(name) => format!("`{name}`"),
        None => "without a name".to_owned(),
    }
}

/// A value for a message: its type, and its text when short.
fn describe_value(value: &Value) -> String {
    let text = compact(value);
    if text.len() <= 40 {
        format!("{} `{text}`", type_name(value))
    } else {
        type_name(value).to_owned()
    }
}

/// Compact JSON text of a value, cut to 60 characters.
pub fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}
