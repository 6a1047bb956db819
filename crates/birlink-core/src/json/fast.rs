//! The common instruction, read without a tree.
//!
//! Most instructions of a real dump are ones no pass acts on (`Op::Other`): they are kept
//! as compact text and written back as they are. For those, building a map of every key
//! only to serialize it again is where reading spent its time. [`parse`] reads from the
//! instruction's text only the keys the reader checks and records (`name`, `opcode`, the
//! names it uses, `sync_info`), borrowing its strings, skipping every other value; and
//! [`is_canonical`] says whether the text is already what the writer would print (compact,
//! keys sorted, no escapes, integers only), so it can be kept byte for byte.
//!
//! Anything outside that narrow shape — a key of an unexpected type, a `null`, an escaped
//! string, a float — makes [`parse`] give up, and the instruction takes the general path
//! (a map, every check, a diagnostic where one is due). The fast path never reports:
//! what it accepts is what the general path accepts silently, with the same uses.

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

/// The keys of an instruction the reader looks at.
#[derive(Deserialize)]
pub(crate) struct FastInst<'a> {
    #[serde(borrow)]
    pub name: &'a str,
    #[serde(borrow)]
    pub opcode: &'a str,
    #[serde(default, borrow, deserialize_with = "present")]
    pub queue: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub target: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub on_true: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub on_false: Option<&'a str>,
    /// `[name, kind]` pairs (a dependency as a bare string takes the general path).
    #[serde(default, borrow, deserialize_with = "present")]
    pub dependencies: Option<Vec<Vec<&'a str>>>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub ins: Option<Vec<Operand<'a>>>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub outs: Option<Vec<Operand<'a>>>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub sync_info: Option<Sync<'a>>,
}

/// An access pattern: only its `memref` matters.
#[derive(Deserialize)]
pub(crate) struct Operand<'a> {
    #[serde(default, borrow, deserialize_with = "present")]
    pub memref: Option<&'a str>,
}

/// `sync_info`, as the reader checks it.
#[derive(Deserialize)]
pub(crate) struct Sync<'a> {
    #[serde(default, deserialize_with = "present")]
    #[allow(dead_code, reason = "read to check it is an array, as the general path does")]
    pub on_wait: Option<Vec<IgnoredAny>>,
    #[serde(default, borrow, deserialize_with = "present")]
    pub on_update: Option<Vec<Update<'a>>>,
}

/// An `on_update` entry, as the reader checks it.
#[derive(Deserialize)]
pub(crate) struct Update<'a> {
    #[serde(default, deserialize_with = "present")]
    pub target_core: Option<u64>,
    #[serde(default, borrow, deserialize_with = "present", rename = "type")]
    #[allow(dead_code, reason = "read to check it is a string, as the general path does")]
    pub kind: Option<&'a str>,
    #[serde(default, borrow, deserialize_with = "present")]
    #[allow(dead_code, reason = "read to check it is a string, as the general path does")]
    pub mode: Option<&'a str>,
}

/// A key that is present has a value of its type, never `null` (which `Option` would
/// take for absent, where the general path reports it).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

/// The instruction's keys, if its text is of the common shape; `None` sends it down the
/// general path.
pub(crate) fn parse(text: &str) -> Option<FastInst<'_>> {
    if !text.starts_with('{') {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// How far a (valid JSON) text is from what `serde_json` prints for its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Exactly it: no whitespace, every object's keys strictly ascending, no escape in any
    /// string, only integers that fit 64 bits.
    Canonical,
    /// All of that except that some object's keys are out of order (or repeated).
    Unsorted,
    /// Anything else (whitespace, an escape, a float).
    Other,
}

/// The text's [`Shape`], in one scan that stops at the first thing it cannot keep.
pub(crate) fn shape(text: &str) -> Shape {
    let bytes = text.as_bytes();
    // Per open container: `None` for an array, `Some(last key)` for an object (`Some(None)`
    // before its first key).
    let mut stack: Vec<Option<Option<&[u8]>>> = Vec::new();
    let mut expect_key = false;
    let mut sorted = true;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                stack.push(Some(None));
                expect_key = true;
                i += 1;
            }
            b'[' => {
                stack.push(None);
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
                i += 1;
            }
            b',' => {
                expect_key = matches!(stack.last(), Some(Some(_)));
                i += 1;
            }
            b':' => i += 1,
            b'"' => {
                let start = i + 1;
                let mut end = start;
                while end < bytes.len() && bytes[end] != b'"' {
                    if bytes[end] == b'\\' {
                        return Shape::Other;
                    }
                    end += 1;
                }
                if expect_key {
                    let key = &bytes[start..end];
                    match stack.last_mut() {
                        Some(Some(last)) => {
                            if last.is_some_and(|last| key <= last) {
                                sorted = false;
                            }
                            *last = Some(key);
                        }
                        _ => return Shape::Other,
                    }
                    expect_key = false;
                }
                i = end + 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if i < bytes.len() && matches!(bytes[i], b'.' | b'e' | b'E') {
                    return Shape::Other;
                }
                let digits = &text[start..i];
                if digits.parse::<i64>().is_err() && digits.parse::<u64>().is_err() {
                    return Shape::Other;
                }
            }
            b't' | b'f' | b'n' => {
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
            }
            _ => return Shape::Other,
        }
    }
    if sorted {
        Shape::Canonical
    } else {
        Shape::Unsorted
    }
}

/// Whether `text` is exactly what `serde_json` prints for its value.
pub(crate) fn is_canonical(text: &str) -> bool {
    shape(text) == Shape::Canonical
}

/// The compact text `serde_json` prints for an object whose only fault is the order of
/// its own keys (a dump that writes keys in its own order): the keys sorted, a repeated
/// key's last value kept (as a map keeps it), each value copied as it is. `None` when a
/// value is not canonical itself.
pub(crate) fn sorted_object(text: &str) -> Option<String> {
    let map: std::collections::BTreeMap<&str, &serde_json::value::RawValue> = serde_json::from_str(text).ok()?;
    let mut out = String::with_capacity(text.len());
    out.push('{');
    for (i, (key, value)) in map.iter().enumerate() {
        if !is_canonical(value.get()) {
            return None;
        }
        if i > 0 {
            out.push(',');
        }
        out.push('"');
        out.push_str(key);
        out.push_str("\":");
        out.push_str(value.get());
    }
    out.push('}');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn printed(text: &str) -> String {
        serde_json::to_string(&serde_json::from_str::<Value>(text).unwrap()).unwrap()
    }

    #[test]
    fn canonical_means_what_the_writer_prints() {
        for text in [
            r#"{"a":1,"b":[1,-2,{"c":"é","d":null}],"e":true}"#,
            r#"{}"#,
            r#"[]"#,
            r#"{"":1}"#,
            r#"{"a":{"a":{},"b":[]},"b":18446744073709551615}"#,
        ] {
            assert!(is_canonical(text), "{text}");
            assert_eq!(printed(text), text);
        }
        for text in [
            r#"{"b":1,"a":2}"#,
            r#"{"a":1, "b":2}"#,
            r#"{"a":1.5}"#,
            r#"{"a":1e3}"#,
            r#"{"a":"x\/y"}"#,
            r#"{"a\u0062":1}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"":1,"":2}"#,
            "{\"a\":1}\n",
            r#"{"a":18446744073709551616}"#,
        ] {
            assert!(!is_canonical(text), "{text}");
        }
    }

    #[test]
    fn an_object_with_its_keys_out_of_order_is_printed_sorted() {
        for text in [r#"{"b":1,"a":[1,{"x":2}]}"#, r#"{"name":"i","ins":[],"a":1,"a":2}"#] {
            assert_eq!(shape(text), Shape::Unsorted, "{text}");
            assert_eq!(sorted_object(text).as_deref(), Some(printed(text).as_str()), "{text}");
        }
        // A nested object out of order is not this case.
        assert_eq!(sorted_object(r#"{"b":{"d":1,"c":2},"a":1}"#), None);
        assert_eq!(shape("{\"a\": 1}"), Shape::Other);
    }

    #[test]
    fn the_fast_path_gives_up_on_anything_unusual() {
        let ok = r#"{"ins":[{"memref":"a"}],"name":"i","opcode":"Matmult","sync_info":{"on_update":[{"id":1,"target_core":1}]}}"#;
        let fast = parse(ok).unwrap();
        assert_eq!((fast.name, fast.opcode), ("i", "Matmult"));
        for text in [
            r#"{"opcode":"Matmult"}"#,
            r#"{"name":5,"opcode":"Matmult"}"#,
            r#"{"name":"i","opcode":"Matmult","queue":null}"#,
            r#"{"name":"i\n","opcode":"Matmult"}"#,
            r#"{"name":"i","opcode":"Matmult","dependencies":["a"]}"#,
            r#"{"name":"i","opcode":"Matmult","ins":[5]}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_update":[{"target_core":-1}]}}"#,
            r#"{"name":"i","opcode":"Matmult","sync_info":{"on_wait":{}}}"#,
            r#"{"name":"i","opcode":"Matmult","name":"j"}"#,
            r#"[1]"#,
        ] {
            assert!(parse(text).is_none(), "{text}");
        }
    }
}
