//! Step 1, `create_module`: a new module with `version` and `arch` of the base module
//! (spec §3.1) — in the modular flow a core's `ncCC/sgLnk`, tagged with the core, its
//! base the first subgraph; in the seeds' reading `<base>/sgLnk`, its base the lowest
//! core's module. The inputs are never edited; everything that follows is moved into
//! this module.

use serde_json::Value;

use super::record::Step;
use crate::model::ir::{edit_object_field, Module};
use crate::model::place::Place;
use crate::output::print;
use crate::output::report::{StepRow, Unit};
use crate::read::input::CoreModule;

/// The seeds' empty linked module and the step that made it. `modules` are in core
/// order.
pub(super) fn create(base_name: &str, modules: &[(u64, CoreModule)]) -> (Module, StepRow) {
    let linked = named(&format!("{base_name}/sgLnk"), modules.first().map(|(_, m)| &m.module));
    let step = created(&linked);
    (linked, step)
}

/// Core `core`'s empty linked module `ncCC/sgLnk`, tagged with the core, and the step
/// that made it; `base` is its first subgraph's module.
pub(super) fn create_core(core: u64, base: Option<&Module>) -> (Module, StepRow) {
    let mut linked = named(&Place::linked(core).to_string(), base);
    edit_object_field(&mut linked.fields, "attributes", |attributes| {
        attributes.insert("neuron_core_id".to_owned(), Value::from(core));
    });
    let step = created(&linked);
    (linked, step)
}

/// A new module named `name`, with `version` and `arch` of `base`.
fn named(name: &str, base: Option<&Module>) -> Module {
    let mut linked = Module::default();
    linked.fields.insert("name".to_owned(), Value::from(name));
    if let Some(base) = base {
        for key in ["version", "arch"] {
            if let Some(value) = base.fields.get(key) {
                linked.fields.insert(key.to_owned(), value.clone());
            }
        }
    }
    linked
}

fn created(linked: &Module) -> StepRow {
    let mut step = Step::new("create_module");
    step.added(&Unit::Module, "", print::module_line(linked));
    step.finish()
}
