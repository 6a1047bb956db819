//! The `read_log` target's model: a compiler log (`log-neuron-cc.txt`) — any text, or one
//! of the real logs' shape (the test logs, a generated modular compile's) with lines
//! dropped, repeated, cut short, spliced from another log, or replaced by arbitrary text.

use arbitrary::{Arbitrary, Result, Unstructured};

/// The logs a mutated one starts from: the test logs in the public logs' shape.
const LOGS: [&str; 4] = [
    include_str!("../../crates/birlink-core/tests/logs/modular-two-cores.txt"),
    include_str!("../../crates/birlink-core/tests/logs/flat-illc059.txt"),
    include_str!("../../crates/birlink-core/tests/logs/two-compiles.txt"),
    include_str!("../../crates/birlink-core/tests/logs/cut-short.txt"),
];

/// A log's text.
#[derive(Debug)]
pub struct LogText(pub String);

impl<'a> Arbitrary<'a> for LogText {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        if u.ratio(1u8, 4u8)? {
            return Ok(LogText(String::arbitrary(u)?));
        }
        let base = LOGS[u.choose_index(LOGS.len())?];
        let mut lines: Vec<String> = base.lines().map(str::to_owned).collect();
        for _ in 0..u.int_in_range(0u8..=24)? {
            if lines.is_empty() {
                break;
            }
            let at = u.choose_index(lines.len())?;
            match u.int_in_range(0u8..=5)? {
                0 => {
                    lines.remove(at);
                }
                1 => {
                    let copy = lines[at].clone();
                    lines.insert(at, copy);
                }
                2 => {
                    // Cut a line short, at a character boundary.
                    let line = &lines[at];
                    let cut = line.char_indices().map(|(i, _)| i).nth(u.choose_index(line.chars().count() + 1)?);
                    if let Some(cut) = cut {
                        lines[at].truncate(cut);
                    }
                }
                3 => {
                    let other = LOGS[u.choose_index(LOGS.len())?];
                    let other: Vec<&str> = other.lines().collect();
                    if !other.is_empty() {
                        lines.insert(at, other[u.choose_index(other.len())?].to_owned());
                    }
                }
                4 => lines[at] = String::arbitrary(u)?,
                _ => {
                    // A word of the line replaced (a pass name, a number, a path).
                    let words: Vec<&str> = lines[at].split(' ').collect();
                    let which = u.choose_index(words.len())?;
                    let replaced: Vec<String> = words
                        .iter()
                        .enumerate()
                        .map(|(i, w)| if i == which { String::arbitrary(u).unwrap_or_default() } else { (*w).to_owned() })
                        .collect();
                    lines[at] = replaced.join(" ");
                }
            }
        }
        let mut text = lines.join("\n");
        if u.arbitrary()? {
            text.push('\n');
        }
        Ok(LogText(text))
    }
}

/// Reads a log every way birlink does; panics (a finding) when a reading is not the same
/// twice or its JSON does not read back.
pub fn check_log(text: &str) {
    use birlink_core::tools::log;
    let first = log::read_log_json(text.as_bytes());
    assert_eq!(first, log::read_log_json(text.as_bytes()), "a log reads the same twice");
    if let Err(error) = serde_json::from_str::<serde_json::Value>(&first) {
        panic!("the log's JSON does not read back: {error}");
    }
    let findings = log::read(text);
    assert_eq!(findings, log::read(text), "its findings are the same twice");
}
