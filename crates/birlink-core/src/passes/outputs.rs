//! The files a run writes, as text, the same from every host (the CLI, Python, the
//! page): `report.json`, `linked.json`, `bir_linker.log`, the merged tensor maps and a
//! link directory's written entries. The crate's root re-exports them.

use crate::passes::options::Outcome;

/// `report.json` text for an outcome.
pub fn report_json(outcome: &Outcome) -> String {
    crate::output::json::to_pretty_string(&outcome.report)
}

/// The merged `tensor-map.json` text for an outcome, when the seeds' reading merged
/// tensor maps (the compiler's modular flow writes one per core: [`tensor_map_files`]).
pub fn tensor_map_json(outcome: &Outcome) -> Option<String> {
    if outcome.report.options.flow != crate::model::flow::Flow::Seeds {
        return None;
    }
    outcome.report.tensor_map.as_ref().map(crate::output::tensor_map::to_string)
}

/// The merged tensor maps an outcome writes, as (file name in the output folder, text):
/// `tensor-map.json` in the seeds' reading; in the compiler's modular flow one per core,
/// `tensor_map.ncCC.json` (what `--link-dir` writes as `ncCC/sgLnk/sg00/tensor_map.json`).
pub fn tensor_map_files(outcome: &Outcome) -> Vec<(String, String)> {
    let Some(map) = outcome.report.tensor_map.as_ref() else { return Vec::new() };
    if outcome.report.options.flow == crate::model::flow::Flow::Seeds {
        return vec![("tensor-map.json".to_owned(), crate::output::tensor_map::to_string(map))];
    }
    let cores: std::collections::BTreeSet<u64> = map.entries.iter().map(|e| e.core).collect();
    cores
        .into_iter()
        .map(|core| {
            (crate::output::tensor_map::core_file_name(core), crate::output::tensor_map::core_to_string(map, core))
        })
        .collect()
}

/// The text a link directory's written entry holds: the seeds' merged map, or its core's
/// in the modular flow.
pub fn link_dir_text(outcome: &Outcome, entry: &crate::output::report::LinkDirEntry) -> Option<String> {
    let map = outcome.report.tensor_map.as_ref()?;
    Some(match (outcome.report.options.flow, entry.core) {
        (crate::model::flow::Flow::Seeds, _) | (_, None) => crate::output::tensor_map::to_string(map),
        (_, Some(core)) => crate::output::tensor_map::core_to_string(map, core),
    })
}

/// `linked.json` text for an outcome, if there is a linked set: the seeds' one module,
/// or a bundle of the per-core modules (docs/spec/link.md §6).
pub fn linked_json(outcome: &Outcome) -> Option<String> {
    outcome.linked.as_ref().map(crate::output::json::set_to_string)
}

/// `bir_linker.log` text for an outcome: `bir_linker`'s own log in the compiler's words
/// (docs/spec/link.md §3.7); `None` when there is none (the seeds' reading).
pub fn bir_linker_log(outcome: &Outcome) -> Option<String> {
    (!outcome.log.is_empty()).then(|| crate::output::log::text(&outcome.log))
}
