//! The `link_set` target's model: a structured link set (`arbitrary`-derived) with
//! modules, functions, memory locations with remote targets, blocks, every instruction
//! kind the passes act on, queues with DMA blocks, netlists and options — laid out as
//! the seeds' per-core files, a bundle, or a compiler work directory whose modules sit
//! at places of a grid (`ncCC/sgKK/bir.json`, `ncCC/sgLnk/…`), with a netlist in the
//! compiler's keys (`PartMap` with `PartIOs`, `IntermediateIOs`, `DefMap`) or birlink's
//! older ones, linked in the flow the compiler would take or in one asked for.

use arbitrary::Arbitrary;
use serde_json::{json, Map, Value};

use birlink_core::{Flow, LinkOptions, SourceFile};

use crate::{Name, Scalar};

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
    /// The modules as a work directory's dumps, each at its place (else per-core files
    /// `ncCC.json`, or the bundle).
    pub grid: bool,
    /// `--flow` (modulo 4: none, the compiler's choice; modular; flat; seeds).
    pub flow: u8,
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
    /// `PartMap`: the compiler's partitions.
    pub partitions: Vec<FuzzPartition>,
    /// The root `IntermediateIOs`.
    pub intermediates: Vec<Name>,
    /// The root `DefMap`.
    pub def_map: Option<Vec<Scalar>>,
}

/// One partition of a compiler netlist's `PartMap`.
#[derive(Debug, Arbitrary)]
pub struct FuzzPartition {
    /// `DefID`, when it has one.
    pub def: Option<Scalar>,
    /// `PartIOs.Inputs`.
    pub inputs: Vec<Name>,
    /// `PartIOs.IntermediateIOs`.
    pub intermediates: Vec<Name>,
    /// `PartIOs.Outputs`, when it has them.
    pub outputs: Option<Vec<Name>>,
}

/// One module.
#[derive(Debug, Arbitrary)]
pub struct FuzzModule {
    /// Its place in a work directory: its core folder and its subgraph folder (`None`:
    /// the core's `sgLnk`).
    pub place: (u8, Option<u8>),
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
    let mut v =
        json!({"name": block.name.0, "opcode": "DMABlock", "engine": "DMA", "sync_info": {"on_update": updates}});
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

impl FuzzNetlist {
    /// The netlist's JSON: the older keys, and the compiler's when it has partitions.
    fn value(&self) -> Value {
        let names = |list: &[Name]| list.iter().map(|n| json!(n.0)).collect::<Vec<_>>();
        let mut v = json!({
            "aliases": self.aliases.iter().map(|(c, m, o, n, kind)| {
                let mut a = json!({"consumer": {"core": c, "memloc": m.0}, "producer": {"core": o, "memloc": n.0}});
                if let Some(kind) = kind { a["kind"] = kind.value(); }
                a
            }).collect::<Vec<_>>(),
            "outputs": self.outputs.iter().map(|(_, m)| json!(m.0)).collect::<Vec<_>>(),
        });
        if let Some(lnc) = &self.lnc {
            v["lnc"] = lnc.value();
        }
        if !self.partitions.is_empty() {
            let parts: Vec<Value> = self
                .partitions
                .iter()
                .take(12)
                .map(|p| {
                    let mut ios = json!({"Inputs": names(&p.inputs), "IntermediateIOs": names(&p.intermediates)});
                    if let Some(outputs) = &p.outputs {
                        ios["Outputs"] = json!(names(outputs));
                    }
                    let mut part = json!({"PartIOs": ios});
                    if let Some(def) = &p.def {
                        part["DefID"] = def.value();
                    }
                    part
                })
                .collect();
            v["PartMap"] = json!(parts);
            v["IntermediateIOs"] = json!(names(&self.intermediates));
            if let Some(def_map) = &self.def_map {
                v["DefMap"] = json!(def_map.iter().map(Scalar::value).collect::<Vec<_>>());
            }
        }
        v
    }
}

impl FuzzSet {
    /// The files and options of this link set.
    pub fn sources(&self) -> (Vec<SourceFile>, LinkOptions) {
        let mut files = Vec::new();
        let modules: Vec<Value> = self.modules.iter().take(6).map(FuzzModule::value).collect();
        if self.grid {
            for (module, value) in self.modules.iter().take(6).zip(&modules) {
                let (core, subgraph) = module.place;
                let slot = subgraph.map_or_else(|| "sgLnk".to_owned(), |s| format!("sg{:02}", s % 4));
                let path = format!("work/nc{:02}/{slot}/bir_debug.3.after-dep_reduction.json", core % 4);
                files.push(SourceFile::text(path, value.to_string()));
            }
        } else if self.bundle {
            files.push(SourceFile::text("bundle.json", json!({ "modules": modules }).to_string()));
        } else {
            for (i, module) in modules.iter().enumerate() {
                files.push(SourceFile::text(format!("nc{i:02}.json"), module.to_string()));
            }
        }
        if let Some(netlist) = &self.netlist {
            let name = if self.grid { "work/hlo_netlist.json" } else { "netlist.json" };
            files.push(SourceFile::text(name, netlist.value().to_string()));
        }
        let passes = self.passes.map(|(a, b)| {
            let (a, b) = (a as usize % 4, b as usize % 4);
            let (first, last) = (a.min(b), a.max(b));
            birlink_core::Pass::PIPELINE[first..=last].iter().map(|p| p.as_str().to_owned()).collect()
        });
        let flow = [None, Some(Flow::Modular), Some(Flow::Flat), Some(Flow::Seeds)][usize::from(self.flow % 4)];
        let options = LinkOptions { lnc: self.lnc.map(|n| n as u64 % 10), passes, flow, ..LinkOptions::default() };
        (files, options)
    }
}
