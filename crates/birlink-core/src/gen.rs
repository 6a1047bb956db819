//! Synthetic SPMD link sets: any number of cores and instructions, with shared-HBM
//! handoffs, remote DMA blocks, barriers, nested loops and unknown keys, optionally with
//! one injected fault per diagnostic code.
//!
//! The shape follows what the seeds say the compiler hands the linker: core 0 owns every
//! shared DRAM tensor (`DRAM_Allocator::mark_remote` leaves the others a view with
//! `allocated: false` and `remote_local_target [name, 0]`, the address already copied
//! by `sync_shared_allocations`); each core has the same functions, blocks, barriers
//! (ids `0..k`) and remote-notifying DMA blocks; a remote DMA block's remote update
//! carries its own core's semaphore id until `vnc_link` relinks it.
//!
//! Deterministic: the same config gives the same bytes (a splitmix64 stream, no clock).

use serde_json::{json, Map, Value};

use crate::codes::Code;
use crate::input::SourceFile;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Number of cores (modules).
    pub cores: u64,
    /// Instructions per core function, approximately.
    pub insts: usize,
    /// Shared tensors core 0 produces and every other core reads through a remote view.
    pub handoffs: usize,
    /// Remote-notifying DMA blocks per core.
    pub remote_dma: usize,
    /// CoreBarriers per core.
    pub barriers: usize,
    /// Depth of nested `Loop`s in the first block.
    pub loop_depth: usize,
    /// Add keys the passes do not know at every level.
    pub unknown_keys: bool,
    /// Add a netlist (`lnc`, `name`, `outputs`).
    pub netlist: bool,
    /// Add a ring of collective staging buffers: core `c` owns `ring_buf_c<c>` and holds
    /// a remote view of `ring_buf_c<c+1>` (the second RemoteLocalTarget producer,
    /// `LowerLocalCollectives::getMemoryLocation`).
    pub ring: bool,
    /// Write compact JSON (one line per file) instead of pretty JSON.
    pub compact: bool,
    /// Seed of the pseudo-random choices.
    pub seed: u64,
    /// A fault to inject, by code.
    pub fault: Option<Code>,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            cores: 2,
            insts: 200,
            handoffs: 2,
            remote_dma: 2,
            barriers: 3,
            loop_depth: 1,
            unknown_keys: false,
            netlist: false,
            ring: false,
            compact: false,
            seed: 1,
            fault: None,
        }
    }
}

/// How to lay the link set out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// One bundle document (`linkset.json`).
    Bundle,
    /// One file per core (`nc00.json`, …) and `hlo_netlist.json`.
    Files,
}

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenFile {
    /// Relative path.
    pub path: String,
    /// Content.
    pub bytes: Vec<u8>,
}

impl GenFile {
    /// As a pipeline input.
    pub fn source(&self) -> SourceFile {
        SourceFile { path: self.path.clone(), content: Ok(self.bytes.clone()), role: crate::input::Role::Auto }
    }
}

/// The generated documents before layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenSet {
    /// One module per core.
    pub modules: Vec<Value>,
    /// The netlist, if any.
    pub netlist: Option<Value>,
    /// Bundle options.
    pub options: Map<String, Value>,
}

/// Codes a fault can be injected for (every code but BL0010, which is a limit of the
/// build, tested through `LinkOptions::max_input_bytes`).
pub fn fault_codes() -> Vec<Code> {
    Code::ALL.iter().copied().filter(|c| *c != Code::InputTooLarge).collect()
}

/// Generates the files of a link set.
pub fn generate(config: &GenConfig, layout: Layout) -> Vec<GenFile> {
    let mut set = generate_set(config);
    let pretty = |value: &Value| {
        if config.compact {
            compact_text(value)
        } else {
            pretty(value)
        }
    };
    let mut extra_files = Vec::new();
    let mut corrupt: Option<(usize, Corruption)> = None;
    match config.fault {
        Some(Code::InvalidJson) => corrupt = Some((1.min(set.modules.len().saturating_sub(1)), Corruption::Truncate)),
        Some(Code::UnreadableFile) => corrupt = Some((1.min(set.modules.len().saturating_sub(1)), Corruption::NotUtf8)),
        Some(Code::ExtraNetlist) => {
            set.netlist = Some(json!({"lnc": config.cores, "name": "first"}));
            extra_files.push(GenFile {
                path: "extra/hlo_netlist.json".to_owned(),
                bytes: pretty(&json!({"lnc": config.cores, "name": "second"})).into_bytes(),
            });
        }
        Some(Code::NotAModule) if layout == Layout::Files => {
            extra_files.push(GenFile { path: "notes.json".to_owned(), bytes: b"[\"this is not a module\"]\n".to_vec() })
        }
        _ => {}
    }
    let mut files = match layout {
        Layout::Bundle => {
            let mut bundle = Map::new();
            bundle.insert("modules".to_owned(), Value::Array(set.modules.clone()));
            if let Some(netlist) = &set.netlist {
                bundle.insert("netlist".to_owned(), netlist.clone());
            }
            if !set.options.is_empty() {
                bundle.insert("options".to_owned(), Value::Object(set.options.clone()));
            }
            let mut text = pretty(&Value::Object(bundle));
            if let Some((_, corruption)) = corrupt {
                text = corruption.apply_text(text);
            }
            let bytes = match corrupt {
                Some((_, Corruption::NotUtf8)) => not_utf8(text),
                _ => text.into_bytes(),
            };
            vec![GenFile { path: "linkset.json".to_owned(), bytes }]
        }
        Layout::Files => {
            // Files have no bundle options; `lnc` travels in the netlist instead.
            if let Some(lnc) = set.options.get("lnc").cloned() {
                let netlist = set.netlist.get_or_insert_with(|| json!({}));
                netlist["lnc"] = lnc;
            }
            let mut files: Vec<GenFile> = set
                .modules
                .iter()
                .enumerate()
                .map(|(i, module)| {
                    let text = pretty(module);
                    let bytes = match corrupt {
                        Some((at, Corruption::Truncate)) if at == i => {
                            Corruption::Truncate.apply_text(text).into_bytes()
                        }
                        Some((at, Corruption::NotUtf8)) if at == i => not_utf8(text),
                        _ => text.into_bytes(),
                    };
                    GenFile { path: format!("nc{i:02}.json"), bytes }
                })
                .collect();
            if let Some(netlist) = &set.netlist {
                files.push(GenFile { path: "hlo_netlist.json".to_owned(), bytes: pretty(netlist).into_bytes() });
            }
            files
        }
    };
    files.extend(extra_files);
    files
}

#[derive(Clone, Copy)]
enum Corruption {
    Truncate,
    NotUtf8,
}

impl Corruption {
    fn apply_text(self, text: String) -> String {
        match self {
            // Cut mid-document, as an interrupted dump would be.
            Corruption::Truncate => text.chars().take(text.chars().count() * 2 / 3).collect(),
            Corruption::NotUtf8 => text,
        }
    }
}

fn not_utf8(text: String) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    let at = bytes.len() / 2;
    // 0xFF never occurs in UTF-8.
    bytes.insert(at, 0xFF);
    bytes
}

/// Compact JSON with a final newline.
fn compact_text(value: &Value) -> String {
    let mut text = value.to_string();
    text.push('\n');
    text
}

/// Pretty JSON with a final newline.
pub fn pretty(value: &Value) -> String {
    crate::json::write::to_pretty_string(value)
}

/// Generates the documents (with any document-level fault applied).
pub fn generate_set(config: &GenConfig) -> GenSet {
    let mut rng = Rng(config.seed);
    let cores = config.cores.max(1);
    let modules: Vec<Value> = (0..cores).map(|c| core_module(config, c, &mut rng)).collect();
    let mut set = GenSet { modules, netlist: None, options: Map::new() };
    if config.netlist {
        set.netlist = Some(json!({"lnc": cores, "name": "nc00", "outputs": ["output"]}));
    }
    if let Some(fault) = config.fault {
        inject(&mut set, config, fault);
    }
    set
}

/// A splitmix64 stream: tiny, portable, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

const SHARED_BASE: u64 = 0x20_0000;
const SHARED_STRIDE: u64 = 0x1_0000;
const DMA_ENGINES: [&str; 2] = ["qSyncIO", "qSyncIO"];

/// Shared tensor `h`: a tile of C that core 0 computes into its shared HBM and every
/// other core reads (core 0 is the producer, the views are consumers).
fn shared_name(h: usize) -> String {
    format!("c_partial_{h}")
}

fn core_module(config: &GenConfig, core: u64, rng: &mut Rng) -> Value {
    let n = config.cores.max(1);
    let mut allocations = vec![
        mk_set("input_act_set", "ExternalInput", "Local", "bfloat16", &[128, 512], vec![memloc_dram("input_act", 0, true)]),
        mk_set("weights_set", "Const", "Local", "bfloat16", &[512, 512], vec![memloc_dram("weights", 0x10_0000, true)]),
        mk_set("sb_tiles_set",
            "Internal",
            "Local",
            "bfloat16",
            &[128, 512],
            (0..4).map(|i| json!({"name": format!("sb_tile_{i}"), "type": "SB", "addr": i * 2048, "bank": 0, "base": 0, "allocated": true, "dims": [128, 2048]})).collect(),
        ),
        mk_set("psum_set",
            "Internal",
            "Local",
            "float32",
            &[128, 512],
            (0..2).map(|i| json!({"name": format!("psum_{i}"), "type": "PSUM", "addr": 0, "bank": i, "base": 0, "allocated": true})).collect(),
        ),
        mk_set("output_set", "ExternalOutput", "Local", "bfloat16", &[128, 512], vec![memloc_dram("output", 0x30_0000, true)]),
    ];
    if n > 1 {
        for h in 0..config.handoffs {
            let name = shared_name(h);
            let addr = SHARED_BASE + h as u64 * SHARED_STRIDE;
            let mut memloc = memloc_dram(&name, addr, core == 0);
            memloc.insert("is_shared_post_dram_alloc".to_owned(), Value::Bool(true));
            let (kind, space) = if core == 0 {
                ("ExternalOutput", "Shared")
            } else {
                memloc.insert("remote_local_target".to_owned(), json!([name, 0]));
                ("ExternalInput", "Local")
            };
            allocations.push(mk_set(&format!("{name}_set"), kind, space, "bfloat16", &[128, 512], vec![memloc]));
        }
    }

    if n > 1 && config.ring {
        let next = (core + 1) % n;
        let own = format!("ring_buf_c{core}");
        let peer = format!("ring_buf_c{next}");
        let mut owned = memloc_dram(&own, 0x50_0000 + core * SHARED_STRIDE, true);
        owned.insert("written_by_another_core".to_owned(), Value::Bool(true));
        allocations.push(mk_set("ring_recv_set", "Internal", "Shared", "bfloat16", &[128, 512], vec![owned]));
        let mut view = memloc_dram(&peer, 0, false);
        view.insert("remote_local_target".to_owned(), json!([peer, next]));
        allocations.push(mk_set("ring_send_set", "ExternalOutput", "Local", "bfloat16", &[128, 512], vec![view]));
    }
    let per_block = 400usize;
    let n_blocks = config.insts.div_ceil(per_block).max(2);
    let mut blocks = Vec::with_capacity(n_blocks);
    let mut counter = 0usize;
    let mut sem = 0u64;
    let barrier_at: Vec<usize> = (0..config.barriers).map(|i| (i * n_blocks) / config.barriers.max(1)).collect();
    let mut next_barrier = 0usize;
    let target = config.insts.max(n_blocks * 4);
    for b in 0..n_blocks {
        let mut insts = Vec::new();
        let budget = target / n_blocks;
        if b == 0 {
            for i in 0..2 {
                insts.push(json!({
                    "name": format!("sb2sb_{i}"), "opcode": "GPSIMDSB2SB", "engine": "Pool",
                    "ins": [ap("sb_tile_0", "bfloat16")], "outs": [ap("sb_tile_1", "bfloat16")],
                }));
            }
            if n > 1 && config.ring {
                let next = (core + 1) % n;
                insts.push(json!({"name": "ring_send", "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                                  "ins": [ap("sb_tile_1", "bfloat16")], "outs": [ap(&format!("ring_buf_c{next}"), "bfloat16")]}));
                insts.push(json!({"name": "ring_recv", "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                                  "ins": [ap(&format!("ring_buf_c{core}"), "bfloat16")], "outs": [ap("sb_tile_2", "bfloat16")]}));
            }
            if config.loop_depth > 0 {
                insts.push(loop_nest(config.loop_depth, 1, &mut counter));
            }
            if n > 1 {
                for h in 0..config.handoffs {
                    let name = shared_name(h);
                    // Core 0 writes its tile of C into shared HBM; the others read it.
                    insts.push(if core == 0 {
                        json!({"name": format!("store_{name}"), "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                               "ins": [ap("sb_tile_2", "bfloat16")], "outs": [ap(&name, "bfloat16")]})
                    } else {
                        json!({"name": format!("load_{name}"), "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                               "ins": [ap(&name, "bfloat16")], "outs": [ap("sb_tile_3", "bfloat16")]})
                    });
                }
            }
        }
        let mut previous: Option<String> = None;
        while insts.len() < budget {
            let t = counter;
            counter += 1;
            let tile = t % 4;
            let names = [
                format!("inst__I-{t}-0:load"),
                format!("inst__I-{t}-0:mm"),
                format!("inst__I-{t}-0:act"),
                format!("inst__I-{t}-0:store"),
            ];
            let s = sem % 200 + 4;
            sem += 1;
            let start = (t as u64) * 10 + rng.below(5);
            let mut load = json!({
                "name": names[0], "opcode": "DMACopy", "engine": "DMA", "queue": DMA_ENGINES[t % 2],
                "ins": [ap("input_act", "bfloat16")], "outs": [ap(&format!("sb_tile_{tile}"), "bfloat16")],
                "scheduled_start": start, "scheduled_end": start + 4,
                "sync_info": {"on_update": [{"id": s, "update_value": 1, "mode": "sem-inc"}]},
            });
            if let Some(prev) = &previous {
                load["dependencies"] = json!([[prev, "Flow"]]);
            }
            insts.push(load);
            insts.push(json!({
                "name": names[1], "opcode": "Matmult", "engine": "PE",
                "ins": [ap(&format!("sb_tile_{tile}"), "bfloat16"), ap("weights", "bfloat16")],
                "outs": [ap(&format!("psum_{}", tile % 2), "float32")],
                "dependencies": [[names[0], "Flow"]],
                "scheduled_start": start + 4, "scheduled_end": start + 6,
                "sync_info": {"on_wait": [{"from": names[0], "id": s, "wait_value": 1, "mode": "sem-ge-imm"}]},
            }));
            insts.push(json!({
                "name": names[2], "opcode": "Activation", "engine": "Activation",
                "ins": [ap(&format!("psum_{}", tile % 2), "float32")], "outs": [ap(&format!("sb_tile_{tile}"), "bfloat16")],
                "dependencies": [[names[1], "Flow"]], "scheduled_start": start + 6, "scheduled_end": start + 8,
            }));
            insts.push(json!({
                "name": names[3], "opcode": "DMACopy", "engine": "DMA", "queue": "qSyncIO",
                "ins": [ap(&format!("sb_tile_{tile}"), "bfloat16")], "outs": [ap("output", "bfloat16")],
                "dependencies": [[names[2], "Flow"]], "scheduled_start": start + 8, "scheduled_end": start + 10,
            }));
            previous = Some(names[3].clone());
        }
        while next_barrier < barrier_at.len() && barrier_at[next_barrier] == b {
            insts.push(json!({
                "name": format!("Block{}-cb-{next_barrier}", b + 1), "opcode": "CoreBarrier", "engine": "SP",
                "id": next_barrier, "cores": (0..n).collect::<Vec<u64>>(),
            }));
            next_barrier += 1;
        }
        if b + 1 < n_blocks {
            insts.push(json!({"name": format!("br_{}", b + 1), "opcode": "UnconditionalBranch", "engine": "SP", "target": format!("Block{}", b + 2)}));
        }
        blocks.push(json!({"name": format!("Block{}", b + 1), "instructions": insts}));
    }

    let mut queues = vec![json!({
        "name": "qSyncIO",
        "num_dma_engines": 2,
        "blocks": [
            {"name": "qSyncIO_main", "instructions": dma_blocks("io", 3, core, 4)},
            {"instructions": dma_blocks("io_tail", 2, core, 8)},
        ],
    })];
    if n > 1 && config.remote_dma > 0 {
        let blocks: Vec<Value> = (0..config.remote_dma)
            .map(|k| {
                let local = 64 + (k as u64) * n + core;
                let peer = (core + 1) % n;
                json!({
                    "name": format!("remote_dma_{k}"), "opcode": "DMABlock", "engine": "DMA",
                    "block_id": k, "remote_notifications": [peer],
                    "sync_info": {"on_update": [
                        {"id": local, "update_value": 1, "mode": "sem-inc"},
                        {"id": local, "update_value": 1, "mode": "sem-inc", "target_core": peer},
                    ]},
                })
            })
            .collect();
        queues.push(json!({"name": "qRemoteSem", "num_dma_engines": 1, "blocks": [{"name": "qRemoteSem_0", "instructions": blocks}]}));
    }

    let mut module = json!({
        "version": 2,
        "arch": "gen3",
        "attributes": {"neuron_core_id": core},
        "functions": [{"name": "sg0000", "attributes": {"need_unroll": false}, "allocations": allocations, "blocks": blocks}],
        "queues": queues,
    });
    if config.unknown_keys {
        add_unknown_keys(&mut module, core, rng);
    }
    module
}

fn mk_set(name: &str, kind: &str, space: &str, dtype: &str, shape: &[u64], memlocs: Vec<impl Into<Value>>) -> Value {
    json!({
        "name": name, "Skind": "memory_location_set", "kind": kind, "addr_space": space,
        "dtype": dtype, "tensor_shape": shape,
        "memorylocations": memlocs.into_iter().map(Into::into).collect::<Vec<Value>>(),
    })
}

fn memloc_dram(name: &str, addr: u64, allocated: bool) -> Map<String, Value> {
    match json!({"name": name, "type": "DRAM", "addr": addr, "bank": 0, "base": 0, "allocated": allocated, "dims": [131072]})
    {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn ap(memref: &str, dtype: &str) -> Value {
    json!({"kind": "physical_ap", "memref": memref, "dtype": dtype, "ap": [[512, 128], [1, 512]], "offset": 0})
}

fn dma_blocks(prefix: &str, count: usize, core: u64, base: u64) -> Vec<Value> {
    (0..count)
        .map(|i| {
            json!({
                "name": format!("{prefix}_dma_{i}"), "opcode": "DMABlock", "engine": "DMA", "block_id": i,
                "sync_info": {"on_update": [{"id": base + i as u64 + core * 16, "update_value": 1, "mode": "sem-inc"}]},
            })
        })
        .collect()
}

fn loop_nest(depth: usize, level: usize, counter: &mut usize) -> Value {
    let t = *counter;
    *counter += 1;
    let mut body = vec![json!({"name": format!("loop{level}_copy_{t}"), "opcode": "TensorCopy", "engine": "DVE",
               "ins": [ap("sb_tile_0", "bfloat16")], "outs": [ap("sb_tile_1", "bfloat16")]})];
    if level < depth {
        body.push(loop_nest(depth, level + 1, counter));
    }
    json!({
        "name": format!("loop{level}_{t}"), "opcode": "Loop", "engine": "SP",
        "LoopAxis": {"name": format!("i{level}"), "lb": 0, "ub": 4, "stride": 1},
        "blocks": [{"name": format!("Block1_LoopBody_{level}"), "instructions": body}],
    })
}

/// Adds a key the passes do not know to every object of the module (entities and their
/// nested values alike).
fn add_unknown_keys(module: &mut Value, core: u64, rng: &mut Rng) {
    fn walk(value: &mut Value, core: u64, rng: &mut Rng, depth: usize) {
        match value {
            Value::Object(map) => {
                for child in map.values_mut() {
                    walk(child, core, rng, depth + 1);
                }
                let tag = rng.below(1_000_000);
                map.insert("x_birlink_probe".to_owned(), json!({"core": core, "depth": depth, "tag": tag, "f": 0.1}));
            }
            Value::Array(items) => {
                for item in items {
                    walk(item, core, rng, depth + 1);
                }
            }
            _ => {}
        }
    }
    walk(module, core, rng, 0);
}

/// The first function of module `i`.
fn function_mut(set: &mut GenSet, i: usize) -> Option<&mut Map<String, Value>> {
    set.modules.get_mut(i)?.get_mut("functions")?.get_mut(0)?.as_object_mut()
}

/// Links the set's modules (all passes, or `passes`) and makes the linked module the
/// set's only module: inputs that are already linked.
fn replace_with_linked(set: &mut GenSet, passes: Option<Vec<String>>) {
    let sources: Vec<SourceFile> =
        set.modules.iter().enumerate().map(|(i, m)| SourceFile::text(format!("nc{i:02}.json"), pretty(m))).collect();
    let outcome = crate::passes::run(sources, &crate::passes::LinkOptions { passes, ..Default::default() });
    if let Some(linked) = outcome.linked.as_ref() {
        set.modules = vec![crate::json::write::module_to_value(linked)];
    }
}

fn blocks_mut(set: &mut GenSet, i: usize) -> Option<&mut Vec<Value>> {
    function_mut(set, i)?.get_mut("blocks")?.as_array_mut()
}

fn allocations_mut(set: &mut GenSet, i: usize) -> Option<&mut Vec<Value>> {
    function_mut(set, i)?.get_mut("allocations")?.as_array_mut()
}

/// The first memloc named `name` in module `i`.
fn memloc_mut<'a>(set: &'a mut GenSet, i: usize, name: &str) -> Option<&'a mut Map<String, Value>> {
    allocations_mut(set, i)?
        .iter_mut()
        .filter_map(|a| a.get_mut("memorylocations")?.as_array_mut())
        .flatten()
        .find(|m| m.get("name").and_then(Value::as_str) == Some(name))?
        .as_object_mut()
}

/// Every instruction (top level of each block) of module `i` with this opcode.
fn insts_mut<'a>(set: &'a mut GenSet, i: usize, opcode: &'a str) -> Vec<&'a mut Value> {
    let Some(blocks) = blocks_mut(set, i) else {
        return Vec::new();
    };
    blocks
        .iter_mut()
        .filter_map(|b| b.get_mut("instructions")?.as_array_mut())
        .flatten()
        .filter(|inst| inst.get("opcode").and_then(Value::as_str) == Some(opcode))
        .collect()
}

fn remote_blocks_mut(set: &mut GenSet, i: usize) -> Option<&mut Vec<Value>> {
    set.modules
        .get_mut(i)?
        .get_mut("queues")?
        .as_array_mut()?
        .iter_mut()
        .find(|q| q.get("name").and_then(Value::as_str) == Some("qRemoteSem"))?
        .get_mut("blocks")?
        .get_mut(0)?
        .get_mut("instructions")?
        .as_array_mut()
}

fn push_inst(set: &mut GenSet, i: usize, inst: Value) {
    if let Some(insts) = blocks_mut(set, i)
        .and_then(|b| b.get_mut(0))
        .and_then(|b| b.get_mut("instructions"))
        .and_then(Value::as_array_mut)
    {
        insts.push(inst);
    }
}

/// Injects the fault for `code` into the documents; layout-level faults (invalid JSON,
/// unreadable bytes, extra files) are applied by [`generate`].
fn inject(set: &mut GenSet, config: &GenConfig, code: Code) {
    let last = set.modules.len().saturating_sub(1);
    let one = 1.min(last);
    match code {
        Code::UnreadableFile | Code::InvalidJson | Code::ExtraNetlist | Code::InputTooLarge => {}
        Code::WrongType => {
            if let Some(f) = function_mut(set, one) {
                f.insert("blocks".to_owned(), json!({"name": "Block1"}));
            }
        }
        Code::MissingKey => {
            if let Some(inst) = blocks_mut(set, one)
                .and_then(|b| b.get_mut(0))
                .and_then(|b| b.get_mut("instructions"))
                .and_then(|i| i.get_mut(0))
            {
                if let Some(map) = inst.as_object_mut() {
                    map.remove("name");
                }
            }
        }
        Code::NotAModule => set.modules.push(json!(["this is not a module"])),
        Code::EmptyLinkSet => set.modules.clear(),
        Code::TooDeep => {
            let mut counter = 0;
            let nest = loop_nest(crate::limits::MAX_LOOP_DEPTH + 2, 1, &mut counter);
            push_inst(set, one, nest);
        }
        Code::NumberOutOfRange => {
            if let Some(m) = set.modules.get_mut(one) {
                m["attributes"]["neuron_core_id"] = json!(-1);
            }
        }
        Code::UnsupportedVersion => {
            if let Some(m) = set.modules.get_mut(one) {
                m["version"] = json!(7);
            }
        }
        Code::DuplicateCore => {
            if let Some(m) = set.modules.get_mut(one) {
                m["attributes"]["neuron_core_id"] = json!(0);
            }
        }
        Code::CoreOutOfRange => {
            if let Some(m) = set.modules.get_mut(one) {
                m["attributes"]["neuron_core_id"] = json!(config.cores + 3);
            }
        }
        Code::DuplicateName => {
            if let Some(allocations) = allocations_mut(set, 0) {
                allocations.push(set_value_dup());
            }
        }
        Code::DuplicateModuleName => {
            for m in &mut set.modules {
                m["name"] = json!("nc00");
            }
        }
        Code::NoFunctions => {
            if let Some(m) = set.modules.get_mut(one) {
                m["functions"] = json!([]);
            }
        }
        Code::UnknownQueue => push_inst(
            set,
            one,
            json!({"name": "dma_to_nowhere", "opcode": "DMACopy", "engine": "DMA", "queue": "qMissing"}),
        ),
        Code::UnknownQueueInstance => push_inst(
            set,
            one,
            json!({"name": "sqi_stale", "opcode": "SwitchQueueInstance", "queue": "qSyncIO", "instance": "qSyncIO_99"}),
        ),
        Code::UnknownBlock => {
            push_inst(set, one, json!({"name": "br_lost", "opcode": "UnconditionalBranch", "target": "Block99"}))
        }
        Code::UnknownMemloc => push_inst(
            set,
            one,
            json!({"name": "copy_lost", "opcode": "TensorCopy", "engine": "DVE", "ins": [ap("nowhere", "bfloat16")], "outs": [ap("sb_tile_0", "bfloat16")]}),
        ),
        Code::UnknownCallTarget => {
            push_inst(set, one, json!({"name": "call_lost", "opcode": "Call", "target": "missing_fn"}))
        }
        Code::UnknownDependency => push_inst(
            set,
            one,
            json!({"name": "waits_lost", "opcode": "TensorCopy", "engine": "DVE", "dependencies": [["no_such_inst", "Flow"]]}),
        ),
        Code::MissingRemoteTarget | Code::RemoteMemlocMissing => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("remote_local_target".to_owned(), json!([format!("{}_remote_{one}", shared_name(0)), 0]));
            }
        }
        Code::NetlistEndpointMissing => {
            let netlist = set.netlist.get_or_insert_with(|| json!({}));
            netlist["aliases"] = json!([{"producer": {"core": 0, "memloc": "c_partial_O"}, "consumer": {"core": one, "memloc": shared_name(0)}, "kind": 3}]);
        }
        Code::NonDramAlias => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("type".to_owned(), json!("SB"));
            }
        }
        Code::SelfTarget => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("remote_local_target".to_owned(), json!([shared_name(0), one]));
            }
        }
        Code::BarrierSkipped => {
            if let Some(barrier) = insts_mut(set, 0, "CoreBarrier").into_iter().next() {
                barrier["id"] = json!({"affine": "4*i0+1"});
            }
        }
        Code::AttributesReplaced => {
            if let Some(f) = function_mut(set, one) {
                f.insert("attributes".to_owned(), json!(["need_unroll"]));
            }
        }
        Code::NotLinked => {
            set.options.insert("passes".to_owned(), json!(["vnc_link"]));
        }
        Code::ConflictingAddrSpace => {
            if let Some(allocations) = allocations_mut(set, 0) {
                allocations.push(mk_set(
                    "scratch_set",
                    "Internal",
                    "Local",
                    "bfloat16",
                    &[128, 512],
                    vec![memloc_dram("scratch", 0x40_0000, true)],
                ));
            }
            if let Some(allocations) = allocations_mut(set, one) {
                let mut a = memloc_dram("mixed_a", 0, false);
                a.insert("remote_local_target".to_owned(), json!([shared_name(0), 0]));
                let mut b = memloc_dram("mixed_b", 0, false);
                b.insert("remote_local_target".to_owned(), json!(["scratch", 0]));
                allocations.push(mk_set("mixed_set", "ExternalInput", "Local", "bfloat16", &[128, 512], vec![a, b]));
            }
        }
        Code::ViewOfView => {
            // `relay` on core 0 targets `relay_c1` on core 1, itself a view of core 0's
            // shared tensor.
            if let Some(allocations) = allocations_mut(set, 0) {
                let mut relay = memloc_dram("relay", 0, false);
                relay.insert("remote_local_target".to_owned(), json!(["relay_c1", one]));
                allocations.push(mk_set("relay_set", "Internal", "Local", "bfloat16", &[128, 512], vec![relay]));
            }
            if let Some(allocations) = allocations_mut(set, one) {
                let mut middle = memloc_dram("relay_c1", 0, false);
                middle.insert("remote_local_target".to_owned(), json!([shared_name(0), 0]));
                allocations.push(mk_set("relay_set", "Internal", "Local", "bfloat16", &[128, 512], vec![middle]));
            }
        }
        Code::StrayRemoteUpdate => push_inst(
            set,
            one,
            json!({"name": "mm_signals_peer", "opcode": "Matmult", "engine": "PE",
                   "sync_info": {"on_update": [{"id": 9, "update_value": 1, "mode": "sem-inc", "target_core": 0}]}}),
        ),
        Code::NothingToRelink => *set = generate_set(&GenConfig { cores: 1, fault: None, ..config.clone() }),
        Code::AlreadyLinked => {
            // Link the set, then give the result to bir_linker again.
            replace_with_linked(set, None);
        }
        Code::BarrierCountMismatch => {
            if let Some(blocks) = blocks_mut(set, one) {
                for block in blocks.iter_mut().rev() {
                    let Some(insts) = block.get_mut("instructions").and_then(Value::as_array_mut) else {
                        continue;
                    };
                    if let Some(pos) =
                        insts.iter().rposition(|i| i.get("opcode").and_then(Value::as_str) == Some("CoreBarrier"))
                    {
                        insts.remove(pos);
                        break;
                    }
                }
            }
        }
        Code::BarrierIdsNotDense => {
            let barriers = insts_mut(set, one, "CoreBarrier");
            if let Some(first) = barriers.into_iter().next() {
                first["id"] = json!(7);
            }
        }
        Code::BarrierNameMismatch => {
            if let Some(first) = insts_mut(set, one, "CoreBarrier").into_iter().next() {
                first["name"] = json!("LocalSendRecv-1_480_sr_cb_begin");
            }
        }
        Code::FunctionMissing => {
            if let Some(functions) =
                set.modules.first_mut().and_then(|m| m.get_mut("functions")).and_then(Value::as_array_mut)
            {
                functions.push(json!({"name": "sg0001", "blocks": [{"name": "Block1", "instructions": []}]}));
            }
        }
        Code::BlockCountMismatch => {
            if let Some(blocks) = blocks_mut(set, one) {
                let extra = json!({"name": "Block_extra", "instructions": []});
                blocks.push(extra);
            }
        }
        Code::FunctionCountMismatch => {
            if let Some(functions) =
                set.modules.get_mut(one).and_then(|m| m.get_mut("functions")).and_then(Value::as_array_mut)
            {
                functions.push(json!({"name": "sg0001_helper", "blocks": []}));
            }
        }
        Code::BlockOrderMismatch => {
            if let Some(block) = blocks_mut(set, one).and_then(|b| b.last_mut()) {
                block["name"] = json!("Block_renamed");
            }
        }
        Code::SharedAddressMismatch => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("addr".to_owned(), json!(SHARED_BASE + 0x8000));
            }
        }
        Code::SharedAddressSetMismatch => {
            if let Some(allocations) = allocations_mut(set, 0) {
                let mut m = memloc_dram("shared_core0_only", SHARED_BASE + 0x80_0000, true);
                m.insert("is_shared_post_dram_alloc".to_owned(), json!(true));
                allocations.push(mk_set(
                    "shared_core0_only_set",
                    "Internal",
                    "Shared",
                    "bfloat16",
                    &[128, 512],
                    vec![m],
                ));
            }
        }
        Code::SharedWithoutRemoteTarget => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.remove("remote_local_target");
            }
        }
        Code::Sb2SbCountMismatch => {
            if let Some(insts) = blocks_mut(set, one)
                .and_then(|b| b.get_mut(0))
                .and_then(|b| b.get_mut("instructions"))
                .and_then(Value::as_array_mut)
            {
                if let Some(pos) =
                    insts.iter().position(|i| i.get("opcode").and_then(Value::as_str) == Some("GPSIMDSB2SB"))
                {
                    insts.remove(pos);
                }
            }
        }
        Code::MissingCoreId => {
            if let Some(m) = set.modules.get_mut(one).and_then(Value::as_object_mut) {
                m.insert("attributes".to_owned(), json!({}));
            }
        }
        Code::VncLinkCoreCount => {
            // vnc_link on its own over the linked module, with one core too many.
            replace_with_linked(set, Some(vec!["verify".into(), "bir_linker".into()]));
            set.options.insert("passes".to_owned(), json!(["vnc_link"]));
            set.options.insert("lnc".to_owned(), json!(config.cores + 1));
        }
        Code::PeerUpdateMissing => {
            if let Some(block) = remote_blocks_mut(set, one).and_then(|b| b.get_mut(0)) {
                if let Some(updates) = block.pointer_mut("/sync_info/on_update").and_then(Value::as_array_mut) {
                    updates.retain(|u| u.get("target_core").is_some());
                }
            }
        }
        Code::RemoteBlockCountMismatch => {
            if let Some(blocks) = remote_blocks_mut(set, one) {
                blocks.pop();
            }
        }
        Code::VncAddrMapCoreCount => {
            set.options.insert("lnc".to_owned(), json!(config.cores + 2));
        }
    }
}

fn set_value_dup() -> Value {
    mk_set(
        "output_set",
        "ExternalOutput",
        "Local",
        "bfloat16",
        &[128, 512],
        vec![memloc_dram("output", 0x30_0000, true)],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        let config = GenConfig { unknown_keys: true, ..GenConfig::default() };
        assert_eq!(generate(&config, Layout::Bundle), generate(&config, Layout::Bundle));
        assert_ne!(
            generate(&config, Layout::Bundle),
            generate(&GenConfig { seed: 2, ..config.clone() }, Layout::Bundle)
        );
    }

    #[test]
    fn size_follows_the_config() {
        let set = generate_set(&GenConfig { cores: 3, insts: 2000, ..GenConfig::default() });
        assert_eq!(set.modules.len(), 3);
        let text = pretty(&set.modules[1]);
        let opcodes = text.matches("\"opcode\"").count();
        assert!((2000..2300).contains(&opcodes), "{opcodes} instructions");
    }
}
