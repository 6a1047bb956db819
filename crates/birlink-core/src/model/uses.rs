//! The names instructions refer to, recorded while reading, for `verify` to judge.
//!
//! Checking references means looking at every key of every instruction. Done by
//! `verify` after reading, that is one more walk over data long gone from the cache;
//! done by the reader, right after the instruction is parsed, it is nearly free. So the
//! reader records *facts* here — which instruction uses which queue, instance, block,
//! memory location, function — with names interned, and [`Defined`] judges which of
//! them resolve. Dependencies are resolved by the reader itself at the end of each
//! function (every instruction name is known then); the other uses once the module is
//! read ([`Uses::keep_unresolved`]): only the misses are kept, for `verify` to report
//! with the same judge — a link set does not hold two or three uses per instruction.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::model::arena::Handle;
use crate::model::ir::{instance_source_name, opcode, str_field, Function, Inst, Module};
use crate::model::view::{JsonType, JsonView};

/// An interned name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NameId(u32);

/// What a use refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseKind {
    /// A DMA queue (`queue`).
    Queue,
    /// A queue instance (`SwitchQueueInstance.instance`) of the queue its instruction
    /// names (`queue`: a switch is parsed, so `verify` reads it there).
    Instance,
    /// A block of the same function (a branch target).
    Block,
    /// A memory location or set of the module (an operand's `memref`).
    Memref,
    /// A function of the module (`Call.target`).
    Call,
    /// An instruction of the same function that does not exist (already resolved).
    MissingDependency,
}

/// One reference of one instruction: 12 bytes (a test keeps it there), about two and a
/// half of them per instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Use {
    /// The instruction that refers.
    pub inst: Handle<Inst>,
    /// To what kind of thing.
    pub kind: UseKind,
    /// The name it refers to.
    pub name: NameId,
}

/// The uses of one function's instructions, in program order.
#[derive(Clone, Debug, Default)]
pub struct FunctionUses {
    /// The function.
    pub function: Option<Handle<Function>>,
    /// Its instructions' uses.
    pub uses: Vec<Use>,
}

/// Every use of one module, with the names interned.
#[derive(Clone, Debug, Default)]
pub struct Uses {
    names: Vec<Box<str>>,
    index: FxHashMap<Box<str>, NameId>,
    /// Per function, in module order.
    pub functions: Vec<FunctionUses>,
}

impl Uses {
    /// The id of a name, interning it on first sight.
    pub fn intern(&mut self, name: &str) -> NameId {
        if let Some(&id) = self.index.get(name) {
            return id;
        }
        let id = NameId(self.names.len() as u32);
        self.names.push(name.into());
        self.index.insert(name.into(), id);
        id
    }

    /// The name of an id.
    pub fn name(&self, id: NameId) -> &str {
        self.names.get(id.0 as usize).map(|n| &**n).unwrap_or("")
    }

    /// Number of uses recorded.
    pub fn len(&self) -> usize {
        self.functions.iter().map(|f| f.uses.len()).sum()
    }

    /// Whether none were recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Keeps only the uses `module` does not resolve: what `verify` will report. Done
    /// once a module is read, it frees the two or three uses of nearly every
    /// instruction while the next file is read (a link set's peak).
    ///
    /// A name used many times (a memory location every operand of a kind names) is
    /// judged once per kind of use that does not depend on the function or the
    /// instruction (a queue, a memory location, a function), by its id.
    pub fn keep_unresolved(&mut self, module: &Module) {
        let defined = Defined::of(module);
        let names = &self.names;
        // Per name, two bits per such kind: judged, and missing.
        let mut judged = vec![0u8; names.len()];
        let bits = |kind: UseKind| match kind {
            UseKind::Queue => Some(0),
            UseKind::Memref => Some(2),
            UseKind::Call => Some(4),
            _ => None,
        };
        for function_uses in &mut self.functions {
            let Some(function) = function_uses.function else {
                function_uses.uses.clear();
                continue;
            };
            let blocks = defined.blocks(function);
            function_uses.uses.retain(|u| {
                let name = || names.get(u.name.0 as usize).map_or("", |n| &**n);
                let (Some(shift), Some(seen)) = (bits(u.kind), judged.get_mut(u.name.0 as usize)) else {
                    return defined.miss(u, name(), &blocks).is_some();
                };
                if *seen & (1 << shift) == 0 {
                    let missing = defined.miss(u, name(), &blocks).is_some();
                    *seen |= (1 | u8::from(missing) << 1) << shift;
                }
                *seen & (2 << shift) != 0
            });
            function_uses.uses.shrink_to_fit();
        }
    }
}

/// What a module defines that its instructions' uses name: the one judge of a use, for
/// the reader (which keeps only the misses) and `verify` (which reports them).
pub struct Defined<'m> {
    module: &'m Module,
    queue_instances: FxHashMap<&'m str, FxHashSet<String>>,
    memlocs: FxHashSet<&'m str>,
    sets: FxHashSet<String>,
    functions: FxHashSet<&'m str>,
}

/// Why a use does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Miss {
    /// No queue of that name.
    Queue,
    /// The queue (named) has no instance of that name.
    Instance {
        /// The queue the switch names.
        queue: String,
    },
    /// No block of that name in the function.
    Block,
    /// No memory location or set of that name.
    Memref,
    /// No function of that name.
    Call,
    /// No instruction of that name in the function (the reader found it so).
    Dependency,
}

impl<'m> Defined<'m> {
    /// What `module` defines.
    pub fn of(module: &'m Module) -> Defined<'m> {
        let store = &module.store;
        let mut queue_instances: FxHashMap<&str, FxHashSet<String>> = FxHashMap::default();
        for &queue in &module.queues {
            let q = &store.queues[queue];
            let names = queue_instances.entry(q.name()).or_default();
            for (i, &instance) in q.instances.iter().enumerate() {
                names.insert(instance_source_name(q.name(), store.instances[instance].name(), i));
            }
        }
        Defined {
            module,
            queue_instances,
            memlocs: store.memlocs.iter().map(|(_, m)| m.name()).collect(),
            sets: store.sets.iter().map(|(_, s)| s.name(store)).collect(),
            functions: module.functions.iter().map(|&f| store.functions[f].name()).collect(),
        }
    }

    /// The names of `function`'s blocks (a `Loop`'s included).
    pub fn blocks(&self, function: Handle<Function>) -> FxHashSet<&'m str> {
        let mut blocks = FxHashSet::default();
        let store = &self.module.store;
        self.module.walk_function_blocks(function, &mut |b| {
            blocks.insert(store.blocks[b].name());
        });
        blocks
    }

    /// Why `u` (naming `name`, in a function whose blocks are `blocks`) does not
    /// resolve, or `None` when it does.
    pub fn miss(&self, u: &Use, name: &str, blocks: &FxHashSet<&str>) -> Option<Miss> {
        let found = match u.kind {
            UseKind::Queue => self.queue_instances.contains_key(name),
            UseKind::Instance => {
                let fields = self.module.store.insts[u.inst].fields();
                let queue = str_field(&fields, "queue").unwrap_or("");
                return match self.queue_instances.get(queue) {
                    Some(instances) if !instances.contains(name) => Some(Miss::Instance { queue: queue.to_owned() }),
                    _ => None,
                };
            }
            UseKind::Block => blocks.contains(name),
            UseKind::Memref => self.memlocs.contains(name) || self.sets.contains(name),
            UseKind::Call => self.functions.contains(name),
            UseKind::MissingDependency => false,
        };
        (!found).then_some(match u.kind {
            UseKind::Queue => Miss::Queue,
            UseKind::Block => Miss::Block,
            UseKind::Memref => Miss::Memref,
            UseKind::Call => Miss::Call,
            UseKind::Instance | UseKind::MissingDependency => Miss::Dependency,
        })
    }
}

/// A name one instruction refers to, as read from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ref<'a> {
    /// A thing of this kind, by name (`Queue`, `Block`, `Memref`, `Call`).
    Named(UseKind, &'a str),
    /// An instance of a queue (`SwitchQueueInstance`): the queue's name, the instance's.
    Instance {
        /// The queue.
        queue: &'a str,
        /// The instance.
        instance: &'a str,
    },
    /// An instruction of the same function it depends on.
    Dependency(&'a str),
}

/// Every name an instruction refers to, in the order of its keys (`dependencies`, `ins`,
/// `on_false`, `on_true`, `outs`, `queue`, `target`: as a sorted map lists them). `get`
/// reads the instruction's keys, `opcode` is its opcode. The one definition of an
/// instruction's uses: both reading paths (a parsed map, `json::fast`'s text) call it.
pub(crate) fn each_ref<'a, V: JsonView<'a>>(
    get: impl Fn(&str) -> Option<V>,
    opcode: &str,
    each: &mut dyn FnMut(Ref<'a>),
) {
    let string = |key: &str| get(key).and_then(V::as_str);
    if let Some(dependencies) = get("dependencies") {
        // A bare name, or a `[name, kind]` pair.
        dependencies.for_each_element(&mut |dependency| {
            let name = match dependency.json_type() {
                JsonType::String => dependency.as_str(),
                JsonType::Array => {
                    let mut first = None;
                    let mut index = 0;
                    dependency.for_each_element(&mut |item| {
                        if index == 0 {
                            first = item.as_str();
                        }
                        index += 1;
                    });
                    first
                }
                _ => None,
            };
            if let Some(name) = name {
                each(Ref::Dependency(name));
            }
        });
    }
    let memrefs = |key: &str, each: &mut dyn FnMut(Ref<'a>)| {
        if let Some(operands) = get(key) {
            operands.for_each_element(&mut |operand| {
                if let Some(memref) = operand.get("memref").and_then(V::as_str) {
                    each(Ref::Named(UseKind::Memref, memref));
                }
            });
        }
    };
    memrefs("ins", each);
    if opcode == opcode::COMPARE_AND_BRANCH {
        for key in ["on_false", "on_true"] {
            if let Some(target) = string(key) {
                each(Ref::Named(UseKind::Block, target));
            }
        }
    }
    memrefs("outs", each);
    if let Some(queue) = string("queue") {
        if opcode == opcode::SWITCH_QUEUE_INSTANCE {
            if let Some(instance) = string("instance") {
                each(Ref::Instance { queue, instance });
            }
        }
        each(Ref::Named(UseKind::Queue, queue));
    }
    if let Some(target) = string("target") {
        match opcode {
            opcode::UNCONDITIONAL_BRANCH => each(Ref::Named(UseKind::Block, target)),
            opcode::CALL => each(Ref::Named(UseKind::Call, target)),
            _ => {}
        }
    }
}
