//! How messages quote a JSON value: its type (`an array`), its text when short, cut
//! text for longer ones.

use serde_json::Value;

/// A JSON type name for messages (`an object`, `a string`, …).
pub fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a fractional number",
        Value::Number(n) if n.is_i64() && n.as_i64().is_some_and(|i| i < 0) => "a negative number",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value for a message: its type, and its text when short.
pub fn describe_value(value: &Value) -> String {
    let text = compact(value);
    if text.len() <= 40 {
        format!("{} `{text}`", type_name(value))
    } else {
        type_name(value).to_owned()
    }
}

/// Compact JSON text of a value, cut to 60 characters.
pub fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text
    }
}
