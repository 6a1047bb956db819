//! `report.json`: one document describing a run (contract §7).
//!
//! It is the single source for the CLI's summary and for every view of the UI, so it
//! carries what each pass did (rows in pipeline order), what each step changed (edits
//! with the canonical text before and after), and every diagnostic. The field names of
//! the contract are never renamed; fields may be added. All lists are `Vec`s in pipeline
//! order: no hash-map order ever reaches the output.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diag::Diagnostic;
use crate::input::FileKind;
use crate::ir::PhysTuple;

/// The whole report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The tool that wrote it.
    pub tool: Tool,
    /// The options in force.
    pub options: Options,
    /// One row per module read (and per file that could not be).
    pub inputs: Vec<InputRow>,
    /// The passes in pipeline order.
    pub passes: Vec<PassRow>,
    /// The dispatcher's calls.
    pub dispatcher: Vec<DispatchRow>,
    /// Cross-core alias edges made by bir_linker.
    pub aliases: Vec<AliasRow>,
    /// Sets whose kind bir_linker changed.
    pub output_kinds: Vec<OutputKindRow>,
    /// Merged DMA queues.
    pub queues: Vec<QueueRow>,
    /// Renumbered CoreBarriers in walk order.
    pub barriers: Vec<BarrierRow>,
    /// vnc_remote_addr_map's copies.
    pub address_map: Vec<AddressRow>,
    /// vnc_link's collection and relocations.
    pub semaphores: Semaphores,
    /// Every diagnostic, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

/// `tool`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// `birlink`.
    pub name: String,
    /// The crate version.
    pub version: String,
}

impl Default for Tool {
    fn default() -> Self {
        Tool { name: "birlink".to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() }
    }
}

/// `options`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// `vnc_nc_count`: the expected number of cores.
    pub lnc: u64,
    /// Where `lnc` came from: `option`, `bundle`, `netlist` or `modules`.
    pub lnc_source: String,
    /// Base name of the linked module (`<base>/sgLnk`), once known.
    pub base_name: Option<String>,
    /// The linked module's name.
    pub linked_name: Option<String>,
    /// The passes that were asked for, in order.
    pub passes: Vec<String>,
}

/// `inputs[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputRow {
    /// The file.
    pub file: String,
    /// What the file was.
    pub kind: FileKind,
    /// JSON pointer of the module in the file (`""`, or `/modules/<i>` in a bundle).
    pub pointer: String,
    /// The module's name, for modules.
    pub module: Option<String>,
    /// The module's core id, when present.
    pub core: Option<u64>,
    /// Number of functions.
    pub functions: u64,
    /// Number of instructions (functions and queues, nested included).
    pub instructions: u64,
    /// Number of memory locations.
    pub memlocs: u64,
    /// Number of queues.
    pub queues: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// `ok`, `warning` or `error`: the worst diagnostic pointing into this module/file.
    pub status: String,
}

/// `passes[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRow {
    /// `verify`, `bir_linker`, `vnc_remote_addr_map`, `vnc_link`.
    pub name: String,
    /// `ok`, `error` or `skipped`.
    pub status: String,
    /// Its steps in order.
    pub steps: Vec<StepRow>,
}

/// One step of a pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRow {
    /// The step's name.
    pub name: String,
    /// How many entities it changed or added.
    pub changes: u64,
    /// What it changed, as canonical text before and after.
    pub edits: Vec<Edit>,
}

/// One changed entity: its canonical line before and after a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// The unit it belongs to: `module`, `function <name>`, `queue <name>`.
    pub unit: String,
    /// Where in the unit: `block <name>`, `set <name>`, `instance <name>`, or empty.
    pub context: String,
    /// The canonical line before the step (`None`: added).
    pub before: Option<String>,
    /// The canonical line after the step.
    pub after: Option<String>,
}

/// `dispatcher[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchRow {
    /// `call_def_<core>_instance_0`.
    pub call: String,
    /// The core.
    pub core: u64,
    /// The called function.
    pub target: String,
}

/// One side of an alias edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasEnd {
    /// The core.
    pub core: u64,
    /// The function holding the location.
    pub function: String,
    /// The set.
    pub set: String,
    /// The location.
    pub memloc: String,
}

/// `aliases[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasRow {
    /// The side that reads (the remote view).
    pub consumer: AliasEnd,
    /// The side that owns the memory.
    pub producer: AliasEnd,
    /// Alias kind after OR-merging.
    pub kind: u64,
    /// `remote_local_target` or `netlist`.
    pub source: String,
}

/// `output_kinds[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputKindRow {
    /// The core.
    pub core: u64,
    /// The function holding the set.
    pub function: String,
    /// The set.
    pub set: String,
    /// Kind before.
    pub from: String,
    /// Kind after.
    pub to: String,
}

/// `queues[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueRow {
    /// The queue.
    pub name: String,
    /// Its instances in merged order.
    pub instances: Vec<InstanceRow>,
    /// Semaphore accounting.
    pub semaphores: SemaphoreCount,
}

/// One merged queue instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceRow {
    /// The core.
    pub core: u64,
    /// Its linked name (`<instance>_defId_<core>`).
    pub name: String,
    /// Its name in the input (`<queue>_<index>` when it had none).
    pub source_name: String,
}

/// Distinct local semaphore ids of a queue's DMA blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemaphoreCount {
    /// Sum over cores.
    pub total: u64,
    /// Per core, indexed by core id.
    pub per_core: Vec<u64>,
}

/// `barriers[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierRow {
    /// The core whose function holds it (`None` for `main`).
    pub core: Option<u64>,
    /// The function.
    pub function: String,
    /// The instruction's name.
    pub instruction: String,
    /// Its id before renumbering.
    pub old_id: u64,
    /// Its global id.
    pub new_id: u64,
}

/// `address_map[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressRow {
    /// The view's core.
    pub core: u64,
    /// The view's function.
    pub function: String,
    /// The view's set.
    pub set: String,
    /// The view.
    pub memloc: String,
    /// The owner core.
    pub owner_core: u64,
    /// The owner's function.
    pub owner_function: String,
    /// The owner's location name.
    pub remote: String,
    /// The view's tuple before.
    pub before: PhysTuple,
    /// After the copy (the owner's tuple).
    pub after: PhysTuple,
}

/// `semaphores`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Semaphores {
    /// Remote DMA blocks collected per core (the 1512 lockstep check).
    pub counts: Vec<SemaphoreBlocks>,
    /// Every relocation.
    pub relocations: Vec<Relocation>,
}

/// `semaphores.counts[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemaphoreBlocks {
    /// The core.
    pub core: u64,
    /// Its core function.
    pub function: String,
    /// Collected remote DMA blocks.
    pub remote_dma_blocks: u64,
}

/// `semaphores.relocations[]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Relocation {
    /// The core whose block is relinked.
    pub core: u64,
    /// The block.
    pub block: String,
    /// Where it lives: a function or a queue instance.
    pub block_parent: String,
    /// Its ordinal among the core's collected blocks.
    pub ordinal: u64,
    /// Index of the update in its `on_update`.
    pub update: u64,
    /// The target core.
    pub target_core: u64,
    /// The peer block (the target core's block of the same ordinal).
    pub peer_block: String,
    /// Where the peer lives.
    pub peer_parent: String,
    /// The id before.
    pub old_id: Value,
    /// The peer's local id, now the update's id.
    pub new_id: Value,
}
