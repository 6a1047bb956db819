//! `birlink gen`: a synthetic SPMD link set, optionally with one injected fault. The
//! defaults are `GenConfig::default()`'s, so the CLI and the library never disagree.

use std::path::PathBuf;
use std::sync::LazyLock;

use clap::{Args, ValueEnum};

use birlink_core::gen::{GenConfig, IoShape, Layout};
use birlink_core::Code;

use super::{Error, Outcome, Status};
use crate::out::outln;

static DEFAULTS: LazyLock<GenConfig> = LazyLock::new(GenConfig::default);

/// `birlink gen`'s arguments.
#[derive(Args)]
pub struct GenArgs {
    /// Number of cores.
    #[arg(long, default_value_t = DEFAULTS.cores)]
    cores: u64,
    /// Instructions per core, approximately.
    #[arg(long, default_value_t = DEFAULTS.insts)]
    insts: usize,
    /// Shared HBM tensors core 0 produces and every other core reads through a remote view.
    #[arg(long, default_value_t = DEFAULTS.handoffs)]
    handoffs: usize,
    /// Remote-notifying DMA blocks per core.
    #[arg(long, default_value_t = DEFAULTS.remote_dma)]
    remote_dma: usize,
    /// CoreBarriers per core.
    #[arg(long, default_value_t = DEFAULTS.barriers)]
    barriers: usize,
    /// Depth of nested Loops.
    #[arg(long, default_value_t = DEFAULTS.loop_depth)]
    loops: usize,
    /// Add unknown keys at every level.
    #[arg(long)]
    unknown_keys: bool,
    /// Add a netlist.
    #[arg(long)]
    netlist: bool,
    /// Add a ring of collective staging buffers.
    #[arg(long)]
    ring: bool,
    /// Write compact JSON (one line per file).
    #[arg(long)]
    compact: bool,
    /// Keys sorted (as libBIR's writer prints them) or in a producer's own order.
    #[arg(long, value_enum, default_value_t = KeysArg::Sorted)]
    keys: KeysArg,
    /// The instructions' shape: the generator's few keys; a real dump's header (origin,
    /// engine_id, optin_passes, debug with the kernel's file and line, operands with their
    /// set and owner, typed sync_info entries); or short real instructions (about 400 bytes:
    /// two operands, one wait, one dependency, debug).
    #[arg(long, value_enum, default_value_t = ShapeArg::Gen)]
    shape: ShapeArg,
    /// Seed.
    #[arg(long, default_value_t = DEFAULTS.seed)]
    seed: u64,
    /// Inject one fault, by diagnostic code (see `birlink explain`).
    #[arg(long)]
    fault: Option<String>,
    /// How the compiler would link it: `modular` (a grid of cores × subgraphs and a
    /// netlist of partitions, laid out as a work directory `ncCC/sgKK/bir.json`), `flat`
    /// (one subgraph per core), or `seeds` (one module per core, the seeds' reading; a
    /// bundle says `options.flow: seeds`).
    #[arg(long, value_enum, default_value_t = FlowArg::Seeds)]
    flow: FlowArg,
    /// Subgraphs per core (the modular flow's definitions).
    #[arg(long, default_value_t = DEFAULTS.subgraphs, value_parser = clap::value_parser!(u32).range(1..=64))]
    subgraphs: u32,
    /// Partitions in the netlist (the modular flow's calls; the public MoE compile has 48).
    #[arg(long, default_value_t = DEFAULTS.partitions)]
    partitions: usize,
    /// Which intermediates the modular flow's netlist lists in a partition's
    /// `PartIOs.Inputs` and `PartIOs.Outputs` beside the model tensors (the real layout
    /// is not public; birlink reads every one).
    #[arg(long, value_enum, default_value_t = IoArg::Apart)]
    netlist_io: IoArg,
    /// Model inputs (weights) each layer partition of the modular flow takes (a real
    /// layer takes hundreds: its BirLinker block lists each as an `Inp[k]` line).
    #[arg(long, default_value_t = DEFAULTS.weights)]
    weights: usize,
    /// Write a work directory printed after N passes (`ncCC/sgKK/bir_debug.<n>.after-<pass>…json`, the same module after each: what `birlink history` reads) instead of one module per core.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1000))]
    print_after: Option<u64>,
    /// One bundle file, or one file per core.
    #[arg(long, value_enum, default_value_t = LayoutArg::Files)]
    layout: LayoutArg,
    /// A folder (files layout) or a file (bundle layout).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
enum KeysArg {
    Sorted,
    Producer,
}

#[derive(Clone, Copy, ValueEnum)]
enum ShapeArg {
    Gen,
    Real,
    Short,
}

#[derive(Clone, Copy, ValueEnum)]
enum FlowArg {
    Modular,
    Flat,
    Seeds,
}

#[derive(Clone, Copy, ValueEnum)]
enum IoArg {
    Apart,
    InInputs,
    InOutputs,
    InBoth,
}

#[derive(Clone, Copy, ValueEnum)]
enum LayoutArg {
    Bundle,
    Files,
}

impl GenArgs {
    /// Generates and writes the files.
    pub fn run(self) -> Outcome {
        let fault = match self.fault.as_deref().map(|c| (c, Code::parse(c))) {
            None => None,
            Some((_, Some(code))) if code != Code::InputTooLarge => Some(code),
            Some((text, _)) => {
                return Err(Error(format!(
                    "`{text}` is not a code a fault can be injected for; see `birlink explain`"
                )));
            }
        };
        let config = GenConfig {
            cores: self.cores.max(1),
            insts: self.insts,
            handoffs: self.handoffs,
            remote_dma: self.remote_dma,
            barriers: self.barriers,
            loop_depth: self.loops,
            unknown_keys: self.unknown_keys,
            netlist: self.netlist,
            ring: self.ring,
            compact: self.compact,
            sorted: matches!(self.keys, KeysArg::Sorted),
            shape: match self.shape {
                ShapeArg::Gen => birlink_core::gen::Shape::Gen,
                ShapeArg::Real => birlink_core::gen::Shape::Real,
                ShapeArg::Short => birlink_core::gen::Shape::Short,
            },
            seed: self.seed,
            fault,
            scenario: None,
            flow: match self.flow {
                FlowArg::Modular => birlink_core::Flow::Modular,
                FlowArg::Flat => birlink_core::Flow::Flat,
                FlowArg::Seeds => birlink_core::Flow::Seeds,
            },
            subgraphs: self.subgraphs,
            partitions: self.partitions.max(1),
            weights: self.weights.max(1),
            io_shape: match self.netlist_io {
                IoArg::Apart => IoShape::Apart,
                IoArg::InInputs => IoShape::InInputs,
                IoArg::InOutputs => IoShape::InOutputs,
                IoArg::InBoth => IoShape::InBoth,
            },
        };
        let layout = match self.layout {
            LayoutArg::Bundle => Layout::Bundle,
            LayoutArg::Files => Layout::Files,
        };
        // Streamed: one core's module at a time, written as it is printed, so a set
        // larger than memory can be made.
        let out = &self.out;
        let target = |name: &str| match layout {
            Layout::Bundle if name == "linkset.json" => out.clone(),
            Layout::Bundle => out.with_file_name(name),
            Layout::Files => out.join(name),
        };
        let written = birlink_core::gen::write_files(&config, layout, |name| {
            let path = target(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::File::create(&path).map(|file| std::io::BufWriter::with_capacity(1 << 20, file))
        })
        .map_err(|e| Error(format!("cannot write into `{}`: {e}", out.display())))?;
        let mut written = written;
        if let Some(passes) = self.print_after {
            written = print_after(out, &written, passes as usize)
                .map_err(|e| Error(format!("cannot write into `{}`: {e}", out.display())))?;
        }
        let mut total = 0u64;
        for (name, bytes) in &written {
            total += bytes;
            outln!("wrote {} ({})", target(name).display(), birlink_core::english::human_bytes(*bytes));
        }
        outln!(
            "{}, {} in all",
            birlink_core::english::counted(written.len(), "file"),
            birlink_core::english::human_bytes(total)
        );
        Ok(Status::OK)
    }
}

/// The passes a 2.24 compile prints, in order (the modular flow's, from the public logs),
/// repeated with a number past the end.
const PASSES: &[&str] = &[
    "lnc_verifier",
    "expand_replication",
    "unroll",
    "localize_shared_memory",
    "oom_checker",
    "coloring_allocator_dram",
    "lower_local_collectives",
    "extend_shared_lifetimes",
    "coloring_allocator_dram_shared",
    "sync_shared_allocations",
    "alloc_queues",
    "chain_dma_transposes",
    "insert_dma_switch_queue_instance",
    "prefetch_scheduling_after_sched",
    "lower_control",
    "dep_reduction",
    "lower_dma",
    "alloc_semaphores",
    "lower_sync",
    "lower_act",
    "coloring_allocator_reg",
];

/// Each module file written (`ncCC/sgKK/bir.json`) becomes `passes` dumps of a work
/// directory printed after every pass, the same bytes after each.
fn print_after(out: &std::path::Path, written: &[(String, u64)], passes: usize) -> std::io::Result<Vec<(String, u64)>> {
    let name_of = |k: usize| match PASSES.get(k) {
        Some(pass) => (*pass).to_owned(),
        None => format!("pass_{k}"),
    };
    let mut dumps = Vec::new();
    for (name, bytes) in written {
        let Some(folder) = name.strip_suffix("/bir.json") else {
            dumps.push((name.clone(), *bytes));
            continue;
        };
        let module = out.join(name);
        for k in 0..passes {
            let dump = format!("{folder}/bir_debug.{}.after-{}.before-{}.json", k + 1, name_of(k), name_of(k + 1));
            std::fs::copy(&module, out.join(&dump))?;
            dumps.push((dump, *bytes));
        }
        std::fs::remove_file(&module)?;
    }
    Ok(dumps)
}
