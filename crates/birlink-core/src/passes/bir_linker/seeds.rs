//! `bir_linker` in the seeds' reading: N per-core modules → one `<base>/sgLnk` module
//! (spec §3; seed `000_…` "bir_linker — Multi-LNC Re-Assembly", §2–§7). The compiler
//! never builds this module (docs/spec/link.md §0): it links each core's subgraphs on
//! their own ([`super::modular`]). Only when asked (`--flow seeds`).
//!
//! As in `BirLinker::run`, the result is a **new** module; the per-core modules are moved
//! into it, each core's arenas appended through explicit `HandleMap`s, never edited in
//! place. [`run`] is the nine steps, one file each, in the order they are reported:
//!
//! 1. [`super::module`] `create_module` — the module `<base>/sgLnk`, `version` and `arch` of
//!    the base module.
//! 2. [`super::dispatcher`] — function `main`, block `dispatcher`, one
//!    `Call call_def_<c>_instance_0` per core in core order (`addFnCall`).
//! 3. [`super::copy`] `copy_functions` — each module's entry function becomes the core
//!    function, named after the module and tagged with its core, carrying
//!    `source_module` and `source_function`; its other functions follow as
//!    `<module>/<name>` (`copyModulesAsFunctions`). `Call` targets inside a module
//!    follow the renames.
//! 4. [`super::queue_switches`] `switch_queue_instances` — one `SwitchQueueInstance` per queue
//!    the core has instances in, at the front of the core function's first block.
//! 5. [`super::returns`] — the completion `CoreBarrier` and the `Return` at the end of the core
//!    function's last block (`fpassInsertReturns`).
//! 6. [`super::aliases`] — symmetric MustAlias edges for each `remote_local_target` and netlist
//!    alias, kinds OR-merged, DRAM-only; the view's `alloced_func` (`buildMainAliases`).
//! 7. [`super::output_kinds`] — cross-core intermediates are no longer external
//!    (`fixOutputKind`, io2spill).
//! 8. [`super::queues`] `merge_queues` — queues merged by name, instances renamed
//!    `<instance>_defId_<core>` and tagged, semaphores counted (`initQueues`).
//! 9. [`super::barriers`] `renumber_barriers` — one monotonic id over the whole module
//!    (`renumberCoreBarriers`).
//!
//!
//! When the modules came from a compiler work directory, two more steps follow:
//! 10. [`super::link_dir`] plans `sgLnk/` (`setupLinkDir`);
//! 11. [`super::tensor_map`] merges and checks the cores' tensor maps (`buildMainTensorMap`).
//!
//! Every step records what it changed as canonical lines before and after
//! (`record::Step`). An error in any step leaves no linked module (the rows computed
//! so far are kept).

use super::linked::Linked;
use super::{
    aliases, barriers, copy, dispatcher, link_dir, module, output_kinds, queue_switches, queues, returns, tensor_map,
};
use crate::diag::{has_errors, Diagnostic};
use crate::model::place::CoreId;
use crate::read::input::{CoreModule, FileEntry};
use crate::read::netlist::Netlist;
use crate::read::workdir::WorkdirInput;

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
    let base = base_name(&modules, netlist);
    let mut out = Linked { base_name: Some(base.clone()), ..Linked::default() };

    let (mut linked, step) = module::create(&base, &modules);
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
    modules.iter().min_by_key(|(core, _)| *core).map(|(_, m)| m.name.clone()).unwrap_or_else(|| CoreId(0).to_string())
}
