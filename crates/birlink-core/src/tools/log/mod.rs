//! A compiler log, read: each line that is one of the compiler's known error shapes
//! (`diag::ncc`) becomes a [`Finding`] — its code, birlink's code, and the names it
//! mentions — and [`locate`] finds those names in a run: the entities so named, the
//! diagnostic about them, or, when the name is nowhere, the nearest names that are.
//!
//! The whole log — its runs, passes, the link, the failure — is [`compile`]'s
//! ([`read_log`]); the lines' parts are `line.rs`'s, the error shapes `findings.rs`'s.

pub mod compile;
mod findings;
mod line;

pub use compile::{read_log, LogReading};
pub use findings::{read, Finding, Mention};

use crate::model::entity::{EntityKey, EntityKind};
use crate::passes::partition::nearest_names;
use crate::passes::Outcome;
use crate::tools::query;

/// A whole log's bytes (any encoding errors replaced) read, as the JSON `birlink explain
/// --log LOG --format json` prints and `birlink.read_log` returns (`docs/spec/log.md`).
pub fn read_log_json(bytes: &[u8]) -> String {
    let reading = read_log(&String::from_utf8_lossy(bytes));
    // A reading is strings, numbers and lists: it always prints.
    serde_json::to_string_pretty(&reading).unwrap_or_default()
}

/// Where a mentioned name is in a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Located {
    /// The entities of the linked module so named (on the core the line says, first).
    pub keys: Vec<EntityKey>,
    /// The run's diagnostic about the same failure and name, by index in the report.
    pub diagnostic: Option<usize>,
    /// When the name is nowhere: the nearest names that are.
    pub nearest: Vec<String>,
}

/// A run's entities by kind and name, built once for all the findings of a log (a log
/// of thousands of lines is located in one walk of the linked module, not one each).
#[derive(Debug, Default)]
pub struct Index {
    by_name: std::collections::HashMap<(EntityKind, String), Vec<EntityKey>>,
    /// Every name of each kind, sorted and without repeats (for the nearest names).
    names: std::collections::HashMap<EntityKind, Vec<String>>,
}

impl Index {
    /// The index of a run's linked module (empty when there is none).
    pub fn of(outcome: &Outcome) -> Index {
        let mut index = Index::default();
        for (query, key) in outcome.linked.as_ref().map(query::all_keys).unwrap_or_default() {
            index.names.entry(query.kind).or_default().push(query.name.clone());
            index.by_name.entry((query.kind, query.name)).or_default().push(key);
        }
        for names in index.names.values_mut() {
            names.sort_unstable();
            names.dedup();
        }
        index
    }
}

/// Finds a finding's names in a run: per mention, where it is.
pub fn locate(finding: &Finding, outcome: &Outcome, index: &Index) -> Vec<Located> {
    let diagnostics = &outcome.report.diagnostics;
    finding
        .mentions
        .iter()
        .map(|mention| {
            let mut keys = index.by_name.get(&(mention.kind, mention.name.clone())).cloned().unwrap_or_default();
            keys.sort_by_key(|k| (k.core != mention.core, k.core));
            let quoted = format!("`{}`", mention.name);
            // The run's diagnostic of the same code about the name; else an error about it
            // (a compile stopped where the line says is, on later dumps, a later pass's
            // error: NCC_ILLC059's name missing after the link is 1514); else any.
            let about = |d: &&crate::diag::Diagnostic| d.message.contains(&quoted);
            let diagnostic = diagnostics
                .iter()
                .position(|d| Some(d.code) == finding.birlink() && about(&d))
                .or_else(|| diagnostics.iter().position(|d| d.severity == crate::diag::Severity::Error && about(&d)))
                .or_else(|| diagnostics.iter().position(|d| about(&d)));
            let nearest = if keys.is_empty() {
                let names: Vec<&str> =
                    index.names.get(&mention.kind).map(|n| n.iter().map(String::as_str).collect()).unwrap_or_default();
                nearest_names(&mention.name, &names, 3)
            } else {
                Vec::new()
            };
            Located { keys, diagnostic, nearest }
        })
        .collect()
}

/// Every finding of a log located in a run, with one index for all of them.
pub fn locate_all(findings: &[Finding], outcome: &Outcome) -> Vec<Vec<Located>> {
    let index = Index::of(outcome);
    findings.iter().map(|finding| locate(finding, outcome, &index)).collect()
}

/// What to do when no link set is open: which dumps to load, and how to make them.
pub const HOW_TO_DUMP: &str = "Load the per-core BIR modules the link was given: rerun neuronx-cc with `--internal-print-after=lower_sync` (or keep its work directory), then open every `<workdir>/<core>/sg00/bir_debug.*after-lower_sync*.json`, one per core, or their folder.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::codes::Code;

    #[test]
    fn an_error_and_its_echo_are_one_finding() {
        let log = "2026-11-21T16:02:05Z ERROR 5131 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named a:b.3 on core 1 - Please open a support ticket\n\
                   2026-11-21T16:02:06Z ERROR 5101 [neuronx-cc]: Error message:  [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named\n\
                   a:b.3 on core 1 - Please open a support ticket\n\
                   [NCC_ILLC059] Could not find MemoryLocation named a:b.4 on core 1\n";
        let findings = read(log);
        assert_eq!(findings.iter().map(|f| f.line).collect::<Vec<_>>(), [1, 4], "{findings:?}");
    }

    #[test]
    fn the_public_reports_lines_are_read() {
        let log = "INFO compiling\n[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named inst__I-5-0:send_k_buf on core 1\n\
                   [INTERNAL_ERROR] [NCC_IXLV002] Expected core barriers to have name CoreBarrier-0_480, but core barrier 5 in subgraph 0 on core 1 has name CoreBarrier-0_180\n\
                   [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named\n   inst____mp_main__.kern-0:buf.3 on core 1\n\
                   ERROR: [NCC_ILNK020] tensor_map verification failed after linking\nwalrus: Assertion `allEqual' failed.\n[NCC_ZZZZ999] something new";
        let findings = read(log);
        let summary: Vec<(usize, &str, Option<Code>)> =
            findings.iter().map(|f| (f.line, f.code.as_str(), f.birlink())).collect();
        assert_eq!(
            summary,
            vec![
                (2, "NCC_ILLC059", Some(Code::LocalCollectiveNameMissing)),
                (3, "NCC_IXLV002", Some(Code::BarrierNameMismatch)),
                (4, "NCC_ILLC059", Some(Code::LocalCollectiveNameMissing)),
                (6, "NCC_ILNK020", Some(Code::TensorMapStale)),
                (7, "allEqual", Some(Code::RemoteBlockCountMismatch)),
                (8, "NCC_ZZZZ999", None),
            ]
        );
        assert_eq!(
            findings[0].mentions,
            vec![Mention { name: "inst__I-5-0:send_k_buf".into(), kind: EntityKind::Memloc, core: Some(1) }]
        );
        assert_eq!(findings[2].mentions[0].name, "inst____mp_main__.kern-0:buf.3", "a wrapped line is joined");
        let barrier: Vec<(&str, Option<u64>)> =
            findings[1].mentions.iter().map(|m| (m.name.as_str(), m.core)).collect();
        assert_eq!(barrier, vec![("CoreBarrier-0_480", Some(0)), ("CoreBarrier-0_180", Some(1))]);
        assert!(findings[5].known.is_none());
    }
}
