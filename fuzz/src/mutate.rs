//! The `mutate_generated` target's model: a generated, valid link set and a list of
//! edits to its JSON (delete, replace, retype, rename, duplicate, move).

use arbitrary::Arbitrary;
use serde_json::{json, Value};

use birlink_core::gen::{self, GenConfig};
use birlink_core::{LinkOptions, SourceFile};

use crate::{Name, Scalar};

/// A generated link set and edits to its JSON.
#[derive(Debug, Arbitrary)]
pub struct Mutated {
    /// Cores (1–4).
    pub cores: u8,
    /// Instructions per core (0–23).
    pub insts: u8,
    /// Handoffs, remote DMA blocks, barriers (each 0–3), loop depth (0–2).
    pub shape: (u8, u8, u8, u8),
    /// Ring handoffs.
    pub ring: bool,
    /// A netlist.
    pub netlist: bool,
    /// Generator seed.
    pub seed: u64,
    /// Per-core files instead of a bundle.
    pub files: bool,
    /// The edits, applied in order.
    pub edits: Vec<Edit>,
}

/// One edit to a generated document: `at` picks a node in depth-first order.
#[derive(Debug, Arbitrary)]
pub struct Edit {
    /// Which module (modulo their number).
    pub module: u8,
    /// Which node of it (modulo the number of nodes).
    pub at: u16,
    /// What to do.
    pub op: EditOp,
}

/// What an edit does.
#[derive(Debug, Arbitrary)]
pub enum EditOp {
    /// Remove the node from its object or array.
    Delete,
    /// Replace the node with a scalar.
    Replace(Scalar),
    /// Set a key of an object node.
    SetKey(Name, Scalar),
    /// Copy the node next to itself (arrays) or under a new key (objects).
    Duplicate,
    /// Put the node inside a one-element array.
    Wrap,
    /// Replace a string node with a name from the table (renames, dangling references).
    Rename(Name),
}

/// Counts nodes depth-first.
fn count(value: &Value) -> usize {
    1 + match value {
        Value::Object(map) => map.values().map(count).sum(),
        Value::Array(items) => items.iter().map(count).sum(),
        _ => 0,
    }
}

/// Applies `op` to the node number `target` (depth-first) under `value`; `index` counts.
fn apply(value: &mut Value, target: usize, index: &mut usize, op: &EditOp) -> bool {
    // Children are edited from their parent so they can be removed or duplicated.
    let here = *index;
    *index += 1;
    if here == target {
        match op {
            EditOp::Replace(s) => *value = s.value(),
            EditOp::SetKey(k, s) => {
                if let Value::Object(map) = value {
                    map.insert(k.0.clone(), s.value());
                }
            }
            EditOp::Wrap => *value = Value::Array(vec![value.take()]),
            EditOp::Rename(n) => {
                if value.is_string() {
                    *value = json!(n.0);
                }
            }
            EditOp::Delete | EditOp::Duplicate => {}
        }
        return true;
    }
    match value {
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let child_index = *index;
                if child_index == target && matches!(op, EditOp::Delete | EditOp::Duplicate) {
                    match op {
                        EditOp::Delete => {
                            map.remove(&key);
                        }
                        _ => {
                            let copy = map.get(&key).cloned().unwrap_or(Value::Null);
                            map.insert(format!("{key}_copy"), copy);
                        }
                    }
                    return true;
                }
                if let Some(child) = map.get_mut(&key) {
                    if apply(child, target, index, op) {
                        return true;
                    }
                }
            }
            false
        }
        Value::Array(items) => {
            for i in 0..items.len() {
                let child_index = *index;
                if child_index == target && matches!(op, EditOp::Delete | EditOp::Duplicate) {
                    match op {
                        EditOp::Delete => {
                            items.remove(i);
                        }
                        _ => {
                            let copy = items[i].clone();
                            items.insert(i, copy);
                        }
                    }
                    return true;
                }
                if apply(&mut items[i], target, index, op) {
                    return true;
                }
            }
            false
        }
        _ => false,
    }
}

impl Mutated {
    /// The generated set with the edits applied, and its options.
    pub fn sources(&self) -> (Vec<SourceFile>, LinkOptions) {
        let config = GenConfig {
            cores: u64::from(self.cores % 4 + 1),
            insts: usize::from(self.insts % 24),
            handoffs: usize::from(self.shape.0 % 4),
            remote_dma: usize::from(self.shape.1 % 4),
            barriers: usize::from(self.shape.2 % 4),
            loop_depth: usize::from(self.shape.3 % 3),
            ring: self.ring,
            netlist: self.netlist,
            seed: self.seed,
            ..GenConfig::default()
        };
        let mut set = gen::generate_set(&config);
        for edit in self.edits.iter().take(16) {
            let n = set.modules.len();
            if n == 0 {
                break;
            }
            let module = &mut set.modules[edit.module as usize % n];
            let target = edit.at as usize % count(module);
            apply(module, target, &mut 0, &edit.op);
        }
        let mut files = Vec::new();
        if self.files {
            for (i, module) in set.modules.iter().enumerate() {
                files.push(SourceFile::text(format!("nc{i:02}.json"), gen::pretty(module)));
            }
            if let Some(netlist) = &set.netlist {
                files.push(SourceFile::text("hlo_netlist.json", gen::pretty(netlist)));
            }
        } else {
            let mut bundle = json!({ "modules": set.modules });
            if let Some(netlist) = set.netlist {
                bundle["netlist"] = netlist;
            }
            if !set.options.is_empty() {
                bundle["options"] = Value::Object(set.options);
            }
            files.push(SourceFile::text("linkset.json", gen::pretty(&bundle)));
        }
        (files, LinkOptions::default())
    }
}
