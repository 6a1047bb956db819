//! Helpers shared by the test modules: reading a case folder, running the pipeline, and
//! a compact, stable text summary of an outcome for snapshots.

use std::fmt::Write as _;
use std::path::Path;

use birlink_core::{Flow, LinkOptions, Outcome, SourceFile};

/// Every `*.json` below `dir`, sorted by path, with paths relative to `dir`.
pub fn read_dir_sources(dir: &Path) -> Vec<SourceFile> {
    fn walk(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("read test dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "json") {
                found.push(path);
            }
        }
    }
    let mut found = Vec::new();
    walk(dir, &mut found);
    found.sort();
    found
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(dir).expect("below dir").to_string_lossy().replace('\\', "/");
            SourceFile::text(relative, std::fs::read_to_string(&path).expect("read test file"))
        })
        .collect()
}

/// The seeds' reading asked for: what every test of it links with (the files cannot say
/// so; a bundle of the samples does).
pub fn seeds() -> LinkOptions {
    LinkOptions { flow: Some(Flow::Seeds), ..LinkOptions::default() }
}

/// Runs the pipeline in the seeds' reading.
pub fn link(sources: Vec<SourceFile>) -> Outcome {
    birlink_core::run(sources, &seeds())
}

/// Runs the pipeline as the compiler decides its flow (no option).
pub fn link_as_compiler(sources: Vec<SourceFile>) -> Outcome {
    birlink_core::run(sources, &LinkOptions::default())
}

/// Diagnostics, pass statuses with step counts, report rows, and the linked text: what
/// a reviewer wants to see change, in one readable snapshot.
pub fn summary(outcome: &Outcome) -> String {
    let report = &outcome.report;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "== options\nlnc {} ({}) base {:?} linked {:?}",
        report.options.lnc,
        report.options.lnc_source.as_str(),
        report.options.base_name,
        report.options.linked_name
    );
    let _ = writeln!(out, "== inputs");
    for input in &report.inputs {
        let _ = writeln!(
            out,
            "{}{} {:?} module={:?} core={:?} functions={} instructions={} status={}",
            input.file,
            input.pointer,
            input.kind,
            input.module,
            input.core,
            input.functions,
            input.instructions,
            input.status.as_str()
        );
    }
    let _ = writeln!(out, "== diagnostics");
    for d in &report.diagnostics {
        let location = d
            .location
            .as_ref()
            .map(|l| format!("{}:{}:{} {}", l.file, l.line.unwrap_or(0), l.column.unwrap_or(0), l.pointer))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{} {} [{}] core={:?} {location}\n  {}",
            d.severity.as_str(),
            d.code,
            d.pass,
            d.core,
            d.message
        );
        if !d.nearest.is_empty() || !d.found_on_cores.is_empty() {
            let _ = writeln!(out, "  nearest={:?} found_on_cores={:?}", d.nearest, d.found_on_cores);
        }
    }
    let _ = writeln!(out, "== passes");
    for pass in &report.passes {
        let steps: Vec<String> = pass.steps.iter().map(|s| format!("{}={}", s.name, s.changes)).collect();
        let _ = writeln!(out, "{} {} [{}]", pass.name, pass.status.as_str(), steps.join(" "));
    }
    let _ = writeln!(out, "== rows");
    let rows = serde_json::json!({
        "dispatcher": report.dispatcher,
        "aliases": report.aliases,
        "output_kinds": report.output_kinds,
        "queues": report.queues,
        "barriers": report.barriers,
        "address_map": report.address_map,
        "semaphores": report.semaphores,
    });
    let _ = writeln!(out, "{}", serde_json::to_string_pretty(&rows).expect("rows"));
    if let Some(log) = birlink_core::bir_linker_log(outcome) {
        let _ = writeln!(out, "== bir_linker.log");
        out.push_str(&log);
    }
    let _ = writeln!(out, "== linked");
    match &outcome.linked {
        Some(module) => out.push_str(&birlink_core::output::print::set_text(module)),
        None => out.push_str("(none)\n"),
    }
    out
}

/// The codes of the outcome's diagnostics.
pub fn codes(outcome: &Outcome) -> Vec<String> {
    outcome.report.diagnostics.iter().map(|d| d.code.as_str().to_owned()).collect()
}

/// A pass's status; a pass run once per core (bir_linker in the modular flow) is its
/// worst core's.
pub fn status(outcome: &Outcome, pass: impl std::fmt::Display) -> &'static str {
    let pass = pass.to_string();
    let rows: Vec<&str> =
        outcome.report.passes.iter().filter(|p| p.name.as_str() == pass).map(|p| p.status.as_str()).collect();
    ["error", "ok", "skipped"].into_iter().find(|s| rows.contains(s)).unwrap_or("missing")
}
