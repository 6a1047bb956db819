//! `report.json`: one document describing a run (spec §7).
//!
//! It is the single source for the CLI's summary and for every view of the UI, so it
//! carries what each pass did (rows in pipeline order), what each step changed (edits
//! with the canonical text before and after), and every diagnostic. The field names of
//! the spec are never renamed; fields may be added. All lists are `Vec`s in pipeline
//! order: no hash-map order ever reaches the output.

use crate::model::place::CoreId;
use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diag::{Diagnostic, Severity};
use crate::model::flow::{Flow, FlowSource};
use crate::model::ir::PhysTuple;
use crate::model::pass::Pass;

/// The whole report.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The tool that wrote it.
    pub tool: Tool,
    /// The options in force.
    pub options: Options,
    /// One row per module read (and per file that could not be).
    pub inputs: Vec<InputRow>,
    /// The grid's places, in the compiler's flows: each subgraph module's core,
    /// subgraph, file and definition.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subgraphs: Vec<SubgraphRow>,
    /// The netlist's partitions, in the modular flow: the dispatcher's calls of every
    /// core, in netlist order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<PartitionRow>,
    /// The compiler's own results in the work directory held against birlink's for the
    /// same input (docs/spec/link.md §0.8), one row per dump.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fidelity: Vec<FidelityRow>,
    /// The VNC passes' own input when a work directory's run dumped the linked modules
    /// too (docs/spec/link.md §0.8): each core's dump, which they link instead of
    /// birlink's bir_linker output.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vnc_input: Vec<VncInputRow>,
    /// The passes in pipeline order.
    pub passes: Vec<PassRow>,
    /// The dispatcher's calls.
    pub dispatcher: Vec<DispatchRow>,
    /// Cross-core alias edges made by bir_linker.
    pub aliases: Vec<AliasRow>,
    /// Sets whose kind bir_linker changed.
    pub output_kinds: Vec<OutputKindRow>,
    /// Merged DMA queues.
    pub queues: Vec<QueueRow>,
    /// Renumbered CoreBarriers in walk order.
    pub barriers: Vec<BarrierRow>,
    /// vnc_remote_addr_map's copies.
    pub address_map: Vec<AddressRow>,
    /// vnc_link's collection and relocations.
    pub semaphores: Semaphores,
    /// The sync check after the link (docs/spec/sync.md §8): will the cores hang or race?
    #[serde(default)]
    pub sync: crate::output::sync::Sync,
    /// Every diagnostic, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// The link directory `sgLnk/` (`setupLinkDir`), when the inputs were a compiler
    /// work directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_dir: Option<LinkDir>,
    /// The unified tensor map (`buildMainTensorMap`), when the cores had tensor maps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor_map: Option<TensorMap>,
}

/// `subgraphs[]`: one module's place in the grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubgraphRow {
    /// Its core.
    pub core: u64,
    /// Its subgraph (`sgKK`).
    pub subgraph: u32,
    /// Its module's name.
    pub module: String,
    /// The file it was read from.
    pub file: String,
    /// The netlist's definition it is (the modular flow), the k-th distinct id being
    /// subgraph k (birlink's reading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition: Option<u64>,
}

/// `partitions[]`: one partition of the netlist, one call of its definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartitionRow {
    /// Its index in `PartMap`.
    pub index: u64,
    /// Its definition's id.
    pub definition: u64,
    /// Which of the definition's calls it is (from 0).
    pub instance: u64,
    /// The call (`call_def_<definition>_instance_<i>`).
    pub call: String,
    /// The function it calls (`sgNNNN`).
    pub function: String,
    /// Its model inputs, in formal order.
    pub inputs: Vec<String>,
    /// Its model outputs, in formal order.
    pub outputs: Vec<String>,
    /// The intermediates it reads, in formal order.
    pub reads: Vec<String>,
    /// The intermediates it writes, in formal order.
    pub writes: Vec<String>,
}

/// `fidelity[]`: one dump of the compiler's own result held against birlink's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FidelityRow {
    /// The pass the compiler printed it after (`bir_linker`, `vnc_link`, …).
    pub pass: Pass,
    /// The core.
    pub core: u64,
    /// The compiler's dump.
    pub file: String,
    /// Whether birlink's module of that core after that pass reads the same, line for
    /// line of the canonical text.
    pub agree: bool,
    /// Lines compared (the longer text's).
    pub lines: u64,
    /// Lines that differ.
    pub differing: u64,
    /// The first difference, when they part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<FirstDifference>,
    /// Why nothing could be compared (the dump does not read, birlink has no module
    /// of that core after that pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread: Option<String>,
}

/// What a fidelity row comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Agreement {
    /// The texts are the same.
    Agree,
    /// They part.
    Differ,
    /// Nothing could be compared.
    Unread,
}

impl Agreement {
    /// `agree`, `differ` or `unread`.
    pub fn as_str(self) -> &'static str {
        match self {
            Agreement::Agree => "agree",
            Agreement::Differ => "differ",
            Agreement::Unread => "unread",
        }
    }
}

impl FidelityRow {
    /// `bir_linker (nc00)`: the pass and the core's module it is about.
    pub fn label(&self) -> String {
        format!("{} ({})", self.pass, CoreId(self.core))
    }

    /// What it comes to, and in words — the same words in the CLI and on the page:
    /// `agrees with `F` (N lines)`, `parts from `F` at line L (unit; K of N lines
    /// differ): birlink `…` · compiler `…``, `not compared: why`.
    pub fn verdict(&self) -> (Agreement, String) {
        match (&self.unread, &self.first) {
            (Some(why), _) => (Agreement::Unread, format!("not compared: {why}")),
            (None, None) => (Agreement::Agree, format!("agrees with `{}` ({} lines)", self.file, self.lines)),
            (None, Some(first)) => (
                Agreement::Differ,
                format!(
                    "parts from `{}` at line {} ({}; {} of {} lines differ): birlink `{}` · compiler `{}`",
                    self.file,
                    first.line,
                    first.unit,
                    self.differing,
                    self.lines,
                    first.birlink.as_deref().unwrap_or("(no line)").trim(),
                    first.compiler.as_deref().unwrap_or("(no line)").trim()
                ),
            ),
        }
    }
}

/// Where birlink's and the compiler's results first part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstDifference {
    /// The 1-based line of the canonical text.
    pub line: u64,
    /// The unit it is in (`function sg0001`, `queue qIO`, `module`).
    pub unit: String,
    /// birlink's line (`None`: birlink's text ends first).
    pub birlink: Option<String>,
    /// The compiler's line (`None`: its text ends first).
    pub compiler: Option<String>,
}

/// `tool`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tool {
    /// `birlink`.
    pub name: String,
    /// The crate version.
    pub version: String,
}

impl Default for Tool {
    fn default() -> Self {
        Tool { name: "birlink".to_owned(), version: env!("CARGO_PKG_VERSION").to_owned() }
    }
}

/// `options`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// How the program is linked (docs/spec/link.md §2).
    pub flow: Flow,
    /// What decided the flow.
    pub flow_source: FlowSource,
    /// `vnc_nc_count`: the expected number of cores.
    pub lnc: u64,
    /// Where `lnc` came from.
    pub lnc_source: LncSource,
    /// Base name of the linked module (`<base>/sgLnk`), once known.
    pub base_name: Option<String>,
    /// The linked module's name.
    pub linked_name: Option<String>,
    /// The passes that run when nothing fails, in order.
    pub passes: Vec<Pass>,
}

/// Where `vnc_nc_count` came from (the first of these that gives one, spec §2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LncSource {
    /// `--lnc`, or the page's LNC field.
    Option,
    /// The bundle's `options.lnc`.
    Bundle,
    /// The netlist's `lnc`.
    Netlist,
    /// A compiler work directory's core folders, when one of them has no dump of the
    /// pass linked (so the link says a core is missing instead of linking fewer).
    Workdir,
    /// The number of modules given.
    #[default]
    Modules,
}

impl LncSource {
    /// `option`, `bundle`, `netlist`, `workdir` or `modules`.
    pub fn as_str(self) -> &'static str {
        match self {
            LncSource::Option => "option",
            LncSource::Bundle => "bundle",
            LncSource::Netlist => "netlist",
            LncSource::Workdir => "workdir",
            LncSource::Modules => "modules",
        }
    }
}

/// What a file turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// One per-core module.
    Module,
    /// A bundle of modules.
    Bundle,
    /// Link metadata.
    Netlist,
    /// Could not be read or parsed.
    Invalid,
    /// A core's `tensor_map.json` (read by the link's last step, not a module).
    TensorMap,
}

/// `inputs[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputRow {
    /// The file.
    pub file: String,
    /// What the file was.
    pub kind: FileKind,
    /// JSON pointer of the module in the file (`""`, or `/modules/<i>` in a bundle).
    pub pointer: String,
    /// The module's name, for modules.
    pub module: Option<String>,
    /// The module's core id, when present.
    pub core: Option<u64>,
    /// Number of functions.
    pub functions: u64,
    /// Number of instructions (functions and queues, nested included).
    pub instructions: u64,
    /// Number of memory locations.
    pub memlocs: u64,
    /// Number of queues.
    pub queues: u64,
    /// Size of the file in bytes.
    pub bytes: u64,
    /// The worst diagnostic pointing into this module or file.
    pub status: InputStatus,
}

/// How an input fared: the worst diagnostic about it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputStatus {
    /// Nothing worse than a note.
    #[default]
    Ok,
    /// At least one warning.
    Warning,
    /// At least one error.
    Error,
}

impl InputStatus {
    /// The status a worst severity gives.
    pub fn of(worst: Option<Severity>) -> InputStatus {
        match worst {
            Some(Severity::Error) => InputStatus::Error,
            Some(Severity::Warning) => InputStatus::Warning,
            Some(Severity::Note) | None => InputStatus::Ok,
        }
    }

    /// `ok`, `warning` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            InputStatus::Ok => "ok",
            InputStatus::Warning => "warning",
            InputStatus::Error => "error",
        }
    }
}

/// `passes[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRow {
    /// The pass.
    pub name: Pass,
    /// The core it ran for, when it runs once per core (`bir_linker` in the modular
    /// flow); absent for a pass over the whole set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<u64>,
    /// How it went.
    pub status: PassStatus,
    /// Its steps in order.
    pub steps: Vec<StepRow>,
}

impl PassRow {
    /// `bir_linker (nc00)` for a pass run per core, else the pass.
    pub fn label(&self) -> String {
        match self.core {
            Some(core) => format!("{} ({})", self.name, CoreId(core)),
            None => self.name.as_str().to_owned(),
        }
    }
}

/// How a pass went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PassStatus {
    /// It ran and reported no error.
    Ok,
    /// It reported an error: it changed nothing and the passes after it did not run.
    Error,
    /// It did not run (not selected, or an earlier stage failed).
    Skipped,
}

impl PassStatus {
    /// `ok`, `error` or `skipped`.
    pub fn as_str(self) -> &'static str {
        match self {
            PassStatus::Ok => "ok",
            PassStatus::Error => "error",
            PassStatus::Skipped => "skipped",
        }
    }

    /// `error` when `failed`, else `ok`.
    pub fn of(failed: bool) -> PassStatus {
        if failed {
            PassStatus::Error
        } else {
            PassStatus::Ok
        }
    }
}

/// One step of a pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRow {
    /// The step's name.
    pub name: String,
    /// How many entities it changed or added.
    pub changes: u64,
    /// What it changed, as canonical text before and after.
    pub edits: Vec<Edit>,
}

/// One changed entity: its canonical line before and after a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// The module it is in, when the linked set has one per core (`nc01/sgLnk`); absent
    /// in the seeds' one module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// The unit it belongs to.
    pub unit: Unit,
    /// Where in the unit: `block <name>`, `set <name>`, `instance <name>`, or empty.
    pub context: String,
    /// The canonical line before the step (`None`: added).
    pub before: Option<String>,
    /// The canonical line after the step.
    pub after: Option<String>,
}

/// `dispatcher[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DispatchRow {
    /// `call_def_<definition>_instance_<i>`.
    pub call: String,
    /// The core.
    pub core: u64,
    /// The called function.
    pub target: String,
    /// The netlist partition the call is (the modular flow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<u64>,
    /// Its arguments: each formal set of the callee and `main`'s set bound to it (the
    /// modular flow).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<(String, String)>,
}

/// One side of an alias edge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasEnd {
    /// The core.
    pub core: u64,
    /// The call that binds it (a handoff between partitions, the modular flow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<String>,
    /// The function holding the location.
    pub function: String,
    /// The set.
    pub set: String,
    /// The location.
    pub memloc: String,
}

/// `aliases[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasRow {
    /// The side that reads (the remote view).
    pub consumer: AliasEnd,
    /// The side that owns the memory.
    pub producer: AliasEnd,
    /// Alias kind after OR-merging.
    pub kind: AliasKind,
    /// What the edge comes from.
    pub source: AliasSource,
    /// The intermediate tensor handed off (a handoff between partitions, the modular
    /// flow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor: Option<String>,
}

/// An alias edge's kind: bits, OR-merged when two edges between the same memory
/// locations meet (`MustAlias` is 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AliasKind(pub u64);

impl AliasKind {
    /// `MustAlias`: the two memory locations are one.
    pub const MUST_ALIAS: AliasKind = AliasKind(3);
}

impl std::fmt::Display for AliasKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Display for AliasSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What an alias edge comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AliasSource {
    /// A remote view's `remote_local_target` (the seeds' reading).
    RemoteLocalTarget,
    /// The netlist: one of its aliases (the seeds' reading), or an intermediate handed
    /// from a partition to a later one (the modular flow).
    Netlist,
}

impl AliasSource {
    /// `remote_local_target` or `netlist`.
    pub fn as_str(self) -> &'static str {
        match self {
            AliasSource::RemoteLocalTarget => "remote_local_target",
            AliasSource::Netlist => "netlist",
        }
    }
}

/// `output_kinds[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputKindRow {
    /// The core.
    pub core: u64,
    /// The function holding the set.
    pub function: String,
    /// The set.
    pub set: String,
    /// Kind before.
    pub from: String,
    /// Kind after.
    pub to: String,
}

/// `queues[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueRow {
    /// The queue.
    pub name: String,
    /// Its instances in merged order.
    pub instances: Vec<InstanceRow>,
    /// Semaphore accounting.
    pub semaphores: SemaphoreCount,
}

/// One merged queue instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceRow {
    /// The core.
    pub core: u64,
    /// Its linked name (`<instance>_defId_<core>`).
    pub name: String,
    /// Its name in the input (`<queue>_<index>` when it had none).
    pub source_name: String,
}

/// Distinct local semaphore ids of a queue's DMA blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemaphoreCount {
    /// Sum over cores.
    pub total: u64,
    /// Per core, indexed by core id.
    pub per_core: Vec<u64>,
}

/// `barriers[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierRow {
    /// The core whose function holds it (`None` for `main`).
    pub core: Option<u64>,
    /// The function.
    pub function: String,
    /// The instruction's name.
    pub instruction: String,
    /// Its id before renumbering.
    pub old_id: u64,
    /// Its global id.
    pub new_id: u64,
}

/// `address_map[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressRow {
    /// The view's core.
    pub core: u64,
    /// The view's function.
    pub function: String,
    /// The view's set.
    pub set: String,
    /// The view.
    pub memloc: String,
    /// The owner core.
    pub owner_core: u64,
    /// The owner's function.
    pub owner_function: String,
    /// The owner's location name.
    pub remote: String,
    /// The view's tuple before.
    pub before: PhysTuple,
    /// After the copy (the owner's tuple).
    pub after: PhysTuple,
}

/// `semaphores`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Semaphores {
    /// Remote DMA blocks collected per core (the 1512 lockstep check).
    pub counts: Vec<SemaphoreBlocks>,
    /// Every relocation.
    pub relocations: Vec<Relocation>,
}

/// `semaphores.counts[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SemaphoreBlocks {
    /// The core.
    pub core: u64,
    /// Its core function.
    pub function: String,
    /// Collected remote DMA blocks.
    pub remote_dma_blocks: u64,
}

/// `semaphores.relocations[]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Relocation {
    /// The core whose block is relinked.
    pub core: u64,
    /// The block.
    pub block: String,
    /// Where it lives: a function or a queue instance.
    pub block_parent: String,
    /// Its ordinal among the core's collected blocks.
    pub ordinal: u64,
    /// Index of the update in its `on_update`.
    pub update: u64,
    /// The target core.
    pub target_core: u64,
    /// The peer block (the target core's block of the same ordinal).
    pub peer_block: String,
    /// Where the peer lives.
    pub peer_parent: String,
    /// The id before.
    pub old_id: Value,
    /// The peer's local id, now the update's id.
    pub new_id: Value,
}

/// A unit of one module of a linked set: what a viewer asks to print whole.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ModuleUnit {
    /// The module (`nc01/sgLnk`) when the set has one per core; `None`: the seeds' one
    /// module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// The unit.
    pub unit: Unit,
}

impl ModuleUnit {
    /// An edit's unit, in its module.
    pub fn of(edit: &Edit) -> ModuleUnit {
        ModuleUnit { module: edit.module.clone(), unit: edit.unit.clone() }
    }
}

impl fmt::Display for ModuleUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.module {
            Some(module) => write!(f, "{module}: {}", self.unit),
            None => self.unit.fmt(f),
        }
    }
}

/// A unit of the canonical text: what an edit belongs to, what can be printed whole.
/// On the wire: `module`, `function <name>`, `queue <name>`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unit {
    /// The module's header line.
    Module,
    /// A function, by (linked) name.
    Function(String),
    /// A queue, by name.
    Queue(String),
}

impl Unit {
    /// The function's name, for a function unit.
    pub fn function(&self) -> Option<&str> {
        match self {
            Unit::Function(name) => Some(name),
            Unit::Module | Unit::Queue(_) => None,
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Module => f.write_str("module"),
            Unit::Function(name) => write!(f, "function {name}"),
            Unit::Queue(name) => write!(f, "queue {name}"),
        }
    }
}

impl std::str::FromStr for Unit {
    type Err = String;

    fn from_str(text: &str) -> Result<Unit, String> {
        if text == "module" {
            Ok(Unit::Module)
        } else if let Some(name) = text.strip_prefix("function ") {
            Ok(Unit::Function(name.to_owned()))
        } else if let Some(name) = text.strip_prefix("queue ") {
            Ok(Unit::Queue(name.to_owned()))
        } else {
            Err(format!("`{text}` is not a unit (`module`, `function <name>` or `queue <name>`)"))
        }
    }
}

impl Serialize for Unit {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Unit {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_back_as_written() {
        for unit in [Unit::Module, Unit::Function("nc01/helper".into()), Unit::Queue("q 1".into())] {
            let json = serde_json::to_string(&unit).unwrap_or_default();
            assert_eq!(serde_json::from_str::<Unit>(&json).ok().as_ref(), Some(&unit), "{json}");
        }
        assert_eq!(serde_json::to_string(&Unit::Function("nc00".into())).unwrap_or_default(), "\"function nc00\"");
        assert!("widget x".parse::<Unit>().is_err());
    }

    #[test]
    fn statuses_are_written_as_before() {
        assert_eq!(serde_json::to_string(&PassStatus::Skipped).unwrap_or_default(), "\"skipped\"");
        assert_eq!(serde_json::to_string(&InputStatus::Warning).unwrap_or_default(), "\"warning\"");
        assert_eq!(serde_json::to_string(&LncSource::Netlist).unwrap_or_default(), "\"netlist\"");
    }
}

/// What a file of a work directory's linked subgraph is to the link directory
/// (docs/spec/link.md §3.10): what `setupLinkDir` symlinks, copies or leaves in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ArtifactKind {
    /// A weight or constant tensor (`*.npy`): symlinked.
    Weight,
    /// Debug information: symlinked.
    DebugInfo,
    /// A custom operator's binary: symlinked.
    CustomOp,
    /// A host (CPU-node) file: copied.
    CpuNode,
    /// The core's tensor map: merged into `tensor-map.json`.
    TensorMap,
    /// A BIR dump (`bir_debug.*.json`): the link's input, not its directory's.
    Dump,
    /// What the backend writes for the core itself (`def.json`, engine programs, `kelf-<i>.json`).
    Program,
    /// Anything else.
    Other,
}

impl ArtifactKind {
    /// How the kind is named in the UI and the CLI.
    pub fn describe(self) -> &'static str {
        match self {
            ArtifactKind::Weight => "weights",
            ArtifactKind::DebugInfo => "debug info",
            ArtifactKind::CustomOp => "custom op",
            ArtifactKind::CpuNode => "CPU-node file",
            ArtifactKind::TensorMap => "tensor map",
            ArtifactKind::Dump => "BIR dump",
            ArtifactKind::Program => "core program",
            ArtifactKind::Other => "other",
        }
    }
}

/// How an entry gets into the link directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Placement {
    /// A symbolic link to the core's file.
    Symlink,
    /// A copy of the core's file.
    Copy,
    /// A file the link writes (the unified `tensor-map.json`).
    Write,
}

/// `vnc_input[]`: a core's linked module as the compiler dumped it before the VNC passes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VncInputRow {
    /// The core.
    pub core: u64,
    /// The dump, as the inputs name it.
    pub file: String,
    /// The pass it was dumped after (`coloring_allocator_reg`).
    pub after: String,
    /// Whether the VNC passes linked it (not when bir_linker failed, or a core lacked one).
    pub used: bool,
}

/// `link_dir`: what `setupLinkDir` makes of the work directory.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkDir {
    /// The folder its entries are named from, relative to the work directory: `sgLnk`
    /// in the seeds' reading; `.` (the work directory itself) in the modular flow, whose
    /// entries are each core's `ncCC/sgLnk/…`.
    pub root: String,
    /// Its entries, by name.
    pub entries: Vec<LinkDirEntry>,
    /// The linked subgraph's other files, which stay in their core's folder.
    pub in_place: Vec<InPlaceRow>,
}

/// `link_dir.entries[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkDirEntry {
    /// Its path inside the link directory (`/`-separated).
    pub name: String,
    /// Symlinked, copied or written.
    pub placement: Placement,
    /// What it is.
    pub kind: ArtifactKind,
    /// The core whose file it is (the modular flow: whose link directory it is in; `null`
    /// for the seeds' merged map).
    pub core: Option<u64>,
    /// The subgraph whose file it is, in the modular flow (`null` for a file of the core's
    /// own folder, or one the link writes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subgraph: Option<u64>,
    /// That file, as the inputs name it (`null` for a file the link writes).
    pub source: Option<String>,
    /// Its size in bytes (`null` for a file the link writes).
    pub bytes: Option<u64>,
    /// Other cores (the seeds' reading) or other subgraphs of the core (the modular flow)
    /// offering the same name with the same content (one entry serves them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_on: Vec<u64>,
    /// Other cores or subgraphs offering the same name with other content (BL0315): the
    /// entry is the lowest one's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub differs_on: Vec<u64>,
}

/// `link_dir.in_place[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InPlaceRow {
    /// The core.
    pub core: u64,
    /// The file, as the inputs name it.
    pub path: String,
    /// What it is.
    pub kind: ArtifactKind,
}

/// `tensor_map`: the cores' tensor maps merged through the link (birlink's reading of
/// `buildMainTensorMap` and `verifyTensorMap`, docs/spec/link.md §3.11).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TensorMap {
    /// Each core's file as read.
    pub files: Vec<TensorMapFile>,
    /// The merged entries, by name.
    pub entries: Vec<TensorMapEntry>,
}

/// `tensor_map.files[]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorMapFile {
    /// The core.
    pub core: u64,
    /// The file, as the inputs name it.
    pub path: String,
    /// The structure birlink found (`object` keyed by tensor name, or `list` with the
    /// name in a key), in words.
    pub shape: String,
    /// How many entries were read.
    pub entries: u64,
}

/// `tensor_map.entries[]`: one entry of the merged map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TensorMapEntry {
    /// The core whose map it is from.
    pub core: u64,
    /// That core's function in the linked module: the entry's place in the merged map.
    pub function: String,
    /// The tensor's name.
    pub name: String,
    /// The group it was under in its file (an object of groups of entries), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// The entry's keys, every one of them, as read.
    pub fields: serde_json::Map<String, Value>,
    /// The tensor of the linked module it binds, if there is one.
    pub linked: Option<TensorRef>,
    /// The other core's entry for the same memory, through the link's alias edge (a
    /// remote view's entry names its owner's, and the owner's its views').
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub same_memory: Vec<EntryRef>,
    /// What the merge found.
    pub status: EntryStatus,
}

/// Another entry of the merged map, by core and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryRef {
    /// Its core.
    pub core: u64,
    /// Its function, when it is of the same core (a handoff of the netlist between two
    /// functions of the core's linked module, the modular flow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub function: Option<String>,
    /// Its tensor's name.
    pub name: String,
}

/// The tensor of the linked module a tensor-map entry binds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TensorRef {
    /// The core function holding it.
    pub function: String,
    /// Its set.
    pub set: String,
    /// The set's kind after the link (`ExternalInput`, `ExternalOutput`, `Internal`…).
    pub kind: String,
}

/// What the merge found of one entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryStatus {
    /// It binds a tensor of the linked module.
    Bound,
    /// No tensor of that name in the linked module (BL0310).
    Stale,
    /// It binds a tensor the link made internal (BL0311).
    Demoted,
    /// The same memory has another layout in another core's entry (BL0312).
    Conflict,
}
