//! Module identity in the seeds' reading (1203, BL0101, BL0102, BL0104, BL0105, BL0308):
//! who each module is, and whether the set can be linked at all; and the check every
//! flow makes of every module, BL0105 (a module with no function to clone).

use std::collections::{BTreeMap, HashMap};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::pass::Pass;
use crate::read::input::{CoreModule, LinkSet};

/// The core id of each module, when every identity check holds.
pub(super) fn check(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> Option<Vec<u64>> {
    let n = set.modules.len() as u64;
    let mut ok = true;
    let mut cores = Vec::with_capacity(set.modules.len());
    let mut seen: BTreeMap<u64, &CoreModule> = BTreeMap::new();
    for module in &set.modules {
        let src = module.module.src.as_ref();
        let core = match module.core {
            Some(core) => core,
            None if n == 1 => 0,
            None => {
                ok = false;
                let diagnostic = Diagnostic::new(
                    Code::MissingCoreId,
                    Pass::Verify,
                    format!("module `{}` has no `attributes.neuron_core_id` and {n} modules are linked", module.name),
                )
                .entity(EntityKind::Module, &module.name, None);
                diags.push(if module.module.fields.contains_key("attributes") {
                    diagnostic.at_key(src, "attributes")
                } else {
                    diagnostic.at(src)
                });
                continue;
            }
        };
        if core >= n {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::CoreOutOfRange,
                    Pass::Verify,
                    format!("module `{}` has core id {core}, but {n} module(s) make cores 0..{}", module.name, n - 1),
                )
                .core(core)
                .at(src)
                .entity(EntityKind::Module, &module.name, None)
                .help(format!(
                    "give the module(s) of the missing core(s), or fix the core id; with {n} modules the ids are 0..{}",
                    n - 1
                )),
            );
        }
        if let Some(first) = seen.get(&core) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateCore,
                    Pass::Verify,
                    format!("modules `{}` and `{}` both have core id {core}", first.name, module.name),
                )
                .core(core)
                .at(src)
                .entity(EntityKind::Module, &module.name, None)
                .note(format!("`{}` is in `{}`", first.name, set.path(first.file)))
                .note(format!("`{}` is in `{}`", module.name, set.path(module.file))),
            );
        } else {
            seen.insert(core, module);
        }
        cores.push(core);
    }
    let mut names: HashMap<&str, &CoreModule> = HashMap::new();
    for module in &set.modules {
        let src = module.module.src.as_ref();
        if module.name == "main" {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateModuleName,
                    Pass::Verify,
                    "module name `main` collides with the dispatcher function `main`",
                )
                .at(src)
                .entity(EntityKind::Module, &module.name, None)
                .help("rename the module (its `name` key or its file)"),
            );
        }
        if let Some(first) = names.insert(&module.name, module) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateModuleName,
                    Pass::Verify,
                    format!(
                        "two modules are named `{}` (in `{}` and `{}`)",
                        module.name,
                        set.path(first.file),
                        set.path(module.file)
                    ),
                )
                .at(src)
                .entity(EntityKind::Module, &module.name, None),
            );
        }
        if !crate::passes::partition::Partitions::of(&module.module).is_empty() {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::AlreadyLinked,
                    Pass::Verify,
                    format!(
                        "module `{}` is already linked: its functions carry `attributes.neuron_core_id`",
                        module.name
                    ),
                )
                .at(src)
                .entity(EntityKind::Module, &module.name, None),
            );
        }
        if let Some(diagnostic) = no_functions(module) {
            ok = false;
            diags.push(diagnostic);
        }
    }
    ok.then_some(cores)
}

/// BL0105 for every module with no functions; whether every module has some.
pub(super) fn every_module_has_functions(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> bool {
    let before = diags.len();
    diags.extend(set.modules.iter().filter_map(no_functions));
    diags.len() == before
}

/// BL0105: a module with no functions has nothing to link.
fn no_functions(module: &CoreModule) -> Option<Diagnostic> {
    module.module.functions.is_empty().then(|| {
        Diagnostic::new(Code::NoFunctions, Pass::Verify, format!("module `{}` has no functions to link", module.name))
            .at(module.module.src.as_ref())
            .entity(EntityKind::Module, &module.name, None)
    })
}
