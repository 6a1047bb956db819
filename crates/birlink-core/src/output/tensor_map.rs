//! The merged `tensor-map.json` a link of a work directory writes into `sgLnk/`
//! (docs/spec/link.md §3.11), and in the modular flow each core's
//! `ncCC/sgLnk/sg00/tensor_map.json` (§3.6).
//!
//! The compiler's on-disk structure is not public; birlink writes an object keyed by
//! each core's function in the linked module (`copyTensorMapForFunc(funcName, …)`),
//! each holding that core's entries keyed by tensor name (under their groups, when the
//! core's file had groups), each value the entry's keys as read; keys in order,
//! 2-space indented. Entries the link made
//! internal (BL0311) are left out; every other entry is written, stale or conflicting
//! ones included (their warnings say why), so nothing a core's map held is lost.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::report::{EntryStatus, TensorMap};

/// The text of `tensor-map.json` (the seeds' reading: every core's entries).
pub fn to_string(map: &TensorMap) -> String {
    of(map, None)
}

/// The text of core `core`'s `ncCC/sgLnk/sg00/tensor_map.json` (the modular flow: the
/// core's subgraphs' entries, keyed by their functions `sg0000`, …).
pub fn core_to_string(map: &TensorMap, core: u64) -> String {
    of(map, Some(core))
}

fn of(map: &TensorMap, core: Option<u64>) -> String {
    let mut functions: BTreeMap<&str, BTreeMap<Option<&str>, Map<String, Value>>> = BTreeMap::new();
    let wanted = |e: &&super::report::TensorMapEntry| core.is_none_or(|c| e.core == c);
    for entry in map.entries.iter().filter(wanted).filter(|e| e.status != EntryStatus::Demoted) {
        functions
            .entry(entry.function.as_str())
            .or_default()
            .entry(entry.group.as_deref())
            .or_default()
            .insert(entry.name.clone(), Value::Object(entry.fields.clone()));
    }
    let mut root = Map::new();
    for (function, groups) in functions {
        let mut inner = Map::new();
        for (group, entries) in groups {
            match group {
                Some(group) => {
                    inner.insert(group.to_owned(), Value::Object(entries));
                }
                None => inner.extend(entries),
            }
        }
        root.insert(function.to_owned(), Value::Object(inner));
    }
    super::json::to_pretty_string(&Value::Object(root))
}

/// The file a core's merged tensor map is written to in an output folder
/// (`tensor_map.nc01.json`; `--link-dir` writes it as `nc01/sgLnk/sg00/tensor_map.json`).
pub fn core_file_name(core: u64) -> String {
    format!("tensor_map.{}.json", crate::model::place::CoreId(core))
}
