//! An entity's JSON: every key it was read with but its child containers ([`Fields`]),
//! and the helpers that read and edit a field the same way everywhere.

use serde_json::{Map, Value};

/// The JSON keys of one entity, minus its typed child containers. Keys are kept sorted,
/// which is also how neuronx-cc writes them.
pub type Fields = Map<String, Value>;

/// Reads a string field.
pub fn str_field<'a>(fields: &'a Fields, key: &str) -> Option<&'a str> {
    fields.get(key).and_then(Value::as_str)
}

/// Reads a non-negative integer field.
pub fn u64_field(fields: &Fields, key: &str) -> Option<u64> {
    fields.get(key).and_then(Value::as_u64)
}

/// Edits the object under `key`, creating it when absent. A value there that is not an
/// object is moved to `source_<key>` first, so nothing is lost.
pub fn edit_object_field(fields: &mut Fields, key: &str, edit: impl FnOnce(&mut Fields)) {
    let mut map = match fields.remove(key) {
        Some(Value::Object(map)) => map,
        Some(other) => {
            fields.insert(format!("source_{key}"), other);
            Fields::new()
        }
        None => Fields::new(),
    };
    edit(&mut map);
    fields.insert(key.to_owned(), Value::Object(map));
}

/// `attributes.neuron_core_id` of a fields map, when it is a non-negative integer.
pub fn core_attribute(fields: &Fields) -> Option<u64> {
    fields.get("attributes").and_then(|a| a.get("neuron_core_id")).and_then(Value::as_u64)
}
