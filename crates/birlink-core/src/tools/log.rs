//! A compiler log, read: each line that is one of the compiler's known error shapes
//! (`diag::ncc`) becomes a [`Finding`] — its code, birlink's code, and the names it
//! mentions — and [`locate`] finds those names in a run: the entities so named, the
//! diagnostic about them, or, when the name is nowhere, the nearest names that are.
//!
//! Logs wrap long lines (a report quoted `…named` and the name on the next line), so a
//! shape cut after its key words takes the next lines with it.

use crate::diag::codes::Code;
use crate::diag::ncc::{self, Ncc};
use crate::model::entity::{EntityKey, EntityKind};
use crate::passes::partition::nearest_names;
use crate::passes::Outcome;
use crate::tools::query;

/// A name a log line mentions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mention {
    /// The name.
    pub name: String,
    /// What it names.
    pub kind: EntityKind,
    /// The core the line says it is (or is missing) on.
    pub core: Option<u64>,
}

/// One recognised line (or wrapped lines) of a log.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// 1-based line where it starts.
    pub line: usize,
    /// The text, wrapped lines joined.
    pub text: String,
    /// The compiler's code (`NCC_ILLC059`) or assertion text.
    pub code: String,
    /// What birlink knows of it (`None`: an `NCC_` code birlink does not know).
    pub known: Option<&'static Ncc>,
    /// The names it mentions.
    pub mentions: Vec<Mention>,
}

impl Finding {
    /// birlink's code for it, if birlink reproduces the failure.
    pub fn birlink(&self) -> Option<Code> {
        self.known.and_then(|n| n.birlink)
    }
}

/// The text after `marker` up to the next whitespace, without trailing punctuation.
fn word_after<'t>(text: &'t str, marker: &str) -> Option<&'t str> {
    let rest = &text[text.find(marker)? + marker.len()..];
    let word = rest.split_whitespace().next()?;
    Some(word.trim_end_matches([',', '.', ';', ':', '"', '\'']))
}

fn number_after(text: &str, marker: &str) -> Option<u64> {
    word_after(text, marker)?.parse().ok()
}

/// Reads a log.
pub fn read(log: &str) -> Vec<Finding> {
    let lines: Vec<&str> = log.lines().collect();
    let mut findings = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let mut text = lines[i].trim().to_owned();
        // A shape cut after its key words continues on the next lines.
        let incomplete = |t: &str| {
            (t.contains("Could not find MemoryLocation named") && !t.contains(" on core "))
                || (t.contains("Expected core barriers to have name") && !t.contains(" has name "))
        };
        while incomplete(&text) && i + 1 < lines.len() && i < start + 3 {
            i += 1;
            text.push(' ');
            text.push_str(lines[i].trim());
        }
        i += 1;
        if let Some(finding) = recognise(start + 1, text) {
            findings.push(finding);
        }
    }
    findings
}

fn recognise(line: usize, text: String) -> Option<Finding> {
    let bracketed = text
        .find("NCC_")
        .map(|at| text[at..].split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap_or("").to_owned());
    let mut mentions = Vec::new();
    let code = if text.contains("Could not find MemoryLocation named") {
        let name = word_after(&text, "Could not find MemoryLocation named ")?;
        let core = number_after(&text, " on core ");
        mentions.push(Mention { name: name.to_owned(), kind: EntityKind::Memloc, core });
        bracketed.unwrap_or_else(|| "NCC_ILLC059".to_owned())
    } else if text.contains("Expected core barriers to have name") {
        let expected = word_after(&text, "Expected core barriers to have name ")?;
        let core = number_after(&text, " on core ");
        let found = word_after(&text, " has name ")?;
        mentions.push(Mention { name: expected.to_owned(), kind: EntityKind::Instruction, core: Some(0) });
        mentions.push(Mention { name: found.to_owned(), kind: EntityKind::Instruction, core });
        bracketed.unwrap_or_else(|| "NCC_IXLV002".to_owned())
    } else if let Some(entry) = ncc::TABLE.iter().find(|n| n.shape.starts_with("Assertion") && text.contains(n.code)) {
        // An assertion the compiler prints: its text is its code.
        entry.code.to_owned()
    } else {
        bracketed?
    };
    let known = ncc::find(&code);
    Some(Finding { line, text, code, known, mentions })
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
            let diagnostic = diagnostics
                .iter()
                .position(|d| Some(d.code) == finding.birlink() && d.message.contains(&quoted))
                .or_else(|| diagnostics.iter().position(|d| d.message.contains(&quoted)));
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
                (2, "NCC_ILLC059", Some(Code::RemoteMemlocMissing)),
                (3, "NCC_IXLV002", Some(Code::BarrierNameMismatch)),
                (4, "NCC_ILLC059", Some(Code::RemoteMemlocMissing)),
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
