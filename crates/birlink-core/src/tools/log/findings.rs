//! The log's lines that are the compiler's known error shapes (`diag::ncc`), each a
//! [`Finding`]: its code, birlink's code, and the names it mentions. Logs wrap long
//! lines (a report quoted `…named` and the name on the next line), so a shape cut after
//! its key words takes the next lines with it.

use std::borrow::Cow;

use crate::diag::codes::Code;
use crate::diag::ncc::{self, Ncc};
use crate::model::entity::EntityKind;

use super::line;

/// A name a log line mentions.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Mention {
    /// The name.
    pub name: String,
    /// What it names.
    pub kind: EntityKind,
    /// The core the line says it is (or is missing) on.
    pub core: Option<u64>,
}

/// One recognised line (or wrapped lines) of a log. It crosses threads as its code:
/// what birlink knows of it is looked up again ([`ncc::find`] of its code, as
/// [`read`] found it).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Finding {
    /// 1-based line where it starts.
    pub line: usize,
    /// The text, wrapped lines joined.
    pub text: String,
    /// The compiler's code (`NCC_ILLC059`) or assertion text.
    pub code: String,
    /// What birlink knows of it (`None`: an `NCC_` code birlink does not know).
    #[serde(skip)]
    pub known: Option<&'static Ncc>,
    /// The names it mentions.
    pub mentions: Vec<Mention>,
}

impl Finding {
    /// A finding that crossed from another thread, with what birlink knows of its code.
    pub fn known_again(mut self) -> Finding {
        self.known = ncc::find(&self.code);
        self
    }

    /// birlink's code for it, if birlink reproduces the failure.
    pub fn birlink(&self) -> Option<Code> {
        self.known.and_then(|n| n.birlink)
    }
}

/// The text after `marker` up to the next whitespace, without trailing punctuation.
fn word_after<'t>(text: &'t str, marker: &str) -> Option<&'t str> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let word = rest.split_whitespace().next()?;
    Some(word.trim_end_matches([',', '.', ';', ':', '"', '\'']))
}

fn number_after(text: &str, marker: &str) -> Option<u64> {
    word_after(text, marker)?.parse().ok()
}

/// Reads a log: each line of a known error shape, once (a repeated error, the driver's
/// echo of the backend's, is its first line).
pub fn read(log: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (number, text) in logical_lines(log) {
        if let Some(finding) = recognise(number, text.trim().to_owned()) {
            // The driver echoing an error the backend printed (same code, same names)
            // is the same failure: found once, at its first line.
            let echo = findings.iter().any(|f: &Finding| f.code == finding.code && f.mentions == finding.mentions);
            if !echo {
                findings.push(finding);
            }
        }
    }
    findings
}

/// The log's lines with their 1-based numbers, a known shape cut after its key words
/// joined with the lines that continue it (at most three, none a log line of its own).
pub(super) fn logical_lines(log: &str) -> Vec<(usize, Cow<'_, str>)> {
    let lines: Vec<&str> = log.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        if !incomplete(lines[i]) {
            out.push((start + 1, Cow::Borrowed(lines[i])));
            i += 1;
            continue;
        }
        let mut text = lines[i].trim_end().to_owned();
        while incomplete(&text) && i + 1 < lines.len() && i < start + 3 && line::parse(lines[i + 1]).pid.is_none() {
            i += 1;
            text.push(' ');
            text.push_str(lines[i].trim());
        }
        out.push((start + 1, Cow::Owned(text)));
        i += 1;
    }
    out
}

/// A shape cut after its key words, which continues on the next lines.
pub(super) fn incomplete(text: &str) -> bool {
    (text.contains("Could not find MemoryLocation named") && !text.contains(" on core "))
        || (text.contains("Expected core barriers to have name") && !text.contains(" has name "))
}

pub(super) fn recognise(line: usize, text: String) -> Option<Finding> {
    let bracketed = text
        .find("NCC_")
        .map(|at| text[at..].split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("").to_owned());
    let mut mentions = Vec::new();
    let code = if text.contains("Could not find MemoryLocation named") {
        let name = word_after(&text, "Could not find MemoryLocation named ")?;
        let core = number_after(&text, " on core ");
        mentions.push(Mention { name: name.to_owned(), kind: EntityKind::Memloc, core });
        bracketed.unwrap_or_else(|| "NCC_ILLC059".to_owned())
    } else if text.contains("Expected core barriers to have name") {
        let expected = word_after(&text, "Expected core barriers to have name ")?;
        let core = number_after(&text, " on core ");
        let found = word_after(&text, " has name ")?;
        mentions.push(Mention { name: expected.to_owned(), kind: EntityKind::Instruction, core: Some(0) });
        mentions.push(Mention { name: found.to_owned(), kind: EntityKind::Instruction, core });
        bracketed.unwrap_or_else(|| "NCC_IXLV002".to_owned())
    } else if text.contains("to be allocated after dram_allocator, violation: ") {
        // NCC_IBIR440 names the set it could not allocate after `violation: `.
        let name = word_after(&text, "violation: ")?;
        mentions.push(Mention { name: name.to_owned(), kind: EntityKind::Set, core: None });
        bracketed.unwrap_or_else(|| "NCC_IBIR440".to_owned())
    } else if text.contains("Expected function ") && text.contains(" basic blocks, but on core ") {
        // NCC_IXGM002: a function with N basic blocks on one core, M on another.
        let function = word_after(&text, "Expected function ")?;
        let core = number_after(&text, " but on core ");
        mentions.push(Mention { name: function.to_owned(), kind: EntityKind::Function, core });
        bracketed.unwrap_or_else(|| "NCC_IXGM002".to_owned())
    } else if let Some(entry) = ncc::TABLE.iter().find(|n| n.shape.starts_with("Assertion") && text.contains(n.code)) {
        // An assertion the compiler prints: its text is its code.
        entry.code.to_owned()
    } else {
        bracketed?
    };
    let known = ncc::find(&code);
    Some(Finding { line, text, code, known, mentions })
}
