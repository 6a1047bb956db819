//! What a run links into (docs/spec/link.md §6): the linked set.
//!
//! In the compiler's flows it is one module per core — each core's `ncCC/sgLnk` in the
//! modular flow, each core's only subgraph module in the flat flow — and the VNC passes
//! run across them. In the seeds' reading it is one module holding every core, each
//! core a partition of it (its functions' and queue instances' `neuron_core_id` tags).
//! `linked.json` is its one module (the seeds' reading) or a bundle of its modules.

use super::ir::Module;

/// One module of the linked set.
#[derive(Clone, Debug)]
pub struct LinkedModule {
    /// The module.
    pub module: Module,
    /// The core whose module it is; `None` for the seeds' one module of every core.
    pub core: Option<u64>,
    /// Its name as the link set knows it: its `name` key, else what its path says
    /// (`nc01`), as the input rows and diagnostics name it.
    pub name: String,
}

/// The linked set: its modules, in core order.
#[derive(Clone, Debug, Default)]
pub struct LinkedSet {
    /// The modules.
    pub modules: Vec<LinkedModule>,
}

impl LinkedSet {
    /// The seeds' reading: one module, every core a partition of it.
    pub fn one(module: Module) -> LinkedSet {
        let name = module.name().to_owned();
        LinkedSet { modules: vec![LinkedModule { module, core: None, name }] }
    }

    /// One module per core, in core order. With several cores, a module that said its
    /// core only by its file's path (`nc01/sg00/…`) is given `attributes.neuron_core_id`,
    /// as the compiler's modules carry it, so that `linked.json` (a bundle, with no
    /// paths) reads back to the same places.
    pub fn per_core(mut modules: Vec<(u64, String, Module)>) -> LinkedSet {
        modules.sort_by_key(|(core, _, _)| *core);
        let several = modules.len() > 1;
        let modules = modules
            .into_iter()
            .map(|(core, name, mut module)| {
                let taggable = matches!(module.fields.get("attributes"), None | Some(serde_json::Value::Object(_)));
                if several && module.core_id().is_none() && taggable {
                    super::ir::edit_object_field(&mut module.fields, "attributes", |attributes| {
                        attributes.insert("neuron_core_id".to_owned(), serde_json::Value::from(core));
                    });
                }
                LinkedModule { module, core: Some(core), name }
            })
            .collect();
        LinkedSet { modules }
    }

    /// Whether it is one module per core (the compiler's flows).
    pub fn is_per_core(&self) -> bool {
        self.modules.iter().any(|m| m.core.is_some())
    }

    /// The modules.
    pub fn iter(&self) -> impl Iterator<Item = &Module> {
        self.modules.iter().map(|m| &m.module)
    }

    /// The module of a core, in the compiler's flows; the one module in the seeds'.
    pub fn module_of(&self, core: Option<u64>) -> Option<&Module> {
        match self.modules.as_slice() {
            [one] if one.core.is_none() => Some(&one.module),
            modules => modules.iter().find(|m| m.core.is_some() && m.core == core).map(|m| &m.module),
        }
    }

    /// The seeds' one module, when it is one.
    pub fn single(&self) -> Option<&Module> {
        match self.modules.as_slice() {
            [one] if one.core.is_none() => Some(&one.module),
            _ => None,
        }
    }
}
