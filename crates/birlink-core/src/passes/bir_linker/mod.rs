//! `bir_linker`: N per-core modules → one `<base>/sgLnk` module (spec §3; seed
//! `000_…` "bir_linker — Multi-LNC Re-Assembly", §2–§7).
//!
//! As in `BirLinker::run`, the result is a **new** module; the per-core modules are moved
//! into it, each core's arenas appended through explicit `HandleMap`s, never edited in
//! place. [`run`] is the nine steps, one file each, in the order they are reported:
//!
//! 1. [`module`] `create_module` — the module `<base>/sgLnk`, `version` and `arch` of
//!    the base module.
//! 2. [`dispatcher`] — function `main`, block `dispatcher`, one
//!    `Call call_def_<c>_instance_0` per core in core order (`addFnCall`).
//! 3. [`copy`] `copy_functions` — each module's entry function becomes the core
//!    function, named after the module and tagged with its core, carrying
//!    `source_module` and `source_function`; its other functions follow as
//!    `<module>/<name>` (`copyModulesAsFunctions`). `Call` targets inside a module
//!    follow the renames.
//! 4. [`queue_switches`] `switch_queue_instances` — one `SwitchQueueInstance` per queue
//!    the core has instances in, at the front of the core function's first block.
//! 5. [`returns`] — the completion `CoreBarrier` and the `Return` at the end of the core
//!    function's last block (`fpassInsertReturns`).
//! 6. [`aliases`] — symmetric MustAlias edges for each `remote_local_target` and netlist
//!    alias, kinds OR-merged, DRAM-only; the view's `alloced_func` (`buildMainAliases`).
//! 7. [`output_kinds`] — cross-core intermediates are no longer external
//!    (`fixOutputKind`, io2spill).
//! 8. [`queues`] `merge_queues` — queues merged by name, instances renamed
//!    `<instance>_defId_<core>` and tagged, semaphores counted (`initQueues`).
//! 9. [`barriers`] `renumber_barriers` — one monotonic id over the whole module
//!    (`renumberCoreBarriers`).
//!
//!
//! When the modules came from a compiler work directory, two more steps follow:
//! 10. [`link_dir`] plans `sgLnk/` (`setupLinkDir`);
//! 11. [`tensor_map`] merges and checks the cores' tensor maps (`buildMainTensorMap`).
//!
//! Every step records what it changed as canonical lines before and after
//! ([`record::Step`]). An error in any step leaves no linked module (the rows computed
//! so far are kept).

mod aliases;
mod barriers;
pub mod bindings;
mod copy;
mod dispatcher;
pub mod link_dir;
pub mod log;
pub mod modular;
mod module;
mod output_kinds;
mod queue_switches;
mod queues;
mod record;
mod returns;
pub mod tensor_map;

use crate::diag::{has_errors, Diagnostic};
use crate::model::ir::Module;
use crate::model::pass::Pass;
use crate::output::report::{AliasRow, BarrierRow, DispatchRow, LinkDir, OutputKindRow, QueueRow, StepRow, TensorMap};
use crate::read::input::{CoreModule, FileEntry};
use crate::read::netlist::Netlist;
use crate::read::workdir::WorkdirInput;

/// The pass.
pub const PASS: Pass = Pass::BirLinker;

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
    /// `report.options.base_name`: the linked module is `<base>/sgLnk`.
    pub base_name: String,
    /// `report.link_dir`, for a work directory.
    pub link_dir: Option<LinkDir>,
    /// `report.tensor_map`, for a work directory whose cores have tensor maps.
    pub tensor_map: Option<TensorMap>,
    /// Its own log, in the compiler's words (the modular flow: [`log::core_block`]).
    pub log: Vec<String>,
    /// `report.partitions`: the netlist's partitions as this core's dispatcher calls them.
    pub partitions: Vec<crate::output::report::PartitionRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

/// Links the modules. `modules` pairs each module with its verified core id; `workdir`
/// is the compiler work directory they came from, when they did (its tensor maps become
/// files of the run, `files`, so diagnostics point into them).
pub fn run(
    modules: Vec<(u64, CoreModule)>,
    netlist: Option<&Netlist>,
    workdir: Option<&WorkdirInput>,
    files: &mut Vec<FileEntry>,
    diags: &mut Vec<Diagnostic>,
) -> Linked {
    let start = diags.len();
    let mut modules = modules;
    modules.sort_by_key(|(core, _)| *core);
    let n_cores = modules.len() as u64;
    let mut out = Linked { base_name: base_name(&modules, netlist), ..Linked::default() };

    let (mut linked, step) = module::create(&out.base_name, &modules);
    out.steps.push(step);
    out.steps.push(dispatcher::add(&mut linked, &modules, &mut out.dispatcher));
    let (cores, step) = copy::copy_modules(&mut linked, modules, diags);
    out.steps.push(step);
    let plan = queues::plan(&linked, &cores);
    out.steps.push(queue_switches::insert(&mut linked, &cores, &plan));
    out.steps.push(returns::insert(&mut linked, &cores));
    let handoffs = aliases::plan(&linked, &cores, netlist, diags);
    out.steps.push(aliases::apply(&mut linked, &handoffs, &mut out.aliases));
    out.steps.push(output_kinds::fix(&mut linked, &cores, &handoffs, netlist, &mut out.output_kinds));
    out.steps.push(queues::merge(&mut linked, &cores, &plan, n_cores, &mut out.queues, diags));
    out.steps.push(barriers::renumber(&mut linked, &mut out.barriers, diags));
    if let Some((work, plan)) = workdir.and_then(|w| Some((w, w.plan()?))) {
        let (dir, step) = link_dir::plan(work, &plan, diags);
        out.steps.push(step);
        out.link_dir = Some(dir);
        // The maps are merged through a link that holds.
        let rows = tensor_map::LinkRows { aliases: &out.aliases, output_kinds: &out.output_kinds };
        let merged = if has_errors(&diags[start..]) {
            None
        } else {
            tensor_map::merge(&linked, work, &plan, rows, files, diags)
        };
        if let Some((map, step)) = merged {
            out.steps.push(step);
            out.tensor_map = Some(map);
        }
    }

    out.failed = has_errors(&diags[start..]);
    if !out.failed {
        out.module = Some(linked);
    }
    out
}

/// `<base>`: the netlist's `name`, else the name of the module with the lowest core id.
fn base_name(modules: &[(u64, CoreModule)], netlist: Option<&Netlist>) -> String {
    if let Some(name) = netlist.and_then(|n| n.name.clone()) {
        return name;
    }
    modules.iter().min_by_key(|(core, _)| *core).map(|(_, m)| m.name.clone()).unwrap_or_else(|| "nc00".to_owned())
}
