//! Whole compiler logs (`tools::log::read_log`), written in the shape of the public
//! `log-neuron-cc.txt` files (`tests/logs/`): two cores' lines interleaved, several
//! compiles in one file, a very long line, a failure in the middle with its driver's
//! echo, a log cut short. Each is asserted on what matters, and its whole JSON is a
//! snapshot.

use std::path::Path;

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
    assert_eq!((run.lnc, run.flow.as_deref()), (Some(2), Some("modular")));
    assert_eq!(run.modules.len(), 6);
    assert_eq!(
        (run.modules[1].core, run.modules[1].subgraph, run.modules[1].file.as_str()),
        (Some(1), Some(1), "nc01/sg01/bir.json")
    );
    // Each pass on each scope, ended by its own line whatever the order.
    assert_eq!(passes(&reading, "bir_linker"), [(Some("nc00"), "passed"), (Some("nc01"), "passed")]);
    assert_eq!(passes(&reading, "lnc_verifier").len(), 3);
    assert!(run.passes.iter().all(|p| p.status == "passed"), "{:?}", run.passes);
    let lanes: Vec<&str> = ["lnc_verifier", "dep_reduction", "bir_linker", "vnc_link"]
        .iter()
        .map(|n| run.passes.iter().find(|p| p.name == *n).unwrap().lane.as_str())
        .collect();
    assert_eq!(lanes, ["subgraph", "module", "core", "all"]);
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
    assert_eq!((run.lnc, run.flow.as_deref()), (Some(2), Some("flat")));
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
        assert_eq!(run.passes.iter().filter(|p| p.name == "lnc_verifier" && p.status == "passed").count(), 1);
        assert_eq!(run.modules.len(), 2);
    }
}

#[test]
fn a_log_cut_short_reads_as_far_as_it_goes() {
    let reading = read("cut-short.txt");
    let run = &reading.run;
    assert_eq!(run.flow.as_deref(), Some("modular"));
    assert_eq!(passes(&reading, "bir_linker"), [(Some("nc00"), "started"), (Some("nc01"), "started")]);
    assert!(run.bir_linker.iter().all(|b| !b.done));
    let nc01 = run.bir_linker.iter().find(|b| b.core == Some(1)).unwrap();
    assert_eq!(nc01.moved.iter().map(|m| m.function.as_str()).collect::<Vec<_>>(), ["sg0000", "sg0001"]);
    assert!(run.failure.is_none() && run.vnc_link.is_none() && run.exit_code.is_none());
    assert_eq!(reading.lines, 93);
}

#[test]
fn every_log_reads_to_the_same_json() {
    for name in ["modular-two-cores.txt", "flat-illc059.txt", "two-compiles.txt", "cut-short.txt"] {
        let reading = read(name);
        let json = serde_json::to_string_pretty(&reading).unwrap();
        // Deterministic, and what it says round-trips.
        assert_eq!(serde_json::from_str::<LogReading>(&json).unwrap(), reading);
        insta::assert_snapshot!(format!("log-{name}"), json);
    }
}
