//! Downloads: files the worker makes (`linked.json`, `report.json`, the link set as a
//! bundle) and the call graph as SVG, which the page makes from the run's report alone
//! (`components::call_graph::svg`), never from what happens to be drawn.

use super::{Ask, Outbox, Query, State};
use crate::protocol::Export;

/// What was asked to download.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exports {
    /// A file the worker makes.
    pub out: Outbox<Ask>,
    /// The call graph of a run, as SVG.
    pub svg: Outbox<u64>,
}

/// The download actions.
#[derive(Debug)]
pub enum ExportAction {
    /// Download a file of the current run.
    File(Export),
    /// Download the call graph as SVG.
    Svg,
}

impl State {
    /// Applies a download action; false when there is nothing to download.
    pub(super) fn apply_export(&mut self, action: ExportAction) -> bool {
        let Some(result) = self.result() else { return false };
        let run = result.run;
        match action {
            ExportAction::File(what) => self.export.out.post(Ask { run, query: Query::Export(what) }),
            ExportAction::Svg => {
                if result.report.dispatcher.is_empty() {
                    return false;
                }
                self.export.svg.post(run);
            }
        }
        true
    }
}
