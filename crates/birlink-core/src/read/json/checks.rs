//! What the reader checks of an instruction's `sync_info`, asked of a parsed map or of
//! text alike (`model::view::JsonView`): the one definition both reading paths use.

use serde_json::Value;

use crate::model::view::{JsonType, JsonView};

/// What a checked value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expect {
    String,
    Array,
    Object,
    Bool,
    /// A non-negative integer that fits `u64`.
    Unsigned,
    /// Any integer that fits `i64`.
    Signed,
}

impl Expect {
    /// How messages say it.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Expect::String => "a string",
            Expect::Array => "an array",
            Expect::Object => "an object",
            Expect::Bool => "a boolean",
            Expect::Unsigned => "a non-negative integer",
            Expect::Signed => "an integer",
        }
    }

    /// Whether a parsed value is one.
    pub(crate) fn accepts(self, value: &Value) -> bool {
        match self {
            Expect::Signed => value.as_i64().is_some(),
            other => other.accepts_view(value),
        }
    }

    /// Whether a value is one (`Signed` is only asked of parsed values).
    pub(crate) fn accepts_view<'a>(self, value: impl JsonView<'a>) -> bool {
        match self {
            Expect::String => value.json_type() == JsonType::String,
            Expect::Array => value.json_type() == JsonType::Array,
            Expect::Object => value.json_type() == JsonType::Object,
            Expect::Bool => value.json_type() == JsonType::Bool,
            Expect::Unsigned => value.as_u64().is_some(),
            Expect::Signed => false,
        }
    }
}

/// Something wrong with an instruction's `sync_info`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SyncProblem<V> {
    /// `sync_info` (or its `key`) is not of the type it must be.
    Key {
        /// `None` for `sync_info` itself, else its key (`on_wait`, `on_update`).
        key: Option<&'static str>,
        /// What it must be.
        expect: Expect,
        /// What it is.
        found: V,
    },
    /// `on_update` entry `index` is not an object.
    Entry { index: usize, found: V },
    /// A key of `on_update` entry `index` is not of the type it must be.
    EntryKey { index: usize, key: &'static str, expect: Expect, found: V },
}

/// Every problem of an instruction's `sync_info` (the value of that key, when present),
/// in the order the reader reports them.
pub(crate) fn sync_problems<'a, V: JsonView<'a>>(sync_info: Option<V>, problem: &mut dyn FnMut(SyncProblem<V>)) {
    let Some(sync) = sync_info else { return };
    if sync.json_type() != JsonType::Object {
        problem(SyncProblem::Key { key: None, expect: Expect::Object, found: sync });
        return;
    }
    if let Some(on_wait) = sync.get("on_wait") {
        if !Expect::Array.accepts_view(on_wait) {
            problem(SyncProblem::Key { key: Some("on_wait"), expect: Expect::Array, found: on_wait });
        }
    }
    let Some(on_update) = sync.get("on_update") else { return };
    if !Expect::Array.accepts_view(on_update) {
        problem(SyncProblem::Key { key: Some("on_update"), expect: Expect::Array, found: on_update });
        return;
    }
    let mut index = 0;
    on_update.for_each_element(&mut |entry| {
        if entry.json_type() != JsonType::Object {
            problem(SyncProblem::Entry { index, found: entry });
        } else {
            for (key, expect) in [("target_core", Expect::Unsigned), ("type", Expect::String), ("mode", Expect::String)]
            {
                if let Some(value) = entry.get(key) {
                    if !expect.accepts_view(value) {
                        problem(SyncProblem::EntryKey { index, key, expect, found: value });
                    }
                }
            }
        }
        index += 1;
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::view::remote_update;
    use crate::read::json::fast::{canonical, Scratch};

    /// `sync_info` given as text, read through the fast path's tape.
    fn on_tape<R>(text: &str, f: impl FnOnce(Option<crate::read::json::fast::Node<'_>>) -> R) -> R {
        let wrapped = format!("{{\"s\":{text}}}");
        let mut scratch = Scratch::default();
        let canonical = canonical(&wrapped, &mut scratch).unwrap();
        f(canonical.get("s"))
    }

    #[test]
    #[allow(clippy::redundant_closure, reason = "`remote_update` is generic: the closure gives it the tape's lifetime")]
    fn sync_problems_read_objects_only() {
        let problems = |text: &str| {
            let value: Value = serde_json::from_str(text).unwrap();
            let mut from_value = Vec::new();
            sync_problems(Some(&value), &mut |p| {
                from_value.push(format!("{p:?}").split(" found").next().map(str::to_owned))
            });
            let mut from_text = Vec::new();
            on_tape(text, |sync| {
                sync_problems(sync, &mut |p| from_text.push(format!("{p:?}").split(" found").next().map(str::to_owned)))
            });
            assert_eq!(from_value, from_text, "{text}");
            from_value.len()
        };
        assert_eq!(problems(r#"[[],[{"target_core":1}]]"#), 1);
        assert_eq!(problems(r#"{"on_update":[[1]]}"#), 1);
        assert_eq!(problems(r#"{"on_update":[{"target_core":-1,"type":1,"mode":"m"}]}"#), 2);
        assert_eq!(problems(r#"{"on_wait":{},"on_update":{}}"#), 2);
        assert_eq!(problems(r#"{"on_wait":[],"on_update":[{"target_core":1}]}"#), 0);
        assert!(on_tape(r#"{"on_update":[{"id":1},{"target_core":0}]}"#, |s| remote_update(s)));
        assert!(!on_tape(r#"{"on_update":[[{"target_core":0}]]}"#, |s| remote_update(s)));
    }
}
