//! Step 3, `copy_functions`: each module moved into the linked module (spec §3.3;
//! `copyModulesAsFunctions`).
//!
//! A module's arenas are appended to the linked module's through explicit per-kind
//! `HandleMap`s, every handle inside the moved entities rewritten (naga's `compact`
//! idiom). Its entry function (`main`, else the first) becomes the core function,
//! named after the module, tagged with the core and carrying `source_module` (the
//! module's other top-level keys) and `source_function`; its other functions follow
//! as `<module>/<name>`. `Call`s between the module's functions follow the renames.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::dispatcher::call_name;
use super::record::{fields, Step};
use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::entity::EntityKind;
use crate::model::ir::{edit_object_field, str_field, Fields, Function, Module, Op, Queue, Src};
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{StepRow, Unit};
use crate::read::input::CoreModule;

/// Moves every module into the linked module, in core order.
pub(super) fn copy_modules(
    linked: &mut Module,
    modules: Vec<(u64, CoreModule)>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<CoreInfo>, StepRow) {
    let mut step = Step::new("copy_functions");
    let mut cores = Vec::with_capacity(modules.len());
    for (core, module) in modules {
        let definition = Definition { core, def: core, call: call_name(core), name: module.name.clone() };
        cores.push(copy_module(linked, definition, module, &mut step, diags));
    }
    (cores, step.finish())
}

/// What a module becomes in the linked module: its core's tag, the definition it is,
/// its first call, and its entry function's new name (the seeds' reading: the core's
/// module's name; the modular flow: `sg0000`, …).
pub(super) struct Definition {
    pub(super) core: u64,
    pub(super) def: u64,
    pub(super) call: String,
    pub(super) name: String,
}

/// Moves one module's functions and queues into the linked module: the entry function
/// (`main`, else the first) named `definition.name`, the others `<name>/<their name>`,
/// every one tagged with the core.
pub(super) fn copy_module(
    linked: &mut Module,
    definition: Definition,
    core_module: CoreModule,
    step: &mut Step,
    diags: &mut Vec<Diagnostic>,
) -> CoreInfo {
    let Definition { core, def, call, name } = definition;
    let CoreModule { module, .. } = core_module;
    let Module { fields: module_fields, functions, queues, store, src: _ } = module;
    let maps = linked.store.append(store);
    let functions: Vec<Handle<Function>> = functions.iter().map(|&f| maps.functions.get(f)).collect();
    let queues: Vec<Handle<Queue>> = queues.iter().map(|&q| maps.queues.get(q)).collect();
    let entry = functions
        .iter()
        .copied()
        .find(|&f| linked.store.functions[f].name() == "main")
        .or_else(|| functions.first().copied());
    let mut ordered = Vec::with_capacity(functions.len());
    ordered.extend(entry);
    ordered.extend(functions.iter().copied().filter(|&f| Some(f) != entry));
    let mut renames: HashMap<String, String> = HashMap::new();
    let source_module = Value::Object(module_fields);
    for &function in &ordered {
        let old_name = linked.store.functions[function].name().to_owned();
        let new_name = if Some(function) == entry { name.clone() } else { format!("{name}/{old_name}") };
        let before = format!("function {}", print::name_text(&old_name));
        let f = &mut linked.store.functions[function];
        warn_attributes(&f.fields, EntityKind::Function, &old_name, core, f.src.as_ref(), diags);
        f.fields.insert("name".to_owned(), Value::from(new_name.clone()));
        f.fields.insert("source_function".to_owned(), Value::from(old_name.clone()));
        edit_object_field(&mut f.fields, "attributes", |attributes| {
            attributes.insert("neuron_core_id".to_owned(), Value::from(core));
        });
        if Some(function) == entry {
            f.fields.insert("source_module".to_owned(), source_module.clone());
        }
        linked.functions.push(function);
        step.edit(&Unit::Function(new_name.clone()), "", before, print::function_line(linked, function));
        renames.insert(old_name, new_name);
    }
    // Calls between the module's functions follow the renames.
    for &function in &ordered {
        let mut calls = Vec::new();
        linked.walk_function(function, &mut |inst| {
            if linked.store.insts[inst].op == Op::Call {
                calls.push(inst);
            }
        });
        let unit = Unit::Function(linked.store.functions[function].name().to_owned());
        for call in calls {
            let Some(target) = str_field(&linked.store.insts[call].fields(), "target").map(str::to_owned) else {
                continue;
            };
            let Some(new_target) = renames.get(&target) else {
                continue;
            };
            let new_target = Value::from(new_target.clone());
            step.change(
                linked,
                &unit,
                "",
                |m| print::inst_line(m, call),
                |m| m.store.insts[call].fields_mut().insert("target".to_owned(), new_target),
            );
        }
    }
    let function = match entry {
        Some(function) => function,
        // `verify` rejects a module without functions (BL0105); should one get here
        // anyway, it links as an empty core function rather than vanish.
        None => {
            let mut f =
                Function { fields: fields(json!({"name": name, "source_function": ""})), ..Function::default() };
            edit_object_field(&mut f.fields, "attributes", |attributes| {
                attributes.insert("neuron_core_id".to_owned(), Value::from(core));
            });
            f.fields.insert("source_module".to_owned(), source_module);
            let function = linked.store.functions.push(f);
            linked.functions.push(function);
            ordered.push(function);
            function
        }
    };
    CoreInfo { core, def, call, name, function, functions: ordered, queues }
}

/// BL0306: tagging needs `attributes` to be an object; an old list form is moved aside.
pub(super) fn warn_attributes(
    fields: &Fields,
    kind: EntityKind,
    name: &str,
    core: u64,
    src: Option<&Src>,
    diags: &mut Vec<Diagnostic>,
) {
    match fields.get("attributes") {
        None | Some(Value::Object(_)) => {}
        Some(other) => diags.push(
            Diagnostic::new(
                Code::AttributesReplaced,
                Pass::BirLinker,
                format!(
                    "`attributes` of {kind} `{name}` (core {core}) is {}, not an object; it is kept as `source_attributes`",
                    crate::diag::describe::type_name(other)
                ),
            )
            .core(core)
            .at(src)
            .entity(kind, name, None),
        ),
    }
}

/// One core being linked, once its module has been copied in (step 3).
pub(super) struct CoreInfo {
    pub(super) core: u64,
    /// The definition it is (the seeds' reading: the core; the modular flow: the
    /// netlist's definition id): instances are renamed `<instance>_defId_<def>`.
    pub(super) def: u64,
    /// The name of its first call (`call_def_<def>_instance_0`), which its queue switch
    /// and return are named after.
    pub(super) call: String,
    /// The module's name: the core function's name.
    pub(super) name: String,
    /// The core function.
    pub(super) function: Handle<Function>,
    /// All of its functions, the core function first.
    pub(super) functions: Vec<Handle<Function>>,
    /// Its queues (moved handles), in module order.
    pub(super) queues: Vec<Handle<Queue>>,
}
