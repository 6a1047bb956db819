//! The pipeline: read → `verify` → `bir_linker` → `vnc_remote_addr_map` → `vnc_link`
//! (contract §2), and the report of it all (§7).
//!
//! A pass that reports an error changes nothing in the linked module and stops the
//! passes after it (they are `skipped`); everything computed before, the failing pass's
//! own rows and every diagnostic still reach the report. The driver also resolves every
//! diagnostic's JSON pointer into line and column, one scan per file.

pub mod bir_linker;
pub mod verify;
pub mod vnc_link;
pub mod vnc_remote_addr_map;

use std::collections::BTreeMap;

use crate::codes::Code;
use crate::diag::{has_errors, Diagnostic, Location, Severity};
use crate::input::{self, FileEntry, FileKind, LinkSet, SourceFile};
use crate::ir::Module;
use crate::json::locate;
use crate::partition::Partitions;
use crate::report::{InputRow, PassRow, Report};

/// The passes, in pipeline order.
pub const PASSES: [&str; 4] = [verify::NAME, bir_linker::NAME, vnc_remote_addr_map::NAME, vnc_link::NAME];

/// How to run the pipeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkOptions {
    /// The expected number of cores (`--lnc`); overrides the bundle and the netlist.
    pub lnc: Option<u64>,
    /// Which passes to run: a contiguous run of [`PASSES`]; `None` runs all. Without
    /// `bir_linker` the input must be one linked module.
    pub passes: Option<Vec<String>>,
    /// Refuse inputs larger than this in total (BL0010), instead of running out of memory.
    pub max_input_bytes: Option<u64>,
    /// The inputs' total size, when the caller knows it without reading them (the
    /// browser's worker checks it against `max_input_bytes` before reading a byte, and
    /// passes empty contents when it is over). `None`: the sum of the contents.
    pub input_bytes: Option<u64>,
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
    Pass(&'static str),
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

/// Runs the pipeline, telling `progress` what it is doing.
pub fn run_with_progress(
    sources: Vec<SourceFile>,
    options: &LinkOptions,
    progress: &mut dyn FnMut(Progress),
) -> Outcome {
    let mut diags = Vec::new();
    let mut report = Report::default();
    let count = sources.len();
    let mut set = input::load(sources, options.max_input_bytes, options.input_bytes, &mut diags, &mut |index, file| {
        progress(Progress::Reading { file: file.to_owned(), index, count })
    });
    report.inputs = input_rows(&set);

    let selected = select_passes(options.passes.as_ref().or(set.options.passes.as_ref()), &mut diags);
    report.options.passes = selected.iter().map(|p| (*p).to_owned()).collect();
    let wants = |name: &str| selected.contains(&name);
    let read_failed = has_errors(&diags);

    let (lnc, lnc_source) = match (options.lnc, set.options.lnc, set.netlist.as_ref().and_then(|n| n.lnc)) {
        (Some(n), _, _) => (n, "option"),
        (None, Some(n), _) => (n, "bundle"),
        (None, None, Some(n)) => (n, "netlist"),
        (None, None, None) => (set.modules.len() as u64, "modules"),
    };
    report.options.lnc = lnc;
    report.options.lnc_source = lnc_source.to_owned();

    let mut statuses: BTreeMap<&str, &str> = PASSES.iter().map(|p| (*p, "skipped")).collect();
    let mut steps: BTreeMap<&str, Vec<crate::report::StepRow>> = BTreeMap::new();
    let mut linked: Option<Module> = None;
    let mut stopped = read_failed;

    if !stopped && !wants(verify::NAME) && !wants(bir_linker::NAME) {
        // The VNC passes on their own: the input must be one linked module.
        let partitions = set.modules.first().map(|m| Partitions::of(&m.module));
        if set.modules.len() != 1 || partitions.is_none_or(|p| p.is_empty()) {
            diags.push(Diagnostic::new(
                Code::NotLinked,
                "read",
                format!(
                    "the passes [{}] need one linked module (a `linked.json`), but {} module(s) without core-tagged functions were given",
                    report.options.passes.join(", "),
                    set.modules.len()
                ),
            ));
            stopped = true;
        } else if let Some(module) = set.modules.pop() {
            if options.lnc.is_none() && set.options.lnc.is_none() {
                report.options.lnc = Partitions::of(&module.module).len() as u64;
                report.options.lnc_source = "modules".to_owned();
            }
            report.options.linked_name = module.module.fields.get("name").and_then(|v| v.as_str()).map(str::to_owned);
            linked = Some(module.module);
        }
    }

    if !stopped && wants(verify::NAME) {
        progress(Progress::Pass(verify::NAME));
        let verified = verify::run(&set, &mut diags);
        statuses.insert(verify::NAME, if verified.failed { "error" } else { "ok" });
        steps.insert(verify::NAME, verified.steps);
        stopped = verified.failed;
        if !stopped && wants(bir_linker::NAME) {
            if let Some(cores) = verified.cores {
                progress(Progress::Pass(bir_linker::NAME));
                let modules: Vec<(u64, input::CoreModule)> =
                    cores.into_iter().zip(std::mem::take(&mut set.modules)).collect();
                report.options.base_name = Some(bir_linker::base_name(&modules, set.netlist.as_ref()));
                let result = bir_linker::run(modules, set.netlist.as_ref(), &mut diags);
                statuses.insert(bir_linker::NAME, if result.failed { "error" } else { "ok" });
                steps.insert(bir_linker::NAME, result.steps);
                report.dispatcher = result.dispatcher;
                report.aliases = result.aliases;
                report.output_kinds = result.output_kinds;
                report.queues = result.queues;
                report.barriers = result.barriers;
                stopped = result.failed;
                if let Some(module) = &result.module {
                    report.options.linked_name = module.fields.get("name").and_then(|v| v.as_str()).map(str::to_owned);
                }
                linked = result.module;
            }
        }
    }

    if let Some(module) = linked.as_mut() {
        if !stopped && wants(vnc_remote_addr_map::NAME) {
            progress(Progress::Pass(vnc_remote_addr_map::NAME));
            let result = vnc_remote_addr_map::run(module, report.options.lnc, &mut diags);
            statuses.insert(vnc_remote_addr_map::NAME, if result.failed { "error" } else { "ok" });
            steps.insert(vnc_remote_addr_map::NAME, result.steps);
            report.address_map = result.rows;
            stopped = result.failed;
        }
        if !stopped && wants(vnc_link::NAME) {
            progress(Progress::Pass(vnc_link::NAME));
            let result = vnc_link::run(module, report.options.lnc, &mut diags);
            statuses.insert(vnc_link::NAME, if result.failed { "error" } else { "ok" });
            steps.insert(vnc_link::NAME, result.steps);
            report.semaphores = result.semaphores;
        }
    }

    progress(Progress::Reporting);
    report.passes = PASSES
        .iter()
        .map(|name| PassRow {
            name: (*name).to_owned(),
            status: statuses.get(name).copied().unwrap_or("skipped").to_owned(),
            steps: steps.remove(name).unwrap_or_default(),
        })
        .collect();
    resolve_locations(&set, &mut diags);
    set_input_statuses(&mut report.inputs, &diags);
    report.diagnostics = diags;
    Outcome { report, linked, files: set.files }
}

/// Validates a pass selection; an invalid one is reported and replaced by all passes.
fn select_passes(asked: Option<&Vec<String>>, diags: &mut Vec<Diagnostic>) -> Vec<&'static str> {
    let Some(asked) = asked else {
        return PASSES.to_vec();
    };
    let positions: Option<Vec<usize>> = asked.iter().map(|p| PASSES.iter().position(|q| q == p)).collect();
    let valid = match &positions {
        Some(positions) if !positions.is_empty() => {
            let contiguous = positions.windows(2).all(|w| w[1] == w[0] + 1);
            let linker_needs_verify = !positions.contains(&1) || positions.contains(&0);
            contiguous && linker_needs_verify
        }
        _ => false,
    };
    if valid {
        positions.unwrap_or_default().into_iter().map(|i| PASSES[i]).collect()
    } else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                "read",
                format!("pass selection [{}] is not a run of [{}]", asked.join(", "), PASSES.join(", ")),
            )
            .help("list passes in pipeline order without gaps; `bir_linker` needs `verify` before it"),
        );
        PASSES.to_vec()
    }
}

fn input_rows(set: &LinkSet) -> Vec<InputRow> {
    let mut rows = Vec::new();
    for (i, file) in set.files.iter().enumerate() {
        let bytes = file.text.as_ref().map(|t| t.len() as u64).unwrap_or(0);
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
                status: "ok".to_owned(),
            });
            continue;
        }
        for module in modules {
            let m = &module.module;
            rows.push(InputRow {
                file: file.path.clone(),
                kind: if file.kind == FileKind::Bundle { FileKind::Bundle } else { FileKind::Module },
                pointer: m.src.as_ref().map(|s| s.pointer.to_string()).unwrap_or_default(),
                module: Some(module.name.clone()),
                core: module.core,
                functions: m.functions.len() as u64,
                instructions: m.store.insts.len() as u64,
                memlocs: m.store.memlocs.len() as u64,
                queues: m.queues.len() as u64,
                bytes,
                status: "ok".to_owned(),
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
                    && d.entity.as_ref().is_some_and(|e| e.kind == "module" && Some(&e.name) == row.module.as_ref()))
            })
            .map(|d| d.severity)
            .max();
        row.status = match worst {
            Some(Severity::Error) => "error",
            Some(Severity::Warning) => "warning",
            _ => "ok",
        }
        .to_owned();
    }
}

/// Turns every diagnostic's source (file + pointer) into a location with line and
/// column: one scan per file, whatever the number of diagnostics.
fn resolve_locations(set: &LinkSet, diags: &mut [Diagnostic]) {
    let mut by_file: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, diagnostic) in diags.iter().enumerate() {
        if diagnostic.location.is_none() {
            if let Some(src) = diagnostic.src() {
                by_file.entry(src.file.0).or_default().push(i);
            }
        }
    }
    for (file, indices) in by_file {
        let path = set.files.get(file as usize).map(|f| f.path.clone()).unwrap_or_default();
        let text = set.files.get(file as usize).and_then(|f| f.text.as_deref());
        let pointers: Vec<String> =
            indices.iter().filter_map(|&i| diags[i].src().map(|s| s.pointer.to_string())).collect();
        let spans = match text {
            Some(text) => {
                let refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
                locate::locate(text, &refs)
            }
            None => vec![None; pointers.len()],
        };
        for ((&i, pointer), span) in indices.iter().zip(pointers).zip(spans) {
            diags[i].location = Some(Location {
                file: path.clone(),
                pointer,
                line: span.map(|s| s.line),
                column: span.map(|s| s.column),
            });
        }
    }
}
