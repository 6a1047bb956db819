//! Step 1, `create_module`: a new module `<base>/sgLnk`, with `version` and `arch` of
//! the base module (spec §3.1). The inputs are never edited; everything that follows is
//! moved into this module.

use serde_json::Value;

use super::record::Step;
use crate::model::ir::Module;
use crate::output::print;
use crate::output::report::{StepRow, Unit};
use crate::read::input::CoreModule;

/// The empty linked module and the step that made it. `modules` are in core order.
pub(super) fn create(base_name: &str, modules: &[(u64, CoreModule)]) -> (Module, StepRow) {
    let mut linked = Module::default();
    linked.fields.insert("name".to_owned(), Value::from(format!("{base_name}/sgLnk")));
    if let Some((_, base)) = modules.first() {
        for key in ["version", "arch"] {
            if let Some(value) = base.module.fields.get(key) {
                linked.fields.insert(key.to_owned(), value.clone());
            }
        }
    }
    let mut step = Step::new("create_module");
    step.added(&Unit::Module, "", print::module_line(&linked));
    (linked, step.finish())
}
