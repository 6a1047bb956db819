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

use crate::arena::Handle;
use crate::ir::{Function, Inst};

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
