//! One dump, summed up: each entity by key with a hash of its canonical line (what a
//! later pass is compared with), and the facts the cores are compared by — per
//! function and engine, the instructions issued before each `CoreBarrier`; per
//! function, its basic blocks and its loops' trip counts. A summary holds no dump: the
//! module is read, summed up and let go.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use crate::model::entity::{EntityKey, EntityKind};
use crate::model::ir::{Module, Op};
use crate::model::linked::{LinkedModule, LinkedSet};
use crate::model::view::JsonView;
use crate::passes::partition::mask_numbers;
use crate::passes::sync::program::trips_of;
use crate::tools::query;

/// An entity of a summary: its kind, name, line hash, and whether it is a remote view
/// of another core's memory (a core's own by nature: never a parting).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Held {
    pub kind: EntityKind,
    pub name: Box<str>,
    pub hash: u64,
    pub remote_view: bool,
}

/// A dump, summed up.
#[derive(Clone, Debug, Default)]
pub(super) struct Summary {
    /// Entities by key (without core: `inst:-:sg0000/Block1/mm_0`).
    pub entities: FxHashMap<String, Held>,
    /// Facts the cores must agree on, by what they are (`blocks sg0000`,
    /// `before barrier sg0000 SP`, `trips sg0000`), each a list of numbers.
    pub facts: BTreeMap<String, Vec<Option<u64>>>,
}

impl Summary {
    /// A module, summed up; `entity` is a name whose canonical lines are kept (its
    /// history's text).
    pub(super) fn of(module: Module, core: Option<u64>, entity: Option<&str>) -> (Summary, Vec<(String, String)>) {
        let name = module.name().to_owned();
        let set = LinkedSet { modules: vec![LinkedModule { module, core, name }] };
        let mut summary = Summary::default();
        let mut kept = Vec::new();
        for (key, at) in query::all_entities(&set) {
            let key = EntityKey { core: None, path: key.path };
            let text = key.to_string();
            let name = key.name().to_owned();
            let followed = entity.is_some_and(|e| e == name);
            // An instruction kept as its text is hashed as it is (no line printed);
            // anything else by its canonical line.
            let mut hasher = FxHasher::default();
            let remote_view = match query::kept_text_at(&set, at).filter(|_| !followed) {
                Some(kept_text) => {
                    kept_text.hash(&mut hasher);
                    false
                }
                None => {
                    let line = query::line_at(&set, at);
                    line.hash(&mut hasher);
                    if followed {
                        kept.push((text.clone(), line.clone()));
                    }
                    line.contains("remote_local_target")
                }
            };
            let held = Held { kind: key.kind(), name: name.into(), hash: hasher.finish(), remote_view };
            summary.entities.insert(text, held);
        }
        summary.facts = facts(&set.modules[0].module);
        (summary, kept)
    }
}

/// The facts of a module's functions (by function name, numbers masked, so that
/// per-core suffixes do not part them).
fn facts(module: &Module) -> BTreeMap<String, Vec<Option<u64>>> {
    let store = &module.store;
    let mut facts: BTreeMap<String, Vec<Option<u64>>> = BTreeMap::new();
    for &f in &module.functions {
        let function = mask_numbers(store.functions[f].name()).into_owned();
        let mut blocks = 0u64;
        module.walk_function_blocks(f, &mut |_| blocks += 1);
        facts.insert(format!("basic blocks of {function}"), vec![Some(blocks)]);
        // Per engine: instructions since the last barrier, each barrier closing a count.
        let mut since: BTreeMap<String, u64> = BTreeMap::new();
        let mut trips = Vec::new();
        module.walk_function(f, &mut |inst| {
            let i = &store.insts[inst];
            let engine = i.view().get("engine").and_then(|e| e.as_str().map(str::to_owned)).unwrap_or_default();
            if i.op == Op::Loop {
                trips.push(trips_of(i));
            }
            if i.op == Op::CoreBarrier {
                let before = since.remove(&engine).unwrap_or(0);
                facts
                    .entry(format!("instructions before each CoreBarrier of {function} on {engine}"))
                    .or_default()
                    .push(Some(before));
            } else {
                *since.entry(engine).or_insert(0) += 1;
            }
        });
        if !trips.is_empty() {
            facts.insert(format!("loop trip counts of {function}"), trips);
        }
    }
    facts
}
