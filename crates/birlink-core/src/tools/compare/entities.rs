//! Entities matched by key across the two sides: added, removed, changed (with both
//! canonical lines), and each core's first divergence in walk order.
//!
//! B's keys are read in A's terms first: B's core through the core map, and B's core
//! function's name as A's (so `nc01` compared with A's `nc00` under `--core-map 0:1`
//! finds its entities); with normalization on, keys and lines are compared with their
//! digits masked.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::options::{CompareOptions, Masked, Normalization};
use crate::model::entity::{EntityKey, EntityKind, EntityPath};
use crate::model::linked::LinkedSet;
use crate::passes::partition::Partitions;
use crate::passes::Outcome;
use crate::tools::query::{self, EntityAt};

/// At most this many keys in each of `added`, `removed`, `changed`; the counts by kind
/// are always complete.
pub const LIST_MAX: usize = 500;

/// A changed entity: its key and its canonical line on both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changed {
    /// A's key.
    pub key: String,
    /// B's key, when it is written otherwise (another core, numbers normalized).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_b: Option<String>,
    /// A's line.
    pub a: String,
    /// B's line.
    pub b: String,
}

/// `entities`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityChanges {
    /// Keys in B and not in A.
    pub added: Vec<String>,
    /// Keys in A and not in B.
    pub removed: Vec<String>,
    /// Keys in both whose lines differ.
    pub changed: Vec<Changed>,
    /// Per kind: how many added, removed, changed.
    pub by_kind: BTreeMap<String, [u64; 3]>,
    /// Whether a list stopped at [`LIST_MAX`].
    pub truncated: bool,
}

impl EntityChanges {
    /// Whether nothing was added, removed or changed.
    pub fn is_empty(&self) -> bool {
        self.by_kind.is_empty()
    }
}

/// An instruction's place on one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Its key.
    pub key: String,
    /// Its canonical line.
    pub text: String,
    /// The kernel line behind it, when the dump carries one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// `first_divergence[]`: where a core's instructions first part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    /// A's core.
    pub core: u64,
    /// B's core.
    pub core_b: u64,
    /// The position in walk order (functions, blocks depth-first, then queue instances).
    pub index: u64,
    /// A's instruction there (`None`: A has no more).
    pub a: Option<Place>,
    /// B's.
    pub b: Option<Place>,
}

/// B's core function names → A's, for the mapped cores.
fn function_names(a: &Outcome, b: &Outcome, pairs: &[(u64, u64)]) -> BTreeMap<String, String> {
    let (Some(sa), Some(sb)) = (&a.linked, &b.linked) else { return BTreeMap::new() };
    let (pa, pb) = (Partitions::of_set(sa), Partitions::of_set(sb));
    let mut out = BTreeMap::new();
    for &(core_a, core_b) in pairs {
        if let (Some(x), Some(y)) = (pa.get(core_a), pb.get(core_b)) {
            let (ma, mb) = (&sa.modules[x.module].module, &sb.modules[y.module].module);
            let (name_a, name_b) = (ma.store.functions[x.function].name(), mb.store.functions[y.function].name());
            if name_a != name_b {
                out.insert(name_b.to_owned(), name_a.to_owned());
            }
        }
    }
    out
}

/// B's key in A's terms.
fn in_a_terms(key: &EntityKey, options: &CompareOptions, names: &BTreeMap<String, String>) -> EntityKey {
    let rename = |function: &str| -> String {
        for (from, to) in names {
            if function == from {
                return to.clone();
            }
            if let Some(rest) = function.strip_prefix(from.as_str()).and_then(|r| r.strip_prefix('/')) {
                return format!("{to}/{rest}");
            }
        }
        function.to_owned()
    };
    let path = match &key.path {
        EntityPath::Function { function } => EntityPath::Function { function: rename(function) },
        EntityPath::Block { function, block } => EntityPath::Block { function: rename(function), block: block.clone() },
        EntityPath::Instruction { function, block, name, occurrence } => EntityPath::Instruction {
            function: rename(function),
            block: block.clone(),
            name: name.clone(),
            occurrence: *occurrence,
        },
        EntityPath::Set { function, set } => EntityPath::Set { function: rename(function), set: set.clone() },
        EntityPath::Memloc { function, memloc } => {
            EntityPath::Memloc { function: rename(function), memloc: memloc.clone() }
        }
        other => other.clone(),
    };
    EntityKey { core: key.core.map(|c| options.a_core(c).unwrap_or(c)), path }
}

/// One side's entities as a comparison reads them: keys and handles, each line printed
/// only when a comparison needs it.
struct Entities<'m> {
    module: Option<&'m LinkedSet>,
    all: Vec<(EntityKey, EntityAt)>,
}

impl<'m> Entities<'m> {
    fn of(outcome: &'m Outcome) -> Self {
        let module = outcome.linked.as_ref();
        Entities { module, all: module.map(query::all_entities).unwrap_or_default() }
    }

    fn key(&self, i: usize) -> &EntityKey {
        &self.all[i].0
    }

    fn line(&self, i: usize) -> String {
        self.module.map(|m| query::line_at(m, self.all[i].1)).unwrap_or_default()
    }

    fn place(&self, i: usize) -> Place {
        Place {
            key: self.key(i).to_string(),
            text: self.line(i),
            source: self.module.and_then(|m| query::source_at(m, self.all[i].1)),
        }
    }
}

/// Whether A's `i`-th entity and B's `j`-th print the same line once normalized: two
/// instructions holding the same JSON are not printed (most of a comparison of two
/// runs of one program); the others are.
fn same_line(a: &Entities, i: usize, b: &Entities, j: usize, norm: super::Normalize) -> bool {
    if let (Some(ma), Some(mb)) = (a.module, b.module) {
        if query::same_instruction(ma, a.all[i].1, mb, b.all[j].1) {
            return true;
        }
    }
    let (x, y) = (a.line(i), b.line(j));
    norm.apply(&x) == norm.apply(&y)
}

/// The entity changes and the first divergences.
pub fn compare(
    a: &Outcome,
    b: &Outcome,
    options: &CompareOptions,
    pairs: &[(u64, u64)],
    normalization: &mut Normalization,
) -> (EntityChanges, Vec<Divergence>) {
    let norm = options.normalize;
    let (side_a, side_b) = (Entities::of(a), Entities::of(b));
    let names = function_names(a, b, pairs);

    // Each side's entities by compared key, in module order; a key repeated once
    // normalized counts its occurrences.
    let mut examples: Vec<Masked> = Vec::new();
    let mut keyed = |side: &Entities, b_side: bool| -> BTreeMap<String, Vec<usize>> {
        let mut by: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, (key, _)) in side.all.iter().enumerate() {
            let text = if b_side { in_a_terms(key, options, &names).to_string() } else { key.to_string() };
            let compared = match norm.apply(&text) {
                std::borrow::Cow::Borrowed(_) => text,
                std::borrow::Cow::Owned(compared) => {
                    normalization.keys_changed += 1;
                    if examples.len() < Normalization::EXAMPLES && !examples.iter().any(|m| m.compared == compared) {
                        examples.push(Masked { written: text, compared: compared.clone() });
                    }
                    compared
                }
            };
            by.entry(compared).or_default().push(i);
        }
        by
    };
    let by_a = keyed(&side_a, false);
    let by_b = keyed(&side_b, true);
    normalization.examples = examples;

    let mut changes = EntityChanges::default();
    let kind = |key: &EntityKey| key.kind().as_str().to_owned();
    let push = |list: usize, changes: &mut EntityChanges, kind: String| {
        changes.by_kind.entry(kind).or_insert([0; 3])[list] += 1;
    };
    for (compared, at_a) in &by_a {
        let at_b = by_b.get(compared).map(Vec::as_slice).unwrap_or(&[]);
        for (k, &i) in at_a.iter().enumerate() {
            let key = side_a.key(i);
            match at_b.get(k) {
                None => {
                    push(1, &mut changes, kind(key));
                    if changes.removed.len() < LIST_MAX {
                        changes.removed.push(key.to_string());
                    } else {
                        changes.truncated = true;
                    }
                }
                Some(&j) if !same_line(&side_a, i, &side_b, j, norm) => {
                    push(2, &mut changes, kind(key));
                    if changes.changed.len() < LIST_MAX {
                        let (ka, kb) = (key.to_string(), side_b.key(j).to_string());
                        changes.changed.push(Changed {
                            key_b: (kb != ka).then_some(kb),
                            key: ka,
                            a: side_a.line(i),
                            b: side_b.line(j),
                        });
                    } else {
                        changes.truncated = true;
                    }
                }
                Some(_) => {}
            }
        }
    }
    for (compared, at_b) in &by_b {
        let in_a = by_a.get(compared).map_or(0, Vec::len);
        for &j in at_b.iter().skip(in_a) {
            let key = side_b.key(j);
            push(0, &mut changes, kind(key));
            if changes.added.len() < LIST_MAX {
                changes.added.push(key.to_string());
            } else {
                changes.truncated = true;
            }
        }
    }

    // First divergence: each core's instructions in walk order, position by position.
    let instructions = |side: &Entities, core: u64| -> Vec<usize> {
        (0..side.all.len())
            .filter(|&i| side.all[i].0.core == Some(core) && side.all[i].1.kind() == EntityKind::Instruction)
            .collect()
    };
    let mut divergences = Vec::new();
    for &(core_a, core_b) in pairs {
        let (ia, ib) = (instructions(&side_a, core_a), instructions(&side_b, core_b));
        let at = (0..ia.len().max(ib.len())).find(|&k| match (ia.get(k), ib.get(k)) {
            (Some(&x), Some(&y)) => !same_line(&side_a, x, &side_b, y, norm),
            _ => true,
        });
        if let Some(k) = at {
            divergences.push(Divergence {
                core: core_a,
                core_b,
                index: k as u64,
                a: ia.get(k).map(|&i| side_a.place(i)),
                b: ib.get(k).map(|&j| side_b.place(j)),
            });
        }
    }
    (changes, divergences)
}
