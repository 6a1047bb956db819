//! The common instruction, read without a tree.
//!
//! Most instructions of a real dump are ones no pass acts on (`Op::Other`): they are kept
//! as compact text and written back as they are. Building a map of every key only to
//! print it again is where reading spent its time, so [`canonical`] reads an
//! instruction's text once and makes, on the way, exactly what `serde_json` would print
//! for its value: whitespace dropped, every object's keys sorted (a repeated key's last
//! value kept, as a map keeps it), numbers as the writer prints them (`-0` is `-0.0`,
//! `1e3` is `1000.0`). When the text already is that — a compact dump with sorted keys —
//! nothing is copied at all, and the instruction keeps a span of the file.
//!
//! The same pass notes the instruction's own keys, so the reader asks [`Canonical::get`]
//! for `name`, `opcode`, `sync_info` and the names it uses, through the [`JsonView`]
//! questions the general path asks of a parsed map (`json::view`, `uses::each_ref`):
//! one definition of each check, two forms of input.
//!
//! What it cannot vouch for it refuses (`None`), and the instruction takes the general
//! path (a map, every check, a diagnostic where one is due): a string with an escape,
//! anything that is not JSON, nesting deeper than serde_json allows.
//!
//! [`JsonView`]: crate::model::view::JsonView

use crate::model::view::Text;

/// Deeper than this, the text is refused (serde_json refuses a document at 128).
const MAX_DEPTH: usize = 128;

/// Buffers reused from one instruction to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    out: String,
    members: Vec<Member>,
    order: Vec<usize>,
    rebuilt: String,
    orders: Orders,
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
    entries: Vec<(Vec<u8>, Vec<usize>)>,
    /// The entry to replace next.
    next: usize,
    /// The key sequence of the object being sorted, joined as in `entries`.
    joined: Vec<u8>,
}

impl Orders {
    /// How many key sequences are remembered.
    const SIZE: usize = 16;
}

/// One member of an object: where it starts (its key's opening quote), its key's
/// characters, where its value starts, and where it ends, as offsets in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Member {
    start: usize,
    key: (usize, usize),
    value: usize,
    end: usize,
}

/// An instruction's text in the form the writer prints, with its own keys.
#[derive(Debug)]
pub(crate) struct Canonical<'s> {
    /// The canonical text.
    pub text: &'s str,
    /// Whether `text` is the input itself (not a byte was changed).
    pub unchanged: bool,
    /// The top-level members, sorted by key, each key once.
    members: &'s [Member],
}

impl<'s> Canonical<'s> {
    /// The value of one of the instruction's keys.
    pub(crate) fn get(&self, key: &str) -> Option<Text<'s>> {
        let text = self.text;
        let found = self.members.binary_search_by(|m| text.get(m.key.0..m.key.1).unwrap_or("").cmp(key)).ok()?;
        let member = self.members.get(found)?;
        text.get(member.value..member.end).map(Text)
    }
}

/// The canonical form of `input`, which must be one JSON object; `None` for anything
/// the fast path does not read (see the module's documentation).
pub(crate) fn canonical<'s>(input: &'s str, scratch: &'s mut Scratch) -> Option<Canonical<'s>> {
    scratch.out.clear();
    scratch.members.clear();
    let mut scan = Scan {
        input,
        bytes: input.as_bytes(),
        i: 0,
        copying: false,
        out: &mut scratch.out,
        members: &mut scratch.members,
        order: &mut scratch.order,
        rebuilt: &mut scratch.rebuilt,
        orders: &mut scratch.orders,
    };
    scan.ws()?;
    if scan.bytes.get(scan.i) != Some(&b'{') {
        return None;
    }
    scan.object(0)?;
    scan.ws()?;
    if scan.i != scan.bytes.len() {
        return None;
    }
    let copying = scan.copying;
    let scratch: &'s Scratch = scratch;
    let text = if copying { scratch.out.as_str() } else { input };
    Some(Canonical { text, unchanged: !copying, members: &scratch.members })
}

/// The scan of one text. Offsets are in the output's coordinates: while nothing has
/// changed (`copying` is false) the output *is* the input read so far, so nothing is
/// written; at the first change, the input read so far is copied and writing begins.
struct Scan<'i, 's> {
    input: &'i str,
    bytes: &'i [u8],
    /// Where the scan is in the input.
    i: usize,
    copying: bool,
    out: &'s mut String,
    /// Members of the objects open, innermost last; then the top level's.
    members: &'s mut Vec<Member>,
    order: &'s mut Vec<usize>,
    rebuilt: &'s mut String,
    orders: &'s mut Orders,
}

impl Scan<'_, '_> {
    /// Where the output is.
    fn pos(&self) -> usize {
        if self.copying {
            self.out.len()
        } else {
            self.i
        }
    }

    /// The output differs from the input from input offset `at` on (nothing before it
    /// has changed, so the output so far is `input[..at]`).
    fn diverge(&mut self, at: usize) -> Option<()> {
        if !self.copying {
            self.out.clear();
            self.out.push_str(self.input.get(..at)?);
            self.copying = true;
        }
        Some(())
    }

    /// Passes `input[from..to]` to the output.
    fn copy(&mut self, from: usize, to: usize) -> Option<()> {
        if self.copying {
            self.out.push_str(self.input.get(from..to)?);
        }
        Some(())
    }

    /// The output's text between two of its offsets.
    fn output(&self, from: usize, to: usize) -> &str {
        let text = if self.copying { self.out.as_str() } else { self.input };
        text.get(from..to).unwrap_or("")
    }

    /// Skips whitespace, which the writer does not print.
    fn ws(&mut self) -> Option<()> {
        let start = self.i;
        while matches!(self.bytes.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
        if self.i > start {
            self.diverge(start)?;
        }
        Some(())
    }

    /// Passes one structural byte, which must be `byte`.
    fn expect(&mut self, byte: u8) -> Option<()> {
        if self.bytes.get(self.i) != Some(&byte) {
            return None;
        }
        self.copy(self.i, self.i + 1)?;
        self.i += 1;
        Some(())
    }

    fn value(&mut self, depth: usize) -> Option<()> {
        if depth >= MAX_DEPTH {
            return None;
        }
        match *self.bytes.get(self.i)? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(|_| ()),
            b't' => self.literal("true"),
            b'f' => self.literal("false"),
            b'n' => self.literal("null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    /// A string without escapes; its characters' offsets in the output.
    fn string(&mut self) -> Option<(usize, usize)> {
        let start = self.i;
        let rest = self.bytes.get(start + 1..)?;
        let len = memchr::memchr2(b'"', b'\\', rest)?;
        if rest[len] == b'\\' {
            return None;
        }
        let at = self.pos();
        let end = start + 1 + len + 1;
        self.copy(start, end)?;
        self.i = end;
        Some((at + 1, at + 1 + len))
    }

    fn literal(&mut self, word: &str) -> Option<()> {
        let end = self.i + word.len();
        if self.bytes.get(self.i..end)? != word.as_bytes() {
            return None;
        }
        self.copy(self.i, end)?;
        self.i = end;
        Some(())
    }

    fn number(&mut self) -> Option<()> {
        let start = self.i;
        let mut end = start;
        while matches!(self.bytes.get(end), Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')) {
            end += 1;
        }
        let token = self.input.get(start..end)?;
        self.i = end;
        if integer_as_printed(token) {
            return self.copy(start, end);
        }
        // Anything else is what serde_json prints for the number it reads.
        let number: serde_json::Number = serde_json::from_str(token).ok()?;
        let printed = serde_json::to_string(&number).ok()?;
        if printed != token {
            self.diverge(start)?;
        }
        if self.copying {
            self.out.push_str(&printed);
        }
        Some(())
    }

    fn array(&mut self, depth: usize) -> Option<()> {
        self.expect(b'[')?;
        self.ws()?;
        if self.bytes.get(self.i) == Some(&b']') {
            return self.expect(b']');
        }
        loop {
            self.ws()?;
            self.value(depth)?;
            self.ws()?;
            match self.bytes.get(self.i)? {
                b',' => self.expect(b',')?,
                b']' => return self.expect(b']'),
                _ => return None,
            }
        }
    }

    /// An object, its keys sorted when they are not. The top level's members (`depth`
    /// 0) stay in `members`; a nested object's are dropped once it is done.
    fn object(&mut self, depth: usize) -> Option<()> {
        let open = self.pos();
        self.expect(b'{')?;
        let first = self.members.len();
        let mut sorted = true;
        self.ws()?;
        if self.bytes.get(self.i) != Some(&b'}') {
            loop {
                self.ws()?;
                if self.bytes.get(self.i) != Some(&b'"') {
                    return None;
                }
                let start = self.pos();
                let key = self.string()?;
                self.ws()?;
                self.expect(b':')?;
                self.ws()?;
                let value = self.pos();
                self.value(depth)?;
                let end = self.pos();
                if let Some(last) = self.members[first..].last() {
                    // Strictly ascending, as a sorted map prints them; a repeat is not.
                    if self.output(key.0, key.1) <= self.output(last.key.0, last.key.1) {
                        sorted = false;
                    }
                }
                self.members.push(Member { start, key, value, end });
                self.ws()?;
                match self.bytes.get(self.i)? {
                    b',' => self.expect(b',')?,
                    b'}' => break,
                    _ => return None,
                }
            }
        }
        if !sorted {
            self.diverge(self.i)?;
            self.sort_members(open + 1, first)?;
        }
        self.expect(b'}')?;
        if depth > 0 {
            self.members.truncate(first);
        }
        Some(())
    }

    /// Rewrites the members from `first` on (the output from `from` to its end) in key
    /// order, keeping a repeated key's last value.
    fn sort_members(&mut self, from: usize, first: usize) -> Option<()> {
        self.sorted_order(first)?;
        let members = &self.members[first..];
        self.rebuilt.clear();
        let mut sorted = Vec::with_capacity(self.order.len());
        for &m in self.order.iter() {
            let member = members[m];
            if !self.rebuilt.is_empty() {
                self.rebuilt.push(',');
            }
            let start = from + self.rebuilt.len();
            self.rebuilt.push_str(self.out.get(member.start..member.end)?);
            let moved = |offset: usize| start + (offset - member.start);
            sorted.push(Member {
                start,
                key: (moved(member.key.0), moved(member.key.1)),
                value: moved(member.value),
                end: moved(member.end),
            });
        }
        self.out.truncate(from);
        self.out.push_str(self.rebuilt);
        self.members.truncate(first);
        self.members.extend(sorted);
        Some(())
    }

    /// Sets `order` to the written indices of the members from `first` on, in key order,
    /// a repeated key's last member only: from the orders seen before when these keys
    /// came in this order already, else sorted (and remembered).
    fn sorted_order(&mut self, first: usize) -> Option<()> {
        let members = &self.members[first..];
        let out = self.out.as_bytes();
        let key = |m: usize| members.get(m).and_then(|m| out.get(m.key.0..m.key.1)).unwrap_or(b"");
        let orders = &mut *self.orders;
        orders.joined.clear();
        for m in 0..members.len() {
            orders.joined.extend_from_slice(key(m));
            orders.joined.push(b'"');
        }
        if let Some((_, order)) = orders.entries.iter().find(|(keys, _)| *keys == orders.joined) {
            self.order.clear();
            self.order.extend_from_slice(order);
            return Some(());
        }
        self.order.clear();
        self.order.extend(0..members.len());
        self.order.sort_unstable_by(|&a, &b| key(a).cmp(key(b)).then(a.cmp(&b)));
        // Of members with the same key, the last written wins.
        let mut n = 0;
        while n < self.order.len() {
            if self.order.get(n + 1).is_some_and(|&next| key(next) == key(self.order[n])) {
                self.order.remove(n);
            } else {
                n += 1;
            }
        }
        let entry = (orders.joined.clone(), self.order.clone());
        if orders.entries.len() < Orders::SIZE {
            orders.entries.push(entry);
        } else {
            orders.entries[orders.next] = entry;
            orders.next = (orders.next + 1) % Orders::SIZE;
        }
        Some(())
    }
}

/// Whether an integer token is printed as it is: one `serde_json` reads as an integer
/// (fits `u64`, or `i64` when negative) and prints back the same. `-0` is not: it is read
/// as the float `-0.0`.
fn integer_as_printed(token: &str) -> bool {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, token),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || (digits.len() > 1 && digits.starts_with('0'))
    {
        return false;
    }
    if negative {
        token.parse::<i64>().is_ok_and(|n| n != 0)
    } else {
        token.parse::<u64>().is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::view::JsonView;
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
        ] {
            assert_eq!(canonical_of(text), Some((text.to_owned(), true)), "{text}");
            assert_eq!(printed(text), text);
        }
        for text in [
            r#"{"b":1,"a":2}"#,
            r#"{"a":1, "b":2}"#,
            "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}",
            r#"{"a":1.5e0}"#,
            r#"{"a":1e3}"#,
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

    #[test]
    fn its_keys_are_found_whatever_the_order_and_layout() {
        let text = "{\n  \"sync_info\": {\"on_update\": [{\"target_core\": 1}]},\n  \"opcode\": \"Matmult\",\n  \"name\": \"i\",\n  \"name\": \"j\"\n}";
        let mut scratch = Scratch::default();
        let c = canonical(text, &mut scratch).unwrap();
        assert_eq!(c.get("name").and_then(|v| v.as_str()), Some("j"));
        assert_eq!(c.get("opcode").and_then(|v| v.as_str()), Some("Matmult"));
        assert_eq!(c.get("sync_info").map(|v| v.0), Some(r#"{"on_update":[{"target_core":1}]}"#));
        assert_eq!(c.get("missing"), None);
        assert_eq!(c.text, printed(text));
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
            r#"[1]"#,
            r#"{}"#,
        ] {
            crate::tools::selfcheck::fast_agrees(text).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    #[test]
    fn integers_as_printed() {
        for (token, as_is) in [
            ("0", true),
            ("-0", false),
            ("-1", true),
            ("01", false),
            ("18446744073709551615", true),
            ("18446744073709551616", false),
            ("-9223372036854775808", true),
            ("-9223372036854775809", false),
            ("1.0", false),
            ("", false),
            ("-", false),
        ] {
            assert_eq!(integer_as_printed(token), as_is, "{token}");
        }
    }
}
