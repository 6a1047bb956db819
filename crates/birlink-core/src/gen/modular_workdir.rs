//! The compiler's modular flow's work directory (docs/spec/link.md §1.5, §3.6): what
//! neuronx-cc leaves when the frontend cut the program into subgraphs, every subgraph of
//! every core dumped before `bir_linker`, with the files its link directory takes.

use serde_json::{json, Value};

use super::config::{GenConfig, Layout};
use super::set::{pretty, GenFile};
use super::workdir::{npy, tensor_map, STALE_NAME};
use crate::diag::codes::Code;
use crate::model::place::{Place, SubgraphId};

/// The modular flow's work directory (docs/spec/link.md §1.5, §3.6) for `config` (its
/// `flow` modular): every subgraph of every core dumped after `dep_reduction` (the pass
/// before `bir_linker`) beside its weights and `tensor_map.json`, a table every subgraph
/// of a core offers with the same bytes, the core folder's debug info and custom op, the
/// frontend's `hlo_netlist.json` at the root, and `command.txt`. `fault` injects
/// [`Code::ArtifactCollision`] (core 1's subgraphs offer one name with two contents) or
/// [`Code::TensorMapStale`] (core 1's last subgraph's map names a tensor nobody has).
pub fn generate(config: &GenConfig, name: &str, fault: Option<Code>) -> Vec<GenFile> {
    let config = GenConfig { fault: None, flow: crate::model::flow::Flow::Modular, ..config.clone() };
    let mut files = vec![GenFile {
        path: format!("{name}/command.txt"),
        bytes: format!(
            "neuronx-cc compile --framework XLA model.hlo_module.pb --target trn2 --lnc {} --output {name}/model.neff --logfile {name}/log-neuron-cc.txt\n",
            config.cores
        )
        .into_bytes(),
    }];
    let last = config.subgraphs.saturating_sub(1) as usize;
    for file in super::files::generate(&config, Layout::Files) {
        let Some(place) = file.path.strip_suffix("/bir.json") else {
            files.push(GenFile { path: format!("{name}/{}", file.path), bytes: file.bytes });
            continue;
        };
        let Ok(at) = place.parse::<Place>() else { continue };
        let (core, subgraph) = (at.core.0 as usize, at.slot.subgraph().map_or(0, |s| s.0 as usize));
        let module: Value = serde_json::from_slice(&file.bytes).unwrap_or(Value::Null);
        let dir = format!("{name}/{place}");
        let mut add = |path: &str, bytes: Vec<u8>| files.push(GenFile { path: format!("{dir}/{path}"), bytes });
        add("bir_debug.31.after-dep_reduction.before-bir_linker.json", file.bytes);
        add(&format!("weights_{}.npy", SubgraphId(subgraph as u32)), npy(&[core as f32, subgraph as f32, 0.5]));
        let table = if fault == Some(Code::ArtifactCollision) && core == 1 && subgraph == last {
            vec![9.0, 9.0]
        } else {
            vec![1.0, 2.0]
        };
        add("rope_table.npy", npy(&table));
        let mut map = tensor_map(&module, core);
        if fault == Some(Code::TensorMapStale) && core == 1 && subgraph == last {
            map.insert(
                STALE_NAME.to_owned(),
                json!({"layer_name": "layer_13", "sim_format": "fp32", "sim_shape": [128, 64], "tf_file": "attn.npy", "sbuf_compatible": false}),
            );
        }
        add("tensor_map.json", pretty(&Value::Object(map)).into_bytes());
        if subgraph == 0 {
            let core_dir = format!("{name}/{}", at.core);
            files.push(GenFile {
                path: format!("{core_dir}/debug_info_{}.json", at.core),
                bytes: pretty(&json!({"core": core, "lines": []})).into_bytes(),
            });
            files.push(GenFile {
                path: format!("{core_dir}/libtopk_custom_op.so"),
                bytes: b"\x7fELF custom op: top-k\n".to_vec(),
            });
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}
