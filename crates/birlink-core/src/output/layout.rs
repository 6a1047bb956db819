//! The same JSON document in another layout: pretty (two-space indent, as libBIR's
//! round-trip writer prints) or compact (one line, as a dump may be), keys sorted or in
//! a producer's own order.
//!
//! birlink must read a link set the same way whatever its layout: same diagnostics and
//! pointers, same `linked.json`. The test matrix, `selfcheck`'s oracle and `birlink gen`
//! print their inputs in every [`Layout`] with [`relayout`].

use std::io::Write;

use serde_json::Value;

/// How a document is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Two-space indent and a newline after every member, or one line.
    pub indent: bool,
    /// Keys sorted, or each object's keys in the reverse of sorted order (a producer's
    /// own order: no object's keys are sorted, wherever it has two).
    pub sorted: bool,
}

impl Layout {
    /// Two-space indent, keys sorted: libBIR's round-trip writer.
    pub const PRETTY: Layout = Layout { indent: true, sorted: true };
    /// One line, keys sorted.
    pub const COMPACT: Layout = Layout { indent: false, sorted: true };
    /// Two-space indent, keys in the producer's order.
    pub const PRETTY_UNSORTED: Layout = Layout { indent: true, sorted: false };
    /// One line, keys in the producer's order.
    pub const COMPACT_UNSORTED: Layout = Layout { indent: false, sorted: false };
    /// Every layout.
    pub const ALL: [Layout; 4] = [Layout::PRETTY, Layout::COMPACT, Layout::PRETTY_UNSORTED, Layout::COMPACT_UNSORTED];

    /// Its name in tests and reports: `pretty`, `compact`, `pretty-unsorted`, ….
    pub fn name(self) -> &'static str {
        match (self.indent, self.sorted) {
            (true, true) => "pretty",
            (false, true) => "compact",
            (true, false) => "pretty-unsorted",
            (false, false) => "compact-unsorted",
        }
    }
}

/// `value` printed in `layout` (a pretty document ends with a newline).
pub fn print(value: &Value, layout: Layout) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write(value, layout, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes `value` in `layout` into `out`.
pub fn write<W: Write>(value: &Value, layout: Layout, out: &mut W) -> std::io::Result<()> {
    if layout.sorted {
        if layout.indent {
            serde_json::to_writer_pretty(&mut *out, value)?;
        } else {
            serde_json::to_writer(&mut *out, value)?;
        }
    } else {
        let mut stack = Vec::new();
        write_unsorted(value, layout.indent, out, &mut stack)?;
    }
    if layout.indent {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// A document's text in another layout; `None` when it is not JSON.
pub fn relayout(text: &str, layout: Layout) -> Option<String> {
    let value: Value = serde_json::from_str(text).ok()?;
    Some(print(&value, layout))
}

/// What is left to write of one open container.
enum Open<'v> {
    Array(std::slice::Iter<'v, Value>, bool),
    Object(std::iter::Rev<serde_json::map::Iter<'v>>, bool),
}

/// Keys in reverse order, with an explicit stack (documents may nest deeply).
fn write_unsorted<'v, W: Write>(
    value: &'v Value,
    indent: bool,
    out: &mut W,
    stack: &mut Vec<Open<'v>>,
) -> std::io::Result<()> {
    let newline = |out: &mut W, depth: usize| -> std::io::Result<()> {
        if indent {
            out.write_all(b"\n")?;
            for _ in 0..depth {
                out.write_all(b"  ")?;
            }
        }
        Ok(())
    };
    let mut next = Some(value);
    loop {
        if let Some(value) = next.take() {
            match value {
                Value::Array(items) if !items.is_empty() => {
                    out.write_all(b"[")?;
                    stack.push(Open::Array(items.iter(), true));
                }
                Value::Object(map) if !map.is_empty() => {
                    out.write_all(b"{")?;
                    stack.push(Open::Object(map.iter().rev(), true));
                }
                scalar => serde_json::to_writer(&mut *out, scalar)?,
            }
        }
        let depth = stack.len();
        let Some(open) = stack.last_mut() else { return Ok(()) };
        match open {
            Open::Array(items, first) => match items.next() {
                Some(item) => {
                    if !*first {
                        out.write_all(b",")?;
                    }
                    *first = false;
                    newline(out, depth)?;
                    next = Some(item);
                }
                None => {
                    stack.pop();
                    newline(out, depth - 1)?;
                    out.write_all(b"]")?;
                }
            },
            Open::Object(members, first) => match members.next() {
                Some((key, item)) => {
                    if !*first {
                        out.write_all(b",")?;
                    }
                    *first = false;
                    newline(out, depth)?;
                    serde_json::to_writer(&mut *out, key)?;
                    out.write_all(if indent { b": " } else { b":" })?;
                    next = Some(item);
                }
                None => {
                    stack.pop();
                    newline(out, depth - 1)?;
                    out.write_all(b"}")?;
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_reads_back_as_the_same_value() {
        let text = r#"{"b":[1,{"d":[],"c":{}}],"a":"x","e":{"g":null,"f":-1.5}}"#;
        let value: Value = serde_json::from_str(text).unwrap();
        for layout in Layout::ALL {
            let printed = print(&value, layout);
            assert_eq!(serde_json::from_str::<Value>(&printed).unwrap(), value, "{}", layout.name());
        }
        assert_eq!(print(&value, Layout::COMPACT), serde_json::to_string(&value).unwrap());
        assert_eq!(print(&value, Layout::PRETTY), format!("{}\n", serde_json::to_string_pretty(&value).unwrap()));
        assert_eq!(
            print(&value, Layout::COMPACT_UNSORTED),
            r#"{"e":{"g":null,"f":-1.5},"b":[1,{"d":[],"c":{}}],"a":"x"}"#
        );
        assert_eq!(
            print(&serde_json::json!({"b": [1], "a": {}}), Layout::PRETTY_UNSORTED),
            "{\n  \"b\": [\n    1\n  ],\n  \"a\": {}\n}\n"
        );
    }
}
