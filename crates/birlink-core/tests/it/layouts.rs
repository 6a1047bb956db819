//! The layout does not matter: every input read pretty and compact, keys sorted and in
//! a producer's own order (`birlink_core::output::layout`), gives the same diagnostics
//! (codes, messages, pointers), the same report and the same `linked.json`.
//!
//! The samples, the hand-written cases and instructions of every unusual shape go
//! through `selfcheck::check_layouts`; one test per code and the properties do too
//! (`codes.rs`, `properties.rs`).

use std::path::Path;

use birlink_core::output::layout::{print, Layout};
use birlink_core::tools::selfcheck::check_layouts;
use birlink_core::{gen::samples, Role, SourceFile};
use serde_json::{json, Value};

use crate::support::{read_dir_sources, seeds};

fn sample_sources() -> Vec<(String, Vec<SourceFile>)> {
    samples::all()
        .into_iter()
        .map(|(info, bytes)| {
            let source =
                SourceFile { path: info.file.clone(), content: birlink_core::Content::Bytes(bytes), role: Role::Auto };
            (info.file, vec![source])
        })
        .collect()
}

#[test]
fn every_sample_reads_the_same_in_every_layout() {
    let mut broken = Vec::new();
    for (name, sources) in sample_sources() {
        if let Err(problem) = check_layouts(&sources, &seeds()) {
            broken.push(format!("{name}: {problem}"));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn every_case_reads_the_same_in_every_layout() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut dirs: Vec<_> = std::fs::read_dir(&data).expect("tests/data").map(|e| e.expect("entry").path()).collect();
    dirs.sort();
    let mut broken = Vec::new();
    for dir in dirs.into_iter().filter(|d| d.is_dir()) {
        if let Err(problem) = check_layouts(&read_dir_sources(&dir), &seeds()) {
            broken.push(format!("{}: {problem}", dir.display()));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// A two-core link set whose core 1 has one extra instruction, laid out.
fn with_instruction(inst: Value, layout: Layout) -> Vec<SourceFile> {
    let config = birlink_core::gen::GenConfig { insts: 20, ..birlink_core::gen::GenConfig::default() };
    birlink_core::gen::generate(&config, birlink_core::gen::Layout::Files)
        .into_iter()
        .map(|file| {
            let mut value: Value = serde_json::from_slice(&file.bytes).expect("generated json");
            if file.path == "nc01.json" {
                let insts = value
                    .pointer_mut("/functions/0/blocks/0/instructions")
                    .and_then(Value::as_array_mut)
                    .expect("the first block's instructions");
                insts.push(inst.clone());
            }
            SourceFile::text(file.path, print(&value, layout))
        })
        .collect()
}

/// `(code, pointer)` of every diagnostic of a run, and its `linked.json`.
fn verdict(sources: Vec<SourceFile>) -> (Vec<(String, String)>, Option<String>) {
    let outcome = birlink_core::run(sources, &seeds());
    let diagnostics = outcome
        .report
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str().to_owned(), d.location.as_ref().map(|l| l.pointer.clone()).unwrap_or_default()))
        .collect();
    (diagnostics, birlink_core::linked_json(&outcome))
}

/// Instructions of unusual shapes the reader must judge alike in every layout: arrays
/// where objects belong (the compact reader once read them as structs), `-0` (once
/// kept as `-0` compact and printed `-0.0` pretty), nulls, repeated keys, floats.
#[test]
fn unusual_instructions_are_judged_alike_in_every_layout() {
    let base = || json!({"name": "odd", "opcode": "Matmult", "engine": "PE"});
    let with = |key: &str, value: Value| {
        let mut inst = base();
        inst[key] = value;
        inst
    };
    let cases = [
        ("sync_info an array", with("sync_info", json!([[], [{"target_core": 1}]])), Some("BL0003")),
        ("an on_update entry an array", with("sync_info", json!({"on_update": [[1]]})), Some("BL0003")),
        ("on_wait an object", with("sync_info", json!({"on_wait": {}})), Some("BL0003")),
        ("target_core negative", with("sync_info", json!({"on_update": [{"target_core": -1}]})), Some("BL0008")),
        ("an operand an array", with("ins", json!([["nowhere"]])), None),
        ("a dependency a number", with("dependencies", json!([5, ["nowhere", "Flow"]])), Some("BL0206")),
        ("-0", with("scale", json!([-0.0, 0, 1.5, 1e21])), None),
        ("a null queue", with("queue", Value::Null), None),
        ("a name not a string", with("name", json!(5)), Some("BL0003")),
    ];
    // An operand that is an array names nothing; a null queue is no queue: the same
    // diagnostics as the plain instruction.
    let (plain, _) = verdict(with_instruction(base(), Layout::PRETTY));
    for (what, inst, code) in cases {
        let (first, linked) = verdict(with_instruction(inst.clone(), Layout::PRETTY));
        match code {
            Some(code) => assert!(first.iter().any(|(c, _)| c == code), "{what}: no {code} in {first:?}"),
            None => assert_eq!(first, plain, "{what}"),
        }
        for layout in Layout::ALL {
            let (diagnostics, other) = verdict(with_instruction(inst.clone(), layout));
            assert_eq!(diagnostics, first, "{what}, {}", layout.name());
            assert!(other == linked, "{what}, {}: another linked.json", layout.name());
        }
        let sources = with_instruction(inst, Layout::COMPACT_UNSORTED);
        check_layouts(&sources, &seeds()).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}

/// `-0` is printed as the writer prints it (`-0.0`) whatever the layout it came in.
#[test]
fn minus_zero_is_written_as_the_writer_prints_it() {
    let inst = json!({"name": "z", "opcode": "Matmult", "scale": 0});
    let text = |layout| {
        with_instruction(inst.clone(), layout)
            .into_iter()
            .map(|mut file| {
                let bytes = file.content.read().expect("generated");
                let text = String::from_utf8(bytes).expect("utf-8").replace("\"scale\":0", "\"scale\":-0");
                let text = text.replace("\"scale\": 0", "\"scale\": -0");
                file.content = birlink_core::Content::Bytes(text.into_bytes());
                file
            })
            .collect::<Vec<_>>()
    };
    let compact = verdict(text(Layout::COMPACT)).1.expect("linked");
    let pretty = verdict(text(Layout::PRETTY)).1.expect("linked");
    assert!(compact.contains("\"scale\":-0.0"), "the compact dump's -0 is kept as it is");
    assert_eq!(compact, pretty);
}

/// The direct reader reads every sample and real-shaped set itself, in every layout (it
/// leaves nothing to serde_json but what is unusual), and as serde_json driving does;
/// read for one name alone, each gives the entities so named that it gives whole.
#[test]
fn the_direct_reader_reads_samples_and_real_shaped_sets_in_every_layout() {
    use birlink_core::gen::{GenConfig, Shape};
    use birlink_core::tools::selfcheck::direct_agrees;
    let mut texts: Vec<(String, String)> = Vec::new();
    for (name, sources) in sample_sources() {
        for source in sources {
            // Some samples are not JSON on purpose: serde_json reads those.
            let Ok(value) = serde_json::from_slice::<Value>(source.content.bytes().expect("bytes")) else { continue };
            for layout in Layout::ALL {
                texts.push((format!("{name} {}", layout.name()), print(&value, layout)));
            }
        }
    }
    for (compact, sorted) in [(true, true), (true, false), (false, true), (false, false)] {
        let config = GenConfig {
            cores: 2,
            insts: 400,
            loop_depth: 3,
            unknown_keys: true,
            compact,
            sorted,
            shape: Shape::Real,
            ..GenConfig::default()
        };
        for file in birlink_core::gen::generate(&config, birlink_core::gen::Layout::Files) {
            let text = String::from_utf8(file.bytes).expect("utf-8");
            texts.push((format!("real {} compact={compact} sorted={sorted}", file.path), text));
        }
    }
    let mut broken = Vec::new();
    for (name, text) in &texts {
        match direct_agrees(text) {
            Ok(true) => {}
            Ok(false) => broken.push(format!("{name}: left to serde_json")),
            Err(problem) => broken.push(format!("{name}: {problem}")),
        }
        // Read for one name alone (`history --no-table`): what the whole reading gives.
        if let Err(problem) = birlink_core::tools::history::follow_agrees(text) {
            broken.push(format!("{name}: {problem}"));
        }
    }
    assert!(texts.len() > 100, "{}", texts.len());
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// A file read later, in chunks, is compacted as it arrives; what is said about it still
/// points into the file: every sample, read in small and large chunks, gives the very
/// report (lines and columns included) and `linked.json` that its bytes give.
#[test]
fn a_file_read_in_chunks_gives_the_same_report_as_its_bytes() {
    use birlink_core::{linked_json, report_json, run};
    let mut broken = Vec::new();
    for (name, sources) in sample_sources() {
        let expected = run(sources.clone(), &seeds());
        for chunk in [7usize, 4096, 1 << 20] {
            let later: Vec<SourceFile> = sources
                .iter()
                .map(|source| {
                    let bytes = source.content.bytes().expect("bytes").to_vec();
                    SourceFile { role: source.role, ..read_later(&source.path, bytes, chunk) }
                })
                .collect();
            let outcome = run(later, &seeds());
            if report_json(&outcome) != report_json(&expected) {
                broken.push(format!("{name}, chunks of {chunk}: another report"));
            }
            if linked_json(&outcome) != linked_json(&expected) {
                broken.push(format!("{name}, chunks of {chunk}: another linked.json"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// Files of a megabyte and more are read into the bytes of the files let go before them
/// (`input::Spare`): a producer's key order and indented dumps let their text go, sorted
/// compact ones keep it. Whatever the mix, the order and the threads, the report and
/// `linked.json` are the ones the files' bytes give.
#[test]
fn files_read_into_spare_bytes_give_what_their_bytes_give() {
    use birlink_core::gen::{generate, GenConfig, Layout as Files, Shape};
    use birlink_core::{linked_json, report_json, run, LinkOptions};
    let config =
        GenConfig { cores: 4, insts: 3_000, compact: true, sorted: false, shape: Shape::Short, ..GenConfig::default() };
    let mut files: Vec<(String, Vec<u8>)> =
        generate(&config, Files::Files).into_iter().map(|f| (f.path, f.bytes)).collect();
    assert_eq!(files.len(), 4);
    // Core 1 indented (keys sorted by serde_json's map: its compact text is kept), core 2
    // cut to a third of its instructions (a smaller file after a larger one's bytes).
    let value = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).expect("json");
    files[1].1 = serde_json::to_string_pretty(&value(&files[1].1)).expect("print").into_bytes();
    let mut smaller = value(&files[2].1);
    let insts = smaller.pointer_mut("/functions/0/blocks/0/instructions").and_then(Value::as_array_mut).expect("insts");
    let keep = insts.len() / 3;
    insts.truncate(keep);
    files[2].1 = serde_json::to_vec(&smaller).expect("print");
    assert!(
        files.iter().all(|(_, bytes)| bytes.len() >= 1 << 20),
        "{:?}",
        files.iter().map(|f| f.1.len()).collect::<Vec<_>>()
    );
    let bytes = |files: &[(String, Vec<u8>)]| -> Vec<SourceFile> {
        files.iter().map(|(path, bytes)| SourceFile::bytes(path.clone(), bytes.clone())).collect()
    };
    let later = |files: &[(String, Vec<u8>)]| -> Vec<SourceFile> {
        files.iter().map(|(path, bytes)| read_later(path, bytes.clone(), 1 << 16)).collect()
    };
    let mut broken = Vec::new();
    for order in [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2]] {
        let files: Vec<(String, Vec<u8>)> = order.iter().map(|&i| files[i].clone()).collect();
        let expected = run(bytes(&files), &LinkOptions::default());
        assert!(linked_json(&expected).is_some(), "{}", report_json(&expected));
        for threads in [1, 2] {
            let outcome = run(later(&files), &LinkOptions { threads, ..LinkOptions::default() });
            if report_json(&outcome) != report_json(&expected) {
                broken.push(format!("order {order:?}, {threads} thread(s): another report"));
            }
            if linked_json(&outcome) != linked_json(&expected) {
                broken.push(format!("order {order:?}, {threads} thread(s): another linked.json"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// A file read later whose keys are in a producer's order is read in place: each
/// instruction's canonical text written over the bytes it was read from (no second text
/// beside the file's). Whatever is odd about it — a number printed longer than written
/// (its text written to a copy), a document cut short or a container given twice (found
/// once the text is written over: the file is read again), a bundle (not written in
/// place), an indented layout — gives the report, lines and columns included, and the
/// `linked.json` its bytes give, on one thread and two.
#[test]
fn a_producers_order_read_in_place_gives_what_its_bytes_give() {
    use birlink_core::gen::{generate, GenConfig, Layout as Files, Shape};
    use birlink_core::{linked_json, report_json, run, LinkOptions};
    let config =
        GenConfig { cores: 2, insts: 2_000, compact: true, sorted: false, shape: Shape::Short, ..GenConfig::default() };
    let files: Vec<(String, String)> = generate(&config, Files::Files)
        .into_iter()
        .map(|f| (f.path, String::from_utf8(f.bytes).expect("utf-8")))
        .collect();
    assert_eq!(files.len(), 2);
    assert!(files[0].1.contains(r#"{"sync_info":"#), "keys not in the producer's order");
    type Edit = fn(&str) -> String;
    let variants: [(&str, Edit); 6] = [
        ("as written", |text| text.to_owned()),
        ("numbers printed longer", |text| text.replace(r#""opcode":"Matmult""#, r#""opcode":"Matmult","scale":1e3"#)),
        ("cut short", |text| text[..text.len() * 2 / 3].to_owned()),
        ("functions given twice", |text| format!(r#"{},"functions":[]}}"#, &text[..text.len() - 1])),
        ("a bundle", |text| format!(r#"{{"modules":[{text}],"version":2}}"#)),
        ("indented, cut short", |text| {
            let pretty =
                serde_json::to_string_pretty(&serde_json::from_str::<Value>(text).expect("json")).expect("print");
            // serde_json's map sorts the keys: one out of order again, in the first
            // instructions (the queues' DMA blocks).
            let pretty = pretty.replace("\"block_id\"", "\"zz_block_id\"");
            pretty[..pretty.len() / 2].to_owned()
        }),
    ];
    let mut broken = Vec::new();
    for (name, edit) in variants {
        let edited: Vec<(String, Vec<u8>)> =
            files.iter().map(|(path, text)| (path.clone(), edit(text).into_bytes())).collect();
        let bytes: Vec<SourceFile> =
            edited.iter().map(|(path, bytes)| SourceFile::bytes(path.clone(), bytes.clone())).collect();
        let expected = run(bytes, &LinkOptions::default());
        for threads in [1, 2] {
            let later: Vec<SourceFile> =
                edited.iter().map(|(path, bytes)| read_later(path, bytes.clone(), 1 << 16)).collect();
            let outcome = run(later, &LinkOptions { threads, ..LinkOptions::default() });
            if report_json(&outcome) != report_json(&expected) {
                broken.push(format!("{name}, {threads} thread(s): another report"));
            }
            if linked_json(&outcome) != linked_json(&expected) {
                broken.push(format!("{name}, {threads} thread(s): another linked.json"));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// A file read later, as the CLI and the worker give one: its bytes handed over in chunks
/// of `chunk`, as often as asked (read again when its text was written over or let go).
fn read_later(path: &str, bytes: Vec<u8>, chunk: usize) -> SourceFile {
    use birlink_core::{Content, Reader};
    let len = bytes.len() as u64;
    let reader = Reader::chunked(move |each| {
        bytes.chunks(chunk).for_each(&mut *each);
        Ok(())
    });
    SourceFile { path: path.to_owned(), content: Content::Later { len, reader }, role: Role::Auto }
}

/// The sync check reads an instruction's `engine`, `sync_info` and `dependencies` where
/// the reader found them (a compact dump with sorted keys) and walks its members
/// otherwise (every other layout, and any instruction with another key or opcode the
/// check reads): both readings give the same report.
#[test]
fn the_sync_check_reads_an_instruction_alike_whether_its_keys_were_found_or_walked() {
    let long = "x".repeat(70_000);
    let cases = [
        json!({"name": "w", "opcode": "Matmult", "engine": "PE", "dependencies": [["i1", "Flow"], "i2"],
               "sync_info": {"on_wait": [{"id": 9, "wait_value": 1}], "on_update": [{"id": 3, "mode": "sem-inc"}]}}),
        json!({"name": "far", "opcode": "Matmult", "engine": "Activation", "debug": {"note": long},
               "sync_info": {"on_wait": [{"id": 9, "wait_value": 1}]}}),
        json!({"name": "s", "opcode": "SendRecv", "engine": "DMA", "pipe_id": 2, "send_to_rank": 0, "recv_from_rank": 0}),
        json!({"name": "t", "opcode": "DmaTrigger", "engine": "SP", "dma_blocks": ["nowhere"], "queue": "q"}),
        json!({"name": "r", "opcode": "GroupResetSemaphores", "engine": "Pool", "sema_group": [3, 4]}),
        json!({"name": "j", "opcode": "UnconditionalBranch", "engine": "Pool", "target": "nowhere"}),
        json!({"name": "e", "opcode": "Matmult", "engine": "PE", "dependencies": ["i\u{7}1"],
               "sync_info": {"on_update": [{"id": 3, "mode": "sem-inc", "target_core": 0}]}}),
    ];
    // A flat set (per-core modules: the check runs), the instruction on core 1.
    let config = birlink_core::gen::GenConfig {
        insts: 20,
        flow: birlink_core::Flow::Flat,
        barriers: 2,
        ..birlink_core::gen::GenConfig::default()
    };
    let flat = birlink_core::gen::generate(&config, birlink_core::gen::Layout::Files);
    for inst in cases {
        let what = inst["name"].clone();
        let sources: Vec<SourceFile> = flat
            .iter()
            .map(|file| {
                let mut value: Value = serde_json::from_slice(&file.bytes).expect("generated json");
                if file.path.contains("nc01") {
                    let Some(insts) =
                        value.pointer_mut("/functions/0/blocks/0/instructions").and_then(Value::as_array_mut)
                    else {
                        panic!("the first block's instructions");
                    };
                    insts.push(inst.clone());
                }
                SourceFile::text(file.path.clone(), print(&value, Layout::COMPACT))
            })
            .collect();
        let options = birlink_core::LinkOptions { flow: Some(birlink_core::Flow::Flat), ..Default::default() };
        let outcome = birlink_core::run(sources.clone(), &options);
        assert!(outcome.report.sync.execution.is_some(), "{what}: the check ran: {:?}", outcome.report.sync.why);
        check_layouts(&sources, &options).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}
