//! JSON text that does not parse, said with a code: serde_json's error classified
//! (`InvalidJson`, `TooDeep`, `NumberOutOfRange`), its words kept, its position apart.

use serde_json::Value;

use crate::diag::codes::Code;

/// Why a text is not a JSON document birlink can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// `InvalidJson`, `TooDeep` or `NumberOutOfRange`.
    pub code: Code,
    /// What the parser said, lowercase.
    pub message: String,
    /// 1-based line where the parser stopped.
    pub line: u64,
    /// 1-based column where the parser stopped.
    pub column: u64,
}

/// Parses JSON text into a value, classifying failures into codes.
pub fn parse(text: &str) -> Result<Value, ParseError> {
    serde_json::from_str(text).map_err(|error| classify(&error, text))
}

/// A serde_json error as a coded parse error.
pub fn classify(error: &serde_json::Error, text: &str) -> ParseError {
    let message = error.to_string();
    // serde_json's messages end with " at line L column C"; the position is kept
    // separately.
    let message = match message.rfind(" at line ") {
        Some(cut) => message[..cut].to_owned(),
        None => message,
    };
    let code = if message.contains("recursion limit exceeded") {
        Code::TooDeep
    } else if message.contains("number out of range") {
        Code::NumberOutOfRange
    } else {
        Code::InvalidJson
    };
    let message = match error.classify() {
        serde_json::error::Category::Eof if text.trim().is_empty() => "the file is empty".to_owned(),
        serde_json::error::Category::Eof => format!("{message}: the file looks truncated"),
        _ => message,
    };
    ParseError { code, message, line: error.line() as u64, column: error.column() as u64 }
}
