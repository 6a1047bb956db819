//! References inside a module (BL0201–BL0206): the names the reader recorded for each
//! instruction (`uses`) against what the module defines.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::ir::instance_source_name;
use crate::model::pass::Pass;
use crate::model::uses::UseKind;
use crate::read::input::CoreModule;

/// At most this many reference warnings of one code per module; the rest are counted.
pub const MAX_PER_CODE: usize = 20;

/// Caps reference warnings per code, then reports how many were left out.
struct Capped<'d> {
    diags: &'d mut Vec<Diagnostic>,
    counts: BTreeMap<&'static str, usize>,
    module: String,
}

impl Capped<'_> {
    fn push(&mut self, code: Code, diagnostic: impl FnOnce() -> Diagnostic) {
        let count = self.counts.entry(code.as_str()).or_insert(0);
        *count += 1;
        if *count <= MAX_PER_CODE {
            self.diags.push(diagnostic());
        }
    }

    fn finish(self) {
        for (code, count) in self.counts {
            if count > MAX_PER_CODE {
                if let Some(code) = Code::parse(code) {
                    self.diags.push(Diagnostic::new(
                        code,
                        Pass::Verify,
                        format!(
                            "{} more `{}` findings in module `{}` are not shown",
                            count - MAX_PER_CODE,
                            code.as_str(),
                            self.module
                        ),
                    ));
                }
            }
        }
    }
}

/// Judges the names the reader recorded (`CoreModule::uses`) against what the module
/// defines. Only reporting touches the instructions again.
pub(super) fn check(core_module: &CoreModule, diags: &mut Vec<Diagnostic>) {
    let module = &core_module.module;
    let store = &module.store;
    let uses = &core_module.uses;
    let mut queue_instances: FxHashMap<&str, FxHashSet<String>> = FxHashMap::default();
    for &queue in &module.queues {
        let q = &store.queues[queue];
        let names = queue_instances.entry(q.name()).or_default();
        for (i, &instance) in q.instances.iter().enumerate() {
            names.insert(instance_source_name(q.name(), store.instances[instance].name(), i));
        }
    }
    let set_names: Vec<String> = store.sets.iter().map(|(_, s)| s.name(store)).collect();
    let mut storage: FxHashSet<&str> = store.memlocs.iter().map(|(_, m)| m.name()).collect();
    storage.extend(set_names.iter().map(String::as_str));
    let functions: FxHashSet<&str> = module.functions.iter().map(|&f| store.functions[f].name()).collect();
    let mut out = Capped { diags, counts: BTreeMap::new(), module: core_module.name.clone() };
    for function_uses in &uses.functions {
        let Some(function) = function_uses.function else { continue };
        let fname = store.functions[function].name();
        let mut blocks: FxHashSet<&str> = FxHashSet::default();
        module.walk_function_blocks(function, &mut |b| {
            blocks.insert(store.blocks[b].name());
        });
        for u in &function_uses.uses {
            let name = uses.name(u.name);
            let inst = &store.insts[u.inst];
            let what = || format!("instruction `{}` in function `{fname}`", inst.name());
            let found = match u.kind {
                UseKind::Queue => queue_instances.contains_key(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownQueue,
                        format!("{} uses queue `{name}`, which module `{}` does not have", what(), core_module.name),
                    )
                }),
                UseKind::Instance { queue } => {
                    let queue = uses.name(queue);
                    match queue_instances.get(queue) {
                        Some(instances) if !instances.contains(name) => Err((
                            Code::UnknownQueueInstance,
                            format!("{} switches to instance `{name}`, which queue `{queue}` does not have", what()),
                        )),
                        _ => Ok(()),
                    }
                }
                UseKind::Block => blocks.contains(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownBlock,
                        format!("{} branches to block `{name}`, which the function does not have", what()),
                    )
                }),
                UseKind::Memref => storage.contains(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownMemloc,
                        format!(
                            "{} reads or writes `{name}`, which module `{}` does not allocate",
                            what(),
                            core_module.name
                        ),
                    )
                }),
                UseKind::Call => functions.contains(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownCallTarget,
                        format!("{} calls `{name}`, which module `{}` does not have", what(), core_module.name),
                    )
                }),
                UseKind::MissingDependency => Err((
                    Code::UnknownDependency,
                    format!("{} depends on `{name}`, which the function does not have", what()),
                )),
            };
            if let Err((code, message)) = found {
                out.push(code, || {
                    Diagnostic::new(code, Pass::Verify, message).at(inst.src.as_ref()).entity(
                        EntityKind::Instruction,
                        inst.name(),
                        Some(fname),
                    )
                });
            }
        }
    }
    out.finish();
}
