//! The subcommands, one module each. A `run` returns the exit code, or an [`Error`] when
//! the command could not run at all (exit 2: bad arguments, a file it cannot write).

pub mod check;
pub mod diff;
pub mod explain;
pub mod gen;
pub mod history;
pub mod link;
pub mod open;
pub mod print;
pub mod reduce;
pub mod share;

use std::fmt;
use std::path::Path;

/// Why a command could not run (printed as `error: …`, exit 2).
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A command's exit status: 0 done (or linked), 1 what it was asked is not so (an error
/// diagnostic, a set that does not fail), 2 bad arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status(pub u8);

impl Status {
    /// Exit 0.
    pub const OK: Status = Status(0);
}

/// What a subcommand returns.
pub type Outcome = Result<Status, Error>;

/// `--format`: a readable summary, or JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
}

/// `--flow`: how to link (docs/spec/link.md §2).
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum FlowArg {
    /// Each core's subgraphs through the netlist, then the VNC passes across the cores.
    Modular,
    /// One subgraph per core: no bir_linker, the VNC passes across the cores.
    Flat,
    /// The seeds' reading: the cores merged into one module.
    Seeds,
}

impl FlowArg {
    /// The core's flow.
    pub fn flow(self) -> birlink_core::Flow {
        match self {
            FlowArg::Modular => birlink_core::Flow::Modular,
            FlowArg::Flat => birlink_core::Flow::Flat,
            FlowArg::Seeds => birlink_core::Flow::Seeds,
        }
    }
}

/// Writes a file, or says which one could not be written.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> Result<(), Error> {
    std::fs::write(path, bytes).map_err(|e| Error(format!("cannot write `{}`: {e}", path.display())))
}

/// Creates a folder and its parents, or says which one could not be created.
pub fn create_dir(path: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(path).map_err(|e| Error(format!("cannot create `{}`: {e}", path.display())))
}

/// 1 when any diagnostic is an error, else 0.
pub fn exit_for(diagnostics: &[birlink_core::Diagnostic]) -> Status {
    if birlink_core::diag::has_errors(diagnostics) {
        Status(1)
    } else {
        Status::OK
    }
}
