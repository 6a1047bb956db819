//! A document's insignificant whitespace dropped while its bytes arrive.
//!
//! An indented dump is about three times the size of the same dump written compactly,
//! and its indentation is all the difference. Read whole, it is held whole while it is
//! parsed, and its instructions are kept as compact copies beside it. Read in chunks
//! through a [`Compactor`], it never is: what is held is the compact text, whose
//! instructions are spans of it when their keys are sorted, as a compact dump's are —
//! the same memory, and the same reading, as the compact dump.
//!
//! Only whitespace outside strings goes, and only where the document means the same
//! without it: between two tokens that are not both scalars (`[1 2]` keeps its space,
//! so text that is not JSON stays text that is not JSON). A valid document compacts to
//! exactly the compact text of its value, keys in the order written. Positions in the
//! compacted text are not the file's: the reader finds lines and columns in the file
//! itself (`FileEntry::read_text`), and reads the file whole again when the compacted
//! text is not JSON, so the parser's words point into the file.

use crate::limits::{HELD_MARGIN, HELD_PER_INSTRUCTION, SAMPLE_BYTES};

/// Bytes the compactor looks at before it decides whether compacting is worth it.
const PROBE: usize = 1 << 16;

/// The most bytes compacted at once (the scratch buffer is twice that).
const PIECE: usize = 1 << 16;

/// Drops whitespace between tokens from bytes given in chunks.
#[derive(Debug)]
pub struct Compactor {
    out: Vec<u8>,
    /// Where a chunk is compacted before it is appended.
    scratch: Vec<u8>,
    /// The file's size, when known: the output is sized from it.
    len: u64,
    /// Bytes given so far.
    seen: u64,
    in_string: bool,
    /// In a string, just after a backslash.
    escaped: bool,
    /// Whitespace was dropped since the last byte written.
    gap: bool,
    /// The last byte written outside strings (`"` after a string).
    last: u8,
    /// Few bytes are whitespace: the rest is copied as it comes.
    passthrough: bool,
    removed: u64,
    /// The output's length when the reader was last given it to append to
    /// ([`Sink::rest`]): what it appended since is seen.
    rest_from: Option<usize>,
}

impl Compactor {
    /// A compactor for a document of `len` bytes (0 when unknown).
    pub fn new(len: u64) -> Compactor {
        Compactor {
            out: Vec::new(),
            scratch: Vec::new(),
            len,
            seen: 0,
            in_string: false,
            escaped: false,
            gap: false,
            last: b'{',
            passthrough: false,
            removed: 0,
            rest_from: None,
        }
    }

    /// A compactor that writes into `buffer` (emptied first), a file's bytes let go:
    /// memory the process has touched already (see `input::Spare`).
    pub fn reusing(len: u64, mut buffer: Vec<u8>) -> Compactor {
        buffer.clear();
        Compactor { out: buffer, ..Compactor::new(len) }
    }

    /// Takes the next chunk of the document.
    pub fn push(&mut self, mut chunk: &[u8]) {
        self.settle();
        if self.seen == 0 && !chunk.is_empty() {
            // Sized for what the first bytes suggest, so the output is allocated once
            // (in wasm, memory once grown stays grown).
            self.reserve_for(chunk);
        }
        while !chunk.is_empty() {
            if self.passthrough {
                self.seen += chunk.len() as u64;
                self.out.extend_from_slice(chunk);
                return;
            }
            let (piece, rest) = chunk.split_at(chunk.len().min(PIECE));
            let before = self.seen;
            self.seen += piece.len() as u64;
            self.compact(piece);
            chunk = rest;
            if before < PROBE as u64 && self.seen >= PROBE as u64 && self.removed * 100 < self.seen {
                // Compact already (under 1% whitespace): copying beats looking.
                self.passthrough = true;
            }
        }
    }

    /// The bytes given so far.
    pub fn seen(&self) -> u64 {
        self.seen + self.rest_from.map_or(0, |from| (self.out.len() - from) as u64)
    }

    /// Counts what the reader appended itself.
    fn settle(&mut self) {
        if let Some(from) = self.rest_from.take() {
            self.seen += (self.out.len() - from) as u64;
        }
    }

    /// The document's bytes, and whether anything was dropped.
    pub fn finish(mut self) -> (Vec<u8>, bool) {
        // The text is held as long as the set is: no room kept beyond it.
        self.out.shrink_to_fit();
        (self.out, self.removed > 0)
    }

    fn reserve_for(&mut self, chunk: &[u8]) {
        let sample = &chunk[..chunk.len().min(PROBE)];
        let blank = sample.iter().filter(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')).count();
        let len = self.len.max(chunk.len() as u64);
        let kept = if sample.is_empty() { 1.0 } else { 1.0 - blank as f64 / sample.len() as f64 };
        // A margin over the sample's share: the rest of a file is rarely denser.
        let want = ((len as f64 * (kept * 1.15 + 0.02)).min(len as f64)) as usize;
        self.out.reserve_exact(want.saturating_sub(self.out.len()));
    }

    /// One chunk, a byte at a time (a tight loop per state beats searching: the runs
    /// of an indented dump are a few bytes long), into a scratch buffer appended once.
    fn compact(&mut self, chunk: &[u8]) {
        // A space may be put back before each byte: at most twice the piece.
        if self.scratch.len() < 2 * chunk.len() + 1 {
            self.scratch.resize(2 * chunk.len() + 1, 0);
        }
        let out = &mut self.scratch[..];
        let n = chunk.len();
        let (mut o, mut i) = (0usize, 0usize);
        let (mut in_string, mut escaped, mut gap, mut last) = (self.in_string, self.escaped, self.gap, self.last);
        let (mut removed, mut restored) = (0u64, 0u64);
        while i < n {
            if in_string {
                if escaped {
                    out[o] = chunk[i];
                    (o, i, escaped) = (o + 1, i + 1, false);
                    continue;
                }
                while i < n {
                    let byte = chunk[i];
                    out[o] = byte;
                    (o, i) = (o + 1, i + 1);
                    if byte == b'"' {
                        (in_string, last) = (false, b'"');
                        break;
                    }
                    if byte == b'\\' {
                        escaped = true;
                        break;
                    }
                }
                continue;
            }
            let byte = chunk[i];
            if is_blank(byte) {
                let start = i;
                i += 1;
                // Indentation: eight spaces at a time.
                while chunk.get(i..i + 8) == Some(b"        ") {
                    i += 8;
                }
                while i < n && is_blank(chunk[i]) {
                    i += 1;
                }
                removed += (i - start) as u64;
                gap = true;
                continue;
            }
            if gap {
                gap = false;
                if !is_structural(last) && !is_structural(byte) {
                    // Two scalars: the space between them is not insignificant.
                    out[o] = b' ';
                    o += 1;
                    restored += 1;
                }
            }
            if byte == b'"' {
                out[o] = byte;
                (o, i, in_string) = (o + 1, i + 1, true);
                continue;
            }
            while i < n {
                let byte = chunk[i];
                if is_blank(byte) || byte == b'"' {
                    break;
                }
                out[o] = byte;
                (o, i, last) = (o + 1, i + 1, byte);
            }
        }
        (self.in_string, self.escaped, self.gap, self.last) = (in_string, escaped, gap, last);
        self.removed = (self.removed + removed).saturating_sub(restored);
        self.out.extend_from_slice(&self.scratch[..o]);
    }
}

/// What a reader (`input::Reader`) gives a file's bytes to.
pub trait Sink {
    /// The next bytes.
    fn chunk(&mut self, bytes: &[u8]);

    /// Where the rest of the file goes as it is, when it does (a compact file, once the
    /// loader has looked at its start): a reader that can append it there itself (a
    /// file's `read_to_end`) spares a copy. `None`: give it in chunks.
    fn rest(&mut self) -> Option<&mut Vec<u8>> {
        None
    }
}

/// A compact document's rest is appended by the reader itself, with no copy between.
impl Sink for Compactor {
    fn chunk(&mut self, bytes: &[u8]) {
        self.push(bytes);
    }

    fn rest(&mut self) -> Option<&mut Vec<u8>> {
        if !self.passthrough {
            return None;
        }
        self.settle();
        self.rest_from = Some(self.out.len());
        Some(&mut self.out)
    }
}

/// What reading a link set would hold, estimated before a byte is parsed from each
/// file's size and a sample of it (up to [`SAMPLE_BYTES`], from its middle, where a big
/// dump's instructions are): the share of the sample left once compacted (an indented
/// file is held as its compact text), and the instructions per compact byte (each holds
/// [`HELD_PER_INSTRUCTION`] beside its text), with [`HELD_MARGIN`].
pub fn held_estimate<'a>(files: impl IntoIterator<Item = (u64, &'a [u8])>) -> u64 {
    let mut held = 0.0;
    for (len, sample) in files {
        let sample = &sample[..sample.len().min(SAMPLE_BYTES)];
        let mut compactor = Compactor::new(sample.len() as u64);
        compactor.push(sample);
        let (compact, _) = compactor.finish();
        if compact.is_empty() {
            continue;
        }
        let share = (compact.len() as f64 / sample.len() as f64).min(1.0);
        let instructions = memchr::memmem::find_iter(&compact, b"\"opcode\":").count() as f64 / compact.len() as f64;
        held += len as f64 * share * (1.0 + instructions * HELD_PER_INSTRUCTION) * HELD_MARGIN;
    }
    held as u64
}

/// Where a file's sample for [`held_estimate`] starts: the middle of the file, less half
/// a sample (its start, for a small file).
pub fn sample_start(len: u64) -> u64 {
    (len / 2).saturating_sub(SAMPLE_BYTES as u64 / 2)
}

fn is_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\n' | b'\r' | b'\t')
}

/// A byte next to which whitespace never matters.
fn is_structural(byte: u8) -> bool {
    matches!(byte, b'{' | b'}' | b'[' | b']' | b',' | b':')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compacted(text: &str, chunk: usize) -> (String, bool) {
        let mut compactor = Compactor::new(text.len() as u64);
        for piece in text.as_bytes().chunks(chunk.max(1)) {
            compactor.push(piece);
        }
        let (bytes, changed) = compactor.finish();
        (String::from_utf8(bytes).unwrap(), changed)
    }

    #[test]
    fn a_document_compacts_to_its_compact_text_in_any_chunks() {
        let value = serde_json::json!({
            "b": [1, -2.5, {"c": "a \"quoted\" \\ word", "d": null}],
            "a": "é and\ttabs\nin a string",
            "": {"x y": [true, false, []]}
        });
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let compact = serde_json::to_string(&value).unwrap();
        for chunk in [1, 2, 3, 7, 64, 1 << 20] {
            assert_eq!(compacted(&pretty, chunk), (compact.clone(), true), "{chunk}");
            assert_eq!(compacted(&compact, chunk), (compact.clone(), false), "{chunk}");
        }
    }

    #[test]
    fn a_compactor_reusing_bytes_writes_what_a_new_one_writes() -> Result<(), Box<dyn std::error::Error>> {
        let value = serde_json::json!({"b": [1, {"c": "a \"q\" word"}], "a": vec!["x"; 3000]});
        let pretty = serde_json::to_string_pretty(&value)?;
        let compact = serde_json::to_string(&value)?;
        for text in [&pretty, &compact] {
            let mut fresh = Compactor::new(text.len() as u64);
            fresh.push(text.as_bytes());
            for old in [vec![b'?'; 10], vec![b'?'; text.len() * 3]] {
                let mut reusing = Compactor::reusing(text.len() as u64, old);
                reusing.push(text.as_bytes());
                // Sized as a new one is, whatever the old bytes' room.
                assert!(reusing.out.capacity() >= fresh.out.capacity().min(text.len()));
                let (bytes, changed) = reusing.finish();
                assert_eq!((String::from_utf8(bytes)?, changed), compacted(text, 1 << 20));
            }
        }
        Ok(())
    }

    #[test]
    fn what_is_not_json_stays_not_json() {
        for text in ["[1 2]", "[1\n\n2]", "{\"a\" \"b\"}", "[tr ue]", "[- 1]", "[\"a\" 1]", "[1 \"a\"]", "{} {}"] {
            let (out, _) = compacted(text, 3);
            assert!(serde_json::from_str::<serde_json::Value>(text).is_err(), "{text}");
            assert!(serde_json::from_str::<serde_json::Value>(&out).is_err(), "{text} became {out}");
        }
        // Bytes that are not JSON whitespace stay.
        assert_eq!(compacted("[1,\u{a0}2]", 2).0, "[1,\u{a0}2]");
    }

    #[test]
    fn an_indented_file_is_estimated_at_its_compact_size() {
        let value = serde_json::json!({"functions": [{"name": "f", "blocks": [{"name": "b", "instructions": [
            {"name": "i", "opcode": "Matmult", "ins": [{"memref": "a b"}]}]}]}]});
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let compact = serde_json::to_string(&value).unwrap();
        let of = |text: &str| held_estimate([(text.len() as u64 * 1000, text.as_bytes())]);
        let per_byte = 1.0 + HELD_PER_INSTRUCTION / compact.len() as f64;
        let expected = (compact.len() as f64 * 1000.0 * per_byte * HELD_MARGIN) as u64;
        assert!(of(&compact).abs_diff(expected) <= 1, "{} {expected}", of(&compact));
        assert!(of(&pretty).abs_diff(expected) <= 1, "{} {expected}", of(&pretty));
        assert_eq!(held_estimate([(0, &b""[..])]), 0);
        assert_eq!(sample_start(100), 0);
        assert_eq!(sample_start(1 << 30), (1 << 29) - (SAMPLE_BYTES as u64 / 2));
    }

    #[test]
    fn a_compact_document_is_copied_after_a_look() {
        let line = format!("[{}]", vec!["{\"name\":\"x\",\"opcode\":\"Matmult\"}"; 20_000].join(","));
        let mut compactor = Compactor::new(line.len() as u64);
        for piece in line.as_bytes().chunks(1 << 15) {
            compactor.push(piece);
        }
        assert!(compactor.passthrough);
        assert_eq!(compactor.finish(), (line.into_bytes(), false));
    }
}
