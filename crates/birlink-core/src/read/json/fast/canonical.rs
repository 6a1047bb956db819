//! The canonical text of a scanned instruction — exactly what `serde_json` prints for
//! its value — written from its tape: what is clean is copied in one piece, an object
//! that is not has its members written in key order (the orders of key sequences seen
//! before remembered in [`Orders`]), a number that is not its printed form.

use super::plan::{name_at, Op, Plan};
use super::scan::number;
use super::tape::Slot;
use crate::model::view::JsonType;

/// The sorted orders of the last key sequences seen. A producer writes every
/// instruction of a kind (and every operand, every `sync_info` entry) with its keys in
/// the same order, so the order an object's members sort into is, nearly always, one
/// found already: it is looked up by the keys themselves (compared, not trusted to a
/// hash) instead of sorted again.
#[derive(Debug, Default)]
pub(crate) struct Orders {
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

/// Writes a scanned instruction's canonical text from its tape: what is clean is copied
/// as it is, in one piece; an object that is not has its members written in key order
/// (a repeated key's last), an array that is not its elements, a number that is not its
/// printed form. Every byte is copied once.
pub(super) struct Writer<'a> {
    /// The instruction's text, as bytes: every slot starts and ends at a byte of JSON's
    /// punctuation or a quote, so what is copied is whole characters.
    pub(super) input: &'a [u8],
    pub(super) tape: &'a [Slot],
    pub(super) out: &'a mut Vec<u8>,
    pub(super) kids: &'a mut Vec<u32>,
    pub(super) order: &'a mut Vec<usize>,
    pub(super) orders: &'a mut Orders,
    /// Where the top level's `name` string's characters went.
    pub(super) name: Option<(usize, usize)>,
    /// What is written, recorded as a plan for the instructions of the same shape
    /// ([`super::plan`]).
    pub(super) plan: Plan,
}

/// A slot's text in the input.
fn text_of(input: &[u8], slot: Slot) -> &[u8] {
    input.get(slot.start as usize..slot.end as usize).unwrap_or(&[])
}

impl Writer<'_> {
    /// Bytes of the writer's own (punctuation, a key).
    fn literal(&mut self, bytes: &[u8]) {
        self.out.extend_from_slice(bytes);
        self.plan.literal(bytes);
    }

    /// A value's text as it is in the input.
    fn copy(&mut self, at: usize, slot: Slot) {
        self.out.extend_from_slice(text_of(self.input, slot));
        self.plan.ops.push(Op::Slot(at as u32));
    }

    pub(super) fn write(&mut self, at: usize, top: bool) {
        let Some(&slot) = self.tape.get(at) else { return };
        if slot.clean {
            self.copy(at, slot);
            return;
        }
        match slot.kind {
            JsonType::Object => self.object(at, slot, top),
            JsonType::Array => {
                self.literal(b"[");
                let mut child = at + 1;
                while child < slot.next as usize {
                    if child > at + 1 {
                        self.literal(b",");
                    }
                    self.write(child, false);
                    child = self.tape.get(child).map_or(usize::MAX, |s| s.next as usize);
                }
                self.literal(b"]");
            }
            // Only a number is unclean as a scalar: its printed form (it was read once).
            _ => {
                number(text_of(self.input, slot), self.out);
                self.plan.ops.push(Op::Number(at as u32));
                self.plan.numbers += 1;
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
        self.literal(b"{");
        for n in 0..self.order.len() - from {
            let kid = self.kids[first + self.order[from + n]] as usize;
            let Some(&member) = self.tape.get(kid) else { continue };
            if n > 0 {
                self.literal(b",");
            }
            let (key_at, key_end) = (member.key.0 as usize, member.key.1 as usize);
            let key = self.input.get(key_at..key_end).unwrap_or(&[]);
            if member.clean && member.start as usize == key_end + 2 {
                // `"key":value` as it is in the input: one piece.
                self.out.extend_from_slice(self.input.get(key_at - 1..member.end as usize).unwrap_or(&[]));
                self.plan.ops.push(Op::Member(kid as u32));
            } else {
                self.literal(b"\"");
                self.literal(key);
                self.literal(b"\":");
                self.write(kid, false);
            }
            if top && member.kind == JsonType::String && key == b"name" {
                self.name = Some(name_at(&member, self.out.len()));
                self.plan.ops.push(Op::Name(kid as u32));
            }
        }
        self.literal(b"}");
        self.kids.truncate(first);
        self.order.truncate(from);
    }
}

/// Appends to `order` the order of an object's members (`kids`, their tape indices) by
/// key, a repeated key's last member only: from the orders seen before when these keys
/// came in this order already, else sorted (and remembered).
fn sorted_order(input: &[u8], tape: &[Slot], kids: &[u32], orders: &mut Orders, order: &mut Vec<usize>) {
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
