//! The kernel line behind an instruction: its `debug` object's `filename` and line
//! (`lineno`, or `line`), as code that reads real dumps finds them. A kernel author
//! reads a failure as a line of their own code (`ring_attention.py:142`).

use serde_json::Value;

/// `file:line` (or `file`) of an instruction's JSON, when its `debug` names a file.
pub fn of_value(inst: &Value) -> Option<String> {
    let debug = inst.get("debug")?;
    let file = debug.get("filename").and_then(Value::as_str).filter(|f| !f.is_empty())?;
    let line = ["lineno", "line"].iter().find_map(|k| debug.get(*k).and_then(Value::as_u64));
    Some(match line {
        Some(line) => format!("{file}:{line}"),
        None => file.to_owned(),
    })
}

/// [`of_value`] of an instruction's text.
pub fn of_text(inst: &str) -> Option<String> {
    if !inst.contains("\"debug\"") {
        return None;
    }
    of_value(&serde_json::from_str::<Value>(inst).ok()?)
}

/// The pointer of the instruction a pointer is in (`…/instructions/<n>` or a queue's
/// `…/instructions/<n>`, the innermost), if it is in one.
pub fn instruction_pointer(pointer: &str) -> Option<&str> {
    let at = pointer.rfind("/instructions/")?;
    let rest = &pointer[at + "/instructions/".len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| &pointer[..at + "/instructions/".len() + digits])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_debug_object_names_the_kernel_line() {
        let inst = serde_json::json!({"name": "mm", "debug": {"filename": "ring_attention.py", "lineno": 142, "op_name": "matmul"}});
        assert_eq!(of_value(&inst).as_deref(), Some("ring_attention.py:142"));
        assert_eq!(of_text(r#"{"debug": {"filename": "k.py", "line": 7}}"#).as_deref(), Some("k.py:7"));
        assert_eq!(of_text(r#"{"debug": {"filename": "k.py"}}"#).as_deref(), Some("k.py"));
        assert_eq!(of_text(r#"{"debug": {"lineno": 7}}"#), None);
        assert_eq!(of_text(r#"{"name": "x"}"#), None);
    }

    #[test]
    fn a_pointer_inside_an_instruction_finds_it() {
        assert_eq!(
            instruction_pointer("/functions/0/blocks/3/instructions/17/sync_info/on_wait/0"),
            Some("/functions/0/blocks/3/instructions/17")
        );
        assert_eq!(instruction_pointer("/queues/0/blocks/1/instructions/2"), Some("/queues/0/blocks/1/instructions/2"));
        assert_eq!(instruction_pointer("/functions/0/allocations/3"), None);
    }
}
