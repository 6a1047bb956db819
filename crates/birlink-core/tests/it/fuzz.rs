//! The fuzz corpus and every fuzz finding, replayed on stable with the fuzz targets'
//! own check (`birlink_core::tools::selfcheck::check_run`): no panic, same bytes twice, coded
//! lowercase diagnostics, consistent pass statuses, `linked.json` that reads back.
//!
//! * `fuzz/corpus/read_bytes/*` — raw inputs, split into files at `0xFF` as the
//!   `read_bytes` target does.
//! * `fuzz/regressions/<finding>/` — what a finding of any target stood for, written by
//!   `fuzz/examples/dump.rs`: the files in their folders, and `options.json` (`lnc`,
//!   `passes`, `flow`).
//! * `fuzz/regressions/fast_vs_general.jsonl` — the instructions of the
//!   `fast_vs_general` corpus, written by `fuzz/examples/insts.rs`, through
//!   `selfcheck::fast_agrees`.

use std::fs;
use std::path::{Path, PathBuf};

use birlink_core::tools::selfcheck::{check_run, split_files};
use birlink_core::{LinkOptions, Role, SourceFile};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> =
        fs::read_dir(dir).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    entries.sort();
    entries
}

#[test]
fn corpus_keeps_every_invariant() {
    let entries = sorted_entries(&fuzz_dir().join("corpus/read_bytes"));
    assert!(entries.len() >= 50, "the read_bytes corpus is missing ({} files)", entries.len());
    let mut broken = Vec::new();
    for path in &entries {
        let data = fs::read(path).expect("corpus file");
        if let Err(problem) = check_run(split_files(&data), &LinkOptions::default()) {
            broken.push(format!("{}: {problem}", path.display()));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn fuzz_findings_stay_fixed() {
    let mut broken = Vec::new();
    for dir in sorted_entries(&fuzz_dir().join("regressions")).into_iter().filter(|p| p.is_dir()) {
        let options: serde_json::Value = fs::read_to_string(dir.join("options.json"))
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default();
        let options = LinkOptions {
            flow: options["flow"].as_str().and_then(birlink_core::Flow::parse),
            lnc: options["lnc"].as_u64(),
            passes: options["passes"]
                .as_array()
                .map(|a| a.iter().filter_map(|p| p.as_str().map(str::to_owned)).collect()),
            ..LinkOptions::default()
        };
        // Its files, in their folders (a work directory's `work/nc00/sg01/…`), by their
        // path below the finding's folder.
        let mut files = Vec::new();
        let mut stack = vec![dir.clone()];
        while let Some(at) = stack.pop() {
            for path in sorted_entries(&at) {
                if path.is_dir() {
                    stack.push(path);
                } else if path.file_name().is_some_and(|n| n != "options.json" && n != "README.md") {
                    files.push(path);
                }
            }
        }
        files.sort();
        let sources: Vec<SourceFile> = files
            .into_iter()
            .map(|p| SourceFile {
                path: p.strip_prefix(&dir).unwrap_or(&p).to_string_lossy().replace('\\', "/"),
                content: birlink_core::Content::Bytes(fs::read(&p).expect("regression file")),
                role: Role::Auto,
            })
            .collect();
        if let Err(problem) = check_run(sources, &options) {
            broken.push(format!("{}: {problem}", dir.display()));
        }
    }
    assert!(fuzz_dir().join("regressions").is_dir(), "fuzz/regressions is missing");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

/// The instructions the `fast_vs_general` corpus stands for (written by
/// `cargo run --example insts` in `fuzz/`), each read by the fast path and the general
/// path alike.
#[test]
fn the_fast_path_corpus_reads_as_the_general_path() {
    let path = fuzz_dir().join("regressions/fast_vs_general.jsonl");
    let text = fs::read_to_string(&path).expect("fuzz/regressions/fast_vs_general.jsonl");
    let mut broken = Vec::new();
    let mut read = 0;
    for line in text.lines() {
        let inst: String = serde_json::from_str(line).expect("one JSON string per line");
        if let Err(problem) = birlink_core::tools::selfcheck::fast_agrees(&inst) {
            broken.push(problem);
        }
        read += 1;
    }
    assert!(read >= 500, "only {read} instructions in the corpus");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
