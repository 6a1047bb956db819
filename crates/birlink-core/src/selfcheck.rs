//! Invariants every run keeps, whatever its input: what the fuzz targets (`fuzz/`) and
//! the corpus replay test check after each run, beyond "it did not panic".
//!
//! * `report.json` is valid JSON, and a second run gives the same bytes (report and
//!   `linked.json`): no hash order or address reaches the output.
//! * Every diagnostic has a registered code, a lowercase message and a `help`; its
//!   severity is its code's; a file named in a location is one of the inputs.
//! * Pass statuses are consistent: after a failed pass every later one is `skipped`,
//!   and a pass is `error` exactly when it reported an error.
//! * `linked.json` is valid JSON and reads back; when the run was clean (and no remote
//!   view targets another, BL0404), re-running the VNC passes on it reports no error and
//!   changes nothing.
//! * The canonical text, search and the details of every function of the linked module
//!   can be made (the viewers' queries), and every entity's key reads back and finds an
//!   entity with that key (what links to entities rely on).

use serde_json::Value;

use crate::codes::{starts_capitalized, Code};
use crate::diag::{has_errors, Severity};
use crate::entity::{EntityKey, EntityKind};
use crate::input::SourceFile;
use crate::pass::Pass;
use crate::passes::{run, LinkOptions, Outcome};
use crate::report::PassStatus;
use crate::{linked_json, print, query, report_json};

/// Runs the pipeline on `sources` (twice) and checks every invariant above; the first
/// one broken is the error.
pub fn check_run(sources: Vec<SourceFile>, options: &LinkOptions) -> Result<(), String> {
    let paths: Vec<String> = sources.iter().map(|s| s.path.clone()).collect();
    let outcome = run(sources.clone(), options);
    let report = report_json(&outcome);
    serde_json::from_str::<Value>(&report).map_err(|e| format!("report.json is not JSON: {e}"))?;
    let linked = linked_json(&outcome);

    let again = run(sources, options);
    if report_json(&again) != report {
        return Err("report.json differs between two runs of the same input".to_owned());
    }
    if linked_json(&again) != linked {
        return Err("linked.json differs between two runs of the same input".to_owned());
    }

    check_diagnostics(&outcome, &paths)?;
    check_statuses(&outcome)?;
    if let Some(text) = linked {
        check_linked(&outcome, text, options)?;
    }
    Ok(())
}

fn check_diagnostics(outcome: &Outcome, paths: &[String]) -> Result<(), String> {
    for d in &outcome.report.diagnostics {
        let code = d.code;
        if code.severity() != d.severity {
            return Err(format!("{} is reported as {:?}, registered as {:?}", d.code, d.severity, code.severity()));
        }
        if d.message.is_empty() || starts_capitalized(&d.message) {
            return Err(format!("{}: message must be lowercase and not empty: {:?}", d.code, d.message));
        }
        if d.help.is_empty() {
            return Err(format!("{}: no help", d.code));
        }
        if let Some(location) = &d.location {
            if !paths.contains(&location.file) {
                return Err(format!("{}: location names `{}`, which is not an input", d.code, location.file));
            }
        }
    }
    Ok(())
}

fn check_statuses(outcome: &Outcome) -> Result<(), String> {
    let mut failed = false;
    for pass in &outcome.report.passes {
        if failed && pass.status != PassStatus::Skipped {
            return Err(format!("`{}` is `{}` after a failed pass", pass.name, pass.status.as_str()));
        }
        let errors = outcome.report.diagnostics.iter().any(|d| d.pass == pass.name && d.severity == Severity::Error);
        match pass.status {
            PassStatus::Error if !errors => return Err(format!("`{}` failed without an error", pass.name)),
            PassStatus::Ok if errors => return Err(format!("`{}` is ok but reported an error", pass.name)),
            PassStatus::Ok | PassStatus::Error | PassStatus::Skipped => {}
        }
        failed |= pass.status == PassStatus::Error;
    }
    Ok(())
}

fn check_linked(outcome: &Outcome, text: String, options: &LinkOptions) -> Result<(), String> {
    serde_json::from_str::<Value>(&text).map_err(|e| format!("linked.json is not JSON: {e}"))?;
    if let Some(module) = &outcome.linked {
        let _ = print::module_text(module);
        let _ = query::search(module, "a", 20);
        for &function in &module.functions {
            let name = module.store.functions[function].name().to_owned();
            let q = query::EntityQuery { kind: EntityKind::Function, name, parent: None };
            let _ = query::entity_view(module, &outcome.files, &q);
        }
        for (_, key) in query::all_keys(module) {
            let text = key.to_string();
            let parsed: EntityKey = text.parse().map_err(|e| format!("entity key `{text}` does not read back: {e}"))?;
            if parsed != key {
                return Err(format!("entity key `{text}` reads back as another key"));
            }
            match query::entity_view_by_key(module, &outcome.files, &parsed) {
                Some(view) if view.key == key => {}
                Some(view) => return Err(format!("entity key `{text}` finds `{}`", view.key)),
                None => return Err(format!("entity key `{text}` finds nothing")),
            }
        }
    }
    // A chain of remote views (BL0404) is copied in one order, so a second run may move
    // an address further along it: only a run without one must be a fixed point.
    let chained = outcome.report.diagnostics.iter().any(|d| d.code == Code::ViewOfView);
    let clean = !chained
        && !has_errors(&outcome.report.diagnostics)
        && outcome.report.passes.iter().all(|p| p.status == PassStatus::Ok);
    let vnc: Vec<String> = [Pass::VncRemoteAddrMap, Pass::VncLink].iter().map(|p| p.as_str().to_owned()).collect();
    let rerun_options = LinkOptions { lnc: options.lnc, passes: Some(vnc), ..LinkOptions::default() };
    let rerun = run(vec![SourceFile::text("linked.json", text.clone())], &rerun_options);
    if clean {
        if let Some(d) = rerun.report.diagnostics.iter().find(|d| d.severity == Severity::Error) {
            return Err(format!("re-running the VNC passes on linked.json fails: {} {}", d.code, d.message));
        }
        if linked_json(&rerun).as_deref() != Some(text.as_str()) {
            return Err("re-running the VNC passes on linked.json changes it".to_owned());
        }
    }
    Ok(())
}
