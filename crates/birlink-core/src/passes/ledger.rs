//! The statuses and steps of a flow's passes as they run: `report.passes`.

use crate::model::flow::Flow;
use crate::model::pass::Pass;
use crate::output::report::{PassRow, PassStatus, StepRow};

/// One row per pass the flow runs, each `skipped` until it ran.
pub(super) struct Ledger {
    /// The rows, in pipeline order.
    pub rows: Vec<PassRow>,
}

impl Ledger {
    /// The rows of a flow's pipeline: the four passes in the seeds' reading; no
    /// `bir_linker` in the flat flow (the compiler runs none); one `bir_linker` per core
    /// in the modular flow.
    pub fn new(flow: Flow, cores: &[u64]) -> Ledger {
        let row =
            |name: Pass, core: Option<u64>| PassRow { name, core, status: PassStatus::Skipped, steps: Vec::new() };
        let mut rows = Vec::new();
        for &pass in &Pass::PIPELINE {
            match (pass, flow) {
                (Pass::BirLinker, Flow::Flat) => {}
                (Pass::BirLinker, Flow::Modular) => rows.extend(cores.iter().map(|&c| row(pass, Some(c)))),
                _ => rows.push(row(pass, None)),
            }
        }
        Ledger { rows }
    }

    /// Records a pass that ran (for `core`, when it runs per core); returns whether it
    /// failed.
    pub fn ran(&mut self, pass: Pass, core: Option<u64>, failed: bool, steps: Vec<StepRow>) -> bool {
        if let Some(row) = self.rows.iter_mut().find(|r| r.name == pass && r.core == core) {
            row.status = PassStatus::of(failed);
            row.steps = steps;
        }
        failed
    }
}
