//! Lowering BIR JSON into a [`Module`] (spec §1).
//!
//! The reader is tolerant the way the compiler's loader is: a missing key takes its
//! default (nothing is stored for it), an unknown key is kept in the entity's `fields`.
//! Values are *moved* into the model, never copied.
//!
//! Every shape problem becomes a diagnostic with the file and JSON pointer (line and
//! column are resolved later, in one pass over the text). Only keys the passes rely on
//! are checked; any other key is carried through whatever it holds. A value with the
//! wrong shape is left in `fields`, so even a failed read loses nothing.
//!
//! [`Reader`] lowers one entity at a time from its fields. `json::stream` drives it while
//! parsing, so each function, block and instruction is lowered while its text is still
//! in cache, and hands it the children it already lowered; [`lower_module`] drives it
//! from a parsed value. While an instruction is at hand the reader also records the
//! names it refers to (`uses`), for `verify`.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::{FxHashSet, FxHasher};
use serde_json::Value;

use crate::arena::Handle;
use crate::codes::Code;
use crate::diag::Diagnostic;
use crate::ir::{
    opcode, Allocation, Block, Fields, FileId, FileText, Function, Inst, MemLoc, MemLocSet, Module, Queue,
    QueueInstance, Src, Store,
};
use crate::limits::MAX_LOOP_DEPTH;
use crate::pass::Pass;
use crate::uses::{FunctionUses, Use, UseKind, Uses};

/// Lowers a module object (one with `functions`). `pointer` is the module's own pointer
/// in its file (empty, or `/modules/<i>` inside a bundle).
pub fn lower_module(map: Fields, file: FileId, pointer: &str, diags: &mut Vec<Diagnostic>) -> (Module, Uses) {
    let mut reader = Reader::new(file, diags, None);
    let module = reader.module(map, pointer, None, None);
    (module, reader.into_uses())
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

/// Lowers the entities of one module into its store, reporting shape problems.
pub(crate) struct Reader<'d> {
    file: FileId,
    store: Store,
    diags: &'d mut Vec<Diagnostic>,
    uses: Uses,
    /// The function being read, if any (queue instances are read outside one).
    function: Option<FunctionState>,
    /// When the document is compact, its text: instructions are then lowered from their
    /// text (`json::fast`), and those kept as they are hold a span of it.
    compact: Option<FileText>,
}

/// What the reader tracks while a function's instructions stream by.
#[derive(Default)]
struct FunctionState {
    uses: Vec<Use>,
    /// Hashes of the names of the function's instructions seen so far.
    inst_names: FxHashSet<u64>,
    /// Dependencies on names not seen yet: checked when the function ends.
    pending: Vec<(Handle<Inst>, u64, String)>,
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

fn name_hash(name: &str) -> u64 {
    let mut hasher = FxHasher::default();
    name.hash(&mut hasher);
    hasher.finish()
}

impl<'d> Reader<'d> {
    pub(crate) fn new(file: FileId, diags: &'d mut Vec<Diagnostic>, compact: Option<FileText>) -> Self {
        Reader { file, store: Store::default(), diags, uses: Uses::default(), function: None, compact }
    }

    /// Whether instructions are lowered from their text.
    pub(crate) fn compact(&self) -> bool {
        self.compact.is_some()
    }

    /// The uses recorded so far.
    pub(crate) fn into_uses(self) -> Uses {
        self.uses
    }

    fn src(&self, pointer: &str) -> Option<Src> {
        Some(Src::new(self.file, pointer))
    }

    pub(crate) fn report(&mut self, diagnostic: Diagnostic) {
        self.diags.push(diagnostic);
    }

    /// Checks `fields[key]` when present; reports and returns false on a wrong shape.
    /// `kind` describes the entity (`function`, `the module`); its name is added from
    /// `fields` only when there is something to report.
    fn check(&mut self, fields: &Fields, key: &str, expect: Expect, kind: &str, pointer: &str) -> bool {
        let Some(value) = fields.get(key) else { return true };
        if expect.accepts(value) {
            return true;
        }
        let what = describe(kind, fields);
        let at = format!("{pointer}/{}", escape_segment(key));
        let numeric = matches!(expect, Expect::Unsigned | Expect::Signed) && value.is_number();
        let code = if numeric { Code::NumberOutOfRange } else { Code::WrongType };
        let message = format!("`{key}` of {what} must be {}, found {}", expect.describe(), describe_value(value));
        self.report(Diagnostic::new(code, Pass::Read, message).at_pointer(self.file, at));
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
        self.report(Diagnostic::new(Code::MissingKey, Pass::Read, message).at_pointer(self.file, pointer.to_owned()));
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

    /// Reports an element that should be an object and is not.
    pub(crate) fn not_an_object(&mut self, value: &Value, kind: &str, pointer: &str) {
        let message = format!("{kind} must be an object, found {}", describe_value(value));
        self.report(Diagnostic::new(Code::WrongType, Pass::Read, message).at_pointer(self.file, pointer.to_owned()));
    }

    fn object(&mut self, value: Value, kind: &str, pointer: &str) -> Option<Fields> {
        match value {
            Value::Object(map) => Some(map),
            other => {
                self.not_an_object(&other, kind, pointer);
                None
            }
        }
    }

    /// Finishes a module: its checks, and its functions and queues (lowered from
    /// `fields` unless given).
    pub(crate) fn module(
        &mut self,
        mut fields: Fields,
        pointer: &str,
        functions: Option<Vec<Handle<Function>>>,
        queues: Option<Vec<Handle<Queue>>>,
    ) -> Module {
        let what = "the module";
        let functions = match functions {
            Some(functions) => functions,
            None => {
                let values = self.take_array(&mut fields, "functions", what, pointer);
                let mut handles = Vec::with_capacity(values.len());
                for (i, value) in values.into_iter().enumerate() {
                    let at = format!("{pointer}/functions/{i}");
                    if let Some(map) = self.object(value, "a function", &at) {
                        self.begin_function();
                        handles.push(self.function(map, &at, None));
                    }
                }
                handles
            }
        };
        let queues = match queues {
            Some(queues) => queues,
            None => {
                let values = self.take_array(&mut fields, "queues", what, pointer);
                let mut handles = Vec::with_capacity(values.len());
                for (i, value) in values.into_iter().enumerate() {
                    let at = format!("{pointer}/queues/{i}");
                    if let Some(map) = self.object(value, "a queue", &at) {
                        handles.push(self.queue(map, &at, None));
                    }
                }
                handles
            }
        };
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
                    Diagnostic::new(Code::UnsupportedVersion, Pass::Read, message)
                        .at_pointer(self.file, format!("{pointer}/version")),
                );
            }
        }
        let mut store = std::mem::take(&mut self.store);
        // The arenas grew by doubling; a module is held until it is linked.
        store.shrink_to_fit();
        Module { fields, functions, queues, store, src: self.src(pointer) }
    }

    /// Starts a function: its instructions' uses are recorded from here on.
    pub(crate) fn begin_function(&mut self) {
        self.function = Some(FunctionState::default());
    }

    /// Finishes a function: its allocations, its blocks (lowered from `fields` unless
    /// given), and the dependencies that only now can be resolved.
    pub(crate) fn function(
        &mut self,
        mut fields: Fields,
        pointer: &str,
        blocks: Option<Vec<Handle<Block>>>,
    ) -> Handle<Function> {
        self.require(&fields, "name", "function", pointer);
        let blocks = match blocks {
            Some(blocks) => blocks,
            None => {
                let values = self.take_array(&mut fields, "blocks", "function", pointer);
                self.blocks(values, pointer, 0)
            }
        };
        let allocations = self.take_array(&mut fields, "allocations", "function", pointer);
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
                other => {
                    self.not_an_object(other, "an allocation", &at);
                    false
                }
            };
            match value {
                Value::Object(map) if is_set => allocation_list.push(Allocation::Set(self.set(map, &at))),
                other => allocation_list.push(Allocation::Other(other)),
            }
        }
        let handle = self.store.functions.push(Function {
            fields,
            allocations: allocation_list,
            blocks,
            src: self.src(pointer),
        });
        if let Some(mut state) = self.function.take() {
            for (inst, hash, name) in std::mem::take(&mut state.pending) {
                if !state.inst_names.contains(&hash) {
                    let name = self.uses.intern(&name);
                    state.uses.push(Use { inst, kind: UseKind::MissingDependency, name });
                }
            }
            let mut uses = state.uses;
            uses.shrink_to_fit();
            self.uses.functions.push(FunctionUses { function: Some(handle), uses });
        }
        handle
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
                            Diagnostic::new(Code::WrongType, Pass::Read, message)
                                .at_pointer(self.file, format!("{pointer}/alias/{i}")),
                        );
                    }
                }
            }
        }
        if let Some(target) = fields.get("remote_local_target") {
            if crate::ir::parse_remote_target(target).is_none() {
                let numeric = match target {
                    Value::Array(items) => items.get(1).is_some_and(Value::is_number),
                    Value::Object(map) => map.get("core").is_some_and(Value::is_number),
                    _ => false,
                };
                let code = if numeric { Code::NumberOutOfRange } else { Code::WrongType };
                let message = format!(
                    "`remote_local_target` of {} must be `[name, core]` or `{{\"name\", \"core\"}}` with a non-negative integer core, found {}",
                    describe(what, &fields),
                    compact(target)
                );
                self.report(
                    Diagnostic::new(code, Pass::Read, message)
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
                handles.push(self.block(map, &at, depth, None));
            }
        }
        handles
    }

    /// Finishes a block, its instructions lowered from `fields` unless given.
    pub(crate) fn block(
        &mut self,
        mut fields: Fields,
        pointer: &str,
        depth: usize,
        insts: Option<Vec<Handle<Inst>>>,
    ) -> Handle<Block> {
        self.require(&fields, "name", "block", pointer);
        let insts = match insts {
            Some(insts) => insts,
            None => {
                let values = self.take_array(&mut fields, "instructions", "block", pointer);
                self.insts(values, pointer, depth)
            }
        };
        self.store.blocks.push(Block { fields, insts, src: self.src(pointer) })
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

    /// Lowers one instruction (and a `Loop`'s body), recording its uses.
    pub(crate) fn inst(&mut self, mut fields: Fields, pointer: &str, depth: usize) -> Handle<Inst> {
        let what = "instruction";
        self.require(&fields, "name", what, pointer);
        self.require(&fields, "opcode", what, pointer);
        let op = fields.get("opcode").and_then(Value::as_str).unwrap_or("");
        let is_loop = op == opcode::LOOP;
        match op {
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
        let mut body = None;
        if is_loop {
            let blocks = self.take_array(&mut fields, "blocks", what, pointer);
            if depth >= MAX_LOOP_DEPTH {
                let message = format!("{} nests more than {MAX_LOOP_DEPTH} `Loop` levels", describe(what, &fields));
                self.report(Diagnostic::new(Code::TooDeep, Pass::Read, message).at_pointer(self.file, pointer));
            } else {
                body = Some(self.blocks(blocks, pointer, depth + 1));
            }
        }
        // Uses are read from the fields now: the instruction may be kept as text.
        let handle = self.store.insts.next_handle();
        self.record_uses(handle, &fields);
        let src = self.src(pointer);
        self.store.insts.push(Inst::new(fields, body, src))
    }

    /// Lowers an instruction from its text: the common shape by [`super::fast`] (no
    /// map, the text kept as it is when it is canonical), anything else as [`Self::inst`]
    /// does; `None` for an element that is not an object (reported).
    pub(crate) fn inst_text(
        &mut self,
        text: &str,
        container: &Arc<str>,
        index: usize,
        depth: usize,
    ) -> Option<Handle<Inst>> {
        // Pretty or escaped text is seen at its first byte out of place, and goes the
        // general way at once.
        let shape = super::fast::shape(text);
        if shape != super::fast::Shape::Other {
            if let Some(fast) = super::fast::parse(text) {
                if crate::ir::Op::of(fast.opcode) == crate::ir::Op::Other {
                    let kept = match shape {
                        super::fast::Shape::Canonical => Some(std::borrow::Cow::Borrowed(text)),
                        _ => super::fast::sorted_object(text).map(std::borrow::Cow::Owned),
                    };
                    if let Some(kept) = kept {
                        return Some(self.fast_inst(&fast, &kept, Src::element(self.file, container, index)));
                    }
                }
            }
        }
        // Valid JSON (the document parser checked it), so this cannot fail.
        let pointer = format!("{container}/{index}");
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(fields)) => Some(self.inst(fields, &pointer, depth)),
            Ok(other) => {
                self.not_an_object(&other, "an instruction", &pointer);
                None
            }
            Err(_) => None,
        }
    }

    /// [`Self::inst`] for an instruction of the common shape: nothing to report, the same
    /// uses recorded in the same order (the map's key order), `text` (its canonical
    /// compact form) kept.
    fn fast_inst(&mut self, fast: &super::fast::FastInst<'_>, text: &str, src: Src) -> Handle<Inst> {
        let handle = self.store.insts.next_handle();
        if let Some(state) = self.function.as_mut() {
            let uses = &mut self.uses;
            state.inst_names.insert(name_hash(fast.name));
            let mut push = |kind: UseKind, name: &str| {
                let name = uses.intern(name);
                state.uses.push(Use { inst: handle, kind, name });
            };
            // As `record_uses` walks the map: keys in order.
            let mut pending = Vec::new();
            for dep in fast.dependencies.iter().flatten() {
                if let Some(name) = dep.first() {
                    pending.push(*name);
                }
            }
            let memrefs = |operands: &Option<Vec<super::fast::Operand<'_>>>, push: &mut dyn FnMut(UseKind, &str)| {
                for operand in operands.iter().flatten() {
                    if let Some(memref) = operand.memref {
                        push(UseKind::Memref, memref);
                    }
                }
            };
            let state_pending: Vec<(u64, String)> =
                pending.into_iter().map(|name| (name_hash(name), name.to_owned())).collect();
            memrefs(&fast.ins, &mut push);
            if fast.opcode == "CompareAndBranch" {
                if let Some(target) = fast.on_false {
                    push(UseKind::Block, target);
                }
                if let Some(target) = fast.on_true {
                    push(UseKind::Block, target);
                }
            }
            memrefs(&fast.outs, &mut push);
            if let Some(queue) = fast.queue {
                push(UseKind::Queue, queue);
            }
            if let (Some(target), "UnconditionalBranch") = (fast.target, fast.opcode) {
                push(UseKind::Block, target);
            }
            for (hash, name) in state_pending {
                if !state.inst_names.contains(&hash) {
                    state.pending.push((handle, hash, name));
                }
            }
        }
        let remote_update = fast
            .sync_info
            .as_ref()
            .and_then(|s| s.on_update.as_ref())
            .is_some_and(|updates| updates.iter().any(|u| u.target_core.is_some()));
        self.store.insts.push(Inst::kept(text, self.compact.as_ref(), fast.name, remote_update, Some(src)))
    }

    /// Records the names an instruction of the current function refers to.
    fn record_uses(&mut self, handle: Handle<Inst>, fields: &Fields) {
        let Some(state) = self.function.as_mut() else { return };
        let uses = &mut self.uses;
        if let Some(name) = fields.get("name").and_then(Value::as_str) {
            state.inst_names.insert(name_hash(name));
        }
        let opcode_name = fields.get("opcode").and_then(Value::as_str);
        let push = |kind: UseKind, name: &str, uses: &mut Uses, state: &mut FunctionState| {
            let name = uses.intern(name);
            state.uses.push(Use { inst: handle, kind, name });
        };
        for (key, value) in fields {
            match (key.as_str(), value) {
                ("queue", Value::String(queue)) => {
                    if opcode_name == Some(opcode::SWITCH_QUEUE_INSTANCE) {
                        if let Some(Value::String(instance)) = fields.get("instance") {
                            let queue_id = uses.intern(queue);
                            push(UseKind::Instance { queue: queue_id }, instance, uses, state);
                        }
                    }
                    push(UseKind::Queue, queue, uses, state);
                }
                ("on_true" | "on_false", Value::String(target)) if opcode_name == Some("CompareAndBranch") => {
                    push(UseKind::Block, target, uses, state)
                }
                ("target", Value::String(target)) => match opcode_name {
                    Some("UnconditionalBranch") => push(UseKind::Block, target, uses, state),
                    Some(opcode::CALL) => push(UseKind::Call, target, uses, state),
                    _ => {}
                },
                ("dependencies", Value::Array(deps)) => {
                    for dep in deps {
                        let name = match dep {
                            Value::String(name) => Some(name.as_str()),
                            Value::Array(pair) => pair.first().and_then(Value::as_str),
                            _ => None,
                        };
                        if let Some(name) = name {
                            let hash = name_hash(name);
                            if !state.inst_names.contains(&hash) {
                                state.pending.push((handle, hash, name.to_owned()));
                            }
                        }
                    }
                }
                ("ins" | "outs", Value::Array(operands)) => {
                    for operand in operands {
                        if let Some(memref) = operand.get("memref").and_then(Value::as_str) {
                            push(UseKind::Memref, memref, uses, state);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn sync_info(&mut self, fields: &Fields, pointer: &str) {
        if !self.check(fields, "sync_info", Expect::Object, "instruction", pointer) {
            return;
        }
        let Some(sync) = fields.get("sync_info").and_then(Value::as_object) else { return };
        let at = format!("{pointer}/sync_info");
        self.check(sync, "on_wait", Expect::Array, "the `sync_info`", &at);
        if !self.check(sync, "on_update", Expect::Array, "the `sync_info`", &at) {
            return;
        }
        let Some(Value::Array(updates)) = sync.get("on_update") else { return };
        for (i, update) in updates.iter().enumerate() {
            let at = format!("{pointer}/sync_info/on_update/{i}");
            let Some(entry) = update.as_object() else {
                let message = format!(
                    "`on_update` entry {i} of {} must be an object, found {}",
                    describe("instruction", fields),
                    describe_value(update)
                );
                self.report(Diagnostic::new(Code::WrongType, Pass::Read, message).at_pointer(self.file, at));
                continue;
            };
            self.check(entry, "target_core", Expect::Unsigned, "the `on_update` entry", &at);
            self.check(entry, "type", Expect::String, "the `on_update` entry", &at);
            self.check(entry, "mode", Expect::String, "the `on_update` entry", &at);
        }
    }

    /// Finishes a queue, its instances lowered from `fields` unless given.
    pub(crate) fn queue(
        &mut self,
        mut fields: Fields,
        pointer: &str,
        instances: Option<Vec<Handle<QueueInstance>>>,
    ) -> Handle<Queue> {
        self.require(&fields, "name", "queue", pointer);
        let instances = match instances {
            Some(instances) => instances,
            None => {
                let values = self.take_array(&mut fields, "blocks", "queue", pointer);
                let mut handles = Vec::with_capacity(values.len());
                for (i, value) in values.into_iter().enumerate() {
                    let at = format!("{pointer}/blocks/{i}");
                    if let Some(map) = self.object(value, "a queue instance", &at) {
                        handles.push(self.instance(map, &at, None));
                    }
                }
                handles
            }
        };
        self.store.queues.push(Queue { fields, instances, src: self.src(pointer) })
    }

    /// Starts a queue instance: no function is being read.
    pub(crate) fn begin_instance(&mut self) {
        self.function = None;
    }

    /// Finishes a queue instance, its instructions lowered from `fields` unless given.
    pub(crate) fn instance(
        &mut self,
        mut fields: Fields,
        pointer: &str,
        insts: Option<Vec<Handle<Inst>>>,
    ) -> Handle<QueueInstance> {
        self.check(&fields, "name", Expect::String, "queue instance", pointer);
        let insts = match insts {
            Some(insts) => insts,
            None => {
                self.begin_instance();
                let values = self.take_array(&mut fields, "instructions", "queue instance", pointer);
                self.insts(values, pointer, 0)
            }
        };
        self.store.instances.push(QueueInstance { fields, insts, src: self.src(pointer) })
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
pub(crate) fn describe_value(value: &Value) -> String {
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
