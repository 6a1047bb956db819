//! From JSON pointers back to the text: byte spans, lines and columns.
//!
//! Parsing does not keep positions (it would cost on every value). When diagnostics
//! need line and column, or the UI needs an entity's original text, the pointers are
//! resolved here in a single scan of the file: a trie of the wanted pointers guides the
//! scan, every other value is skipped without being decoded. Cost is linear in the text
//! however many pointers are asked for. Never panics, whatever the text.

use std::collections::HashMap;

/// Where a value sits in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// Byte offset of the value's first character.
    pub start: usize,
    /// Byte offset just past the value.
    pub end: usize,
    /// 1-based line of `start`.
    pub line: u64,
    /// 1-based column of `start`, in characters.
    pub column: u64,
}

/// Resolves each pointer (RFC 6901) to the span of its value, `None` where the pointer
/// does not lead to a value.
pub fn locate(text: &str, pointers: &[&str]) -> Vec<Option<Span>> {
    let mut trie = Trie::default();
    for (i, pointer) in pointers.iter().enumerate() {
        trie.insert(pointer, i);
    }
    let mut scanner = Scanner { bytes: text.as_bytes(), pos: 0, found: vec![None; pointers.len()], trie: &trie };
    scanner.skip_ws();
    scanner.value(Some(0));
    let mut found = scanner.found;
    fill_lines(text, &mut found);
    found.into_iter().map(|span| span.map(|(start, end, line, column)| Span { start, end, line, column })).collect()
}

/// The text of the value at `pointer`, if there is one.
pub fn extract<'t>(text: &'t str, pointer: &str) -> Option<&'t str> {
    let span = locate(text, &[pointer]).into_iter().next().flatten()?;
    text.get(span.start..span.end)
}

/// 1-based line and column of a byte offset.
pub fn line_column(text: &str, offset: usize) -> (u64, u64) {
    let mut found = vec![Some((offset, offset, 0, 0))];
    fill_lines(text, &mut found);
    match found[0] {
        Some((_, _, line, column)) => (line, column),
        None => (1, 1),
    }
}

/// Fills line and column for every found span in one pass: spans in offset order, the
/// line and the column (in characters) carried along, so a one-line file with thousands
/// of diagnostics is still read once.
fn fill_lines(text: &str, found: &mut [Option<(usize, usize, u64, u64)>]) {
    let mut order: Vec<usize> = (0..found.len()).filter(|&i| found[i].is_some()).collect();
    order.sort_by_key(|&i| found[i].map(|f| f.0).unwrap_or(0));
    let mut line = 1u64;
    // Characters between the line's start and `pos`.
    let mut chars = 0u64;
    let mut pos = 0usize;
    let bytes = text.as_bytes();
    for i in order {
        let Some((start, end, _, _)) = found[i] else {
            continue;
        };
        let start = start.min(bytes.len());
        while pos < start {
            let byte = bytes[pos];
            if byte == b'\n' {
                line += 1;
                chars = 0;
            } else if byte & 0xC0 != 0x80 {
                // Not a UTF-8 continuation byte: a character starts here.
                chars += 1;
            }
            pos += 1;
        }
        found[i] = Some((start, end, line, chars + 1));
    }
}

#[derive(Default)]
struct Trie {
    nodes: Vec<Node>,
}

#[derive(Default)]
struct Node {
    children: HashMap<String, usize>,
    targets: Vec<usize>,
}

impl Trie {
    fn insert(&mut self, pointer: &str, target: usize) {
        if self.nodes.is_empty() {
            self.nodes.push(Node::default());
        }
        let mut node = 0;
        if !pointer.is_empty() {
            // A pointer that does not start with `/` names nothing.
            let Some(rest) = pointer.strip_prefix('/') else {
                return;
            };
            for segment in rest.split('/') {
                let key = segment.replace("~1", "/").replace("~0", "~");
                node = match self.nodes[node].children.get(&key) {
                    Some(&child) => child,
                    None => {
                        let child = self.nodes.len();
                        self.nodes.push(Node::default());
                        self.nodes[node].children.insert(key, child);
                        child
                    }
                };
            }
        }
        self.nodes[node].targets.push(target);
    }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    found: Vec<Option<(usize, usize, u64, u64)>>,
    trie: &'a Trie,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Scans one value; records it if `node` has targets, descends if it has children.
    fn value(&mut self, node: Option<usize>) {
        let trie = self.trie;
        let node = node.and_then(|n| trie.nodes.get(n));
        let start = self.pos;
        match node {
            Some(node) if !node.children.is_empty() => match self.peek() {
                Some(b'{') => self.object(node),
                Some(b'[') => self.array(node),
                _ => self.skip_value(),
            },
            _ => self.skip_value(),
        }
        if let Some(node) = node {
            for &target in &node.targets {
                self.found[target] = Some((start, self.pos, 0, 0));
            }
        }
    }

    fn object(&mut self, node: &Node) {
        self.pos += 1; // `{`
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return;
                }
                Some(b',') => {
                    self.pos += 1;
                }
                Some(b'"') => {
                    let key = self.string();
                    self.skip_ws();
                    if self.peek() == Some(b':') {
                        self.pos += 1;
                    }
                    self.skip_ws();
                    let child = key.and_then(|k| node.children.get(&k).copied());
                    self.value(child);
                }
                None => return,
                _ => {
                    // Not JSON; skip one byte so the scan always ends.
                    self.pos += 1;
                }
            }
        }
    }

    fn array(&mut self, node: &Node) {
        self.pos += 1; // `[`
        let mut index = 0usize;
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    return;
                }
                Some(b',') => {
                    self.pos += 1;
                    index += 1;
                }
                None => return,
                _ => {
                    let child = node.children.get(&index.to_string()).copied();
                    let before = self.pos;
                    self.value(child);
                    if self.pos == before {
                        self.pos += 1;
                    }
                }
            }
        }
    }

    /// Decodes a string starting at `"`; returns `None` if it has escapes we do not
    /// decode (the key is then simply not matched).
    fn string(&mut self) -> Option<String> {
        let start = self.pos + 1;
        self.skip_string();
        let end = self.pos.saturating_sub(1).max(start);
        let raw = std::str::from_utf8(self.bytes.get(start..end)?).ok()?;
        if raw.contains('\\') {
            serde_json::from_str::<String>(&format!("\"{raw}\"")).ok()
        } else {
            Some(raw.to_owned())
        }
    }

    fn skip_string(&mut self) {
        self.pos += 1; // opening quote
        while let Some(byte) = self.peek() {
            self.pos += 1;
            match byte {
                b'\\' => self.pos += 1,
                b'"' => return,
                _ => {}
            }
        }
    }

    fn skip_value(&mut self) {
        match self.peek() {
            Some(b'"') => self.skip_string(),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                while let Some(byte) = self.peek() {
                    match byte {
                        b'"' => {
                            self.skip_string();
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                self.pos += 1;
                                return;
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            _ => {
                while let Some(byte) = self.peek() {
                    if matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                        return;
                    }
                    self.pos += 1;
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::expect_used, reason = "a test that expects a value fails when it is missing")]
mod tests {
    use super::*;

    const TEXT: &str =
        "{\n  \"functions\": [\n    {\"name\": \"f\", \"blocks\": [1, {\"a/b\": [true]}]}\n  ],\n  \"x\": \"é\"\n}";

    #[test]
    fn finds_nested_values_with_lines_and_columns() {
        let spans = locate(TEXT, &["/functions/0/name", "/functions/0/blocks/1/a~1b/0", "/x", "/missing", ""]);
        let name = spans[0].expect("name");
        assert_eq!(&TEXT[name.start..name.end], "\"f\"");
        assert_eq!((name.line, name.column), (3, 14));
        let flag = spans[1].expect("flag");
        assert_eq!(&TEXT[flag.start..flag.end], "true");
        let x = spans[2].expect("x");
        assert_eq!(&TEXT[x.start..x.end], "\"é\"");
        assert_eq!((x.line, x.column), (5, 8));
        assert_eq!(spans[3], None);
        assert_eq!(spans[4].map(|s| (s.start, s.end)), Some((0, TEXT.len())));
    }

    #[test]
    fn columns_on_one_long_line_count_characters() {
        // One line, as real dumps are: every column counted in characters, carried
        // from one span to the next.
        let items: Vec<String> = (0..2000).map(|i| format!("{{\"n\": \"é{i}\"}}")).collect();
        let text = format!("[{}]", items.join(","));
        let pointers: Vec<String> = (0..2000).rev().map(|i| format!("/{i}/n")).collect();
        let refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
        for (pointer, span) in pointers.iter().zip(locate(&text, &refs)) {
            let span = span.expect(pointer);
            assert_eq!(span.line, 1);
            let naive = text[..span.start].chars().count() as u64 + 1;
            assert_eq!(span.column, naive, "{pointer}");
        }
        assert_eq!(line_column("ab\néx", 5), (2, 2));
    }

    #[test]
    fn extract_returns_the_original_text() {
        assert_eq!(extract(TEXT, "/functions/0/blocks/1"), Some("{\"a/b\": [true]}"));
    }

    #[test]
    fn garbage_never_panics() {
        for text in ["", "{", "[[[", "\"", "{\"a\":", "}", "{\"a\" 1 \"b\"", "[1,,,]", "{\"\\u12\": 1}"] {
            let _ = locate(text, &["/a", "/0/1", ""]);
        }
    }
}
