//! A JSON value read the same way whether it is parsed (`&Value`) or still text (the
//! tape `read::json::fast` records as it scans an instruction).
//!
//! The reader checks a few keys of every instruction and records the names it uses.
//! Most instructions are never parsed into a map (`read::json::fast` reads them as
//! text), so those facts are written once, against [`JsonView`], and asked of either
//! form: what an instruction uses (`uses::each_ref`), what its `sync_info` must be
//! (`read::json::checks::sync_problems`), whether it updates another core
//! ([`remote_update`]). One definition, so the two reading paths cannot disagree.

use serde_json::Value;

/// The JSON type of a value, as the reader's checks tell them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonType {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

/// Read access to one JSON value.
pub(crate) trait JsonView<'a>: Copy {
    /// Its type.
    fn json_type(self) -> JsonType;
    /// Its string, when it is one.
    fn as_str(self) -> Option<&'a str>;
    /// Its value, when it is a non-negative integer that fits 64 bits.
    fn as_u64(self) -> Option<u64>;
    /// The member `key`, when this is an object that has it (the last one, when the
    /// text repeats it, as a map keeps it).
    fn get(self, key: &str) -> Option<Self>;
    /// Calls `each` with every element, when this is an array.
    fn for_each_element(self, each: &mut dyn FnMut(Self));
}

impl<'a> JsonView<'a> for &'a Value {
    fn json_type(self) -> JsonType {
        match self {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Bool,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    fn as_str(self) -> Option<&'a str> {
        Value::as_str(self)
    }

    fn as_u64(self) -> Option<u64> {
        Value::as_u64(self)
    }

    fn get(self, key: &str) -> Option<Self> {
        self.as_object()?.get(key)
    }

    fn for_each_element(self, each: &mut dyn FnMut(Self)) {
        if let Value::Array(items) = self {
            items.iter().for_each(each);
        }
    }
}

/// Whether some `on_update` entry of an instruction's `sync_info` has a `target_core`.
pub(crate) fn remote_update<'a, V: JsonView<'a>>(sync_info: Option<V>) -> bool {
    let Some(on_update) = sync_info.and_then(|sync| sync.get("on_update")) else { return false };
    let mut remote = false;
    on_update.for_each_element(&mut |entry| remote |= entry.get("target_core").is_some());
    remote
}
