//! Synthetic compiler work directories (docs/spec/link.md §1.5): a link set laid out
//! as neuronx-cc leaves it, one `nc<k>/sg00/` folder per core holding a dump per
//! printed pass beside the backend's other files, weights, a debug-info file, a
//! custom op, a CPU-node file (core 0), a tensor map per core, and a `command.txt`.
//! One fault of the link's last step can be injected ([`FAULTS`]).

use crate::model::place::{CoreId, Place};
use serde_json::{json, Map, Value};

use super::config::GenConfig;
use super::scenarios::clean_set;
use super::set::{pretty, GenFile};
use crate::diag::codes::Code;

/// The passes dumped, in the order printed: `bir_debug.<n>.after-<pass>.before-<next>`.
pub const PASSES: &[(u64, &str, &str)] =
    &[(11, "lower_dma", "lower_sync"), (12, "lower_sync", "lower_act"), (13, "lower_act", "codegen")];

/// The codes of the link's last step, injected here rather than into a bundle.
pub const FAULTS: &[Code] = &[
    Code::TensorMapUnreadable,
    Code::TensorMapStale,
    Code::TensorMapDemoted,
    Code::TensorMapConflict,
    Code::TensorMapUnbound,
    Code::TensorMapMissing,
    Code::ArtifactCollision,
];

/// A name a stale entry binds: no generated module has it.
pub const STALE_NAME: &str = "layer_13_attn_out";

/// A `.npy` file (format 1.0) of `values` as little-endian `f32`, shape `[len]`.
pub fn npy(values: &[f32]) -> Vec<u8> {
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}", values.len());
    // Magic (6) + version (2) + length (2) + header + '\n', a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes
}

/// The module's inputs and outputs (`ExternalInput`/`ExternalOutput` sets), by name,
/// with their shape.
fn io_sets(module: &Value) -> Vec<(String, String, Value)> {
    let mut found = Vec::new();
    for function in module.get("functions").and_then(Value::as_array).into_iter().flatten() {
        for set in function.get("allocations").and_then(Value::as_array).into_iter().flatten() {
            let kind = set.get("kind").and_then(Value::as_str).unwrap_or("");
            if matches!(kind, "ExternalInput" | "ExternalOutput") {
                if let Some(name) = set.get("name").and_then(Value::as_str) {
                    let shape = set.get("tensor_shape").cloned().unwrap_or(json!([]));
                    found.push((name.to_owned(), kind.to_owned(), shape));
                }
            }
        }
    }
    found
}

/// One core's tensor map: an object keyed by tensor name, every input and output of
/// the core's module with the fields the public record names.
pub(super) fn tensor_map(module: &Value, core: usize) -> Map<String, Value> {
    let mut map = Map::new();
    for (i, (name, kind, shape)) in io_sets(module).into_iter().enumerate() {
        map.insert(
            name.clone(),
            json!({
                "layer_name": format!("layer_{core}_{i}"),
                "sim_format": "fp32",
                "sim_shape": shape,
                "tf_file": format!("{name}.npy"),
                "sbuf_compatible": kind == "ExternalInput",
            }),
        );
    }
    map
}

/// The files of a work directory named `name` for `config`, with `fault` (one of
/// [`FAULTS`]) injected.
pub fn generate(config: &GenConfig, name: &str, fault: Option<Code>) -> Vec<GenFile> {
    let set = clean_set(&GenConfig { fault: None, ..config.clone() });
    let cores = set.modules.len();
    let mut files = vec![GenFile {
        path: format!("{name}/command.txt"),
        bytes: format!(
            "neuronx-cc compile --framework XLA model.hlo_module.pb --target trn2 --lnc {cores} --output {name}/model.neff --logfile {name}/log-neuron-cc.txt\n"
        )
        .into_bytes(),
    }];
    let maps: Vec<Map<String, Value>> = set.modules.iter().enumerate().map(|(c, m)| tensor_map(m, c)).collect();
    for (core, module) in set.modules.iter().enumerate() {
        let dir = format!("{name}/{}", Place::subgraph(core as u64, 0));
        let mut add = |path: &str, bytes: Vec<u8>| files.push(GenFile { path: format!("{dir}/{path}"), bytes });
        let text = pretty(module).into_bytes();
        for (n, after, before) in PASSES {
            add(&format!("bir_debug.{n}.after-{after}.before-{before}.penguin.json"), text.clone());
        }
        add(
            "def.json",
            pretty(&json!({"name": format!("sg00"), "neuron_core_id": core, "kelf": ["kelf-0.json"]})).into_bytes(),
        );
        add("kelf-0.json", pretty(&json!({"engines": ["PE", "Pool", "Activation", "SP", "DVE"]})).into_bytes());
        for engine in ["PE", "Pool", "Activation", "SP", "DVE"] {
            add(&format!("{engine}.bin"), format!("{engine} program of core {core}\n").into_bytes());
        }
        add(&format!("weights_{}.npy", CoreId(core as u64)), npy(&[core as f32, 0.5, 1.5, 2.5]));
        let shared = if fault == Some(Code::ArtifactCollision) && core == 1 { vec![9.0, 9.0] } else { vec![1.0, 2.0] };
        add("shared_constants.npy", npy(&shared));
        add(
            &format!("debug_info_{}.json", CoreId(core as u64)),
            pretty(&json!({"core": core, "lines": []})).into_bytes(),
        );
        add("custom_op/libtopk.so", b"\x7fELF custom op: top-k\n".to_vec());
        if core == 0 {
            add("cpu_node_0/host_graph.json", pretty(&json!({"nodes": ["argmax"]})).into_bytes());
        }
        let mut map = maps[core].clone();
        match fault {
            Some(Code::TensorMapMissing) if core == 1 => continue,
            Some(Code::TensorMapUnreadable) if core == 1 => {
                add("tensor_map.json", b"[1, 2, 3]\n".to_vec());
                continue;
            }
            Some(Code::TensorMapStale) if core == 1 => {
                map.insert(
                    STALE_NAME.to_owned(),
                    json!({"layer_name": "layer_13", "sim_format": "fp32", "sim_shape": [128, 64], "tf_file": "attn.npy", "sbuf_compatible": false}),
                );
            }
            // Every entry of core 1 with another shape: those of the memory core 0 shares differ.
            Some(Code::TensorMapConflict) if core == 1 => {
                for fields in map.values_mut() {
                    fields["sim_shape"] = json!([64, 64]);
                }
            }
            Some(Code::TensorMapUnbound) if core == 1 => {
                let keep = map.keys().next().cloned();
                map.retain(|k, _| Some(k) == keep.as_ref());
            }
            _ => {}
        }
        add("tensor_map.json", pretty(&Value::Object(map)).into_bytes());
    }
    files
}

/// The pass the compiler runs right before `lower_local_collectives` in the flat flow
/// (module scope, `compiler-logs.md` §4): a work directory of a compile that failed
/// there dumped it.
pub const BEFORE_LOCAL_COLLECTIVES: &str = "coloring_allocator_dram";

/// A flat-flow work directory of a compile that failed in `lower_local_collectives`
/// (`NCC_ILLC059`): each core's module dumped after [`BEFORE_LOCAL_COLLECTIVES`], a local
/// all-reduce whose buffer is numbered per core (birlink's BL0207), the compile
/// command, and the compile's `log-neuron-cc.txt` (`gen::log::flat_illc059`).
pub fn early_failure(config: &GenConfig, name: &str) -> Vec<GenFile> {
    let config = GenConfig { fault: Some(Code::LocalCollectiveNameMissing), ..config.clone() };
    let mut set = clean_set(&GenConfig { fault: None, ..config.clone() });
    super::faults::inject(&mut set, &config, Code::LocalCollectiveNameMissing);
    let cores = set.modules.len() as u64;
    let mut files = vec![GenFile {
        path: format!("{name}/command.txt"),
        bytes: format!(
            "neuronx-cc compile --framework XLA model.hlo_module.pb --target trn2 --lnc {cores} --output {name}/model.neff --logfile {name}/log-neuron-cc.txt --internal-print-after={BEFORE_LOCAL_COLLECTIVES}\n"
        )
        .into_bytes(),
    }];
    for (core, module) in set.modules.iter().enumerate() {
        let dir = format!("{name}/{}", Place::subgraph(core as u64, 0));
        files.push(GenFile {
            path: format!(
                "{dir}/bir_debug.9.after-{BEFORE_LOCAL_COLLECTIVES}.before-lower_local_collectives.penguin.json"
            ),
            bytes: pretty(module).into_bytes(),
        });
        files.push(GenFile {
            path: format!("{dir}/def.json"),
            bytes: pretty(&json!({"name": "sg00", "neuron_core_id": core, "kelf": ["kelf-0.json"]})).into_bytes(),
        });
    }
    // Core 0's buffer, the name core 1 lacks (gen::faults numbers it `.31` there).
    let missing = "inst____mp_main__.sbuf_allreduce_tp4-0:sbuf_in.31";
    files.push(GenFile {
        path: format!("{name}/log-neuron-cc.txt"),
        bytes: super::log::flat_illc059(name, cores, missing).into_bytes(),
    });
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_npy_file_has_its_magic_and_an_aligned_header() {
        let bytes = npy(&[1.0, 2.0]);
        assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
        let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        assert_eq!((10 + header) % 64, 0);
        assert_eq!(bytes.len(), 10 + header + 8);
        assert_eq!(bytes[10 + header - 1], b'\n');
    }
}
