//! One core's module of a synthetic SPMD link set: functions, shared-HBM handoffs,
//! remote DMA blocks, barriers, nested loops and unknown keys.

use serde_json::{json, Map, Value};

use super::GenConfig;

/// A splitmix64 stream: tiny, portable, deterministic.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed)
    }

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

/// Where the shared tensors start in DRAM.
pub const SHARED_BASE: u64 = 0x20_0000;
/// The distance between two shared tensors.
pub const SHARED_STRIDE: u64 = 0x1_0000;
/// The first semaphore of the DMA queue's blocks (each core its own ids: core `c`'s
/// start `8 × c` further on).
const IO_SEMAPHORES: u64 = 104;
/// The first semaphore of the remote DMA blocks (`k × cores + core`).
const REMOTE_SEMAPHORES: u64 = 176;
/// The queue the generated DMA copies run on.
const DMA_QUEUE: &str = "qSyncIO";

/// Shared tensor `h`: a tile of C that core 0 computes into its shared HBM and every
/// other core reads (core 0 is the producer, the views are consumers).
pub fn shared_name(h: usize) -> String {
    format!("c_partial_{h}")
}

pub(super) fn core_module(config: &GenConfig, core: u64, rng: &mut Rng) -> Value {
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
    // A core that shares memory has two barriers at least: the first ends block 0 and
    // orders the handoffs' writes before their reads (block 1), the last ends block 1 or
    // later and orders the reads before the next call's writes.
    let barriers = if n > 1 && (config.handoffs > 0 || config.ring) { config.barriers.max(2) } else { config.barriers };
    let barrier_at: Vec<usize> = (0..barriers).map(|i| (i * n_blocks) / barriers.max(1)).collect();
    let mut next_barrier = 0usize;
    let target = config.insts.max(n_blocks * 4);
    for b in 0..n_blocks {
        let mut insts = Vec::new();
        let budget = target / n_blocks;
        // The handoffs' copies are core 0's in block 0 and the others' in block 1: not
        // counted against the budget, so every core has as many groups as its peers.
        let mut handoff_copies = 0;
        if b == 0 {
            for i in 0..2 {
                insts.push(json!({
                    "name": format!("sb2sb_{i}"), "opcode": "GPSIMDSB2SB", "engine": "Pool",
                    "ins": [ap("sb_tile_0", "bfloat16")], "outs": [ap("sb_tile_1", "bfloat16")],
                }));
            }
            if n > 1 && config.ring {
                // Each core sends into the next one's buffer before the first barrier.
                let next = (core + 1) % n;
                insts.push(json!({"name": "ring_send", "opcode": "DMACopy", "engine": "SP", "queue": "qSyncIO",
                                  "ins": [ap("sb_tile_1", "bfloat16")], "outs": [ap(&format!("ring_buf_c{next}"), "bfloat16")]}));
            }
            if config.loop_depth > 0 {
                insts.push(loop_nest(config.loop_depth, 1, &mut counter));
            }
            if n > 1 && core == 0 {
                // Core 0 writes its tiles of C into shared HBM before the first barrier.
                for h in 0..config.handoffs {
                    let name = shared_name(h);
                    insts.push(
                        json!({"name": format!("store_{name}"), "opcode": "DMACopy", "engine": "SP", "queue": "qSyncIO",
                                      "ins": [ap("sb_tile_2", "bfloat16")], "outs": [ap(&name, "bfloat16")]}),
                    );
                    handoff_copies += 1;
                }
            }
        }
        if b == 1 && n > 1 {
            // After the first barrier (the end of block 0, on the engine that wrote them),
            // the other cores read core 0's tiles and each core its ring buffer: the
            // barrier orders every write before every read, as real programs order a
            // handoff (docs/spec/sync.md §6).
            if core != 0 {
                for h in 0..config.handoffs {
                    let name = shared_name(h);
                    insts.push(
                        json!({"name": format!("load_{name}"), "opcode": "DMACopy", "engine": "SP", "queue": "qSyncIO",
                                      "ins": [ap(&name, "bfloat16")], "outs": [ap("sb_tile_3", "bfloat16")]}),
                    );
                    handoff_copies += 1;
                }
            }
            if config.ring {
                insts.push(json!({"name": "ring_recv", "opcode": "DMACopy", "engine": "SP", "queue": "qSyncIO",
                                  "ins": [ap(&format!("ring_buf_c{core}"), "bfloat16")], "outs": [ap("sb_tile_2", "bfloat16")]}));
            }
        }
        let mut previous: Option<String> = None;
        while insts.len() - handoff_copies < budget {
            let t = counter;
            counter += 1;
            let tile = t % 4;
            let names = [
                format!("inst__I-{t}-0:load"),
                format!("inst__I-{t}-0:mm"),
                format!("inst__I-{t}-0:act"),
                format!("inst__I-{t}-0:store"),
            ];
            // Semaphores 4..104 pace the groups; the queues' blocks have their own ids
            // ([`IO_SEMAPHORES`], [`REMOTE_SEMAPHORES`]), so no semaphore is shared by two
            // roles on one core only.
            let s = sem % 100 + 4;
            sem += 1;
            let start = (t as u64) * 10 + rng.below(5);
            let mut load = json!({
                "name": names[0], "opcode": "DMACopy", "engine": "DMA", "queue": DMA_QUEUE,
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
            {"name": "qSyncIO_main", "instructions": dma_blocks("io", 3, core, IO_SEMAPHORES)},
            {"instructions": dma_blocks("io_tail", 2, core, IO_SEMAPHORES + 4)},
        ],
    })];
    if n > 1 && config.remote_dma > 0 {
        let blocks: Vec<Value> = (0..config.remote_dma)
            .map(|k| {
                let local = REMOTE_SEMAPHORES + (k as u64) * n + core;
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

pub(super) fn mk_set(
    name: &str,
    kind: &str,
    space: &str,
    dtype: &str,
    shape: &[u64],
    memlocs: Vec<impl Into<Value>>,
) -> Value {
    json!({
        "name": name, "Skind": "memory_location_set", "kind": kind, "addr_space": space,
        "dtype": dtype, "tensor_shape": shape,
        "memorylocations": memlocs.into_iter().map(Into::into).collect::<Vec<Value>>(),
    })
}

pub(super) fn memloc_dram(name: &str, addr: u64, allocated: bool) -> Map<String, Value> {
    match json!({"name": name, "type": "DRAM", "addr": addr, "bank": 0, "base": 0, "allocated": allocated, "dims": [131072]})
    {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

pub(super) fn ap(memref: &str, dtype: &str) -> Value {
    json!({"kind": "physical_ap", "memref": memref, "dtype": dtype, "ap": [[512, 128], [1, 512]], "offset": 0})
}

pub(super) fn dma_blocks(prefix: &str, count: usize, core: u64, base: u64) -> Vec<Value> {
    (0..count)
        .map(|i| {
            json!({
                "name": format!("{prefix}_dma_{i}"), "opcode": "DMABlock", "engine": "DMA", "block_id": i,
                "sync_info": {"on_update": [{"id": base + i as u64 + core * 8, "update_value": 1, "mode": "sem-inc"}]},
            })
        })
        .collect()
}

pub(super) fn loop_nest(depth: usize, level: usize, counter: &mut usize) -> Value {
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
