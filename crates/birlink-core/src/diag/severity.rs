//! How bad a diagnostic is: a note, a warning or an error.

use serde::{Deserialize, Serialize};

/// How bad a diagnostic is. Ordered: `Note < Warning < Error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Information: something was skipped or had nothing to do.
    Note,
    /// Suspicious, but the link goes on.
    Warning,
    /// The pass (or the read) failed; later passes do not run.
    Error,
}

impl Severity {
    /// `error`, `warning` or `note`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}
