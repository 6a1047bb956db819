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
use crate::passes::partition::{mask_numbers, mask_numbers_into};
use crate::passes::sync::program::trips_of;
use crate::tools::query;

/// An entity of a summary: its kind, its name (a range of the summary's names), its
/// line's hash, its parent's key and its key with numbers masked (hashed), and whether
/// it is a remote view of another core's memory (a core's own by nature: never a
/// parting). 40 bytes: a 75k-instruction module's summary is a few MB.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Held {
    pub kind: EntityKind,
    pub remote_view: bool,
    /// Its name: `start..start + len` of [`Summary::names`].
    name: (u32, u32),
    /// Its canonical line (or kept text), hashed: compared within one run.
    pub hash: u64,
    /// Its parent's key (`inst:-:sg0000/Block1` for `…/Block1/mm_0`), hashed.
    pub parent: u64,
    /// Its key with numbers masked (`memloc:-:sg####/buf.#`), hashed.
    pub masked: u64,
}

/// A dump, summed up.
#[derive(Clone, Debug, Default)]
pub(super) struct Summary {
    /// Entities by key (without core: `inst:-:sg0000/Block1/mm_0`), hashed
    /// ([`stable_hash`]).
    pub entities: FxHashMap<u64, Held>,
    /// Every entity's name, one after another.
    names: String,
    /// Facts the cores must agree on, by what they are (`blocks sg0000`,
    /// `before barrier sg0000 SP`, `trips sg0000`), each a list of numbers.
    pub facts: BTreeMap<String, Vec<Option<u64>>>,
}

/// A 64-bit hash of bytes that is the same on every platform (a key's: the hash is
/// its identity across the dumps, and a tie between entities is broken by it), unlike
/// `FxHasher`'s, which works in `usize`s.
pub(super) fn stable_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    // The final mix (MurmurHash3's), so that close keys land far apart.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

impl Summary {
    /// An entity's name.
    pub(super) fn name(&self, held: &Held) -> &str {
        let (start, len) = held.name;
        &self.names[start as usize..(start + len) as usize]
    }

    /// A module, summed up; `entity` is a name whose canonical lines are kept (its
    /// history's text).
    pub(super) fn of(module: Module, core: Option<u64>, entity: Option<&str>) -> (Summary, Vec<(String, String)>) {
        use std::fmt::Write as _;
        let name = module.name().to_owned();
        let set = LinkedSet { modules: vec![LinkedModule { module, core, name }] };
        let mut summary = Summary::default();
        let mut kept = Vec::new();
        // One buffer for every key, one for its masked form: no string per entity.
        let (mut text, mut masked) = (String::new(), String::new());
        query::each_entity(&set, &mut |key, at| {
            let key = EntityKey { core: None, path: key.path };
            text.clear();
            let _ = write!(text, "{key}");
            let followed = entity.is_some_and(|e| e == key.name());
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
            summary.hold(&key, &text, &mut masked, hasher.finish(), remote_view);
        });
        summary.names.shrink_to_fit();
        summary.facts = facts(&set.modules[0].module);
        (summary, kept)
    }

    /// A module summed up for the entities named `entity` alone, as [`Summary::of`]
    /// sums them up (their lines kept): what an entity's history compares when no pass
    /// table is asked for. No facts.
    pub(super) fn of_entity(module: Module, core: Option<u64>, entity: &str) -> (Summary, Vec<(String, String)>) {
        let name = module.name().to_owned();
        let set = LinkedSet { modules: vec![LinkedModule { module, core, name }] };
        let mut summary = Summary::default();
        let mut kept = Vec::new();
        let mut masked = String::new();
        query::each_entity_named(&set, entity, &mut |key, at| {
            let key = EntityKey { core: None, path: key.path };
            let text = key.to_string();
            let line = query::line_at(&set, at);
            let mut hasher = FxHasher::default();
            line.hash(&mut hasher);
            summary.hold(&key, &text, &mut masked, hasher.finish(), line.contains("remote_local_target"));
            kept.push((text, line));
        });
        (summary, kept)
    }

    /// Holds an entity: `text` is its key printed, `hash` its line's (or kept text's).
    fn hold(&mut self, key: &EntityKey, text: &str, masked: &mut String, hash: u64, remote_view: bool) {
        let name = key.name();
        let parent = text.rsplit_once('/').map_or("", |(parent, _)| parent);
        mask_numbers_into(text, masked);
        let at_name = (self.names.len() as u32, name.len() as u32);
        self.names.push_str(name);
        let held = Held {
            kind: key.kind(),
            remote_view,
            name: at_name,
            hash,
            parent: stable_hash(parent.as_bytes()),
            masked: stable_hash(masked.as_bytes()),
        };
        self.entities.insert(stable_hash(text.as_bytes()), held);
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
