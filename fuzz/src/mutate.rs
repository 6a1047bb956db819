//! The `mutate_generated` target's model: a generated, valid link set in any flow — the
//! seeds' reading, or the compiler's flat or modular flow (a grid of cores × subgraphs
//! laid out as a work directory, `ncCC/sgKK/bir.json`, with a netlist of partitions) —
//! and a list of edits to its JSON (delete, replace, retype, rename, duplicate, move),
//! the netlist's included.

use arbitrary::Arbitrary;
use serde_json::{json, Value};

use birlink_core::gen::{self, GenConfig, IoShape};
use birlink_core::{Flow, LinkOptions, SourceFile};

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
    /// The flow it is generated in (modulo 3: the seeds' reading, flat, modular), its
    /// subgraphs per core (1–3) and netlist partitions (1–8), and its netlist's
    /// `PartIOs` shape (modulo 4).
    pub grid: (u8, u8, u8, u8),
    /// The edits, applied in order.
    pub edits: Vec<Edit>,
}

/// One edit to a generated document: `at` picks a node in depth-first order.
#[derive(Debug, Arbitrary)]
pub struct Edit {
    /// Which module (modulo their number, the netlist after them).
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
        let (flow, subgraphs, partitions, io) = self.grid;
        let flow = [Flow::Seeds, Flow::Flat, Flow::Modular][usize::from(flow % 3)];
        let config = GenConfig {
            flow,
            subgraphs: u32::from(subgraphs % 3 + 1),
            partitions: usize::from(partitions % 8 + 1),
            io_shape: IoShape::ALL[usize::from(io % 4)],
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
            let n = set.modules.len() + usize::from(set.netlist.is_some());
            if n == 0 {
                break;
            }
            let at = edit.module as usize % n;
            let Some(document) = set.modules.get_mut(at).or(set.netlist.as_mut()) else { break };
            let target = edit.at as usize % count(document);
            apply(document, target, &mut 0, &edit.op);
        }
        let mut files = Vec::new();
        if self.files {
            for (i, module) in set.modules.iter().enumerate() {
                // A grid's modules where the compiler writes them (`ncCC/sgKK/bir.json`,
                // by their names, which an edit may have changed).
                let name = module.get("name").and_then(Value::as_str).filter(|_| flow != Flow::Seeds);
                let path = match name {
                    Some(name) => format!("{name}/bir.json"),
                    None => format!("nc{i:02}.json"),
                };
                files.push(SourceFile::text(path, gen::pretty(module)));
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
