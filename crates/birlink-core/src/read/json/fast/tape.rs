//! The tape a scan records: one [`Slot`] per value of an instruction (its kind, its
//! extent, its key, where its subtree ends, whether its text is already canonical), and
//! the views the reader asks its questions through — [`Canonical`] (the text and its
//! tape), [`Top`] (the common top-level keys found at once), [`Node`] (one value, a
//! [`JsonView`] as a parsed map is) — so no text is scanned twice.

use crate::model::ir::KeysAt;
use crate::model::view::{JsonType, JsonView};

/// One value on the tape: its kind, where it is in the input (offsets from the
/// instruction's first byte), its key's characters when it is an object's member, the
/// tape index just past its subtree (its next sibling), and whether its text already is
/// what the writer prints for it (no whitespace, keys sorted and once, numbers as
/// printed, all the way down).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(super) kind: JsonType,
    pub(super) clean: bool,
    pub(super) start: u32,
    pub(super) end: u32,
    pub(super) key: (u32, u32),
    pub(super) next: u32,
}

/// An instruction's text in the form the writer prints, with its tape.
#[derive(Debug)]
pub(crate) struct Canonical<'s> {
    /// The canonical text.
    pub text: &'s str,
    /// Whether `text` is the input itself (not a byte was changed).
    pub unchanged: bool,
    /// The tape (offsets in `input`); its first slot is the instruction.
    pub(super) tape: &'s [Slot],
    /// The instruction's input text.
    pub(super) input: &'s str,
    /// Where the `name` string's characters are in `text`, when the writer wrote it
    /// (when `text` is the input, the tape says: [`Canonical::name`]).
    pub(super) name: Option<(usize, usize)>,
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
        let root = self.root();
        let mut found = [0u32; TOP_KEYS.len()];
        let end = root.slot().map_or(0, |s| s.next as usize);
        let mut at = 1;
        while let Some(slot) = self.tape.get(at).filter(|_| at < end) {
            let key = self.input.get(slot.key.0 as usize..slot.key.1 as usize).unwrap_or("");
            if let Some(index) = top_slot(key) {
                // A repeated key's last value, as a map keeps it.
                found[index] = at as u32;
            }
            at = (slot.next as usize).max(at + 1);
        }
        Top { root, found }
    }

    /// The instruction itself, as a view.
    pub(crate) fn root(&self) -> Node<'s> {
        Node { tape: self.tape, input: self.input, index: 0 }
    }

    /// The instruction's `name`, when it is a string: a slice of [`Self::text`], so the
    /// instruction can keep where it is instead of a copy.
    pub(crate) fn name(&self) -> Option<&'s str> {
        if self.unchanged {
            return self.root().last_member(b"name")?.as_str();
        }
        let (start, end) = self.name?;
        self.text.get(start..end)
    }

    /// [`Self::name`], given the instruction's [`Self::top`] (which found it in the same
    /// walk, when the text is the input).
    pub(crate) fn name_in(&self, top: &Top<'s>) -> Option<&'s str> {
        if self.unchanged {
            return top.get("name")?.as_str();
        }
        self.name()
    }
}

/// The top-level keys [`Top`] finds at once.
/// `engine` and the keys after it are the sync check's ([`KeysAt`]).
pub(super) const TOP_KEYS: [&str; 18] = [
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
    "engine",
    "pipe_id",
    "send_to_rank",
    "recv_from_rank",
    "dma_engine",
    "dma_blocks",
    "sema_group",
];

/// Where [`Top`] keeps `key`: its index in [`TOP_KEYS`] (a `match`, which compares a
/// key's length before its bytes).
pub(super) fn top_slot(key: &str) -> Option<usize> {
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
        "engine" => 11,
        "pipe_id" => 12,
        "send_to_rank" => 13,
        "recv_from_rank" => 14,
        "dma_engine" => 15,
        "dma_blocks" => 16,
        "sema_group" => 17,
        _ => return None,
    })
}

/// An instruction's top level, its common keys found ([`Canonical::top`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Top<'s> {
    root: Node<'s>,
    /// Each key's value's tape index (0: not there, the root's own).
    found: [u32; TOP_KEYS.len()],
}

impl<'s> Top<'s> {
    /// The value of one of the instruction's keys (the last, when the text repeats it).
    #[inline]
    pub(crate) fn get(&self, key: &str) -> Option<Node<'s>> {
        match top_slot(key) {
            Some(slot) => match self.found[slot] {
                0 => None,
                index => Some(Node { index: index as usize, ..self.root }),
            },
            None => self.root.get(key),
        }
    }

    /// Where the sync check's three values start in the instruction's input text
    /// ([`KeysAt`]), for an instruction whose opcode is `opcode`: unknown when it has
    /// one of the other keys the check reads, or one of the opcodes it reads more of.
    pub(crate) fn keys_at(&self, opcode: &str) -> KeysAt {
        let other = |key: &&str| top_slot(key).is_some_and(|slot| self.found[slot] != 0);
        if KeysAt::OTHER_SYNC_KEYS.iter().any(other) || KeysAt::OTHER_SYNC_OPCODES.contains(&opcode) {
            return KeysAt::UNKNOWN;
        }
        let Some(root) = self.root.slot() else { return KeysAt::UNKNOWN };
        let start = |key: &str| -> Option<usize> {
            let index = self.found[top_slot(key)?];
            let slot = self.root.tape.get(index as usize).filter(|_| index != 0)?;
            slot.start.checked_sub(root.start).map(|at| at as usize)
        };
        KeysAt::of((root.end - root.start) as usize, start("engine"), start("sync_info"), start("dependencies"))
    }
}

/// One value of a scanned instruction, read through its tape.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'s> {
    pub(super) tape: &'s [Slot],
    pub(super) input: &'s str,
    pub(super) index: usize,
}

impl<'s> Node<'s> {
    pub(super) fn slot(self) -> Option<Slot> {
        self.tape.get(self.index).copied()
    }

    /// The value's text, as written in the input.
    pub(super) fn raw(self) -> &'s str {
        self.slot().and_then(|s| self.input.get(s.start as usize..s.end as usize)).unwrap_or("")
    }

    /// The last member named `key` (as a map keeps a repeated key), its key's bytes
    /// compared where the tape says they lie: [`JsonView::get`] and the top level's
    /// look-ups, the reader's commonest walk.
    #[inline]
    pub(super) fn last_member(self, key: &[u8]) -> Option<Node<'s>> {
        let bytes = self.input.as_bytes();
        let end = self.slot().map_or(0, |s| s.next as usize);
        let mut at = self.index + 1;
        let mut found = None;
        while let Some(slot) = self.tape.get(at).filter(|_| at < end) {
            let (a, b) = (slot.key.0 as usize, slot.key.1 as usize);
            if b.wrapping_sub(a) == key.len() && bytes.get(a..b) == Some(key) {
                found = Some(at);
            }
            at = (slot.next as usize).max(at + 1);
        }
        found.map(|index| Node { index, ..self })
    }

    /// The key of each child, with the child (an object's members, an array's elements
    /// with an empty key), in written order.
    pub(super) fn children(self) -> impl Iterator<Item = (&'s str, Node<'s>)> {
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

    fn as_i64(self) -> Option<i64> {
        if self.json_type() != JsonType::Number {
            return None;
        }
        crate::model::view::integer_i64(self.raw())
    }

    fn get(self, key: &str) -> Option<Self> {
        if self.json_type() != JsonType::Object {
            return None;
        }
        self.last_member(key.as_bytes())
    }

    fn for_each_element(self, each: &mut dyn FnMut(Self)) {
        if self.json_type() == JsonType::Array {
            self.children().for_each(|(_, node)| each(node));
        }
    }

    fn for_each_member(self, each: &mut dyn FnMut(&'s str, Self)) {
        if self.json_type() == JsonType::Object {
            self.children().for_each(|(key, node)| each(key, node));
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
