//! Questions a viewer asks about a linked module: find an entity by name, show its JSON
//! (linked, and original from its input file), print a unit, search names across cores.
//!
//! Views refer to entities by name (`kind`, `name`, `parent`), as reports and
//! diagnostics do; handles never leave the core. Everything here reads only.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::arena::Handle;
use crate::input::FileEntry;
use crate::ir::{Allocation, Block, Function, Inst, MemLoc, MemLocSet, Module, Queue, QueueInstance, Src};
use crate::json::locate;
use crate::print;

/// An entity named the way views name it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityQuery {
    /// `function`, `block`, `instruction`, `set`, `memloc`, `queue` or `instance`.
    pub kind: String,
    /// Its name.
    pub name: String,
    /// Its function (blocks, instructions, sets, memory locations), queue (instances) or
    /// queue instance (a DMA block in a queue). Without it, the first match is taken.
    #[serde(default)]
    pub parent: Option<String>,
}

/// Everything a details panel shows about one entity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityView {
    /// The entity, with the parent it was found in.
    pub entity: EntityQuery,
    /// The core whose partition holds it, if any.
    pub core: Option<u64>,
    /// Its canonical text (one line, or the whole unit for a function or queue).
    pub text: String,
    /// Its JSON in the linked module, pretty.
    pub linked: String,
    /// Its JSON in the input, when it came from one.
    pub original: Option<Original>,
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

#[derive(Clone, Copy)]
enum Found {
    Function(Handle<Function>),
    Block(Handle<Block>, Handle<Function>),
    Inst(Handle<Inst>, Parent),
    Set(Handle<MemLocSet>, Handle<Function>),
    MemLoc(Handle<MemLoc>, Handle<Function>),
    Queue(Handle<Queue>),
    Instance(Handle<QueueInstance>),
}

#[derive(Clone, Copy)]
enum Parent {
    Function(Handle<Function>),
    Instance(Handle<QueueInstance>),
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
        module.walk_function(function, &mut |inst| {
            if !stop && visit(Found::Inst(inst, Parent::Function(function)), store.insts[inst].name(), fname) {
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
        for &instance in &store.queues[queue].instances {
            let iname = store.instances[instance].name().unwrap_or("");
            if visit(Found::Instance(instance), iname, qname) {
                return true;
            }
            for &inst in &store.instances[instance].insts {
                if visit(Found::Inst(inst, Parent::Instance(instance)), store.insts[inst].name(), iname) {
                    return true;
                }
            }
        }
    }
    false
}

fn kind_of(found: Found) -> &'static str {
    match found {
        Found::Function(_) => "function",
        Found::Block(..) => "block",
        Found::Inst(..) => "instruction",
        Found::Set(..) => "set",
        Found::MemLoc(..) => "memloc",
        Found::Queue(_) => "queue",
        Found::Instance(..) => "instance",
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

fn core_of(module: &Module, found: Found) -> Option<u64> {
    let store = &module.store;
    match found {
        Found::Function(f) | Found::Block(_, f) | Found::Set(_, f) | Found::MemLoc(_, f) => store.functions[f].core(),
        Found::Inst(_, Parent::Function(f)) => store.functions[f].core(),
        Found::Inst(_, Parent::Instance(i)) | Found::Instance(i) => store.instances[i].core(),
        Found::Queue(_) => None,
    }
}

/// Everything about one entity, or `None` when the module has no such entity.
pub fn entity_view(module: &Module, files: &[FileEntry], query: &EntityQuery) -> Option<EntityView> {
    let (found, parent) = find(module, query)?;
    let store = &module.store;
    let (text, linked, src): (String, Value, Option<&Src>) = match found {
        Found::Function(f) => {
            let mut text = String::new();
            print::function_text(module, f, &mut text);
            let value = crate::json::write::function_to_value(module, f);
            (text, value, store.functions[f].src.as_ref())
        }
        Found::Block(b, _) => {
            (print::block_line(module, b), crate::json::write::block_to_value(module, b), store.blocks[b].src.as_ref())
        }
        Found::Inst(i, _) => {
            (print::inst_line(module, i), crate::json::write::inst_to_value(module, i), store.insts[i].src.as_ref())
        }
        Found::Set(s, _) => {
            (print::set_line(module, s), crate::json::write::set_to_value(module, s), store.sets[s].src.as_ref())
        }
        Found::MemLoc(m, _) => (
            print::memloc_line(module, m),
            Value::Object(store.memlocs[m].fields.clone()),
            store.memlocs[m].src.as_ref(),
        ),
        Found::Queue(q) => {
            let mut text = String::new();
            print::queue_text(module, q, &mut text);
            (text, crate::json::write::queue_to_value(module, q), store.queues[q].src.as_ref())
        }
        Found::Instance(i) => (
            print::instance_line(module, i),
            crate::json::write::instance_to_value(module, i),
            store.instances[i].src.as_ref(),
        ),
    };
    let original = src.and_then(|src| {
        let file = files.get(src.file.0 as usize)?;
        original(file, &src.pointer)
    });
    Some(EntityView {
        entity: EntityQuery { kind: kind_of(found).to_owned(), name: query.name.clone(), parent: Some(parent) },
        core: core_of(module, found),
        text,
        linked: serde_json::to_string_pretty(&linked).unwrap_or_default(),
        original,
    })
}

/// The value at `pointer` in an input file, pretty-printed, with its line and column.
pub fn original(file: &FileEntry, pointer: &str) -> Option<Original> {
    let text = file.text.as_deref()?;
    let span = locate::locate(text, &[pointer]).into_iter().next().flatten()?;
    let raw = text.get(span.start..span.end)?;
    let json = match serde_json::from_str::<Value>(raw) {
        Ok(value) => serde_json::to_string_pretty(&value).unwrap_or_else(|_| raw.to_owned()),
        Err(_) => raw.to_owned(),
    };
    Some(Original { file: file.path.clone(), pointer: pointer.to_owned(), line: span.line, column: span.column, json })
}

/// The canonical text of a unit (`function <name>` or `queue <name>`).
pub fn unit_text(module: &Module, unit: &str) -> Option<String> {
    let store = &module.store;
    let mut text = String::new();
    if let Some(name) = unit.strip_prefix("function ") {
        let function = module.functions.iter().copied().find(|&f| store.functions[f].name() == name)?;
        print::function_text(module, function, &mut text);
    } else if let Some(name) = unit.strip_prefix("queue ") {
        let queue = module.queues.iter().copied().find(|&q| store.queues[q].name() == name)?;
        print::queue_text(module, queue, &mut text);
    } else if unit == "module" {
        text = print::module_line(module);
        text.push('\n');
    } else {
        return None;
    }
    Some(text)
}

/// Entities whose name contains `text` (case-insensitive), exact matches first, at most
/// `limit`.
pub fn search(module: &Module, text: &str, limit: usize) -> Vec<SearchHit> {
    let needle = text.trim().to_lowercase();
    if needle.is_empty() {
        return Vec::new();
    }
    let mut exact = Vec::new();
    let mut partial = Vec::new();
    each(module, &mut |found, name, parent| {
        let lower = name.to_lowercase();
        if lower.contains(&needle) {
            let hit = SearchHit {
                entity: EntityQuery {
                    kind: kind_of(found).to_owned(),
                    name: name.to_owned(),
                    parent: (!parent.is_empty()).then(|| parent.to_owned()),
                },
                core: core_of(module, found),
            };
            if lower == needle {
                exact.push(hit);
            } else if partial.len() < limit {
                partial.push(hit);
            }
        }
        exact.len() >= limit
    });
    exact.extend(partial);
    exact.truncate(limit);
    exact
}
