//! Where a log's names are in a run: the entities so named, the run's diagnostic about
//! the same failure and name, or, when the name is nowhere, the nearest names that are.

use crate::model::entity::{EntityKey, EntityKind};
use crate::passes::partition::nearest_names;
use crate::passes::Outcome;
use crate::tools::query;

use super::findings::Finding;

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
