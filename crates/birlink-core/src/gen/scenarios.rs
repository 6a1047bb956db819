//! Link sets shaped like the public failure reports (`docs/spec/sources.md`, "Public
//! failures"), for the samples the README and `docs/` show.
//!
//! Each scenario rewrites generated documents the way the compiler's situation would
//! have made them: the names are the compiler's hierarchical ones
//! (`inst__I-5-0:send_k_buf`, `CoreBarrier-0_480`), and what goes wrong is what the
//! reports describe, not one injected field.

use serde_json::{json, Value};

use super::config::{GenConfig, Scenario};
use super::set::{self, GenSet};

/// The kernel of the ring-attention scenario, as the compiler prefixes its names.
const KERNEL: &str = "inst__I-5-0";

/// Rewrites the set.
pub(super) fn apply(set: &mut GenSet, scenario: Scenario) {
    match scenario {
        Scenario::RingAttentionWithoutGrid => ring_attention_without_grid(set),
        Scenario::SendrecvCalledTwice => sendrecv_barriers(set, true),
        Scenario::SendrecvCalledOnce => sendrecv_barriers(set, false),
        Scenario::BarrierOnOnePath
        | Scenario::SignalToAnotherSemaphore
        | Scenario::TripCountDiffers
        | Scenario::HandoffRace => super::sync::scenario(set, scenario),
    }
}

fn ring_attention_without_grid(set: &mut GenSet) {
    let n = set.modules.len();
    for (core, module) in set.modules.iter_mut().enumerate() {
        let next = (core + 1) % n;
        let own = format!("ring_buf_c{core}");
        let peer = format!("ring_buf_c{next}");
        let buffer = format!("{KERNEL}:send_k_buf");
        let view = format!("{KERNEL}:send_k_buf_remote_{next}");
        rename_strings(module, &|text| {
            if text == own {
                Some(buffer.clone())
            } else if text == peer {
                Some(view.clone())
            } else {
                match text {
                    "ring_send" => Some(format!("{KERNEL}:send_k")),
                    "ring_recv" => Some(format!("{KERNEL}:recv_k")),
                    "ring_recv_set" => Some(format!("{KERNEL}:k_buf_set")),
                    "ring_send_set" => Some(format!("{KERNEL}:k_remote_set")),
                    _ => None,
                }
            }
        });
        // The view targets the peer's buffer by the peer's name.
        for memloc in memlocs_mut(module) {
            if memloc.get("name").and_then(Value::as_str) == Some(view.as_str()) {
                memloc["remote_local_target"] = json!([buffer, next]);
            }
        }
    }
    // Without the LNC grid the kernel exists on core 0 only: core 1's module has none of
    // its buffers or instructions.
    if let Some(module) = set.modules.get_mut(1) {
        let prefix = format!("{KERNEL}:");
        let ours = |value: &Value| value.get("name").and_then(Value::as_str).is_some_and(|n| n.starts_with(&prefix));
        for function in module.get_mut("functions").and_then(Value::as_array_mut).into_iter().flatten() {
            if let Some(allocations) = function.get_mut("allocations").and_then(Value::as_array_mut) {
                allocations.retain(|a| !ours(a));
            }
            for block in function.get_mut("blocks").and_then(Value::as_array_mut).into_iter().flatten() {
                if let Some(insts) = block.get_mut("instructions").and_then(Value::as_array_mut) {
                    insts.retain(|i| !ours(i));
                }
            }
        }
    }
}

fn sendrecv_barriers(set: &mut GenSet, twice: bool) {
    // Barrier names as the compiler gives them: after the collective that needs them.
    const CORE_0: [u64; 6] = [30, 60, 90, 120, 180, 480];
    for (core, module) in set.modules.iter_mut().enumerate() {
        let mut i = 0usize;
        for function in module.get_mut("functions").and_then(Value::as_array_mut).into_iter().flatten() {
            for block in function.get_mut("blocks").and_then(Value::as_array_mut).into_iter().flatten() {
                for inst in block.get_mut("instructions").and_then(Value::as_array_mut).into_iter().flatten() {
                    if inst.get("opcode").and_then(Value::as_str) != Some("CoreBarrier") {
                        continue;
                    }
                    let op = CORE_0.get(i).copied().unwrap_or(480 + 60 * i as u64);
                    // Core 1's second `sendrecv` reused the first call's barrier.
                    let op = if twice && core == 1 && op == 480 { 180 } else { op };
                    inst["name"] = json!(format!("CoreBarrier-0_{op}"));
                    i += 1;
                }
            }
        }
    }
}

/// Every memory location of every function of a module.
fn memlocs_mut(module: &mut Value) -> impl Iterator<Item = &mut Value> {
    module
        .get_mut("functions")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(|f| f.get_mut("allocations")?.as_array_mut())
        .flatten()
        .filter_map(|a| a.get_mut("memorylocations")?.as_array_mut())
        .flatten()
}

/// Replaces every string value (not key) `rename` maps.
fn rename_strings(value: &mut Value, rename: &dyn Fn(&str) -> Option<String>) {
    match value {
        Value::String(text) => {
            if let Some(new) = rename(text) {
                *text = new;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_strings(v, rename)),
        Value::Object(map) => map.values_mut().for_each(|v| rename_strings(v, rename)),
        _ => {}
    }
}

/// A config's documents with its scenario applied: what a set is before any fault.
pub(super) fn clean_set(config: &GenConfig) -> GenSet {
    let mut set = if config.flow == crate::model::flow::Flow::Seeds {
        set::documents(config)
    } else {
        super::grid::documents(config)
    };
    if let Some(scenario) = config.scenario {
        apply(&mut set, scenario);
    }
    set
}
