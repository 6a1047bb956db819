//! The levels of a reduction, largest pieces first, and each level's candidates in the
//! current bundle (in document order).

use std::collections::{BTreeSet, HashSet};

use serde_json::Value;

use super::edit::{get, Edit, Seg};

/// What a level takes away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Whole modules.
    Cores,
    /// Functions.
    Functions,
    /// DMA queues.
    Queues,
    /// Blocks (a `Loop`'s nested ones too).
    Blocks,
    /// Queue instances.
    Instances,
    /// Allocations (memory-location sets and the rest).
    Allocations,
    /// Memory locations.
    MemoryLocations,
    /// Instructions of blocks.
    Instructions,
    /// `DMABlock`s of queue instances.
    DmaBlocks,
    /// Any object key.
    Keys,
    /// Names, shortened everywhere at once.
    Names,
}

impl Level {
    /// Every level, in the order they run.
    pub const ALL: [Level; 11] = [
        Level::Cores,
        Level::Functions,
        Level::Queues,
        Level::Blocks,
        Level::Instances,
        Level::Allocations,
        Level::MemoryLocations,
        Level::Instructions,
        Level::DmaBlocks,
        Level::Keys,
        Level::Names,
    ];

    /// How progress names it (`memory locations`).
    pub fn name(self) -> &'static str {
        match self {
            Level::Cores => "cores",
            Level::Functions => "functions",
            Level::Queues => "queues",
            Level::Blocks => "blocks",
            Level::Instances => "instances",
            Level::Allocations => "allocations",
            Level::MemoryLocations => "memory locations",
            Level::Instructions => "instructions",
            Level::DmaBlocks => "DMA blocks",
            Level::Keys => "keys",
            Level::Names => "names",
        }
    }

    /// The level after this one, if any.
    pub(crate) fn next(self) -> Option<Level> {
        Level::ALL.iter().position(|&l| l == self).and_then(|i| Level::ALL.get(i + 1)).copied()
    }

    /// This level's candidates in `bundle`, in document order.
    pub(crate) fn candidates(self, bundle: &Value, keep_names: bool) -> Vec<Edit> {
        let modules = children(bundle, &[Vec::new()], "modules");
        let functions = children(bundle, &modules, "functions");
        let queues = children(bundle, &modules, "queues");
        let instances = children(bundle, &queues, "blocks");
        let removals = |paths: Vec<Vec<Seg>>| paths.into_iter().map(Edit::Remove).collect();
        match self {
            Level::Cores => removals(modules),
            Level::Functions => removals(functions),
            Level::Queues => removals(queues),
            Level::Blocks => removals(blocks_and_instructions(bundle, &functions).0),
            Level::Instances => removals(instances),
            Level::Allocations => removals(children(bundle, &functions, "allocations")),
            Level::MemoryLocations => {
                let allocations = children(bundle, &functions, "allocations");
                removals(children(bundle, &allocations, "memorylocations"))
            }
            Level::Instructions => removals(blocks_and_instructions(bundle, &functions).1),
            Level::DmaBlocks => removals(children(bundle, &instances, "instructions")),
            Level::Keys => {
                let mut keys = Vec::new();
                collect_keys(bundle, &mut Vec::new(), &mut keys);
                // The bundle keeps the LNC and flow it was reduced under
                // (`options.lnc`, `options.flow`).
                let kept = |path: &Vec<Seg>| match path.as_slice() {
                    [Seg::Key(options)] => options == "options",
                    [Seg::Key(options), Seg::Key(key)] => options == "options" && (key == "lnc" || key == "flow"),
                    _ => false,
                };
                keys.retain(|path| !kept(path));
                removals(keys)
            }
            Level::Names if !keep_names => renames(bundle),
            Level::Names => Vec::new(),
        }
    }
}

/// The paths of the elements of `key` arrays under each object at `parents`.
fn children(bundle: &Value, parents: &[Vec<Seg>], key: &str) -> Vec<Vec<Seg>> {
    let mut out = Vec::new();
    for parent in parents {
        if let Some(Value::Array(items)) = get(bundle, parent).and_then(|v| v.get(key)) {
            for i in 0..items.len() {
                let mut path = parent.clone();
                path.push(Seg::Key(key.to_owned()));
                path.push(Seg::Index(i));
                out.push(path);
            }
        }
    }
    out
}

/// Every block (nested `Loop` bodies included) under `functions`, and every
/// instruction of them.
fn blocks_and_instructions(bundle: &Value, functions: &[Vec<Seg>]) -> (Vec<Vec<Seg>>, Vec<Vec<Seg>>) {
    let mut blocks = Vec::new();
    let mut instructions = Vec::new();
    let mut pending = children(bundle, functions, "blocks");
    while let Some(block) = pending.pop() {
        let insts = children(bundle, std::slice::from_ref(&block), "instructions");
        for inst in &insts {
            pending.extend(children(bundle, std::slice::from_ref(inst), "blocks"));
        }
        instructions.extend(insts);
        blocks.push(block);
    }
    blocks.sort();
    instructions.sort();
    (blocks, instructions)
}

/// Every key of every object, in document order (a removed parent takes its children
/// with it).
fn collect_keys(value: &Value, at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                at.push(Seg::Key(key.clone()));
                out.push(at.clone());
                collect_keys(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push(Seg::Index(i));
                collect_keys(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

/// Every entity name (the `name` of modules, functions, blocks, instructions, sets,
/// memory locations, queues and instances), each to a short name no string of the
/// bundle already is: `f0`, `b1`, `i2`, `s3`, `m4`, `q5`, `n6`.
fn renames(bundle: &Value) -> Vec<Edit> {
    let mut strings: BTreeSet<String> = BTreeSet::new();
    let mut names: Vec<(String, char)> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    // An explicit stack: (value, the key of the container it is in).
    let mut stack: Vec<(&Value, &str)> = vec![(bundle, "")];
    while let Some((value, container)) = stack.pop() {
        match value {
            Value::String(text) => {
                strings.insert(text.clone());
            }
            Value::Object(map) => {
                if let Some(Value::String(name)) = map.get("name") {
                    let letter = match container {
                        "functions" => 'f',
                        "blocks" if map.contains_key("instructions") => 'b',
                        "instructions" => 'i',
                        "allocations" => 's',
                        "memorylocations" => 'm',
                        "queues" => 'q',
                        _ => 'n',
                    };
                    if seen.insert(name.clone()) {
                        names.push((name.clone(), letter));
                    }
                }
                // Children in reverse, so they come off the stack in document order.
                for (key, child) in map.iter().rev() {
                    stack.push((child, key.as_str()));
                }
            }
            Value::Array(items) => {
                for child in items.iter().rev() {
                    stack.push((child, container));
                }
            }
            _ => {}
        }
    }
    let mut edits = Vec::new();
    let mut counter = 0usize;
    for (name, letter) in names {
        let to = loop {
            let candidate = format!("{letter}{counter}");
            counter += 1;
            if !strings.contains(&candidate) {
                break candidate;
            }
        };
        if to.len() < name.len() {
            edits.push(Edit::Rename { from: name, to });
        }
    }
    edits
}
