//! What a step changed, as the canonical text before and after each change.
//!
//! Every step of the linker records its edits the same way: an entity it adds is one
//! line after; an entity it changes is its line before the change and after it. [`Step`]
//! is that sequence, written once.

use serde_json::Value;

use crate::model::ir::{Fields, Module};
use crate::output::report::{Edit, StepRow, Unit};

/// The edits of one step as they happen.
pub(super) struct Step {
    name: &'static str,
    edits: Vec<Edit>,
}

impl Step {
    /// A step with nothing recorded yet.
    pub(super) fn new(name: &'static str) -> Step {
        Step { name, edits: Vec::new() }
    }

    /// An entity the step added: its line.
    pub(super) fn added(&mut self, unit: &Unit, context: &str, line: String) {
        self.edits.push(Edit {
            module: None,
            unit: unit.clone(),
            context: context.to_owned(),
            before: None,
            after: Some(line),
        });
    }

    /// An entity the step changed: `line` before `change`, `change` itself, `line` after.
    pub(super) fn change<T>(
        &mut self,
        module: &mut Module,
        unit: &Unit,
        context: &str,
        line: impl Fn(&Module) -> String,
        change: impl FnOnce(&mut Module) -> T,
    ) -> T {
        let before = line(module);
        let result = change(module);
        let after = line(module);
        self.edits.push(Edit {
            module: None,
            unit: unit.clone(),
            context: context.to_owned(),
            before: Some(before),
            after: Some(after),
        });
        result
    }

    /// An edit recorded by hand (a before and after the step computed itself).
    pub(super) fn edit(&mut self, unit: &Unit, context: &str, before: String, after: String) {
        self.edits.push(Edit {
            module: None,
            unit: unit.clone(),
            context: context.to_owned(),
            before: Some(before),
            after: Some(after),
        });
    }

    /// The step's report row.
    pub(super) fn finish(self) -> StepRow {
        StepRow { name: self.name.to_owned(), changes: self.edits.len() as u64, edits: self.edits }
    }
}

/// The fields of a JSON object literal (`json!({...})`).
pub(super) fn fields(value: Value) -> Fields {
    match value {
        Value::Object(map) => map,
        _ => Fields::new(),
    }
}
