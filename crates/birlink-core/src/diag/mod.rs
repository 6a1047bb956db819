//! Diagnostics are data: severity, code, pass, message, core, location, help.
//!
//! Passes push [`Diagnostic`]s into a `Vec`; nothing here renders. The CLI renders them
//! rustc-style, the UI as cards, `report.json` as JSON (spec §6, §7). A diagnostic
//! built inside a pass points at an entity's [`Src`]; the pipeline turns that into a
//! [`Location`] (file name, JSON pointer, line, column) once, at the end, for all
//! diagnostics of a file together.
//!
//! Style: messages are lowercase, name things in backticks, and state what and where;
//! `help` says what to do.

pub mod codes;
pub mod describe;
pub mod docs;
pub mod ncc;
mod severity;

use serde::{Deserialize, Serialize};

use crate::model::entity::EntityKind;
use crate::model::ir::{FileId, Src};
use crate::model::pass::Pass;
use codes::Code;
pub use severity::Severity;

/// Where a diagnostic points: a file and a JSON pointer, with line and column when known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Location {
    /// The input file, as given (a path, or the name of an uploaded file).
    pub file: String,
    /// RFC 6901 pointer into that file's JSON.
    pub pointer: String,
    /// 1-based line of the value, when the file text is available.
    pub line: Option<u64>,
    /// 1-based column (in characters) of the value.
    pub column: Option<u64>,
}

/// The entity a diagnostic is about, by name, so views can highlight it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityRef {
    /// What it is.
    pub kind: EntityKind,
    /// The entity's name.
    pub name: String,
    /// The function (or queue) that holds it, when that matters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// One row of a per-core table attached to a diagnostic (1512's lockstep counts).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CoreCount {
    /// The core.
    pub core: u64,
    /// Its module (function) name.
    pub module: String,
    /// The count.
    pub count: u64,
}

/// One problem found in the input or by a pass.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// Stable code: the compiler's own (`1514`) or birlink's (`BL0002`); see [`codes`].
    pub code: Code,
    /// The stage that found it.
    pub pass: Pass,
    /// What is wrong, where and why.
    pub message: String,
    /// The core concerned, when there is one.
    pub core: Option<u64>,
    /// Where in the input, when known.
    pub location: Option<Location>,
    /// What to do about it.
    pub help: String,
    /// Further facts (one sentence each).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Names close to a name that was not found (1514).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nearest: Vec<String>,
    /// Cores on which a name that was not found does exist (1514).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found_on_cores: Vec<u64>,
    /// Per-core counts (1512).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub table: Vec<CoreCount>,
    /// The entity concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<EntityRef>,
    /// The kernel line behind the instruction it is about (`ring_attention.py:142`),
    /// when the dump carries one (`debug.filename`, `debug.lineno`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The entity's source, resolved into `location` by the pipeline.
    #[serde(skip)]
    pub(crate) src: Unresolved,
}

/// A diagnostic's source before the pipeline resolves it. Not part of the diagnostic's
/// identity: two diagnostics that read the same are equal.
#[derive(Clone, Debug, Default)]
pub(crate) struct Unresolved(pub(crate) Option<Src>);

impl PartialEq for Unresolved {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, pass: Pass, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.severity(),
            code,
            pass,
            message: message.into(),
            core: None,
            location: None,
            help: code.help().to_owned(),
            notes: Vec::new(),
            nearest: Vec::new(),
            found_on_cores: Vec::new(),
            table: Vec::new(),
            entity: None,
            source: None,
            src: Unresolved(None),
        }
    }

    /// Sets the core.
    pub fn core(mut self, core: u64) -> Self {
        self.core = Some(core);
        self
    }

    /// Points at an input entity (resolved to a location by the pipeline).
    pub fn at(mut self, src: Option<&Src>) -> Self {
        self.src = Unresolved(src.cloned());
        self
    }

    /// Points at one key of an input entity (`<entity pointer>/<key>`).
    pub fn at_key(mut self, src: Option<&Src>, key: &str) -> Self {
        self.src = Unresolved(
            src.map(|s| Src::new(s.file(), format!("{}/{}", s.pointer(), crate::model::ir::escape_segment(key)))),
        );
        self
    }

    /// Points at a file and pointer directly.
    pub fn at_pointer(mut self, file: FileId, pointer: impl Into<String>) -> Self {
        self.src = Unresolved(Some(Src::new(file, pointer.into())));
        self
    }

    /// Replaces the code's default help.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = help.into();
        self
    }

    /// Adds a note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Names the entity concerned.
    pub fn entity(mut self, kind: EntityKind, name: &str, parent: Option<&str>) -> Self {
        self.entity = Some(EntityRef { kind, name: name.to_owned(), parent: parent.map(str::to_owned) });
        self
    }

    /// Overrides the severity (for codes whose severity depends on context).
    pub fn severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// The unresolved source, if any.
    pub fn src(&self) -> Option<&Src> {
        self.src.0.as_ref()
    }
}

/// Whether any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(|d| d.severity == Severity::Error)
}

/// How many errors, warnings and notes, in words: `1 error, 2 warnings, 0 notes`.
/// The CLI's verdict and the page's header say it the same way.
pub fn tally(errors: usize, warnings: usize, notes: usize) -> String {
    format!(
        "{}, {}, {}",
        crate::english::counted(errors, "error"),
        crate::english::counted(warnings, "warning"),
        crate::english::counted(notes, "note")
    )
}

#[cfg(test)]
mod tests {
    use super::tally;

    #[test]
    fn tally_says_one_and_many() {
        assert_eq!(tally(1, 0, 2), "1 error, 0 warnings, 2 notes");
        assert_eq!(tally(0, 1, 1), "0 errors, 1 warning, 1 note");
    }
}
