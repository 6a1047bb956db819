//! Each side's provenance and verdict, and the diagnostics matched across the two by
//! code and entity, never by message.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::CompareOptions;
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
    let field = |key: &str| outcome.linked.as_ref().and_then(|m| m.fields.get(key).cloned());
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

fn key(d: &Diagnostic, core: Option<u64>, options: &CompareOptions) -> DiagnosticKey {
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
    DiagnosticKey { code: d.code.as_str().to_owned(), entity }
}

/// Matches the two sides' diagnostics by code and entity (B's cores read through the
/// core map), each key counted as often as it occurs.
pub fn diagnostics(a: &Outcome, b: &Outcome, options: &CompareOptions) -> Diagnostics {
    let mut counts: BTreeMap<DiagnosticKey, (usize, usize)> = BTreeMap::new();
    for d in &a.report.diagnostics {
        counts.entry(key(d, d.core, options)).or_default().0 += 1;
    }
    for d in &b.report.diagnostics {
        let core = d.core.map(|c| options.a_core(c).unwrap_or(c));
        counts.entry(key(d, core, options)).or_default().1 += 1;
    }
    let mut out = Diagnostics::default();
    for (key, (in_a, in_b)) in counts {
        for _ in 0..in_a.min(in_b) {
            out.both.push(key.clone());
        }
        for _ in in_b..in_a {
            out.only_a.push(key.clone());
        }
        for _ in in_a..in_b {
            out.only_b.push(key.clone());
        }
    }
    out
}
