//! Names unique in their container (BL0103): BIR refers to everything by name.

use std::collections::HashSet;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::entity::EntityKind;
use crate::model::ir::{instance_source_name, Allocation, MemLocSet, Src};
use crate::model::pass::Pass;
use crate::read::input::CoreModule;

/// Reports the second and later holders of a name.
struct Unique<'a> {
    seen: HashSet<&'a str>,
}

impl<'a> Unique<'a> {
    fn new() -> Self {
        Unique { seen: HashSet::new() }
    }

    fn check(
        &mut self,
        name: &'a str,
        what: EntityKind,
        container: &str,
        src: Option<&Src>,
        diags: &mut Vec<Diagnostic>,
    ) {
        if name.is_empty() {
            return;
        }
        if !self.seen.insert(name) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateName,
                    Pass::Verify,
                    format!("{container} has two {what}s named `{name}`"),
                )
                .at(src)
                .entity(what, name, None),
            );
        }
    }
}

/// Reports the second and later holders of each name in each container.
pub(super) fn check(core_module: &CoreModule, diags: &mut Vec<Diagnostic>) {
    let module = &core_module.module;
    let store = &module.store;
    let mut functions = Unique::new();
    let module_what = format!("module `{}`", core_module.name);
    for &function in &module.functions {
        let f = &store.functions[function];
        functions.check(f.name(), EntityKind::Function, &module_what, f.src.as_ref(), diags);
        let function_what = format!("function `{}` of module `{}`", f.name(), core_module.name);
        let mut sets = Unique::new();
        let mut memlocs = Unique::new();
        let set_names: Vec<(String, Handle<MemLocSet>)> = f
            .allocations
            .iter()
            .filter_map(|a| match a {
                Allocation::Set(set) => Some((store.sets[*set].name(store), *set)),
                Allocation::Other(_) => None,
            })
            .collect();
        for (name, set) in &set_names {
            sets.check(name, EntityKind::Set, &function_what, store.sets[*set].src.as_ref(), diags);
            for &memloc in &store.sets[*set].memlocs {
                let m = &store.memlocs[memloc];
                memlocs.check(m.name(), EntityKind::Memloc, &function_what, m.src.as_ref(), diags);
            }
        }
        let mut blocks = Unique::new();
        module.walk_function_blocks(function, &mut |block| {
            let b = &store.blocks[block];
            blocks.check(b.name(), EntityKind::Block, &function_what, b.src.as_ref(), diags);
        });
    }
    let mut queues = Unique::new();
    for &queue in &module.queues {
        let q = &store.queues[queue];
        queues.check(q.name(), EntityKind::Queue, &module_what, q.src.as_ref(), diags);
        let queue_what = format!("queue `{}` of module `{}`", q.name(), core_module.name);
        let effective: Vec<(String, Option<&Src>)> = q
            .instances
            .iter()
            .enumerate()
            .map(|(i, &instance)| {
                let inst = &store.instances[instance];
                (instance_source_name(q.name(), inst.name(), i), inst.src.as_ref())
            })
            .collect();
        let mut instances = Unique::new();
        for (name, src) in &effective {
            instances.check(name, EntityKind::Instance, &queue_what, *src, diags);
        }
    }
}
