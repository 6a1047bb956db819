//! `vnc_remote_addr_map`: copy each owner core's physical tuple onto its remote views
//! (spec §4; seed `003_…` "vnc_remote_addr_map (L34) — the Address Alias Copy").
//!
//! Precondition: one partition per virtual core, else **1513**
//! (`modules.size() == options.vnc_nc_count`). Then, for every memory location with a
//! `remote_local_target [R, o]`, in partition order: find R in partition `o` — in the
//! counterpart of the view's function first, then anywhere in the partition (the
//! seed's `getFunctionByName → getMemoryLocationByName → set scan` chain). Not found is
//! **1514** (`remote_mloc != nullptr`), reported for every missing target, with the
//! closest names on core `o` and the cores where R does exist. Found: the owner's `type`,
//! `addr`, `bank`, `base`, `allocated` are written onto the view, and the owner set's
//! `addr_space` onto the view's set, verbatim, every field explicit (`allocate_no_check`:
//! no arithmetic). Two owners with different address spaces for one set is BL0401.
//!
//! The copies happen in partition order, each reading the owner as it stands at that
//! moment, as the seed's loop writes in place: when an owner is itself a remote view
//! (BL0404, a warning), a view copied after it gets its new tuple, one copied before it
//! its old one. All copies are planned first (with what earlier copies wrote) and
//! applied only if the pass found no error.

use std::collections::HashMap;

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::{has_errors, Diagnostic};
use crate::model::arena::Handle;
use crate::model::entity::EntityKind;
use crate::model::ir::{MemLoc, MemLocSet, Module, PhysTuple};
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{AddressRow, Edit, StepRow, Unit};
use crate::passes::partition::{counterpart, memlocs, nearest_names, MemlocIndex, Partition, Partitions};

/// The pass name.
pub const PASS: Pass = Pass::VncRemoteAddrMap;

/// What the pass did.
#[derive(Debug, Default)]
pub struct AddressMap {
    /// Every copy found (applied only when `failed` is false).
    pub rows: Vec<AddressRow>,
    /// Steps in order.
    pub steps: Vec<StepRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

/// A planned copy.
struct Copy {
    /// The module of the linked set it is in.
    module: usize,
    function: Handle<crate::model::ir::Function>,
    view: Handle<crate::model::ir::MemLoc>,
    view_set: Handle<MemLocSet>,
    after: PhysTuple,
}

/// Runs the pass over a linked set: the seeds' one module, or one module per core.
pub fn run(set: &mut LinkedSet, vnc_nc_count: u64, diags: &mut Vec<Diagnostic>) -> AddressMap {
    let start = diags.len();
    let mut out = AddressMap::default();
    let checked = (Code::VncAddrMapCoreCount, PASS);
    let nothing = "remote memory locations to map";
    let Some(partitions) = Partitions::checked(set, checked, vnc_nc_count, nothing, &mut out.steps, diags) else {
        out.failed = true;
        return out;
    };

    let copies = plan(set, &partitions, &mut out.rows, diags);
    out.steps.push(StepRow { name: "resolve_targets".to_owned(), changes: 0, edits: Vec::new() });
    out.failed = has_errors(&diags[start..]);
    let mut edits = Vec::new();
    if !out.failed {
        for copy in &copies {
            apply(set, copy, &mut edits);
        }
    }
    out.steps.push(StepRow { name: "copy_addresses".to_owned(), changes: edits.len() as u64, edits });
    out
}

fn join(cores: &[u64]) -> String {
    cores.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

fn plan(
    set: &LinkedSet,
    partitions: &Partitions,
    rows: &mut Vec<AddressRow>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Copy> {
    let module_of = |p: &Partition| &set.modules[p.module].module;
    let indexes: HashMap<u64, MemlocIndex<'_>> =
        partitions.iter().map(|p| (p.core, MemlocIndex::build(module_of(p), p))).collect();
    let mut copies = Vec::new();
    // The address space each view set receives, and from which owner (for BL0401).
    let mut set_spaces: HashMap<(usize, Handle<MemLocSet>), (String, String)> = HashMap::new();
    // The tuple each view receives: what a later copy reads if that view is its owner.
    let mut planned: HashMap<(usize, Handle<MemLoc>), PhysTuple> = HashMap::new();
    for partition in partitions.iter() {
        let module = module_of(partition);
        let store = &module.store;
        for at in memlocs(module, partition) {
            let view = &store.memlocs[at.memloc];
            let Some(target) = view.remote_target() else {
                continue;
            };
            let function_name = store.functions[at.function].name();
            let owner = partitions.get(target.core);
            let found = owner.and_then(|owner| {
                let prefer = counterpart((module, partition), at.function, (module_of(owner), owner));
                indexes.get(&owner.core)?.find(&target.name, prefer).map(|found| (owner, found))
            });
            let Some((owner_partition, found)) = found else {
                diags.push(missing(
                    set,
                    partitions,
                    &indexes,
                    partition,
                    view.name(),
                    function_name,
                    &target,
                    view.src.as_ref(),
                ));
                continue;
            };
            let owner_module = owner_partition.module;
            let owner_store = &module_of(owner_partition).store;
            // Sets and views as earlier copies of this pass left them.
            let space_of = |m: usize, handle: Handle<MemLocSet>| {
                set_spaces.get(&(m, handle)).map_or_else(
                    || set.modules[m].module.store.sets[handle].addr_space().to_owned(),
                    |(space, _)| space.clone(),
                )
            };
            let owner_space = space_of(owner_module, found.set);
            let view_set = &store.sets[at.set];
            let before = view.phys_tuple(&space_of(partition.module, at.set));
            let owner = &owner_store.memlocs[found.memloc];
            let after = match planned.get(&(owner_module, found.memloc)) {
                Some(copied) => PhysTuple { addr_space: owner_space.clone(), ..copied.clone() },
                None => owner.phys_tuple(&owner_space),
            };
            if let Some(further) = owner.remote_target() {
                let when = if planned.contains_key(&(owner_module, found.memloc)) {
                    format!("`{}` is copied first, so `{}` gets its new tuple", target.name, view.name())
                } else {
                    format!(
                        "`{}` is copied later, so `{}` keeps its tuple from before the pass and a second run changes it",
                        target.name,
                        view.name()
                    )
                };
                diags.push(
                    Diagnostic::new(
                        Code::ViewOfView,
                        PASS,
                        format!(
                            "`{}` on core {} targets `{}` on core {}, itself a remote view of `{}` on core {}",
                            view.name(),
                            partition.core,
                            target.name,
                            target.core,
                            further.name,
                            further.core
                        ),
                    )
                    .core(partition.core)
                    .at_key(view.src.as_ref(), "remote_local_target")
                    .entity(EntityKind::Memloc, view.name(), Some(function_name))
                    .note(when)
                    .help(format!(
                        "point `remote_local_target` at the memory location that owns the buffer (`{}` on core {}?)",
                        further.name, further.core
                    )),
                );
            }
            let owner_desc = format!("`{}` on core {}", target.name, target.core);
            match set_spaces.get(&(partition.module, at.set)) {
                Some((space, from)) if *space != owner_space => {
                    diags.push(
                        Diagnostic::new(
                            Code::ConflictingAddrSpace,
                            PASS,
                            format!(
                                "set `{}` of `{function_name}` would get address space `{space}` from {from} and `{owner_space}` from {owner_desc}",
                                view_set.name(store)
                            ),
                        )
                        .core(partition.core)
                        .at(view_set.src.as_ref())
                        .entity(EntityKind::Set, &view_set.name(store), Some(function_name)),
                    );
                }
                Some(_) => {}
                None => {
                    set_spaces.insert((partition.module, at.set), (owner_space.clone(), owner_desc));
                }
            }
            rows.push(AddressRow {
                core: partition.core,
                function: function_name.to_owned(),
                set: view_set.name(store),
                memloc: view.name().to_owned(),
                owner_core: target.core,
                owner_function: owner_store.functions[found.function].name().to_owned(),
                remote: target.name.clone(),
                before,
                after: after.clone(),
            });
            planned.insert((partition.module, at.memloc), after.clone());
            copies.push(Copy {
                module: partition.module,
                function: at.function,
                view: at.memloc,
                view_set: at.set,
                after,
            });
        }
    }
    copies
}

/// The 1514 diagnostic: what was looked for, where, and what exists instead.
#[allow(
    clippy::too_many_arguments,
    reason = "a 1514 names every one of these facts; a struct for this one call would only rename them"
)]
fn missing(
    set: &LinkedSet,
    partitions: &Partitions,
    indexes: &HashMap<u64, MemlocIndex<'_>>,
    partition: &Partition,
    view: &str,
    function: &str,
    target: &crate::model::ir::RemoteTarget,
    src: Option<&crate::model::ir::Src>,
) -> Diagnostic {
    let core = partition.core;
    // On a per-core set the modules are named (`nc00/sgLnk`, the compiler's scope);
    // in the seeds' one module, the cores.
    let message = if partition.whole {
        let owner = partitions.get(target.core).map(|p| set.modules[p.module].name.as_str()).unwrap_or("?");
        let own = set.modules[partition.module].name.as_str();
        format!(
            "could not find memory location `{}` in module `{owner}` on core {} (remote target of `{view}` in `{own}` on core {core})",
            target.name, target.core
        )
    } else {
        format!(
            "could not find memory location `{}` on core {} (remote target of `{view}` on core {core})",
            target.name, target.core
        )
    };
    let mut diagnostic = Diagnostic::new(Code::RemoteMemlocMissing, PASS, message)
        .core(core)
        .at_key(src, "remote_local_target")
        .entity(EntityKind::Memloc, view, Some(function));
    match indexes.get(&target.core) {
        Some(index) => {
            diagnostic.nearest = nearest_names(&target.name, index.names(), 3);
            let owner_name = partitions
                .get(target.core)
                .map(|p| {
                    let linked = &set.modules[p.module];
                    if p.whole {
                        linked.name.clone()
                    } else {
                        linked.module.store.functions[p.function].name().to_owned()
                    }
                })
                .unwrap_or_default();
            if diagnostic.nearest.is_empty() {
                diagnostic = diagnostic.note(format!("core {} (`{owner_name}`) has no similar name", target.core));
            }
        }
        None => {
            diagnostic = diagnostic.note(format!(
                "core {} is not in the link set (cores [{}])",
                target.core,
                partitions.cores_text()
            ));
        }
    }
    diagnostic.found_on_cores =
        indexes.iter().filter(|(_, index)| index.contains(&target.name)).map(|(core, _)| *core).collect();
    diagnostic.found_on_cores.sort_unstable();
    if !diagnostic.found_on_cores.is_empty() {
        let help = format!(
            "`{}` exists on core(s) [{}]: point `remote_local_target` at the owner core, or rename the owner's location",
            target.name,
            join(&diagnostic.found_on_cores)
        );
        diagnostic = diagnostic.help(help);
    }
    diagnostic
}

fn apply(set: &mut LinkedSet, copy: &Copy, edits: &mut Vec<Edit>) {
    let linked = &mut set.modules[copy.module];
    let module_name = linked.core.map(|_| linked.name.clone());
    let module = &mut linked.module;
    let (unit, set_name) = owner_names(module, copy);
    let before_line = print::memloc_line(module, copy.view);
    let set_before = print::set_line(module, copy.view_set);
    let PhysTuple { mem_type, addr_space, addr, bank, base, allocated } = copy.after.clone();
    let fields = &mut module.store.memlocs[copy.view].fields;
    fields.insert("type".to_owned(), Value::from(mem_type));
    fields.insert("addr".to_owned(), Value::from(addr));
    fields.insert("bank".to_owned(), Value::from(bank));
    fields.insert("base".to_owned(), Value::from(base));
    fields.insert("allocated".to_owned(), Value::from(allocated));
    module.store.sets[copy.view_set].fields.insert("addr_space".to_owned(), Value::from(addr_space));
    let set_after = print::set_line(module, copy.view_set);
    if set_before != set_after {
        edits.push(Edit {
            module: module_name.clone(),
            unit: unit.clone(),
            context: String::new(),
            before: Some(set_before),
            after: Some(set_after),
        });
    }
    edits.push(Edit {
        module: module_name,
        unit,
        context: format!("set {set_name}"),
        before: Some(before_line),
        after: Some(print::memloc_line(module, copy.view)),
    });
}

/// The unit of a copy's view (its function) and the name of its set.
fn owner_names(module: &Module, copy: &Copy) -> (Unit, String) {
    let function = module.store.functions[copy.function].name();
    (Unit::Function(function.to_owned()), module.store.sets[copy.view_set].name(&module.store))
}
