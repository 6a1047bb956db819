//! `tools::history` on work directories printed after every pass, with partings
//! planted: a pass that changes nothing, one that renames an instruction on every core,
//! one that loses a memory location on core 1 (the NCC_ILLC059 shape), one that adds an
//! instruction before a barrier on core 1 (IXLV002's drift) — in both layouts.

use serde_json::Value;

use birlink_core::gen::{self, GenConfig};
use birlink_core::model::entity::EntityKind;
use birlink_core::tools::history::{history, History, HistoryOptions, ModuleState};
use birlink_core::Flow;

/// The first memory location of core `core`'s module, and the module itself.
fn first_memloc(module: &Value) -> String {
    module["functions"][0]["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|set| set["memorylocations"].as_array().and_then(|m| m.first()).and_then(|m| m["name"].as_str()))
        .unwrap()
        .to_owned()
}

fn instructions(module: &mut Value) -> &mut Vec<Value> {
    module["functions"][0]["blocks"][0]["instructions"].as_array_mut().unwrap()
}

/// A flat 2-core work directory dumped after five passes, partings planted; its files.
fn planted(indented: bool) -> (Vec<(String, Vec<u8>)>, String) {
    let config = GenConfig { flow: Flow::Flat, cores: 2, barriers: 2, ..GenConfig::default() };
    let set = gen::generate_set(&config);
    let mut modules: Vec<Value> = set.modules.clone();
    let lost = first_memloc(&modules[1]);
    // An instruction both cores have, by name.
    let names =
        |m: &mut Value| instructions(m).iter().map(|i| i["name"].as_str().unwrap().to_owned()).collect::<Vec<_>>();
    let theirs = names(&mut modules[1]);
    let common = names(&mut modules[0]).into_iter().find(|n| theirs.contains(n)).unwrap();
    let mut files = Vec::new();
    let passes = ["lower_dma", "lower_sync", "rename_queues", "drop_names", "add_work"];
    for (n, pass) in passes.iter().enumerate() {
        for (core, module) in modules.iter_mut().enumerate() {
            match *pass {
                // Every core: one instruction both have gets a new name.
                "rename_queues" => {
                    let inst = instructions(module).iter_mut().find(|i| i["name"] == common.as_str()).unwrap();
                    inst["name"] = Value::String(format!("{common}_renamed"));
                }
                // Core 1 loses a memory location.
                "drop_names" if core == 1 => {
                    for set in module["functions"][0]["allocations"].as_array_mut().unwrap() {
                        if let Some(list) = set["memorylocations"].as_array_mut() {
                            list.retain(|m| m["name"] != lost.as_str());
                        }
                    }
                }
                // Core 1 issues one more instruction before its first barrier, on its engine.
                "add_work" if core == 1 => {
                    let list = instructions(module);
                    let at = list.iter().position(|i| i["opcode"] == "CoreBarrier").unwrap();
                    let engine = list[at]["engine"].clone();
                    let mut extra = list.iter().find(|i| i["opcode"] == "Activation").unwrap().clone();
                    extra["name"] = Value::String("extra_work".to_owned());
                    extra["engine"] = engine;
                    list.insert(at, extra);
                }
                _ => {}
            }
            let text = if indented { serde_json::to_string_pretty(module) } else { serde_json::to_string(module) };
            let path = format!("w/nc{core:02}/sg00/bir_debug.{}.after-{pass}.before-next.json", n + 3);
            files.push((path, text.unwrap().into_bytes()));
        }
    }
    (files, lost)
}

fn run(files: &[(String, Vec<u8>)], options: &HistoryOptions) -> History {
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut asked = Vec::new();
    let mut bytes = |i: usize| {
        asked.push(i);
        birlink_core::Content::Bytes(files[i].1.clone())
    };
    let out = history(&paths, &mut bytes, None, options);
    // Each dump asked for once, and once more at most (its bytes against the next's).
    asked.sort_unstable();
    for twice in asked.windows(3) {
        assert!(twice[0] != twice[2], "dump {} asked for three times", twice[0]);
    }
    out
}

#[test]
fn each_pass_says_what_it_changed_and_where_the_cores_part() {
    for indented in [false, true] {
        let (files, lost) = planted(indented);
        let out = run(&files, &HistoryOptions::default());
        let states: Vec<(&str, Vec<ModuleState>)> =
            out.passes.iter().map(|p| (p.name.as_str(), p.changed.iter().map(|m| m.state).collect())).collect();
        use ModuleState::*;
        assert_eq!(
            states,
            [
                ("lower_dma", vec![First, First]),
                ("lower_sync", vec![Unchanged, Unchanged]),
                ("rename_queues", vec![Changed, Changed]),
                ("drop_names", vec![Unchanged, Changed]),
                ("add_work", vec![Unchanged, Changed]),
            ],
            "indented: {indented}"
        );
        // A rename is one entity renamed, not one removed and one added.
        let renamed = &out.passes[2].changed[0];
        assert_eq!(renamed.renamed.get(&EntityKind::Instruction), Some(&1), "{renamed:?}");
        assert!(
            !renamed.added.contains_key(&EntityKind::Instruction)
                && !renamed.removed.contains_key(&EntityKind::Instruction)
        );
        assert_eq!(out.passes[3].changed[1].removed.get(&EntityKind::Memloc), Some(&1));
        // The partings: the name lost on core 1, then the drift before the barrier.
        let parted: Vec<&str> = out.parted.iter().map(|p| p.pass.as_str()).collect();
        assert_eq!(parted, ["drop_names", "add_work"], "{:#?}", out.parted);
        let lost_on = &out.parted[0].only_on;
        assert!(lost_on.iter().any(|o| o.core == 0 && o.kind == EntityKind::Memloc && o.name == lost), "{lost_on:?}");
        let drift = &out.parted[1].counts;
        assert!(drift.iter().any(|c| c.what.starts_with("instructions before each CoreBarrier of")), "{drift:?}");
        // The renaming pass changed every core alike: no parting there.
        assert!(out.parted.iter().all(|p| p.pass != "rename_queues"));
        // Two dumps read at once, each on its thread: the same history.
        assert_eq!(run(&files, &HistoryOptions { threads: 2, ..HistoryOptions::default() }), out);
    }
}

#[test]
fn one_entity_through_every_pass_is_last_seen_on_core_1_before_the_pass_that_lost_it() {
    let (files, lost) = planted(false);
    let out = run(&files, &HistoryOptions { entity: Some(lost.clone()), ..HistoryOptions::default() });
    let entity = out.entity.expect("the entity's history");
    let on = |core: u64| -> Vec<(String, String)> {
        entity.history.iter().filter(|s| s.core == core).map(|s| (s.pass.clone(), s.state.clone())).collect()
    };
    let states = |core| on(core).into_iter().map(|(_, s)| s).collect::<Vec<_>>();
    assert_eq!(states(0), ["first", "unchanged", "unchanged", "unchanged", "unchanged"]);
    assert_eq!(states(1), ["first", "unchanged", "unchanged", "removed", "absent"]);
    assert!(entity.history[0].text.iter().any(|t| t.contains(&lost)), "its text where it first is");
    assert_eq!(entity.last_seen, [(0, Some("add_work".to_owned())), (1, Some("rename_queues".to_owned()))]);
    // The same history from a pasted compiler error that quotes the name.
    let pasted = format!("[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named {lost} on core 1 - Please open a support ticket");
    let from_error = run(&files, &HistoryOptions { entity: Some(pasted), ..HistoryOptions::default() });
    assert_eq!(from_error.entity.as_ref().map(|e| (&e.name, &e.last_seen)), Some((&lost, &entity.last_seen)));
    // Only core 1, only its passes.
    let one = run(&files, &HistoryOptions { core: Some(1), ..HistoryOptions::default() });
    assert!(one.passes.iter().all(|p| p.changed.len() == 1 && p.changed[0].module == "nc01/sg00"));
    assert!(one.parted.is_empty(), "one core parts from none");
}

#[test]
fn the_log_orders_the_passes_and_a_bad_dump_is_said_not_fatal() {
    let (mut files, _) = planted(false);
    // A log that ran add_work before drop_names reorders them.
    let log = "2026-01-01T00:00:00Z USER 1 (nc00) [CoreForkPass]: Running lower_dma\n\
               2026-01-01T00:00:00Z USER 1 (nc00) [CoreForkPass]: Running lower_sync\n\
               2026-01-01T00:00:00Z USER 1 (nc00) [CoreForkPass]: Running rename_queues\n\
               2026-01-01T00:00:00Z USER 1 (nc00) [CoreForkPass]: Running add_work\n\
               2026-01-01T00:00:00Z USER 1 (nc00) [CoreForkPass]: Running drop_names\n";
    let reading = birlink_core::tools::log::read_log(log);
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut bytes = |i: usize| birlink_core::Content::Bytes(files[i].1.clone());
    let out = history(&paths, &mut bytes, Some(&reading), &HistoryOptions::default());
    let order: Vec<&str> = out.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(order, ["lower_dma", "lower_sync", "rename_queues", "add_work", "drop_names"]);
    // One dump cut short: said, and the rest still read.
    files[3].1.truncate(40);
    let out = run(&files, &HistoryOptions::default());
    assert_eq!(out.unread.len(), 1, "{:?}", out.unread);
    assert_eq!(out.passes.len(), 5);
}

/// A dump given as the CLI gives it: read when the loader reaches it, in chunks.
fn later(bytes: &[u8]) -> birlink_core::Content {
    let bytes = std::sync::Arc::new(bytes.to_vec());
    let len = bytes.len() as u64;
    let reader = birlink_core::Reader::chunked(move |each| {
        bytes.chunks(4096).for_each(&mut *each);
        Ok(())
    });
    birlink_core::Content::Later { len, reader }
}

#[test]
fn dumps_read_in_chunks_when_reached_give_the_same_history_and_an_unreadable_one_is_said() {
    for indented in [false, true] {
        let (files, _) = planted(indented);
        let whole = run(&files, &HistoryOptions { entity: Some("extra_work".to_owned()), ..HistoryOptions::default() });
        let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        let mut later = |i: usize| later(&files[i].1);
        let options = HistoryOptions { entity: Some("extra_work".to_owned()), ..HistoryOptions::default() };
        assert_eq!(history(&paths, &mut later, None, &options), whole, "indented: {indented}");
        // A dump that cannot be read is listed with why; the others are compared.
        let mut gone = |i: usize| match i {
            0 => birlink_core::Content::Unreadable("permission denied".to_owned()),
            _ => birlink_core::Content::Bytes(files[i].1.clone()),
        };
        let out = history(&paths, &mut gone, None, &HistoryOptions::default());
        assert_eq!(out.unread.len(), 1);
        assert!(out.unread[0].why.contains("permission denied"), "{:?}", out.unread);
        assert_eq!(out.passes.len(), 5);
    }
}

/// A dump that is its module's previous dump again (a pass that changed nothing) is not
/// read, and the history is the one every dump read gives: a dump of the same length
/// that differs is read.
#[test]
fn a_dump_that_is_its_modules_last_again_is_not_read() {
    use birlink_core::tools::history::HistoryRun;
    for indented in [false, true] {
        let (files, lost) = planted(indented);
        let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        let options = HistoryOptions { entity: Some(lost.clone()), ..HistoryOptions::default() };
        let mut run = HistoryRun::new(paths.clone(), None, &options);
        let mut later = |i: usize| later(&files[i].1);
        while run.step(&mut later) {}
        // `lower_sync` changed nothing on either core; `drop_names` and `add_work`
        // changed core 1 only.
        assert_eq!(run.unchanged_dumps(), 4, "indented: {indented}");
        let skipped = run.finish();
        // The same history as every dump parsed (each given with a byte the digest
        // sees but JSON does not: a trailing space after the document).
        let mut spaced = |i: usize| {
            let mut bytes = files[i].1.clone();
            bytes.extend(std::iter::repeat_n(b' ', i + 1));
            birlink_core::Content::Bytes(bytes)
        };
        let all_read = history(&paths, &mut spaced, None, &options);
        assert_eq!(skipped, all_read, "indented: {indented}");
        let unchanged = skipped.passes.iter().find(|p| p.name == "lower_sync").unwrap();
        assert!(unchanged.changed.iter().all(|m| m.state == ModuleState::Unchanged));
    }
    // Same length, other bytes: read, and said changed.
    let (mut files, _) = planted(false);
    let (first, second) = (files[0].1.clone(), files[2].1.clone());
    assert_eq!(first, second, "lower_sync's dump of core 0 is lower_dma's again");
    let text = String::from_utf8(second).unwrap();
    let swapped = text.replacen("\"name\":\"sb", "\"name\":\"sc", 1);
    assert_eq!(swapped.len(), text.len());
    assert_ne!(swapped, text);
    files[2].1 = swapped.into_bytes();
    let out = run(&files, &HistoryOptions::default());
    let pass = out.passes.iter().find(|p| p.name == "lower_sync").unwrap();
    assert_eq!(pass.changed[0].state, ModuleState::Changed, "{:?}", pass.changed[0]);
}

/// Every string under a `name` key, in document order.
fn names_in(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, v) in map {
                match v {
                    Value::String(name) if key == "name" => out.push(name.clone()),
                    _ => names_in(v, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| names_in(v, out)),
        _ => {}
    }
}

/// An entity followed alone (no pass table: each dump read for the instructions that
/// may carry its name) has the history the pass table's reading gives it — every name
/// of the planted directory (functions, blocks, sets, locations, queues, instructions;
/// one renamed, one lost on core 1, one added), a set's derived name, a name no dump
/// has; one dump spelling an instruction's name with a `\u` escape; both layouts,
/// given whole or in chunks, one thread or two.
#[test]
fn an_entity_followed_alone_has_the_history_the_pass_table_gives_it() {
    for indented in [false, true] {
        let (mut files, lost) = planted(indented);
        let first: Value = serde_json::from_slice(&files[0].1).unwrap();
        let mut names = Vec::new();
        names_in(&first, &mut names);
        names.sort();
        names.dedup();
        // An instruction of core 0, spelt with an escape in its second dump.
        let escaped_name = instructions(&mut first.clone())[0]["name"].as_str().unwrap().to_owned();
        let quoted = format!("\"{escaped_name}\"");
        let spelt = format!("\"\\u{:04x}{}\"", u32::from(escaped_name.as_bytes()[0]), &escaped_name[1..]);
        let text = String::from_utf8(files[2].1.clone()).unwrap();
        assert!(text.contains(&quoted), "{escaped_name} in the dump");
        files[2].1 = text.replace(&quoted, &spelt).into_bytes();
        let step = (names.len() / 24).max(1);
        let mut followed: Vec<String> = names.iter().step_by(step).cloned().collect();
        followed.extend([
            lost.clone(),
            "extra_work".to_owned(),
            escaped_name.clone(),
            format!("{lost}_set"),
            "no_such_name".to_owned(),
        ]);
        let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
        for name in followed {
            let table = run(&files, &HistoryOptions { entity: Some(name.clone()), ..HistoryOptions::default() });
            let alone = HistoryOptions { entity: Some(name.clone()), no_table: true, ..HistoryOptions::default() };
            let out = run(&files, &alone);
            assert_eq!(out.entity, table.entity, "{name}, indented: {indented}");
            assert!(out.no_table && !table.no_table);
            assert!(out.parted.is_empty() && out.baseline.is_empty());
            assert!(out.passes.iter().all(|p| p.changed.is_empty()));
            let order = |h: &History| h.passes.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
            assert_eq!(order(&out), order(&table));
            let mut chunked = |i: usize| later(&files[i].1);
            let two = HistoryOptions { threads: 2, ..alone.clone() };
            assert_eq!(history(&paths, &mut chunked, None, &two), out, "{name}, in chunks, two threads");
        }
        // The escaped spelling is that instruction all the same: unchanged after
        // `lower_sync` on core 0, as the table reads it.
        let out = run(
            &files,
            &HistoryOptions { entity: Some(escaped_name.clone()), no_table: true, ..HistoryOptions::default() },
        );
        let history = &out.entity.as_ref().unwrap().history;
        let at = history.iter().find(|s| s.pass == "lower_sync" && s.core == 0).unwrap();
        assert_eq!(at.state, "unchanged", "{escaped_name}: {history:?}");
    }
}
