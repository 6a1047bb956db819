//! The pipeline: read → `verify` → `bir_linker` → `vnc_remote_addr_map` → `vnc_link`
//! (spec §2), and the report of it all (§7).
//!
//! A pass that reports an error changes nothing in the linked module and stops the
//! passes after it (they are `skipped`); everything computed before, the failing pass's
//! own rows and every diagnostic still reach the report. The driver also resolves every
//! diagnostic's JSON pointer into line and column, one scan per file.

pub mod bir_linker;
pub mod partition;
pub mod verify;
pub mod vnc_link;
pub mod vnc_remote_addr_map;

use std::collections::BTreeMap;

use crate::diag::codes::Code;
use crate::diag::{has_errors, Diagnostic, Location};
use crate::model::entity::EntityKind;
use crate::model::ir::{Module, Src};
use crate::output::report::FileKind;
use crate::output::report::{InputRow, InputStatus, LncSource, PassRow, PassStatus, Report, StepRow};
use crate::passes::partition::Partitions;
use crate::read::input::{self, FileEntry, LinkSet, SourceFile};
use crate::read::json::locate;
use crate::read::workdir::WorkdirInput;

pub use crate::model::pass::Pass;

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
    /// Threads to read the files on (0 or 1: the caller's thread only, as in the
    /// browser). The outcome does not depend on it.
    pub threads: usize,
    /// The compiler work directory the modules came from, when they did: `bir_linker`
    /// then also plans the link directory and merges the cores' tensor maps (its
    /// `setupLinkDir` and `buildMainTensorMap`).
    pub workdir: Option<WorkdirInput>,
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
    /// A pass is starting.
    Pass(Pass),
    /// Building the report.
    Reporting,
}

/// The result of a run.
#[derive(Debug)]
pub struct Outcome {
    /// The report.
    pub report: Report,
    /// The linked module after every pass that succeeded; `None` when bir_linker did not
    /// produce one.
    pub linked: Option<Module>,
    /// The input files (their texts serve locations and the UI's original JSON).
    pub files: Vec<FileEntry>,
}

/// Runs the pipeline over the inputs.
pub fn run(sources: Vec<SourceFile>, options: &LinkOptions) -> Outcome {
    run_with_progress(sources, options, &mut |_| {})
}

/// The statuses and steps of the pipeline's passes as they run.
struct Ledger {
    rows: Vec<PassRow>,
}

impl Ledger {
    fn new() -> Ledger {
        let rows = Pass::PIPELINE
            .iter()
            .map(|&name| PassRow { name, status: PassStatus::Skipped, steps: Vec::new() })
            .collect();
        Ledger { rows }
    }

    /// Records a pass that ran; returns whether it failed.
    fn ran(&mut self, pass: Pass, failed: bool, steps: Vec<StepRow>) -> bool {
        if let Some(row) = self.rows.iter_mut().find(|r| r.name == pass) {
            row.status = PassStatus::of(failed);
            row.steps = steps;
        }
        failed
    }
}

/// Runs the pipeline, telling `progress` what it is doing.
pub fn run_with_progress(
    sources: Vec<SourceFile>,
    options: &LinkOptions,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let mut diags = Vec::new();
    let mut report = Report::default();
    let count = sources.len();
    let mut set = input::load(
        sources,
        options.max_input_bytes,
        options.input_bytes,
        options.held_estimate,
        options.threads,
        &mut diags,
        &mut |index, file| progress(Progress::Reading { file: file.to_owned(), index, count }),
    );
    report.inputs = input_rows(&set);

    let asked = match (&options.passes, &set.options.passes) {
        (Some(passes), _) => Some((passes, None)),
        (None, Some(passes)) => Some((passes, set.options.passes_at.as_ref())),
        (None, None) => None,
    };
    let selected = select_passes(asked, &mut diags);
    report.options.passes = selected.clone();
    let wants = |pass: Pass| selected.contains(&pass);
    let read_failed = has_errors(&diags);

    let (lnc, lnc_source) = match (options.lnc, set.options.lnc, set.netlist.as_ref().and_then(|n| n.lnc)) {
        (Some(n), _, _) => (n, LncSource::Option),
        (None, Some(n), _) => (n, LncSource::Bundle),
        (None, None, Some(n)) => (n, LncSource::Netlist),
        (None, None, None) => {
            let plan = options.workdir.as_ref().and_then(WorkdirInput::plan);
            match plan.as_ref().and_then(|plan| crate::read::workdir::implied_lnc([plan])) {
                Some(n) => (n, LncSource::Workdir),
                None => (set.modules.len() as u64, LncSource::Modules),
            }
        }
    };
    report.options.lnc = lnc;
    report.options.lnc_source = lnc_source;

    let mut ledger = Ledger::new();
    let mut linked: Option<Module> = None;
    let mut stopped = read_failed;

    if !stopped && !wants(Pass::Verify) && !wants(Pass::BirLinker) {
        // The VNC passes on their own: the input must be one linked module.
        let partitions = set.modules.first().map(|m| Partitions::of(&m.module));
        if set.modules.len() != 1 || partitions.is_none_or(|p| p.is_empty()) {
            let names: Vec<&str> = selected.iter().map(|p| p.as_str()).collect();
            diags.push(Diagnostic::new(
                Code::NotLinked,
                Pass::Read,
                format!(
                    "the passes [{}] need one linked module (a `linked.json`), but {} module(s) without core-tagged functions were given",
                    names.join(", "),
                    set.modules.len()
                ),
            ));
            stopped = true;
        } else if let Some(module) = set.modules.pop() {
            if options.lnc.is_none() && set.options.lnc.is_none() {
                report.options.lnc = Partitions::of(&module.module).len() as u64;
                report.options.lnc_source = LncSource::Modules;
            }
            report.options.linked_name = module.module.fields.get("name").and_then(|v| v.as_str()).map(str::to_owned);
            linked = Some(module.module);
        }
    }

    if !stopped && wants(Pass::Verify) {
        progress(Progress::Pass(Pass::Verify));
        let verified = verify::run(&set, &mut diags);
        stopped = ledger.ran(Pass::Verify, verified.failed, verified.steps);
        if !stopped && wants(Pass::BirLinker) {
            if let Some(cores) = verified.cores {
                progress(Progress::Pass(Pass::BirLinker));
                let modules: Vec<(u64, input::CoreModule)> =
                    cores.into_iter().zip(std::mem::take(&mut set.modules)).collect();
                let work = options.workdir.as_ref();
                let result = bir_linker::run(modules, set.netlist.as_ref(), work, &mut set.files, &mut diags);
                stopped = ledger.ran(Pass::BirLinker, result.failed, result.steps);
                report.options.base_name = Some(result.base_name);
                report.link_dir = result.link_dir;
                report.tensor_map = result.tensor_map;
                report.dispatcher = result.dispatcher;
                report.aliases = result.aliases;
                report.output_kinds = result.output_kinds;
                report.queues = result.queues;
                report.barriers = result.barriers;
                if let Some(module) = &result.module {
                    report.options.linked_name = module.fields.get("name").and_then(|v| v.as_str()).map(str::to_owned);
                }
                linked = result.module;
            }
        }
    }

    if let Some(module) = linked.as_mut() {
        if !stopped && wants(Pass::VncRemoteAddrMap) {
            progress(Progress::Pass(Pass::VncRemoteAddrMap));
            let result = vnc_remote_addr_map::run(module, report.options.lnc, &mut diags);
            stopped = ledger.ran(Pass::VncRemoteAddrMap, result.failed, result.steps);
            report.address_map = result.rows;
        }
        if !stopped && wants(Pass::VncLink) {
            progress(Progress::Pass(Pass::VncLink));
            let result = vnc_link::run(module, report.options.lnc, &mut diags);
            ledger.ran(Pass::VncLink, result.failed, result.steps);
            report.semaphores = result.semaphores;
        }
    }

    progress(Progress::Reporting);
    report.passes = ledger.rows;
    resolve_locations(&set.files, &mut diags);
    set_input_statuses(&mut report.inputs, &diags);
    report.diagnostics = diags;
    Outcome { report, linked, files: set.files }
}

/// Validates a pass selection (and where it was written, for a bundle's); an invalid one
/// is reported (BL0012) and replaced by all passes (the error stops the run before any
/// of them).
fn select_passes(asked: Option<(&Vec<String>, Option<&Src>)>, diags: &mut Vec<Diagnostic>) -> Vec<Pass> {
    let Some((asked, at)) = asked else {
        return Pass::PIPELINE.to_vec();
    };
    let parsed: Option<Vec<Pass>> = asked.iter().map(|p| Pass::parse(p)).collect();
    let valid = match &parsed {
        Some(passes) if !passes.is_empty() => {
            let positions: Vec<usize> = passes.iter().filter_map(|p| p.index()).collect();
            let contiguous = positions.windows(2).all(|w| w[1] == w[0] + 1);
            let linker_needs_verify = !passes.contains(&Pass::BirLinker) || passes.contains(&Pass::Verify);
            contiguous && linker_needs_verify
        }
        _ => false,
    };
    match parsed {
        Some(passes) if valid => passes,
        _ => {
            let all: Vec<&str> = Pass::PIPELINE.iter().map(|p| p.as_str()).collect();
            let unknown: Vec<&str> = asked.iter().map(String::as_str).filter(|p| Pass::parse(p).is_none()).collect();
            let mut diagnostic = Diagnostic::new(
                Code::BadPassSelection,
                Pass::Read,
                format!("pass selection [{}] is not a run of [{}]", asked.join(", "), all.join(", ")),
            )
            .at(at);
            if !unknown.is_empty() {
                let names: Vec<String> = unknown.iter().map(|p| format!("`{p}`")).collect();
                diagnostic = diagnostic.note(format!("not a pass: {}", names.join(", ")));
            }
            diags.push(diagnostic);
            Pass::PIPELINE.to_vec()
        }
    }
}

fn input_rows(set: &LinkSet) -> Vec<InputRow> {
    let mut rows = Vec::new();
    for (i, file) in set.files.iter().enumerate() {
        let bytes = file.len;
        let modules: Vec<&input::CoreModule> = set.modules.iter().filter(|m| m.file.0 as usize == i).collect();
        if modules.is_empty() {
            rows.push(InputRow {
                file: file.path.clone(),
                kind: file.kind,
                pointer: String::new(),
                module: None,
                core: None,
                functions: 0,
                instructions: 0,
                memlocs: 0,
                queues: 0,
                bytes,
                status: InputStatus::Ok,
            });
            continue;
        }
        for module in modules {
            let m = &module.module;
            rows.push(InputRow {
                file: file.path.clone(),
                kind: if file.kind == FileKind::Bundle { FileKind::Bundle } else { FileKind::Module },
                pointer: m.src.as_ref().map(|s| s.pointer().into_owned()).unwrap_or_default(),
                module: Some(module.name.clone()),
                core: module.core,
                functions: m.functions.len() as u64,
                instructions: m.store.insts.len() as u64,
                memlocs: m.store.memlocs.len() as u64,
                queues: m.queues.len() as u64,
                bytes,
                status: InputStatus::Ok,
            });
        }
    }
    rows
}

/// Marks each input row with the worst diagnostic pointing into it.
fn set_input_statuses(rows: &mut [InputRow], diags: &[Diagnostic]) {
    for row in rows.iter_mut() {
        let worst = diags
            .iter()
            .filter(|d| {
                d.location.as_ref().is_some_and(|l| {
                    l.file == row.file && (row.pointer.is_empty() || l.pointer.starts_with(&row.pointer))
                }) || (row.module.is_some()
                    && d.entity
                        .as_ref()
                        .is_some_and(|e| e.kind == EntityKind::Module && Some(&e.name) == row.module.as_ref()))
            })
            .map(|d| d.severity)
            .max();
        row.status = InputStatus::of(worst);
    }
}

/// Turns every diagnostic's source (file + pointer) into a location with line and
/// column: one scan per file, whatever the number of diagnostics. The pipeline does
/// this at its end; a caller that only reads (`birlink print`) calls it itself.
pub fn resolve_locations(files: &[FileEntry], diags: &mut [Diagnostic]) {
    let mut by_file: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, diagnostic) in diags.iter().enumerate() {
        if diagnostic.location.is_none() {
            if let Some(src) = diagnostic.src() {
                by_file.entry(src.file.0).or_default().push(i);
            }
        }
    }
    for (file, indices) in by_file {
        let path = files.get(file as usize).map(|f| f.path.clone()).unwrap_or_default();
        let held = files.get(file as usize).and_then(FileEntry::read_text);
        let text = held.as_deref().map(String::as_str);
        let pointers: Vec<String> =
            indices.iter().filter_map(|&i| diags[i].src().map(|s| s.pointer().into_owned())).collect();
        // The instructions they are in, located in the same scan: their `debug` names
        // the kernel line.
        let instructions: Vec<Option<String>> =
            pointers.iter().map(|p| crate::read::kernel_line::instruction_pointer(p).map(str::to_owned)).collect();
        let spans = match text {
            Some(text) => {
                let mut refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
                refs.extend(instructions.iter().flatten().map(String::as_str));
                locate::locate(text, &refs)
            }
            None => vec![None; pointers.len()],
        };
        let mut at_instruction = pointers.len();
        for (k, ((&i, pointer), span)) in indices.iter().zip(pointers.iter()).zip(spans.iter()).enumerate() {
            diags[i].location = Some(Location {
                file: path.clone(),
                pointer: pointer.clone(),
                line: span.map(|s| s.line),
                column: span.map(|s| s.column),
            });
            if instructions[k].is_some() {
                let span = spans.get(at_instruction).copied().flatten();
                at_instruction += 1;
                if let (Some(text), Some(span)) = (text, span) {
                    diags[i].source = text.get(span.start..span.end).and_then(crate::read::kernel_line::of_text);
                }
            }
        }
    }
}
