//! Short instructions shaped like a real dump's (`Shape::Short`): what a real module
//! holds when its instructions are small — 400 to 540 bytes each, compact — so that the
//! per-instruction overhead of holding them, not their text, is what a benchmark
//! measures.
//!
//! Each instruction keeps the generator's keys the passes read (its schedule goes) and
//! gets what a real short one carries: its two `physical_ap` operands (one in, one out),
//! one semaphore wait, one dependency on the instruction before it, and a short `debug`
//! (the kernel's file and line). Deterministic: every added value is a function of the
//! instruction's place.
//!
//! The semaphores are a real program's (the Neuron Explorer's `$S[45]>=16 $S[8]++`):
//! each engine counts its completions on a semaphore of its own (`sem-inc`), and an
//! instruction waits for the count the engine of the instruction before it had reached
//! when that one issued — a wait on a cumulative count, which that instruction's update
//! makes hold. So the program runs to its end, as a compiled one does. Barriers stay
//! un-lowered (they are the cores' rendezvous).

use serde_json::{json, Map, Value};

/// Kernel files an instruction's `debug` names.
const FILES: [&str; 3] = ["attn.py", "mlp.py", "moe.py"];

/// Gives every instruction of `module` (function blocks and loop bodies; the DMA
/// queues' blocks keep their own) the short real shape.
pub(super) fn shorten(module: &mut Value, core: u64) {
    let mut walk = Walk { n: 0, previous: None, counts: [0; ENGINES.len()] };
    let Some(functions) = module.get_mut("functions").and_then(Value::as_array_mut) else { return };
    for function in functions {
        blocks(function, core, &mut walk);
    }
}

/// The engines, each with its completion semaphore (`ENGINE_SEMAPHORES + index`).
const ENGINES: [&str; 8] = ["Unassigned", "Pool", "Activation", "PE", "DMA", "DVE", "SP", "ALL"];

/// The first engine's completion semaphore (the generator's other semaphores are below).
const ENGINE_SEMAPHORES: u64 = 208;

/// Where the walk is: the instructions seen, the one before (its name, its engine and
/// that engine's count then) and each engine's count so far.
struct Walk {
    n: usize,
    previous: Option<(String, usize, u64)>,
    counts: [u64; ENGINES.len()],
}

fn blocks(container: &mut Value, core: u64, walk: &mut Walk) {
    let Some(Value::Array(list)) = container.get_mut("blocks") else { return };
    for block in list {
        let Some(Value::Array(insts)) = block.get_mut("instructions") else { continue };
        // A block's first instruction depends on nothing before it.
        walk.previous = None;
        for inst in insts {
            let engine = inst.get("engine").and_then(Value::as_str).and_then(|e| ENGINES.iter().position(|x| *x == e));
            let engine = engine.unwrap_or(0);
            instruction(inst, core, walk, engine);
            walk.n += 1;
            let name = inst.get("name").and_then(Value::as_str).map(str::to_owned);
            walk.previous = name.map(|name| (name, engine, walk.counts[engine]));
            if inst.get("blocks").is_some() {
                blocks(inst, core, walk);
            }
        }
    }
}

fn operand(memref: &str) -> Value {
    json!({"ap": [[512, 128], [1, 512]], "dtype": "bfloat16", "kind": "physical_ap", "memref": memref, "offset": 0})
}

fn instruction(inst: &mut Value, core: u64, walk: &mut Walk, engine: usize) {
    let n = walk.n;
    let Some(map) = inst.as_object_mut() else { return };
    let opcode = map.get("opcode").and_then(Value::as_str).unwrap_or("").to_owned();
    if opcode == "Loop" {
        return;
    }
    let previous = walk.previous.as_ref().map(|(name, _, _)| name.as_str());
    // A short real instruction carries no schedule (no pass reads it).
    map.remove("scheduled_start");
    map.remove("scheduled_end");
    for (key, memref) in [("ins", "sb_tile_0"), ("outs", "sb_tile_1")] {
        let empty = map.get(key).and_then(Value::as_array).is_none_or(Vec::is_empty);
        if empty {
            map.insert(key.to_owned(), json!([operand(memref)]));
        }
    }
    // A barrier stays un-lowered: the cores' rendezvous.
    if opcode != "CoreBarrier" {
        let sync = map.entry("sync_info").or_insert_with(|| json!({}));
        if let Some(sync) = sync.as_object_mut() {
            // Every instruction counts on its engine's semaphore, whatever else it updates.
            let updates = sync.entry("on_update").or_insert_with(|| json!([]));
            if let Some(updates) = updates.as_array_mut() {
                let id = ENGINE_SEMAPHORES + engine as u64;
                updates.push(json!({"id": id, "mode": "sem-inc"}));
            }
            // The engine of the instruction before: the count it had reached.
            let (on, count) = match &walk.previous {
                Some((_, on, count)) => (*on, *count),
                None => (engine, walk.counts[engine]),
            };
            let waits = sync.entry("on_wait").or_insert_with(|| json!([]));
            if let Some(waits) = waits.as_array_mut().filter(|w| w.is_empty()) {
                let id = ENGINE_SEMAPHORES + on as u64;
                waits.push(json!({"id": id, "wait_value": count}));
            }
        }
        walk.counts[engine] += 1;
    }
    if let Some(previous) = previous {
        let dependencies = map.entry("dependencies").or_insert_with(|| json!([]));
        if let Some(dependencies) = dependencies.as_array_mut().filter(|d| d.is_empty()) {
            dependencies.push(json!([previous, "RAW"]));
        }
    }
    let mut debug = Map::new();
    debug.insert("filename".to_owned(), json!(FILES[n % FILES.len()]));
    debug.insert("lineno".to_owned(), json!(10 + (n * 7 + core as usize) % 900));
    map.entry("debug").or_insert(Value::Object(debug));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every instruction but a loop has its operands, a wait (a barrier none) and `debug`,
    /// and weighs 380–540 bytes compact.
    #[test]
    fn short_instructions_weigh_about_four_hundred_bytes() {
        let config = super::super::GenConfig { cores: 2, insts: 2000, ..Default::default() };
        let mut rng = super::super::module::Rng::new(1);
        let mut module = super::super::module::core_module(&config, 1, &mut rng);
        shorten(&mut module, 1);
        let mut sizes = Vec::new();
        for function in module["functions"].as_array().into_iter().flatten() {
            for block in function["blocks"].as_array().into_iter().flatten() {
                for inst in block["instructions"].as_array().into_iter().flatten() {
                    if inst["opcode"] == "Loop" {
                        continue;
                    }
                    assert!(inst["debug"]["filename"].is_string(), "{inst}");
                    // A barrier stays un-lowered; every other instruction waits and counts.
                    if inst["opcode"] != "CoreBarrier" {
                        assert!(inst["sync_info"]["on_wait"].as_array().is_some_and(|w| !w.is_empty()), "{inst}");
                        assert!(inst["sync_info"]["on_update"].as_array().is_some_and(|u| !u.is_empty()), "{inst}");
                    }
                    sizes.push(inst.to_string().len());
                }
            }
        }
        let mean = sizes.iter().sum::<usize>() / sizes.len();
        assert!((380..=540).contains(&mean), "{mean} bytes per instruction");
    }
}
