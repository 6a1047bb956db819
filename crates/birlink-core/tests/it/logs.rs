//! Whole compiler logs (`tools::log::read_log`), written in the shape of the public
//! `log-neuron-cc.txt` files (`tests/logs/`): two cores' lines interleaved, several
//! compiles in one file, a very long line, a failure in the middle with its driver's
//! echo, a log cut short. Each is asserted on what matters, and its whole JSON is a
//! snapshot.

use std::path::Path;

use birlink_core::tools::log::compile::{Lane, RunStatus};
use birlink_core::tools::log::{read_log, LogReading};

fn read(name: &str) -> LogReading {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/logs").join(name);
    read_log(&std::fs::read_to_string(path).unwrap())
}

fn passes<'r>(reading: &'r LogReading, name: &str) -> Vec<(Option<&'r str>, &'r str)> {
    reading.run.passes.iter().filter(|p| p.name == name).map(|p| (p.scope.as_deref(), p.status.as_str())).collect()
}

#[test]
fn a_modular_compile_reads_whole_with_its_cores_interleaved() {
    let reading = read("modular-two-cores.txt");
    assert_eq!(reading.runs.len(), 1);
    let run = &reading.run;
    assert_eq!(run.compiler.version.as_deref(), Some("2.24.5133.0+58f8de22"));
    assert_eq!((run.lnc, run.flow.map(|f| f.as_str())), (Some(2), Some("modular")));
    assert_eq!(run.modules.len(), 6);
    assert_eq!(
        (run.modules[1].core, run.modules[1].subgraph, run.modules[1].file.as_str()),
        (Some(1), Some(1), "nc01/sg01/bir.json")
    );
    // Each pass on each scope, ended by its own line whatever the order.
    assert_eq!(passes(&reading, "bir_linker"), [(Some("nc00"), "passed"), (Some("nc01"), "passed")]);
    assert_eq!(passes(&reading, "lnc_verifier").len(), 3);
    assert!(run.passes.iter().all(|p| p.status == RunStatus::Passed), "{:?}", run.passes);
    let lanes: Vec<Lane> = ["lnc_verifier", "dep_reduction", "bir_linker", "vnc_link"]
        .iter()
        .map(|n| run.passes.iter().find(|p| p.name == *n).unwrap().lane)
        .collect();
    assert_eq!(lanes, [Lane::Subgraph, Lane::Module, Lane::Core, Lane::All]);
    // The two BirLinker blocks, one per core, each with its own moves.
    assert_eq!(run.bir_linker.len(), 2);
    for block in &run.bir_linker {
        assert_eq!((block.intermediates, block.definitions, block.done), (Some(6), Some(3), true));
        let moved: Vec<(&str, usize, usize)> =
            block.moved.iter().map(|m| (m.function.as_str(), m.inputs.len(), m.outputs.len())).collect();
        assert_eq!(moved, [("sg0000", 2, 2), ("sg0001", 2, 1), ("sg0002", 2, 1)]);
        assert_eq!(block.moved[1].inputs, ["intermediate0", "input5"]);
    }
    assert_eq!(run.vnc_link.as_ref().map(|v| v.remote_updates), Some(0));
    assert!(run.failure.is_none());
    assert_eq!(run.exit_code, Some(0));
    assert_eq!(run.status.last().map(|s| (s.of.as_str(), s.total, s.failed)), Some(("modules", 2, 0)));
    // The frontend's histogram lines are not the backend's: counted, kept, not fatal.
    assert!(reading.unknown.count >= 3, "{:?}", reading.unknown);
    assert!(reading.unknown.first.iter().any(|(_, t)| t.contains("parameter")));
}

#[test]
fn a_failure_in_the_middle_is_its_pass_its_assertion_and_its_error_once() {
    let reading = read("flat-illc059.txt");
    let run = &reading.run;
    assert_eq!((run.lnc, run.flow.map(|f| f.as_str())), (Some(2), Some("flat")));
    assert_eq!(run.compiler.version.as_deref(), Some("2.23.6484.0+3b612583"));
    let failure = run.failure.as_ref().unwrap();
    assert_eq!((failure.pass.as_deref(), failure.scope.as_deref()), (Some("lower_local_collectives"), Some("sg00")));
    assert_eq!(failure.code.as_deref(), Some("NCC_ILLC059"));
    assert_eq!(
        failure.message,
        "Could not find MemoryLocation named inst____mp_main__.sbuf_allreduce_tp4-0:sbuf_in.23 on core 1"
    );
    let assertion = failure.assertion.as_ref().unwrap();
    assert!(assertion.file.ends_with("lower_local_collectives/src/lower_local_collectives.cpp"), "{}", assertion.file);
    assert_eq!((assertion.line, assertion.text.as_str()), (78, "memlocOnOtherCore != nullptr"));
    assert_eq!(failure.names.len(), 1);
    assert_eq!(
        (failure.names[0].name.as_str(), failure.names[0].core),
        ("inst____mp_main__.sbuf_allreduce_tp4-0:sbuf_in.23", Some(1))
    );
    // The error line, not its echo by the driver (wrapped over two lines).
    assert!(failure.line < run.last_line);
    assert_eq!(passes(&reading, "lower_local_collectives"), [(Some("sg00"), "failed")]);
    // What to dump to see it: the last pass that passed on sg00's modules before it.
    assert_eq!(failure.dump_after.as_deref(), Some("coloring_allocator_dram"));
    assert_eq!(run.status.last().map(|s| (s.of.as_str(), s.total, s.passed, s.failed)), Some(("subgraphs", 1, 0, 1)));
    assert_eq!(run.exit_code, Some(70));
    // No pass after the failing one ran: the VNC passes are not in the log.
    assert!(passes(&reading, "vnc_link").is_empty());
}

#[test]
fn several_compiles_in_one_file_are_runs_told_apart_by_their_processes() {
    let reading = read("two-compiles.txt");
    assert_eq!(reading.runs.len(), 2, "{:?}", reading.runs.iter().map(|r| &r.pids).collect::<Vec<_>>());
    assert_eq!(reading.runs[0].pids, [5100, 5110, 5130]);
    assert_eq!(reading.runs[1].pids, [5101, 5111, 5131]);
    assert!(reading.runs[0].failure.is_none());
    assert_eq!(reading.runs[0].vnc_link.as_ref().map(|v| v.remote_updates), Some(0));
    assert_eq!(reading.runs[0].exit_code, Some(0));
    // The top level is the run that failed, and its error is one failure.
    assert_eq!(reading.run_index, Some(1));
    let failure = reading.run.failure.as_ref().unwrap();
    assert_eq!(
        (failure.pass.as_deref(), failure.code.as_deref()),
        (Some("lower_local_collectives"), Some("NCC_ILLC059"))
    );
    assert_eq!(reading.run.exit_code, Some(70));
    // Each run has its own passes: the same pass on the same scope in both.
    for run in &reading.runs {
        assert_eq!(run.passes.iter().filter(|p| p.name == "lnc_verifier" && p.status == RunStatus::Passed).count(), 1);
        assert_eq!(run.modules.len(), 2);
    }
}

#[test]
fn a_log_cut_short_reads_as_far_as_it_goes() {
    let reading = read("cut-short.txt");
    let run = &reading.run;
    assert_eq!(run.flow.map(|f| f.as_str()), Some("modular"));
    assert_eq!(passes(&reading, "bir_linker"), [(Some("nc00"), "started"), (Some("nc01"), "started")]);
    assert!(run.bir_linker.iter().all(|b| !b.done));
    let nc01 = run.bir_linker.iter().find(|b| b.core == Some(1)).unwrap();
    assert_eq!(nc01.moved.iter().map(|m| m.function.as_str()).collect::<Vec<_>>(), ["sg0000", "sg0001"]);
    assert!(run.failure.is_none() && run.vnc_link.is_none() && run.exit_code.is_none());
    assert_eq!(reading.lines, 93);
}

#[test]
fn every_log_reads_to_the_same_json() {
    for name in [
        "modular-two-cores.txt",
        "flat-illc059.txt",
        "two-compiles.txt",
        "cut-short.txt",
        "frontend-enospc-2.25.txt",
        "flat-2.25-gen-cci.txt",
    ] {
        let reading = read(name);
        let json = serde_json::to_string_pretty(&reading).unwrap();
        // Deterministic, and what it says round-trips.
        assert_eq!(serde_json::from_str::<LogReading>(&json).unwrap(), reading);
        insta::assert_snapshot!(format!("log-{name}"), json);
    }
}

/// A generated work directory sample: its files, its log, and birlink's run of it.
fn sample_with_log(name: &str) -> (Vec<String>, String, birlink_core::Outcome) {
    let (_, files) = birlink_core::gen::samples::workdirs().into_iter().find(|(info, _)| info.file == name).unwrap();
    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    let log = files.iter().find(|f| f.path.ends_with("log-neuron-cc.txt")).unwrap();
    let log = String::from_utf8(log.bytes.clone()).unwrap();
    let held: Vec<(String, Vec<u8>)> = files.into_iter().map(|f| (f.path, f.bytes)).collect();
    let (sources, input) = birlink_core::read::workdir::split(held, None).unwrap();
    let options = birlink_core::LinkOptions { workdir: Some(input), ..Default::default() };
    (paths, log, birlink_core::run(sources, &options))
}

#[test]
fn a_modular_log_beside_its_dumps_agrees_with_birlinks_bir_linker_log_line_for_line() {
    use birlink_core::tools::log::beside;
    let (_, log, outcome) = sample_with_log("workdir-moe");
    let reading = read_log(&log);
    assert_eq!((reading.run.flow.map(|f| f.as_str()), reading.run.modules.len()), (Some("modular"), 6));
    // The two cores' BirLinker lines interleave, as the backend writes them.
    let scopes: Vec<&str> =
        log.lines().filter(|l| l.contains("[BirLinker]")).map(|l| &l[l.find('(').unwrap()..][..12]).collect();
    assert!(scopes.windows(2).filter(|w| w[0] != w[1]).count() > 4, "{scopes:?}");
    let held = beside(&log, &reading, &outcome);
    assert_eq!(held.bir_linker.len(), 2);
    for core in &held.bir_linker {
        assert_eq!(core.first_difference, None, "core {}", core.core);
        assert!(core.log_lines > 20 && core.log_lines == core.birlink_lines, "{core:?}");
    }
    assert_eq!(held.failure, None);
    // Shaped like a real 2.24 block: what birlink cannot know is in the log, set aside
    // and counted by kind, and the rest agrees.
    for core in &held.bir_linker {
        let block: Vec<&str> =
            log.lines().filter(|l| l.contains(&format!("(nc{:02}/sgLnk) [BirLinker]", core.core))).collect();
        let files = block.iter().filter(|l| l.contains("]: Symlinking \"")).count();
        assert!(files > 0, "a symlink per model input file");
        let aside = |kind: &str| {
            core.set_aside.iter().find(|(k, _)| serde_json::to_value(k).unwrap() == kind).map_or(0, |(_, n)| *n)
        };
        assert_eq!(
            (aside("cwd"), aside("symlink"), aside("unique_id"), aside("post_link_stats"), aside("total_intermediate")),
            (1, files + 3, 3, 1, 2),
            "{:?}",
            core.set_aside
        );
        // Every line of the block is compared or set aside (the framing lines too).
        let whole = block.len() + 2;
        assert_eq!(core.log_lines + core.set_aside.values().sum::<usize>() - aside("unique_id"), whole);
        println!("core {}: {} lines in the block, {} compared", core.core, block.len(), core.log_lines);
    }
    let vnc = held.vnc.as_ref().expect("the VNC passes' lines");
    assert_eq!((vnc.first_difference.as_ref(), vnc.log_lines), (None, vnc.birlink_lines));
    assert!(vnc.log_lines >= 3, "{vnc:?}");
    // One name changed in core 1's block: the first line that differs, with both texts.
    let (at, line) = log.lines().enumerate().find(|(_, l)| l.contains("(nc01/sgLnk) [BirLinker]:  Inp[1] ")).unwrap();
    let changed = log.replacen(line, &line.replacen("Inp[1] ", "Inp[1] renamed_", 1), 1);
    let held = beside(&changed, &read_log(&changed), &outcome);
    assert_eq!(held.bir_linker[0].first_difference, None);
    let difference = held.bir_linker[1].first_difference.clone().unwrap();
    assert_eq!(difference.line, Some(at + 1));
    assert!(difference.log.unwrap().starts_with("Inp[1] renamed_"));
    assert!(difference.birlink.unwrap().starts_with("Inp[1] "));
}

#[test]
fn a_real_shaped_log_beside_other_dumps_says_where_they_part() {
    use birlink_core::tools::log::beside;
    let (_, _, outcome) = sample_with_log("workdir-moe");
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/logs/modular-two-cores.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let held = beside(&text, &read_log(&text), &outcome);
    // Its linker took 75008 instructions; birlink's run of the sample, 92: the first
    // line, the framing `Inputs to bir_linker` (the input determines it).
    let first = held.bir_linker[0].first_difference.clone().unwrap();
    assert_eq!(
        (first.index, first.log.as_deref(), first.birlink.as_deref()),
        (
            0,
            Some("Inputs to bir_linker: modules=3 functions=3 allocs=30685 blocks=3 instructions=75008"),
            Some("Inputs to bir_linker: modules=3 functions=3 allocs=44 blocks=9 instructions=92")
        )
    );
}

#[test]
fn the_flat_ilcc059_log_finds_its_failure_where_birlink_reports_it() {
    use birlink_core::tools::log::{beside, dumps_after};
    let (paths, log, outcome) = sample_with_log("workdir-illc059");
    let reading = read_log(&log);
    let failure = reading.run.failure.clone().unwrap();
    assert_eq!(
        (failure.pass.as_deref(), failure.scope.as_deref(), failure.code.as_deref()),
        (Some("lower_local_collectives"), Some("sg00"), Some("NCC_ILLC059"))
    );
    assert_eq!(failure.dump_after.as_deref(), Some("coloring_allocator_dram"));
    assert!(reading.run.bir_linker.is_empty() && reading.run.flow.map(|f| f.as_str()) == Some("flat"));
    let held = beside(&log, &reading, &outcome);
    let against = held.failure.unwrap();
    assert_eq!((against.verdict.as_str(), against.birlink.as_deref()), ("same", Some("BL0207")));
    let d = &outcome.report.diagnostics[against.diagnostic.unwrap()];
    assert_eq!(d.code, birlink_core::Code::LocalCollectiveNameMissing);
    // The pass before the failing one dumped both cores' modules.
    let names: Vec<&str> = paths.iter().map(String::as_str).collect();
    let before = reading
        .run
        .passes
        .iter()
        .find(|p| p.name == "coloring_allocator_dram" && p.scope.as_deref() == Some("nc01/sg00"))
        .unwrap();
    let dumped: Vec<&str> = dumps_after(before, &names).into_iter().map(|i| names[i]).collect();
    assert_eq!(dumped, ["workdir-illc059/nc01/sg00/bir_debug.9.after-coloring_allocator_dram.before-lower_local_collectives.penguin.json"]);
    // Beside dumps that do not show it: why, and the flags that would.
    let (_, _, other) = sample_with_log("workdir-moe");
    let against = beside(&log, &reading, &other).failure.unwrap();
    assert_eq!(against.verdict, "missing");
    assert!(against.said.contains("--internal-print-after=coloring_allocator_dram"), "{}", against.said);
}

#[test]
fn the_same_processes_compiling_again_are_a_new_run() {
    // One log appended to itself: the same process ids, two compiles.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/logs/modular-two-cores.txt");
    let once = std::fs::read_to_string(path).unwrap();
    let twice = read_log(&format!("{once}{once}"));
    assert_eq!(twice.runs.len(), 2);
    assert_eq!(twice.run_index, Some(1));
    let first = read_log(&once);
    assert_eq!(twice.runs[1].passes.len(), first.run.passes.len());
    assert_eq!(twice.runs[0].bir_linker, first.run.bir_linker);
}

#[test]
fn lower_local_collectives_look_up_is_per_subgraph_in_the_modular_flow() {
    use serde_json::{json, Value};
    // The modular work directory; on core 0's subgraph 1, a local all-reduce over a
    // buffer numbered `.31`; core 1's subgraph 1 numbers it `.72`, and core 1's subgraph
    // 0 has a `.31` of its own, which is another subgraph's and does not count.
    let (_, files) = birlink_core::gen::samples::workdirs().into_iter().find(|(i, _)| i.file == "workdir-moe").unwrap();
    let buffer = |n: u32| format!("inst____main__.lnc2_reduce-0:my_row.{n}");
    let edit = |bytes: &[u8], name: &str, collective: bool| -> Vec<u8> {
        let mut module: Value = serde_json::from_slice(bytes).unwrap();
        let function = &mut module["functions"][0];
        function["allocations"].as_array_mut().unwrap().push(json!({
            "Skind": "memory_location_set", "addr_space": "Local", "dtype": "bfloat16", "kind": "Internal",
            "memorylocations": [{"addr": 0x38_0000, "allocated": true, "bank": 0, "base": 0, "dims": [64], "name": name, "type": "DRAM"}],
            "name": format!("{name}_set"), "tensor_shape": [64]
        }));
        if collective {
            let ap = json!({"ap": [[1, 64]], "dtype": "bfloat16", "kind": "physical_ap", "memref": name, "offset": 0});
            function["blocks"][0]["instructions"].as_array_mut().unwrap().push(json!({
                "name": "lnc2_reduce_all", "opcode": "CollectiveCompute", "engine": "Pool", "is_local": true,
                "cc_channel": {"kind": 2, "op": "add", "replica_groups": [[0, 1]]}, "ins": [ap.clone()], "outs": [ap]
            }));
        }
        serde_json::to_vec_pretty(&module).unwrap()
    };
    let held: Vec<(String, Vec<u8>)> = files
        .into_iter()
        .map(|f| {
            let dump = f.path.contains("bir_debug");
            let bytes = match (
                dump,
                f.path.contains("/nc00/sg01/"),
                f.path.contains("/nc01/sg01/"),
                f.path.contains("/nc01/sg00/"),
            ) {
                (true, true, _, _) => edit(&f.bytes, &buffer(31), true),
                (true, _, true, _) => edit(&f.bytes, &buffer(72), true),
                (true, _, _, true) => edit(&f.bytes, &buffer(31), false),
                _ => f.bytes,
            };
            (f.path, bytes)
        })
        .collect();
    let (sources, input) = birlink_core::read::workdir::split(held, None).unwrap();
    let outcome = birlink_core::run(sources, &birlink_core::LinkOptions { workdir: Some(input), ..Default::default() });
    assert_eq!(outcome.report.options.flow, birlink_core::Flow::Modular);
    let found: Vec<&str> = outcome
        .report
        .diagnostics
        .iter()
        .filter(|d| d.code == birlink_core::Code::LocalCollectiveNameMissing)
        .map(|d| d.message.as_str())
        .collect();
    let hint =
        outcome.report.diagnostics.iter().find(|d| d.code == birlink_core::Code::LocalCollectiveNameMissing).unwrap();
    assert!(hint.help.contains("only in its numbers"), "{}", hint.help);
    // Both directions, in subgraph 1 only; core 1's `.31` in subgraph 0 is no answer.
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].contains("on core 0 of subgraph 1") && found[0].contains(&buffer(31)), "{}", found[0]);
    assert!(found[0].contains(&format!("nearest on core 1: `{}`", buffer(72))), "{}", found[0]);
    assert!(found[1].contains("on core 1 of subgraph 1") && found[1].contains(&buffer(72)), "{}", found[1]);
}

/// The sync check's log rule (docs/spec/sync.md §7): each codegen scope's opcode table
/// counted, a core whose total differs from core 0's BL0713, and the public runs' equal
/// counts (679/679) nothing.
#[test]
fn bl0713_the_cores_pseudo_core_barrier_counts_differ() {
    use birlink_core::diag::codes::Code;
    use birlink_core::output::sync::{SyncSource, SyncStatus};
    let log = |barriers: &[u64]| read_log(&birlink_core::gen::log::modular("w", 2, &[0, 1, 2], &[], barriers));
    let differ = log(&[679, 678]);
    let sync = &differ.sync;
    assert_eq!((sync.status, sync.source, sync.cores), (SyncStatus::Ran, SyncSource::Log, 2));
    let rows = &sync.log.as_ref().expect("the rule's rows").barrier_counts;
    let counted: Vec<(u64, &str, u64)> = rows.iter().map(|r| (r.core, r.scope.as_str(), r.count)).collect();
    assert_eq!(counted, [(0, "nc00/sgLnk", 679), (1, "nc01/sgLnk", 678)]);
    // Each row's line is the table's `UNKNOWN(0xd8)` row.
    let text = birlink_core::gen::log::modular("w", 2, &[0, 1, 2], &[], &[679, 678]);
    let line = rows[1].line.expect("a line") as usize;
    assert!(text.lines().nth(line - 1).is_some_and(|l| l.contains("UNKNOWN(0xd8)") && l.contains("678")));
    assert_eq!(sync.findings.len(), 1);
    let finding = &sync.findings[0];
    assert_eq!(
        (finding.code, finding.core, finding.detail.clone()),
        (Code::SyncLogBarriers, Some(1), serde_json::json!({"counts": [679, 678]}))
    );
    assert!(finding.message.contains("nc01/sgLnk"), "{}", finding.message);
    assert!(sync.headline().contains("679/678"), "{}", sync.headline());
    // Equal counts: the rule ran and found nothing; a log with no table: skipped.
    assert!(log(&[679, 679]).sync.findings.is_empty());
    assert_eq!(read("cut-short.txt").sync.status, SyncStatus::Skipped);
}

#[test]
fn a_full_disk_in_the_frontend_is_the_machines_failure_read_from_its_traceback() {
    use birlink_core::tools::log::compile::FailureKind;
    let reading = read("frontend-enospc-2.25.txt");
    let run = &reading.run;
    assert_eq!(run.compiler.version.as_deref(), Some("2.25.3371.0+a6d2a1c5"));
    // hlo2penguin's flag says the LNC: no backend ran.
    assert_eq!((run.lnc, run.exit_code), (Some(2), Some(70)));
    let failure = run.failure.as_ref().expect("a failure");
    assert_eq!(failure.kind, Some(FailureKind::Environment));
    assert_eq!(failure.code, None);
    let traceback = failure.traceback.as_ref().expect("its traceback");
    assert_eq!(traceback.exception, "OSError: [Errno 28] No space left on device");
    assert_eq!((traceback.frames, traceback.line), (4, 5));
    let frame = traceback.frame.as_ref().unwrap();
    assert_eq!((frame.function.as_str(), frame.line), ("save", 546));
    assert!(
        failure.message.starts_with("OSError: [Errno 28] No space left on device (in save, "),
        "{}",
        failure.message
    );
    // Its frames and source lines are the traceback's, not lines birlink does not know.
    assert!(reading.unknown.first.iter().all(|(_, t)| !t.contains("File \"")), "{:?}", reading.unknown);
}

#[test]
fn failures_are_classed_as_the_user_must_act_on_them() {
    use birlink_core::tools::log::compile::FailureKind;
    let kind = |code: Option<&str>, message: &str, assertion, exit| FailureKind::of(code, message, assertion, exit);
    assert_eq!(
        kind(Some("NCC_ILLC059"), "Could not find MemoryLocation named x on core 1", true, Some(70)),
        FailureKind::Compiler
    );
    assert_eq!(kind(Some("NCC_EVRF001"), "Operator is not supported", false, Some(70)), FailureKind::Input);
    assert_eq!(kind(None, "OSError: [Errno 28] No space left on device", false, Some(70)), FailureKind::Environment);
    assert_eq!(kind(None, "the compiler exited with code 137", false, Some(137)), FailureKind::Environment);
    assert_eq!(kind(None, "the compiler exited with code -9", false, Some(-9)), FailureKind::Environment);
    assert_eq!(kind(None, "MemoryError", false, Some(1)), FailureKind::Environment);
    assert_eq!(kind(None, "Assertion failure: x", true, Some(70)), FailureKind::Compiler);
    assert_eq!(kind(None, "the compiler exited with code 70", false, Some(70)), FailureKind::Internal);
    // Every fixture's failure has a kind; the ILLC059 log's is the compiler's.
    let illc = read("flat-illc059.txt");
    assert_eq!(illc.run.failure.as_ref().and_then(|f| f.kind), Some(FailureKind::Compiler));
    // A version said in one line without the log's prefix, and an IBIR440's set.
    let one = read_log("[root]: NeuronX Compiler version 2.24.5133.0+58f8de22 Python version 3.10.12 HWM version 2.24.0.5133+58f8de22\n\
        2026-01-02T03:04:05Z ERROR 77 [ModuleForkPass]: Module 0 failed with error [INTERNAL_ERROR] [NCC_IBIR440] Expect all DRAM memory locations to be allocated after dram_allocator, violation: inst____main__.lnc2_reduce_shared_hbm-0:my_row.31_set.\n");
    assert_eq!(one.run.compiler.version.as_deref(), Some("2.24.5133.0+58f8de22"));
    let failure = one.run.failure.as_ref().unwrap();
    assert_eq!(
        failure.names.iter().map(|n| n.name.as_str()).collect::<Vec<_>>(),
        ["inst____main__.lnc2_reduce_shared_hbm-0:my_row.31_set"]
    );
    assert_eq!(failure.kind, Some(FailureKind::Compiler));
    // 2.27's NCC_IXGM002 names its function and core; NCC_IBIR297 is known, with no shape.
    let ixgm = read_log("2026-08-17T01:02:03Z ERROR 9 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] [NCC_IXGM002] Expected function sg0000 in subgraph 0 to have 3 basic blocks, but on core 1 it has 1 basic blocks\n");
    let failure = ixgm.run.failure.as_ref().unwrap();
    assert_eq!(failure.code.as_deref(), Some("NCC_IXGM002"));
    assert_eq!((failure.names[0].name.as_str(), failure.names[0].core), ("sg0000", Some(1)));
    let known = birlink_core::diag::ncc::find("NCC_IXGM002").unwrap();
    assert_eq!(known.birlink, Some(birlink_core::Code::SyncBlocks));
    let ibir = read_log("2026-08-17T01:02:03Z ERROR 9 [ModuleForkPass]: Module 3 failed with error [INTERNAL_ERROR] [NCC_IBIR297] bir::samePartitionsAll\n");
    assert_eq!(ibir.run.failure.as_ref().and_then(|f| f.code.as_deref()), Some("NCC_IBIR297"));
    assert!(birlink_core::diag::ncc::find("IBIR297")
        .is_some_and(|n| n.birlink.is_none() && n.fix.contains("compiler issue")));
}

#[test]
fn a_2_25_compile_reads_its_gen_cci_pass_and_each_cores_opcode_table() {
    let reading = read("flat-2.25-gen-cci.txt");
    let run = &reading.run;
    assert_eq!((run.lnc, run.flow.map(|f| f.as_str())), (Some(2), Some("flat")));
    assert_eq!(passes(&reading, "gen_cci"), [(Some("nc00"), "passed"), (Some("nc01"), "passed")]);
    assert!(run.failure.is_none());
    assert_eq!(run.instruction_stats.len(), 2);
    let [core0, core1] = [&run.instruction_stats[0], &run.instruction_stats[1]];
    assert_eq!((core0.core, core0.module.as_str(), core1.core), (0, "nc00/sg00", 1));
    // 0xd8 named, with where the name comes from; 0x7f keeps the compiler's words.
    assert_eq!((core0.core_barriers(), core1.core_barriers()), (116, 116));
    assert_eq!(core0.named.iter().map(|n| n.printed.as_str()).collect::<Vec<_>>(), ["UNKNOWN(0xd8)"]);
    assert_eq!(core0.opcodes.get("UNKNOWN(0x7f)"), Some(&12));
    assert_eq!((core0.opcodes["EVENT_SEMAPHORE"], core1.opcodes["EVENT_SEMAPHORE"]), (15144, 12065));
    assert_eq!((core0.engines["PE"], core0.engines.len()), (4102, 5));
    assert_eq!(core1.queues.get("qSyncIO0"), Some(&1536));
    // The sync check's log rule reads the same rows: equal, no finding.
    assert!(reading.sync.findings.is_empty());
    assert_eq!(
        reading.sync.log.as_ref().map(|l| l.barrier_counts.iter().map(|b| b.count).collect::<Vec<_>>()),
        Some(vec![116, 116])
    );
    // The walrus driver's flags, as its command gives them.
    let flags = &run.backend_flags;
    assert_eq!(flags.get("enable-data-race-checker").map(String::as_str), Some("false"));
    assert_eq!(flags.get("num-semaphores-per-queue").map(String::as_str), Some("16"));
    assert_eq!(flags.get("link-subgraphs").map(String::as_str), Some("nc00/sg00,nc01/sg00"));
    // Every table row and descriptor line is read (what is left is not the tables').
    assert!(
        reading
            .unknown
            .first
            .iter()
            .all(|(_, t)| !t.contains('│') && !t.contains("DMA descriptors") && !t.contains("gen_cci")),
        "{:?}",
        reading.unknown
    );
}

/// A modular work directory at a real compile's size — 48 partitions of 3 definitions,
/// a layer taking `weights` model inputs — with the log of its compile: a BirLinker
/// block per core as long as a real one, with every line birlink cannot know.
fn real_sized(weights: usize) -> (String, birlink_core::Outcome) {
    let config = birlink_core::gen::GenConfig { insts: 24, weights, ..birlink_core::gen::samples::moe_config() };
    let files = birlink_core::gen::modular_workdir::generate(&config, "w", None);
    let held: Vec<(String, Vec<u8>)> = files.into_iter().map(|f| (f.path, f.bytes)).collect();
    let (sources, input) = birlink_core::read::workdir::split(held, None).unwrap();
    let options = birlink_core::LinkOptions { workdir: Some(input), ..Default::default() };
    let outcome = birlink_core::run(sources, &options);
    let log = birlink_core::gen::log::modular("w", 2, &[0, 1, 2], &outcome.log, &[0, 0]);
    (log, outcome)
}

#[test]
fn a_real_sized_block_of_754_lines_per_core_agrees_and_one_changed_input_is_its_first_difference() {
    use birlink_core::tools::log::beside;
    let (log, outcome) = real_sized(230);
    let reading = read_log(&log);
    let held = beside(&log, &reading, &outcome);
    for core in &held.bir_linker {
        let lines = log.lines().filter(|l| l.contains(&format!("(nc{:02}/sgLnk) [BirLinker]", core.core))).count();
        assert!((754..800).contains(&lines), "a real block's length: {lines}");
        assert_eq!(core.first_difference, None, "core {}", core.core);
        assert_eq!(core.log_lines, core.birlink_lines);
        let files = log
            .lines()
            .filter(|l| l.contains(&format!("(nc{:02}/sgLnk) [BirLinker]: Symlinking \"", core.core)))
            .count();
        assert_eq!(core.set_aside.values().sum::<usize>(), 1 + files + 3 + 3 + 1 + 2, "{:?}", core.set_aside);
    }
    // One input renamed in core 0's block, far down it: the first difference, at its line.
    let (at, line) = log.lines().enumerate().find(|(_, l)| l.contains("(nc00/sgLnk) [BirLinker]:  Inp[200] ")).unwrap();
    let changed = log.replacen(line, &line.replacen("Inp[200] ", "Inp[200] renamed_", 1), 1);
    let held = beside(&changed, &read_log(&changed), &outcome);
    let difference = held.bir_linker[0].first_difference.clone().unwrap();
    assert_eq!(difference.line, Some(at + 1));
    assert!(difference.log.unwrap().starts_with("Inp[200] renamed_"));
    assert_eq!(held.bir_linker[1].first_difference, None);
}
