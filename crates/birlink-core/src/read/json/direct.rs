//! A document read straight from its text: every byte read once.
//!
//! `json::stream` lets serde_json drive: serde_json checks every byte of an instruction
//! to hand its text over, and `json::fast` reads that text again. Here the document's
//! skeleton — the root, a bundle's `modules`, a module's `functions` and `queues`, their
//! `blocks`, `instructions` and queue instances, a `Loop`'s body — is walked directly,
//! and each instruction is read by `json::fast` where it lies, which checks it as JSON
//! while it reads it. Everything else (a function's `allocations`, a module's
//! `attributes`, any unknown key) is a leaf, parsed by serde_json in place.
//!
//! The entities are lowered as `json::stream` lowers them — the same `Reader` calls in
//! the same order — so both readers give the same module, uses and diagnostics
//! (`selfcheck::direct_agrees` is the oracle). Anything unusual — text that is not JSON
//! or nests too deep, a streamed container given twice, a root that is not an object —
//! makes [`read`] answer [`Left::Serde`], and `json::stream` reads the document: it
//! has serde_json's words for what is wrong, and the rules for what is odd.
//!
//! A document whose instructions are not what the writer prints (a producer's key
//! order) is best read in place ([`read_in_place`]), when the caller can read the file
//! again: each instruction's canonical text is written over the bytes it was read from,
//! behind the cursor, and the instructions share the bytes so written, so the file's
//! text and a rewritten copy of it are never held together. [`read`] can be asked to
//! tell, from its first instructions, that a document is such a one ([`Left::InPlace`]).

use serde_json::Value;

use super::document::{finish_root, lower_element, not_a_module, Document, Kind, Lowered, ModuleKeys, One};
use super::fast::{self, Scanned, MAX_NESTING};
use super::lower::{Doc, Reader};
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::ir::{opcode, Container, Fields, FileId, FileText, Inst, Module};
use crate::model::uses::Uses;

/// Why the direct reader left a document.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Left {
    /// For `json::stream`: not JSON, a container given twice, a root that is not an object.
    Serde,
    /// Asked to ([`read_or_leave_in_place`]): one of its first instructions is not in the
    /// writer's form, so [`read_in_place`] is the reading that holds the least.
    InPlace,
}

/// Reads a document from its text, with the diagnostics about its shape; [`Left::Serde`]
/// when `json::stream` must read it.
pub(super) fn read(text: &FileText, file: FileId) -> Result<(Document, Vec<Diagnostic>), Left> {
    read_probing(text, file, false)
}

/// [`read`], but giving up ([`Left::InPlace`]) when one of the first [`PROBED`]
/// instructions outside a bundle's module is one the writer would print otherwise (a
/// producer's key order, or whitespace): [`read_in_place`] holds less then. What was
/// read is dropped, so the caller holds the text alone again.
pub(super) fn read_or_leave_in_place(text: &FileText, file: FileId) -> Result<(Document, Vec<Diagnostic>), Left> {
    read_probing(text, file, true)
}

fn read_probing(text: &FileText, file: FileId, probe: bool) -> Result<(Document, Vec<Diagnostic>), Left> {
    read_keeping(text, file, probe, None)
}

/// Which instructions a reading keeps: those whose text (as it lies in the document)
/// this says yes to; the others are passed over by their brackets and strings alone,
/// neither checked nor lowered.
pub(super) type Keep<'k> = &'k dyn Fn(&[u8]) -> bool;

/// [`read`], keeping only the instructions `keep` says yes to (every one when `None`):
/// what an entity's history reads of a dump (`tools::history`). Everything but the
/// instructions passed over is read as [`read`] reads it.
pub(super) fn read_keeping(
    text: &FileText,
    file: FileId,
    probe: bool,
    keep: Option<Keep<'_>>,
) -> Result<(Document, Vec<Diagnostic>), Left> {
    let doc = Doc::new(FileText::clone(text), true);
    let mut cursor = Cursor::new(Text::Shared(text), probe);
    cursor.keep = keep;
    match document(&mut cursor, file, &doc) {
        Some(read) => Ok(read),
        None if cursor.wants_in_place => Err(Left::InPlace),
        None => Err(Left::Serde),
    }
}

/// [`read`], writing each instruction's canonical text over the text it was read from:
/// the instructions kept as text share what the document's bytes become, and no second
/// text is held beside them (a producer's key order is otherwise written out to copies
/// while the whole file is held). `None` for a document [`read`] leaves to
/// `json::stream`: the text is lost by then, and the caller reads the file again.
///
/// An instruction's canonical text is never longer than what it was read from but for a
/// number printed longer (`1e3` is `1000.0`): such a one is written to a copy, as
/// [`read`] writes them. Bytes are read as text piece by piece (safe code may not hold a
/// text it writes to as `str`): each instruction once, each key and leaf as serde_json
/// reads bytes. Instructions of a bundle's modules are not written in place (a module is
/// finished before the bytes are), so a bundle holds what [`read`] holds.
pub(super) fn read_in_place(text: String, file: FileId) -> Option<(Document, Vec<Diagnostic>)> {
    let doc = Doc::new(FileText::default(), true);
    let mut cursor = Cursor::new(Text::Owned(text.into_bytes()), false);
    document(&mut cursor, file, &doc)
}

/// The document at `cursor`, a module or a bundle (or any other object).
fn document(cursor: &mut Cursor<'_>, file: FileId, doc: &Doc) -> Option<(Document, Vec<Diagnostic>)> {
    cursor.ws();
    if cursor.peek() != Some(b'{') {
        return None;
    }
    let mut diags = Vec::new();
    let mut bundle_diags = Vec::new();
    let mut reader = Reader::new(file, &mut diags, doc);
    let mut keys = ModuleKeys::default();
    let mut modules = None;
    cursor.members(&mut |cursor, key| match key {
        "functions" | "queues" => module_key(cursor, &mut reader, &mut keys, key, ""),
        "modules" if modules.is_some() || keys.fields.contains_key(key) => None,
        "modules" if cursor.peek() == Some(b'[') => {
            cursor.in_bundle = true;
            modules = Some(bundle_modules(cursor, file, &mut bundle_diags, doc)?);
            cursor.in_bundle = false;
            Some(())
        }
        _ => cursor.leaf_into(&mut keys.fields, key),
    })?;
    cursor.ws();
    if cursor.i != cursor.text.bytes().len() {
        return None;
    }
    if let Text::Owned(bytes) = &mut cursor.text {
        // Every byte up to `w` is an instruction's text, written whole: UTF-8.
        let mut bytes = std::mem::take(bytes);
        bytes.truncate(cursor.w);
        bytes.shrink_to_fit();
        let text = FileText::new(String::from_utf8(bytes).ok()?);
        reader.share_in_place(&text);
    }
    let document = finish_root(reader, keys, modules, bundle_diags);
    Some((document, diags))
}

/// A module's `functions` or `queues` (any other key is the caller's).
fn module_key(
    cursor: &mut Cursor<'_>,
    reader: &mut Reader<'_>,
    keys: &mut ModuleKeys,
    key: &str,
    pointer: &str,
) -> Option<()> {
    let (kind, seen) = match key {
        "functions" => (Kind::Functions, keys.functions.is_some()),
        _ => (Kind::Queues, keys.queues.is_some()),
    };
    if seen || keys.fields.contains_key(key) {
        // Given twice: a map keeps the last, which `json::stream` knows how to read.
        return None;
    }
    if cursor.peek() != Some(b'[') {
        return cursor.leaf_into(&mut keys.fields, key);
    }
    let said = keys.reading(key, reader);
    let lowered = items(cursor, reader, pointer, kind)?;
    match kind {
        Kind::Functions => keys.functions = Some(lowered.functions),
        _ => keys.queues = Some(lowered.queues),
    }
    keys.read(key, said, reader);
    Some(())
}

/// A bundle's `modules`, each module read with its own reader.
fn bundle_modules(
    cursor: &mut Cursor<'_>,
    file: FileId,
    diags: &mut Vec<Diagnostic>,
    doc: &Doc,
) -> Option<Vec<(Module, Uses)>> {
    let mut modules = Vec::new();
    cursor.elements(&mut |cursor, index| {
        if cursor.peek() != Some(b'{') {
            let value = cursor.leaf()?;
            not_a_module(diags, file, index, &value);
            return Some(());
        }
        let pointer = format!("/modules/{index}");
        let mut reader = Reader::new(file, &mut *diags, doc);
        let mut keys = ModuleKeys::default();
        cursor.members(&mut |cursor, key| match key {
            "functions" | "queues" => module_key(cursor, &mut reader, &mut keys, key, &pointer),
            _ => cursor.leaf_into(&mut keys.fields, key),
        })?;
        let ModuleKeys { fields, functions, queues, .. } = keys;
        if functions.is_none() && !fields.contains_key("functions") {
            drop(reader);
            not_a_module(diags, file, index, &Value::Object(fields));
            return Some(());
        }
        let module = reader.module(fields, &pointer, functions, queues);
        let uses = reader.into_unresolved(&module);
        modules.push((module, uses));
        Some(())
    })?;
    Some(modules)
}

/// A container (an array), each element lowered as it is read.
fn items(cursor: &mut Cursor<'_>, reader: &mut Reader<'_>, pointer: &str, kind: Kind) -> Option<Lowered> {
    let mut lowered = Lowered::default();
    if let Kind::Insts { depth } = kind {
        // Their pointers share the container's.
        let container = Container::new(reader.file, format!("{pointer}/{}", kind.key()));
        cursor.elements(&mut |cursor, index| {
            lowered.insts.extend(inst(cursor, reader, &container, index, depth)?);
            Some(())
        })?;
        return Some(lowered);
    }
    cursor.elements(&mut |cursor, index| {
        let at = format!("{pointer}/{}/{index}", kind.key());
        lowered.push(element(cursor, reader, &at, kind)?);
        Some(())
    })?;
    Some(lowered)
}

/// One element of a container: an object, lowered once its keys are read.
fn element(cursor: &mut Cursor<'_>, reader: &mut Reader<'_>, pointer: &str, kind: Kind) -> Option<Option<One>> {
    if cursor.peek() != Some(b'{') {
        let value = cursor.leaf()?;
        reader.not_an_object(&value, kind.element(), pointer);
        return Some(None);
    }
    let (streamed_key, inner) = kind.begin(reader)?;
    // A block of a `Loop`'s body: its own checks are said before its instructions', as
    // the general path (which parses the body) says them.
    let said = reader.said();
    let mut fields = Fields::new();
    let mut children = None;
    cursor.members(&mut |cursor, key| {
        if key != streamed_key {
            return cursor.leaf_into(&mut fields, key);
        }
        if children.is_some() || fields.contains_key(key) {
            return None;
        }
        if cursor.peek() != Some(b'[') {
            return cursor.leaf_into(&mut fields, key);
        }
        children = Some(items(cursor, reader, pointer, inner)?.streamed(inner));
        Some(())
    })?;
    let children_said = reader.said();
    let lowered = lower_element(reader, kind, fields, pointer, children);
    if matches!(kind, Kind::Blocks { depth } if depth > 0) {
        reader.say_earlier(said, children_said);
    }
    Some(lowered)
}

/// One instruction, read where it lies: by the fast path when it can, else parsed (a
/// `Loop`'s body streamed); `Some(None)` for an element that is not an object (said).
fn inst(
    cursor: &mut Cursor<'_>,
    reader: &mut Reader<'_>,
    container: &Container,
    index: usize,
    depth: usize,
) -> Option<Option<Handle<Inst>>> {
    let start = cursor.i;
    if let Some(keep) = cursor.keep {
        let end = fast::skip(cursor.text.bytes(), start)?;
        if !keep(cursor.text.bytes().get(start..end)?) {
            cursor.i = end;
            return Some(None);
        }
    }
    let mut scratch = reader.take_scratch();
    let mut written = None;
    let input = cursor.text.input();
    let next = match fast::scan_input(input, start, cursor.nesting, true, &mut scratch) {
        Scanned::Read { canonical, end } => {
            if cursor.probe > 0 && !cursor.in_bundle {
                // The first instructions say how the writer wrote them all.
                cursor.probe -= 1;
                if !canonical.unchanged {
                    cursor.wants_in_place = true;
                    return None;
                }
            }
            let len = canonical.text.len();
            let place = (cursor.text.is_owned() && !cursor.in_bundle && cursor.w + len <= end).then_some(cursor.w);
            let unchanged = canonical.unchanged;
            match reader.fast_inst(&canonical, container, index, place) {
                Some((handle, in_place)) => {
                    written = in_place.then_some((unchanged, len));
                    cursor.i = end;
                    Next::Done(handle)
                }
                None => {
                    cursor.i = end;
                    Next::Parse(end)
                }
            }
        }
        Scanned::General { end } => {
            cursor.i = end;
            Next::Parse(end)
        }
        Scanned::Blocks => Next::Members,
        Scanned::Invalid => Next::Invalid,
    };
    if let (Some((unchanged, len)), Text::Owned(bytes)) = (written, &mut cursor.text) {
        // Over bytes read already: `w + len` is at most where this instruction ends.
        let w = cursor.w;
        if !unchanged {
            bytes.get_mut(w..w + len)?.copy_from_slice(scratch.written());
        } else if w != start {
            bytes.copy_within(start..start + len, w);
        }
        cursor.w += len;
    }
    reader.give_back_scratch(scratch);
    let pointer = || format!("{container}/{index}");
    match next {
        Next::Done(handle) => Some(Some(handle)),
        Next::Parse(end) => {
            let value = cursor.text.value(start..end)?;
            Some(reader.inst_value(value, &pointer(), depth))
        }
        Next::Members => inst_members(cursor, reader, &pointer(), depth).map(Some),
        Next::Invalid => None,
    }
}

/// What to do with an instruction once scanned.
enum Next {
    Done(Handle<Inst>),
    Parse(usize),
    Members,
    Invalid,
}

/// An instruction with a `blocks` array, read member by member: a `Loop`'s body is
/// streamed as the function's blocks are (the general path would parse it, and every
/// instruction in it, into maps), any other `blocks` is data.
fn inst_members(cursor: &mut Cursor<'_>, reader: &mut Reader<'_>, pointer: &str, depth: usize) -> Option<Handle<Inst>> {
    let mut fields = Fields::new();
    let mut blocks = None;
    cursor.members(&mut |cursor, key| {
        if key != "blocks" {
            return cursor.leaf_into(&mut fields, key);
        }
        if blocks.is_some() || fields.contains_key(key) {
            return None;
        }
        if cursor.peek() != Some(b'[') {
            return cursor.leaf_into(&mut fields, key);
        }
        // The opcode may come later: the body is read once it is known (nothing is
        // written over it before: only instructions are, and it holds this one's).
        blocks = Some((cursor.i, cursor.nesting));
        cursor.i = fast::skip(cursor.text.bytes(), cursor.i)?;
        Some(())
    })?;
    let body = blocks?;
    let after = (cursor.i, cursor.nesting);
    (cursor.i, cursor.nesting) = body;
    let inst = if fields.get("opcode").and_then(Value::as_str) != Some(opcode::LOOP) {
        let blocks = cursor.leaf()?;
        fields.insert("blocks".to_owned(), blocks);
        reader.inst(fields, pointer, depth)
    } else {
        reader.inst_checks(&fields, pointer);
        let lowered = if reader.loop_too_deep(&fields, pointer, depth) {
            // Not lowered, but JSON all the same.
            cursor.leaf()?;
            None
        } else {
            Some(items(cursor, reader, pointer, Kind::Blocks { depth: depth + 1 })?.blocks)
        };
        reader.inst_finish(fields, lowered, pointer)
    };
    (cursor.i, cursor.nesting) = after;
    Some(inst)
}

/// The document's text as the cursor holds it.
enum Text<'t> {
    /// Borrowed: read, never written.
    Shared(&'t str),
    /// Owned bytes, instructions written over them as they are read ([`read_in_place`]).
    Owned(Vec<u8>),
}

impl Text<'_> {
    #[inline]
    fn bytes(&self) -> &[u8] {
        self.input().bytes()
    }

    #[inline]
    fn input(&self) -> fast::Input<'_> {
        match self {
            Text::Shared(text) => fast::Input::Text(text),
            Text::Owned(bytes) => fast::Input::Bytes(bytes),
        }
    }

    fn is_owned(&self) -> bool {
        matches!(self, Text::Owned(_))
    }

    /// The JSON value in `range`, parsed by serde_json.
    fn value(&self, range: std::ops::Range<usize>) -> Option<Value> {
        match self {
            Text::Shared(text) => serde_json::from_str(text.get(range)?).ok(),
            Text::Owned(bytes) => serde_json::from_slice(bytes.get(range)?).ok(),
        }
    }

    /// The JSON value that starts at `at` (more may follow), parsed by serde_json, and
    /// how many bytes it takes.
    fn value_at(&self, at: usize) -> Option<(Value, usize)> {
        fn first<'de>(read: impl serde_json::de::Read<'de>) -> Option<(Value, usize)> {
            let mut values = serde_json::Deserializer::new(read).into_iter::<Value>();
            Some((values.next()?.ok()?, values.byte_offset()))
        }
        match self {
            Text::Shared(text) => first(serde_json::de::StrRead::new(text.get(at..)?)),
            Text::Owned(bytes) => first(serde_json::de::SliceRead::new(bytes.get(at..)?)),
        }
    }
}

/// How many of a document's first instructions [`read`]'s `probe` looks at: a producer
/// writes every instruction alike, but its first few may happen to be in key order (an
/// instruction of two keys).
const PROBED: u32 = 64;

/// Where the reading is in the text.
struct Cursor<'t> {
    text: Text<'t>,
    i: usize,
    /// Containers open.
    nesting: usize,
    /// Owned text: where the next instruction's canonical text is written (at most `i`).
    w: usize,
    /// Inside a bundle's `modules`.
    in_bundle: bool,
    /// How many instructions more to look at for one not in the writer's form, to give
    /// up at it ([`read`]'s `probe`).
    probe: u32,
    /// Gave up so.
    wants_in_place: bool,
    /// Only the instructions this keeps are read ([`read_keeping`]).
    keep: Option<Keep<'t>>,
}

impl<'t> Cursor<'t> {
    fn new(text: Text<'t>, probe: bool) -> Cursor<'t> {
        let probe = if probe { PROBED } else { 0 };
        Cursor { text, i: 0, nesting: 0, w: 0, in_bundle: false, probe, wants_in_place: false, keep: None }
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.text.bytes().get(self.i).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek() == Some(byte)).then(|| self.i += 1)
    }

    /// Opens a container, within serde_json's nesting limit.
    fn open(&mut self, byte: u8) -> Option<()> {
        self.nesting += 1;
        if self.nesting >= MAX_NESTING {
            return None;
        }
        self.eat(byte)
    }

    fn close(&mut self, byte: u8) -> Option<()> {
        self.nesting -= 1;
        self.eat(byte)
    }

    /// A key: its characters (decoded when it has an escape). A copy, as the text may be
    /// written while its value is read.
    fn key(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let (end, escaped) = fast::string_end(self.text.bytes(), self.i)?;
        let at = self.i;
        self.i = end;
        if escaped {
            return match self.text.value(at..end)? {
                Value::String(key) => Some(key),
                _ => None,
            };
        }
        self.text.input().piece(at + 1..end - 1).map(str::to_owned)
    }

    /// Each member of the object here: `each` reads its value.
    fn members(&mut self, each: &mut dyn FnMut(&mut Self, &str) -> Option<()>) -> Option<()> {
        self.open(b'{')?;
        self.ws();
        if self.peek() == Some(b'}') {
            return self.close(b'}');
        }
        loop {
            self.ws();
            let key = self.key()?;
            self.ws();
            self.eat(b':')?;
            self.ws();
            each(self, &key)?;
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => return self.close(b'}'),
                _ => return None,
            }
        }
    }

    /// Each element of the array here: `each` reads it.
    fn elements(&mut self, each: &mut dyn FnMut(&mut Self, usize) -> Option<()>) -> Option<()> {
        self.open(b'[')?;
        self.ws();
        if self.peek() == Some(b']') {
            return self.close(b']');
        }
        let mut index = 0;
        loop {
            self.ws();
            each(self, index)?;
            index += 1;
            self.ws();
            match self.peek()? {
                b',' => self.i += 1,
                b']' => return self.close(b']'),
                _ => return None,
            }
        }
    }

    /// The value here, parsed by serde_json.
    fn leaf(&mut self) -> Option<Value> {
        let (value, len) = self.text.value_at(self.i)?;
        // serde_json counted the value's nesting from the value: the document's limit
        // counts from its root. A value nests at most one level per two bytes.
        if self.nesting + len / 2 >= MAX_NESTING && self.nesting + nesting(&value) >= MAX_NESTING {
            return None;
        }
        self.i += len;
        Some(value)
    }

    /// The value here, parsed, as `fields[key]` (a repeated key's last value is kept).
    fn leaf_into(&mut self, fields: &mut Fields, key: &str) -> Option<()> {
        let value = self.leaf()?;
        fields.insert(key.to_owned(), value);
        Some(())
    }
}

/// How many containers a value nests (a scalar none, `[]` one).
fn nesting(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(nesting).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(nesting).max().unwrap_or(0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(text: &str) -> (Option<String>, String) {
        super::super::both_readings(text)
    }

    #[test]
    fn both_readers_read_a_module_alike() {
        for text in [
            r#"{"functions":[{"name":"f","blocks":[{"name":"b","instructions":[{"name":"i","opcode":"Matmult","ins":[{"memref":"m"}]},{"opcode":"Call","name":"c","target":"g"}]}]}],"queues":[{"name":"q","blocks":[{"name":"q0","instructions":[{"name":"d","opcode":"DMABlock","blocks":[{"instructions":[]}]}]}]}],"version":2}"#,
            "{\n  \"functions\": [\n    {\n      \"blocks\": [\n        {\n          \"instructions\": [\n            {\n              \"blocks\": [{\"instructions\": [{\"name\": \"x\", \"opcode\": \"Matmult\"}], \"name\": \"lb\"}],\n              \"name\": \"l\",\n              \"opcode\": \"Loop\"\n            }\n          ],\n          \"name\": \"b\"\n        }\n      ],\n      \"name\": \"f\"\n    }\n  ]\n}\n",
            r#"{"functions":[{"name":"f","blocks":[{"name":"b","instructions":[5,{"name":"e\u00e9","opcode":"Matmult"},{"opcode":"Loop","name":"l","blocks":[]},{"opcode":"Loop","name":"l2","blocks":7}]}]},"x"],"queues":{"a":1}}"#,
            r#"{"modules":[{"functions":[]},{"queues":[]},7],"options":{"lnc":2}}"#,
            r#"{"functions":"no","attributes":{"neuron_core_id":"x"},"version":9}"#,
            r#"{"nothing":[1,2,3]}"#,
        ] {
            let (direct, general) = both(text);
            assert_eq!(direct.as_deref(), Some(general.as_str()), "{text}");
        }
    }

    #[test]
    fn what_it_leaves_the_other_reader_reads() {
        for text in [
            r#"{"functions":[],"functions":[]}"#,
            r#"{"functions":[{"name":"f","blocks":[],"blocks":[]}]}"#,
            r#"{"functions":[{"name":"f","blocks":[{"name":"b","instructions":[{"name":"i",}]}]}]}"#,
            r#"{"functions":[]} x"#,
            r#"[1]"#,
            "",
            r#"{"functions":[{"name":"f\u0000"}], "a": 01}"#,
        ] {
            let (direct, _) = both(text);
            assert_eq!(direct, None, "{text}");
        }
    }

    #[test]
    fn nesting_is_counted_from_the_root_in_leaves_too() {
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        // One level for the root: a leaf may nest 126 more.
        let fits = format!(r#"{{"functions":[],"a":{}}}"#, nested(126));
        let deep = format!(r#"{{"functions":[],"a":{}}}"#, nested(127));
        assert!(serde_json::from_str::<Value>(&fits).is_ok());
        assert!(serde_json::from_str::<Value>(&deep).is_err());
        assert!(both(&fits).0.is_some());
        assert_eq!(both(&deep).0, None);
    }
}
