//! What the fuzz targets share: turning fuzzer bytes into link sets, and the check.
//!
//! * [`split_files`] — raw bytes as up to six files (split at `0xFF`, a byte no UTF-8
//!   JSON text holds), for `read_bytes`.
//! * [`FuzzSet`] — a structured link set (`arbitrary`-derived): modules, functions,
//!   memory locations with remote targets, blocks, every instruction kind the passes act
//!   on, queues with DMA blocks, netlists, options. Names come from a small table so
//!   references collide, resolve and miss the way real ones do. For `link_set`.
//! * [`Mutated`] — a generated, valid link set and a list of edits to its JSON (delete,
//!   replace, retype, rename, duplicate, move), for `mutate_generated`.
//!
//! Every target ends in [`birlink_core::selfcheck::check_run`].

use arbitrary::{Arbitrary, Result, Unstructured};
use serde_json::{json, Map, Value};

use birlink_core::gen::{self, GenConfig};
use birlink_core::{LinkOptions, SourceFile};

/// Runs the pipeline and the invariant checks; panics (a finding) when one breaks.
pub fn check(sources: Vec<SourceFile>, options: &LinkOptions) {
    if let Err(problem) = birlink_core::selfcheck::check_run(sources, options) {
        panic!("invariant broken: {problem}");
    }
}

/// Raw bytes as files: split at `0xFF`, at most six, named like per-core files.
pub fn split_files(data: &[u8]) -> Vec<SourceFile> {
    data.split(|b| *b == 0xFF)
        .take(6)
        .enumerate()
        .map(|(i, part)| SourceFile {
            path: format!("nc{i:02}.json"),
            content: Ok(part.to_vec()),
            role: birlink_core::Role::Auto,
        })
        .collect()
}

/// Raw files joined the way [`split_files`] splits them (for seeding the corpus).
pub fn join_files(files: &[Vec<u8>]) -> Vec<u8> {
    files.join(&[0xFFu8][..])
}

const NAMES: [&str; 16] = [
    "main", "a", "b", "c_partial_0", "c_partial_1", "qSyncIO", "qRemoteSem", "Block1", "Block2", "entry", "x", "in",
    "out", "q0", "def", "sg00",
];

/// A name: mostly from [`NAMES`] (so they collide), sometimes any text.
#[derive(Debug, Clone)]
pub struct Name(pub String);

impl<'a> Arbitrary<'a> for Name {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Name(match u.int_in_range(0u8..=19)? {
            i @ 0..=15 => NAMES[i as usize].to_owned(),
            16 => format!("{}/{}", NAMES[u.choose_index(NAMES.len())?], NAMES[u.choose_index(NAMES.len())?]),
            17 => format!("{}_{}", NAMES[u.choose_index(NAMES.len())?], u.int_in_range(0u8..=3)?),
            _ => String::arbitrary(u)?,
        }))
    }
}

/// A small JSON value of any type, for ids, addresses and unknown keys.
#[derive(Debug, Clone, Arbitrary)]
pub enum Scalar {
    /// A small non-negative integer.
    Small(u8),
    /// Any integer.
    Int(i64),
    /// Any unsigned integer.
    Big(u64),
    /// A float.
    Float(f64),
    /// Text.
    Text(Name),
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An empty array.
    Array,
    /// An empty object.
    Object,
}

impl Scalar {
    fn value(&self) -> Value {
        match self {
            Scalar::Small(n) => json!(n),
            Scalar::Int(n) => json!(n),
            Scalar::Big(n) => json!(n),
            Scalar::Float(f) => json!(f),
            Scalar::Text(n) => json!(n.0),
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => json!(b),
            Scalar::Array => json!([]),
            Scalar::Object => json!({}),
        }
    }
}

/// A structured link set.
#[derive(Debug, Arbitrary)]
pub struct FuzzSet {
    /// The per-core modules.
    pub modules: Vec<FuzzModule>,
    /// `--lnc`.
    pub lnc: Option<u8>,
    /// One bundle instead of per-core files.
    pub bundle: bool,
    /// A netlist file.
    pub netlist: Option<FuzzNetlist>,
    /// `--passes`: a contiguous run given by its first and last index.
    pub passes: Option<(u8, u8)>,
}

/// A netlist.
#[derive(Debug, Arbitrary)]
pub struct FuzzNetlist {
    /// `lnc`.
    pub lnc: Option<Scalar>,
    /// `aliases`: (consumer core, memloc, producer core, memloc, kind).
    pub aliases: Vec<(u8, Name, u8, Name, Option<Scalar>)>,
    /// `outputs`: memloc names (the number is unused).
    pub outputs: Vec<(u8, Name)>,
}

/// One module.
#[derive(Debug, Arbitrary)]
pub struct FuzzModule {
    /// `attributes.neuron_core_id`.
    pub core: Option<Scalar>,
    /// `name`.
    pub name: Option<Name>,
    /// `version`.
    pub version: Option<Scalar>,
    /// Functions.
    pub functions: Vec<FuzzFunction>,
    /// Queues.
    pub queues: Vec<FuzzQueue>,
    /// An unknown key.
    pub extra: Option<(Name, Scalar)>,
}

/// One function.
#[derive(Debug, Arbitrary)]
pub struct FuzzFunction {
    /// `name`.
    pub name: Name,
    /// `attributes.neuron_core_id` (an already-linked function).
    pub core_tag: Option<u8>,
    /// Memory-location sets.
    pub sets: Vec<FuzzMemSet>,
    /// Blocks.
    pub blocks: Vec<FuzzBlock>,
}

/// A memory-location set.
#[derive(Debug, Arbitrary)]
pub struct FuzzMemSet {
    /// `name`.
    pub name: Name,
    /// `kind`.
    pub kind: SetKind,
    /// Its memory locations.
    pub memlocs: Vec<FuzzMemloc>,
}

/// A set's `kind`.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum SetKind {
    /// `ExternalInput`.
    Input,
    /// `ExternalOutput`.
    Output,
    /// `Internal`.
    Internal,
    /// `Const`.
    Const,
}

/// A memory location.
#[derive(Debug, Arbitrary)]
pub struct FuzzMemloc {
    /// `name`.
    pub name: Name,
    /// `type`: DRAM, SB, PSUM or anything.
    pub ty: u8,
    /// `addr`.
    pub addr: Scalar,
    /// `remote_local_target`: (name, core).
    pub remote: Option<(Name, Scalar)>,
    /// `is_shared_post_dram_alloc`.
    pub shared: bool,
    /// `allocated`.
    pub allocated: bool,
}

/// A block.
#[derive(Debug, Arbitrary)]
pub struct FuzzBlock {
    /// `name`.
    pub name: Option<Name>,
    /// Its instructions.
    pub insts: Vec<FuzzInst>,
}

/// An instruction.
#[derive(Debug, Arbitrary)]
pub enum FuzzInst {
    /// A compute instruction reading and writing memory locations.
    Compute {
        /// `name`.
        name: Name,
        /// `ins[].memref`.
        ins: Vec<Name>,
        /// `outs[].memref`.
        outs: Vec<Name>,
    },
    /// A `DMACopy` on a queue.
    Dma {
        /// `name`.
        name: Name,
        /// `queue`.
        queue: Name,
        /// `ins[].memref`.
        from: Name,
    },
    /// A `CoreBarrier`.
    Barrier {
        /// `name`.
        name: Name,
        /// `id`, or none.
        id: Option<Scalar>,
        /// `cores`.
        cores: Vec<u8>,
    },
    /// An `UnconditionalBranch`.
    Branch {
        /// `name`.
        name: Name,
        /// `target`.
        target: Name,
    },
    /// A `Call`.
    Call {
        /// `name`.
        name: Name,
        /// `target`.
        target: Name,
    },
    /// A `SwitchQueueInstance`.
    Switch {
        /// `name`.
        name: Name,
        /// `queue`.
        queue: Name,
        /// `instance`.
        instance: Name,
    },
    /// A `Loop` with nested blocks.
    Loop {
        /// `name`.
        name: Name,
        /// `blocks`.
        body: Vec<FuzzBlock>,
    },
    /// A `DMABlock` with semaphore updates.
    DmaBlock(FuzzDmaBlock),
    /// An instruction with an arbitrary opcode and one unknown key.
    Other {
        /// `name`.
        name: Option<Name>,
        /// `opcode`.
        opcode: Option<Scalar>,
        /// An unknown key.
        extra: (Name, Scalar),
    },
}

/// A `DMABlock`.
#[derive(Debug, Arbitrary)]
pub struct FuzzDmaBlock {
    /// `name`.
    pub name: Name,
    /// `sync_info.on_update`: (id, target_core).
    pub updates: Vec<(Scalar, Option<Scalar>)>,
    /// `remote_notifications`.
    pub notifications: Option<Vec<u8>>,
}

/// A DMA queue.
#[derive(Debug, Arbitrary)]
pub struct FuzzQueue {
    /// `name`.
    pub name: Name,
    /// `num_dma_engines`.
    pub engines: Scalar,
    /// Queue instances (`blocks`): a name and DMA blocks.
    pub instances: Vec<(Option<Name>, Vec<FuzzDmaBlock>)>,
}

fn inst_value(inst: &FuzzInst, depth: usize) -> Value {
    let operand = |m: &Name| json!({"memref": m.0, "kind": "physical_ap", "offset": 0, "ap": [[1, 1]]});
    match inst {
        FuzzInst::Compute { name, ins, outs } => json!({
            "name": name.0, "opcode": "TensorCopy", "engine": "DVE",
            "ins": ins.iter().map(operand).collect::<Vec<_>>(),
            "outs": outs.iter().map(operand).collect::<Vec<_>>(),
        }),
        FuzzInst::Dma { name, queue, from } => json!({
            "name": name.0, "opcode": "DMACopy", "engine": "DMA", "queue": queue.0, "ins": [operand(from)], "outs": [],
        }),
        FuzzInst::Barrier { name, id, cores } => {
            let mut v = json!({"name": name.0, "opcode": "CoreBarrier", "engine": "SP", "cores": cores});
            if let Some(id) = id {
                v["id"] = id.value();
            }
            v
        }
        FuzzInst::Branch { name, target } => {
            json!({"name": name.0, "opcode": "UnconditionalBranch", "engine": "SP", "target": target.0})
        }
        FuzzInst::Call { name, target } => json!({"name": name.0, "opcode": "Call", "target": target.0}),
        FuzzInst::Switch { name, queue, instance } => {
            json!({"name": name.0, "opcode": "SwitchQueueInstance", "queue": queue.0, "instance": instance.0})
        }
        FuzzInst::Loop { name, body } => {
            // Nesting is bounded here only to keep inputs small; the reader bounds it too.
            let blocks: Vec<Value> =
                if depth < 6 { body.iter().map(|b| block_value(b, depth + 1)).collect() } else { Vec::new() };
            json!({"name": name.0, "opcode": "Loop", "engine": "SP", "LoopAxis": {"lb": 0, "ub": 2, "stride": 1}, "blocks": blocks})
        }
        FuzzInst::DmaBlock(block) => dma_block_value(block),
        FuzzInst::Other { name, opcode, extra } => {
            let mut v = Map::new();
            if let Some(name) = name {
                v.insert("name".into(), json!(name.0));
            }
            if let Some(opcode) = opcode {
                v.insert("opcode".into(), opcode.value());
            }
            v.insert(extra.0 .0.clone(), extra.1.value());
            Value::Object(v)
        }
    }
}

fn dma_block_value(block: &FuzzDmaBlock) -> Value {
    let updates: Vec<Value> = block
        .updates
        .iter()
        .map(|(id, target)| {
            let mut u = json!({"id": id.value(), "mode": "sem-inc", "update_value": 1});
            if let Some(target) = target {
                u["target_core"] = target.value();
            }
            u
        })
        .collect();
    let mut v = json!({"name": block.name.0, "opcode": "DMABlock", "engine": "DMA", "sync_info": {"on_update": updates}});
    if let Some(n) = &block.notifications {
        v["remote_notifications"] = json!(n);
    }
    v
}

fn block_value(block: &FuzzBlock, depth: usize) -> Value {
    let mut v = json!({"instructions": block.insts.iter().map(|i| inst_value(i, depth)).collect::<Vec<_>>()});
    if let Some(name) = &block.name {
        v["name"] = json!(name.0);
    }
    v
}

impl FuzzModule {
    /// The module's JSON.
    pub fn value(&self) -> Value {
        let functions: Vec<Value> = self
            .functions
            .iter()
            .map(|f| {
                let allocations: Vec<Value> = f
                    .sets
                    .iter()
                    .map(|s| {
                        let memlocs: Vec<Value> = s
                            .memlocs
                            .iter()
                            .map(|m| {
                                let ty = match m.ty % 4 {
                                    0 | 1 => "DRAM",
                                    2 => "SB",
                                    _ => "PSUM",
                                };
                                let mut v = json!({
                                    "name": m.name.0, "type": ty, "addr": m.addr.value(), "bank": 0, "base": 0,
                                    "allocated": m.allocated,
                                });
                                if m.shared {
                                    v["is_shared_post_dram_alloc"] = json!(true);
                                }
                                if let Some((name, core)) = &m.remote {
                                    v["remote_local_target"] = json!([name.0, core.value()]);
                                }
                                v
                            })
                            .collect();
                        let kind = match s.kind {
                            SetKind::Input => "ExternalInput",
                            SetKind::Output => "ExternalOutput",
                            SetKind::Internal => "Internal",
                            SetKind::Const => "Const",
                        };
                        json!({"Skind": "memory_location_set", "name": s.name.0, "kind": kind, "addr_space": "Local", "memorylocations": memlocs})
                    })
                    .collect();
                let mut v = json!({
                    "name": f.name.0,
                    "allocations": allocations,
                    "blocks": f.blocks.iter().map(|b| block_value(b, 0)).collect::<Vec<_>>(),
                });
                if let Some(core) = f.core_tag {
                    v["attributes"] = json!({"neuron_core_id": core});
                }
                v
            })
            .collect();
        let queues: Vec<Value> = self
            .queues
            .iter()
            .map(|q| {
                let instances: Vec<Value> = q
                    .instances
                    .iter()
                    .map(|(name, blocks)| {
                        let mut v = json!({"instructions": blocks.iter().map(dma_block_value).collect::<Vec<_>>()});
                        if let Some(name) = name {
                            v["name"] = json!(name.0);
                        }
                        v
                    })
                    .collect();
                json!({"name": q.name.0, "num_dma_engines": q.engines.value(), "blocks": instances})
            })
            .collect();
        let mut v = json!({"arch": "gen3", "functions": functions, "queues": queues});
        if let Some(core) = &self.core {
            v["attributes"] = json!({"neuron_core_id": core.value()});
        }
        if let Some(name) = &self.name {
            v["name"] = json!(name.0);
        }
        if let Some(version) = &self.version {
            v["version"] = version.value();
        }
        if let Some((key, value)) = &self.extra {
            v[key.0.as_str()] = value.value();
        }
        v
    }
}

impl FuzzSet {
    /// The files and options of this link set.
    pub fn sources(&self) -> (Vec<SourceFile>, LinkOptions) {
        let mut files = Vec::new();
        let modules: Vec<Value> = self.modules.iter().take(6).map(FuzzModule::value).collect();
        if self.bundle {
            files.push(SourceFile::text("bundle.json", json!({ "modules": modules }).to_string()));
        } else {
            for (i, module) in modules.iter().enumerate() {
                files.push(SourceFile::text(format!("nc{i:02}.json"), module.to_string()));
            }
        }
        if let Some(netlist) = &self.netlist {
            let mut v = json!({
                "aliases": netlist.aliases.iter().map(|(c, m, o, n, kind)| {
                    let mut a = json!({"consumer": {"core": c, "memloc": m.0}, "producer": {"core": o, "memloc": n.0}});
                    if let Some(kind) = kind { a["kind"] = kind.value(); }
                    a
                }).collect::<Vec<_>>(),
                "outputs": netlist.outputs.iter().map(|(_, m)| json!(m.0)).collect::<Vec<_>>(),
            });
            if let Some(lnc) = &netlist.lnc {
                v["lnc"] = lnc.value();
            }
            files.push(SourceFile::text("netlist.json", v.to_string()));
        }
        let passes = self.passes.map(|(a, b)| {
            let (a, b) = (a as usize % 4, b as usize % 4);
            let (first, last) = (a.min(b), a.max(b));
            birlink_core::passes::PASSES[first..=last].iter().map(|p| (*p).to_owned()).collect()
        });
        let options = LinkOptions { lnc: self.lnc.map(|n| n as u64 % 10), passes, ..LinkOptions::default() };
        (files, options)
    }
}

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
