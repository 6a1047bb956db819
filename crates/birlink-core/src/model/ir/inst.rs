//! Instructions and the blocks that hold them (a `Loop`'s body is blocks again: the two
//! are one file). An instruction ([`Inst`]) keeps its JSON as compact text until a pass
//! changes it, and the facts read once when it is made (name, [`Op`], remote update);
//! the opcodes the passes act on; a remote update read where it is.

use std::borrow::Cow;
use std::sync::Arc;

use serde_json::Value;

use super::fields::{str_field, Fields};
use super::src::{FileText, Src};
use crate::model::arena::Handle;
use crate::model::view::{Json, JsonView, Text};

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
/// test keeps it there): a million instructions are 56 MB. [`KeysAt`] fills what was
/// padding.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Its JSON: kept text, or its parsed fields (minus a `Loop`'s `blocks`).
    pub(super) held: Held,
    /// A `Loop`'s nested blocks, walked depth-first by the passes (boxed twice: a loop
    /// is rare, and a thin pointer is 8 bytes where a slice's is 16).
    pub body: Option<Box<Vec<Handle<Block>>>>,
    /// Where it came from.
    pub src: Option<Src>,
    /// The opcode, as far as the passes care.
    pub op: Op,
    /// Whether some `sync_info.on_update` entry has a `target_core`.
    pub remote_update: bool,
    /// Where kept text's `engine`, `sync_info` and `dependencies` values start, when the
    /// reader found them.
    pub(super) keys: KeysAt,
}

/// Where a kept instruction's `engine`, `sync_info` and `dependencies` values start in
/// its text (0: the key is not there), as the reader found them in its scan, so that
/// the sync check reads those three values without walking the instruction's members
/// again ([`Inst::sync_keys`]). Known only when the kept text is the input's own bytes
/// and the instruction has none of [`KeysAt::OTHER_SYNC_KEYS`] nor one of
/// [`KeysAt::OTHER_SYNC_OPCODES`]; for any other ([`KeysAt::UNKNOWN`]) the check walks
/// the members. Offsets are 16 bits: a longer text is unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct KeysAt {
    engine: u16,
    sync_info: u16,
    dependencies: u16,
}

impl KeysAt {
    /// Not found: the members are walked.
    pub(crate) const UNKNOWN: KeysAt = KeysAt { engine: u16::MAX, sync_info: u16::MAX, dependencies: u16::MAX };

    /// The other top-level keys the sync check reads of an instruction kept as text
    /// (docs/spec/sync.md §2–§3): one of them makes the offsets unknown.
    pub(crate) const OTHER_SYNC_KEYS: [&'static str; 6] =
        ["pipe_id", "send_to_rank", "recv_from_rank", "dma_engine", "dma_blocks", "sema_group"];

    /// The opcodes of kept instructions the sync check reads more of.
    pub(crate) const OTHER_SYNC_OPCODES: [&'static str; 3] =
        [opcode::COMPARE_AND_BRANCH, opcode::UNCONDITIONAL_BRANCH, opcode::GROUP_RESET_SEMAPHORES];

    /// The offsets of the three values in a text of `len` bytes (`None`: not there).
    pub(crate) fn of(len: usize, engine: Option<usize>, sync_info: Option<usize>, dependencies: Option<usize>) -> Self {
        if len >= usize::from(u16::MAX) {
            return KeysAt::UNKNOWN;
        }
        // Offset 0 is the text's `{`, never a value's start.
        let at = |offset: Option<usize>| offset.and_then(|o| u16::try_from(o).ok()).unwrap_or(0);
        KeysAt { engine: at(engine), sync_info: at(sync_info), dependencies: at(dependencies) }
    }
}

/// A kept instruction's three values the sync check reads ([`Inst::sync_keys`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SyncKeys<'a> {
    /// The kept text.
    pub text: &'a str,
    /// `engine`.
    pub engine: Option<Json<'a>>,
    /// Where `sync_info`'s value starts in the text, to be read with a
    /// [`Cursor`](crate::model::view::Cursor) (which stops at an escape).
    pub sync_info: Option<usize>,
    /// Where `dependencies`' value starts, likewise.
    pub dependencies: Option<usize>,
}

/// An instruction's JSON. Kept text is valid compact JSON, exactly what `serde_json`
/// prints for its fields, so it is written back byte for byte; its name is where it is
/// in that text (a kept instruction's name has no escape, so the JSON string's bytes
/// are the name).
#[derive(Clone, Debug)]
pub(super) enum Held {
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
pub(super) struct NameAt {
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

    /// The fields, kept text parsed into them first (for good: the instruction is
    /// about to change).
    fn parsed(&mut self) -> &mut Fields {
        match self {
            Held::Fields(fields) => fields,
            kept => {
                *kept = Held::Fields(Box::new(kept.text().map(parse_kept).unwrap_or_default()));
                kept.parsed()
            }
        }
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
    /// Writes 0 to the semaphores its `sema_group` lists.
    pub const GROUP_RESET_SEMAPHORES: &str = "GroupResetSemaphores";
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
        Inst { held, body, src, op, remote_update, keys: KeysAt::UNKNOWN }
    }

    /// An instruction no pass acts on, kept as `text`, which is already its compact form
    /// (`json::fast` parsed and checked it): what [`Inst::new`] would make of its fields,
    /// without them. When `text` is a slice of `file`, the instruction keeps a span of it;
    /// `name` is a slice of `text` (else, rarely, the fields are parsed and held);
    /// `keys` are where its sync keys' values lie in `text`.
    pub(crate) fn kept(
        text: &str,
        file: Option<&FileText>,
        name: &str,
        remote_update: bool,
        src: Option<Src>,
        keys: KeysAt,
    ) -> Inst {
        let held = Held::kept(text, file, name).unwrap_or_else(|| Held::Fields(Box::new(parse_kept(text))));
        Inst { held, body: None, src, op: Op::Other, remote_update, keys }
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
        (Inst { held, body: None, src, op: Op::Other, remote_update, keys: KeysAt::UNKNOWN }, waits)
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

    /// The instruction's keys to read without building a map: a kept instruction's
    /// text (parsed instead when a string in it has an escape, which the text view does
    /// not read), else its fields.
    pub(crate) fn view(&self) -> InstView<'_> {
        match self.kept_text() {
            Some(text) if !text.contains('\\') => InstView::Text(Text(text)),
            _ => InstView::Fields(self.fields()),
        }
    }

    /// A kept instruction's `engine`, `sync_info` and `dependencies`, where the reader
    /// found them ([`KeysAt`]): `None` when it did not, or when `engine` has an escape
    /// (which the text view does not read), for the caller to walk [`Inst::view`]
    /// instead. The other two are where their values start: the caller's cursor stops
    /// at an escape in them.
    pub(crate) fn sync_keys(&self) -> Option<SyncKeys<'_>> {
        if self.keys == KeysAt::UNKNOWN {
            return None;
        }
        let text = self.kept_text()?;
        let at = |at: u16| (at != 0).then_some(usize::from(at));
        let KeysAt { engine, sync_info, dependencies } = self.keys;
        let engine = match at(engine) {
            None => None,
            Some(at) => {
                let end = crate::model::view::value_end(text.as_bytes(), at)?;
                let value = text.get(at..end)?;
                if value.contains('\\') {
                    return None;
                }
                Some(Json::Text(Text(value)))
            }
        };
        Some(SyncKeys { text, engine, sync_info: at(sync_info), dependencies: at(dependencies) })
    }

    /// The fields, to change them (kept text is parsed first).
    pub fn fields_mut(&mut self) -> &mut Fields {
        self.held.parsed()
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

/// An instruction's keys, read either way ([`Inst::view`]).
pub(crate) enum InstView<'a> {
    /// A kept instruction's canonical text.
    Text(Text<'a>),
    /// Parsed fields.
    Fields(Cow<'a, Fields>),
}

impl InstView<'_> {
    /// The value of `key` (a scan of the text: to read several keys, one pass of
    /// [`InstView::for_each_member`] costs less).
    pub(crate) fn get(&self, key: &str) -> Option<Json<'_>> {
        match self {
            InstView::Text(text) => text.get(key).map(Json::Text),
            InstView::Fields(fields) => fields.get(key).map(Json::Value),
        }
    }

    /// Calls `each` with every member, in order: one pass over the text.
    pub(crate) fn for_each_member<'v>(&'v self, each: &mut dyn FnMut(&'v str, Json<'v>)) {
        match self {
            InstView::Text(text) => text.members().for_each(|(k, v)| each(k, Json::Text(v))),
            InstView::Fields(fields) => fields.iter().for_each(|(k, v)| each(k, Json::Value(v))),
        }
    }

    /// The kept text, when the view is one (what a search for a name may scan).
    pub(crate) fn text(&self) -> Option<&str> {
        match self {
            InstView::Text(text) => Some(text.0),
            InstView::Fields(_) => None,
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

impl Block {
    /// The block's name.
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }
}
