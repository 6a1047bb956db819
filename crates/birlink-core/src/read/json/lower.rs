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
//! in cache, and hands it the children it already lowered (the parts of a document
//! read as a value — a `Loop`'s body, a container of the wrong type — are lowered from it). While an instruction is at hand the reader also records the
//! names it refers to (`uses`), for `verify`.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashSet, FxHasher};
use serde_json::Value;

use super::checks::{sync_problems, Expect, SyncProblem};
use crate::diag::codes::Code;
use crate::diag::describe::{compact, describe_value};
use crate::diag::Diagnostic;
use crate::limits::MAX_LOOP_DEPTH;
use crate::model::arena::Handle;
use crate::model::ir::escape_segment;
use crate::model::ir::{
    opcode, str_field, Allocation, Block, Container, Fields, FileId, FileText, Function, Inst, MemLoc, MemLocSet,
    Module, Op, Queue, QueueInstance, Src, Store,
};
use crate::model::pass::Pass;
use crate::model::uses::{each_ref, FunctionUses, Ref, Use, UseKind, Uses};
use crate::model::view::{remote_update, JsonView};

/// What the readers of one document share.
#[derive(Debug)]
pub(crate) struct Doc {
    /// The document's text: instructions kept as they are hold a span of it.
    pub(crate) text: FileText,
    /// Whether the document is read from its text (instructions borrowed from it), or
    /// from its parsed value.
    pub(crate) from_text: bool,
    /// Set when a container the reader streams (`functions`, `blocks`, …) appears twice
    /// in one object: a map keeps the last, and streaming has lowered both, so the
    /// document is read again from its value (`json::read_document`).
    pub(crate) repeated: std::cell::Cell<bool>,
    /// What the instructions written in place (`json::direct`'s in-place reading) point
    /// at until the text they are written in is finished and shared (empty).
    in_place: FileText,
}

impl Doc {
    pub(crate) fn new(text: FileText, from_text: bool) -> Doc {
        Doc { text, from_text, repeated: std::cell::Cell::new(false), in_place: FileText::default() }
    }
}

/// Lowers the entities of one module into its store, reporting shape problems.
pub(crate) struct Reader<'d> {
    pub(crate) file: FileId,
    store: Store,
    diags: &'d mut Vec<Diagnostic>,
    uses: Uses,
    /// The function being read, if any (queue instances are read outside one).
    function: Option<FunctionState>,
    /// The document being read.
    pub(crate) doc: &'d Doc,
    /// `json::fast`'s buffers, reused from one instruction to the next.
    scratch: Option<Box<super::fast::Scratch>>,
    /// The instructions the reader wrote again (keys out of order), as they wait for
    /// their text to be shared.
    rewritten: Rewritten,
}

/// The canonical text of the instructions the reader wrote again (a producer's key
/// order), gathered into one text per MiB instead of one allocation each: when full, and
/// when a function or the module ends, the text is shared ([`FileText`]) and each of its
/// instructions given its span of it ([`Inst::share_kept`]). Until then no one reads
/// them: the reader recorded their facts from the tape.
#[derive(Default)]
struct Rewritten {
    text: String,
    insts: Vec<Handle<Inst>>,
    /// The text the waiting instructions point at until they are shared (empty).
    waiting: FileText,
}

impl Rewritten {
    /// How much text is gathered before it is shared (allocated at once).
    const CHUNK: usize = 1 << 20;
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

fn name_hash(name: &str) -> u64 {
    let mut hasher = FxHasher::default();
    name.hash(&mut hasher);
    hasher.finish()
}

impl<'d> Reader<'d> {
    pub(crate) fn new(file: FileId, diags: &'d mut Vec<Diagnostic>, doc: &'d Doc) -> Self {
        Reader {
            file,
            store: Store::default(),
            diags,
            uses: Uses::default(),
            function: None,
            doc,
            scratch: None,
            rewritten: Rewritten::default(),
        }
    }

    /// Shares the text of the instructions written again so far (see [`Rewritten`]).
    fn share_rewritten(&mut self) {
        let Rewritten { text, insts, .. } = &mut self.rewritten;
        if insts.is_empty() {
            return;
        }
        let mut text = std::mem::take(text);
        text.shrink_to_fit();
        let shared: FileText = FileText::new(text);
        for inst in insts.drain(..) {
            self.store.insts[inst].share_kept(&shared);
        }
    }

    /// Gives the instructions written in place (see [`Self::fast_inst`]) the text they
    /// were written in, once it is finished.
    pub(crate) fn share_in_place(&mut self, text: &FileText) {
        for inst in self.store.insts.values_mut() {
            inst.share_kept_from(&self.doc.in_place, text);
        }
    }

    /// The uses recorded so far.
    pub(crate) fn into_uses(self) -> Uses {
        self.uses
    }

    /// The uses `module` (the one just read) leaves unresolved: all `verify` reports,
    /// the rest let go before the next file is read.
    pub(crate) fn into_unresolved(self, module: &Module) -> Uses {
        let mut uses = self.uses;
        uses.keep_unresolved(module);
        uses
    }

    fn src(&self, pointer: &str) -> Option<Src> {
        Some(Src::new(self.file, pointer))
    }

    pub(crate) fn report(&mut self, diagnostic: Diagnostic) {
        self.diags.push(diagnostic);
    }

    /// How many diagnostics were said so far (a mark for [`Self::say_earlier`]).
    pub(crate) fn said(&self) -> usize {
        self.diags.len()
    }

    /// Moves what was said since mark `since` before what was said since mark `at`.
    pub(crate) fn say_earlier(&mut self, at: usize, since: usize) {
        if let Some(tail) = self.diags.get_mut(at..) {
            tail.rotate_right(tail.len().saturating_sub(since - at));
        }
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
        let code = code_for(expect, value);
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
        self.share_rewritten();
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
        self.share_rewritten();
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
                    if crate::model::ir::AliasEntry::from_value(entry).is_none() {
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
            if crate::model::ir::parse_remote_target(target).is_none() {
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
        let is_loop = self.inst_checks(&fields, pointer);
        let mut body = None;
        if is_loop {
            let blocks = self.take_array(&mut fields, "blocks", "instruction", pointer);
            if !self.loop_too_deep(&fields, pointer, depth) {
                body = Some(self.blocks(blocks, pointer, depth + 1));
            }
        }
        self.inst_finish(fields, body, pointer)
    }

    /// An instruction's checks, before its body (if any) is lowered; whether it is a
    /// `Loop`. `fields` holds every key but a `Loop`'s `blocks` (no check reads them).
    pub(crate) fn inst_checks(&mut self, fields: &Fields, pointer: &str) -> bool {
        let what = "instruction";
        self.require(fields, "name", what, pointer);
        self.require(fields, "opcode", what, pointer);
        let op = fields.get("opcode").and_then(Value::as_str).unwrap_or("");
        match op {
            opcode::CALL => {
                self.check(fields, "target", Expect::String, what, pointer);
            }
            opcode::SWITCH_QUEUE_INSTANCE => {
                self.check(fields, "queue", Expect::String, what, pointer);
                self.check(fields, "instance", Expect::String, what, pointer);
            }
            opcode::CORE_BARRIER => {
                self.check(fields, "cores", Expect::Array, what, pointer);
            }
            opcode::DMA_BLOCK => {
                self.check(fields, "remote_notifications", Expect::Array, what, pointer);
            }
            _ => {}
        }
        self.sync_info(fields, pointer);
        op == opcode::LOOP
    }

    /// Whether a `Loop` at loop depth `depth` nests too deep to lower its body (said).
    pub(crate) fn loop_too_deep(&mut self, fields: &Fields, pointer: &str, depth: usize) -> bool {
        if depth < MAX_LOOP_DEPTH {
            return false;
        }
        let message = format!("{} nests more than {MAX_LOOP_DEPTH} `Loop` levels", describe("instruction", fields));
        self.report(Diagnostic::new(Code::TooDeep, Pass::Read, message).at_pointer(self.file, pointer));
        true
    }

    /// An instruction, its checks made and its body lowered: its uses recorded, itself
    /// added to the store.
    pub(crate) fn inst_finish(
        &mut self,
        fields: Fields,
        body: Option<Vec<Handle<Block>>>,
        pointer: &str,
    ) -> Handle<Inst> {
        // Uses are read from the fields now: the instruction may be kept as text.
        let handle = self.store.insts.next_handle();
        let name = fields.get("name").and_then(Value::as_str);
        let op = fields.get("opcode").and_then(Value::as_str).unwrap_or("");
        self.record_uses(handle, name, op, |key| fields.get(key));
        let src = self.src(pointer);
        self.store.insts.push(Inst::new(fields, body, src))
    }

    /// Lowers an instruction from its text (any layout, any key order), as the document's
    /// parser handed it (checked JSON): by [`super::fast`] when nothing in it is the
    /// passes' business or worth a word — no map, its canonical text kept (a span of the
    /// file when it already is that text) — and otherwise as [`Self::inst`] does; `None`
    /// for an element that is not an object (reported).
    pub(crate) fn inst_text(
        &mut self,
        text: &str,
        container: &Container,
        index: usize,
        depth: usize,
    ) -> Option<Handle<Inst>> {
        let mut scratch = self.take_scratch();
        let kept = super::fast::canonical(text, &mut scratch).and_then(|c| self.fast_inst(&c, container, index, None));
        self.give_back_scratch(scratch);
        if let Some((handle, _)) = kept {
            return Some(handle);
        }
        // JSON (the document parser checked its grammar); a number out of `f64`'s range
        // (`1e400`) is JSON to the grammar, not to serde_json's numbers: said, left out.
        let pointer = format!("{container}/{index}");
        match serde_json::from_str::<Value>(text) {
            Ok(value) => self.inst_value(value, &pointer, depth),
            Err(error) => {
                let message = format!("an instruction could not be read again ({error}): it was left out");
                self.report(Diagnostic::new(Code::InvalidJson, Pass::Read, message).at_pointer(self.file, pointer));
                None
            }
        }
    }

    /// Lowers an instruction given as a parsed value; `None` for one that is not an
    /// object (reported).
    pub(crate) fn inst_value(&mut self, value: Value, pointer: &str, depth: usize) -> Option<Handle<Inst>> {
        match value {
            Value::Object(fields) => Some(self.inst(fields, pointer, depth)),
            other => {
                self.not_an_object(&other, "an instruction", pointer);
                None
            }
        }
    }

    /// The fast path's scratch buffers, lent to a scan (given back with
    /// [`Self::give_back_scratch`]): boxed, so lending them moves a pointer.
    pub(crate) fn take_scratch(&mut self) -> Box<super::fast::Scratch> {
        self.scratch.take().unwrap_or_default()
    }

    /// Gives back what [`Self::take_scratch`] lent.
    pub(crate) fn give_back_scratch(&mut self, scratch: Box<super::fast::Scratch>) {
        self.scratch = Some(scratch);
    }

    /// [`Self::inst`] for an instruction the general path would lower without a word
    /// and keep as text: a `name` and an `opcode` that are strings, an opcode no pass acts
    /// on, a `sync_info` of the right shape. The same checks and uses, asked of the
    /// scan's tape; `None` when the general path must read it.
    ///
    /// `place`: the instruction's canonical text is written at that offset of the text
    /// being read (by the caller, when the flag returned says so), which is shared with it
    /// once finished ([`Self::share_in_place`]); else it is kept as a span of the
    /// document's text when it is one, or written to a copy.
    pub(crate) fn fast_inst(
        &mut self,
        canonical: &super::fast::Canonical<'_>,
        container: &Container,
        index: usize,
        place: Option<usize>,
    ) -> Option<(Handle<Inst>, bool)> {
        let top = canonical.top();
        let op = top.get("opcode")?.as_str()?;
        if Op::of(op) != Op::Other {
            return None;
        }
        let name = canonical.name_in(&top)?;
        let sync = top.get("sync_info");
        let mut clean = true;
        sync_problems(sync, &mut |_| clean = false);
        if !clean {
            return None;
        }
        let handle = self.store.insts.next_handle();
        self.record_uses(handle, Some(name), op, |key| top.get(key));
        let src = Some(Src::element(container, index));
        if let Some(at) = place {
            let (inst, waits) =
                Inst::kept_waiting(canonical.text, &self.doc.in_place, at, name, remote_update(sync), src);
            return Some((self.store.insts.push(inst), waits));
        }
        if canonical.unchanged {
            // The text is the input: the sync check's keys are where the tape says.
            let keys = top.keys_at(op);
            let inst = Inst::kept(canonical.text, Some(&self.doc.text), name, remote_update(sync), src, keys);
            return Some((self.store.insts.push(inst), false));
        }
        if self.rewritten.text.len() + canonical.text.len() > self.rewritten.text.capacity() {
            // Full: shared, and the next chunk allocated once (no doubling, no slack).
            self.share_rewritten();
            self.rewritten.text.reserve_exact(Rewritten::CHUNK.max(canonical.text.len()));
        }
        let rewritten = &mut self.rewritten;
        let at = rewritten.text.len();
        let (inst, waits) = Inst::kept_waiting(canonical.text, &rewritten.waiting, at, name, remote_update(sync), src);
        let handle = self.store.insts.push(inst);
        if waits {
            rewritten.text.push_str(canonical.text);
            rewritten.insts.push(handle);
        }
        Some((handle, false))
    }

    /// Records the names an instruction of the current function refers to
    /// (`uses::each_ref`, read from a map or from text alike).
    fn record_uses<'a, V: JsonView<'a>>(
        &mut self,
        handle: Handle<Inst>,
        name: Option<&str>,
        opcode: &str,
        get: impl Fn(&str) -> Option<V>,
    ) {
        let Some(state) = self.function.as_mut() else { return };
        let uses = &mut self.uses;
        if let Some(name) = name {
            state.inst_names.insert(name_hash(name));
        }
        each_ref(get, opcode, &mut |reference| match reference {
            Ref::Named(kind, name) => {
                let name = uses.intern(name);
                state.uses.push(Use { inst: handle, kind, name });
            }
            Ref::Instance { queue: _, instance } => {
                let name = uses.intern(instance);
                state.uses.push(Use { inst: handle, kind: UseKind::Instance, name });
            }
            Ref::Dependency(name) => {
                let hash = name_hash(name);
                if !state.inst_names.contains(&hash) {
                    state.pending.push((handle, hash, name.to_owned()));
                }
            }
        });
    }

    /// Reports what is wrong with an instruction's `sync_info` ([`sync_problems`], the
    /// checks the fast path asks of text).
    fn sync_info(&mut self, fields: &Fields, pointer: &str) {
        let mut problems = Vec::new();
        sync_problems(fields.get("sync_info"), &mut |problem| problems.push(problem));
        for problem in problems {
            let (code, at, message) = match problem {
                SyncProblem::Key { key: None, expect, found } => (
                    code_for(expect, found),
                    format!("{pointer}/sync_info"),
                    format!(
                        "`sync_info` of {} must be {}, found {}",
                        describe("instruction", fields),
                        expect.describe(),
                        describe_value(found)
                    ),
                ),
                SyncProblem::Key { key: Some(key), expect, found } => (
                    code_for(expect, found),
                    format!("{pointer}/sync_info/{key}"),
                    format!(
                        "`{key}` of the `sync_info` must be {}, found {}",
                        expect.describe(),
                        describe_value(found)
                    ),
                ),
                SyncProblem::Entry { index, found } => (
                    Code::WrongType,
                    format!("{pointer}/sync_info/on_update/{index}"),
                    format!(
                        "`on_update` entry {index} of {} must be an object, found {}",
                        describe("instruction", fields),
                        describe_value(found)
                    ),
                ),
                SyncProblem::EntryKey { index, key, expect, found } => (
                    code_for(expect, found),
                    format!("{pointer}/sync_info/on_update/{index}/{key}"),
                    format!(
                        "`{key}` of the `on_update` entry must be {}, found {}",
                        expect.describe(),
                        describe_value(found)
                    ),
                ),
            };
            self.report(Diagnostic::new(code, Pass::Read, message).at_pointer(self.file, at));
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

/// A wrong type is BL0003, a number that is not the integer asked for BL0006.
fn code_for(expect: Expect, found: &Value) -> Code {
    let numeric = matches!(expect, Expect::Unsigned | Expect::Signed) && found.is_number();
    if numeric {
        Code::NumberOutOfRange
    } else {
        Code::WrongType
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

/// What reading one instruction amounts to: its diagnostics (code, pointer, message),
/// its uses (kind and names, the dependencies left unresolved), its facts and the JSON
/// it is written back as. Two readings of the same instruction must give equal ones.
#[derive(Debug, PartialEq)]
pub(crate) struct InstReading {
    diagnostics: Vec<(Code, String, String)>,
    uses: Vec<String>,
    name: String,
    op: Op,
    remote_update: bool,
    written: Option<String>,
    kept: Option<String>,
}

/// Reads one instruction's text (`fast`: as the reader does, the fast path first; else
/// parsed into a map and lowered by the general path alone), inside a function of its
/// own; `None` when the text is not JSON.
pub(crate) fn read_one(text: &str, fast: bool) -> Option<InstReading> {
    let value: Value = serde_json::from_str(text).ok()?;
    let mut diags = Vec::new();
    let file_text = FileText::new(text.to_owned());
    let doc = Doc::new(FileText::clone(&file_text), true);
    let mut reader = Reader::new(FileId(0), &mut diags, &doc);
    reader.begin_function();
    let container = Container::new(FileId(0), "/instructions");
    let handle = if fast {
        reader.inst_text(&file_text, &container, 0, 0)
    } else {
        match value {
            Value::Object(fields) => Some(reader.inst(fields, "/instructions/0", 0)),
            other => {
                reader.not_an_object(&other, "an instruction", "/instructions/0");
                None
            }
        }
    };
    let blocks = Vec::new();
    reader.function(Fields::new(), "", Some(blocks));
    let store = std::mem::take(&mut reader.store);
    let uses = reader.into_uses();
    let inst = handle.map(|h| &store.insts[h]);
    let mut listed = Vec::new();
    for function in &uses.functions {
        for u in &function.uses {
            let kind = match u.kind {
                UseKind::Instance => format!(
                    "instance of `{}`",
                    inst.map(|inst| str_field(&inst.fields(), "queue").unwrap_or("").to_owned()).unwrap_or_default()
                ),
                other => format!("{other:?}"),
            };
            listed.push(format!("{kind} `{}`", uses.name(u.name)));
        }
    }
    let diagnostics = diags
        .iter()
        .map(|d| (d.code, d.src.0.as_ref().map(|s| s.pointer().into_owned()).unwrap_or_default(), d.message.clone()))
        .collect();
    Some(InstReading {
        diagnostics,
        uses: listed,
        name: inst.map(|i| i.name().to_owned()).unwrap_or_default(),
        op: inst.map(|i| i.op).unwrap_or_default(),
        remote_update: inst.is_some_and(|i| i.remote_update),
        written: inst.map(|i| serde_json::to_string(&*i.fields()).unwrap_or_default()),
        kept: inst.and_then(|i| i.kept_text()).map(str::to_owned),
    })
}
