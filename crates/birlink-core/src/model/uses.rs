//! The names instructions refer to, recorded while reading, for `verify` to judge.
//!
//! Checking references means looking at every key of every instruction. Done by
//! `verify` after reading, that is one more walk over data long gone from the cache;
//! done by the reader, right after the instruction is parsed, it is nearly free. So the
//! reader records *facts* here — which instruction uses which queue, instance, block,
//! memory location, function — with names interned, and `verify` decides which of them
//! resolve. Dependencies are resolved by the reader itself at the end of each function
//! (every instruction name is known then); only the ones that do not resolve are kept.

use rustc_hash::FxHashMap;

use crate::model::arena::Handle;
use crate::model::ir::{opcode, Function, Inst};
use crate::model::view::{JsonType, JsonView};

/// An interned name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NameId(u32);

/// What a use refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UseKind {
    /// A DMA queue (`queue`).
    Queue,
    /// A queue instance of the given queue (`SwitchQueueInstance.instance`).
    Instance {
        /// The queue the instance should be in.
        queue: NameId,
    },
    /// A block of the same function (a branch target).
    Block,
    /// A memory location or set of the module (an operand's `memref`).
    Memref,
    /// A function of the module (`Call.target`).
    Call,
    /// An instruction of the same function that does not exist (already resolved).
    MissingDependency,
}

/// One reference of one instruction.
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
