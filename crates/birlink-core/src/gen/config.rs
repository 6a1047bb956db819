//! What to generate (`GenConfig`, with the defaults `birlink gen` shows) and how to lay
//! it out (`Layout`).

use crate::diag::codes::Code;
use crate::model::flow::Flow;

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
    /// CoreBarriers per core (at least two when several cores share memory: the first
    /// orders the handoffs' writes before their reads, the last the reads before the next
    /// call's writes).
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
    /// Keys sorted (libBIR's writer), or in a producer's own order (`output::layout`).
    pub sorted: bool,
    /// The instructions' shape: the generator's few keys, or a real dump's header.
    pub shape: Shape,
    /// Seed of the pseudo-random choices.
    pub seed: u64,
    /// A fault to inject, by code.
    pub fault: Option<Code>,
    /// A failure shaped like a public report, applied before any fault.
    pub scenario: Option<Scenario>,
    /// How the compiler would link it: the seeds' one-module-per-core set, or a grid of
    /// cores × subgraphs in the flat or modular flow (`gen::grid`).
    pub flow: Flow,
    /// Subgraphs per core (the modular flow's definitions).
    pub subgraphs: u32,
    /// Partitions in the netlist (the modular flow's calls).
    pub partitions: usize,
    /// Which intermediates the netlist's `PartIOs` lists beside the model tensors.
    pub io_shape: IoShape,
    /// The model inputs (weights) each layer partition takes: 2, or a real layer's
    /// hundreds (the BirLinker block of a real compile lists them as `Inp[k]` lines).
    pub weights: usize,
}

/// Which intermediates a netlist partition's `PartIOs.Inputs` and `PartIOs.Outputs` list
/// beside its model tensors (its `IntermediateIOs` lists them all). The compiler's key
/// layout is not public: birlink reads every shape (docs/spec/link.md §0.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum IoShape {
    /// `Inputs` and `Outputs` hold the model tensors only (every sample).
    #[default]
    Apart,
    /// `Inputs` holds the intermediates the partition reads too, in formal order.
    InInputs,
    /// `Outputs` holds the intermediates it writes too, in formal order.
    InOutputs,
    /// Both.
    InBoth,
}

impl IoShape {
    /// Every shape.
    pub const ALL: [IoShape; 4] = [IoShape::Apart, IoShape::InInputs, IoShape::InOutputs, IoShape::InBoth];

    /// Whether `Inputs` lists the intermediates read.
    pub fn inputs_hold_intermediates(self) -> bool {
        matches!(self, IoShape::InInputs | IoShape::InBoth)
    }

    /// Whether `Outputs` lists the intermediates written.
    pub fn outputs_hold_intermediates(self) -> bool {
        matches!(self, IoShape::InOutputs | IoShape::InBoth)
    }
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
            sorted: true,
            shape: Shape::Gen,
            seed: 1,
            fault: None,
            scenario: None,
            flow: Flow::Seeds,
            subgraphs: 3,
            partitions: 48,
            io_shape: IoShape::Apart,
            weights: 2,
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

/// What an instruction carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// The keys the passes read, and a few more (`sync_info`, `dependencies` on the
    /// common instructions): the shape of every sample and snapshot.
    #[default]
    Gen,
    /// A real dump's header on every instruction: `origin`, `engine_id`,
    /// `optin_passes`, `debug` (file, line, op), operands with their set, owner function
    /// and access shape, typed `sync_info` entries (`gen::real`).
    Real,
    /// Short real instructions, about 400 bytes each compact: the generator's keys, two
    /// `physical_ap` operands, one semaphore wait, one dependency, a short `debug`
    /// (`gen::short`). The shape where holding an instruction, not its text, weighs most.
    Short,
}

/// A failure as users reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scenario {
    /// A ring-attention kernel whose cores exchange K through `inst__I-5-0:send_k_buf`,
    /// launched without its LNC grid: only core 0's module has the kernel's buffers, so
    /// core 0's remote view of core 1's `send_k_buf` finds nothing there (the
    /// compiler's `NCC_ILLC059`, birlink's 1514). Needs `ring` and two cores.
    RingAttentionWithoutGrid,
    /// A `sendrecv` called twice: core 1 names its sixth CoreBarrier after the first
    /// call (`CoreBarrier-0_180`) where core 0 names it after the second
    /// (`CoreBarrier-0_480`) (the compiler's `NCC_IXLV002`, birlink's 1189).
    SendrecvCalledTwice,
    /// The same kernel with its `sendrecv` called once: every core names its barriers
    /// alike (`CoreBarrier-0_480` on both); it links. The other half of the
    /// NCC_IXLV002 comparison.
    SendrecvCalledOnce,
    /// The public `NRT status 5` case: a core barrier switched off on one path (core
    /// 1's last one): core 0 waits there for core 1, which finished.
    BarrierOnOnePath,
    /// A wait for a tile core 0's remote DMA block signals, on a semaphore the signal does
    /// not go to (`vnc_link` relinked it to another id): core 1 waits for ever.
    SignalToAnotherSemaphore,
    /// A loop holding a barrier runs 4 times on core 0 and 2 on core 1: core 0 waits at
    /// its third iteration's barrier for core 1, which finished.
    TripCountDiffers,
    /// Core 1 reads core 0's tile of C before the barrier that orders its store: a
    /// cross-core race.
    HandoffRace,
}

impl GenConfig {
    /// The options a generated set is linked with: the seeds' reading asked for when it
    /// is one (a bundle says so itself, files cannot), else the flow decided as the
    /// compiler decides it.
    pub fn link_options(&self) -> crate::passes::LinkOptions {
        crate::passes::LinkOptions { flow: (self.flow == Flow::Seeds).then_some(Flow::Seeds), ..Default::default() }
    }
}
