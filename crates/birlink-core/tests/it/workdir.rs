//! A generated compiler work directory linked as a whole: the dumps after `lower_sync`,
//! the link directory planned, the cores' tensor maps merged and checked.

use birlink_core::diag::codes::Code;
use birlink_core::gen::{self, samples, workdir, GenConfig, GenFile, Layout};
use birlink_core::output::report::{ArtifactKind, EntryStatus, Placement};
use birlink_core::read::workdir::split;
use birlink_core::{LinkOptions, Outcome, Pass, Severity};

use crate::support::{codes, seeds};

/// The generated work directory `work/` with `fault`, linked after `after`.
pub fn run(fault: Option<Code>, after: Option<&str>) -> Outcome {
    link(workdir::generate(&gen::samples::fault_config(), "work", fault), after)
}

/// Links a work directory's files, held in memory.
pub fn link(files: Vec<gen::GenFile>, after: Option<&str>) -> Outcome {
    let (sources, input) =
        split(files.into_iter().map(|f| (f.path, f.bytes)).collect(), after).expect("a work directory");
    birlink_core::run(sources, &LinkOptions { workdir: Some(input), ..seeds() })
}

#[test]
fn a_work_directory_links_its_lower_sync_dumps_and_plans_sg_lnk() {
    let outcome = run(None, None);
    let report = &outcome.report;
    let inputs: Vec<&str> = report.inputs.iter().map(|r| r.file.as_str()).collect();
    assert_eq!(
        inputs,
        [
            "work/nc00/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json",
            "work/nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json"
        ]
    );
    assert!(
        report.diagnostics.iter().all(|d| d.severity == Severity::Note),
        "a clean work directory has notes at most: {:?}",
        codes(&outcome)
    );
    let dir = report.link_dir.as_ref().expect("a link directory");
    assert_eq!(dir.root, "sgLnk");
    let entries: Vec<(&str, Placement, Option<u64>, &[u64])> =
        dir.entries.iter().map(|e| (e.name.as_str(), e.placement, e.core, e.same_on.as_slice())).collect();
    assert_eq!(
        entries,
        [
            ("cpu_node_0/host_graph.json", Placement::Copy, Some(0), &[][..]),
            ("custom_op/libtopk.so", Placement::Symlink, Some(0), &[1][..]),
            ("debug_info_nc00.json", Placement::Symlink, Some(0), &[][..]),
            ("debug_info_nc01.json", Placement::Symlink, Some(1), &[][..]),
            ("shared_constants.npy", Placement::Symlink, Some(0), &[1][..]),
            ("tensor-map.json", Placement::Write, None, &[][..]),
            ("weights_nc00.npy", Placement::Symlink, Some(0), &[][..]),
            ("weights_nc01.npy", Placement::Symlink, Some(1), &[][..]),
        ]
    );
    // The other dumps, the programs, def.json and the kelf stay in their core's folder.
    assert_eq!(dir.in_place.len(), 2 * (3 + 1 + 1 + 5));
    assert!(dir.in_place.iter().any(|r| r.kind == ArtifactKind::Dump && r.path.contains("after-lower_dma")));

    let map = report.tensor_map.as_ref().expect("a merged tensor map");
    assert_eq!(map.files.len(), 2);
    assert!(map.files.iter().all(|f| f.shape == "an object keyed by tensor name" && f.entries > 0));
    assert!(map.entries.iter().all(|e| e.linked.is_some()), "every entry binds a tensor");
    // The cross-core intermediates the link made internal are noted and left out of the file.
    let demoted: Vec<&str> =
        map.entries.iter().filter(|e| e.status == EntryStatus::Demoted).map(|e| e.name.as_str()).collect();
    assert!(!demoted.is_empty());
    // One note per core names them all.
    let notes: Vec<_> = report.diagnostics.iter().filter(|d| d.code == Code::TensorMapDemoted).collect();
    assert_eq!(notes.len(), 2);
    for entry in map.entries.iter().filter(|e| e.status == EntryStatus::Demoted) {
        let note = notes.iter().find(|d| d.core == Some(entry.core)).expect("its core's note");
        assert!(note.message.contains(&format!("`{}`", entry.name)), "{}", note.message);
    }
    let text = birlink_core::tensor_map_json(&outcome).expect("tensor-map.json");
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    // One object per core function, each core's entries in it.
    let functions: Vec<&String> = written.as_object().unwrap().keys().collect();
    assert_eq!(functions, ["nc00", "nc01"]);
    let written_entries: usize = written.as_object().unwrap().values().map(|v| v.as_object().unwrap().len()).sum();
    assert_eq!(written_entries, map.entries.len() - demoted.len());
    for entry in map.entries.iter().filter(|e| e.status == EntryStatus::Demoted) {
        assert!(written[&entry.function].get(&entry.name).is_none(), "{} written", entry.name);
    }
    let steps: Vec<&str> = report.passes[1].steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(steps[steps.len() - 2..], ["link_dir", "tensor_map"]);
}

#[test]
fn without_a_work_directory_nothing_changes() {
    let config = gen::samples::fault_config();
    let sources = gen::generate(&config, gen::Layout::Files).iter().map(gen::GenFile::source).collect();
    let outcome = birlink_core::run(sources, &seeds());
    assert!(outcome.report.link_dir.is_none() && outcome.report.tensor_map.is_none());
    let json = birlink_core::report_json(&outcome);
    assert!(!json.contains("\"link_dir\"") && !json.contains("\"tensor_map\""));
}

#[test]
fn another_pass_links_other_dumps_and_the_same_directory() {
    let outcome = run(None, Some("lower_dma"));
    assert!(outcome.report.inputs.iter().all(|r| r.file.contains("after-lower_dma")));
    assert!(outcome.report.link_dir.is_some());
}

#[test]
fn a_stale_entry_is_found_where_it_is_written() {
    let outcome = run(Some(Code::TensorMapStale), None);
    let d = outcome.report.diagnostics.iter().find(|d| d.code == Code::TensorMapStale).expect("BL0310");
    assert!(d.message.contains(&format!("`{}`", workdir::STALE_NAME)), "{}", d.message);
    let location = d.location.as_ref().unwrap();
    assert_eq!(location.file, "work/nc01/sg00/tensor_map.json");
    assert_eq!(location.pointer, format!("/{}", workdir::STALE_NAME));
    assert!(location.line.is_some_and(|l| l > 1));
    let map = outcome.report.tensor_map.as_ref().unwrap();
    let entry = map.entries.iter().find(|e| e.name == workdir::STALE_NAME).unwrap();
    assert_eq!((entry.status, entry.core, entry.linked.is_none()), (EntryStatus::Stale, 1, true));
    // The compiler's NCC_ILNK020 is explained by it.
    assert_eq!(birlink_core::diag::ncc::find("NCC_ILNK020").and_then(|n| n.birlink), Some(Code::TensorMapStale));
}

#[test]
fn one_memory_laid_out_twice_is_a_conflict() {
    let outcome = run(Some(Code::TensorMapConflict), None);
    let d = outcome.report.diagnostics.iter().find(|d| d.code == Code::TensorMapConflict).expect("BL0312");
    assert!(d.message.contains("are one memory") && d.message.contains("`sim_shape`"), "{}", d.message);
    let map = outcome.report.tensor_map.as_ref().unwrap();
    let entry = map.entries.iter().find(|e| e.status == EntryStatus::Conflict).unwrap();
    assert_eq!(entry.core, 1);
    assert_eq!(entry.same_memory.iter().map(|r| r.core).collect::<Vec<_>>(), [0]);
    assert_eq!(entry.fields["sim_shape"], serde_json::json!([64, 64]));
}

#[test]
fn a_core_without_the_dump_makes_the_lnc_the_folders_count() {
    let files: Vec<gen::GenFile> = workdir::generate(&gen::samples::fault_config(), "work", None)
        .into_iter()
        .filter(|f| !(f.path.starts_with("work/nc01/") && f.path.contains("after-lower_sync")))
        .collect();
    let outcome = link(files, None);
    let options = &outcome.report.options;
    assert_eq!((options.lnc, options.lnc_source), (2, birlink_core::output::report::LncSource::Workdir));
    assert_eq!(outcome.report.inputs.len(), 1);
    assert!(codes(&outcome).contains(&"1513".to_owned()), "{:?}", codes(&outcome));
}

/// A modular compile's work directory: each core's three subgraphs dumped after the pass
/// before bir_linker, the frontend's netlist at the root, a dump of an earlier link in
/// `sgLnk/`. Every subgraph is linked through the netlist, per core.
#[test]
fn a_modular_work_directory_links_every_subgraph_through_its_netlist() {
    let mut files = modular_work();
    files.push(GenFile { path: "w/nc00/sgLnk/def.json".into(), bytes: b"{}".to_vec() });
    files.push(GenFile { path: "w/command.txt".into(), bytes: b"neuronx-cc compile --lnc 2\n".to_vec() });
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let plan = birlink_core::read::workdir::pick(&paths, None).expect("a work directory");
    assert_eq!(plan.subgraphs, [0, 1, 2]);
    assert_eq!(plan.picked.len(), 6, "every core's every subgraph");
    assert!(plan.netlist.is_some_and(|i| paths[i] == "w/hlo_netlist.json"));
    let (sources, input) =
        split(files.into_iter().map(|f| (f.path, f.bytes)).collect(), None).expect("a work directory");
    // As the compiler decides the flow.
    let outcome = birlink_core::run(sources, &LinkOptions { workdir: Some(input), ..LinkOptions::default() });
    let report = &outcome.report;
    assert_eq!(
        (report.options.flow, report.options.flow_source),
        (birlink_core::Flow::Modular, birlink_core::FlowSource::Netlist)
    );
    assert!(!birlink_core::diag::has_errors(&report.diagnostics), "{:?}", crate::support::codes(&outcome));
    assert_eq!(report.dispatcher.len(), 12, "6 partitions on each of 2 cores");
    assert_eq!(report.subgraphs.len(), 6);
    assert!(report.subgraphs.iter().all(|s| s.file.contains("after-dep_reduction")));
    assert_eq!(report.options.linked_name.as_deref(), Some("nc00/sgLnk, nc01/sgLnk"));
}

/// The modular work directory's files: every subgraph dumped after `dep_reduction`, the
/// netlist at the root.
fn modular_work() -> Vec<GenFile> {
    let config = GenConfig {
        flow: birlink_core::Flow::Modular,
        subgraphs: 3,
        partitions: 6,
        insts: 24,
        ..samples::matmul_config()
    };
    gen::generate(&config, Layout::Files)
        .into_iter()
        .map(|file| match file.path.strip_suffix("/bir.json") {
            Some(place) => {
                GenFile { path: format!("w/{place}/bir_debug.31.after-dep_reduction.before-bir_linker.json"), ..file }
            }
            None => GenFile { path: format!("w/{}", file.path), ..file },
        })
        .collect()
}

/// Links a work directory as the compiler decides its flow.
fn link_as_compiler(files: Vec<GenFile>, passes: Option<Vec<String>>) -> Outcome {
    let (sources, input) =
        split(files.into_iter().map(|f| (f.path, f.bytes)).collect(), None).expect("a work directory");
    birlink_core::run(sources, &LinkOptions { workdir: Some(input), passes, ..LinkOptions::default() })
}

/// birlink's own result written back as the compiler's dumps after `bir_linker` and
/// after `vnc_link` (`ncCC/sgLnk/bir_debug.*`): held against birlink's result for the same
/// input they agree, and one field changed in one of them is the first difference.
#[test]
fn the_compilers_own_result_is_held_against_birlinks() {
    let work = modular_work();
    let after_link = link_as_compiler(work.clone(), Some(vec!["verify".into(), "bir_linker".into()]));
    let after_all = link_as_compiler(work.clone(), None);
    let mut files = work;
    for (outcome, name) in [
        (&after_link, "bir_debug.60.after-bir_linker.before-postlnk_dma_report.json"),
        (&after_all, "bir_debug.99.after-vnc_link.before-branch_hint.json"),
    ] {
        for linked in &outcome.linked.as_ref().expect("linked").modules {
            let core = linked.core.expect("per core");
            let text = birlink_core::output::json::module_to_string(&linked.module);
            files.push(GenFile { path: format!("w/nc{core:02}/sgLnk/{name}"), bytes: text.into_bytes() });
        }
    }
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let plan = birlink_core::read::workdir::pick(&paths, None).expect("a work directory");
    assert_eq!(plan.picked.len(), 6, "bir_linker's input: the subgraphs");
    assert_eq!(plan.compiler.len(), 4, "the compiler's results: after bir_linker and vnc_link, each core");
    let outcome = link_as_compiler(files.clone(), None);
    let rows = &outcome.report.fidelity;
    let said: Vec<(Pass, u64, bool)> = rows.iter().map(|r| (r.pass, r.core, r.agree)).collect();
    assert_eq!(
        said,
        [(Pass::BirLinker, 0, true), (Pass::BirLinker, 1, true), (Pass::VncLink, 0, true), (Pass::VncLink, 1, true)],
        "{rows:?}"
    );
    assert!(rows.iter().all(|r| r.lines > 100 && r.first.is_none() && r.unread.is_none()));

    // One field changed in core 1's dump after vnc_link: the first difference, named.
    let at = files.iter().position(|f| f.path == "w/nc01/sgLnk/bir_debug.99.after-vnc_link.before-branch_hint.json");
    let dump = &mut files[at.expect("core 1's dump")];
    let text = String::from_utf8(dump.bytes.clone()).expect("utf-8");
    let changed = text.replacen("\"addr\": 2097152", "\"addr\": 2097153", 1);
    assert_ne!(changed, text, "the field is there");
    dump.bytes = changed.into_bytes();
    let outcome = link_as_compiler(files, None);
    let rows = &outcome.report.fidelity;
    let parted: Vec<&birlink_core::output::report::FidelityRow> = rows.iter().filter(|r| !r.agree).collect();
    assert_eq!(parted.len(), 1, "{rows:?}");
    let (row, first) = (parted[0], parted[0].first.as_ref().expect("a first difference"));
    assert_eq!((row.pass, row.core, row.differing), (Pass::VncLink, 1, 1));
    assert!(first.birlink.as_deref().is_some_and(|l| l.contains("addr=2097152")), "{first:?}");
    assert!(first.compiler.as_deref().is_some_and(|l| l.contains("addr=2097153")), "{first:?}");
    assert!(first.unit.starts_with("function "), "{first:?}");
}

/// A directory holding only the linked modules' dumps before the VNC passes (printed
/// after `coloring_allocator_reg`): they are the VNC passes' input, bir_linker already
/// run by the compiler.
#[test]
fn the_linked_modules_dumps_are_the_vnc_passes_input() {
    let after_link = link_as_compiler(modular_work(), Some(vec!["verify".into(), "bir_linker".into()]));
    let mut files = Vec::new();
    for linked in &after_link.linked.as_ref().expect("linked").modules {
        let core = linked.core.expect("per core");
        let text = birlink_core::output::json::module_to_string(&linked.module);
        let path =
            format!("w/nc{core:02}/sgLnk/bir_debug.88.after-coloring_allocator_reg.before-vnc_remote_addr_map.json");
        files.push(GenFile { path, bytes: text.into_bytes() });
    }
    let outcome = link_as_compiler(files, None);
    let report = &outcome.report;
    assert_eq!(
        (report.options.flow, report.options.flow_source),
        (birlink_core::Flow::Modular, birlink_core::FlowSource::Sglnk)
    );
    assert!(!birlink_core::diag::has_errors(&report.diagnostics), "{:?}", codes(&outcome));
    let ran: Vec<(Pass, Option<u64>, &str)> =
        report.passes.iter().map(|p| (p.name, p.core, p.status.as_str())).collect();
    assert_eq!(
        ran,
        [
            (Pass::Verify, None, "ok"),
            (Pass::BirLinker, Some(0), "skipped"),
            (Pass::BirLinker, Some(1), "skipped"),
            (Pass::VncRemoteAddrMap, None, "ok"),
            (Pass::VncLink, None, "ok")
        ]
    );
    assert!(!report.address_map.is_empty());
}

/// A modular work directory as the compiler leaves it (`gen::modular_workdir::generate`)
/// with `fault`, linked as the compiler decides its flow.
fn modular(fault: Option<Code>) -> Outcome {
    let config = GenConfig { subgraphs: 3, partitions: 6, insts: 24, ..samples::matmul_config() };
    link_as_compiler(gen::modular_workdir::generate(&config, "w", fault), None)
}

/// The link directory is each core's `ncCC/sgLnk/` (docs/spec/link.md §3.6): every
/// subgraph's weights in `sg00/`, one table the subgraphs share once, the core folder's
/// debug info and custom op, the core's merged map written as `sg00/tensor_map.json`;
/// each subgraph's map copied to its function; the log says so in the compiler's words.
#[test]
fn a_modular_work_directory_gets_each_cores_link_directory_and_tensor_map() {
    let outcome = modular(None);
    let report = &outcome.report;
    assert_eq!(report.options.flow, birlink_core::Flow::Modular);
    assert!(!birlink_core::diag::has_errors(&report.diagnostics), "{:?}", codes(&outcome));
    let warnings: Vec<String> =
        report.diagnostics.iter().filter(|d| d.severity == Severity::Warning).map(|d| d.message.clone()).collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let dir = report.link_dir.as_ref().expect("the link directories");
    assert_eq!(dir.root, ".");
    let core0: Vec<(&str, Placement, Option<u64>, Vec<u64>)> = dir
        .entries
        .iter()
        .filter(|e| e.core == Some(0))
        .map(|e| (e.name.as_str(), e.placement, e.subgraph, e.same_on.clone()))
        .collect();
    assert_eq!(
        core0,
        [
            ("nc00/sgLnk/debug_info_nc00.json", Placement::Symlink, None, vec![]),
            ("nc00/sgLnk/libtopk_custom_op.so", Placement::Symlink, None, vec![]),
            ("nc00/sgLnk/sg00/rope_table.npy", Placement::Symlink, Some(0), vec![1, 2]),
            ("nc00/sgLnk/sg00/tensor_map.json", Placement::Write, None, vec![]),
            ("nc00/sgLnk/sg00/weights_sg00.npy", Placement::Symlink, Some(0), vec![]),
            ("nc00/sgLnk/sg00/weights_sg01.npy", Placement::Symlink, Some(1), vec![]),
            ("nc00/sgLnk/sg00/weights_sg02.npy", Placement::Symlink, Some(2), vec![]),
        ]
    );
    assert_eq!(dir.entries.len(), 14, "the same for core 1");
    assert!(dir
        .in_place
        .iter()
        .any(|r| r.path == "w/nc01/sg02/bir_debug.31.after-dep_reduction.before-bir_linker.json"));

    // Each subgraph's map copied to its function; every entry binds a tensor of it.
    let map = report.tensor_map.as_ref().expect("the merged maps");
    assert_eq!(map.files.len(), 6, "one per core and subgraph");
    assert!(map.entries.iter().all(|e| e.status == EntryStatus::Bound), "{:?}", map.entries);
    let functions: std::collections::BTreeSet<(u64, &str)> =
        map.entries.iter().map(|e| (e.core, e.function.as_str())).collect();
    assert_eq!(functions.len(), 6);
    assert!(functions.contains(&(1, "sg0002")));
    // An intermediate's two entries, of its producer and of its consumer, are one memory.
    assert!(map.entries.iter().any(|e| e.same_memory.iter().any(|r| r.core == e.core && r.function.is_some())));
    // Each core's file holds its functions only.
    let files = birlink_core::tensor_map_files(&outcome);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["tensor_map.nc00.json", "tensor_map.nc01.json"]);
    let core1: serde_json::Value = serde_json::from_str(&files[1].1).expect("json");
    let keys: Vec<&str> = core1.as_object().expect("an object").keys().map(String::as_str).collect();
    assert_eq!(keys, ["sg0000", "sg0001", "sg0002"]);
    assert_eq!(birlink_core::tensor_map_json(&outcome), None, "one file per core, not one merged");

    let log = birlink_core::bir_linker_log(&outcome).expect("the log");
    for line in [
        "(nc00/sgLnk) [BirLinker]: Symlinking npy files to w/nc00/sgLnk/sg00",
        "(nc00/sgLnk) [BirLinker]: Symlinking debug_info files from w/nc00 to w/nc00/sgLnk",
        "(nc01/sgLnk) [BirLinker]: Symlinking .so files from w/nc01 to w/nc01/sgLnk",
        "(nc01/sgLnk) [BirLinker]: moveModulesAsFunctions #1... Done. # Internal tensor-map collisions: 0",
        "(nc01/sgLnk) [BirLinker]: tensor_map verification successful.",
        "(nc01/sgLnk) [BirLinker]: Writing updated tensor_map w/nc01/sgLnk/sg00/tensor_map.json",
    ] {
        assert!(log.lines().any(|l| l == line), "{line}\n{log}");
    }
    let order: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("(nc00/sgLnk)"))
        .map(|l| l.trim_start_matches("(nc00/sgLnk) [BirLinker]: "))
        .filter(|l| {
            l.starts_with("Linking to") || l.starts_with("Symlinking npy") || l.starts_with("moveModulesAsFunctions...")
        })
        .collect();
    assert_eq!(order.len(), 3);
    assert!(order[1].starts_with("Symlinking npy") && order[2] == "moveModulesAsFunctions...", "{order:?}");
}

/// One name, two contents among one core's subgraphs: BL0315 on the later one, the
/// entry the lowest subgraph's.
#[test]
fn two_subgraphs_of_a_core_offering_one_name_differently_collide() {
    let outcome = modular(Some(Code::ArtifactCollision));
    let collisions: Vec<&birlink_core::Diagnostic> =
        outcome.report.diagnostics.iter().filter(|d| d.code == Code::ArtifactCollision).collect();
    assert_eq!(collisions.len(), 1, "{:?}", codes(&outcome));
    let d = collisions[0];
    assert_eq!(d.core, Some(1));
    assert!(d.message.contains("`rope_table.npy` is offered by nc01/sg00 and nc01/sg02"), "{}", d.message);
    assert_eq!(d.location.as_ref().map(|l| l.file.as_str()), Some("w/nc01/sg02/rope_table.npy"));
    let dir = outcome.report.link_dir.as_ref().expect("planned");
    let entry = dir.entries.iter().find(|e| e.name == "nc01/sgLnk/sg00/rope_table.npy").expect("the entry");
    assert_eq!((entry.subgraph, entry.same_on.clone(), entry.differs_on.clone()), (Some(0), vec![1], vec![2]));
}

/// A subgraph's map naming a tensor its function does not have: BL0310 at the entry, and
/// the log says the verification failed.
#[test]
fn a_subgraphs_stale_entry_fails_the_verification_in_the_log() {
    let outcome = modular(Some(Code::TensorMapStale));
    let stale: Vec<&birlink_core::Diagnostic> =
        outcome.report.diagnostics.iter().filter(|d| d.code == Code::TensorMapStale).collect();
    assert_eq!(stale.len(), 1, "{:?}", codes(&outcome));
    assert!(
        stale[0].message.contains("nc01/sg02's tensor map names `layer_13_attn_out`, and function sg0002 of nc01/sgLnk has no tensor of that name"),
        "{}",
        stale[0].message
    );
    let at = stale[0].location.as_ref().expect("a place");
    assert_eq!((at.file.as_str(), at.pointer.as_str()), ("w/nc01/sg02/tensor_map.json", "/layer_13_attn_out"));
    let log = birlink_core::bir_linker_log(&outcome).expect("the log");
    assert!(log.contains("(nc01/sgLnk) [BirLinker]: tensor_map verification failed after linking\n"), "{log}");
    assert!(log.contains("(nc00/sgLnk) [BirLinker]: tensor_map verification successful.\n"), "{log}");
}

/// One run dumped both the subgraphs before the link and the linked modules before the
/// VNC passes (after `coloring_allocator_reg`): bir_linker links the subgraphs, and the
/// VNC passes link the compiler's linked modules (they carry what the post-link passes
/// made of the link), as the contract's second entry point says.
#[test]
fn in_one_run_the_vnc_passes_take_the_compilers_linked_modules() {
    let after_link = link_as_compiler(modular_work(), Some(vec!["verify".into(), "bir_linker".into()]));
    let mut files = modular_work();
    for linked in &after_link.linked.as_ref().expect("linked").modules {
        let core = linked.core.expect("per core");
        let mut text = birlink_core::output::json::module_to_string(&linked.module);
        if core == 0 {
            // The owner's address as the compiler's post-link allocator placed it.
            let moved = text.replacen("\"addr\": 2097152", "\"addr\": 2099200", 1);
            assert_ne!(moved, text, "core 0 owns the address");
            text = moved;
        }
        let path =
            format!("w/nc{core:02}/sgLnk/bir_debug.88.after-coloring_allocator_reg.before-vnc_remote_addr_map.json");
        files.push(GenFile { path, bytes: text.into_bytes() });
    }
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let plan = birlink_core::read::workdir::pick(&paths, None).expect("a work directory");
    assert_eq!(plan.picked.len(), 6, "bir_linker's input: the subgraphs");
    assert_eq!(plan.vnc_input.len(), 2, "the VNC passes': each core's linked module");
    let outcome = link_as_compiler(files, None);
    let report = &outcome.report;
    assert!(!birlink_core::diag::has_errors(&report.diagnostics), "{:?}", codes(&outcome));
    let rows: Vec<(u64, &str, bool)> = report.vnc_input.iter().map(|r| (r.core, r.after.as_str(), r.used)).collect();
    assert_eq!(rows, [(0, "coloring_allocator_reg", true), (1, "coloring_allocator_reg", true)]);
    let ran: Vec<(Pass, Option<u64>, &str)> =
        report.passes.iter().map(|p| (p.name, p.core, p.status.as_str())).collect();
    assert!(ran.contains(&(Pass::BirLinker, Some(1), "ok")), "{ran:?}");
    // Core 1's remote view got the compiler's owner address, not birlink's.
    let set = outcome.linked.as_ref().expect("linked");
    let core1 = birlink_core::output::json::module_to_string(&set.modules[1].module);
    assert!(core1.contains("\"addr\": 2099200"), "the VNC passes linked the compiler's modules");
    let own = link_as_compiler(modular_work(), None);
    let theirs = birlink_core::output::json::module_to_string(&own.linked.as_ref().expect("linked").modules[1].module);
    assert!(!theirs.contains("\"addr\": 2099200") && theirs.contains("\"addr\": 2097152"));
}
