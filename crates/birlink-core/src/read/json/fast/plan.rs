//! Plans: the canonical text of an instruction whose shape was met before, written by
//! replaying what the [`Writer`] did for the first one of that shape.
//!
//! A producer writes every instruction of a kind with the same keys in the same order,
//! the same nesting and the same whitespace; only the values differ. What the writer
//! does for such an instruction — which bytes it writes of its own (`{`, `,`, a key,
//! `":`), which values it copies from the input, which numbers it prints again, in what
//! order — is decided by that shape alone, never by the values. So the writer's work
//! for the first instruction of a shape is recorded as a [`Plan`] (a list of [`Op`]s
//! naming tape slots, not offsets), and the next instructions of the shape replay it:
//! a few copies instead of a walk of the tape that joins, looks up and sorts each
//! object's keys.
//!
//! The shape is the instruction's **signature**, made from its tape: for every slot its
//! kind, whether it is clean, where its subtree ends, whether its value follows its key's
//! `":` at once, and its key's bytes. Two instructions with one signature get the same
//! writer's work, byte for byte. A plan is found by holding its signature against the
//! instruction's tape word by word (nothing trusted to a hash, nothing copied); a test
//! holds replayed texts to serde_json's on shapes mixed that differ in each of these.
//! An instruction of 128 MiB or more (a key's length must fit its word) is not planned.
//!
//! [`Writer`]: super::canonical::Writer

use super::scan::number;
use super::tape::Slot;

/// One step of a plan. Slots are tape indices; `Lit` a range of the plan's own bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// The plan's bytes `start..end`: punctuation and keys.
    Lit(u32, u32),
    /// A value's text, as it is in the input.
    Slot(u32),
    /// A member as it is in the input, `"key":value`, in one piece.
    Member(u32),
    /// A number, as serde_json prints it.
    Number(u32),
    /// The top level's `name` string (this slot) was just written: where its characters
    /// went in the output.
    Name(u32),
}

/// What the writer did for one shape.
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub(super) ops: Vec<Op>,
    /// The writer's own bytes (then 16 zeros, once kept: a piece is copied as 16).
    pub(super) bytes: Vec<u8>,
    /// How many numbers it prints again.
    pub(super) numbers: usize,
}

impl Plan {
    /// Records `bytes` written by the writer itself (merged with the literal before).
    pub(super) fn literal(&mut self, bytes: &[u8]) {
        let end = self.bytes.len() as u32;
        self.bytes.extend_from_slice(bytes);
        let new_end = self.bytes.len() as u32;
        if let Some(Op::Lit(_, last)) = self.ops.last_mut() {
            if *last == end {
                *last = new_end;
                return;
            }
        }
        self.ops.push(Op::Lit(end, new_end));
    }

    /// Writes an instruction of this plan's shape: its text (`input`, `tape`) into
    /// `out` (cleared first); returns where the top level's `name` characters went.
    ///
    /// Every piece is a value's text, a member's or the plan's own bytes, most of them
    /// short: `out` is sized first for all of them, and a piece of up to 16 bytes is
    /// copied as 16 (what follows it is written over by the next piece, or cut off at
    /// the end), which is two moves where a copy of its own length is a call.
    pub(super) fn replay(&self, input: &[u8], tape: &[Slot], out: &mut Vec<u8>) -> Option<(usize, usize)> {
        // The input's bytes are copied once at most; a number printed again is at most
        // 24 bytes (`-1.7976931348623157e308`).
        let bound = self.bytes.len() + input.len() + 32 * self.numbers + 16;
        out.clear();
        out.resize(bound, 0);
        let mut w = 0;
        let mut name = None;
        for &op in &self.ops {
            match op {
                Op::Lit(start, end) => put(out, &mut w, &self.bytes, start as usize, end as usize),
                Op::Slot(at) => {
                    if let Some(slot) = tape.get(at as usize) {
                        put(out, &mut w, input, slot.start as usize, slot.end as usize);
                    }
                }
                Op::Member(at) => {
                    if let Some(slot) = tape.get(at as usize) {
                        put(out, &mut w, input, (slot.key.0 as usize).saturating_sub(1), slot.end as usize);
                    }
                }
                Op::Number(at) => {
                    if let Some(slot) = tape.get(at as usize) {
                        let mut printed = Vec::new();
                        number(input.get(slot.start as usize..slot.end as usize).unwrap_or(&[]), &mut printed);
                        put(out, &mut w, &printed, 0, printed.len());
                    }
                }
                Op::Name(at) => name = tape.get(at as usize).map(|slot| name_at(slot, w)),
            }
        }
        out.truncate(w);
        name
    }
}

/// Copies `from[start..end]` to `out[*w..]` and moves `w` past it: a piece of up to 16
/// bytes as 16 when both sides have them; `out` grown if it must be (it is sized so that
/// it need not).
#[inline(always)]
fn put(out: &mut Vec<u8>, w: &mut usize, from: &[u8], start: usize, end: usize) {
    let len = end.saturating_sub(start);
    if len <= 16 {
        if let (Some(to), Some(piece)) = (out.get_mut(*w..*w + 16), from.get(start..start + 16)) {
            to.copy_from_slice(piece);
            *w += len;
            return;
        }
    }
    let piece = from.get(start..end).unwrap_or(&[]);
    if out.len() < *w + piece.len() {
        out.resize(*w + piece.len(), 0);
    }
    if let Some(to) = out.get_mut(*w..*w + piece.len()) {
        to.copy_from_slice(piece);
    }
    *w += piece.len();
}

/// Where a string's characters are in the output, the string (`slot`, copied as it is)
/// having just been written up to `written`.
pub(super) fn name_at(slot: &Slot, written: usize) -> (usize, usize) {
    let len = (slot.end - slot.start) as usize;
    (written + 1 - len.min(written + 1), written.saturating_sub(1))
}

/// The plans of the last shapes met. Shapes met often move to the front; a new one
/// replaces the last.
#[derive(Debug, Default)]
pub(crate) struct Plans {
    entries: Vec<(Vec<u64>, Plan)>,
}

impl Plans {
    /// How many shapes are remembered.
    const SIZE: usize = 64;
    /// The longest instruction text planned: a key's length fits 27 bits of its word.
    pub(super) const LONGEST: usize = (1 << 27) - 1;

    /// The plan for the instruction whose text and tape these are, if its shape was met:
    /// each remembered signature is held against the instruction's, word by word, until
    /// one differs (most differ at once: the first word holds the tape's length).
    pub(super) fn find(&mut self, input: &[u8], tape: &[Slot]) -> Option<&Plan> {
        let found = self.entries.iter().position(|(signature, _)| signs(input, tape, signature))?;
        let found = if found > 0 {
            self.entries.swap(found, found - 1);
            found - 1
        } else {
            found
        };
        self.entries.get(found).map(|(_, plan)| plan)
    }

    /// Keeps the plan recorded for this instruction, whose shape [`Plans::find`] did not
    /// find.
    pub(super) fn keep(&mut self, input: &[u8], tape: &[Slot], mut plan: Plan) {
        plan.bytes.extend_from_slice(&[0; 16]);
        if self.entries.len() >= Self::SIZE {
            self.entries.pop();
        }
        let mut signature = Vec::new();
        sign(input, tape, &mut signature);
        self.entries.push((signature, plan));
    }
}

/// A slot's first word in a signature: its kind, whether it is clean, whether its value
/// follows its key's `":` at once, its key's length and its extent on the tape.
#[inline(always)]
fn head(at: usize, slot: &Slot) -> u64 {
    let (key_at, key_end) = (slot.key.0 as usize, slot.key.1 as usize);
    let key_len = key_end.saturating_sub(key_at);
    let tight = slot.start as usize == key_end + 2;
    let extent = u64::from(slot.next).wrapping_sub(at as u64) & 0xffff_ffff;
    slot.kind as u64
        | u64::from(slot.clean) << 3
        | u64::from(tight) << 4
        | (key_len as u64 & 0x7ff_ffff) << 5
        | extent << 32
}

/// The words of a slot's key, eight bytes to a word (the last word's bytes past the key
/// zero), to `each` until it says stop; false when it did. Most keys are eight bytes or
/// fewer with eight bytes of the text from their first: one word, masked.
#[inline(always)]
fn key_words(input: &[u8], slot: &Slot, mut each: impl FnMut(u64) -> bool) -> bool {
    let (mut from, key_end) = (slot.key.0 as usize, slot.key.1 as usize);
    if from >= key_end {
        return true;
    }
    if key_end - from <= 8 {
        if let Some(eight) = input.get(from..from + 8) {
            let mut word = [0u8; 8];
            word.copy_from_slice(eight);
            return each(u64::from_le_bytes(word) & (u64::MAX >> (8 * (8 - (key_end - from)))));
        }
    }
    while from < key_end {
        let left = key_end - from;
        let word = match input.get(from..from + 8) {
            Some(eight) => {
                let mut word = [0u8; 8];
                word.copy_from_slice(eight);
                u64::from_le_bytes(word)
            }
            None => input.get(from..key_end).unwrap_or(&[]).iter().rev().fold(0, |word, &b| word << 8 | u64::from(b)),
        };
        if !each(word & (u64::MAX >> (8 * 8usize.saturating_sub(left)))) {
            return false;
        }
        from += 8;
    }
    true
}

/// The tape index of the slot the signature takes after the one at `at`: past a clean
/// value's subtree, which the writer copies whole and never looks into (its extent, in
/// its slot's word, keeps the indices after it the same).
#[inline(always)]
fn after(at: usize, slot: &Slot) -> usize {
    if slot.clean && at > 0 {
        (slot.next as usize).max(at + 1)
    } else {
        at + 1
    }
}

/// An instruction's signature (see the module's header), into `out`.
fn sign(input: &[u8], tape: &[Slot], out: &mut Vec<u64>) {
    out.clear();
    let mut at = 0;
    while let Some(slot) = tape.get(at) {
        out.push(head(at, slot));
        key_words(input, slot, |word| {
            out.push(word);
            true
        });
        at = after(at, slot);
    }
}

/// Whether `signature` is this instruction's, compared as it is made (no copy).
fn signs(input: &[u8], tape: &[Slot], signature: &[u64]) -> bool {
    let mut n = 0;
    let mut at = 0;
    while let Some(slot) = tape.get(at) {
        if signature.get(n) != Some(&head(at, slot)) {
            return false;
        }
        n += 1;
        at = after(at, slot);
        let same = key_words(input, slot, |word| {
            n += 1;
            signature.get(n - 1) == Some(&word)
        });
        if !same {
            return false;
        }
    }
    n == signature.len()
}
