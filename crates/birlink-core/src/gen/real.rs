//! Instructions shaped like a real dump's (`Shape::Real`).
//!
//! `Instruction::toJson` writes nineteen keys (`docs/spec/bir.md` §5, from the wiki's
//! writer pages); code that reads real per-core dumps (the vllm-neuron checker) sees
//! `sync_info` with `on_wait`/`on_update` entries, `dependencies` as `[name, kind]` pairs,
//! a `debug` object with the kernel's file and line, and `physical_ap` operands with
//! their set, owner function and access shape. The generator's own instructions carry
//! few of these; this pass gives every instruction of a module the header a real one
//! has, so that what the benchmarks measure is what users open.
//!
//! Deterministic: every added value is a function of the instruction's place.

use serde_json::{json, Map, Value};

/// Kernel files an instruction's `debug` names, by engine.
const FILES: [&str; 4] = [
    "/home/ubuntu/kernels/attention/ring_attention.py",
    "/home/ubuntu/kernels/attention/flash_fwd.py",
    "/home/ubuntu/kernels/common/tiling.py",
    "/home/ubuntu/kernels/common/dma_utils.py",
];

/// Gives every instruction of `module` (function blocks, loop bodies and queue blocks)
/// the keys a real one carries.
pub(super) fn realize(module: &mut Value, core: u64) {
    let mut n = 0usize;
    let Some(module) = module.as_object_mut() else { return };
    let function_names: Vec<String> = module
        .get("functions")
        .and_then(Value::as_array)
        .map(|fs| fs.iter().filter_map(|f| f.get("name").and_then(Value::as_str).map(str::to_owned)).collect())
        .unwrap_or_default();
    let owner = function_names.first().cloned().unwrap_or_default();
    let sets = set_of_memloc(module);
    for key in ["functions", "queues"] {
        if let Some(Value::Array(items)) = module.get_mut(key) {
            for item in items {
                blocks(item, core, &owner, &sets, &mut n);
            }
        }
    }
}

/// Each memory location's set, for an operand's `memsetref`.
fn set_of_memloc(module: &Map<String, Value>) -> std::collections::BTreeMap<String, String> {
    let mut sets = std::collections::BTreeMap::new();
    let functions = module.get("functions").and_then(Value::as_array).into_iter().flatten();
    for set in functions.filter_map(|f| f.get("allocations").and_then(Value::as_array)).flatten() {
        let Some(set_name) = set.get("name").and_then(Value::as_str) else { continue };
        for memloc in set.get("memorylocations").and_then(Value::as_array).into_iter().flatten() {
            if let Some(name) = memloc.get("name").and_then(Value::as_str) {
                sets.insert(name.to_owned(), set_name.to_owned());
            }
        }
    }
    sets
}

fn blocks(
    container: &mut Value,
    core: u64,
    owner: &str,
    sets: &std::collections::BTreeMap<String, String>,
    n: &mut usize,
) {
    let Some(Value::Array(blocks)) = container.get_mut("blocks") else { return };
    for block in blocks {
        let Some(Value::Array(insts)) = block.get_mut("instructions") else { continue };
        for inst in insts {
            instruction(inst, core, owner, sets, *n);
            *n += 1;
            blocks_of_inst(inst, core, owner, sets, n);
        }
    }
}

fn blocks_of_inst(
    inst: &mut Value,
    core: u64,
    owner: &str,
    sets: &std::collections::BTreeMap<String, String>,
    n: &mut usize,
) {
    if inst.get("blocks").is_some() {
        blocks(inst, core, owner, sets, n);
    }
}

fn instruction(inst: &mut Value, core: u64, owner: &str, sets: &std::collections::BTreeMap<String, String>, n: usize) {
    let Some(map) = inst.as_object_mut() else { return };
    let engine = map.get("engine").and_then(Value::as_str).unwrap_or("SP").to_owned();
    let engine_index = ["Pool", "Activation", "PE", "DMA", "DVE", "SP"].iter().position(|e| *e == engine).unwrap_or(0);
    map.entry("origin").or_insert_with(|| json!(if n.is_multiple_of(3) { "NKI" } else { "Penguin" }));
    map.entry("engine_id").or_insert_with(|| json!(engine_index as u64 % 4));
    let start = map.get("scheduled_start").and_then(Value::as_i64).unwrap_or((n as i64) * 10);
    map.entry("scheduled_start").or_insert_with(|| json!(start));
    map.entry("scheduled_end").or_insert_with(|| json!(start + 2));
    map.entry("optin_passes").or_insert_with(|| json!([]));
    let opcode = map.get("opcode").and_then(Value::as_str).unwrap_or("").to_owned();
    for key in ["ins", "outs"] {
        match map.get_mut(key) {
            Some(Value::Array(args)) => {
                for arg in args {
                    operand(arg, owner, sets);
                }
            }
            None if opcode != "Loop" => {
                map.insert(key.to_owned(), json!([]));
            }
            _ => {}
        }
    }
    if let Some(sync) = map.get_mut("sync_info").and_then(Value::as_object_mut) {
        for entries in ["on_wait", "on_update"] {
            if let Some(Value::Array(entries)) = sync.get_mut(entries) {
                for entry in entries.iter_mut().filter_map(Value::as_object_mut) {
                    entry.entry("type").or_insert_with(|| json!("semaphore"));
                }
            }
        }
    }
    let file = FILES[(engine_index + n / 97) % FILES.len()];
    map.insert(
        "debug".to_owned(),
        json!({
            "filename": file,
            "lineno": 40 + (n * 7 + core as usize) % 460,
            "op_name": format!("nki.isa.{}", opcode.to_lowercase()),
            "tensor_name": format!("t{}", n % 512),
        }),
    );
}

/// A `physical_ap` operand as a real one is written: its set, its owner function, its
/// access shape.
fn operand(arg: &mut Value, owner: &str, sets: &std::collections::BTreeMap<String, String>) {
    let Some(map) = arg.as_object_mut() else { return };
    if map.get("kind").and_then(Value::as_str) != Some("physical_ap") {
        return;
    }
    let memref = map.get("memref").and_then(Value::as_str).unwrap_or("").to_owned();
    let set = sets.get(&memref).cloned().unwrap_or_else(|| format!("{memref}_set"));
    map.entry("memsetref").or_insert_with(|| json!(set));
    map.entry("memref_owner_func").or_insert_with(|| json!(owner));
    map.entry("access_shape").or_insert_with(|| json!([128, 512]));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_instruction_gets_the_real_header() {
        let config = super::super::GenConfig { cores: 2, insts: 100, ..Default::default() };
        let mut rng = super::super::module::Rng::new(1);
        let mut module = super::super::module::core_module(&config, 1, &mut rng);
        realize(&mut module, 1);
        let text = module.to_string();
        let opcodes = text.matches("\"opcode\"").count();
        assert_eq!(text.matches("\"debug\"").count(), opcodes);
        assert_eq!(text.matches("\"optin_passes\"").count(), opcodes);
        assert!(text.contains("\"memsetref\":\"sb_tiles_set\""), "{}", &text[..400]);
        assert!(text.contains("\"type\":\"semaphore\""));
    }
}
