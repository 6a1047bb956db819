//! The pipeline: read → `verify` → `bir_linker` → `vnc_remote_addr_map` → `vnc_link`
//! (spec §2), and the report of it all (§7).
//!
//! A pass that reports an error changes nothing in the linked module and stops the
//! passes after it (they are `skipped`); everything computed before, the failing pass's
//! own rows and every diagnostic still reach the report. The driver also resolves every
//! diagnostic's JSON pointer into line and column, one scan per file.

pub mod bir_linker;
pub mod fidelity;
pub mod partition;
pub mod verify;
pub mod vnc_link;
pub mod vnc_remote_addr_map;

use std::collections::BTreeMap;

use crate::diag::codes::Code;
use crate::diag::{has_errors, Diagnostic, Location};
use crate::model::entity::EntityKind;
use crate::model::flow::{Flow, FlowSource};
use crate::model::ir::{Module, Src};
use crate::model::linked::LinkedSet;
use crate::output::report::FileKind;
use crate::output::report::{InputRow, InputStatus, LncSource, PassRow, PassStatus, Report, StepRow};
use crate::passes::partition::Partitions;
use crate::read::input::{self, FileEntry, LinkSet, SourceFile};
use crate::read::json::locate;
use crate::read::netlist::Netlist;
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
    /// How to link (`--flow`): `None` decides as the compiler does (docs/spec/link.md §2).
    pub flow: Option<Flow>,
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
    /// The linked set after every pass that succeeded (one module per core in the
    /// compiler's flows, the seeds' one module); `None` when there is none.
    pub linked: Option<LinkedSet>,
    /// The input files (their texts serve locations and the UI's original JSON).
    pub files: Vec<FileEntry>,
    /// `bir_linker`'s own log, in the compiler's words (`bir_linker.log`): every core's
    /// lines, cores in order, then the VNC passes' lines; empty in the seeds' reading.
    pub log: Vec<String>,
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
    /// The rows of a flow's pipeline: the four passes in the seeds' reading; no
    /// `bir_linker` in the flat flow (the compiler runs none); one `bir_linker` per core
    /// in the modular flow.
    fn new(flow: Flow, cores: &[u64]) -> Ledger {
        let row =
            |name: Pass, core: Option<u64>| PassRow { name, core, status: PassStatus::Skipped, steps: Vec::new() };
        let mut rows = Vec::new();
        for &pass in &Pass::PIPELINE {
            match (pass, flow) {
                (Pass::BirLinker, Flow::Flat) => {}
                (Pass::BirLinker, Flow::Modular) => rows.extend(cores.iter().map(|&c| row(pass, Some(c)))),
                _ => rows.push(row(pass, None)),
            }
        }
        Ledger { rows }
    }

    /// Records a pass that ran (for `core`, when it runs per core); returns whether it
    /// failed.
    fn ran(&mut self, pass: Pass, core: Option<u64>, failed: bool, steps: Vec<StepRow>) -> bool {
        if let Some(row) = self.rows.iter_mut().find(|r| r.name == pass && r.core == core) {
            row.status = PassStatus::of(failed);
            row.steps = steps;
        }
        failed
    }
}

/// The flow: the one asked for, else the compiler's rule — modular when a netlist has
/// partitions or some core has several subgraphs, else flat (docs/spec/link.md §2).
pub fn decide_flow(asked: Option<Flow>, set: &LinkSet) -> (Flow, FlowSource) {
    if let Some(flow) = asked {
        return (flow, FlowSource::Option);
    }
    // A module whose functions carry several cores is the seeds' linked module (an
    // earlier birlink's `linked.json`): the compiler never builds one (birlink's reading).
    if set.modules.iter().any(|m| Partitions::of(&m.module).len() > 1) {
        return (Flow::Seeds, FlowSource::Linked);
    }
    // Every module a core's linked module: bir_linker has run (the modular flow), and
    // these are the VNC passes' input.
    if !set.modules.is_empty() && set.modules.iter().all(|m| m.place.linked) {
        return (Flow::Modular, FlowSource::Sglnk);
    }
    if set.netlist.as_ref().is_some_and(Netlist::has_partitions) {
        return (Flow::Modular, FlowSource::Netlist);
    }
    let mut subgraphs: BTreeMap<Option<u64>, std::collections::BTreeSet<u32>> = BTreeMap::new();
    for module in &set.modules {
        subgraphs.entry(module.place.core).or_default().insert(module.place.subgraph_or_first());
    }
    if subgraphs.values().any(|s| s.len() > 1) {
        return (Flow::Modular, FlowSource::Subgraphs);
    }
    (Flow::Flat, FlowSource::Single)
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

    // The compiler's linked modules dumped before the VNC passes, beside the subgraphs
    // (one run of the modular flow): kept apart from the grid, the VNC passes' input.
    let vnc_input = take_vnc_input(&mut set, options.workdir.as_ref());
    let asked = match (&options.passes, &set.options.passes) {
        (Some(passes), _) => Some((passes, None)),
        (None, Some(passes)) => Some((passes, set.options.passes_at.as_ref())),
        (None, None) => None,
    };
    let selected = select_passes(asked, &mut diags);
    report.options.passes = selected.clone();
    let read_failed = has_errors(&diags);

    let (flow, flow_source) = decide_flow(options.flow.or(set.options.flow), &set);
    report.options.flow = flow;
    report.options.flow_source = flow_source;
    report.inputs = input_rows(&set, flow);
    let (lnc, lnc_source) = match (options.lnc, set.options.lnc, set.netlist.as_ref().and_then(|n| n.lnc)) {
        (Some(n), _, _) => (n, LncSource::Option),
        (None, Some(n), _) => (n, LncSource::Bundle),
        (None, None, Some(n)) => (n, LncSource::Netlist),
        (None, None, None) => {
            let plan = options.workdir.as_ref().and_then(WorkdirInput::plan);
            match plan.as_ref().and_then(|plan| crate::read::workdir::implied_lnc([plan])) {
                Some(n) => (n, LncSource::Workdir),
                // The compiler's flows count cores, never modules (a core has several).
                None if flow.per_core() => (distinct_cores(&set), LncSource::Modules),
                None => (set.modules.len() as u64, LncSource::Modules),
            }
        }
    };
    report.options.lnc = lnc;
    report.options.lnc_source = lnc_source;

    // The compiler's own results in a work directory: held against birlink's in its
    // flows (the seeds' reading links what the compiler never builds).
    let compiler = match (flow, options.workdir.as_ref().and_then(WorkdirInput::plan)) {
        (Flow::Seeds, _) | (_, None) => Vec::new(),
        (_, Some(plan)) => plan.compiler,
    };
    let keep = fidelity::wanted(&compiler);
    let run = Run { selected: &selected, options, stopped: read_failed, compiler, keep, vnc_input };
    let mut log = Vec::new();
    let (ledger, linked) = match flow {
        Flow::Seeds => seeds(&run, &mut set, &mut report, &mut diags, progress),
        Flow::Flat | Flow::Modular => grid(&run, flow, &mut set, &mut report, &mut diags, &mut log, progress),
    };

    progress(Progress::Reporting);
    report.passes = ledger.rows;
    resolve_locations(&set.files, &mut diags);
    set_input_statuses(&mut report.inputs, &diags);
    report.diagnostics = diags;
    Outcome { report, linked, files: set.files, log }
}

/// What every flow's sequence of passes is given.
struct Run<'r> {
    /// The passes selected.
    selected: &'r [Pass],
    /// The options.
    options: &'r LinkOptions,
    /// Reading failed: no pass runs.
    stopped: bool,
    /// The compiler's own results in the work directory (`passes::fidelity`).
    compiler: Vec<(usize, crate::read::workdir::Dump)>,
    /// The passes after which birlink's set is kept to hold them against.
    keep: Vec<Pass>,
    /// The VNC passes' own input from the work directory (each core's linked module as
    /// the compiler dumped it before them), with the pass it was dumped after.
    vnc_input: std::cell::RefCell<Vec<(input::CoreModule, String)>>,
}

/// Takes the work directory's VNC input (`Plan::vnc_input`) out of the modules read: its
/// files are inputs of the run (diagnostics point into them), its modules not part of
/// the grid.
fn take_vnc_input(
    set: &mut LinkSet,
    workdir: Option<&WorkdirInput>,
) -> std::cell::RefCell<Vec<(input::CoreModule, String)>> {
    let Some((work, plan)) = workdir.and_then(|w| Some((w, w.plan()?))) else { return Default::default() };
    let mut taken = Vec::new();
    for (index, dump) in &plan.vnc_input {
        let Some(path) = work.files.get(*index).map(|f| f.path.as_str()) else { continue };
        if let Some(at) =
            set.modules.iter().position(|m| set.files.get(m.file.0 as usize).is_some_and(|f| f.path == path))
        {
            taken.push((set.modules.remove(at), dump.after.clone()));
        }
    }
    std::cell::RefCell::new(taken)
}

impl Run<'_> {
    fn wants(&self, pass: Pass) -> bool {
        self.selected.contains(&pass)
    }
}

/// The number of distinct cores the modules are placed on.
fn distinct_cores(set: &LinkSet) -> u64 {
    let cores: std::collections::BTreeSet<Option<u64>> = set.modules.iter().map(|m| m.place.core).collect();
    cores.len() as u64
}

/// The seeds' reading: the cores' modules merged into one by `bir_linker`, the VNC
/// passes over its partitions.
fn seeds(
    run: &Run<'_>,
    set: &mut LinkSet,
    report: &mut Report,
    diags: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(Progress),
) -> (Ledger, Option<LinkedSet>) {
    let mut ledger = Ledger::new(Flow::Seeds, &[]);
    let mut linked: Option<Module> = None;
    let mut stopped = run.stopped;

    if !stopped && !run.wants(Pass::Verify) && !run.wants(Pass::BirLinker) {
        // The VNC passes on their own: the input must be one linked module.
        let partitions = set.modules.first().map(|m| Partitions::of(&m.module));
        if set.modules.len() != 1 || partitions.is_none_or(|p| p.is_empty()) {
            let names: Vec<&str> = run.selected.iter().map(|p| p.as_str()).collect();
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
            if run.options.lnc.is_none() && set.options.lnc.is_none() {
                report.options.lnc = Partitions::of(&module.module).len() as u64;
                report.options.lnc_source = LncSource::Modules;
            }
            report.options.linked_name = Some(module.module.name().to_owned()).filter(|n| !n.is_empty());
            linked = Some(module.module);
        }
    }

    if !stopped && run.wants(Pass::Verify) {
        progress(Progress::Pass(Pass::Verify));
        let verified = verify::run(set, diags);
        stopped = ledger.ran(Pass::Verify, None, verified.failed, verified.steps);
        if !stopped && run.wants(Pass::BirLinker) {
            if let Some(cores) = verified.cores {
                progress(Progress::Pass(Pass::BirLinker));
                let modules: Vec<(u64, input::CoreModule)> =
                    cores.into_iter().zip(std::mem::take(&mut set.modules)).collect();
                let work = run.options.workdir.as_ref();
                let result = bir_linker::run(modules, set.netlist.as_ref(), work, &mut set.files, diags);
                stopped = ledger.ran(Pass::BirLinker, None, result.failed, result.steps);
                report.options.base_name = Some(result.base_name);
                report.link_dir = result.link_dir;
                report.tensor_map = result.tensor_map;
                report.dispatcher = result.dispatcher;
                report.aliases = result.aliases;
                report.output_kinds = result.output_kinds;
                report.queues = result.queues;
                report.barriers = result.barriers;
                if let Some(module) = &result.module {
                    report.options.linked_name = Some(module.name().to_owned()).filter(|n| !n.is_empty());
                }
                linked = result.module;
            }
        }
    }

    let mut linked = linked.map(LinkedSet::one);
    if let Some(set) = linked.as_mut() {
        // The seeds' reading writes no compiler log, and holds nothing against the
        // compiler's results (it links what the compiler never builds).
        vnc_passes(run, set, report, diags, &mut ledger, stopped, progress);
    }
    (ledger, linked)
}

/// The compiler's flows: `verify` per subgraph across the cores; in the modular flow
/// `bir_linker` once per core over its subgraphs; then the VNC passes across the per-core
/// modules.
fn grid(
    run: &Run<'_>,
    flow: Flow,
    set: &mut LinkSet,
    report: &mut Report,
    diags: &mut Vec<Diagnostic>,
    log: &mut Vec<String>,
    progress: &mut dyn FnMut(Progress),
) -> (Ledger, Option<LinkedSet>) {
    let mut stopped = run.stopped;
    let planned: Vec<u64> = {
        let cores: std::collections::BTreeSet<u64> = set.modules.iter().filter_map(|m| m.place.core).collect();
        cores.into_iter().collect()
    };
    let mut ledger = Ledger::new(flow, &planned);
    let mut linked: Option<LinkedSet> = None;
    report.subgraphs = subgraph_rows(set);
    // The stages of birlink's to hold the compiler's own results against.
    let mut stages = fidelity::Stages::default();

    if !stopped && !run.wants(Pass::Verify) && !run.wants(Pass::BirLinker) {
        // The VNC passes on their own: one module per core (one module alone is core 0).
        let alone = set.modules.len() == 1;
        let cores: Vec<Option<u64>> =
            set.modules.iter().map(|m| m.place.core.or(if alone { Some(0) } else { None })).collect();
        let distinct: std::collections::BTreeSet<Option<u64>> = cores.iter().copied().collect();
        if distinct.len() != cores.len() || cores.iter().any(Option::is_none) {
            let names: Vec<&str> = run.selected.iter().map(|p| p.as_str()).collect();
            diags.push(Diagnostic::new(
                Code::NotLinked,
                Pass::Read,
                format!(
                    "the passes [{}] need one module per core, but the {} module(s) given do not each name a core of their own",
                    names.join(", "),
                    set.modules.len()
                ),
            ));
            stopped = true;
        } else {
            let modules = std::mem::take(&mut set.modules);
            linked = Some(LinkedSet::per_core(
                cores.into_iter().zip(modules).map(|(core, m)| (core.unwrap_or(0), m.name, m.module)).collect(),
            ));
        }
    }

    if !stopped && run.wants(Pass::Verify) {
        progress(Progress::Pass(Pass::Verify));
        let verified = verify::run_grid(set, flow, diags);
        stopped = ledger.ran(Pass::Verify, None, verified.failed, verified.steps);
        if let (false, Some(grid)) = (stopped, verified.grid) {
            let modules = std::mem::take(&mut set.modules);
            if flow == Flow::Flat || grid.linked || !run.wants(Pass::BirLinker) {
                // The per-core modules are the VNC passes' input as they are.
                linked = Some(LinkedSet::per_core(
                    grid.cores.iter().copied().zip(modules).map(|(core, m)| (core, m.name, m.module)).collect(),
                ));
            } else {
                let mut per_core: BTreeMap<u64, Vec<(u32, input::CoreModule)>> = BTreeMap::new();
                for ((core, subgraph), module) in grid.cores.iter().zip(&grid.subgraphs).zip(modules) {
                    per_core.entry(*core).or_default().push((*subgraph, module));
                }
                let mut outputs = Vec::new();
                // A work directory's link directory and tensor maps, each core's.
                let work = run.options.workdir.as_ref().and_then(|w| Some((w, w.plan()?)));
                for (core, mut subgraphs) in per_core {
                    subgraphs.sort_by_key(|(subgraph, _)| *subgraph);
                    progress(Progress::Pass(Pass::BirLinker));
                    let files = &mut set.files;
                    let work = work.as_ref().map(|(input, plan)| bir_linker::modular::Work { input, plan, files });
                    let result = bir_linker::modular::run(core, subgraphs, set.netlist.as_ref(), &planned, work, diags);
                    let failed = ledger.ran(Pass::BirLinker, Some(core), result.failed, result.steps);
                    stopped |= failed;
                    report.dispatcher.extend(result.dispatcher);
                    report.aliases.extend(result.aliases);
                    report.queues.extend(result.queues);
                    report.barriers.extend(result.barriers);
                    if let Some(dir) = result.link_dir {
                        let all = report.link_dir.get_or_insert_with(|| crate::output::report::LinkDir {
                            root: dir.root.clone(),
                            ..Default::default()
                        });
                        all.entries.extend(dir.entries);
                        all.in_place.extend(dir.in_place);
                    }
                    if let Some(map) = result.tensor_map {
                        let all = report.tensor_map.get_or_insert_with(Default::default);
                        all.files.extend(map.files);
                        all.entries.extend(map.entries);
                    }
                    log.extend(result.log);
                    if report.partitions.is_empty() {
                        report.partitions = result.partitions;
                    }
                    if let Some(module) = result.module {
                        outputs.push((core, module.name().to_owned(), module));
                    }
                }
                if !stopped {
                    linked = Some(LinkedSet::per_core(outputs));
                    if run.keep.contains(&Pass::BirLinker) {
                        stages.bir_linker = linked.clone();
                    }
                }
                // The compiler's linked modules before the VNC passes, when the run dumped
                // every core's: their input instead of birlink's (they carry what the
                // post-link passes birlink does not run made of the link).
                let taken = std::mem::take(&mut *run.vnc_input.borrow_mut());
                let every_core = linked.as_ref().is_some_and(|set| {
                    set.modules.iter().all(|m| taken.iter().any(|(t, _)| t.place.core.or(t.core) == m.core))
                });
                let used = !stopped && every_core;
                for (module, after) in &taken {
                    report.vnc_input.push(crate::output::report::VncInputRow {
                        core: module.place.core.or(module.core).unwrap_or(0),
                        file: set.files.get(module.file.0 as usize).map(|f| f.path.clone()).unwrap_or_default(),
                        after: after.clone(),
                        used,
                    });
                }
                if used {
                    let mut modules: Vec<(u64, String, crate::model::ir::Module)> = taken
                        .into_iter()
                        .map(|(m, _)| (m.place.core.or(m.core).unwrap_or(0), m.name, m.module))
                        .collect();
                    modules.sort_by_key(|(core, _, _)| *core);
                    linked = Some(LinkedSet::per_core(modules));
                }
            }
        }
    }

    if let Some(set) = linked.as_mut() {
        // The per-core modules' names, in core order (`nc00/sgLnk, nc01/sgLnk`).
        let names: Vec<&str> = set.modules.iter().map(|m| m.name.as_str()).collect();
        report.options.linked_name = Some(names.join(", ")).filter(|n| !n.is_empty());
        let vnc = vnc_passes(run, set, report, diags, &mut ledger, stopped, progress);
        log.extend(bir_linker::log::vnc_lines(&vnc.before, vnc.address_map_ran, vnc.remote_updates));
        stages.vnc_remote_addr_map = vnc.after_address_map;
        if let Some(work) = run.options.workdir.as_ref().filter(|_| !run.compiler.is_empty()) {
            report.fidelity = fidelity::check(work, &run.compiler, &stages, Some(set), vnc.remote_updates.is_some());
        }
    } else if let Some(work) = run.options.workdir.as_ref().filter(|_| !run.compiler.is_empty()) {
        report.fidelity = fidelity::check(work, &run.compiler, &stages, None, false);
    }
    (ledger, linked)
}

/// What the VNC passes tell the compiler's log.
struct VncRan {
    /// The counts of the modules `vnc_remote_addr_map` is given.
    before: bir_linker::log::Counts,
    /// Whether `vnc_remote_addr_map` ran.
    address_map_ran: bool,
    /// The remote updates `vnc_link` found, when it ran.
    remote_updates: Option<usize>,
    /// The set after `vnc_remote_addr_map`, when asked to keep it.
    after_address_map: Option<LinkedSet>,
}

/// Each module's place in the grid, as its keys and path say (before any check: the
/// page shows the grid even when it does not hold), with its netlist definition.
fn subgraph_rows(set: &LinkSet) -> Vec<crate::output::report::SubgraphRow> {
    let definitions = set.netlist.as_ref().map(Netlist::definitions).unwrap_or_default();
    let alone = set.modules.len() == 1;
    let mut rows: Vec<crate::output::report::SubgraphRow> = set
        .modules
        .iter()
        .filter_map(|m| {
            let core = m.place.core.or(if alone { Some(0) } else { None })?;
            let subgraph = m.place.subgraph_or_first();
            Some(crate::output::report::SubgraphRow {
                core,
                subgraph,
                module: m.name.clone(),
                file: set.path(m.file).to_owned(),
                definition: (!m.place.linked).then(|| definitions.get(subgraph as usize).copied()).flatten(),
            })
        })
        .collect();
    rows.sort_by(|a, b| (a.core, a.subgraph, &a.file).cmp(&(b.core, b.subgraph, &b.file)));
    rows
}

/// `vnc_remote_addr_map` then `vnc_link`, over a linked set, unless a pass before
/// stopped the run.
fn vnc_passes(
    run: &Run<'_>,
    set: &mut LinkedSet,
    report: &mut Report,
    diags: &mut Vec<Diagnostic>,
    ledger: &mut Ledger,
    mut stopped: bool,
    progress: &mut dyn FnMut(Progress),
) -> VncRan {
    let keep_after_address_map = run.keep.contains(&Pass::VncRemoteAddrMap);
    let mut ran = VncRan {
        before: bir_linker::log::Counts::of(set.iter()),
        address_map_ran: false,
        remote_updates: None,
        after_address_map: None,
    };
    if !stopped && run.wants(Pass::VncRemoteAddrMap) {
        progress(Progress::Pass(Pass::VncRemoteAddrMap));
        let result = vnc_remote_addr_map::run(set, report.options.lnc, diags);
        stopped = ledger.ran(Pass::VncRemoteAddrMap, None, result.failed, result.steps);
        report.address_map = result.rows;
        ran.address_map_ran = true;
        if keep_after_address_map && !stopped {
            ran.after_address_map = Some(set.clone());
        }
    }
    if !stopped && run.wants(Pass::VncLink) {
        progress(Progress::Pass(Pass::VncLink));
        let result = vnc_link::run(set, report.options.lnc, diags);
        ledger.ran(Pass::VncLink, None, result.failed, result.steps);
        report.semaphores = result.semaphores;
        ran.remote_updates = Some(result.remote_updates);
    }
    ran
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

/// One row per module read; a module's core is its `neuron_core_id`, or in the
/// compiler's flows its place (its path or name says it).
fn input_rows(set: &LinkSet, flow: Flow) -> Vec<InputRow> {
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
                core: if flow.per_core() { module.core.or(module.place.core) } else { module.core },
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
                by_file.entry(src.file().0).or_default().push(i);
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
