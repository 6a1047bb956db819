//! Questions a viewer asks about a linked set: find an entity by name or by key, show
//! its JSON (linked, and original from its input file), print a unit, search names
//! across cores.
//!
//! A linked set is the seeds' one module, whose entities carry their core in their
//! functions' and instances' tags, or one module per core (the compiler's flows), whose
//! entities are all that module's core's, tagged or not: every key and hit names it.
//!
//! Views name entities the way reports and diagnostics do ([`EntityQuery`]: kind, name,
//! parent); links name them by [`EntityKey`], which holds every name needed to find the
//! entity again in a later run. Handles never leave the core. Everything here reads only.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::arena::Handle;
use crate::model::entity::{EntityKey, EntityKind, EntityPath};
use crate::model::ir::{
    instance_source_name, Allocation, Block, Function, Inst, MemLoc, MemLocSet, Module, Queue, QueueInstance, Src,
};
use crate::model::linked::LinkedSet;
use crate::output::print;
use crate::output::report::{ModuleUnit, Unit};
use crate::read::input::FileEntry;
use crate::read::json::locate;

/// An entity named the way views name it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityQuery {
    /// What it is.
    pub kind: EntityKind,
    /// Its name.
    pub name: String,
    /// Its function (blocks, instructions, sets, memory locations), queue (instances) or
    /// queue instance (a DMA block in a queue). Without it, the first match is taken.
    #[serde(default)]
    pub parent: Option<String>,
    /// Its core, when the set has a module per core (the same names are on every core);
    /// without it, the first core's match is taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub core: Option<u64>,
}

impl EntityQuery {
    /// A query by kind, name and parent, on any core.
    pub fn new(kind: EntityKind, name: impl Into<String>, parent: Option<String>) -> EntityQuery {
        EntityQuery { kind, name: name.into(), parent, core: None }
    }

    /// The same query, on one core.
    pub fn on(mut self, core: Option<u64>) -> EntityQuery {
        self.core = core;
        self
    }
}

/// One module of a linked set as the queries read it: the module, and the core all of
/// it is (a per-core module), or `None` (the seeds' one module: its tags say).
#[derive(Clone, Copy)]
struct In<'s> {
    module: &'s Module,
    core: Option<u64>,
}

/// The modules of a set, each with its index.
fn modules(set: &LinkedSet) -> impl Iterator<Item = (usize, In<'_>)> {
    set.modules.iter().enumerate().map(|(i, m)| (i, In { module: &m.module, core: m.core }))
}

/// The module of a set that holds a core's entities: the core's own, or the seeds' one.
fn module_for(set: &LinkedSet, core: Option<u64>) -> Option<(usize, In<'_>)> {
    match set.modules.as_slice() {
        [one] if one.core.is_none() => Some((0, In { module: &one.module, core: None })),
        all => all
            .iter()
            .position(|m| m.core.is_some() && m.core == core)
            .map(|i| (i, In { module: &all[i].module, core: all[i].core })),
    }
}

/// Everything a details panel shows about one entity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityView {
    /// The entity, with the parent it was found in.
    pub entity: EntityQuery,
    /// Its stable address, for links.
    pub key: EntityKey,
    /// The unit of the canonical text that holds it (its function or queue).
    pub unit: Unit,
    /// The module that holds it, when the set has one per core (`nc01/sgLnk`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// The core whose partition holds it, if any.
    pub core: Option<u64>,
    /// Its canonical text (one line, or the whole unit for a function or queue).
    pub text: String,
    /// Its JSON in the linked module, pretty.
    pub linked: String,
    /// Its JSON in the input, when it came from one.
    pub original: Option<Original>,
    /// The kernel line behind it (an instruction's `debug.filename` and line), when the
    /// dump carries one.
    #[serde(default)]
    pub source: Option<String>,
}

/// An entity's text in its input file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Original {
    /// The file.
    pub file: String,
    /// JSON pointer in that file.
    pub pointer: String,
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub column: u64,
    /// The value, pretty-printed.
    pub json: String,
}

/// One search result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchHit {
    /// The entity.
    pub entity: EntityQuery,
    /// Its core, if any.
    pub core: Option<u64>,
}

/// An entity of the module, by handle, with what holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Found {
    Function(Handle<Function>),
    Block(Handle<Block>, Handle<Function>),
    Inst(Handle<Inst>, Parent),
    Set(Handle<MemLocSet>, Handle<Function>),
    MemLoc(Handle<MemLoc>, Handle<Function>),
    Queue(Handle<Queue>),
    Instance(Handle<QueueInstance>, Handle<Queue>),
}

/// What holds an instruction: a block of a function, or a queue instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Parent {
    Block(Handle<Block>, Handle<Function>),
    Instance(Handle<QueueInstance>, Handle<Queue>),
}

/// Visits every entity of the module with its parent's name, in module order; stops
/// when `visit` returns true.
fn each(module: &Module, visit: &mut dyn FnMut(Found, &str, &str) -> bool) -> bool {
    let store = &module.store;
    for &function in &module.functions {
        let fname = store.functions[function].name();
        if visit(Found::Function(function), store.functions[function].name(), "") {
            return true;
        }
        for allocation in &store.functions[function].allocations {
            if let Allocation::Set(set) = allocation {
                if visit(Found::Set(*set, function), &store.sets[*set].name(store), fname) {
                    return true;
                }
                for &memloc in &store.sets[*set].memlocs {
                    if visit(Found::MemLoc(memloc, function), store.memlocs[memloc].name(), fname) {
                        return true;
                    }
                }
            }
        }
        let mut stop = false;
        module.walk_function_blocks(function, &mut |block| {
            if !stop && visit(Found::Block(block, function), store.blocks[block].name(), fname) {
                stop = true;
            }
        });
        if stop {
            return true;
        }
        module.walk_function_in_blocks(function, &mut |block, inst| {
            if !stop && visit(Found::Inst(inst, Parent::Block(block, function)), store.insts[inst].name(), fname) {
                stop = true;
            }
        });
        if stop {
            return true;
        }
    }
    for &queue in &module.queues {
        let qname = store.queues[queue].name();
        if visit(Found::Queue(queue), qname, "") {
            return true;
        }
        for (index, &instance) in store.queues[queue].instances.iter().enumerate() {
            let iname = instance_source_name(qname, store.instances[instance].name(), index);
            let iname = iname.as_str();
            if visit(Found::Instance(instance, queue), iname, qname) {
                return true;
            }
            for &inst in &store.instances[instance].insts {
                if visit(Found::Inst(inst, Parent::Instance(instance, queue)), store.insts[inst].name(), iname) {
                    return true;
                }
            }
        }
    }
    false
}

fn kind_of(found: Found) -> EntityKind {
    match found {
        Found::Function(_) => EntityKind::Function,
        Found::Block(..) => EntityKind::Block,
        Found::Inst(..) => EntityKind::Instruction,
        Found::Set(..) => EntityKind::Set,
        Found::MemLoc(..) => EntityKind::Memloc,
        Found::Queue(_) => EntityKind::Queue,
        Found::Instance(..) => EntityKind::Instance,
    }
}

fn find(module: &Module, query: &EntityQuery) -> Option<(Found, String)> {
    let mut hit = None;
    each(module, &mut |found, name, parent| {
        let matches = kind_of(found) == query.kind
            && name == query.name
            && query.parent.as_deref().is_none_or(|p| p.is_empty() || p == parent);
        if matches {
            hit = Some((found, parent.to_owned()));
        }
        matches
    });
    hit
}

fn core_of(at: In<'_>, found: Found) -> Option<u64> {
    if at.core.is_some() {
        return at.core;
    }
    let store = &at.module.store;
    match found {
        Found::Function(f)
        | Found::Block(_, f)
        | Found::Set(_, f)
        | Found::MemLoc(_, f)
        | Found::Inst(_, Parent::Block(_, f)) => store.functions[f].core(),
        Found::Inst(_, Parent::Instance(i, _)) | Found::Instance(i, _) => store.instances[i].core(),
        Found::Queue(_) => None,
    }
}

/// Which of the instructions named like `inst` in `siblings` it is (0 for the first).
fn occurrence(module: &Module, siblings: &[Handle<Inst>], inst: Handle<Inst>) -> u32 {
    let name = module.store.insts[inst].name();
    siblings.iter().take_while(|&&i| i != inst).filter(|&&i| module.store.insts[i].name() == name).count() as u32
}

/// The `occurrence`-th instruction named `name` in `siblings`.
fn nth_named(module: &Module, siblings: &[Handle<Inst>], name: &str, occurrence: u32) -> Option<Handle<Inst>> {
    siblings.iter().copied().filter(|&i| module.store.insts[i].name() == name).nth(occurrence as usize)
}

/// Each instruction's occurrence among its siblings, counted as a whole-module walk
/// meets them (asking [`occurrence`] of each would read every block once per
/// instruction in it).
#[derive(Default)]
struct Occurrences<'m> {
    seen: rustc_hash::FxHashMap<(Parent, &'m str), u32>,
}

impl<'m> Occurrences<'m> {
    /// The occurrence of `found`, when it is an instruction (met in sibling order).
    fn next(&mut self, module: &'m Module, found: Found) -> Option<u32> {
        let Found::Inst(inst, parent) = found else { return None };
        let count = self.seen.entry((parent, module.store.insts[inst].name())).or_insert(0);
        *count += 1;
        Some(*count - 1)
    }
}

fn key_of(at: In<'_>, found: Found) -> EntityKey {
    key_at(at, found, None)
}

/// [`key_of`], with the instruction's occurrence when the caller counted it.
fn key_at(at: In<'_>, found: Found, counted: Option<u32>) -> EntityKey {
    let module = at.module;
    let store = &module.store;
    let function = |f: Handle<Function>| store.functions[f].name().to_owned();
    let queue = |q: Handle<Queue>| store.queues[q].name().to_owned();
    let instance = |i: Handle<QueueInstance>| instance_name(module, i);
    let path = match found {
        Found::Function(f) => EntityPath::Function { function: function(f) },
        Found::Block(b, f) => EntityPath::Block { function: function(f), block: store.blocks[b].name().to_owned() },
        Found::Inst(i, Parent::Block(b, f)) => EntityPath::Instruction {
            function: function(f),
            block: store.blocks[b].name().to_owned(),
            name: store.insts[i].name().to_owned(),
            occurrence: counted.unwrap_or_else(|| occurrence(module, &store.blocks[b].insts, i)),
        },
        Found::Inst(i, Parent::Instance(n, q)) => EntityPath::QueueInstruction {
            queue: queue(q),
            instance: instance(n),
            name: store.insts[i].name().to_owned(),
            occurrence: counted.unwrap_or_else(|| occurrence(module, &store.instances[n].insts, i)),
        },
        Found::Set(s, f) => EntityPath::Set { function: function(f), set: store.sets[s].name(store) },
        Found::MemLoc(m, f) => EntityPath::Memloc { function: function(f), memloc: store.memlocs[m].name().to_owned() },
        Found::Queue(q) => EntityPath::Queue { queue: queue(q) },
        Found::Instance(n, q) => EntityPath::Instance { queue: queue(q), instance: instance(n) },
    };
    EntityKey { core: core_of(at, found), path }
}

fn unit_of(module: &Module, found: Found) -> Unit {
    let store = &module.store;
    match found {
        Found::Function(f)
        | Found::Block(_, f)
        | Found::Set(_, f)
        | Found::MemLoc(_, f)
        | Found::Inst(_, Parent::Block(_, f)) => Unit::Function(store.functions[f].name().to_owned()),
        Found::Queue(q) | Found::Instance(_, q) | Found::Inst(_, Parent::Instance(_, q)) => {
            Unit::Queue(store.queues[q].name().to_owned())
        }
    }
}

fn find_function(module: &Module, name: &str) -> Option<Handle<Function>> {
    module.functions.iter().copied().find(|&f| module.store.functions[f].name() == name)
}

fn find_queue(module: &Module, name: &str) -> Option<Handle<Queue>> {
    module.queues.iter().copied().find(|&q| module.store.queues[q].name() == name)
}

fn find_instance(module: &Module, queue: Handle<Queue>, name: &str) -> Option<Handle<QueueInstance>> {
    module.store.queues[queue].instances.iter().copied().find(|&i| instance_name(module, i) == name)
}

/// An instance's name as views and keys use it: its `name`, or `<queue>_<index>` when it
/// has none (the linker names every instance, but a `linked.json` read back may not).
fn instance_name(module: &Module, instance: Handle<QueueInstance>) -> String {
    let store = &module.store;
    for &queue in &module.queues {
        let q = &store.queues[queue];
        if let Some(index) = q.instances.iter().position(|&i| i == instance) {
            return instance_source_name(q.name(), store.instances[instance].name(), index);
        }
    }
    store.instances[instance].name().unwrap_or("").to_owned()
}

fn find_block(module: &Module, function: Handle<Function>, name: &str) -> Option<Handle<Block>> {
    let mut found = None;
    module.walk_function_blocks(function, &mut |block| {
        if found.is_none() && module.store.blocks[block].name() == name {
            found = Some(block);
        }
    });
    found
}

fn sets_of(module: &Module, function: Handle<Function>) -> impl Iterator<Item = Handle<MemLocSet>> + '_ {
    module.store.functions[function].allocations.iter().filter_map(|a| match a {
        Allocation::Set(set) => Some(*set),
        Allocation::Other(_) => None,
    })
}

/// The entity a key names, if this module has it (the same names, on the same core).
fn find_key(at: In<'_>, key: &EntityKey) -> Option<Found> {
    let module = at.module;
    let store = &module.store;
    let found = match &key.path {
        EntityPath::Module(_) | EntityPath::File(_) => return None,
        EntityPath::Function { function } => Found::Function(find_function(module, function)?),
        EntityPath::Block { function, block } => {
            let f = find_function(module, function)?;
            Found::Block(find_block(module, f, block)?, f)
        }
        EntityPath::Instruction { function, block, name, occurrence } => {
            let f = find_function(module, function)?;
            let b = find_block(module, f, block)?;
            Found::Inst(nth_named(module, &store.blocks[b].insts, name, *occurrence)?, Parent::Block(b, f))
        }
        EntityPath::Set { function, set } => {
            let f = find_function(module, function)?;
            Found::Set(sets_of(module, f).find(|&s| store.sets[s].name(store) == *set)?, f)
        }
        EntityPath::Memloc { function, memloc } => {
            let f = find_function(module, function)?;
            let m = sets_of(module, f)
                .flat_map(|s| store.sets[s].memlocs.iter().copied())
                .find(|&m| store.memlocs[m].name() == memloc)?;
            Found::MemLoc(m, f)
        }
        EntityPath::Queue { queue } => Found::Queue(find_queue(module, queue)?),
        EntityPath::Instance { queue, instance } => {
            let q = find_queue(module, queue)?;
            Found::Instance(find_instance(module, q, instance)?, q)
        }
        EntityPath::QueueInstruction { queue, instance, name, occurrence } => {
            let q = find_queue(module, queue)?;
            let n = find_instance(module, q, instance)?;
            Found::Inst(nth_named(module, &store.instances[n].insts, name, *occurrence)?, Parent::Instance(n, q))
        }
    };
    (core_of(at, found) == key.core).then_some(found)
}

fn parent_name(module: &Module, found: Found) -> String {
    let store = &module.store;
    match found {
        Found::Function(_) | Found::Queue(_) => String::new(),
        Found::Block(_, f) | Found::Set(_, f) | Found::MemLoc(_, f) | Found::Inst(_, Parent::Block(_, f)) => {
            store.functions[f].name().to_owned()
        }
        Found::Instance(_, q) => store.queues[q].name().to_owned(),
        Found::Inst(_, Parent::Instance(n, _)) => instance_name(module, n),
    }
}

fn name_of(module: &Module, found: Found) -> String {
    let store = &module.store;
    match found {
        Found::Function(f) => store.functions[f].name().to_owned(),
        Found::Block(b, _) => store.blocks[b].name().to_owned(),
        Found::Inst(i, _) => store.insts[i].name().to_owned(),
        Found::Set(s, _) => store.sets[s].name(store),
        Found::MemLoc(m, _) => store.memlocs[m].name().to_owned(),
        Found::Queue(q) => store.queues[q].name().to_owned(),
        Found::Instance(n, _) => instance_name(module, n),
    }
}

/// Everything about one entity, or `None` when the set has no such entity.
pub fn entity_view(set: &LinkedSet, files: &[FileEntry], query: &EntityQuery) -> Option<EntityView> {
    let at = in_query(set, query)?;
    let (found, _) = find(at.module, query)?;
    Some(view_of(at, files, found))
}

/// The module a query looks in: its core's, when it names one; else the first module
/// that has the entity.
fn in_query<'s>(set: &'s LinkedSet, query: &EntityQuery) -> Option<In<'s>> {
    if query.core.is_some() && set.is_per_core() {
        return module_for(set, query.core).map(|(_, at)| at);
    }
    modules(set).map(|(_, at)| at).find(|at| find(at.module, query).is_some())
}

/// Everything about the entity a key names, or `None` when the set has none (a stale
/// or foreign key).
pub fn entity_view_by_key(set: &LinkedSet, files: &[FileEntry], key: &EntityKey) -> Option<EntityView> {
    let (_, at) = module_for(set, key.core)?;
    find_key(at, key).map(|found| view_of(at, files, found))
}

/// The key of the entity a query finds.
pub fn key_for(set: &LinkedSet, query: &EntityQuery) -> Option<EntityKey> {
    let at = in_query(set, query)?;
    find(at.module, query).map(|(found, _)| key_of(at, found))
}

/// The query that names what a key names, the way views name it (kind, name, parent,
/// core): what a selection made from a link shows until the entity is found.
pub fn query_of(key: &EntityKey) -> EntityQuery {
    EntityQuery {
        kind: key.kind(),
        name: key.name().to_owned(),
        parent: key.parent().map(str::to_owned),
        core: key.core,
    }
}

/// A hit's query.
fn hit(at: In<'_>, found: Found, name: &str, parent: &str) -> SearchHit {
    SearchHit {
        entity: EntityQuery {
            kind: kind_of(found),
            name: name.to_owned(),
            parent: (!parent.is_empty()).then(|| parent.to_owned()),
            core: at.core,
        },
        core: core_of(at, found),
    }
}

/// The instructions whose `debug.filename` contains `file` (lowercase), in set order.
fn by_source(set: &LinkedSet, file: &str, limit: usize) -> Vec<SearchHit> {
    let mut hits = Vec::new();
    if file.is_empty() {
        return hits;
    }
    for (_, at) in modules(set) {
        each(at.module, &mut |found, name, parent| {
            if let Found::Inst(inst, _) = found {
                let value = crate::output::json::inst_to_value(at.module, inst);
                let source = crate::read::kernel_line::of_value(&value);
                if source.is_some_and(|s| s.to_lowercase().contains(file)) {
                    hits.push(hit(at, found, name, parent));
                }
            }
            hits.len() >= limit
        });
    }
    hits
}

/// An entity of a linked set as a comparison holds it: a handle into one of its
/// modules, printed only when asked ([`line_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntityAt {
    module: usize,
    found: Found,
}

impl EntityAt {
    /// Its kind.
    pub fn kind(self) -> EntityKind {
        kind_of(self.found)
    }
}

/// The module of the set an entity is in.
fn in_at(set: &LinkedSet, at: EntityAt) -> In<'_> {
    let linked = &set.modules[at.module];
    In { module: &linked.module, core: linked.core }
}

/// Every entity of the set with its key, in set order (each module's functions with
/// their sets, locations, blocks and instructions in walk order, then its queues): what
/// two link sets are compared by (`tools::compare`).
pub fn all_entities(set: &LinkedSet) -> Vec<(EntityKey, EntityAt)> {
    let mut entities = Vec::new();
    each_entity(set, &mut |key, at| entities.push((key, at)));
    entities
}

/// Calls `visit` with every entity of the set and where it is, in [`all_entities`]'s
/// order, holding none of them (a work directory's history sums up a dump's 150k
/// entities one at a time).
pub fn each_entity(set: &LinkedSet, visit: &mut dyn FnMut(EntityKey, EntityAt)) {
    for (index, at) in modules(set) {
        let mut occurrences = Occurrences::default();
        each(at.module, &mut |found, _, _| {
            visit(key_at(at, found, occurrences.next(at.module, found)), EntityAt { module: index, found });
            false
        });
    }
}

/// [`each_entity`] for the entities named `name` alone, with the keys [`each_entity`]
/// gives them (an instruction's occurrence counts its siblings of that name only).
pub fn each_entity_named(set: &LinkedSet, name: &str, visit: &mut dyn FnMut(EntityKey, EntityAt)) {
    for (index, at) in modules(set) {
        let mut occurrences = Occurrences::default();
        each(at.module, &mut |found, found_name, _| {
            if found_name == name {
                visit(key_at(at, found, occurrences.next(at.module, found)), EntityAt { module: index, found });
            }
            false
        });
    }
}

/// An entity's canonical line.
pub fn line_at(set: &LinkedSet, at: EntityAt) -> String {
    let module = in_at(set, at).module;
    match at.found {
        Found::Function(f) => print::function_line(module, f),
        Found::Block(b, _) => print::block_line(module, b),
        Found::Inst(i, _) => print::inst_line(module, i),
        Found::Set(s, _) => print::set_line(module, s),
        Found::MemLoc(m, _) => print::memloc_line(module, m),
        Found::Queue(q) => print::queue_line(module, q),
        Found::Instance(n, _) => print::instance_line(module, n),
    }
}

/// An instruction's kept text (its canonical JSON, as read), when it is kept so: what a
/// comparison can hash without printing its line.
pub fn kept_text_at(set: &LinkedSet, at: EntityAt) -> Option<&str> {
    match at.found {
        Found::Inst(i, _) => in_at(set, at).module.store.insts[i].kept_text(),
        _ => None,
    }
}

/// Whether two instructions hold the same JSON (then their lines are the same, and a
/// comparison need not print them): both kept texts equal, or both field maps.
pub fn same_instruction(a: &LinkedSet, at_a: EntityAt, b: &LinkedSet, at_b: EntityAt) -> bool {
    let (Found::Inst(x, _), Found::Inst(y, _)) = (at_a.found, at_b.found) else { return false };
    let (x, y) = (&in_at(a, at_a).module.store.insts[x], &in_at(b, at_b).module.store.insts[y]);
    match (x.kept_text(), y.kept_text()) {
        (Some(p), Some(q)) => p == q,
        (None, None) => x.name() == y.name() && x.fields() == y.fields(),
        _ => false,
    }
}

/// The kernel line behind an instruction, when the dump carries one.
pub fn source_at(set: &LinkedSet, at: EntityAt) -> Option<String> {
    match at.found {
        Found::Inst(inst, _) => {
            crate::read::kernel_line::of_value(&crate::output::json::inst_to_value(in_at(set, at).module, inst))
        }
        _ => None,
    }
}

/// The key of every entity of the set, in set order (for tests and checks).
pub fn all_keys(set: &LinkedSet) -> Vec<(EntityQuery, EntityKey)> {
    let mut keys = Vec::new();
    for (_, at) in modules(set) {
        let mut occurrences = Occurrences::default();
        each(at.module, &mut |found, name, parent| {
            let query = hit(at, found, name, parent).entity;
            keys.push((query, key_at(at, found, occurrences.next(at.module, found))));
            false
        });
    }
    keys
}

fn view_of(at: In<'_>, files: &[FileEntry], found: Found) -> EntityView {
    let module = at.module;
    let store = &module.store;
    let (text, linked, src): (String, Value, Option<&Src>) = match found {
        Found::Function(f) => {
            let mut text = String::new();
            print::function_text(module, f, &mut text);
            let value = crate::output::json::function_to_value(module, f);
            (text, value, store.functions[f].src.as_ref())
        }
        Found::Block(b, _) => {
            (print::block_line(module, b), crate::output::json::block_to_value(module, b), store.blocks[b].src.as_ref())
        }
        Found::Inst(i, _) => {
            (print::inst_line(module, i), crate::output::json::inst_to_value(module, i), store.insts[i].src.as_ref())
        }
        Found::Set(s, _) => {
            (print::set_line(module, s), crate::output::json::set_to_value(module, s), store.sets[s].src.as_ref())
        }
        Found::MemLoc(m, _) => (
            print::memloc_line(module, m),
            Value::Object(store.memlocs[m].fields.clone()),
            store.memlocs[m].src.as_ref(),
        ),
        Found::Queue(q) => {
            let mut text = String::new();
            print::queue_text(module, q, &mut text);
            (text, crate::output::json::queue_to_value(module, q), store.queues[q].src.as_ref())
        }
        Found::Instance(i, _) => (
            print::instance_line(module, i),
            crate::output::json::instance_to_value(module, i),
            store.instances[i].src.as_ref(),
        ),
    };
    let original = src.and_then(|src| {
        let file = files.get(src.file().0 as usize)?;
        original(file, &src.pointer())
    });
    let source = match found {
        Found::Inst(..) => crate::read::kernel_line::of_value(&linked),
        _ => None,
    };
    EntityView {
        source,
        entity: EntityQuery {
            kind: kind_of(found),
            name: name_of(module, found),
            parent: Some(parent_name(module, found)),
            core: at.core,
        },
        key: key_of(at, found),
        unit: unit_of(module, found),
        module: at.core.map(|_| module.name().to_owned()),
        core: core_of(at, found),
        text,
        linked: serde_json::to_string_pretty(&linked).unwrap_or_default(),
        original,
    }
}

/// The value at `pointer` in an input file, pretty-printed, with its line and column.
pub fn original(file: &FileEntry, pointer: &str) -> Option<Original> {
    let text = file.read_text()?;
    let text = text.as_str();
    let span = locate::locate(text, &[pointer]).into_iter().next().flatten()?;
    let raw = text.get(span.start..span.end)?;
    let json = match serde_json::from_str::<Value>(raw) {
        Ok(value) => serde_json::to_string_pretty(&value).unwrap_or_else(|_| raw.to_owned()),
        Err(_) => raw.to_owned(),
    };
    Some(Original { file: file.path.clone(), pointer: pointer.to_owned(), line: span.line, column: span.column, json })
}

/// The canonical text of a unit of one module of the set, named as a step's edit
/// names it (`nc01/sgLnk`); without a name, of the first module (the seeds' one).
pub fn unit_text(set: &LinkedSet, unit: &ModuleUnit) -> Option<String> {
    let module = match &unit.module {
        Some(name) => set.iter().find(|m| m.name() == name)?,
        None => set.iter().next()?,
    };
    let unit = &unit.unit;
    let mut text = String::new();
    match unit {
        Unit::Function(name) => print::function_text(module, find_function(module, name)?, &mut text),
        Unit::Queue(name) => print::queue_text(module, find_queue(module, name)?, &mut text),
        Unit::Module => {
            text = print::module_line(module);
            text.push('\n');
        }
    }
    Some(text)
}

/// Entities whose name contains `text` (case-insensitive), exact matches first, at most
/// `limit`, over every module of the set.
pub fn search(set: &LinkedSet, text: &str, limit: usize) -> Vec<SearchHit> {
    let needle = text.trim().to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    // `source:FILE` (or `file:FILE`): the instructions whose kernel line is in FILE.
    if let Some(file) = needle.strip_prefix("source:").or_else(|| needle.strip_prefix("file:")) {
        return by_source(set, file.trim(), limit);
    }
    let mut exact = Vec::new();
    let mut partial = Vec::new();
    for (_, at) in modules(set) {
        each(at.module, &mut |found, name, parent| {
            let lower = name.to_lowercase();
            if lower.contains(&needle) {
                let hit = hit(at, found, name, parent);
                if lower == needle {
                    exact.push(hit);
                } else if partial.len() < limit {
                    partial.push(hit);
                }
            }
            exact.len() >= limit
        });
        if exact.len() >= limit {
            break;
        }
    }
    exact.extend(partial);
    exact.truncate(limit);
    exact
}
