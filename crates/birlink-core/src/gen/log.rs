//! Compiler logs shaped like the public ones (docs/spec/log.md §2) for the generated
//! work directories: the driver's lines, the flow, the modules loaded, the backend's
//! passes in their order and scopes (the modular flow's from neuronx-cc 2.24.5133's
//! logs, the flat flow's without bir_linker), two cores' lines interleaved as the
//! multi-threaded backend writes them, and either the `BirLinker` blocks and the VNC
//! lines of a link that passed or a failure in the middle.
//!
//! The `BirLinker` lines are birlink's own `bir_linker.log` for the same dumps, written
//! as the compiler writes them, with what a real 2.24 block carries and birlink cannot
//! know: the linker's `bir_linker cwd:`, a `Symlinking "…" to "…"` line per model input
//! file after the npy line, a module's unique id after `moving sgNNNN`, the post-link
//! statistics and the `Total Intermediate` lines, paths under the compile's own
//! directory. Set aside as `birlink explain --log LOG DUMPS…` sets them aside, the log
//! agrees with birlink line for line. Deterministic: no clock.

use std::fmt::Write as _;

use crate::model::place::{CoreId, Place, Scope, SubgraphId};
use crate::output::log::{LogLine, Logger};

/// The driver's process; the pipeline's and the backend's follow.
const PID: u64 = 5101;

/// A log being written: its lines and a clock that only moves forward.
struct Log {
    text: String,
    second: u32,
    workdir: String,
}

impl Log {
    fn new(workdir: &str) -> Log {
        Log { text: String::new(), second: 0, workdir: format!("/home/user/run/{workdir}/neuronxcc-a1b2c3") }
    }

    fn line(&mut self, level: &str, pid: u64, scope: Option<&str>, logger: &str, message: &str) {
        let (minute, second) = (self.second / 60, self.second % 60);
        let scope = scope.map(|s| format!("({s}) ")).unwrap_or_default();
        let _ =
            writeln!(self.text, "2026-11-21T16:{minute:02}:{second:02}Z {level} {pid} {scope}[{logger}]: {message}");
    }

    fn tick(&mut self) {
        self.second += 1;
    }

    /// The driver's and the pipeline's lines, up to the backend's first.
    fn start(&mut self, lnc: u64, modular: bool) {
        let work = self.workdir.clone();
        let model = work.trim_end_matches("/neuronxcc-a1b2c3").to_owned();
        self.line("INFO", PID, None, "root", &format!("/opt/venv/bin/neuronx-cc compile --framework=XLA {model}/model.hlo_module.pb --output {model}/model.neff --target=trn2 --logical-nc-config={lnc} --logfile={model}/log-neuron-cc.txt"));
        self.line(
            "INFO",
            PID,
            None,
            "root",
            "NeuronX Compiler version 2.24.5133.0+58f8de22 Python version 3.12.3 HWM version 2.24.0.5133+58f8de22",
        );
        self.tick();
        self.line("INFO", PID + 10, None, "root", &format!("Intermediate files stored in {work}, output in {model}"));
        if !modular {
            self.line(
                "INFO",
                PID + 10,
                None,
                "Tensorizer",
                "Frontend did not find netlist info. Switching to flat flow.",
            );
        }
        self.tick();
        let states = if modular { 6 } else { 2 };
        self.line(
            "INFO",
            PID + 10,
            None,
            "job.WalrusDriver.0",
            &format!("BackendDriver has {states} states with {lnc} core LNC"),
        );
        self.line("INFO", PID + 10, None, "job.WalrusDriver.0", &format!("BackendDriver VNC cwd: {work}"));
        let flow = if modular {
            "BackendDriver: found partitions within VNC, using VNC + MT modular flow."
        } else {
            "BackendDriver: no partitions within VNC found. Switching to VNC + flat flow."
        };
        self.line("INFO", PID + 10, None, "job.WalrusDriver.0", flow);
        self.line("INFO", PID + 30, None, "BackendDriver", "max_allowed_parallelism=12");
    }

    fn load(&mut self, modules: &[String]) {
        let work = self.workdir.clone();
        for module in modules {
            self.line("INFO", PID + 30, None, "BackendDriver", &format!("Loading module from {module}/bir.json"));
        }
        let n = modules.len();
        self.line(
            "INFO",
            PID + 30,
            None,
            "BackendDriver",
            &format!("Backend driver mtBackend: true numModules: {n} Cwd: \"{work}\""),
        );
        self.line("USER", PID + 30, None, "BackendPassManager", "Running mod_parallel_pass");
    }

    /// One pass on each of its scopes, their lines interleaved (every start, then the
    /// ends in reverse), and the closing status of a fork.
    fn pass(&mut self, name: &str, scopes: &[String], logger: &str) {
        for scope in scopes {
            self.line("USER", PID + 30, Some(scope), logger, &format!("Running {name}"));
        }
        for scope in scopes.iter().rev() {
            self.line("USER", PID + 30, Some(scope), logger, &format!("{name} finished after 0.004 seconds"));
        }
        let of = match logger {
            "SubgraphForkPass" => Some("subgraphs"),
            "ModuleForkPass" | "CoreForkPass" => Some("modules"),
            _ => None,
        };
        if let Some(of) = of {
            let n = scopes.len();
            self.line(
                "USER",
                PID + 30,
                None,
                logger,
                &format!("Compilation status: Total {of}: {n}, Passed: {n}, Failed: 0"),
            );
        }
    }

    fn all(&mut self, name: &str) {
        self.line("USER", PID + 30, None, "BackendPassManager", &format!("Running {name}"));
        self.line("USER", PID + 30, None, "BackendPassManager", &format!("{name} finished after 0.020 seconds"));
    }

    fn end(&mut self, exit: i64) {
        self.line("USER", PID + 30, None, "BackendPassManager", "mod_parallel_pass finished after 4.200 seconds");
        self.tick();
        self.line("INFO", PID + 10, None, "job.WalrusDriver.0", "Job #0 finished");
        self.line("INFO", PID, None, "root", &format!("Subcommand returned with exitcode={exit}"));
    }
}

fn cores(lnc: u64) -> Vec<String> {
    (0..lnc).map(|c| CoreId(c).to_string()).collect()
}

fn subgraph_scopes(subgraphs: &[u32]) -> Vec<String> {
    subgraphs.iter().map(|&s| SubgraphId(s).to_string()).collect()
}

fn module_scopes(lnc: u64, subgraphs: &[u32]) -> Vec<String> {
    subgraphs.iter().flat_map(|&s| (0..lnc).map(move |c| Place::subgraph(c, s).to_string())).collect()
}

/// A flat-flow compile that fails in `lower_local_collectives` on subgraph 0: no name
/// `missing` on core 1 (`NCC_ILLC059`), after the passes before it (the last one,
/// `coloring_allocator_dram`, is the one the work directory dumped).
pub fn flat_illc059(workdir: &str, lnc: u64, missing: &str) -> String {
    let mut log = Log::new(workdir);
    log.start(lnc, false);
    let modules = module_scopes(lnc, &[0]);
    log.load(&modules);
    log.pass("lnc_verifier", &subgraph_scopes(&[0]), "SubgraphForkPass");
    for name in ["expand_replication", "unroll"] {
        log.pass(name, &modules, "ModuleForkPass");
    }
    log.pass("localize_shared_memory", &subgraph_scopes(&[0]), "SubgraphForkPass");
    log.pass("oom_checker", &cores(lnc), "CoreForkPass");
    log.pass("coloring_allocator_dram", &modules, "ModuleForkPass");
    log.tick();
    let b = PID + 30;
    log.line("USER", b, Some("sg00"), "SubgraphForkPass", "Running lower_local_collectives");
    log.line(
        "INFO",
        b,
        Some("sg00"),
        "SubgraphForkPass",
        "Inputs to lower_local_collectives: modules=2 functions=2 allocs=13 blocks=2 instructions=3",
    );
    log.line("ERROR", b, None, "/local/p4clients/pkgbuild-abc/workspace/src/KaenaCompiler/walrus/lower_local_collectives/src/lower_local_collectives.cpp:78", "Assertion failure: memlocOnOtherCore != nullptr");
    log.line("USER", b, Some("sg00"), "SubgraphForkPass", "lower_local_collectives failed after 0.000 seconds");
    let error = format!("[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named {missing} on core 1 - Please open a support ticket at https://github.com/aws-neuron/aws-neuron-sdk/issues/new");
    log.line("ERROR", b, None, "SubgraphForkPass", &format!("Subgraph 0 failed with error {error}"));
    log.line("USER", b, None, "SubgraphForkPass", "Compilation status: Total subgraphs: 1, Passed: 0, Failed: 1");
    log.tick();
    log.line("ERROR", PID + 10, None, "job.WalrusDriver.0", "Backend exited with code 70");
    log.line("ERROR", PID, None, "neuronx-cc", "***************************************************************");
    log.line("ERROR", PID, None, "neuronx-cc", "An Internal Compiler Error has occurred");
    // The driver's echo wraps before the name, as the public logs do.
    let (head, tail) = error.split_at(error.find(" named ").map_or(0, |at| at + " named".len()));
    log.line("ERROR", PID, None, "neuronx-cc", &format!("Error message:  {head}"));
    let _ = writeln!(log.text, "{}", tail.trim_start());
    log.line("INFO", PID, None, "root", "Subcommand returned with exitcode=70");
    log.text
}

/// A modular-flow compile that passes: every core's subgraphs through the passes
/// before `bir_linker` (the work directory dumped `dep_reduction`), `bir_linker` per
/// core with `birlink_log`'s lines (birlink's `bir_linker.log` for the same dumps), the
/// linked modules' passes, and the VNC passes.
///
/// Codegen prints each linked module's opcode table: `barriers[c]` core barriers
/// (`UNKNOWN(0xd8)`, as 2.24 names `PSEUDO_CORE_BARRIER`) on core `c`, what the sync
/// check's log rule counts.
pub fn modular(workdir: &str, lnc: u64, subgraphs: &[u32], birlink_log: &[LogLine], barriers: &[u64]) -> String {
    let mut log = Log::new(workdir);
    log.start(lnc, true);
    let modules = module_scopes(lnc, subgraphs);
    let sgs = subgraph_scopes(subgraphs);
    let core_scopes = cores(lnc);
    log.load(&modules);
    log.pass("lnc_verifier", &sgs, "SubgraphForkPass");
    for name in ["expand_replication", "unroll"] {
        log.pass(name, &modules, "ModuleForkPass");
    }
    log.pass("localize_shared_memory", &sgs, "SubgraphForkPass");
    log.pass("oom_checker", &core_scopes, "CoreForkPass");
    log.pass("coloring_allocator_dram", &modules, "ModuleForkPass");
    for name in ["lower_local_collectives", "extend_shared_lifetimes"] {
        log.pass(name, &sgs, "SubgraphForkPass");
    }
    log.pass("coloring_allocator_dram_shared", &modules, "ModuleForkPass");
    log.pass("sync_shared_allocations", &sgs, "SubgraphForkPass");
    for name in ["alloc_queues", "chain_dma_transposes"] {
        log.pass(name, &modules, "ModuleForkPass");
    }
    log.pass("insert_dma_switch_queue_instance", &core_scopes, "CoreForkPass");
    for name in ["prefetch_scheduling_after_sched", "lower_control", "dep_reduction"] {
        log.pass(name, &modules, "ModuleForkPass");
    }
    log.tick();
    bir_linker(&mut log, lnc, birlink_log);
    for name in ["postlnk_dma_report", "report_stats", "coloring_allocator_dram_post_lnk"] {
        log.pass(name, &core_scopes, "CoreForkPass");
    }
    let linked: Vec<String> = (0..lnc).map(|c| Place::linked(c).to_string()).collect();
    for name in ["infer_stream_ids", "label_dma_qos"] {
        log.pass(name, &linked, "ModuleForkPass");
    }
    for name in ["lower_dynamic_dma", "optimize_queue_switch"] {
        log.pass(name, &core_scopes, "CoreForkPass");
    }
    log.all("dma_metrics");
    for name in ["lower_dma", "alloc_semaphores", "lower_sync", "lower_act", "coloring_allocator_reg"] {
        log.pass(name, &core_scopes, "CoreForkPass");
    }
    log.tick();
    vnc(&mut log, birlink_log);
    log.pass("branch_hint", &linked, "ModuleForkPass");
    log.pass("expand_all_engine_final_pre_codegen", &core_scopes, "CoreForkPass");
    log.pass("birverifier", &linked, "ModuleForkPass");
    codegen(&mut log, &linked, barriers);
    for name in ["hbm_usage", "neff_packager"] {
        log.all(name);
    }
    log.end(0);
    log.text
}

/// `codegen` on each linked module, each printing its opcode and engine tables, boxed as
/// the compiler draws them (rows on lines of their own).
fn codegen(log: &mut Log, linked: &[String], barriers: &[u64]) {
    let b = PID + 30;
    for scope in linked {
        log.line("USER", b, Some(scope), "ModuleForkPass", "Running codegen");
    }
    for (core, scope) in linked.iter().enumerate() {
        let count = barriers.get(core).copied().unwrap_or(0);
        log.line("INFO", b, Some(scope), "Codegen", "Instruction Stats:");
        let rows = [
            ("MATMULT", 5180),
            ("ACTIVATE", 2111),
            ("UNKNOWN(0xd8)", count),
            ("EVENT_SEMAPHORE", 15144 - 3079 * core as u64),
        ];
        let _ =
            writeln!(log.text, "┌─────────────────┬───────┐\n│ Opcode          │ Count │\n├─────────────────┼───────┤");
        for (opcode, n) in rows {
            let _ = writeln!(log.text, "│ {opcode:<15} │ {n:>5} │");
        }
        let _ = writeln!(log.text, "└─────────────────┴───────┘");
        log.line("INFO", b, Some(scope), "Codegen", "Engine Stats:");
        let _ = writeln!(log.text, "┌────────────┬───────┐\n│ Engine     │ Count │\n├────────────┼───────┤\n│ PE         │  7291 │\n└────────────┴───────┘");
    }
    for scope in linked.iter().rev() {
        log.line("USER", b, Some(scope), "ModuleForkPass", "codegen finished after 0.004 seconds");
    }
    let n = linked.len();
    log.line(
        "USER",
        b,
        None,
        "ModuleForkPass",
        &format!("Compilation status: Total modules: {n}, Passed: {n}, Failed: 0"),
    );
}

/// Each core's block of birlink's log, the cores' lines interleaved in runs of five,
/// written as the compiler writes them.
fn bir_linker(log: &mut Log, lnc: u64, birlink_log: &[LogLine]) {
    let b = PID + 30;
    let work = log.workdir.clone();
    let mut blocks: Vec<Vec<(String, &'static str, String)>> = Vec::new();
    for core in (0..lnc).map(CoreId) {
        let mut block = Vec::new();
        let mut unique = 205_426;
        let linked = Place::linked(core.0).to_string();
        let inputs = model_inputs(birlink_log, core);
        for line in birlink_log {
            let (Some(scope), logger) = (line.scope, line.logger) else { continue };
            let (scope_text, name) = (scope.to_string(), logger.as_str());
            if scope == Scope::Core(core) && logger == Logger::CoreForkPass {
                if line.message.starts_with("Running ") {
                    log.line("USER", b, Some(&scope_text), name, &line.message);
                } else {
                    block.push((scope_text, name, line.message.clone()));
                }
                continue;
            }
            if line.linker_core() != Some(core) {
                continue;
            }
            let mut message = under(&line.message, &work);
            if message.starts_with("Num intermediates ") {
                block.push((scope_text.clone(), name, format!("bir_linker cwd: {work}/{linked}")));
            }
            if message.starts_with("moving ") && !message.ends_with(" done") {
                message = format!("{message} Module.getUniqueId() {unique}");
                unique += 6;
            }
            if message == "releasing pre-link modules" {
                for said in [
                    "PostLink Stats: #MatMults 5180 #MatMult-Transposes 2111",
                    "Total Intermediate MMTs 12 #out: 0 #inp: 12 #symmetric: 0",
                    "Total Intermediate IOs with MMTs: 4 #out: 0 #inp: 4 #both: 0",
                ] {
                    block.push((scope_text.clone(), name, said.to_owned()));
                }
            }
            let npy = message.starts_with("Symlinking npy files to ");
            block.push((scope_text.clone(), name, message));
            if npy {
                for (subgraph, input) in &inputs {
                    let from = format!("{work}/{}/{input}.npy", Place::subgraph(core.0, *subgraph));
                    let to = format!("{work}/{linked}/sg00/{input}.npy");
                    block.push((scope_text.clone(), name, format!("Symlinking \"{from}\" to \"{to}\"")));
                }
            }
        }
        blocks.push(block);
    }
    let mut at = vec![0usize; blocks.len()];
    while blocks.iter().zip(&at).any(|(block, at)| *at < block.len()) {
        for (block, at) in blocks.iter().zip(at.iter_mut()) {
            for (scope, logger, message) in block.iter().skip(*at).take(5) {
                let level = if message.starts_with("Inputs to") || *logger == "BirLinker" { "INFO" } else { "USER" };
                log.line(level, b, Some(scope), logger, message);
                if message.starts_with("Output has") {
                    log.line("USER", b, Some(scope), logger, "bir_linker finished after 0.311 seconds");
                }
            }
            *at = (*at + 5).min(block.len());
        }
    }
    let n = lnc;
    log.line(
        "USER",
        b,
        None,
        "CoreForkPass",
        &format!("Compilation status: Total modules: {n}, Passed: {n}, Failed: 0"),
    );
}

/// A message's paths under the compile's own directory (birlink's name the dumps'
/// folder: `workdir-moe/nc00/sgLnk` is `WORK/nc00/sgLnk`).
fn under(message: &str, work: &str) -> String {
    let words: Vec<String> = message
        .split(' ')
        .map(|word| match word.split_once('/') {
            Some((_, rest)) if CoreId::parse(rest.split('/').next().unwrap_or("")).is_some() => {
                format!("{work}/{rest}")
            }
            _ => word.to_owned(),
        })
        .collect();
    words.join(" ")
}

/// The model inputs a core's subgraphs take (`Inp[k] inputN`), each once, with the
/// subgraph that takes it first: the `.npy` files its link directory links.
fn model_inputs(birlink_log: &[LogLine], core: CoreId) -> Vec<(u32, String)> {
    let mut inputs: Vec<(u32, String)> = Vec::new();
    let mut subgraph = 0;
    for line in birlink_log.iter().filter(|l| l.linker_core() == Some(core)) {
        let message = line.message.trim();
        if let Some(n) = message.strip_prefix("moving sg").and_then(|r| r.split_whitespace().next()) {
            subgraph = n.parse().unwrap_or(subgraph);
        } else if let Some(name) = message.strip_prefix("Inp[").and_then(|r| r.split_once("] ")).map(|(_, n)| n) {
            if name.starts_with("input") && !inputs.iter().any(|(_, known)| known == name) {
                inputs.push((subgraph, name.to_owned()));
            }
        }
    }
    inputs
}

/// birlink's lines of the VNC passes, with the compiler's ends.
fn vnc(log: &mut Log, birlink_log: &[LogLine]) {
    let b = PID + 30;
    let mut open: Option<String> = None;
    for line in birlink_log.iter().filter(|l| l.scope.is_none()) {
        let (logger, message) = (line.logger.as_str(), line.message.as_str());
        if let Some(name) = message.strip_prefix("Running ") {
            if let Some(done) = open.take() {
                log.line("USER", b, None, "BackendPassManager", &format!("{done} finished after 0.020 seconds"));
            }
            open = Some(name.to_owned());
        }
        let level = if message.starts_with("Running ") { "USER" } else { "INFO" };
        log.line(level, b, None, logger, message);
    }
    if let Some(done) = open {
        log.line("USER", b, None, "BackendPassManager", &format!("{done} finished after 0.020 seconds"));
    }
}
