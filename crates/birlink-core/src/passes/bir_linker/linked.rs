//! What one run of `bir_linker` produced (the seeds' one link, or one core's in the
//! modular flow), and the one place it becomes the report's rows ([`Linked::record`]).

use crate::model::ir::Module;
use crate::output::log::LogLine;
use crate::output::report::{
    AliasRow, BarrierRow, DispatchRow, LinkDir, OutputKindRow, PartitionRow, QueueRow, Report, StepRow, TensorMap,
};

/// Everything `bir_linker` produced.
#[derive(Debug, Default)]
pub struct Linked {
    /// The linked module; `None` when the pass reported an error.
    pub module: Option<Module>,
    /// Steps in order.
    pub steps: Vec<StepRow>,
    /// `report.dispatcher`.
    pub dispatcher: Vec<DispatchRow>,
    /// `report.aliases`.
    pub aliases: Vec<AliasRow>,
    /// `report.output_kinds`.
    pub output_kinds: Vec<OutputKindRow>,
    /// `report.queues`.
    pub queues: Vec<QueueRow>,
    /// `report.barriers`.
    pub barriers: Vec<BarrierRow>,
    /// `report.options.base_name` (the seeds' reading: the linked module is
    /// `<base>/sgLnk`); `None` in the modular flow, where a core's module is its place.
    pub base_name: Option<String>,
    /// `report.link_dir`, for a work directory.
    pub link_dir: Option<LinkDir>,
    /// `report.tensor_map`, for a work directory whose cores have tensor maps.
    pub tensor_map: Option<TensorMap>,
    /// Its own log, in the compiler's words (the modular flow: `log::core_block`).
    pub log: Vec<LogLine>,
    /// `report.partitions`: the netlist's partitions as this core's dispatcher calls them.
    pub partitions: Vec<PartitionRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

impl Linked {
    /// Moves its rows into the report, after those of the cores linked before it: the
    /// rows of every core, the link directory's entries and the tensor maps' files and
    /// entries gathered; the partitions are the first core's (every core calls the
    /// same).
    pub fn record(&mut self, report: &mut Report) {
        report.dispatcher.append(&mut self.dispatcher);
        report.aliases.append(&mut self.aliases);
        report.output_kinds.append(&mut self.output_kinds);
        report.queues.append(&mut self.queues);
        report.barriers.append(&mut self.barriers);
        if let Some(base) = self.base_name.take() {
            report.options.base_name = Some(base);
        }
        if let Some(dir) = self.link_dir.take() {
            let all = report.link_dir.get_or_insert_with(|| LinkDir { root: dir.root.clone(), ..LinkDir::default() });
            all.entries.extend(dir.entries);
            all.in_place.extend(dir.in_place);
        }
        if let Some(map) = self.tensor_map.take() {
            let all = report.tensor_map.get_or_insert_with(TensorMap::default);
            all.files.extend(map.files);
            all.entries.extend(map.entries);
        }
        if report.partitions.is_empty() {
            report.partitions = std::mem::take(&mut self.partitions);
        }
    }
}
