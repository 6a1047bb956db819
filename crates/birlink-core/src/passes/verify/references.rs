//! References inside a module (BL0201–BL0206): the names the reader recorded for each
//! instruction (`uses`) against what the module defines.

use std::collections::BTreeMap;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::pass::Pass;
use crate::model::uses::{Defined, Miss};
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
    let defined = Defined::of(module);
    let mut out = Capped { diags, counts: BTreeMap::new(), module: core_module.name.clone() };
    for function_uses in &uses.functions {
        let Some(function) = function_uses.function else { continue };
        let fname = store.functions[function].name();
        let blocks = defined.blocks(function);
        for u in &function_uses.uses {
            let name = uses.name(u.name);
            let inst = &store.insts[u.inst];
            let what = || format!("instruction `{}` in function `{fname}`", inst.name());
            let found = match defined.miss(u, name, &blocks) {
                None => Ok(()),
                Some(Miss::Queue) => Err((
                    Code::UnknownQueue,
                    format!("{} uses queue `{name}`, which module `{}` does not have", what(), core_module.name),
                )),
                Some(Miss::Instance { queue }) => Err((
                    Code::UnknownQueueInstance,
                    format!("{} switches to instance `{name}`, which queue `{queue}` does not have", what()),
                )),
                Some(Miss::Block) => Err((
                    Code::UnknownBlock,
                    format!("{} branches to block `{name}`, which the function does not have", what()),
                )),
                Some(Miss::Memref) => Err((
                    Code::UnknownMemloc,
                    format!(
                        "{} reads or writes `{name}`, which module `{}` does not allocate",
                        what(),
                        core_module.name
                    ),
                )),
                Some(Miss::Call) => Err((
                    Code::UnknownCallTarget,
                    format!("{} calls `{name}`, which module `{}` does not have", what(), core_module.name),
                )),
                Some(Miss::Dependency) => Err((
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
