//! The `fast_vs_general` target's model: one instruction's JSON of any shape, printed in
//! any layout and key order.
//!
//! Its keys come mostly from the ones the reader looks at (`name`, `opcode`, `ins`,
//! `sync_info`, …) and their values from shapes that are almost right (an array where an
//! object belongs, `-0`, `null`, a number too large, an escaped string), so the fuzzer
//! spends its time where the two reading paths could part. The text is then printed
//! with arbitrary whitespace, in an arbitrary key order, with keys repeated.

use arbitrary::{Arbitrary, Result, Unstructured};

/// Keys the reader reads, and a few it does not.
const KEYS: [&str; 24] = [
    "name",
    "opcode",
    "ins",
    "outs",
    "memref",
    "sync_info",
    "on_wait",
    "on_update",
    "target_core",
    "type",
    "mode",
    "id",
    "dependencies",
    "queue",
    "instance",
    "target",
    "on_true",
    "on_false",
    "blocks",
    "instructions",
    "debug",
    "filename",
    "cores",
    "remote_notifications",
];

/// Opcodes, those the passes act on first.
const OPCODES: [&str; 12] = [
    "Matmult",
    "Activation",
    "CompareAndBranch",
    "UnconditionalBranch",
    "SwitchQueueInstance",
    "Call",
    "Loop",
    "DMABlock",
    "CoreBarrier",
    "Return",
    "GPSIMDSB2SB",
    "TensorCopy",
];

/// Strings: names, opcodes, and some that need escapes.
fn string(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0u8..=9)? {
        0..=3 => ["a", "b", "i", "q", "q_0", "Block1", "c_partial_0", "f"][u.choose_index(8)?].to_owned(),
        4..=6 => OPCODES[u.choose_index(OPCODES.len())?].to_owned(),
        7 => KEYS[u.choose_index(KEYS.len())?].to_owned(),
        8 => ["a\\/b", "\\u0041", "x\\n", "é", ""][u.choose_index(5)?].to_owned(),
        _ => {
            let text = String::arbitrary(u)?;
            serde_json::to_string(&text).map(|quoted| quoted[1..quoted.len() - 1].to_owned()).unwrap_or_default()
        }
    })
}

/// A number's text, as a producer may write it.
fn number(u: &mut Unstructured<'_>) -> Result<String> {
    Ok(match u.int_in_range(0u8..=9)? {
        0..=3 => u.int_in_range(0u32..=3)?.to_string(),
        4 => "-0".to_owned(),
        5 => ["1.0", "1e3", "-0.0", "1.5E+2", "0.1"][u.choose_index(5)?].to_owned(),
        6 => "18446744073709551616".to_owned(),
        7 => i64::arbitrary(u)?.to_string(),
        8 => u64::arbitrary(u)?.to_string(),
        _ => format!("{}", f64::from(i32::arbitrary(u)?) / 7.0),
    })
}

/// Whitespace between tokens.
fn ws(u: &mut Unstructured<'_>, out: &mut String) -> Result<()> {
    if u.ratio(1u8, 3u8)? {
        for _ in 0..u.int_in_range(1u8..=3)? {
            out.push([' ', '\n', '\t', '\r'][u.choose_index(4)?]);
        }
    }
    Ok(())
}

/// Writes one value of depth at most `depth`.
fn value(u: &mut Unstructured<'_>, depth: u8, out: &mut String) -> Result<()> {
    let kind = if depth == 0 { u.int_in_range(0u8..=4)? } else { u.int_in_range(0u8..=7)? };
    match kind {
        0 | 1 => {
            out.push('"');
            out.push_str(&string(u)?);
            out.push('"');
        }
        2 => out.push_str(&number(u)?),
        3 => out.push_str(["true", "false"][u.choose_index(2)?]),
        4 => out.push_str("null"),
        5 => {
            out.push('[');
            let n = u.int_in_range(0u8..=3)?;
            for i in 0..n {
                if i > 0 {
                    out.push(',');
                }
                ws(u, out)?;
                value(u, depth - 1, out)?;
                ws(u, out)?;
            }
            out.push(']');
        }
        _ => object(u, depth - 1, out)?,
    }
    Ok(())
}

/// Writes one object: keys from [`KEYS`] (or any), in any order, some repeated.
fn object(u: &mut Unstructured<'_>, depth: u8, out: &mut String) -> Result<()> {
    out.push('{');
    let n = u.int_in_range(0u8..=6)?;
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        ws(u, out)?;
        let key = if u.ratio(7u8, 8u8)? { KEYS[u.choose_index(KEYS.len())?].to_owned() } else { string(u)? };
        out.push('"');
        out.push_str(&key);
        out.push('"');
        ws(u, out)?;
        out.push(':');
        ws(u, out)?;
        value(u, depth, out)?;
        ws(u, out)?;
    }
    out.push('}');
    Ok(())
}

/// One instruction's text. Most start with a `name` and an `opcode` that are strings,
/// so that most inputs are instructions the fast path would take.
#[derive(Debug)]
pub struct InstText(pub String);

impl<'a> Arbitrary<'a> for InstText {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut out = String::new();
        ws(u, &mut out)?;
        if u.ratio(1u8, 16u8)? {
            value(u, 3, &mut out)?;
            return Ok(InstText(out));
        }
        let mut members = Vec::new();
        if u.ratio(7u8, 8u8)? {
            members.push(format!("\"name\":\"{}\"", string(u)?));
        }
        if u.ratio(7u8, 8u8)? {
            members.push(format!("\"opcode\":\"{}\"", OPCODES[u.choose_index(OPCODES.len())?]));
        }
        let mut rest = String::new();
        object(u, 3, &mut rest)?;
        let inner = rest.trim_start_matches('{').trim_end_matches('}').to_owned();
        if !inner.trim().is_empty() {
            members.push(inner);
        }
        // Any order of the parts.
        for i in (1..members.len()).rev() {
            let j = u.int_in_range(0..=i)?;
            members.swap(i, j);
        }
        out.push('{');
        out.push_str(&members.join(","));
        out.push('}');
        ws(u, &mut out)?;
        Ok(InstText(out))
    }
}
