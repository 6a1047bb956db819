//! A module and its [`Store`] of typed arenas; moving one module's entities into
//! another (`Store::append`, which destructures every arena and every entity: a new
//! handle field does not compile until it is relocated), and walking a module's blocks
//! and instructions.

use super::entities::{Allocation, Function, MemLoc, MemLocSet, Queue, QueueInstance};
use super::fields::{core_attribute, str_field, Fields};
use super::inst::{Block, Inst};
use super::src::Src;
use crate::model::arena::{Arena, Handle, HandleMap};

/// All entities of one module, by kind.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Functions, in storage order.
    pub functions: Arena<Function>,
    /// Blocks of functions and of `Loop` instructions.
    pub blocks: Arena<Block>,
    /// Instructions of blocks and of queue instances.
    pub insts: Arena<Inst>,
    /// Memory-location sets (`allocations` entries of kind `memory_location_set`).
    pub sets: Arena<MemLocSet>,
    /// Memory locations of sets.
    pub memlocs: Arena<MemLoc>,
    /// DMA queues.
    pub queues: Arena<Queue>,
    /// Queue instances (a queue's `blocks`).
    pub instances: Arena<QueueInstance>,
}

/// Where an appended store's entities went: one old → new map per arena.
#[derive(Debug)]
pub struct Relocation {
    /// Functions.
    pub functions: HandleMap<Function>,
    /// Blocks.
    pub blocks: HandleMap<Block>,
    /// Instructions.
    pub insts: HandleMap<Inst>,
    /// Memory-location sets.
    pub sets: HandleMap<MemLocSet>,
    /// Memory locations.
    pub memlocs: HandleMap<MemLoc>,
    /// Queues.
    pub queues: HandleMap<Queue>,
    /// Queue instances.
    pub instances: HandleMap<QueueInstance>,
}

impl Store {
    /// Moves every entity of `from` to the end of this store's arenas and rewrites every
    /// handle inside the moved entities through the per-arena maps; `from`'s entities
    /// are moved, never edited where they were (the linked module is new). Every arena
    /// and every entity is destructured whole: a new arena, or a new handle-bearing
    /// field of an entity, does not compile until it is relocated here.
    pub fn append(&mut self, from: Store) -> Relocation {
        let Store { functions, blocks, insts, sets, memlocs, queues, instances } = from;
        let maps = Relocation {
            functions: self.functions.append(functions),
            blocks: self.blocks.append(blocks),
            insts: self.insts.append(insts),
            sets: self.sets.append(sets),
            memlocs: self.memlocs.append(memlocs),
            queues: self.queues.append(queues),
            instances: self.instances.append(instances),
        };
        for function in maps.functions.new_handles() {
            let Function { fields: _, allocations, blocks, src: _ } = &mut self.functions[function];
            maps.blocks.adjust_all(blocks);
            for allocation in allocations {
                match allocation {
                    Allocation::Set(set) => maps.sets.adjust(set),
                    Allocation::Other(_) => {}
                }
            }
        }
        for set in maps.sets.new_handles() {
            let MemLocSet { fields: _, memlocs, src: _ } = &mut self.sets[set];
            maps.memlocs.adjust_all(memlocs);
        }
        for memloc in maps.memlocs.new_handles() {
            // A memory location holds no handle (its views are named, not pointed at).
            let MemLoc { fields: _, src: _ } = &self.memlocs[memloc];
        }
        for block in maps.blocks.new_handles() {
            let Block { fields: _, insts, src: _ } = &mut self.blocks[block];
            maps.insts.adjust_all(insts);
        }
        for inst in maps.insts.new_handles() {
            let Inst { held: _, body, src: _, op: _, remote_update: _, keys: _ } = &mut self.insts[inst];
            if let Some(body) = body {
                maps.blocks.adjust_all(body);
            }
        }
        for queue in maps.queues.new_handles() {
            let Queue { fields: _, instances, src: _ } = &mut self.queues[queue];
            maps.instances.adjust_all(instances);
        }
        for instance in maps.instances.new_handles() {
            let QueueInstance { fields: _, insts, src: _ } = &mut self.instances[instance];
            maps.insts.adjust_all(insts);
        }
        maps
    }

    /// Gives back the arenas' spare capacity (their last chunks').
    pub fn shrink_to_fit(&mut self) {
        let Store { functions, blocks, insts, sets, memlocs, queues, instances } = self;
        functions.shrink_to_fit();
        blocks.shrink_to_fit();
        insts.shrink_to_fit();
        sets.shrink_to_fit();
        memlocs.shrink_to_fit();
        queues.shrink_to_fit();
        instances.shrink_to_fit();
    }
}

/// One BIR module: a per-core input, or the linked `<base>/sgLnk` module.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Top-level keys other than `functions` and `queues` (`version`, `arch`,
    /// `attributes`, and anything unknown).
    pub fields: Fields,
    /// Functions in program order; `main` (when present) is the entry.
    pub functions: Vec<Handle<Function>>,
    /// DMA queues in order.
    pub queues: Vec<Handle<Queue>>,
    /// The entities the lists above refer to.
    pub store: Store,
    /// The module's object in its input file, if it came from one.
    pub src: Option<Src>,
}

impl Module {
    /// Its `name` (birlink's; empty when it has none).
    pub fn name(&self) -> &str {
        str_field(&self.fields, "name").unwrap_or("")
    }

    /// `attributes.neuron_core_id`.
    pub fn core_id(&self) -> Option<u64> {
        core_attribute(&self.fields)
    }

    /// The entry function: `main` if present, else the first.
    pub fn entry_function(&self) -> Option<Handle<Function>> {
        self.functions
            .iter()
            .copied()
            .find(|&f| self.store.functions[f].name() == "main")
            .or_else(|| self.functions.first().copied())
    }

    /// Visits every instruction of a function's blocks, depth-first through `Loop`
    /// bodies, in program order.
    pub fn walk_function(&self, function: Handle<Function>, visit: &mut dyn FnMut(Handle<Inst>)) {
        self.walk_blocks(&self.store.functions[function].blocks, visit);
    }

    /// Visits every instruction of these blocks, depth-first through `Loop` bodies.
    pub fn walk_blocks(&self, blocks: &[Handle<Block>], visit: &mut dyn FnMut(Handle<Inst>)) {
        self.walk(blocks, &mut |_| {}, &mut |_, inst| visit(inst));
    }

    /// Visits every instruction of a function with the block that holds it, in program
    /// order (depth-first through `Loop` bodies).
    pub fn walk_function_in_blocks(
        &self,
        function: Handle<Function>,
        visit: &mut dyn FnMut(Handle<Block>, Handle<Inst>),
    ) {
        self.walk(&self.store.functions[function].blocks, &mut |_| {}, visit);
    }

    /// Visits every block of a function (top-level and nested), depth-first.
    pub fn walk_function_blocks(&self, function: Handle<Function>, visit: &mut dyn FnMut(Handle<Block>)) {
        self.walk(&self.store.functions[function].blocks, visit, &mut |_, _| {});
    }

    /// The one depth-first walk: each block, then its instructions in order, entering a
    /// `Loop`'s body right after the `Loop` itself. An explicit stack keeps the walk
    /// independent of nesting depth.
    fn walk(
        &self,
        blocks: &[Handle<Block>],
        visit_block: &mut dyn FnMut(Handle<Block>),
        visit_inst: &mut dyn FnMut(Handle<Block>, Handle<Inst>),
    ) {
        struct Frame<'a> {
            blocks: std::slice::Iter<'a, Handle<Block>>,
            block: Option<Handle<Block>>,
            insts: std::slice::Iter<'a, Handle<Inst>>,
        }
        let mut stack = vec![Frame { blocks: blocks.iter(), block: None, insts: [].iter() }];
        while let Some(frame) = stack.last_mut() {
            if let (Some(block), Some(&inst)) = (frame.block, frame.insts.next()) {
                visit_inst(block, inst);
                if let Some(body) = &self.store.insts[inst].body {
                    stack.push(Frame { blocks: body.iter(), block: None, insts: [].iter() });
                }
            } else if let Some(&block) = frame.blocks.next() {
                visit_block(block);
                frame.block = Some(block);
                frame.insts = self.store.blocks[block].insts.iter();
            } else {
                stack.pop();
            }
        }
    }
}

impl MemLocSet {
    /// The set's name; default `<first memloc name>_set` (its memory locations are in
    /// the module's store).
    pub fn name(&self, store: &Store) -> String {
        match str_field(&self.fields, "name") {
            Some(name) => name.to_owned(),
            None => {
                let first = self.memlocs.first().map(|&m| store.memlocs[m].name()).unwrap_or("");
                format!("{first}_set")
            }
        }
    }
}
