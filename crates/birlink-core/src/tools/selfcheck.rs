//! Invariants every run keeps, whatever its input: what the fuzz targets (`fuzz/`) and
//! the corpus replay test check after each run, beyond "it did not panic".
//!
//! * `report.json` is valid JSON, and a second run gives the same bytes (report and
//!   `linked.json`): no hash order or address reaches the output.
//! * Every diagnostic has a registered code, a lowercase message and a `help`; its
//!   severity is its code's; a file named in a location is one of the inputs.
//! * Pass statuses are consistent: after a failed pass every later one is `skipped` (a
//!   pass run per core has every core's row),
//!   and a pass is `error` exactly when it reported an error.
//! * `linked.json` is valid JSON and reads back; when the run was clean (and no remote
//!   view targets another, BL0404), re-running the VNC passes on it reports no error and
//!   changes nothing.
//! * The canonical text, search and the details of every function of the linked module
//!   can be made (the viewers' queries), and every entity's key reads back and finds an
//!   entity with that key (what links to entities rely on).
//! * Both readers read each input alike: straight from its text (`json::direct`) and
//!   with serde_json driving (`json::stream`), the same module, entities, pointers, uses
//!   and diagnostics ([`direct_agrees`]), in every layout; and read for one name alone
//!   (`birlink history --no-table`), the entities so named that the whole reading gives
//!   (`tools::history::follow_agrees`).
//! * The layout does not matter: the input printed again in every layout (pretty and
//!   compact, keys sorted and not, `json::layout`) gives the same report — but for
//!   lines, columns and byte counts — and the same `linked.json` ([`check_layouts`]).

use serde_json::Value;

use crate::diag::codes::{starts_capitalized, Code};
use crate::diag::describe::compact;
use crate::diag::{has_errors, Severity};
use crate::model::entity::{EntityKey, EntityKind};
use crate::model::pass::Pass;
use crate::output::layout::{relayout, Layout};
use crate::output::report::PassStatus;
use crate::passes::{run, LinkOptions, Outcome};
use crate::read::input::SourceFile;
use crate::read::json::lower::read_one;
use crate::{linked_json, output::print, report_json, tools::query};

/// Runs the pipeline on `sources` (twice) and checks every invariant above; the first
/// one broken is the error.
pub fn check_run(sources: Vec<SourceFile>, options: &LinkOptions) -> Result<(), String> {
    let paths: Vec<String> = sources.iter().map(|s| s.path.clone()).collect();
    let outcome = run(sources.clone(), options);
    let report = report_json(&outcome);
    serde_json::from_str::<Value>(&report).map_err(|e| format!("report.json is not JSON: {e}"))?;
    let linked = linked_json(&outcome);

    let again = run(sources.clone(), options);
    if report_json(&again) != report {
        return Err("report.json differs between two runs of the same input".to_owned());
    }
    if linked_json(&again) != linked {
        return Err("linked.json differs between two runs of the same input".to_owned());
    }

    for source in &sources {
        if let Some(text) = source.content.bytes().and_then(|b| std::str::from_utf8(b).ok()) {
            direct_agrees(text).map_err(|e| format!("`{}`: {e}", source.path))?;
            crate::tools::history::follow_agrees(text).map_err(|e| format!("`{}`: {e}", source.path))?;
        }
    }
    check_diagnostics(&outcome, &paths)?;
    check_statuses(&outcome)?;
    if let Some(text) = linked.clone() {
        check_linked(&outcome, text, options)?;
    }
    check_layouts_of(&sources, &outcome, linked.as_deref(), options)
}

/// The fast path's oracle: one instruction's text read as the reader reads it (the fast
/// path first) and by the general path alone gives the same diagnostics, uses, facts
/// and kept text. `Ok` for text that is not JSON (there is nothing to read).
///
/// The instruction is also read inside a document by both document readers
/// ([`direct_agrees`]): whatever its text, even when it is not JSON.
pub fn fast_agrees(text: &str) -> Result<(), String> {
    let document = format!(r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b","instructions":[{text}]}}]}}]}}"#);
    direct_agrees(&document)?;
    let (Some(fast), Some(general)) = (read_one(text, true), read_one(text, false)) else { return Ok(()) };
    if fast == general {
        Ok(())
    } else {
        Err(format!("the fast path reads `{text}` as {fast:?}, the general path as {general:?}"))
    }
}

/// The direct reader's oracle: a document read straight from its text (`json::direct`)
/// is read as serde_json driving reads it (`json::stream`): the same module, its
/// entities in the same order with the same pointers, the same uses and diagnostics.
/// `Ok(false)` when the direct reader leaves the text to the other (not JSON, a
/// container given twice, …): there is only one reading then; `Ok(true)` when both read
/// it alike.
pub fn direct_agrees(text: &str) -> Result<bool, String> {
    match crate::read::json::both_readings(text) {
        (None, _) => Ok(false),
        (Some(direct), general) if direct == general => Ok(true),
        (Some(direct), general) => {
            let line = direct.lines().zip(general.lines()).position(|(a, b)| a != b).unwrap_or(0);
            let at = |reading: &str| reading.lines().nth(line).unwrap_or("").chars().take(400).collect::<String>();
            Err(format!(
                "the direct reader reads the text otherwise than serde_json driving, first at line {line}: {} against {}",
                at(&direct),
                at(&general)
            ))
        }
    }
}

/// `report.json` as a value, without what depends on how the input was laid out: each
/// location's line and column, each input's size in bytes.
pub fn layout_free_report(outcome: &Outcome) -> Value {
    let mut report = serde_json::to_value(&outcome.report).unwrap_or(Value::Null);
    if let Some(Value::Array(inputs)) = report.get_mut("inputs") {
        for input in inputs {
            if let Some(bytes) = input.get_mut("bytes") {
                *bytes = Value::Null;
            }
        }
    }
    if let Some(Value::Array(diagnostics)) = report.get_mut("diagnostics") {
        for location in diagnostics.iter_mut().filter_map(|d| d.get_mut("location")) {
            if let Some(location) = location.as_object_mut() {
                location.insert("line".to_owned(), Value::Null);
                location.insert("column".to_owned(), Value::Null);
            }
        }
    }
    report
}

/// The layout oracle: each input that is JSON, printed again in every layout, gives the
/// same [`layout_free_report`] and the same `linked.json` as the input as it is.
pub fn check_layouts(sources: &[SourceFile], options: &LinkOptions) -> Result<(), String> {
    let outcome = run(sources.to_vec(), options);
    let linked = linked_json(&outcome);
    check_layouts_of(sources, &outcome, linked.as_deref(), options)
}

fn check_layouts_of(
    sources: &[SourceFile],
    outcome: &Outcome,
    linked: Option<&str>,
    options: &LinkOptions,
) -> Result<(), String> {
    // A size limit would judge the other layouts' sizes: the oracle is about reading.
    let options = LinkOptions { max_input_bytes: None, input_bytes: None, ..options.clone() };
    let expected = layout_free_report(outcome);
    for layout in Layout::ALL {
        let relaid: Vec<SourceFile> = sources.iter().map(|source| in_layout(source, layout)).collect();
        if relaid.iter().zip(sources).all(|(a, b)| a.content.bytes() == b.content.bytes()) {
            continue;
        }
        for source in &relaid {
            if let Some(text) = source.content.bytes().and_then(|b| std::str::from_utf8(b).ok()) {
                direct_agrees(text).map_err(|e| format!("printed {}, `{}`: {e}", layout.name(), source.path))?;
            }
        }
        let other = run(relaid, &options);
        let report = layout_free_report(&other);
        if report != expected {
            return Err(format!(
                "printed {}, the input gives another report: {}",
                layout.name(),
                first_difference(&expected, &report)
            ));
        }
        if linked_json(&other).as_deref() != linked {
            return Err(format!("printed {}, the input gives another linked.json", layout.name()));
        }
    }
    Ok(())
}

/// A source printed in `layout`, when it is JSON; as it is otherwise.
pub fn in_layout(source: &SourceFile, layout: Layout) -> SourceFile {
    let relaid = match source.content.bytes() {
        Some(bytes) => std::str::from_utf8(bytes).ok().and_then(|text| relayout(text, layout)),
        None => None,
    };
    match relaid {
        Some(text) => SourceFile { content: crate::read::input::Content::Bytes(text.into_bytes()), ..source.clone() },
        None => source.clone(),
    }
}

/// Where two JSON values first differ, as a pointer and both sides.
pub fn first_difference(a: &Value, b: &Value) -> String {
    let mut stack = vec![(String::new(), a, b)];
    while let Some((at, a, b)) = stack.pop() {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) if x.len() == y.len() && x.keys().eq(y.keys()) => {
                for ((key, x), y) in x.iter().zip(y.values()).rev() {
                    stack.push((format!("{at}/{key}"), x, y));
                }
            }
            (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                for (i, (x, y)) in x.iter().zip(y).enumerate().rev() {
                    stack.push((format!("{at}/{i}"), x, y));
                }
            }
            (x, y) if x == y => {}
            (x, y) => return format!("at `{at}`: {} against {}", compact(x), compact(y)),
        }
    }
    "nowhere".to_owned()
}

fn check_diagnostics(outcome: &Outcome, paths: &[String]) -> Result<(), String> {
    check_sync(outcome)?;
    for d in &outcome.report.diagnostics {
        let code = d.code;
        // A hang the sync check assumed its way into is a note (sync.md §4).
        let assumed = d.pass == crate::model::pass::Pass::Sync && d.code == crate::diag::codes::Code::SyncDeadlock;
        if code.severity() != d.severity && !(assumed && d.severity == Severity::Note) {
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

/// `report.sync` says what its diagnostics say: one per finding kept, in order, with its
/// code and severity; BL0706 a warning exactly when the verdict is exact; nothing when
/// it was skipped.
fn check_sync(outcome: &Outcome) -> Result<(), String> {
    use crate::output::sync::SyncStatus;
    let sync = &outcome.report.sync;
    let diagnostics: Vec<_> =
        outcome.report.diagnostics.iter().filter(|d| d.pass == crate::model::pass::Pass::Sync).collect();
    if diagnostics.len() != sync.findings.len() {
        return Err(format!("{} sync diagnostics for {} findings", diagnostics.len(), sync.findings.len()));
    }
    for (d, f) in diagnostics.iter().zip(&sync.findings) {
        if (d.code, d.severity, d.core) != (f.code, f.severity, f.core) {
            return Err(format!(
                "sync finding {} ({:?}) is diagnostic {} ({:?})",
                f.code, f.severity, d.code, d.severity
            ));
        }
    }
    let kept = sync.findings.len() as u64;
    let counted: u64 = sync.counts.values().sum();
    if counted != kept + sync.left_out {
        return Err(format!("sync counts {counted} findings, keeps {kept} and leaves out {}", sync.left_out));
    }
    match (&sync.execution, sync.status) {
        (None, SyncStatus::Ran) if sync.log.is_none() => return Err("the sync check ran with no execution".to_owned()),
        (Some(_), SyncStatus::Skipped) => return Err("a skipped sync check has an execution".to_owned()),
        (Some(execution), _) => {
            let exact_severity = if execution.exact { Severity::Warning } else { Severity::Note };
            if let Some(f) = sync
                .findings
                .iter()
                .find(|f| f.code == crate::diag::codes::Code::SyncDeadlock && f.severity != exact_severity)
            {
                return Err(format!(
                    "BL0706 is a {:?} where the verdict's exactness is {}",
                    f.severity, execution.exact
                ));
            }
            if execution.exact != execution.not_exact.is_empty() {
                return Err("`exact` and `not_exact` disagree".to_owned());
            }
            if execution.steps > execution.budget {
                return Err(format!("{} steps over a budget of {}", execution.steps, execution.budget));
            }
        }
        _ => {}
    }
    Ok(())
}

fn check_statuses(outcome: &Outcome) -> Result<(), String> {
    // A pass run per core (`bir_linker` in the modular flow) has a row per core: every
    // core's runs, and the passes after it are skipped when one of them failed.
    let mut failed: Option<crate::model::pass::Pass> = None;
    for row in &outcome.report.passes {
        if failed.is_some_and(|pass| pass != row.name) && row.status != PassStatus::Skipped {
            return Err(format!("`{}` is `{}` after a failed pass", row.label(), row.status.as_str()));
        }
        // A row's errors: its pass's, on its core (or on none, for a per-core row).
        let of_row = |d: &&crate::diag::Diagnostic, exact: bool| {
            d.pass == row.name
                && d.severity == Severity::Error
                && row.core.is_none_or(|core| d.core == Some(core) || (!exact && d.core.is_none()))
        };
        let diagnostics = &outcome.report.diagnostics;
        match row.status {
            PassStatus::Error if !diagnostics.iter().any(|d| of_row(&d, false)) => {
                return Err(format!("`{}` failed without an error", row.label()))
            }
            PassStatus::Ok if diagnostics.iter().any(|d| of_row(&d, true)) => {
                return Err(format!("`{}` is ok but reported an error", row.label()))
            }
            PassStatus::Ok | PassStatus::Error | PassStatus::Skipped => {}
        }
        if row.status == PassStatus::Error {
            failed = Some(row.name);
        }
    }
    Ok(())
}

/// Whether a module gives two functions, two blocks of one function (its loops' bodies
/// included), two queues or two instances of one queue the same name.
fn names_repeat(module: &crate::model::ir::Module) -> bool {
    let store = &module.store;
    let repeats = |names: Vec<String>| {
        let mut seen = std::collections::HashSet::new();
        names.into_iter().any(|name| !seen.insert(name))
    };
    let blocks_repeat = module.functions.iter().any(|&f| {
        let mut names = Vec::new();
        module.walk_function_blocks(f, &mut |block| names.push(store.blocks[block].name().to_owned()));
        repeats(names)
    });
    blocks_repeat
        || repeats(module.functions.iter().map(|&f| store.functions[f].name().to_owned()).collect())
        || repeats(module.queues.iter().map(|&q| store.queues[q].name().to_owned()).collect())
        || module.queues.iter().any(|&q| {
            let instances = &store.queues[q].instances;
            let queue = store.queues[q].name();
            repeats(
                instances
                    .iter()
                    .enumerate()
                    .map(|(i, &n)| crate::model::ir::instance_source_name(queue, store.instances[n].name(), i))
                    .collect(),
            )
        })
}

fn check_linked(outcome: &Outcome, text: String, options: &LinkOptions) -> Result<(), String> {
    serde_json::from_str::<Value>(&text).map_err(|e| format!("linked.json is not JSON: {e}"))?;
    if let Some(set) = &outcome.linked {
        let _ = query::search(set, "a", 20);
        for linked in &set.modules {
            let module = &linked.module;
            let _ = print::module_text(module);
            for &function in &module.functions {
                let name = module.store.functions[function].name().to_owned();
                let q = query::EntityQuery::new(EntityKind::Function, name, None).on(linked.core);
                if query::entity_view(set, &outcome.files, &q).is_none() {
                    return Err(format!("function `{}` of core {:?} is not found by its name", q.name, linked.core));
                }
            }
        }
        // A module that names two functions, two blocks of a function, two queues or two
        // instances of a queue alike cannot be addressed by names (verify says BL0103 when it runs; a run of
        // the VNC passes alone takes its input as it is).
        let ambiguous = |core: Option<u64>| set.module_of(core).is_some_and(names_repeat);
        for (_, key) in query::all_keys(set) {
            if ambiguous(key.core) {
                continue;
            }
            let text = key.to_string();
            let parsed: EntityKey = text.parse().map_err(|e| format!("entity key `{text}` does not read back: {e}"))?;
            if parsed != key {
                return Err(format!("entity key `{text}` reads back as another key"));
            }
            match query::entity_view_by_key(set, &outcome.files, &parsed) {
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
    let flow = Some(outcome.report.options.flow);
    let rerun_options = LinkOptions { lnc: options.lnc, passes: Some(vnc), flow, ..LinkOptions::default() };
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
/// Raw bytes as the files of a link set, as the fuzz targets and the corpus replay read
/// them: split at `0xFF` (a byte no UTF-8 holds), at most six, named like per-core files.
pub fn split_files(data: &[u8]) -> Vec<SourceFile> {
    data.split(|b| *b == 0xFF)
        .take(6)
        .enumerate()
        .map(|(i, part)| SourceFile {
            path: format!("{}.json", crate::model::place::CoreId(i as u64)),
            content: crate::read::input::Content::Bytes(part.to_vec()),
            role: crate::read::input::Role::Auto,
        })
        .collect()
}

/// Files joined the way [`split_files`] splits them (for seeding a corpus).
pub fn join_files(files: &[Vec<u8>]) -> Vec<u8> {
    files.join(&[0xFFu8][..])
}
