//! The scan: one instruction's text read once, checked as serde_json would check it
//! (strings without control characters, valid escapes, the number grammar, literals,
//! commas and colons, the nesting limit counted from the document's root), each value
//! put on the tape with whether its text is already what the writer prints.

use super::tape::Slot;
use crate::model::view::JsonType;

/// serde_json refuses a document when its 128th container opens (its
/// `remaining_depth`); the scan counts open containers from the document's root.
pub(crate) const MAX_NESTING: usize = 128;

/// Why a scan stopped early.
pub(super) enum Stop {
    Invalid,
    Blocks,
}

/// The string that starts at `bytes[at]` (a `"`): where it ends (past its closing
/// quote) and whether it has an escape; `None` when it is not a JSON string (a control
/// character, a bad escape, no end).
#[inline(always)]
pub(crate) fn string_end(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut j = at + 1;
    let mut escaped = false;
    loop {
        j = special(bytes, j)?;
        match bytes[j] {
            b'"' => return Some((j + 1, escaped)),
            b'\\' => {
                escaped = true;
                j = match *bytes.get(j + 1)? {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => j + 2,
                    b'u' => {
                        let hex = bytes.get(j + 2..j + 6)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return None;
                        }
                        j + 6
                    }
                    _ => return None,
                };
            }
            // A control character, which a JSON string cannot hold as it is.
            _ => return None,
        }
    }
}

/// The first index from `at` of a byte that ends a run of plain string characters: `"`,
/// `\` or a control character. Eight bytes at a time, as serde_json's own scan does.
#[inline(always)]
pub(super) fn special(bytes: &[u8], mut at: usize) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_le_bytes(word);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        // A byte is zero in `x`, or below 0x20 in `word`, when its high bit is set here.
        let found = ((quote.wrapping_sub(ONES) & !quote)
            | (backslash.wrapping_sub(ONES) & !backslash)
            | (word.wrapping_sub(ONES * 0x20) & !word))
            & HIGH;
        if found != 0 {
            // A borrow only runs upwards from a byte that is flagged rightly, so the
            // lowest flag is the first such byte (bytes above it may be flagged wrongly).
            return Some(at + (found.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes.get(at..)?.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).map(|n| at + n)
}

/// The end of the value that starts at `bytes[at]`, found by matching brackets and
/// strings alone (nothing else is checked): for a value the caller reads properly
/// afterwards.
pub(crate) fn skip(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    loop {
        i = match *bytes.get(i)? {
            b'"' => string_end(bytes, i)?.0,
            b'{' | b'[' => {
                depth += 1;
                i + 1
            }
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                i + 1
            }
            _ if depth > 0 => i + 1,
            // A scalar at the top: up to the next delimiter.
            _ => {
                let rest = bytes.get(i..)?;
                return Some(i + rest.iter().position(|b| b",:]} \n\r\t".contains(b)).unwrap_or(rest.len()));
            }
        };
        if depth == 0 {
            return Some(i);
        }
    }
}

/// The scan of one text: checks it, and puts each value on the tape.
pub(super) struct Scan<'i, 's> {
    pub(super) bytes: &'i [u8],
    /// Where the instruction starts in `bytes`.
    pub(super) base: usize,
    /// Where the scan is in `bytes`.
    pub(super) i: usize,
    /// Containers open, the document's included.
    pub(super) nesting: usize,
    /// How many places so far differ from what the writer prints (whitespace, keys out
    /// of order or repeated, a number printed otherwise): a value is clean when none
    /// was found inside it.
    pub(super) changes: u32,
    /// A string with an escape was met: the general path reads this one.
    pub(super) escaped: bool,
    pub(super) stop_at_blocks: bool,
    pub(super) tape: &'s mut Vec<Slot>,
}

type Step = Result<(), Stop>;

impl Scan<'_, '_> {
    /// Skips whitespace, which the writer does not print.
    #[inline]
    fn ws(&mut self) {
        if matches!(self.bytes.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.skip_ws();
        }
    }

    #[inline(never)]
    fn skip_ws(&mut self) {
        while matches!(self.bytes.get(self.i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            self.i += 1;
        }
        self.changes += 1;
    }

    /// Passes one structural byte, which must be `byte`.
    #[inline]
    fn expect(&mut self, byte: u8) -> Step {
        if self.bytes.get(self.i) != Some(&byte) {
            return Err(Stop::Invalid);
        }
        self.i += 1;
        Ok(())
    }

    /// An offset from the instruction's start, for the tape.
    #[inline]
    fn rel(&self, at: usize) -> u32 {
        (at - self.base) as u32
    }

    /// One value, put on the tape with its key (`level` 0 is the instruction itself).
    /// A scalar is read here, inlined into the containers' loops (most values are
    /// strings); a container is read out of line ([`Self::container`]).
    #[inline(always)]
    pub(super) fn value(&mut self, key: Option<(u32, u32)>, level: usize) -> Step {
        let start = self.i;
        let key = key.unwrap_or((0, 0));
        let changes = self.changes;
        let kind = match *self.bytes.get(self.i).ok_or(Stop::Invalid)? {
            b'"' => {
                self.string()?;
                JsonType::String
            }
            b'1'..=b'9' => {
                // The common number, a short positive integer, is printed as it is: read
                // here; anything else by `number`.
                let mut j = self.i + 1;
                while self.bytes.get(j).is_some_and(u8::is_ascii_digit) {
                    j += 1;
                }
                if j - self.i < 20 && !matches!(self.bytes.get(j), Some(b'.' | b'e' | b'E')) {
                    self.i = j;
                } else {
                    self.number()?;
                }
                JsonType::Number
            }
            // A zero alone (an offset, an id) is printed as it is.
            b'0' if !matches!(self.bytes.get(self.i + 1), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) => {
                self.i += 1;
                JsonType::Number
            }
            b'-' | b'0' => {
                self.number()?;
                JsonType::Number
            }
            b't' => {
                self.literal(b"true")?;
                JsonType::Bool
            }
            b'f' => {
                self.literal(b"false")?;
                JsonType::Bool
            }
            b'n' => {
                self.literal(b"null")?;
                JsonType::Null
            }
            open @ (b'{' | b'[') => return self.container(open, key, level),
            _ => return Err(Stop::Invalid),
        };
        let next = self.tape.len() as u32 + 1;
        let clean = self.changes == changes;
        self.tape.push(Slot { kind, clean, start: self.rel(start), end: self.rel(self.i), key, next });
        Ok(())
    }

    /// An object or an array (`open`, at the scan's place): its slot is made first, and
    /// its members follow it on the tape.
    #[inline(never)]
    fn container(&mut self, open: u8, key: (u32, u32), level: usize) -> Step {
        let start = self.i;
        let changes = self.changes;
        let slot = self.tape.len();
        let kind = if open == b'{' { JsonType::Object } else { JsonType::Array };
        self.tape.push(Slot { kind, clean: false, start: self.rel(start), end: 0, key, next: 0 });
        if open == b'{' {
            self.object(level)?;
        } else {
            self.array(level)?;
        }
        let (end, next, clean) = (self.rel(self.i), self.tape.len() as u32, self.changes == changes);
        if let Some(slot) = self.tape.get_mut(slot) {
            slot.end = end;
            slot.next = next;
            slot.clean = clean;
        }
        Ok(())
    }

    /// Passes `byte` where the writer prints it with nothing before it: whitespace is
    /// looked for only when `byte` is not there (a compact text has none).
    #[inline(always)]
    fn after_ws(&mut self, byte: u8) -> bool {
        if self.bytes.get(self.i) == Some(&byte) {
            self.i += 1;
            return true;
        }
        self.ws();
        if self.bytes.get(self.i) == Some(&byte) {
            self.i += 1;
            return true;
        }
        false
    }

    /// Whether the next byte, past any whitespace, is `byte` (not passed).
    #[inline(always)]
    fn at_after_ws(&mut self, byte: u8) -> bool {
        if self.bytes.get(self.i) == Some(&byte) {
            return true;
        }
        self.ws();
        self.bytes.get(self.i) == Some(&byte)
    }

    /// Opens a container, within serde_json's nesting limit.
    #[inline]
    fn open(&mut self, byte: u8) -> Step {
        self.nesting += 1;
        if self.nesting >= MAX_NESTING {
            return Err(Stop::Invalid);
        }
        self.expect(byte)
    }

    #[inline(always)]
    fn string(&mut self) -> Step {
        let (end, escaped) = string_end(self.bytes, self.i).ok_or(Stop::Invalid)?;
        self.escaped |= escaped;
        self.i = end;
        Ok(())
    }

    fn literal(&mut self, word: &[u8]) -> Step {
        let end = self.i + word.len();
        if self.bytes.get(self.i..end) != Some(word) {
            return Err(Stop::Invalid);
        }
        self.i = end;
        Ok(())
    }

    /// A number, checked against JSON's grammar; a change when serde_json prints it
    /// otherwise.
    #[inline(never)]
    fn number(&mut self) -> Step {
        let start = self.i;
        let digits = |bytes: &[u8], mut j: usize| {
            while bytes.get(j).is_some_and(u8::is_ascii_digit) {
                j += 1;
            }
            j
        };
        let mut j = start;
        if self.bytes.get(j) == Some(&b'-') {
            j += 1;
        }
        j = match self.bytes.get(j) {
            Some(b'0') => j + 1,
            Some(b'1'..=b'9') => digits(self.bytes, j + 1),
            _ => return Err(Stop::Invalid),
        };
        let integer = j;
        if self.bytes.get(j) == Some(&b'.') {
            let after = digits(self.bytes, j + 1);
            if after == j + 1 {
                return Err(Stop::Invalid);
            }
            j = after;
        }
        if matches!(self.bytes.get(j), Some(b'e' | b'E')) {
            j += 1;
            if matches!(self.bytes.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            let after = digits(self.bytes, j);
            if after == j {
                return Err(Stop::Invalid);
            }
            j = after;
        }
        let token = self.bytes.get(start..j).ok_or(Stop::Invalid)?;
        self.i = j;
        if j == integer && integer_as_printed(token) {
            return Ok(());
        }
        // Anything else is what serde_json prints for the number it reads (out of its
        // range, it reads none: the document's parser says so).
        let number: serde_json::Number = serde_json::from_slice(token).map_err(|_| Stop::Invalid)?;
        if serde_json::to_vec(&number).map_err(|_| Stop::Invalid)? != token {
            self.changes += 1;
        }
        Ok(())
    }

    fn array(&mut self, level: usize) -> Step {
        self.open(b'[')?;
        if self.after_ws(b']') {
            self.nesting -= 1;
            return Ok(());
        }
        loop {
            self.ws();
            self.value(None, level + 1)?;
            if self.after_ws(b',') {
                continue;
            }
            if self.at_after_ws(b']') {
                break;
            }
            return Err(Stop::Invalid);
        }
        self.nesting -= 1;
        self.expect(b']')
    }

    /// An object; a change when its keys are not strictly ascending (out of order, or a
    /// key repeated), which the writer sorts.
    fn object(&mut self, level: usize) -> Step {
        self.open(b'{')?;
        // The previous key's characters, in the input.
        let mut previous: Option<(usize, usize)> = None;
        let mut sorted = true;
        if !self.at_after_ws(b'}') {
            loop {
                if !self.at_after_ws(b'"') {
                    return Err(Stop::Invalid);
                }
                let key_at = self.i + 1;
                self.string()?;
                let key_end = self.i - 1;
                let key = self.bytes.get(key_at..key_end).ok_or(Stop::Invalid)?;
                if let Some((a, b)) = previous {
                    if sorted && !ascending(self.bytes.get(a..b).unwrap_or(b""), key) {
                        sorted = false;
                        self.changes += 1;
                    }
                }
                previous = Some((key_at, key_end));
                if !self.after_ws(b':') {
                    return Err(Stop::Invalid);
                }
                self.ws();
                if level == 0 && self.stop_at_blocks && self.bytes.get(self.i) == Some(&b'[') && key == b"blocks" {
                    return Err(Stop::Blocks);
                }
                self.value(Some((self.rel(key_at), self.rel(key_end))), level + 1)?;
                if self.after_ws(b',') {
                    continue;
                }
                if self.at_after_ws(b'}') {
                    break;
                }
                return Err(Stop::Invalid);
            }
        }
        self.nesting -= 1;
        self.expect(b'}')
    }
}

/// Whether `a < b`, with the common answer (the first bytes differ) found without a
/// call.
#[inline(always)]
fn ascending(a: &[u8], b: &[u8]) -> bool {
    match (a.first(), b.first()) {
        (Some(x), Some(y)) if x != y => x < y,
        _ => a < b,
    }
}

/// Whether an integer token (JSON's grammar already checked) is printed as it is: one
/// `serde_json` reads as an integer (fits `u64`, or `i64` when negative) and prints back
/// the same. `-0` is not: it is read as the float `-0.0`.
pub(super) fn integer_as_printed(token: &[u8]) -> bool {
    // JSON's grammar let only ASCII through.
    let parsed = || std::str::from_utf8(token).ok();
    match token.strip_prefix(b"-") {
        Some(digits) => digits.len() <= 19 && parsed().and_then(|t| t.parse::<i64>().ok()).is_some_and(|n| n != 0),
        None => token.len() < 20 || parsed().is_some_and(|t| t.parse::<u64>().is_ok()),
    }
}

/// Writes the number `text` (JSON's grammar, checked) as serde_json prints it.
pub(super) fn number(text: &[u8], out: &mut Vec<u8>) {
    let printed =
        serde_json::from_slice::<serde_json::Number>(text).ok().and_then(|number| serde_json::to_vec(&number).ok());
    out.extend_from_slice(printed.as_deref().unwrap_or(text));
}
