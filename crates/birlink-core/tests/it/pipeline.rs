//! Pipeline behaviour that is not one pass's: where `lnc` comes from, module names,
//! pass selection, partial results, and what reaches the report.

use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::output::report::LncSource;
use birlink_core::{LinkOptions, Pass, SourceFile};

use crate::support::{codes, seeds, status};

fn matmul(layout: Layout) -> Vec<SourceFile> {
    gen::generate(&birlink_core::gen::samples::matmul_config(), layout).iter().map(gen::GenFile::source).collect()
}

#[test]
fn lnc_comes_from_option_then_bundle_then_netlist_then_modules() {
    let mut config = birlink_core::gen::samples::matmul_config();
    config.netlist = true;
    let files = |config: &GenConfig| -> Vec<SourceFile> {
        gen::generate(config, Layout::Files).iter().map(gen::GenFile::source).collect()
    };
    let outcome = birlink_core::run(files(&config), &seeds());
    assert_eq!((outcome.report.options.lnc, outcome.report.options.lnc_source), (2, LncSource::Netlist));
    let outcome = birlink_core::run(files(&config), &LinkOptions { lnc: Some(2), ..seeds() });
    assert_eq!(outcome.report.options.lnc_source, LncSource::Option);
    let outcome = birlink_core::run(matmul(Layout::Files), &seeds());
    assert_eq!((outcome.report.options.lnc, outcome.report.options.lnc_source), (2, LncSource::Modules));
    // An option that disagrees with the modules fails in vnc_remote_addr_map (1513).
    let outcome = birlink_core::run(matmul(Layout::Files), &LinkOptions { lnc: Some(3), ..seeds() });
    assert_eq!(status(&outcome, "bir_linker"), "ok");
    assert_eq!(status(&outcome, "vnc_remote_addr_map"), "error");
    assert_eq!(codes(&outcome), vec!["1513"]);
}

#[test]
fn netlist_name_becomes_the_base_name() {
    let config = GenConfig { netlist: true, ..birlink_core::gen::samples::matmul_config() };
    let sources = gen::generate(&config, Layout::Bundle).iter().map(gen::GenFile::source).collect();
    let outcome = birlink_core::run(sources, &seeds());
    assert_eq!(outcome.report.options.linked_name.as_deref(), Some("nc00/sgLnk"));
}

#[test]
fn module_names_come_from_the_name_key_the_path_or_the_core() {
    let module = |core: u64, name: Option<&str>| {
        let mut value = serde_json::json!({"attributes": {"neuron_core_id": core}, "functions": [{"name": "sg0000"}]});
        if let Some(name) = name {
            value["name"] = serde_json::json!(name);
        }
        value.to_string()
    };
    let outcome = birlink_core::run(
        vec![
            SourceFile::text("dump/nc00/sg00/bir.json", module(0, None)),
            SourceFile::text("dump/core-one.json", module(1, None)),
            SourceFile::text("dump/x.json", module(2, Some("right"))),
        ],
        &seeds(),
    );
    let names: Vec<Option<&str>> = outcome.report.inputs.iter().map(|i| i.module.as_deref()).collect();
    assert_eq!(names, vec![Some("nc00"), Some("nc01"), Some("right")]);
    let bundle =
        serde_json::json!({"modules": [serde_json::from_str::<serde_json::Value>(&module(0, None)).expect("json")]});
    let outcome = birlink_core::run(vec![SourceFile::text("nc07.json", bundle.to_string())], &seeds());
    assert_eq!(
        outcome.report.inputs[0].module.as_deref(),
        Some("nc00"),
        "bundle modules never take a name from a path"
    );
}

#[test]
fn verify_alone_is_a_dry_run() {
    let outcome =
        birlink_core::run(matmul(Layout::Files), &LinkOptions { passes: Some(vec!["verify".into()]), ..seeds() });
    assert_eq!(status(&outcome, "verify"), "ok");
    assert_eq!(status(&outcome, "bir_linker"), "skipped");
    assert!(outcome.linked.is_none());
    assert!(outcome.report.diagnostics.is_empty(), "{:?}", codes(&outcome));
}

#[test]
fn a_pass_selection_with_a_gap_is_refused() {
    let outcome = birlink_core::run(
        matmul(Layout::Files),
        &LinkOptions { passes: Some(vec!["verify".into(), "vnc_link".into()]), ..seeds() },
    );
    assert_eq!(codes(&outcome), vec!["BL0012"]);
    assert!(outcome.linked.is_none());
    let d = &outcome.report.diagnostics[0];
    assert_eq!(
        d.message,
        "pass selection [verify, vnc_link] is not a run of [verify, bir_linker, vnc_remote_addr_map, vnc_link]"
    );
    assert!(d.notes.is_empty(), "every name is a pass");
}

#[test]
fn a_pass_selection_naming_no_pass_says_which() {
    let outcome = birlink_core::run(
        matmul(Layout::Files),
        &LinkOptions { passes: Some(vec!["verify".into(), "linker".into()]), ..seeds() },
    );
    assert_eq!(codes(&outcome), vec!["BL0012"]);
    assert_eq!(outcome.report.diagnostics[0].notes, vec!["not a pass: `linker`".to_owned()]);
    assert!(Pass::PIPELINE.iter().all(|p| status(&outcome, p) == "skipped"));
}

#[test]
fn partial_results_survive_a_vnc_failure() {
    let config = GenConfig {
        fault: Some(birlink_core::Code::RemoteMemlocMissing),
        ..birlink_core::gen::samples::matmul_config()
    };
    let sources = gen::generate(&config, Layout::Files).iter().map(gen::GenFile::source).collect();
    let outcome = birlink_core::run(sources, &seeds());
    assert_eq!(status(&outcome, "bir_linker"), "ok");
    assert_eq!(status(&outcome, "vnc_remote_addr_map"), "error");
    assert_eq!(status(&outcome, "vnc_link"), "skipped");
    // linked.json is the linker's output: the failing pass changed nothing.
    let linked = birlink_core::linked_json(&outcome).expect("linked");
    assert!(linked.contains("\"name\": \"nc00/sgLnk\""));
    assert!(outcome.report.address_map.len() == 1, "the copy that was found is still reported");
    let view = outcome.report.address_map[0].clone();
    assert_ne!(view.before, view.after);
    let text = birlink_core::output::print::set_text(outcome.linked.as_ref().expect("linked"));
    assert!(text.contains("c_partial_1: DRAM addr=2162688 bank=0 base=0 unallocated"), "the copy was not applied");
}

#[test]
fn one_core_links_with_notes() {
    let config = GenConfig { cores: 1, ..birlink_core::gen::samples::matmul_config() };
    let sources = gen::generate(&config, Layout::Files).iter().map(gen::GenFile::source).collect();
    let outcome = birlink_core::run(sources, &seeds());
    assert_eq!(codes(&outcome), vec!["BL0403", "BL0403"]);
    assert_eq!(outcome.report.dispatcher.len(), 1);
    assert_eq!(outcome.report.dispatcher[0].call, "call_def_0_instance_0");
}

#[test]
fn reports_locations_with_lines_and_columns() {
    let outcome = birlink_core::run(
        vec![SourceFile::text("nc00.json", "{\n  \"functions\": [\n    {\"name\": 5}\n  ]\n}\n")],
        &seeds(),
    );
    let d = &outcome.report.diagnostics[0];
    assert_eq!(d.code.as_str(), "BL0003");
    let location = d.location.as_ref().expect("location");
    assert_eq!((location.pointer.as_str(), location.line, location.column), ("/functions/0/name", Some(3), Some(14)));
}

#[test]
fn report_json_is_the_spec_shape() {
    let outcome = birlink_core::run(matmul(Layout::Bundle), &seeds());
    let report: serde_json::Value = serde_json::from_str(&birlink_core::report_json(&outcome)).expect("json");
    for key in [
        "tool",
        "options",
        "inputs",
        "passes",
        "dispatcher",
        "aliases",
        "output_kinds",
        "queues",
        "barriers",
        "address_map",
        "semaphores",
        "diagnostics",
    ] {
        assert!(report.get(key).is_some(), "report has no `{key}`");
    }
    assert_eq!(report["dispatcher"][1]["call"], "call_def_1_instance_0");
    assert_eq!(report["queues"][0]["semaphores"]["per_core"].as_array().map(Vec::len), Some(2));
    assert!(report["semaphores"]["relocations"][0]["old_id"].is_number());
    // The report reads back into the same structure (the UI reads it).
    let back: birlink_core::output::report::Report = serde_json::from_value(report).expect("report");
    assert_eq!(back, outcome.report);
}

/// The BL0404 sample's modules, with the two `remote_local_target`s of its chain set to
/// `first` (core 0's `relay`) and `middle` (core 1's `relay_c1`).
fn chain(first: serde_json::Value, middle: serde_json::Value) -> Vec<SourceFile> {
    let config = GenConfig {
        fault: Some(birlink_core::diag::codes::Code::ViewOfView),
        ..birlink_core::gen::samples::fault_config()
    };
    let mut set = gen::generate_set(&config);
    for (core, target) in [(0, first), (1, middle)] {
        let allocations = set.modules[core].pointer_mut("/functions/0/allocations").and_then(|a| a.as_array_mut());
        let relay = allocations
            .and_then(|a| a.iter_mut().find(|s| s["name"] == "relay_set"))
            .and_then(|s| s.pointer_mut("/memorylocations/0"))
            .expect("the sample's relay set");
        relay["remote_local_target"] = target;
    }
    set.modules.iter().enumerate().map(|(i, m)| SourceFile::text(format!("nc{i:02}.json"), gen::pretty(m))).collect()
}

fn row<'a>(outcome: &'a birlink_core::Outcome, memloc: &str) -> &'a birlink_core::output::report::AddressRow {
    outcome.report.address_map.iter().find(|r| r.memloc == memloc).expect("an address row")
}

#[test]
fn addresses_are_copied_in_partition_order_along_a_chain_of_views() {
    // Core 1's `relay_c1` → core 0's `relay` → core 1's `output`: `relay` is copied
    // first, so `relay_c1` gets the owner's tuple in one run, and a second run is a no-op.
    let sources = chain(serde_json::json!(["output", 1]), serde_json::json!(["relay", 0]));
    let outcome = birlink_core::run(sources, &seeds());
    assert!(codes(&outcome).contains(&"BL0404".to_owned()), "{:?}", codes(&outcome));
    let owner = row(&outcome, "relay").after.clone();
    assert_ne!(owner.addr, 0, "the owner has an address");
    assert_eq!(row(&outcome, "relay_c1").after, owner);
    let note = &outcome.report.diagnostics.iter().find(|d| d.code.as_str() == "BL0404").expect("BL0404").notes;
    assert!(note.iter().any(|n| n.contains("copied first")), "{note:?}");
    let linked = birlink_core::linked_json(&outcome).expect("linked");
    let vnc = LinkOptions { passes: Some(vec!["vnc_remote_addr_map".into(), "vnc_link".into()]), ..seeds() };
    let again = birlink_core::run(vec![SourceFile::text("linked.json", linked.clone())], &vnc);
    assert_eq!(birlink_core::linked_json(&again).as_deref(), Some(linked.as_str()));

    // The other way round (the sample): `relay` is copied before `relay_c1`, so it keeps
    // `relay_c1`'s tuple from before the pass, and says so.
    let outcome =
        birlink_core::run(chain(serde_json::json!(["relay_c1", 1]), serde_json::json!(["c_partial_0", 0])), &seeds());
    assert_eq!(row(&outcome, "relay").after, row(&outcome, "relay_c1").before);
    assert_ne!(row(&outcome, "relay_c1").after, row(&outcome, "relay_c1").before);
    let d = outcome.report.diagnostics.iter().find(|d| d.code.as_str() == "BL0404").expect("BL0404");
    assert!(d.notes.iter().any(|n| n.contains("a second run changes it")), "{:?}", d.notes);
}

#[test]
fn reading_on_several_threads_gives_the_same_bytes() {
    // Eight files, some of them broken (truncated, not UTF-8, not a module), a netlist.
    let mut sources: Vec<SourceFile> =
        gen::generate(&GenConfig { cores: 8, insts: 400, netlist: true, ..GenConfig::default() }, Layout::Files)
            .iter()
            .map(gen::GenFile::source)
            .collect();
    sources.push(SourceFile::text("truncated.json", "{\"functions\": [{\"name\": \"f\""));
    sources.push(SourceFile {
        path: "binary.json".to_owned(),
        content: birlink_core::Content::Bytes(vec![b'{', 0xFF, b'}']),
        role: birlink_core::Role::Auto,
    });
    sources.push(SourceFile::text("notes.json", "[1, 2]"));
    sources.push(SourceFile {
        path: "gone.json".to_owned(),
        content: birlink_core::Content::Unreadable("no such file".to_owned()),
        role: birlink_core::Role::Auto,
    });
    let one = birlink_core::run(sources.clone(), &LinkOptions { threads: 1, ..seeds() });
    assert!(codes(&one).contains(&"BL0001".to_owned()), "{:?}", codes(&one));
    for threads in [2, 3, 8] {
        let many = birlink_core::run(sources.clone(), &LinkOptions { threads, ..seeds() });
        assert_eq!(birlink_core::report_json(&many), birlink_core::report_json(&one), "{threads} threads");
    }
    // A clean set: the linked module too.
    let clean = matmul(Layout::Files);
    let linked = |threads| {
        let outcome = birlink_core::run(clean.clone(), &LinkOptions { threads, ..seeds() });
        let mut bytes = Vec::new();
        birlink_core::output::json::write_set(outcome.linked.as_ref().expect("linked"), &mut bytes).expect("write");
        (birlink_core::report_json(&outcome), bytes)
    };
    assert_eq!(linked(1), linked(4));
}

#[test]
fn compact_and_pretty_dumps_link_to_the_same_bytes() {
    // Compact dumps take the instructions' fast path (`json::fast`), pretty ones the
    // general one: the same link set either way gives the same linked module and the
    // same diagnostics (only positions differ).
    for fault in [None, Some(birlink_core::Code::RemoteMemlocMissing), Some(birlink_core::Code::StrayRemoteUpdate)] {
        let run = |compact: bool| {
            let config = GenConfig {
                insts: 600,
                unknown_keys: true,
                ring: true,
                cores: 3,
                compact,
                fault,
                ..GenConfig::default()
            };
            let sources: Vec<SourceFile> =
                gen::generate(&config, Layout::Files).iter().map(gen::GenFile::source).collect();
            let outcome = birlink_core::run(sources, &seeds());
            let mut bytes = Vec::new();
            if let Some(linked) = outcome.linked.as_ref() {
                birlink_core::output::json::write_set(linked, &mut bytes).expect("write");
            }
            let diagnostics: Vec<(String, String)> =
                outcome.report.diagnostics.iter().map(|d| (d.code.to_string(), d.message.clone())).collect();
            (bytes, diagnostics)
        };
        let (pretty, compact) = (run(false), run(true));
        assert!(!pretty.0.is_empty(), "{fault:?}");
        assert_eq!(pretty, compact, "{fault:?}");
    }
}
