//! What a run is asked ([`LinkOptions`]), what it says as it goes ([`Progress`]) and what
//! it gives back ([`Outcome`]).

use crate::model::flow::Flow;
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::log::LogLine;
use crate::output::report::Report;
use crate::read::input::FileEntry;
use crate::read::workdir::WorkdirInput;

/// How to run the pipeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkOptions {
    /// The expected number of cores (`--lnc`); overrides the bundle and the netlist.
    pub lnc: Option<u64>,
    /// Which passes to run, by name: a contiguous run of [`Pass::PIPELINE`]; `None`
    /// runs all. Without `bir_linker` the input must be one linked module. Names, not
    /// [`Pass`]es: a bad selection is input to report (BL0012), like a bundle's.
    pub passes: Option<Vec<String>>,
    /// Refuse inputs that would hold more than this once read (BL0010), instead of
    /// running out of memory: compared with `held_estimate` when given, else with the
    /// inputs' total size.
    pub max_input_bytes: Option<u64>,
    /// The inputs' total size, when the caller knows it without reading them (the
    /// browser's worker checks it against `max_input_bytes` before reading a byte, and
    /// passes empty contents when it is over). `None`: the sum of the contents.
    pub input_bytes: Option<u64>,
    /// What reading the inputs would hold, estimated before reading them
    /// (`limits::held_estimate`: the browser's worker, from each file's first bytes).
    pub held_estimate: Option<u64>,
    /// Threads to read the files on, and the sync check the cores' programs (0 or 1:
    /// the caller's thread only, as in the browser). The outcome does not depend on it.
    pub threads: usize,
    /// The compiler work directory the modules came from, when they did: `bir_linker`
    /// then also plans the link directory and merges the cores' tensor maps (its
    /// `setupLinkDir` and `buildMainTensorMap`).
    pub workdir: Option<WorkdirInput>,
    /// How to link (`--flow`): `None` decides as the compiler does (docs/spec/link.md §2).
    pub flow: Option<Flow>,
    /// Whether the sync check runs after the link, and whether its warnings fail it.
    pub sync: SyncCheck,
}

/// The sync check after the link (docs/spec/sync.md §1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SyncCheck {
    /// It runs; its findings keep their severities.
    #[default]
    Run,
    /// It runs, and its warnings are errors (`--deny sync`).
    Deny,
    /// It does not run (`--no-sync`).
    Off,
}

/// What the pipeline reports as it goes (for progress bars).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Reading and checking input file `index` (0-based) of `count`.
    Reading {
        /// The file's path.
        file: String,
        /// Its position among the inputs.
        index: usize,
        /// How many inputs there are.
        count: usize,
    },
    /// A pass is starting (`Pass::Sync`: the sync check after the passes).
    Pass(Pass),
    /// Building the report.
    Reporting,
}

/// The result of a run.
#[derive(Debug)]
pub struct Outcome {
    /// The report.
    pub report: Report,
    /// The linked set after every pass that succeeded (one module per core in the
    /// compiler's flows, the seeds' one module); `None` when there is none.
    pub linked: Option<LinkedSet>,
    /// The input files (their texts serve locations and the UI's original JSON).
    pub files: Vec<FileEntry>,
    /// `bir_linker`'s own log, in the compiler's words (`bir_linker.log`): every core's
    /// lines, cores in order, then the VNC passes' lines; empty in the seeds' reading.
    pub log: Vec<LogLine>,
}
