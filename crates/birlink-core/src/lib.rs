//! birlink: the multi-core link of AWS Neuron BIR modules, reimplemented.
//!
//! neuronx-cc splits a program across N logical cores, compiles each core's module
//! separately, then links them back: `bir_linker` merges the N per-core BIR modules into
//! one `<base>/sgLnk` module, `vnc_remote_addr_map` copies each owner core's physical
//! address onto the remote views, `vnc_link` relinks remote semaphore ids from the peer
//! core. This crate is those three passes, with the pre-link checks, over BIR JSON.
//!
//! The tree is the layers, each using only those above it in this list (tidy's
//! `the_core_is_layered` checks it):
//!
//! * [`model`] — the IR in arenas, entity keys, passes by name, uses;
//! * [`diag`] — diagnostics as data, every code declared once, the compiler's codes;
//! * [`output`] — `report.json`'s types, `linked.json`, the canonical text, layouts;
//! * [`read`] — files classified and decoded, documents streamed into the model;
//! * [`passes`] — the pipeline: `verify` → `bir_linker` → `vnc_remote_addr_map` →
//!   `vnc_link`, each reporting what it did;
//! * [`tools`] — what inspects a finished run: queries, aligned views, logs, reduce,
//!   share links, the self-check;
//! * [`gen`] — synthetic link sets and the samples; [`limits`] — the bounds input meets;
//!   [`english`] — numbers in words (both usable from any layer).
//!
//! The crate is pure: no file or network IO, no clock, no printing, no wasm. The CLI and
//! the browser worker call the same [`passes::run`] on the same bytes and get the same
//! bytes back.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diag;
pub mod english;
pub mod gen;
pub mod limits;
pub mod model;
pub mod output;
pub mod passes;
pub mod read;
pub mod tools;

// What nearly every caller names, at the root (as naga does with its IR's items).
pub use diag::codes::Code;
pub use diag::{Diagnostic, Severity};
pub use model::entity::{EntityKey, EntityKind};
pub use model::flow::{Flow, FlowSource};
pub use model::linked::{LinkedModule, LinkedSet};
pub use model::pass::Pass;
pub use passes::{run, LinkOptions, Outcome};
pub use read::compact::Sink;
pub use read::input::{Content, Reader, Role, SourceFile};

/// `report.json` text for an outcome.
pub fn report_json(outcome: &Outcome) -> String {
    output::json::to_pretty_string(&outcome.report)
}

/// The merged `tensor-map.json` text for an outcome, when the seeds' reading merged
/// tensor maps (the compiler's modular flow writes one per core: [`tensor_map_files`]).
pub fn tensor_map_json(outcome: &Outcome) -> Option<String> {
    if outcome.report.options.flow != Flow::Seeds {
        return None;
    }
    outcome.report.tensor_map.as_ref().map(output::tensor_map::to_string)
}

/// The merged tensor maps an outcome writes, as (file name in the output folder, text):
/// `tensor-map.json` in the seeds' reading; in the compiler's modular flow one per core,
/// `tensor_map.ncCC.json` (what `--link-dir` writes as `ncCC/sgLnk/sg00/tensor_map.json`).
pub fn tensor_map_files(outcome: &Outcome) -> Vec<(String, String)> {
    let Some(map) = outcome.report.tensor_map.as_ref() else { return Vec::new() };
    if outcome.report.options.flow == Flow::Seeds {
        return vec![("tensor-map.json".to_owned(), output::tensor_map::to_string(map))];
    }
    let cores: std::collections::BTreeSet<u64> = map.entries.iter().map(|e| e.core).collect();
    cores
        .into_iter()
        .map(|core| (output::tensor_map::core_file_name(core), output::tensor_map::core_to_string(map, core)))
        .collect()
}

/// The text a link directory's written entry holds: the seeds' merged map, or its core's
/// in the modular flow.
pub fn link_dir_text(outcome: &Outcome, entry: &output::report::LinkDirEntry) -> Option<String> {
    let map = outcome.report.tensor_map.as_ref()?;
    Some(match (outcome.report.options.flow, entry.core) {
        (Flow::Seeds, _) | (_, None) => output::tensor_map::to_string(map),
        (_, Some(core)) => output::tensor_map::core_to_string(map, core),
    })
}

/// `linked.json` text for an outcome, if there is a linked set: the seeds' one module,
/// or a bundle of the per-core modules (docs/spec/link.md §6).
pub fn linked_json(outcome: &Outcome) -> Option<String> {
    outcome.linked.as_ref().map(output::json::set_to_string)
}

/// `bir_linker.log` text for an outcome: `bir_linker`'s own log in the compiler's words
/// (docs/spec/link.md §3.7); `None` when there is none (the seeds' reading).
pub fn bir_linker_log(outcome: &Outcome) -> Option<String> {
    (!outcome.log.is_empty()).then(|| output::log::text(&outcome.log))
}
