//! `birlink gen`: a synthetic SPMD link set, optionally with one injected fault. The
//! defaults are `GenConfig::default()`'s, so the CLI and the library never disagree.

use std::path::PathBuf;
use std::sync::LazyLock;

use clap::{Args, ValueEnum};

use birlink_core::gen::{GenConfig, Layout};
use birlink_core::Code;

use super::{create_dir, write, Error, Outcome, Status};
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
    /// Seed.
    #[arg(long, default_value_t = DEFAULTS.seed)]
    seed: u64,
    /// Inject one fault, by diagnostic code (see `birlink explain`).
    #[arg(long)]
    fault: Option<String>,
    /// One bundle file, or one file per core.
    #[arg(long, value_enum, default_value_t = LayoutArg::Files)]
    layout: LayoutArg,
    /// A folder (files layout) or a file (bundle layout).
    #[arg(long)]
    out: PathBuf,
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
            seed: self.seed,
            fault,
            scenario: None,
        };
        let layout = match self.layout {
            LayoutArg::Bundle => Layout::Bundle,
            LayoutArg::Files => Layout::Files,
        };
        let generated = birlink_core::gen::generate(&config, layout);
        let mut total = 0usize;
        for file in &generated {
            let path = match layout {
                Layout::Bundle if file.path == "linkset.json" => self.out.clone(),
                Layout::Bundle => self.out.with_file_name(&file.path),
                Layout::Files => self.out.join(&file.path),
            };
            if let Some(parent) = path.parent() {
                create_dir(parent)?;
            }
            write(&path, &file.bytes)?;
            total += file.bytes.len();
            outln!("wrote {} ({})", path.display(), birlink_core::read::input::human_bytes(file.bytes.len() as u64));
        }
        outln!(
            "{}, {} in all",
            birlink_core::diag::counted(generated.len(), "file"),
            birlink_core::read::input::human_bytes(total as u64)
        );
        Ok(Status::OK)
    }
}
