//! A core's `tensor_map.json`, read tolerantly (docs/spec/link.md §3.11).
//!
//! The public record names the tensor map's fields (`layer_name`, `sim_format`,
//! `sim_shape`, `tf_file`, `sbuf_compatible`) but not its structure, so birlink reads
//! whatever it finds: an object keyed by tensor name, a list of objects naming their
//! tensor in a key, or either of these one level down under group keys (`{"inputs":
//! {…}, "outputs": […]}`). Every key of every entry is kept as it is. What it cannot
//! read as entries is BL0309, a warning: the link goes on without that core's map.

use serde_json::{Map, Value};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::ir::{escape_segment, FileId};
use crate::model::pass::Pass;

/// The fields the public record names (rodata of `buildMainTensorMap`).
pub const KNOWN_FIELDS: &[&str] = &["layer_name", "sim_format", "sim_shape", "tf_file", "sbuf_compatible"];

/// The keys a listed entry may name its tensor in, in the order tried.
pub const NAME_KEYS: &[&str] = &["name", "tensor_name", "tensor", "memloc", "memory_location", "id"];

/// How one file is laid out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// An object whose keys are tensor names.
    Keyed,
    /// A list of objects, each naming its tensor in this key.
    List(String),
}

/// One entry as read.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The tensor's name.
    pub name: String,
    /// The group key it was under, if any.
    pub group: Option<String>,
    /// Every key of the entry.
    pub fields: Map<String, Value>,
    /// Its JSON pointer in the file.
    pub pointer: String,
}

/// One core's tensor map.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorMapFile {
    /// The layout found (of the first group, when grouped).
    pub shape: Shape,
    /// Whether the entries sit under group keys.
    pub grouped: bool,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
}

impl TensorMapFile {
    /// The layout, in words (`report.tensor_map.files[].shape`).
    pub fn describe(&self) -> String {
        let shape = match &self.shape {
            Shape::Keyed => "an object keyed by tensor name".to_owned(),
            Shape::List(key) => format!("a list of objects named by `{key}`"),
        };
        if self.grouped {
            format!("groups, each {shape}")
        } else {
            shape
        }
    }
}

/// Reads one file's text. `None` (with BL0309) when it is not JSON or holds nothing
/// birlink can read as entries.
pub fn read(text: &str, file: FileId, path: &str, diags: &mut Vec<Diagnostic>) -> Option<TensorMapFile> {
    let unreadable = |why: String, pointer: &str| {
        Diagnostic::new(
            Code::TensorMapUnreadable,
            Pass::BirLinker,
            format!("cannot read the tensor map `{path}`: {why}"),
        )
        .at_pointer(file, pointer)
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(error) => {
            diags.push(unreadable(format!("not JSON ({error})"), ""));
            return None;
        }
    };
    if let Some((shape, entries)) = entries_of(&value, "", None) {
        return Some(TensorMapFile { shape, grouped: false, entries });
    }
    // One level of groups: an object whose values are maps of entries.
    if let Value::Object(groups) = &value {
        let mut shape = None;
        let mut entries = Vec::new();
        for (key, group) in groups {
            let pointer = format!("/{}", escape_segment(key));
            match entries_of(group, &pointer, Some(key)) {
                Some((found, mut more)) => {
                    shape.get_or_insert(found);
                    entries.append(&mut more);
                }
                None => {
                    diags.push(unreadable(format!("group `{key}` holds no entries birlink can read"), &pointer));
                    return None;
                }
            }
        }
        if let Some(shape) = shape {
            return Some(TensorMapFile { shape, grouped: true, entries });
        }
    }
    let what = match &value {
        Value::Object(map) if map.is_empty() => "an empty object".to_owned(),
        Value::Array(list) if list.is_empty() => "an empty list".to_owned(),
        Value::Array(_) => format!("a list whose entries do not name their tensor in any of {}", quoted(NAME_KEYS)),
        Value::Object(_) => "an object that is neither entries by tensor name nor groups of them".to_owned(),
        _ => "not an object or a list".to_owned(),
    };
    diags.push(unreadable(what, ""));
    None
}

fn quoted(keys: &[&str]) -> String {
    keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

/// Whether an object looks like one entry: it has one of the known fields.
fn is_entry(object: &Map<String, Value>) -> bool {
    KNOWN_FIELDS.iter().any(|k| object.contains_key(*k))
}

/// The entries of a value laid out as a keyed object or a named list, if it is one.
fn entries_of(value: &Value, at: &str, group: Option<&str>) -> Option<(Shape, Vec<Entry>)> {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let objects: Option<Vec<(&String, &Map<String, Value>)>> =
                map.iter().map(|(k, v)| v.as_object().map(|o| (k, o))).collect();
            let objects = objects?;
            // A map of groups is not a map of entries: its values have no entry field.
            if !objects.iter().any(|(_, o)| is_entry(o)) && objects.iter().all(|(_, o)| !o.is_empty()) {
                let all_groups = objects.iter().all(|(_, o)| o.values().all(|v| v.is_object() || v.is_array()));
                if all_groups {
                    return None;
                }
            }
            let entries = objects
                .into_iter()
                .map(|(name, fields)| Entry {
                    name: name.clone(),
                    group: group.map(str::to_owned),
                    fields: fields.clone(),
                    pointer: format!("{at}/{}", escape_segment(name)),
                })
                .collect();
            Some((Shape::Keyed, entries))
        }
        Value::Array(list) if !list.is_empty() => {
            let objects: Option<Vec<&Map<String, Value>>> = list.iter().map(Value::as_object).collect();
            let objects = objects?;
            let key = NAME_KEYS.iter().find(|k| objects.iter().all(|o| o.get(**k).is_some_and(Value::is_string)))?;
            let entries = objects
                .into_iter()
                .enumerate()
                .map(|(i, fields)| Entry {
                    name: fields.get(*key).and_then(Value::as_str).unwrap_or("").to_owned(),
                    group: group.map(str::to_owned),
                    fields: fields.clone(),
                    pointer: format!("{at}/{i}"),
                })
                .collect();
            Some((Shape::List((*key).to_owned()), entries))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> (Option<TensorMapFile>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let map = read(text, FileId(0), "nc00/sg00/tensor_map.json", &mut diags);
        (map, diags)
    }

    fn names(map: &TensorMapFile) -> Vec<(&str, Option<&str>, &str)> {
        map.entries.iter().map(|e| (e.name.as_str(), e.group.as_deref(), e.pointer.as_str())).collect()
    }

    #[test]
    fn an_object_keyed_by_name_keeps_every_key() {
        let (map, diags) = read_text(
            r#"{"a": {"layer_name": "l0", "sim_shape": [1, 2], "extra": {"x": 1}}, "b/c": {"tf_file": "b.npy"}}"#,
        );
        let map = map.unwrap();
        assert!(diags.is_empty());
        assert_eq!(map.shape, Shape::Keyed);
        assert_eq!(names(&map), [("a", None, "/a"), ("b/c", None, "/b~1c")]);
        assert_eq!(map.entries[0].fields["extra"], serde_json::json!({"x": 1}));
        assert_eq!(map.describe(), "an object keyed by tensor name");
    }

    #[test]
    fn a_list_names_its_tensors_in_a_key() {
        let (map, _) = read_text(r#"[{"tensor_name": "a", "sim_format": "fp32"}, {"tensor_name": "b"}]"#);
        let map = map.unwrap();
        assert_eq!(map.shape, Shape::List("tensor_name".to_owned()));
        assert_eq!(names(&map), [("a", None, "/0"), ("b", None, "/1")]);
    }

    #[test]
    fn groups_one_level_down() {
        let (map, diags) =
            read_text(r#"{"inputs": {"in0": {"layer_name": "x"}}, "outputs": [{"name": "out0", "sim_shape": [4]}]}"#);
        let map = map.unwrap();
        assert!(diags.is_empty(), "{diags:?}");
        assert!(map.grouped);
        assert_eq!(names(&map), [("in0", Some("inputs"), "/inputs/in0"), ("out0", Some("outputs"), "/outputs/0")]);
    }

    #[test]
    fn what_cannot_be_read_is_said() {
        for (text, says, pointer) in [
            ("{\"a\": ", "not JSON", ""),
            ("[]", "an empty list", ""),
            ("[{\"layer_name\": \"x\"}]", "do not name their tensor", ""),
            ("3", "not an object or a list", ""),
            (r#"{"inputs": {"a": {"layer_name": "x"}}, "n": 3}"#, "group `n` holds no entries", "/n"),
        ] {
            let (map, diags) = read_text(text);
            assert!(map.is_none(), "{text}");
            assert_eq!(diags.len(), 1, "{text}");
            assert_eq!(diags[0].code, Code::TensorMapUnreadable);
            assert!(diags[0].message.contains(says), "{text}: {}", diags[0].message);
            assert_eq!(diags[0].src().map(|s| s.pointer().into_owned()).as_deref(), Some(pointer));
        }
    }
}
