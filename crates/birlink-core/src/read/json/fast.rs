//! The common instruction, read without a tree, in one pass.
//!
//! Most instructions of a real dump are ones no pass acts on (`Op::Other`): they are kept
//! as compact text and written back as they are. Building a map of every key only to
//! print it again is where reading spent its time, so [`scan`] reads an instruction's
//! text once and, on the way:
//!
//! - **checks it is JSON** as serde_json would (strings without control characters, valid
//!   escapes, the number grammar, literals, commas and colons, serde_json's nesting
//!   limit counted from the document's root), so the document needs no other parser;
//! - **makes its canonical text**, exactly what `serde_json` prints for its value:
//!   whitespace dropped, every object's keys sorted (a repeated key's last value kept, as
//!   a map keeps it), numbers as the writer prints them (`-0` is `-0.0`, `1e3` is
//!   `1000.0`). When the text already is that — a compact dump with sorted keys —
//!   nothing is copied at all, and the instruction keeps a span of the file;
//! - **records a tape**: every value's kind, extent and key, and where its subtree ends,
//!   so the reader's questions (`name`, `opcode`, `sync_info`, the names it uses, through
//!   the [`JsonView`] questions the general path asks of a parsed map: `json::checks`,
//!   `uses::each_ref`) are answered by walking the tape, never by scanning text again.
//!
//! What it cannot vouch for goes elsewhere, and the scan says where: a string with an
//! escape, or a value that is not an object, is [`Scanned::General`] (parsed into a map
//! and lowered by the general path); an object with a `blocks` array at its top level (a
//! `Loop`'s body) is [`Scanned::Blocks`] when the caller reads such members one by one
//! (`json::direct`); anything that is not JSON, or nests deeper than serde_json allows,
//! is [`Scanned::Invalid`], and the document's own parser says why.
//!
//! [`JsonView`]: crate::model::view::JsonView

use crate::model::view::{JsonType, JsonView};

/// serde_json refuses a document when its 128th container opens (its
/// `remaining_depth`); the scan counts open containers from the document's root.
pub(crate) const MAX_NESTING: usize = 128;

/// Buffers reused from one instruction to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    out: String,
    /// The tape indices of the members of the objects being written, innermost last.
    kids: Vec<u32>,
    order: Vec<usize>,
    orders: Orders,
    tape: Vec<Slot>,
}

/// The sorted orders of the last key sequences seen. A producer writes every
/// instruction of a kind (and every operand, every `sync_info` entry) with its keys in
/// the same order, so the order an object's members sort into is, nearly always, one
/// found already: it is looked up by the keys themselves (compared, not trusted to a
/// hash) instead of sorted again.
#[derive(Debug, Default)]
struct Orders {
    /// Each entry: the keys in written order, joined by `"` (which no key read here
    /// holds), and the written index of each member in sorted order (duplicates gone).
    /// Kinds seen often move to the front; a new one replaces the last.
    entries: Vec<(Vec<u8>, Vec<usize>)>,
    /// The key sequence of the object being sorted, joined as in `entries`.
    joined: Vec<u8>,
}

impl Orders {
    /// How many key sequences are remembered.
    const SIZE: usize = 16;
}

/// One value on the tape: its kind, where it is in the input (offsets from the
/// instruction's first byte), its key's characters when it is an object's member, the
/// tape index just past its subtree (its next sibling), and whether its text already is
/// what the writer prints for it (no whitespace, keys sorted and once, numbers as
/// printed, all the way down).
#[derive(Clone, Copy, Debug)]
struct Slot {
    kind: JsonType,
    clean: bool,
    start: u32,
    end: u32,
    key: (u32, u32),
    next: u32,
}

/// What the scan of one instruction found.
#[derive(Debug)]
pub(crate) enum Scanned<'s> {
    /// An object the fast path reads, its canonical text and its tape; `end` is where
    /// it ends in the text.
    Read { canonical: Canonical<'s>, end: usize },
    /// JSON the general path reads (a string with an escape, or not an object): it
    /// ends at `end`.
    General { end: usize },
    /// An object with a `blocks` array at its top level, when the caller asked to be
    /// told: it reads such an instruction member by member.
    Blocks,
    /// Not JSON serde_json would read, or nested deeper than it allows.
    Invalid,
}

/// An instruction's text in the form the writer prints, with its tape.
#[derive(Debug)]
pub(crate) struct Canonical<'s> {
    /// The canonical text.
    pub text: &'s str,
    /// Whether `text` is the input itself (not a byte was changed).
    pub unchanged: bool,
    /// The tape (offsets in `input`); its first slot is the instruction.
    tape: &'s [Slot],
    /// The instruction's input text.
    input: &'s str,
    /// Where the `name` string's characters are in `text`.
    name: Option<(usize, usize)>,
}

impl<'s> Canonical<'s> {
    /// The value of one of the instruction's keys (the last, when the text repeats it).
    #[cfg(test)]
    pub(crate) fn get(&self, key: &str) -> Option<Node<'s>> {
        self.root().get(key)
    }

    /// The top-level keys the reader asks for (`name`, `opcode`, `sync_info` and what
    /// `uses::each_ref` reads), found in one walk of the top level.
    pub(crate) fn top(&self) -> Top<'s> {
        let mut top = Top { root: self.root(), found: [None; TOP_KEYS.len()] };
        for (key, node) in self.root().children() {
            if let Some(slot) = top_slot(key) {
                // A repeated key's last value, as a map keeps it.
                top.found[slot] = Some(node);
            }
        }
        top
    }

    /// The instruction itself, as a view.
    pub(crate) fn root(&self) -> Node<'s> {
        Node { tape: self.tape, input: self.input, index: 0 }
    }

    /// The instruction's `name`, when it is a string: a slice of [`Self::text`], so the
    /// instruction can keep where it is instead of a copy.
    pub(crate) fn name(&self) -> Option<&'s str> {
        let (start, end) = self.name?;
        self.text.get(start..end)
    }
}

/// The top-level keys [`Top`] finds at once.
const TOP_KEYS: [&str; 11] = [
    "name",
    "opcode",
    "sync_info",
    "dependencies",
    "ins",
    "outs",
    "queue",
    "target",
    "on_true",
    "on_false",
    "instance",
];

/// Where [`Top`] keeps `key`: its index in [`TOP_KEYS`] (a `match`, which compares a
/// key's length before its bytes).
fn top_slot(key: &str) -> Option<usize> {
    Some(match key {
        "name" => 0,
        "opcode" => 1,
        "sync_info" => 2,
        "dependencies" => 3,
        "ins" => 4,
        "outs" => 5,
        "queue" => 6,
        "target" => 7,
        "on_true" => 8,
        "on_false" => 9,
        "instance" => 10,
        _ => return None,
    })
}

/// An instruction's top level, its common keys found ([`Canonical::top`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Top<'s> {
    root: Node<'s>,
    found: [Option<Node<'s>>; TOP_KEYS.len()],
}

impl<'s> Top<'s> {
    /// The value of one of the instruction's keys (the last, when the text repeats it).
    pub(crate) fn get(&self, key: &str) -> Option<Node<'s>> {
        match top_slot(key) {
            Some(slot) => self.found[slot],
            None => self.root.get(key),
        }
    }
}

/// One value of a scanned instruction, read through its tape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'s> {
    tape: &'s [Slot],
    input: &'s str,
    index: usize,
}

impl<'s> Node<'s> {
    fn slot(self) -> Option<Slot> {
        self.tape.get(self.index).copied()
    }

    /// The value's text, as written in the input.
    fn raw(self) -> &'s str {
        self.slot().and_then(|s| self.input.get(s.start as usize..s.end as usize)).unwrap_or("")
    }

    /// The key of each child, with the child (an object's members, an array's elements
    /// with an empty key), in written order.
    fn children(self) -> impl Iterator<Item = (&'s str, Node<'s>)> {
        let end = self.slot().map_or(0, |s| s.next as usize);
        let mut at = self.index + 1;
        std::iter::from_fn(move || {
            if at >= end {
                return None;
            }
            let slot = self.tape.get(at)?;
            let node = Node { tape: self.tape, input: self.input, index: at };
            at = (slot.next as usize).max(at + 1);
            let key = self.input.get(slot.key.0 as usize..slot.key.1 as usize).unwrap_or("");
            Some((key, node))
        })
    }
}

impl<'s> JsonView<'s> for Node<'s> {
    fn json_type(self) -> JsonType {
        self.slot().map_or(JsonType::Null, |s| s.kind)
    }

    fn as_str(self) -> Option<&'s str> {
        // A read instruction has no escape: a string's characters are its bytes.
        (self.json_type() == JsonType::String).then(|| self.raw()).and_then(|r| r.get(1..r.len().checked_sub(1)?))
    }

    fn as_u64(self) -> Option<u64> {
        let raw = self.raw();
        // A non-negative integer: digits only (`-`, `.` and exponents are not).
        if self.json_type() != JsonType::Number || !raw.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        raw.parse().ok()
    }

    fn get(self, key: &str) -> Option<Self> {
        if self.json_type() != JsonType::Object {
            return None;
        }
        self.children().filter(|(k, _)| *k == key).last().map(|(_, node)| node)
    }

    fn for_each_element(self, each: &mut dyn FnMut(Self)) {
        if self.json_type() == JsonType::Array {
            self.children().for_each(|(_, node)| each(node));
        }
    }

    fn compact_text(self) -> std::borrow::Cow<'s, str> {
        // Only what the reader reads of a value it keeps: whitespace and key order are
        // the input's, so the canonical text is printed from the value.
        match serde_json::from_str::<serde_json::Value>(self.raw()) {
            Ok(value) => std::borrow::Cow::Owned(value.to_string()),
            Err(_) => std::borrow::Cow::Borrowed(self.raw()),
        }
    }
}

/// Scans the instruction that starts at `text[at]`, inside `nesting` open containers of
/// its document. `blocks`: stop at a `blocks` array at the top level ([`Scanned::Blocks`]).
pub(crate) fn scan<'s>(
    text: &'s str,
    at: usize,
    nesting: usize,
    blocks: bool,
    scratch: &'s mut Scratch,
) -> Scanned<'s> {
    scratch.tape.clear();
    let mut scan = Scan {
        input: text,
        bytes: text.as_bytes(),
        base: at,
        i: at,
        nesting,
        changes: 0,
        escaped: false,
        stop_at_blocks: blocks,
        tape: &mut scratch.tape,
    };
    let is_object = scan.bytes.get(at) == Some(&b'{');
    match scan.value(None, 0) {
        Ok(()) => {}
        Err(Stop::Blocks) => return Scanned::Blocks,
        Err(Stop::Invalid) => return Scanned::Invalid,
    }
    let end = scan.i;
    if scan.escaped || !is_object {
        return Scanned::General { end };
    }
    let Some(input) = text.get(at..end) else { return Scanned::Invalid };
    let clean = scratch.tape.first().is_some_and(|root| root.clean);
    let name = if clean {
        // The name's characters, where the text has them.
        top_name(&scratch.tape, input).map(|slot| (slot.start as usize + 1, slot.end as usize - 1))
    } else {
        let mut writer = Writer {
            input,
            tape: &scratch.tape,
            out: &mut scratch.out,
            kids: &mut scratch.kids,
            order: &mut scratch.order,
            orders: &mut scratch.orders,
            name: None,
        };
        writer.out.clear();
        writer.write(0, true);
        writer.name
    };
    let scratch: &'s Scratch = scratch;
    let text = if clean { input } else { scratch.out.as_str() };
    let canonical = Canonical { text, unchanged: clean, tape: &scratch.tape, input, name };
    Scanned::Read { canonical, end }
}

/// The top level's `name` member that a map keeps (the last), when it is a string.
fn top_name(tape: &[Slot], input: &str) -> Option<Slot> {
    let root = Node { tape, input, index: 0 };
    let (_, node) = root.children().filter(|(key, _)| *key == "name").last()?;
    node.slot().filter(|slot| slot.kind == JsonType::String)
}

/// Writes a scanned instruction's canonical text from its tape: what is clean is copied
/// as it is, in one piece; an object that is not has its members written in key order
/// (a repeated key's last), an array that is not its elements, a number that is not its
/// printed form. Every byte is copied once.
struct Writer<'a> {
    input: &'a str,
    tape: &'a [Slot],
    out: &'a mut String,
    kids: &'a mut Vec<u32>,
    order: &'a mut Vec<usize>,
    orders: &'a mut Orders,
    /// Where the top level's `name` string's characters went.
    name: Option<(usize, usize)>,
}

/// A slot's text in the input.
fn text_of(input: &str, slot: Slot) -> &str {
    input.get(slot.start as usize..slot.end as usize).unwrap_or("")
}

impl Writer<'_> {
    fn write(&mut self, at: usize, top: bool) {
        let Some(&slot) = self.tape.get(at) else { return };
        if slot.clean {
            self.out.push_str(text_of(self.input, slot));
            return;
        }
        match slot.kind {
            JsonType::Object => self.object(at, slot, top),
            JsonType::Array => {
                self.out.push('[');
                let mut child = at + 1;
                while child < slot.next as usize {
                    if child > at + 1 {
                        self.out.push(',');
                    }
                    self.write(child, false);
                    child = self.tape.get(child).map_or(usize::MAX, |s| s.next as usize);
                }
                self.out.push(']');
            }
            // Only a number is unclean as a scalar: its printed form (it was read once).
            _ => {
                let text = text_of(self.input, slot);
                let printed = serde_json::from_str::<serde_json::Number>(text)
                    .ok()
                    .and_then(|number| serde_json::to_string(&number).ok());
                self.out.push_str(printed.as_deref().unwrap_or(text));
            }
        }
    }

    fn object(&mut self, at: usize, slot: Slot, top: bool) {
        // Its members' slots, on the shared stack, then their order.
        let first = self.kids.len();
        let mut child = at + 1;
        while child < slot.next as usize {
            self.kids.push(child as u32);
            child = self.tape.get(child).map_or(usize::MAX, |s| s.next as usize);
        }
        let from = self.order.len();
        sorted_order(self.input, self.tape, &self.kids[first..], self.orders, self.order);
        self.out.push('{');
        for n in 0..self.order.len() - from {
            let kid = self.kids[first + self.order[from + n]] as usize;
            let Some(&member) = self.tape.get(kid) else { continue };
            if n > 0 {
                self.out.push(',');
            }
            let (key_at, key_end) = (member.key.0 as usize, member.key.1 as usize);
            let key = self.input.get(key_at..key_end).unwrap_or("");
            let value = self.out.len() + key.len() + 3;
            if member.clean && member.start as usize == key_end + 2 {
                // `"key":value` as it is in the input: one piece.
                self.out.push_str(self.input.get(key_at - 1..member.end as usize).unwrap_or(""));
            } else {
                self.out.push('"');
                self.out.push_str(key);
                self.out.push_str("\":");
                self.write(kid, false);
            }
            if top && key == "name" && member.kind == JsonType::String {
                self.name = Some((value + 1, self.out.len() - 1));
            }
        }
        self.out.push('}');
        self.kids.truncate(first);
        self.order.truncate(from);
    }
}

/// Appends to `order` the order of an object's members (`kids`, their tape indices) by
/// key, a repeated key's last member only: from the orders seen before when these keys
/// came in this order already, else sorted (and remembered).
fn sorted_order(input: &str, tape: &[Slot], kids: &[u32], orders: &mut Orders, order: &mut Vec<usize>) {
    let input = input.as_bytes();
    let key = |k: usize| {
        kids.get(k)
            .and_then(|&at| tape.get(at as usize))
            .and_then(|s| input.get(s.key.0 as usize..s.key.1 as usize))
            .unwrap_or(b"")
    };
    orders.joined.clear();
    for k in 0..kids.len() {
        orders.joined.extend_from_slice(key(k));
        orders.joined.push(b'"');
    }
    if let Some(found) = orders.entries.iter().position(|(keys, _)| *keys == orders.joined) {
        // Moved up one place: the kinds of objects seen most often come first.
        let found = if found > 0 {
            orders.entries.swap(found, found - 1);
            found - 1
        } else {
            found
        };
        order.extend_from_slice(&orders.entries[found].1);
        return;
    }
    let mut sorted: Vec<usize> = (0..kids.len()).collect();
    sorted.sort_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
    // Of members with the same key, the last written wins.
    let mut kept = 0;
    for n in 0..sorted.len() {
        let last_of_its_key = sorted.get(n + 1).is_none_or(|&next| key(next) != key(sorted[n]));
        if last_of_its_key {
            sorted[kept] = sorted[n];
            kept += 1;
        }
    }
    sorted.truncate(kept);
    order.extend_from_slice(&sorted);
    if orders.entries.len() >= Orders::SIZE {
        orders.entries.pop();
    }
    orders.entries.push((orders.joined.clone(), sorted));
}

/// The canonical form of `input`, which must be one JSON object and nothing else (but
/// whitespace); `None` for anything the fast path does not read.
pub(crate) fn canonical<'s>(input: &'s str, scratch: &'s mut Scratch) -> Option<Canonical<'s>> {
    let start = input.len() - input.trim_start_matches(is_ws).len();
    match scan(input, start, 0, false, scratch) {
        Scanned::Read { canonical, end }
            if input.get(end..).is_some_and(|rest| rest.trim_start_matches(is_ws).is_empty()) =>
        {
            Some(canonical)
        }
        _ => None,
    }
}

/// JSON's whitespace.
fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\n' | '\r' | '\t')
}

/// Why a scan stopped early.
enum Stop {
    Invalid,
    Blocks,
}

/// The string that starts at `bytes[at]` (a `"`): where it ends (past its closing
/// quote) and whether it has an escape; `None` when it is not a JSON string (a control
/// character, a bad escape, no end).
#[inline]
pub(crate) fn string_end(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut j = at + 1;
    let mut escaped = false;
    loop {
        j = special(bytes, j)?;
        match bytes[j] {
            b'"' => return Some((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                j = match *bytes.get(j + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j + 2,
                    b'u' => {
                        let hex = bytes.get(j + 2..j + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        j + 6
                    }
                    _ => return None,
                };
            }
            // A control character, which a JSON string cannot hold as it is.
            _ => return None,
        }
    }
}

/// The first index from `at` of a byte that ends a run of plain string characters: `"`,
/// `\` or a control character. Eight bytes at a time, as serde_json's own scan does.
#[inline]
fn special(bytes: &[u8], mut at: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        // A byte is zero in `x`, or below 0x20 in `word`, when its high bit is set here.
        let found = (quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word);
        if found & HIGH != 0 {
            break;
        }
        at += 8;
    }
    bytes.get(at..)?.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).map(|n| at + n)
}

/// The end of the value that starts at `bytes[at]`, found by matching brackets and
/// strings alone (nothing else is checked): for a value the caller reads properly
/// afterwards.
pub(crate) fn skip(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    loop {
        i = match *bytes.get(i)? {
            b'"' => string_end(bytes, i)?.0,
            b'{' | b'[' => {
                depth += 1;
                i + 1
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                i + 1
            }
            _ if depth > 0 => i + 1,
            // A scalar at the top: up to the next delimiter.
            _ => {
                let rest = bytes.get(i..)?;
                return Some(i + rest.iter().position(|b| b",:]} \n\r\t".contains(b)).unwrap_or(rest.len()));
            }
        };
        if depth == 0 {
            return Some(i);
        }
    }
}

/// The scan of one text: checks it, and puts each value on the tape.
struct Scan<'i, 's> {
    input: &'i str,
    bytes: &'i [u8],
    /// Where the instruction starts in `input`.
    base: usize,
    /// Where the scan is in `input`.
    i: usize,
    /// Containers open, the document's included.
    nesting: usize,
    /// How many places so far differ from what the writer prints (whitespace, keys out
    /// of order or repeated, a number printed otherwise): a value is clean when none
    /// was found inside it.
    changes: u32,
    /// A string with an escape was met: the general path reads this one.
    escaped: bool,
    stop_at_blocks: bool,
    tape: &'s mut Vec<Slot>,
}

type Step = Result<(), Stop>;

impl Scan<'_, '_> {
    /// Skips whitespace, which the writer does not print.
    #[inline]
    fn ws(&mut self) {
        if matches!(self.bytes.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.skip_ws();
        }
    }

    #[inline(never)]
    fn skip_ws(&mut self) {
        while matches!(self.bytes.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
        self.changes += 1;
    }

    /// Passes one structural byte, which must be `byte`.
    #[inline]
    fn expect(&mut self, byte: u8) -> Step {
        if self.bytes.get(self.i) != Some(&byte) {
            return Err(Stop::Invalid);
        }
        self.i += 1;
        Ok(())
    }

    /// An offset from the instruction's start, for the tape.
    #[inline]
    fn rel(&self, at: usize) -> u32 {
        (at - self.base) as u32
    }

    /// One value, put on the tape with its key (`level` 0 is the instruction itself).
    fn value(&mut self, key: Option<(u32, u32)>, level: usize) -> Step {
        let start = self.i;
        let key = key.unwrap_or((0, 0));
        let changes = self.changes;
        let kind = match *self.bytes.get(self.i).ok_or(Stop::Invalid)? {
            b'"' => {
                self.string()?;
                JsonType::String
            }
            b'-' | b'0'..=b'9' => {
                self.number()?;
                JsonType::Number
            }
            b't' => {
                self.literal(b"true")?;
                JsonType::Bool
            }
            b'f' => {
                self.literal(b"false")?;
                JsonType::Bool
            }
            b'n' => {
                self.literal(b"null")?;
                JsonType::Null
            }
            open @ (b'{' | b'[') => {
                // A container's slot is made first: its members follow it on the tape.
                let slot = self.tape.len();
                let kind = if open == b'{' { JsonType::Object } else { JsonType::Array };
                self.tape.push(Slot { kind, clean: false, start: self.rel(start), end: 0, key, next: 0 });
                if open == b'{' {
                    self.object(level)?;
                } else {
                    self.array(level)?;
                }
                let (end, next, clean) = (self.rel(self.i), self.tape.len() as u32, self.changes == changes);
                if let Some(slot) = self.tape.get_mut(slot) {
                    slot.end = end;
                    slot.next = next;
                    slot.clean = clean;
                }
                return Ok(());
            }
            _ => return Err(Stop::Invalid),
        };
        let next = self.tape.len() as u32 + 1;
        let clean = self.changes == changes;
        self.tape.push(Slot { kind, clean, start: self.rel(start), end: self.rel(self.i), key, next });
        Ok(())
    }

    /// Opens a container, within serde_json's nesting limit.
    #[inline]
    fn open(&mut self, byte: u8) -> Step {
        self.nesting += 1;
        if self.nesting >= MAX_NESTING {
            return Err(Stop::Invalid);
        }
        self.expect(byte)
    }

    #[inline]
    fn string(&mut self) -> Step {
        let (end, escaped) = string_end(self.bytes, self.i).ok_or(Stop::Invalid)?;
        self.escaped |= escaped;
        self.i = end;
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Step {
        let end = self.i + word.len();
        if self.bytes.get(self.i..end) != Some(word) {
            return Err(Stop::Invalid);
        }
        self.i = end;
        Ok(())
    }

    /// A number, checked against JSON's grammar; a change when serde_json prints it
    /// otherwise.
    fn number(&mut self) -> Step {
        let start = self.i;
        let digits = |bytes: &[u8], mut j: usize| {
            while bytes.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            j
        };
        let mut j = start;
        if self.bytes.get(j) == Some(&b'-') {
            j += 1;
        }
        j = match self.bytes.get(j) {
            Some(b'0') => j + 1,
            Some(b'1'..=b'9') => digits(self.bytes, j + 1),
            _ => return Err(Stop::Invalid),
        };
        let integer = j;
        if self.bytes.get(j) == Some(&b'.') {
            let after = digits(self.bytes, j + 1);
            if after == j + 1 {
                return Err(Stop::Invalid);
            }
            j = after;
        }
        if matches!(self.bytes.get(j), Some(b'e' | b'E')) {
            j += 1;
            if matches!(self.bytes.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            let after = digits(self.bytes, j);
            if after == j {
                return Err(Stop::Invalid);
            }
            j = after;
        }
        let token = self.input.get(start..j).ok_or(Stop::Invalid)?;
        self.i = j;
        if j == integer && integer_as_printed(token) {
            return Ok(());
        }
        // Anything else is what serde_json prints for the number it reads (out of its
        // range, it reads none: the document's parser says so).
        let number: serde_json::Number = serde_json::from_str(token).map_err(|_| Stop::Invalid)?;
        if serde_json::to_string(&number).map_err(|_| Stop::Invalid)? != token {
            self.changes += 1;
        }
        Ok(())
    }

    fn array(&mut self, level: usize) -> Step {
        self.open(b'[')?;
        self.ws();
        if self.bytes.get(self.i) == Some(&b']') {
            self.nesting -= 1;
            return self.expect(b']');
        }
        loop {
            self.ws();
            self.value(None, level + 1)?;
            self.ws();
            match self.bytes.get(self.i) {
                Some(b',') => self.expect(b',')?,
                Some(b']') => break,
                _ => return Err(Stop::Invalid),
            }
        }
        self.nesting -= 1;
        self.expect(b']')
    }

    /// An object; a change when its keys are not strictly ascending (out of order, or a
    /// key repeated), which the writer sorts.
    fn object(&mut self, level: usize) -> Step {
        self.open(b'{')?;
        // The previous key's characters, in the input.
        let mut previous: Option<(usize, usize)> = None;
        let mut sorted = true;
        self.ws();
        if self.bytes.get(self.i) != Some(&b'}') {
            loop {
                self.ws();
                if self.bytes.get(self.i) != Some(&b'"') {
                    return Err(Stop::Invalid);
                }
                let key_at = self.i + 1;
                self.string()?;
                let key_end = self.i - 1;
                let key = self.bytes.get(key_at..key_end).ok_or(Stop::Invalid)?;
                if let Some((a, b)) = previous {
                    if sorted && !ascending(self.bytes.get(a..b).unwrap_or(b""), key) {
                        sorted = false;
                        self.changes += 1;
                    }
                }
                previous = Some((key_at, key_end));
                self.ws();
                self.expect(b':')?;
                self.ws();
                if level == 0 && self.stop_at_blocks && self.bytes.get(self.i) == Some(&b'[') && key == b"blocks" {
                    return Err(Stop::Blocks);
                }
                self.value(Some((self.rel(key_at), self.rel(key_end))), level + 1)?;
                self.ws();
                match self.bytes.get(self.i) {
                    Some(b',') => self.expect(b',')?,
                    Some(b'}') => break,
                    _ => return Err(Stop::Invalid),
                }
            }
        }
        self.nesting -= 1;
        self.expect(b'}')
    }
}

/// Whether `a < b`, with the common answer (the first bytes differ) found without a
/// call.
#[inline]
fn ascending(a: &[u8], b: &[u8]) -> bool {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => x < y,
        _ => a < b,
    }
}

/// Whether an integer token (JSON's grammar already checked) is printed as it is: one
/// `serde_json` reads as an integer (fits `u64`, or `i64` when negative) and prints back
/// the same. `-0` is not: it is read as the float `-0.0`.
fn integer_as_printed(token: &str) -> bool {
    match token.strip_prefix('-') {
        Some(digits) => digits.len() <= 19 && token.parse::<i64>().is_ok_and(|n| n != 0),
        None => token.len() < 20 || token.parse::<u64>().is_ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn printed(text: &str) -> String {
        serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
    }

    fn canonical_of(text: &str) -> Option<(String, bool)> {
        let mut scratch = Scratch::default();
        canonical(text, &mut scratch).map(|c| (c.text.to_owned(), c.unchanged))
    }

    #[test]
    fn canonical_is_what_the_writer_prints() {
        for text in [
            r#"{"a":1,"b":[1,-2,{"c":"é","d":null}],"e":true}"#,
            r#"{}"#,
            r#"{"":1}"#,
            r#"{"a":{"a":{},"b":[]},"b":18446744073709551615}"#,
            r#"{"a":-9223372036854775808}"#,
            r#"{"a":[0,-1,1.5,0.001,1e-7,123456789012345678]}"#,
        ] {
            assert_eq!(canonical_of(text), Some((text.to_owned(), true)), "{text}");
            assert_eq!(printed(text), text);
        }
        for text in [
            r#"{"b":1,"a":2}"#,
            r#"{"a":1, "b":2}"#,
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}",
            "\t{ \"a\" :\r\n1 }\n",
            r#"{"a":1.5e0}"#,
            r#"{"a":1e3}"#,
            r#"{"a":1E+2}"#,
            r#"{"a":-0}"#,
            r#"{"a":[-0,0.0,-0.0,1.0E+2]}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"":1,"":2}"#,
            r#"{"z":{"d":1,"c":[{"y":1,"x":2,"y":3}]},"a":1,"z":5}"#,
            r#"{"a":18446744073709551616}"#,
            r#"{"a":-9223372036854775809}"#,
            r#"{ "name" : "i" , "opcode":"Matmult" }"#,
        ] {
            let (out, unchanged) = canonical_of(text).unwrap_or_else(|| panic!("refused {text}"));
            assert_eq!(out, printed(text), "{text}");
            assert!(!unchanged, "{text}");
        }
    }

    #[test]
    fn what_it_cannot_vouch_for_it_refuses() {
        for text in [r#"{"a":"x\/y"}"#, r#"{"a\u0062":1}"#, r#"[1]"#, r#""s""#, r#"{"a":1}x"#, r#"{"a":}"#, ""] {
            assert_eq!(canonical_of(text), None, "{text}");
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(200), "]".repeat(200));
        assert_eq!(canonical_of(&deep), None);
    }

    /// Everything serde_json refuses, the scan refuses too: a document read without
    /// serde_json must not accept what it would not.
    #[test]
    fn what_is_not_json_is_invalid() {
        for text in [
            "{\"a\":\"x\ny\"}",
            "{\"a\":\"x\u{1}\"}",
            r#"{"a":"\x"}"#,
            r#"{"a":"\u12"}"#,
            r#"{"a":"\u12G4"}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":.5}"#,
            r#"{"a":1e}"#,
            r#"{"a":1e+}"#,
            r#"{"a":-}"#,
            r#"{"a":+1}"#,
            r#"{"a":1e400}"#,
            r#"{"a":tru}"#,
            r#"{"a":nul}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":1,}"#,
            r#"{"a" 1}"#,
            r#"{"a":1 "b":2}"#,
            r#"{a:1}"#,
            r#"{"a":[1 2]}"#,
            r#"{"a":"unterminated}"#,
            "{\"a\":\u{a0}1}",
        ] {
            assert!(serde_json::from_str::<Value>(text).is_err(), "serde_json reads {text}");
            let mut scratch = Scratch::default();
            assert!(matches!(scan(text, 0, 0, false, &mut scratch), Scanned::Invalid), "{text}");
        }
    }

    #[test]
    fn nesting_counts_from_the_document_root() {
        // serde_json refuses the 128th open container: at 127 levels a value is fine.
        let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        let mut scratch = Scratch::default();
        let inst = format!("{{\"a\":{}}}", nested(10));
        assert!(matches!(scan(&inst, 0, 116, false, &mut scratch), Scanned::Read { .. }));
        assert!(matches!(scan(&inst, 0, 117, false, &mut scratch), Scanned::Invalid));
        let doc = format!("{}{inst}{}", "[".repeat(116), "]".repeat(116));
        assert!(serde_json::from_str::<Value>(&doc).is_ok());
        let doc = format!("{}{inst}{}", "[".repeat(117), "]".repeat(117));
        assert!(serde_json::from_str::<Value>(&doc).is_err());
    }

    #[test]
    fn escapes_and_other_values_take_the_general_path_with_their_end() {
        for (text, end) in [
            (r#"{"a":"x\/y"} ,"#, 12),
            (r#"{"a\u0062":1},"#, 13),
            (r#"[1,{"a":2}],"#, 11),
            (r#""s","#, 3),
            ("12,", 2),
            ("null ,", 4),
        ] {
            let mut scratch = Scratch::default();
            match scan(text, 0, 0, false, &mut scratch) {
                Scanned::General { end: found } => assert_eq!(found, end, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_blocks_array_at_the_top_is_left_to_the_caller_when_asked() {
        let text = r#"{"blocks":[{"name":"b","instructions":[]}],"name":"l","opcode":"Loop"}"#;
        let mut scratch = Scratch::default();
        assert!(matches!(scan(text, 0, 0, true, &mut scratch), Scanned::Blocks));
        assert!(matches!(scan(text, 0, 0, false, &mut scratch), Scanned::Read { .. }));
        // Elsewhere, or not an array, it is read as any key.
        for text in [r#"{"blocks":5,"name":"l"}"#, r#"{"x":{"blocks":[]},"name":"l"}"#] {
            assert!(matches!(scan(text, 0, 0, true, &mut scratch), Scanned::Read { .. }), "{text}");
        }
    }

    #[test]
    fn the_scan_starts_anywhere_in_a_text_and_says_where_it_ends() {
        let text = r#"[{"b":1,"a":[2]} , {"name":"x"}]"#;
        let mut scratch = Scratch::default();
        let Scanned::Read { canonical, end } = scan(text, 1, 1, false, &mut scratch) else { panic!() };
        assert_eq!(canonical.text, r#"{"a":[2],"b":1}"#);
        assert_eq!(end, 16);
        assert_eq!(canonical.get("a").map(|a| a.raw()), Some("[2]"));
        let Scanned::Read { canonical, end } = scan(text, 19, 1, false, &mut scratch) else { panic!() };
        assert!(canonical.unchanged);
        assert_eq!((canonical.text, canonical.name(), end), (r#"{"name":"x"}"#, Some("x"), 31));
    }

    #[test]
    fn skip_finds_a_values_end() {
        for (text, end) in
            [(r#"{"a":[1,"]}\""],"b":{}},"#, 23), (r#"[1, 2] x"#, 6), (r#""a\"b","#, 6), ("123,", 3), ("true}", 4)]
        {
            assert_eq!(skip(text.as_bytes(), 0), Some(end), "{text}");
        }
    }

    #[test]
    fn its_keys_are_found_whatever_the_order_and_layout() {
        let text = "{\n  \"sync_info\": {\"on_update\": [{\"target_core\": 1}]},\n  \"opcode\": \"Matmult\",\n  \"name\": \"i\",\n  \"name\": \"j\"\n}";
        let mut scratch = Scratch::default();
        let c = canonical(text, &mut scratch).unwrap();
        assert_eq!(c.get("name").and_then(|v| v.as_str()), Some("j"));
        assert_eq!(c.name(), Some("j"));
        assert_eq!(c.get("opcode").and_then(|v| v.as_str()), Some("Matmult"));
        let target = c.get("sync_info").and_then(|s| s.get("on_update")).map(|u| {
            let mut cores = Vec::new();
            u.for_each_element(&mut |e| cores.push(e.get("target_core").and_then(JsonView::as_u64)));
            cores
        });
        assert_eq!(target, Some(vec![Some(1)]));
        assert!(c.get("missing").is_none());
        assert_eq!(c.text, printed(text));
    }

    /// Every question asked of the tape and of the parsed value gets the same answer.
    #[test]
    fn the_tape_and_the_value_agree() {
        fn same(tape: Node<'_>, value: &Value, text: &str) {
            assert_eq!(tape.json_type(), value.json_type(), "{text}");
            assert_eq!(tape.as_str(), value.as_str(), "{text}");
            assert_eq!(tape.as_u64(), JsonView::as_u64(value), "{text}");
            for key in ["a", "b", "memref", ""] {
                match (tape.get(key), JsonView::get(value, key)) {
                    (Some(t), Some(v)) => same(t, v, text),
                    (None, None) => {}
                    (t, v) => panic!("{text}: `{key}` is {t:?} on the tape, {v:?} in the value"),
                }
            }
            let mut tapes = Vec::new();
            tape.for_each_element(&mut |t| tapes.push(t));
            let mut values = Vec::new();
            value.for_each_element(&mut |v| values.push(v));
            assert_eq!(tapes.len(), values.len(), "{text}");
            for (t, v) in tapes.into_iter().zip(values) {
                same(t, v, text);
            }
        }
        for text in [
            r#"{"a":1,"b":[1,{"c":"]}"}],"a":2}"#,
            r#"{"a":[[],{},"x",1,-1,1.5,true,null,{"memref":"m"}],"b":{"a":{"a":0}}}"#,
            r#"{}"#,
            r#"{"a":18446744073709551615,"b":18446744073709551616,"memref":-0.0,"":0}"#,
            r#"{"":[{"a":{"b":"}"}}],"b":"s"}"#,
            "{ \"b\" : [ 1 , { \"memref\" : \"q\" } ] , \"a\" : { } }",
        ] {
            let value: Value = serde_json::from_str(text).unwrap();
            let mut scratch = Scratch::default();
            let c = canonical(text, &mut scratch).unwrap();
            same(c.root(), &value, text);
        }
    }

    /// Every shape the review and the fuzzer found, and the common ones: the fast path
    /// and the general one read each alike (`selfcheck::fast_agrees`).
    #[test]
    fn the_fast_path_reads_as_the_general_one() {
        for text in [
            r#"{"name":"i","opcode":"Matmult","sync_info":[[],[{"target_core":1}]]}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_update":[[1]]}}"#,
            r#"{"name":"i","opcode":"Matmult","ins":[["x"]],"outs":[{"memref":"y"},5,{"memref":7}]}"#,
            r#"{"name":"i","opcode":"Matmult","scale":-0,"bias":[1.0,-0.0,1e3,12345678901234567890123]}"#,
            r#"{"name":"i","opcode":"Matmult","queue":null,"target":"B"}"#,
            r#"{"name":5,"opcode":"Matmult"}"#,
            r#"{"opcode":"Matmult"}"#,
            r#"{"name":"i"}"#,
            r#"{"name":"i","opcode":null}"#,
            r#"{"name":"i","opcode":"Matmult","dependencies":["a",["b","Flow"],[],[5],{"x":1},"i"]}"#,
            r#"{"name":"i","opcode":"CompareAndBranch","on_true":"B1","on_false":"B2","target":"B3"}"#,
            r#"{"name":"i","opcode":"UnconditionalBranch","target":"B1"}"#,
            r#"{"name":"i","opcode":"SwitchQueueInstance","queue":"q","instance":"q_0"}"#,
            r#"{"name":"i","opcode":"Call","target":"f"}"#,
            r#"{"name":"i","opcode":"Loop","blocks":[{"name":"b","instructions":[{"name":"j","opcode":"Matmult"}]}]}"#,
            r#"{"name":"i","opcode":"DMABlock","remote_notifications":[1]}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_wait":[{"from":"x","id":1}],"on_update":[{"id":2,"target_core":1,"type":"semaphore","mode":"inc"}]}}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_update":[{"target_core":-1,"type":5,"mode":[]}],"on_wait":7}}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_update":{}}}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":null}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_update":[{"target_core":18446744073709551616}]}}"#,
            r#"{"opcode":"Matmult","name":"j","name":"i","ins":[{"memref":"a","memref":"b"}]}"#,
            "{\n  \"name\": \"i\",\n  \"opcode\": \"Matmult\",\n  \"debug\": {\"filename\": \"k.py\", \"lineno\": 3}\n}",
            r#"{"name":"i\n","opcode":"Matmult"}"#,
            r#"{"name":"é","opcode":"Matmult","x":"\u00e9"}"#,
            r#"{"sync_info":{"on_wait":[{"wait_value":1,"id":4,"from":"a"}]},"outs":[{"memref":"o","ap":[[1,2]]}],"opcode":"Activation","name":"x","ins":[{"memref":"i"}],"dependencies":[["a","Flow"]]}"#,
            r#"[1]"#,
            r#"{}"#,
        ] {
            crate::tools::selfcheck::fast_agrees(text).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn every_top_key_has_its_slot() {
        for (slot, key) in TOP_KEYS.iter().enumerate() {
            assert_eq!(top_slot(key), Some(slot));
        }
        assert_eq!(top_slot("debug"), None);
    }

    #[test]
    fn integers_as_printed() {
        for (token, as_is) in [
            ("0", true),
            ("-0", false),
            ("-1", true),
            ("18446744073709551615", true),
            ("18446744073709551616", false),
            ("99999999999999999999", false),
            ("-9223372036854775808", true),
            ("-9223372036854775809", false),
        ] {
            assert_eq!(integer_as_printed(token), as_is, "{token}");
        }
    }

    #[test]
    fn special_bytes_are_found_in_any_position() {
        for n in 0..20 {
            for byte in [b'"', b'\\', 0x1f, 0] {
                let mut text = vec![b'a'; n];
                text.push(byte);
                text.extend_from_slice(b"bbbbbbbbbbbb");
                assert_eq!(special(&text, 0), Some(n), "{n} {byte}");
            }
        }
        assert_eq!(special(b"abcdefghijklmnop", 0), None);
        assert_eq!(special("aé\u{7f}ÿ\"".as_bytes(), 0), Some(6));
    }
}
