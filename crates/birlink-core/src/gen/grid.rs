//! Link sets shaped like the compiler's flows (docs/spec/link.md §1, §2): a grid of
//! cores × subgraphs, each module named `ncCC/sgKK` and laid out as the compiler's work
//! directory lays it out (`ncCC/sgKK/bir.json`).
//!
//! **Flat**: one subgraph per core, no netlist — each core's module is the generator's
//! SPMD module ([`super::module`]), so the VNC passes have the same remote views,
//! remote DMA blocks and barriers to resolve as in the seeds' reading.
//!
//! **Modular**: S subgraphs per core and a netlist of P partitions shaped like the public
//! MoE compile (`DefMap: 0 1 1 … 1 47`): the first partition is definition 0 (an
//! embedding: model inputs in, the hidden state and two shared intermediates out), the
//! last is the last definition (a head: the last hidden state in, logits out), and every
//! partition between is one of the middle definitions (a layer: the hidden state and the
//! shared intermediates in with its weights, the next hidden state and two cache
//! outputs out). Each subgraph module's formal arguments are `ExternalInput` and
//! `ExternalOutput` sets named after the tensors its definition's first partition binds
//! them to (`input3_set` holding `input3`), read and written by DMA copies beside the
//! generator's body.

use crate::model::place::Place;
use serde_json::{json, Map, Value};

use super::config::{GenConfig, IoShape};
use super::module::{ap, memloc_dram, mk_set, Rng};
use super::set::{core_module, GenSet};
use crate::model::flow::Flow;

/// One partition of a generated netlist: its definition and its tensors, in formal
/// order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenPartition {
    /// Its definition id (the index of its definition's first partition).
    pub def: u64,
    /// The subgraph its definition is.
    pub subgraph: u32,
    /// Its inputs, in formal order: model inputs and intermediates.
    pub inputs: Vec<String>,
    /// Its outputs, in formal order: intermediates and model outputs.
    pub outputs: Vec<String>,
}

/// What a tensor name is.
fn is_intermediate(name: &str) -> bool {
    name.starts_with("intermediate")
}

/// The partitions of a modular config: `partitions` of them over `subgraphs`
/// definitions.
pub fn partitions(config: &GenConfig) -> Vec<GenPartition> {
    let p = config.partitions.max(1);
    let s = config.subgraphs.max(1) as usize;
    let (mut inputs, mut intermediates, mut outputs) = (0usize, 0usize, 0usize);
    let next = |counter: &mut usize, prefix: &str| {
        let name = format!("{prefix}{counter}");
        *counter += 1;
        name
    };
    // Each partition's role: its subgraph.
    let role = |i: usize| -> u32 {
        match s {
            1 => 0,
            2 => u32::from(i > 0),
            _ if i == 0 => 0,
            _ if i + 1 == p && p > 1 => (s - 1) as u32,
            _ => (1 + (i - 1) % (s - 2).max(1)) as u32,
        }
    };
    let mut first_of: Vec<Option<u64>> = vec![None; s];
    let mut out = Vec::with_capacity(p);
    let mut hidden: Option<String> = None;
    let mut shared: Vec<String> = Vec::new();
    for i in 0..p {
        let subgraph = role(i);
        let def = *first_of[subgraph as usize].get_or_insert(i as u64);
        let (ins, outs) = if s == 1 {
            // One definition: every partition the same call, model tensors only.
            let ins: Vec<String> = (0..2).map(|_| next(&mut inputs, "input")).collect();
            (ins, vec![next(&mut outputs, "output")])
        } else if subgraph == 0 {
            // The embedding: model inputs in; the hidden state and what every layer shares out.
            let ins: Vec<String> = (0..3).map(|_| next(&mut inputs, "input")).collect();
            let h = next(&mut intermediates, "intermediate");
            shared = (0..2).map(|_| next(&mut intermediates, "intermediate")).collect();
            hidden = Some(h.clone());
            let mut outs = vec![h];
            outs.extend(shared.iter().cloned());
            (ins, outs)
        } else if s > 2 && subgraph as usize == s - 1 {
            // The head: the last hidden state in, logits out.
            let mut ins: Vec<String> = hidden.iter().cloned().collect();
            ins.push(next(&mut inputs, "input"));
            (ins, vec![next(&mut outputs, "output")])
        } else {
            // A layer: the hidden state and the shared intermediates in, with its weights.
            let mut ins: Vec<String> = hidden.iter().cloned().collect();
            ins.extend(shared.iter().cloned());
            ins.extend((0..config.weights.max(1)).map(|_| next(&mut inputs, "input")));
            let h = next(&mut intermediates, "intermediate");
            hidden = Some(h.clone());
            let outs = vec![h, next(&mut outputs, "output"), next(&mut outputs, "output")];
            (ins, outs)
        };
        out.push(GenPartition { def, subgraph, inputs: ins, outputs: outs });
    }
    out
}

/// The netlist of a modular config, with the compiler's keys (`PartMap`,
/// `IntermediateIOs`, `DefMap`) and `PartIOs.Outputs` (birlink's reading), its lists in
/// `shape`.
pub fn netlist(partitions: &[GenPartition], shape: IoShape) -> Value {
    let mut all: Vec<String> = Vec::new();
    let part_map: Vec<Value> = partitions
        .iter()
        .map(|p| {
            let keep_in = |t: &&String| shape.inputs_hold_intermediates() || !is_intermediate(t);
            let keep_out = |t: &&String| shape.outputs_hold_intermediates() || !is_intermediate(t);
            let model_inputs: Vec<&String> = p.inputs.iter().filter(keep_in).collect();
            let model_outputs: Vec<&String> = p.outputs.iter().filter(keep_out).collect();
            let intermediates: Vec<&String> =
                p.inputs.iter().chain(&p.outputs).filter(|t| is_intermediate(t)).collect();
            for t in &intermediates {
                if !all.contains(t) {
                    all.push((*t).clone());
                }
            }
            json!({"PartIOs": {"Inputs": model_inputs, "IntermediateIOs": intermediates, "Outputs": model_outputs}})
        })
        .collect();
    let def_map: Vec<u64> = partitions.iter().map(|p| p.def).collect();
    json!({"PartMap": part_map, "IntermediateIOs": all, "DefMap": def_map})
}

/// A grid config's documents: every core's modules in subgraph order, and the netlist.
pub(super) fn documents(config: &GenConfig) -> GenSet {
    let mut rng = Rng::new(config.seed);
    let cores = config.cores.max(1);
    let parts = if config.flow == Flow::Modular { partitions(config) } else { Vec::new() };
    let subgraphs = if config.flow == Flow::Modular { config.subgraphs.max(1) } else { 1 };
    let per_subgraph = GenConfig { insts: (config.insts / subgraphs as usize).max(8), ..config.clone() };
    let mut modules = Vec::new();
    for core in 0..cores {
        for subgraph in 0..subgraphs {
            let mut module = core_module(&per_subgraph, core, &mut rng);
            if let Some(first) = parts.iter().find(|p| p.subgraph == subgraph) {
                formals(&mut module, first);
            }
            if let Value::Object(map) = &mut module {
                map.insert("name".to_owned(), json!(Place::subgraph(core, subgraph).to_string()));
            }
            modules.push(module);
        }
    }
    let netlist = (config.flow == Flow::Modular).then(|| netlist(&parts, config.io_shape));
    GenSet { modules, netlist, options: Map::new() }
}

/// Makes a subgraph module's formal arguments its definition's: its `ExternalInput` and
/// `ExternalOutput` sets named after the first partition's tensors, read into and
/// written from the body by DMA copies.
fn formals(module: &mut Value, first: &GenPartition) {
    let Some(function) = module.get_mut("functions").and_then(|f| f.get_mut(0)).and_then(Value::as_object_mut) else {
        return;
    };
    if let Some(Value::Array(allocations)) = function.get_mut("allocations") {
        // The generator's own external tensors give way to the definition's; the
        // tensors the cores hand each other stay, as the shared `Internal` tensors they
        // are in the compiler's flows (not arguments of the definition).
        allocations.retain(|a| !matches!(a.get("name").and_then(Value::as_str), Some("input_act_set" | "output_set")));
        for set in allocations.iter_mut() {
            if matches!(set.get("kind").and_then(Value::as_str), Some("ExternalInput" | "ExternalOutput")) {
                set["kind"] = json!("Internal");
            }
        }
        let mut at = 0x60_0000u64;
        let mut formal = |name: &str, kind: &str| {
            at += 0x1000;
            mk_set(&format!("{name}_set"), kind, "Local", "bfloat16", &[128, 512], vec![memloc_dram(name, at, true)])
        };
        let mut sets: Vec<Value> = first.inputs.iter().map(|t| formal(t, "ExternalInput")).collect();
        sets.extend(first.outputs.iter().map(|t| formal(t, "ExternalOutput")));
        allocations.splice(0..0, sets);
    }
    if let Some(Value::Array(blocks)) = function.get_mut("blocks") {
        let renamed = |v: &mut Value| rename_refs(v);
        for block in blocks.iter_mut() {
            renamed(block);
        }
        if let Some(insts) = blocks.first_mut().and_then(|b| b.get_mut("instructions")).and_then(Value::as_array_mut) {
            let loads = first.inputs.iter().map(|t| {
                json!({"name": format!("load_{t}"), "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                       "ins": [ap(t, "bfloat16")], "outs": [ap("sb_tile_0", "bfloat16")]})
            });
            insts.splice(0..0, loads.collect::<Vec<_>>());
        }
        if let Some(insts) = blocks.last_mut().and_then(|b| b.get_mut("instructions")).and_then(Value::as_array_mut) {
            let at = insts.len().saturating_sub(1);
            let stores = first.outputs.iter().map(|t| {
                json!({"name": format!("store_{t}"), "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                       "ins": [ap("sb_tile_1", "bfloat16")], "outs": [ap(t, "bfloat16")]})
            });
            insts.splice(at..at, stores.collect::<Vec<_>>());
        }
    }
}

/// The body's reads of `input_act` and writes of `output` go to the first scratch tile
/// instead (the formals replace those tensors).
fn rename_refs(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(memref)) = map.get_mut("memref") {
                if memref == "input_act" || memref == "output" {
                    *memref = "sb_tile_0".to_owned();
                }
            }
            for child in map.values_mut() {
                rename_refs(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rename_refs),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_moe_shape_has_48_calls_of_three_definitions() {
        let parts = partitions(&GenConfig { partitions: 48, subgraphs: 3, ..GenConfig::default() });
        let defs: Vec<u64> = parts.iter().map(|p| p.def).collect();
        assert_eq!(defs[0], 0);
        assert!(defs[1..47].iter().all(|&d| d == 1));
        assert_eq!(defs[47], 47, "DefMap: 0 1 1 … 1 47");
        // Each layer reads the hidden state the one before it wrote.
        assert_eq!(parts[2].inputs[0], parts[1].outputs[0]);
        let netlist = netlist(&parts, IoShape::Apart);
        assert_eq!(netlist["DefMap"].as_array().map(Vec::len), Some(48));
        assert_eq!(netlist["PartMap"][1]["PartIOs"]["Inputs"], json!(["input3", "input4"]));
    }
}
