//! Each side's provenance and verdict, and the diagnostics matched across the two by
//! code and entity, never by message.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::options::CompareOptions;
use crate::diag::{Diagnostic, Severity};
use crate::model::pass::Pass;
use crate::output::report::{LncSource, PassStatus};
use crate::passes::Outcome;

/// One side of a comparison.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// Its files, with their sizes, as given.
    pub files: Vec<SideFile>,
    /// Its modules' names, in input order.
    pub modules: Vec<String>,
    /// The cores of its modules.
    pub cores: Vec<u64>,
    /// `vnc_nc_count`.
    pub lnc: u64,
    /// Where it came from.
    pub lnc_source: LncSource,
    /// Whether no diagnostic is an error.
    pub ok: bool,
    /// The first pass that failed.
    pub failed_pass: Option<Pass>,
    /// The codes it reported, each once, in code order.
    pub codes: Vec<String>,
    /// The codes of its errors, each with the compiler's code where there is one.
    pub errors: Vec<ErrorCode>,
    /// What the dumps say about what wrote them: the base module's `version` and
    /// `arch`, as they are.
    pub version: Option<Value>,
    /// See `version`.
    pub arch: Option<Value>,
    /// The linked module's name.
    pub linked_name: Option<String>,
}

/// One input file of a side.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideFile {
    /// As given.
    pub path: String,
    /// Its size.
    pub bytes: u64,
}

/// An error code of a side, with the compiler's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorCode {
    /// birlink's (`1514`).
    pub code: String,
    /// The compiler's (`NCC_ILLC059`), where one is public.
    pub ncc: Option<String>,
}

impl Side {
    /// What its link came to, in words: `links`, `fails in vnc_remote_addr_map with
    /// 1514 (NCC_ILLC059)`, `fails reading its input (BL0001)`.
    pub fn verdict(&self) -> String {
        let errors: Vec<String> = self
            .errors
            .iter()
            .map(|e| match &e.ncc {
                Some(ncc) => format!("{} ({ncc})", e.code),
                None => e.code.clone(),
            })
            .collect();
        match (&self.failed_pass, self.ok) {
            (Some(pass), _) => format!("fails in {} with {}", pass.as_str(), errors.join(", ")),
            (None, true) => "links".to_owned(),
            (None, false) => format!("fails reading its input ({})", errors.join(", ")),
        }
    }
}

/// A side of an outcome.
pub fn side(outcome: &Outcome) -> Side {
    let report = &outcome.report;
    let mut files: Vec<SideFile> = Vec::new();
    for row in &report.inputs {
        if !files.iter().any(|f| f.path == row.file) {
            files.push(SideFile { path: row.file.clone(), bytes: row.bytes });
        }
    }
    let mut cores: Vec<u64> = report.inputs.iter().filter_map(|r| r.core).collect();
    cores.sort_unstable();
    cores.dedup();
    let mut codes: Vec<String> = report.diagnostics.iter().map(|d| d.code.as_str().to_owned()).collect();
    codes.sort();
    codes.dedup();
    let mut errors: Vec<ErrorCode> = Vec::new();
    for d in report.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        let entry = ErrorCode { code: d.code.as_str().to_owned(), ncc: d.code.ncc().map(str::to_owned) };
        if !errors.contains(&entry) {
            errors.push(entry);
        }
    }
    let field =
        |key: &str| outcome.linked.as_ref().and_then(|s| s.iter().next()).and_then(|m| m.fields.get(key).cloned());
    Side {
        files,
        modules: report.inputs.iter().filter_map(|r| r.module.clone()).collect(),
        cores,
        lnc: report.options.lnc,
        lnc_source: report.options.lnc_source,
        ok: !crate::diag::has_errors(&report.diagnostics),
        failed_pass: report.passes.iter().find(|p| p.status == PassStatus::Error).map(|p| p.name),
        codes,
        errors,
        version: field("version"),
        arch: field("arch"),
        linked_name: report.options.linked_name.clone(),
    }
}

/// A diagnostic as compared: its code and what it is about.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DiagnosticKey {
    /// The code.
    pub code: String,
    /// The entity, in key form (`kind:core:parent/name`), or the core alone
    /// (`core:<c>`), or empty for the link set as a whole.
    pub entity: String,
    /// The entity as the side that reports it names it (names as written, never
    /// masked): what a viewer selects. Not part of the match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<DiagnosticEntity>,
}

/// The entity a diagnostic is about, as its side names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct DiagnosticEntity {
    /// Its kind (`instruction`, `memloc`, …).
    pub kind: crate::model::entity::EntityKind,
    /// Its name.
    pub name: String,
    /// Its function, queue or instance, when the diagnostic names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// `diagnostics`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostics {
    /// In A only.
    pub only_a: Vec<DiagnosticKey>,
    /// In B only.
    pub only_b: Vec<DiagnosticKey>,
    /// In both.
    pub both: Vec<DiagnosticKey>,
}

fn key(d: &Diagnostic, core: Option<u64>, options: &CompareOptions) -> (DiagnosticKey, Option<DiagnosticEntity>) {
    let core_text = core.map_or_else(|| "-".to_owned(), |c| c.to_string());
    let entity = match &d.entity {
        Some(e) => {
            let name = match &e.parent {
                Some(parent) => format!("{parent}/{}", e.name),
                None => e.name.clone(),
            };
            format!("{}:{core_text}:{}", e.kind.as_str(), options.normalize.apply(&name))
        }
        None => match core {
            Some(c) => format!("core:{c}"),
            None => String::new(),
        },
    };
    let at =
        d.entity.as_ref().map(|e| DiagnosticEntity { kind: e.kind, name: e.name.clone(), parent: e.parent.clone() });
    (DiagnosticKey { code: d.code.as_str().to_owned(), entity, at: None }, at)
}

/// Matches the two sides' diagnostics by code and entity (B's cores read through the
/// core map), each key counted as often as it occurs.
pub fn diagnostics(a: &Outcome, b: &Outcome, options: &CompareOptions) -> Diagnostics {
    // Per key, each side's entities as it names them, one per occurrence.
    type Named = Vec<Option<DiagnosticEntity>>;
    let mut counts: BTreeMap<DiagnosticKey, (Named, Named)> = BTreeMap::new();
    for d in &a.report.diagnostics {
        let (key, at) = key(d, d.core, options);
        counts.entry(key).or_default().0.push(at);
    }
    for d in &b.report.diagnostics {
        let core = d.core.map(|c| options.a_core(c).unwrap_or(c));
        let (key, at) = key(d, core, options);
        counts.entry(key).or_default().1.push(at);
    }
    let mut out = Diagnostics::default();
    for (key, (in_a, in_b)) in counts {
        let with = |at: &Option<DiagnosticEntity>| DiagnosticKey { at: at.clone(), ..key.clone() };
        for at in in_a.iter().take(in_b.len()) {
            out.both.push(with(at));
        }
        for at in in_a.iter().skip(in_b.len()) {
            out.only_a.push(with(at));
        }
        for at in in_b.iter().skip(in_a.len()) {
            out.only_b.push(with(at));
        }
    }
    out
}
