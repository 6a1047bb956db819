//! What a run is, decided once before any pass: the flow (the one asked for, else the
//! compiler's rule), the passes selected, the number of cores, and what every flow's
//! sequence of passes is given ([`Run`]). Nothing after this re-infers the flow.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::flow::{Flow, FlowSource};
use crate::model::ir::Src;
use crate::model::pass::Pass;
use crate::output::report::LncSource;
use crate::passes::fidelity;
use crate::passes::options::LinkOptions;
use crate::passes::partition::Partitions;
use crate::read::input::LinkSet;
use crate::read::netlist::Netlist;
use crate::read::workdir::{self, WorkdirInput};

/// What every flow's sequence of passes is given.
pub(super) struct Run<'r> {
    /// The flow.
    pub flow: Flow,
    /// The passes selected.
    pub selected: &'r [Pass],
    /// The options.
    pub options: &'r LinkOptions,
    /// Reading failed: no pass runs.
    pub stopped: bool,
}

impl<'r> Run<'r> {
    /// Whether `pass` was selected.
    pub fn wants(&self, pass: Pass) -> bool {
        self.selected.contains(&pass)
    }

    /// Only the VNC passes were selected: the input is already linked.
    pub fn vnc_only(&self) -> bool {
        !self.wants(Pass::Verify) && !self.wants(Pass::BirLinker)
    }

    /// The fidelity check of the compiler's own results in the work directory, in the
    /// compiler's flows (the seeds' reading links what the compiler never builds).
    pub fn fidelity(&self) -> fidelity::Check<'r> {
        let work = self.options.workdir.as_ref().filter(|_| self.flow.per_core());
        fidelity::Check::new(work)
    }
}

/// The flow: the one asked for, else the compiler's rule — modular when a netlist has
/// partitions or some core has several subgraphs, else flat (docs/spec/link.md §2).
pub fn decide_flow(asked: Option<Flow>, set: &LinkSet) -> (Flow, FlowSource) {
    if let Some(flow) = asked {
        return (flow, FlowSource::Option);
    }
    // A module whose functions carry several cores is the seeds' linked module (an
    // earlier birlink's `linked.json`): the compiler never builds one (birlink's reading).
    if set.modules.iter().any(|m| Partitions::of(&m.module).len() > 1) {
        return (Flow::Seeds, FlowSource::Linked);
    }
    // Every module a core's linked module: bir_linker has run (the modular flow), and
    // these are the VNC passes' input.
    if !set.modules.is_empty() && set.modules.iter().all(|m| m.place.is_linked()) {
        return (Flow::Modular, FlowSource::Sglnk);
    }
    if set.netlist.as_ref().is_some_and(Netlist::has_partitions) {
        return (Flow::Modular, FlowSource::Netlist);
    }
    let mut subgraphs: BTreeMap<Option<u64>, BTreeSet<u32>> = BTreeMap::new();
    for module in &set.modules {
        subgraphs.entry(module.place.core_number()).or_default().insert(module.place.subgraph_or_first());
    }
    if subgraphs.values().any(|s| s.len() > 1) {
        return (Flow::Modular, FlowSource::Subgraphs);
    }
    (Flow::Flat, FlowSource::Single)
}

/// The number of cores, and what said it: `--lnc`, a bundle, the netlist, the work
/// directory's core folders, else the modules (their distinct cores in the compiler's
/// flows, where a core has several; their number in the seeds' reading).
pub(super) fn decide_lnc(options: &LinkOptions, set: &LinkSet, flow: Flow) -> (u64, LncSource) {
    match (options.lnc, set.options.lnc, set.netlist.as_ref().and_then(|n| n.lnc)) {
        (Some(n), _, _) => (n, LncSource::Option),
        (None, Some(n), _) => (n, LncSource::Bundle),
        (None, None, Some(n)) => (n, LncSource::Netlist),
        (None, None, None) => {
            let plan = options.workdir.as_ref().and_then(WorkdirInput::plan);
            match plan.as_ref().and_then(|plan| workdir::implied_lnc([plan])) {
                Some(n) => (n, LncSource::Workdir),
                None if flow.per_core() => (distinct_cores(set), LncSource::Modules),
                None => (set.modules.len() as u64, LncSource::Modules),
            }
        }
    }
}

/// The number of distinct cores the modules are placed on.
fn distinct_cores(set: &LinkSet) -> u64 {
    let cores: BTreeSet<Option<u64>> = set.modules.iter().map(|m| m.place.core_number()).collect();
    cores.len() as u64
}

/// Validates a pass selection (and where it was written, for a bundle's); an invalid one
/// is reported (BL0012) and replaced by all passes (the error stops the run before any
/// of them).
pub(super) fn select_passes(asked: Option<(&Vec<String>, Option<&Src>)>, diags: &mut Vec<Diagnostic>) -> Vec<Pass> {
    let Some((asked, at)) = asked else {
        return Pass::PIPELINE.to_vec();
    };
    let parsed: Option<Vec<Pass>> = asked.iter().map(|p| Pass::parse(p)).collect();
    let valid = match &parsed {
        Some(passes) if !passes.is_empty() => {
            let positions: Vec<usize> = passes.iter().filter_map(|p| p.index()).collect();
            let contiguous = positions.windows(2).all(|w| w[1] == w[0] + 1);
            let linker_needs_verify = !passes.contains(&Pass::BirLinker) || passes.contains(&Pass::Verify);
            contiguous && linker_needs_verify
        }
        _ => false,
    };
    match parsed {
        Some(passes) if valid => passes,
        _ => {
            let all: Vec<&str> = Pass::PIPELINE.iter().map(|p| p.as_str()).collect();
            let unknown: Vec<&str> = asked.iter().map(String::as_str).filter(|p| Pass::parse(p).is_none()).collect();
            let mut diagnostic = Diagnostic::new(
                Code::BadPassSelection,
                Pass::Read,
                format!("pass selection [{}] is not a run of [{}]", asked.join(", "), all.join(", ")),
            )
            .at(at);
            if !unknown.is_empty() {
                let names: Vec<String> = unknown.iter().map(|p| format!("`{p}`")).collect();
                diagnostic = diagnostic.note(format!("not a pass: {}", names.join(", ")));
            }
            diags.push(diagnostic);
            Pass::PIPELINE.to_vec()
        }
    }
}

/// The VNC passes on their own need a linked input: why this one is not, when it is not.
pub(super) fn not_linked(selected: &[Pass], what: String) -> Diagnostic {
    let names: Vec<&str> = selected.iter().map(|p| p.as_str()).collect();
    Diagnostic::new(Code::NotLinked, Pass::Read, format!("the passes [{}] need {what}", names.join(", ")))
}
