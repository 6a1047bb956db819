//! Edits to a bundle, and the two things done with a set of them: writing the bundle as
//! it would be with them applied (each test's candidate: no copy of the tree, the
//! removed paths skipped while writing), and applying them for good (one pass, one
//! `retain` per array).

use std::collections::HashMap;

use serde_json::Value;

/// One step of a path into the bundle.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Seg {
    Index(usize),
    Key(String),
}

/// Something a reduction can take away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Edit {
    /// The element or key at this path.
    Remove(Vec<Seg>),
    /// A name, everywhere it appears, for a short one.
    Rename { from: String, to: String },
}

/// The value at a path.
pub(crate) fn get<'v>(value: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(value, |value, seg| match seg {
        Seg::Index(i) => value.get(*i),
        Seg::Key(key) => value.get(key),
    })
}

/// A set of edits, as the walks use it: the removed paths as a tree (so a walk only
/// looks at the parts of the bundle an edit is in) and the renames as a map.
#[derive(Debug, Default)]
pub(crate) struct EditSet<'e> {
    removed: Trie<'e>,
    renames: HashMap<&'e str, &'e str>,
}

/// Removed paths, by their steps.
#[derive(Debug, Default)]
struct Trie<'e> {
    /// This node itself goes.
    gone: bool,
    children: HashMap<&'e Seg, Trie<'e>>,
}

impl<'e> EditSet<'e> {
    /// The set of these edits.
    pub(crate) fn of(edits: impl IntoIterator<Item = &'e Edit>) -> EditSet<'e> {
        let mut set = EditSet::default();
        for edit in edits {
            match edit {
                Edit::Remove(path) => {
                    let mut node = &mut set.removed;
                    for seg in path {
                        node = node.children.entry(seg).or_default();
                    }
                    node.gone = true;
                }
                Edit::Rename { from, to } => {
                    set.renames.insert(from, to);
                }
            }
        }
        set
    }

    /// The bundle as compact JSON text with the edits applied (exactly what
    /// `serde_json` prints for the edited value), and how many instructions it holds.
    pub(crate) fn write(&self, bundle: &Value) -> (Vec<u8>, usize) {
        let mut writer = Writer { out: Vec::new(), renames: &self.renames, instructions: 0 };
        writer.value(bundle, Some(&self.removed), false);
        (writer.out, writer.instructions)
    }

    /// Applies the edits to the bundle for good.
    pub(crate) fn apply(&self, bundle: &mut Value) {
        if !self.renames.is_empty() {
            rename_all(bundle, &self.renames);
        }
        remove(bundle, &self.removed);
    }
}

/// Writes a value with the removals under `trie` left out and the renames applied.
struct Writer<'a, 'e> {
    out: Vec<u8>,
    renames: &'a HashMap<&'e str, &'e str>,
    instructions: usize,
}

impl Writer<'_, '_> {
    /// `in_instructions`: the value is the array of an `instructions` key (its elements
    /// are counted).
    fn value(&mut self, value: &Value, trie: Option<&Trie<'_>>, in_instructions: bool) {
        // Nothing removed below and nothing to rename: serde_json writes it as it is.
        if trie.is_none_or(|t| t.children.is_empty()) && self.renames.is_empty() {
            self.instructions += count_instructions(value, in_instructions);
            // Writing into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut self.out, value);
            return;
        }
        let child = |seg: &Seg| trie.and_then(|t| t.children.get(seg));
        match value {
            Value::String(text) => {
                let text = self.renames.get(text.as_str()).copied().unwrap_or(text);
                let _ = serde_json::to_writer(&mut self.out, text);
            }
            Value::Array(items) => {
                self.out.push(b'[');
                let mut first = true;
                for (i, item) in items.iter().enumerate() {
                    let below = child(&Seg::Index(i));
                    if below.is_some_and(|t| t.gone) {
                        continue;
                    }
                    if !first {
                        self.out.push(b',');
                    }
                    first = false;
                    if in_instructions {
                        self.instructions += 1;
                    }
                    self.value(item, below, false);
                }
                self.out.push(b']');
            }
            Value::Object(map) => {
                self.out.push(b'{');
                let mut first = true;
                for (key, item) in map {
                    let seg = Seg::Key(key.clone());
                    let below = child(&seg);
                    if below.is_some_and(|t| t.gone) {
                        continue;
                    }
                    if !first {
                        self.out.push(b',');
                    }
                    first = false;
                    let _ = serde_json::to_writer(&mut self.out, key);
                    self.out.push(b':');
                    self.value(item, below, key == "instructions" && item.is_array());
                }
                self.out.push(b'}');
            }
            scalar => {
                let _ = serde_json::to_writer(&mut self.out, scalar);
            }
        }
    }
}

/// The instructions of a value (every element of every `instructions` array in it),
/// `in_instructions` when the value is such an array itself.
fn count_instructions(value: &Value, in_instructions: bool) -> usize {
    let mut count = 0;
    let mut stack = vec![(value, in_instructions)];
    while let Some((value, counted)) = stack.pop() {
        match value {
            Value::Array(items) => {
                if counted {
                    count += items.len();
                }
                stack.extend(items.iter().map(|item| (item, false)));
            }
            Value::Object(map) => {
                stack.extend(map.iter().map(|(key, item)| (item, key == "instructions")));
            }
            _ => {}
        }
    }
    count
}

/// How many instructions a bundle holds.
pub(crate) fn instructions_in(value: &Value) -> usize {
    count_instructions(value, false)
}

/// Removes what the trie marks: children first (at their original indices), then each
/// array once, keeping what is not removed.
fn remove(value: &mut Value, trie: &Trie<'_>) {
    match value {
        Value::Array(items) => {
            for (seg, below) in &trie.children {
                if let (Seg::Index(i), false) = (seg, below.gone) {
                    if let Some(item) = items.get_mut(*i) {
                        remove(item, below);
                    }
                }
            }
            let mut index = 0;
            items.retain(|_| {
                let gone = trie.children.get(&Seg::Index(index)).is_some_and(|t| t.gone);
                index += 1;
                !gone
            });
        }
        Value::Object(map) => {
            for (seg, below) in &trie.children {
                let Seg::Key(key) = seg else { continue };
                if below.gone {
                    map.remove(key);
                } else if let Some(item) = map.get_mut(key) {
                    remove(item, below);
                }
            }
        }
        _ => {}
    }
}

/// Renames every string value (not keys) that `renames` maps.
fn rename_all(value: &mut Value, renames: &HashMap<&str, &str>) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::String(text) => {
                if let Some(to) = renames.get(text.as_str()) {
                    *text = (*to).to_owned();
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path(text: &str) -> Vec<Seg> {
        text.split('/')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().map(Seg::Index).unwrap_or_else(|_| Seg::Key(s.to_owned())))
            .collect()
    }

    #[test]
    fn writing_with_edits_is_printing_the_edited_value() {
        let bundle = json!({"modules": [
            {"name": "a", "functions": [{"blocks": [{"instructions": [{"name": "i", "x": "a"}, {"name": "j"}, {"name": "k"}]}]}]},
            {"name": "b", "functions": []},
        ], "options": {"lnc": 2}});
        let edits = [
            Edit::Remove(path("/modules/1")),
            Edit::Remove(path("/modules/0/functions/0/blocks/0/instructions/1")),
            Edit::Remove(path("/modules/0/functions/0/blocks/0/instructions/0/x")),
            Edit::Rename { from: "a".into(), to: "m0".into() },
        ];
        for n in 0..=edits.len() {
            let set = EditSet::of(&edits[..n]);
            let (bytes, instructions) = set.write(&bundle);
            let mut edited = bundle.clone();
            set.apply(&mut edited);
            assert_eq!(String::from_utf8(bytes).unwrap(), edited.to_string(), "{n} edits");
            assert_eq!(instructions, instructions_in(&edited), "{n} edits");
        }
        assert_eq!(instructions_in(&bundle), 3);
    }
}
