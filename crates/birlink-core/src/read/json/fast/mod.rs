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
//!
//! * `scan` — the scan and its checks;
//! * `tape` — the tape and the views that answer the reader's questions;
//! * `canonical` — the canonical text written from the tape;
//! * `plan` — what the writer did for an instruction, replayed for the next ones of its
//!   shape (a producer writes every instruction of a kind alike);
//! * this file — [`scan()`] and [`canonical()`], which put the three together.

mod canonical;
mod plan;
mod scan;
mod tape;

pub(crate) use scan::{skip, string_end, MAX_NESTING};
pub(crate) use tape::Canonical;
#[cfg(test)]
pub(crate) use tape::Node;

use canonical::{Orders, Writer};
use plan::{Plan, Plans};
use scan::{Scan, Stop};
use tape::Slot;

/// Buffers reused from one instruction to the next.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    out: Vec<u8>,
    /// The tape indices of the members of the objects being written, innermost last.
    kids: Vec<u32>,
    order: Vec<usize>,
    orders: Orders,
    plans: Plans,
    tape: Vec<Slot>,
}

impl Scratch {
    /// The canonical text the last scan wrote (when it was not its input).
    pub(crate) fn written(&self) -> &[u8] {
        &self.out
    }
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

/// The text a scan reads: a document's text, or bytes of one whose pieces are checked as
/// UTF-8 as they are read (a text the reader writes over: `json::direct`'s in-place
/// reading, which cannot hold it as `str`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Input<'s> {
    /// Text: every piece of it is `str` already.
    Text(&'s str),
    /// Bytes: a piece is `str` once checked.
    Bytes(&'s [u8]),
}

impl<'s> Input<'s> {
    #[inline]
    pub(crate) fn bytes(self) -> &'s [u8] {
        match self {
            Input::Text(text) => text.as_bytes(),
            Input::Bytes(bytes) => bytes,
        }
    }

    /// `range` of the input as text: `None` when it does not lie on whole characters.
    #[inline]
    pub(crate) fn piece(self, range: std::ops::Range<usize>) -> Option<&'s str> {
        match self {
            Input::Text(text) => text.get(range),
            Input::Bytes(bytes) => std::str::from_utf8(bytes.get(range)?).ok(),
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
    scan_input(Input::Text(text), at, nesting, blocks, scratch)
}

/// [`scan()`] of an [`Input`].
pub(crate) fn scan_input<'s>(
    text: Input<'s>,
    at: usize,
    nesting: usize,
    blocks: bool,
    scratch: &'s mut Scratch,
) -> Scanned<'s> {
    scratch.tape.clear();
    let mut scan = Scan {
        bytes: text.bytes(),
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
    let Some(input) = text.piece(at..end) else { return Scanned::Invalid };
    let clean = scratch.tape.first().is_some_and(|root| root.clean);
    let name = if clean {
        // The name's characters are where the text has them: the tape says.
        None
    } else {
        let bytes = input.as_bytes();
        let planned = bytes.len() <= Plans::LONGEST;
        let found = if planned { scratch.plans.find(bytes, &scratch.tape) } else { None };
        match found {
            Some(plan) => plan.replay(bytes, &scratch.tape, &mut scratch.out),
            None => {
                scratch.out.clear();
                let mut writer = Writer {
                    input: bytes,
                    tape: &scratch.tape,
                    out: &mut scratch.out,
                    kids: &mut scratch.kids,
                    order: &mut scratch.order,
                    orders: &mut scratch.orders,
                    name: None,
                    plan: Plan::default(),
                };
                writer.write(0, true);
                let (name, plan) = (writer.name, writer.plan);
                if planned {
                    scratch.plans.keep(bytes, &scratch.tape, plan);
                }
                name
            }
        }
    };
    let scratch: &'s Scratch = scratch;
    // Whole characters of the input joined at JSON's punctuation: UTF-8 (checked, as
    // safe code must; at memory speed for ASCII).
    let text = if clean {
        input
    } else {
        match std::str::from_utf8(&scratch.out) {
            Ok(text) => text,
            Err(_) => return Scanned::Invalid,
        }
    };
    let canonical = Canonical { text, unchanged: clean, tape: &scratch.tape, input, name };
    Scanned::Read { canonical, end }
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

#[cfg(test)]
mod tests {
    use super::scan::{integer_as_printed, special};
    use super::tape::{top_slot, TOP_KEYS};
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
            r#"{"a":12.}"#,
            r#"{"a":12e}"#,
            r#"{"a":12E+}"#,
            r#"{"a":123x}"#,
            r#"{"a":1-2}"#,
            r#"{"a":[12 ]3}"#,
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

    /// A plan replays the writer's work for an instruction of a shape met before
    /// (`plan.rs`): many instructions through one scratch — a few shapes repeated,
    /// each with its own values (strings and numbers of every length, so every offset
    /// moves), and shapes that differ from one another only in a key's ninth byte, in
    /// whitespace, in an array's length, in a number printed otherwise or in a key
    /// repeated — are each written as serde_json prints them, their names found.
    #[test]
    fn a_shape_met_again_is_written_as_the_writer_writes_it() -> Result<(), serde_json::Error> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let shapes = [
            r#"{"sync_info":{"on_wait":[{"value":N,"id":N}]},"outs":[{"ap":[[N,N],[N,N]],"memref":S}],"opcode":S,"name":S}"#,
            r#"{"sync_info":{"on_wait":[{"value":N,"id":N}]},"outs":[{"ap":[[N,N],[N,N],[N,N]],"memref":S}],"opcode":S,"name":S}"#,
            r#"{"dependencies_a":[S],"name":S,"engine":S}"#,
            r#"{"dependencies_b":[S],"name":S,"engine":S}"#,
            r#"{"dependencies_b": [S],"name":S,"engine":S}"#,
            "{\n  \"outs\": [\n    N\n  ],\n  \"name\": S,\n  \"a\": N\n}",
            r#"{"b":1e3,"name":S,"a":N}"#,
            r#"{"b":N,"name":S,"a":-0}"#,
            r#"{"b":N,"name":S,"b":S,"a":{"z":N,"y":N}}"#,
            r#"{"name":S,"x":{"b":N,"a":N}}"#,
            r#"{"x":{"b":N,"a":N},"name":S}"#,
            r#"{"z":S,"y":{"name":S}}"#,
            // One structure, keys in another order: only the keys' bytes tell them apart.
            r#"{"name":S,"dependencies_b":N,"dependencies_a":S}"#,
            r#"{"name":S,"dependencies_a":N,"dependencies_b":S}"#,
            r#"{"zz":S,"yb":N,"ya":S}"#,
            r#"{"zz":S,"ya":N,"yb":S}"#,
            // Clean values the writer copies whole: what is inside them is not the shape.
            r#"{"b":[[N],N],"name":S,"a":{"x":N}}"#,
            r#"{"b":[N,[N]],"name":S,"a":{"y":N}}"#,
            // One structure, a space after a colon or not.
            r#"{"b": N,"a":N,"name":S}"#,
            r#"{"b":N,"a":N,"name":S}"#,
        ];
        let mut scratch = Scratch::default();
        for _ in 0..4000 {
            let shape = shapes[next(shapes.len() as u64) as usize];
            let mut text = String::new();
            for c in shape.chars() {
                match c {
                    'N' => {
                        text.push_str(["0", "7", "-12", "123456789", "1.5", "18446744073709551615"][next(6) as usize])
                    }
                    'S' => {
                        let len = next(20) as usize;
                        text.push('"');
                        text.extend((0..len).map(|k| if k % 5 == 4 { 'é' } else { char::from(b'a' + next(26) as u8) }));
                        text.push('"');
                    }
                    c => text.push(c),
                }
            }
            let expected: Value = serde_json::from_str(&text)?;
            let c = canonical(&text, &mut scratch).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(c.text, printed(&text), "{text}");
            assert_eq!(c.name(), expected.get("name").and_then(Value::as_str), "{text}");
        }
        Ok(())
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
            assert_eq!(integer_as_printed(token.as_bytes()), as_is, "{token}");
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
        // Bytes next to a special one in the same word (a borrow flags the byte above
        // the first special one: 0x20 above 0x1f, `#` above `"`, `]` above `\`), and
        // every mix of them, against the byte-by-byte answer.
        let alphabet = [b'a', b'"', b'\\', 0, 0x1f, 0x20, 0x21, b'#', b']', 0x7f, 0x80, 0xff];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let len = (state % 24) as usize;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // Mostly plain bytes, as in real strings.
                    let pick = (state >> 32) as usize % (alphabet.len() * 3);
                    alphabet.get(pick).copied().unwrap_or(b'x')
                })
                .collect();
            let expected = text.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            for at in 0..=len {
                let from = text[at..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).map(|n| at + n);
                assert_eq!(special(&text, at), from, "{text:?} from {at}");
            }
            assert_eq!(special(&text, 0), expected, "{text:?}");
        }
    }
}
