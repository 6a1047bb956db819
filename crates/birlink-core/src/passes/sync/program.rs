//! What each core issues (docs/spec/sync.md §2, birlink's reading), read once from the
//! linked set into compact records: one [`Step`] per instruction that issues (waits,
//! updates, triggers, the rendezvous it is, the shared memory it touches, as ranges into
//! the program's flat lists), and per function the [`Item`]s its walk goes through —
//! steps, `Loop`s with their trip counts, `Call`s — so a lane is a cursor over them and
//! nothing is unrolled: memory does not depend on trip counts.
//!
//! Lanes: each core's engines (in the wire order, then others bytewise) that a function
//! reached from the entry issues on, then each of its queues that holds `DMABlock`s. What
//! is not modelled is noted ([`Noted`]: BL0710, BL0712) for the findings.

use std::collections::{BTreeMap, HashMap, HashSet};

use std::hash::BuildHasher;

use rustc_hash::{FxBuildHasher, FxHashMap, FxHashSet};

use serde_json::Value;

use super::entries::{self, Mode, SemKey, SemKind, Update, Wait};
use crate::model::arena::Handle;
use crate::model::ir::SyncKeys;
use crate::model::ir::{opcode, Allocation, Block, Function, Inst, Module, Op};
use crate::model::linked::LinkedSet;
use crate::model::view::{Cursor, Json, JsonView};

/// The engines in the wire order; other names come after, bytewise.
const ENGINES: [&str; 8] = ["Unassigned", "Pool", "Activation", "PE", "DMA", "DVE", "SP", "ALL"];

/// A core's place in the set (its index, cores in order).
pub(super) type CoreIx = usize;

/// A walk from the entries that issues this many times the set's instructions or more
/// walks its items many times over ([`runs_long`]). A step of the execution costs
/// about a twentieth of reading an instruction, and writing a set about as much as
/// reading its programs: measured (docs/benchmarks.md), reading first pays off on the
/// modular sets (16 issues per instruction) and loses on the flat ones (1); between,
/// four.
const RUNS_LONG: u64 = 4;

/// Whether a walk from the cores' entries ([`issues_and_instructions`]) issues at least
/// [`RUNS_LONG`] times the instructions the set holds (a modular set's dispatcher calls
/// each definition once per partition): then the check reads the programs first, on
/// every thread, and runs beside the writing ([`super::runs_long`]), and each lane
/// gets its own walks ([`build`]). It only schedules the work; the outcome is the same
/// either way.
pub(super) fn runs_long(set: &LinkedSet) -> bool {
    let (issued, instructions) = issues_and_instructions(set);
    issued >= instructions.saturating_mul(RUNS_LONG)
}

/// A step nothing depends on ([`Step::slot`]).
pub(super) const NO_SLOT: u32 = u32::MAX;

/// A step with no lane (an instruction of a function the entry does not reach).
pub(super) const NO_LANE: u32 = u32::MAX;
/// A step that is no rendezvous.
pub(super) const NO_RENDEZVOUS: u32 = u32::MAX;
/// A step that triggers no block and touches no shared memory.
pub(super) const NO_RARE: u32 = u32::MAX;

/// What few steps have, kept beside them so that a step is 32 bytes, not 68.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Rare {
    /// The blocks it triggers (steps of queue lanes).
    pub triggers: Span,
    /// The shared memory it touches.
    pub accesses: Span,
    /// The rendezvous it is, when un-lowered ([`NO_RENDEZVOUS`]: none).
    pub rendezvous: u32,
    /// A `CoreBarrier` (lowered or not).
    pub barrier: bool,
}

impl Default for Rare {
    fn default() -> Rare {
        Rare { triggers: Span::default(), accesses: Span::default(), rendezvous: NO_RENDEZVOUS, barrier: false }
    }
}

/// A range of a flat list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Span {
    start: u32,
    len: u32,
}

impl Span {
    fn of(start: usize, end: usize) -> Span {
        Span { start: start as u32, len: (end - start) as u32 }
    }

    /// The indices it covers.
    pub(super) fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// What a rendezvous is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Meet {
    /// An un-lowered `CoreBarrier`.
    Barrier,
    /// An un-lowered sendrecv on a pipe.
    Pipe(u64),
}

/// A rendezvous: who meets there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rendezvous {
    /// What it is.
    pub meet: Meet,
    /// The cores that meet (the issuing core included), in core order.
    pub cores: Vec<CoreIx>,
}

/// How a sendrecv moves its data (§3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Transport {
    /// It names a `dma_engine`.
    DmaEngine,
    /// A `GPSIMDSB2SB`.
    GpsimdDma,
    /// Any other.
    Dma,
}

impl Transport {
    /// `dma_engine`, `gpsimd_dma`, `dma`.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Transport::DmaEngine => "dma_engine",
            Transport::GpsimdDma => "gpsimd_dma",
            Transport::Dma => "dma",
        }
    }
}

/// A sendrecv op, lowered or not (for BL0705).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PipeOp {
    /// The pipe.
    pub pipe: u64,
    /// The ranks it names (send to, receive from); none: every core.
    pub ranks: Vec<u64>,
    /// Its transport.
    pub transport: Transport,
}

/// A shared memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Access {
    /// The cell.
    pub cell: u32,
    /// A write.
    pub write: bool,
}

/// One instruction that issues: a compact record, its lists as ranges of the
/// program's.
#[derive(Clone, Debug)]
pub(super) struct Step {
    /// The instruction.
    pub inst: Handle<Inst>,
    /// Its lane ([`NO_LANE`]: its function is not reached).
    pub lane: u32,
    /// Where its waits start in [`Program::waits`] (they end where the next step's
    /// start: every list is in step order; [`Program::waits_of`]).
    pub waits: u32,
    /// Where its updates start ([`Program::updates_of`]).
    pub updates: u32,
    /// What few steps have (the blocks they trigger, the shared memory they touch,
    /// the rendezvous they are, a barrier): an index of [`Program::rare`] ([`NO_RARE`]:
    /// none).
    pub rare: u32,
    /// Where the instructions it depends on (same core: their slots) start
    /// ([`Program::dependencies_of`]).
    pub dependencies: u32,
    /// Its dependency slot (the race check's: [`NO_SLOT`] when nothing depends on
    /// it); while its core is read, its name's number among the core's names
    /// ([`Program::number_slots`]).
    pub slot: u32,
    /// Its core.
    pub core: u16,
    /// Its engine, interned per core.
    pub engine: u16,
}

impl Step {
    /// Its core's index.
    pub(super) fn core(&self) -> CoreIx {
        usize::from(self.core)
    }

    /// Its lane, when it has one.
    pub(super) fn lane(&self) -> Option<usize> {
        (self.lane != NO_LANE).then_some(self.lane as usize)
    }
}

/// What a function's walk goes through (a walk item per instruction), a loop's or a
/// call's facts in the program's side tables; kept in 4 bytes ([`Kept`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Item {
    /// An instruction that issues.
    Step(u32),
    /// A `Loop`: an index of [`Program::loops`].
    Loop(u32),
    /// A `Call`: an index of [`Program::calls`].
    Call(u32),
}

/// An [`Item`] as the program keeps it, in 4 bytes: a step's index below 2^31, else
/// 2^31 plus twice a loop's index (plus one for a call's). Like every index of the
/// program, they fit: 2^31 instructions would be 60 GB of JSON at the least.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Kept(u32);

/// Where [`Kept`]'s loops and calls start.
const KEPT_OTHERS: u32 = 1 << 31;

impl Kept {
    fn of(item: Item) -> Kept {
        match item {
            Item::Step(s) => Kept(s),
            Item::Loop(l) => Kept(KEPT_OTHERS | (l << 1)),
            Item::Call(c) => Kept(KEPT_OTHERS | (c << 1) | 1),
        }
    }

    fn item(self) -> Item {
        match self.0 {
            s if s < KEPT_OTHERS => Item::Step(s),
            other if other & 1 == 0 => Item::Loop((other & !KEPT_OTHERS) >> 1),
            other => Item::Call((other & !KEPT_OTHERS) >> 1),
        }
    }
}

/// A `Loop`: its body repeated `trips` times (`None`: no bound, taken once).
#[derive(Clone, Debug)]
pub(super) struct LoopItem {
    /// The `Loop` instruction.
    pub inst: Handle<Inst>,
    /// Its trip count.
    pub trips: Option<u64>,
    /// Its body.
    pub body: Span,
    /// The engines its body issues on (bits of the core's engines).
    pub engines: u64,
}

/// A `Call`.
#[derive(Clone, Debug)]
pub(super) struct CallItem {
    /// The `Call` instruction.
    pub inst: Handle<Inst>,
    /// The function it calls, when the core has it.
    pub target: Option<u32>,
    /// Its place in the set's order.
    pub order: u32,
}

/// One function of a core.
#[derive(Clone, Debug)]
pub(super) struct FunctionProg {
    /// The function.
    pub handle: Handle<Function>,
    /// Its items.
    pub items: Span,
    /// Its steps (a function's steps are made together, after the functions before it
    /// and before its core's queues' blocks: [`Program::function_of`]).
    pub steps: Span,
    /// The engines it issues on, its calls' included.
    pub engines: u64,
    /// Whether the entry reaches it.
    pub reached: bool,
}

/// One lane.
#[derive(Clone, Debug)]
pub(super) struct Lane {
    /// Its core.
    pub core: CoreIx,
    /// Its engine (`DMA` for a queue).
    pub engine: String,
    /// Its engine, interned per core (for an engine lane).
    pub engine_ix: Option<u16>,
    /// Its queue, for a queue's lane.
    pub queue: Option<String>,
    /// A queue's blocks no trigger names: its FIFO at the start.
    pub initial: Vec<u32>,
}

/// One core.
#[derive(Clone, Debug)]
pub(super) struct CoreProg<'m> {
    /// Its id.
    pub id: u64,
    /// Its module.
    pub module: &'m Module,
    /// Its functions, in module order.
    pub functions: Vec<FunctionProg>,
    /// The entry function.
    pub entry: Option<u32>,
    /// Its engines, interned.
    pub engines: Vec<String>,
}

/// What `BL0712` says was not modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum What {
    /// A branch, issued and not followed.
    Branch,
    /// A call of a function already on the chain.
    RecursiveCall,
    /// A call of a function the core does not have.
    UnknownCall,
    /// An `on_wait` entry that cannot be read.
    UnreadableWait,
    /// An `on_update` entry that cannot be read.
    UnreadableUpdate,
    /// A trigger naming no block.
    NoBlock,
}

impl What {
    /// Its name in `detail.what`.
    pub(super) fn as_str(self) -> &'static str {
        match self {
            What::Branch => "branch",
            What::RecursiveCall => "recursive_call",
            What::UnknownCall => "unknown_call",
            What::UnreadableWait => "unreadable_wait",
            What::UnreadableUpdate => "unreadable_update",
            What::NoBlock => "no_block",
        }
    }
}

/// Something not modelled or assumed, where the walk meets it.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Noted {
    /// BL0710: a loop without a static trip count.
    Unbounded {
        /// The core.
        core: CoreIx,
        /// The function.
        function: u32,
        /// The loop.
        inst: Handle<Inst>,
        /// Its place in the set's order.
        order: u32,
        /// Its `LoopAxis`, as read.
        axis: Option<Value>,
    },
    /// BL0712: a branch not followed, a call not entered, an entry not read, a trigger
    /// naming no block.
    NotModelled {
        /// The core.
        core: CoreIx,
        /// The function (`None`: a queue's block).
        function: Option<u32>,
        /// The instruction.
        inst: Handle<Inst>,
        /// Its step, when it issues (a `Loop` or `Call` does not).
        step: Option<u32>,
        /// Its place in the set's order.
        order: u32,
        /// What.
        what: What,
        /// A call's or branch's target, the block a trigger names.
        target: Option<String>,
        /// The entry as read.
        entry: Option<Value>,
    },
}

impl Noted {
    /// Where it is: core, then the set's order.
    pub(super) fn key(&self) -> (CoreIx, u32) {
        match self {
            Noted::Unbounded { core, order, .. } | Noted::NotModelled { core, order, .. } => (*core, *order),
        }
    }

    /// Whether its function is one the entry reaches (a queue's block always counts).
    pub(super) fn reached(&self, program: &Program<'_>) -> bool {
        let (core, function) = match self {
            Noted::Unbounded { core, function, .. } => (*core, Some(*function)),
            Noted::NotModelled { core, function, .. } => (*core, *function),
        };
        function.is_none_or(|f| program.cores[core].functions[f as usize].reached)
    }
}

/// The semaphores the program's waits and updates name, numbered densely in the order
/// first named (waits, then updates, step by step), so that a wait or an update holds
/// a number (16 bytes, not 24), and the execution keeps values, and a watch clocks, in
/// vectors: a modular set's dispatcher runs a definition's steps 46 times, each time
/// without a look-up.
#[derive(Debug, Default)]
pub(super) struct Semaphores {
    /// Each number's semaphore.
    pub keys: Vec<SemKey>,
    /// Each semaphore's number, while the program is read.
    numbers: FxHashMap<SemKey, u32>,
}

impl Semaphores {
    /// `key`'s number, numbering it when it is new.
    fn number(&mut self, key: SemKey) -> u32 {
        *self.numbers.entry(key).or_insert_with(|| {
            self.keys.push(key);
            self.keys.len() as u32 - 1
        })
    }

    /// A number's semaphore.
    pub(super) fn key(&self, sem: u32) -> SemKey {
        self.keys[sem as usize]
    }
}

/// The whole set's program.
#[derive(Debug, Default)]
pub(super) struct Program<'m> {
    /// The cores, in core order.
    pub cores: Vec<CoreProg<'m>>,
    /// Every instruction that issues, in the set's order: by core, its functions' then
    /// its queues' blocks.
    pub steps: Vec<Step>,
    /// Every function's items ([`Program::item`]).
    pub items: Vec<Kept>,
    /// The loops the items name.
    pub loops: Vec<LoopItem>,
    /// The calls the items name.
    pub calls: Vec<CallItem>,
    /// The lanes, in lane order.
    pub lanes: Vec<Lane>,
    /// Waits.
    pub waits: Vec<Wait>,
    /// Updates.
    pub updates: Vec<Update>,
    /// The semaphores waits and updates name, by number.
    pub semaphores: Semaphores,
    /// What few steps have ([`Step::rare`]).
    pub rare: Vec<Rare>,
    /// Triggered blocks.
    pub triggers: Vec<u32>,
    /// Accesses.
    pub accesses: Vec<Access>,
    /// Dependencies: each the slot of the name it names ([`Program::number_slots`]).
    pub dependencies: Vec<u32>,
    /// Rendezvous.
    pub rendezvous: Vec<Rendezvous>,
    /// Sendrecv ops, each with its step, in the set's order.
    pub pipes: Vec<(u32, PipeOp)>,
    /// The shared memory cells: (owner core id, memory location).
    pub cells: Vec<(u64, String)>,
    /// What was noted, in the set's order.
    pub noted: Vec<Noted>,
    /// How many dependency slots there are ([`Program::number_slots`]).
    pub slots: u32,
    /// Every instruction object of the functions and queues, reached or not, `Loop`s and
    /// `Call`s included (the budget's measure).
    pub static_instructions: u64,
    /// What a walk from each core's entry issues with every loop taken once and every
    /// call entered each time it is met (the budget's other measure: a dispatcher calling
    /// one definition 46 times issues it 46 times), plus the queues' blocks.
    pub walked_instructions: u64,
    /// Each engine lane's walk of the functions and loop bodies it may enter, by the
    /// span walked and the lane ([`Program::lane_walk`]).
    pub lane_walks: FxHashMap<(u32, u32, u32), Span>,
}

impl Program<'_> {
    /// The item at `at` of [`Program::items`].
    pub(super) fn item(&self, at: usize) -> Item {
        self.items[at].item()
    }

    /// The range of a step's entries in a list, from where it and the next step start.
    fn entries(&self, step: u32, start: fn(&Step) -> u32, len: usize) -> std::ops::Range<usize> {
        let from = start(&self.steps[step as usize]) as usize;
        let to = self.steps.get(step as usize + 1).map_or(len, |next| start(next) as usize);
        from..to
    }

    /// Where a step's waits are in [`Program::waits`].
    pub(super) fn waits_range(&self, step: u32) -> std::ops::Range<usize> {
        self.entries(step, |s| s.waits, self.waits.len())
    }

    /// A step's waits, in entry order.
    pub(super) fn waits_of(&self, step: u32) -> &[Wait] {
        &self.waits[self.waits_range(step)]
    }

    /// Where a step's updates are in [`Program::updates`].
    pub(super) fn updates_range(&self, step: u32) -> std::ops::Range<usize> {
        self.entries(step, |s| s.updates, self.updates.len())
    }

    /// A step's updates, in entry order.
    pub(super) fn updates_of(&self, step: u32) -> &[Update] {
        &self.updates[self.updates_range(step)]
    }

    /// Where the names a step depends on are in [`Program::dependencies`].
    pub(super) fn dependencies_range(&self, step: u32) -> std::ops::Range<usize> {
        self.entries(step, |s| s.dependencies, self.dependencies.len())
    }

    /// The blocks a step triggers (steps of queue lanes).
    pub(super) fn triggers_of(&self, s: &Step) -> &[u32] {
        match self.rare.get(s.rare as usize) {
            Some(rare) => &self.triggers[rare.triggers.range()],
            None => &[],
        }
    }

    /// The shared memory a step touches.
    pub(super) fn accesses_of(&self, s: &Step) -> &[Access] {
        match self.rare.get(s.rare as usize) {
            Some(rare) => &self.accesses[rare.accesses.range()],
            None => &[],
        }
    }

    /// The rendezvous a step is, when it is one (an un-lowered barrier or sendrecv).
    pub(super) fn rendezvous_of(&self, s: &Step) -> Option<&Rendezvous> {
        let rare = self.rare.get(s.rare as usize)?;
        self.rendezvous.get(rare.rendezvous as usize)
    }

    /// A step's instruction.
    pub(super) fn inst(&self, step: u32) -> &Inst {
        let step = &self.steps[step as usize];
        &self.cores[step.core()].module.store.insts[step.inst]
    }

    /// An instruction of a core.
    pub(super) fn inst_of(&self, core: CoreIx, inst: Handle<Inst>) -> &Inst {
        &self.cores[core].module.store.insts[inst]
    }

    /// A function's name.
    pub(super) fn function_name(&self, core: CoreIx, function: u32) -> &str {
        let core = &self.cores[core];
        core.module.store.functions[core.functions[function as usize].handle].name()
    }

    /// A step's function (`None`: a queue's block), found among its core's functions'
    /// steps.
    pub(super) fn function_of(&self, step: u32) -> Option<u32> {
        let functions = &self.cores[self.steps[step as usize].core()].functions;
        let after = functions.partition_point(|f| f.steps.start <= step);
        let f = after.checked_sub(1)?;
        functions[f].steps.range().contains(&(step as usize)).then_some(f as u32)
    }

    /// A step's function's name (`None` for a queue's block).
    pub(super) fn step_function(&self, step: u32) -> Option<&str> {
        let core = self.steps[step as usize].core();
        self.function_of(step).map(|f| self.function_name(core, f))
    }

    /// Whether a step is a `CoreBarrier` (lowered or not).
    pub(super) fn is_barrier(&self, s: &Step) -> bool {
        self.rare.get(s.rare as usize).is_some_and(|rare| rare.barrier)
    }

    /// A core's id.
    pub(super) fn core_id(&self, core: CoreIx) -> u64 {
        self.cores[core].id
    }
}

/// The keys of an instruction the program reads, found in one pass.
#[derive(Default)]
struct Keys<'a> {
    engine: Option<Json<'a>>,
    opcode: Option<Json<'a>>,
    sync: Option<Json<'a>>,
    ins: Option<Json<'a>>,
    outs: Option<Json<'a>>,
    descriptors: Option<Json<'a>>,
    dependencies: Option<Json<'a>>,
    pipe: Option<Json<'a>>,
    send_to: Option<Json<'a>>,
    recv_from: Option<Json<'a>>,
    dma_engine: bool,
    triggers: bool,
    sema_group: Option<Json<'a>>,
    cores: Option<Json<'a>>,
}

/// A branch's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Branch {
    /// Not a branch.
    None,
    /// `UnconditionalBranch`.
    Unconditional,
    /// `CompareAndBranch`.
    Compare,
}

/// What the walk needs of a step beyond its record.
#[derive(Clone, Copy, Debug)]
struct Found {
    /// It has `dma_blocks`.
    triggers: bool,
    /// It is a branch.
    branch: Branch,
}

/// What [`Builder::lists_in_place`] read: whether the instruction has `on_wait` and
/// `on_update` entries, and where they start in the program's lists.
#[derive(Clone, Copy, Debug)]
struct Lists {
    waited: bool,
    updated: bool,
    waits: usize,
    updates: usize,
}

/// Calls `each` with every element of `list`, when it is an array.
fn for_each<'a>(list: Option<Json<'a>>, mut each: impl FnMut(Json<'a>)) {
    if let Some(list) = list {
        list.for_each_element(&mut each);
    }
}

/// How one core's program is gathered: its own part of a [`Program`], joined to the
/// others' after ([`Program::append`]).
struct Builder<'m> {
    program: Program<'m>,
    core: CoreIx,
    /// Its id.
    id: u64,
    cores: u64,
    module: &'m Module,
    /// Instruction names, numbered as first borne (dependencies name them): each
    /// name's first instruction, hashed by the name — 4 bytes an entry, the name read
    /// from the module to compare, where a map of names took 24.
    names: hashbrown::HashTable<Handle<Inst>>,
    /// Each instruction's name's number, by its handle's index.
    name_of: Vec<u32>,
    /// Dependency names no instruction of the core bears.
    strangers: FxHashMap<String, u32>,
    /// The names of the instructions stepped over last, by their hash, with their
    /// numbers: a dependency nearly always names an instruction just before its own,
    /// and finding it here spares a probe of `names` (a table of every instruction).
    recent: Box<[Recent<'m>; RECENT]>,
    /// The dependencies' names of the instruction being read in place
    /// ([`Builder::lists_in_place`]).
    named: Vec<&'m str>,
    engines: Vec<String>,
    functions: FxHashMap<&'m str, u32>,
    /// The entry function ([`functions_and_entry`]).
    entry: Option<u32>,
    /// Memory locations by name: each function holding one, and its shared cell.
    memlocs: FxHashMap<&'m str, Vec<(u32, Option<u32>)>>,
    /// The names of the memory locations that are shared cells.
    shared: Vec<&'m str>,
    /// Finds one of `shared` as an operand's `memref` in a text; a backslash is looked
    /// for beside it (an escaped name is never missed).
    sharing: Sharing<'m>,
    /// Queues' blocks by queue and name, with their steps once made.
    blocks: Vec<(&'m str, Vec<(&'m str, u32)>)>,
    /// Blocks some trigger names.
    triggered: HashSet<u32>,
    /// The next instruction's place in the set's order.
    order: u32,
}

/// How many recent names [`Builder::recent`] holds (a power of two).
const RECENT: usize = 64;

/// A recent name: its hash, its number, itself.
type Recent<'m> = (u64, u32, &'m str);

/// Whether an instruction's text gives a shared memory location's name as an operand's
/// `memref`: each `"memref"` key (`memchr`'s `memmem`) has its string value looked up
/// among the names. A key is the only string a colon follows, so a text with no
/// backslash (the caller looks for one: an escape could spell the key or the name
/// otherwise) names one exactly when this finds it; what cannot be read to its end is
/// taken to name one.
struct Sharing<'m> {
    key: memchr::memmem::Finder<'static>,
    names: FxHashSet<&'m str>,
}

impl<'m> Sharing<'m> {
    fn new(names: &[&'m str]) -> Sharing<'m> {
        Sharing { key: memchr::memmem::Finder::new(b"\"memref\""), names: names.iter().copied().collect() }
    }

    fn finds(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let after = |mut at: usize, byte: u8| {
            while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
                at += 1;
            }
            (bytes.get(at) == Some(&byte)).then_some(at + 1)
        };
        self.key.find_iter(bytes).any(|at| {
            let Some(start) = after(at + b"\"memref\"".len(), b':').and_then(|colon| after(colon, b'"')) else {
                return false;
            };
            match memchr::memchr(b'"', &bytes[start..]) {
                Some(len) => text.get(start..start + len).is_none_or(|name| self.names.contains(name)),
                None => true,
            }
        })
    }
}

/// Reads the program of every core of a per-core linked set. On one thread each core's
/// builder goes on from the program so far; on several (where threads may be spawned:
/// not in wasm) each core's program is read on its own and the parts are joined in core
/// order. The outcome does not depend on `threads`. Only the shared cells are numbered
/// across cores, first, in core order.
pub(super) fn build(set: &LinkedSet, threads: usize) -> Program<'_> {
    build_with(set, threads, true)
}

/// [`build`] keeping every dependency (the tests' measure of
/// [`Program::keep_ordering_dependencies`]).
#[cfg(test)]
pub(super) fn build_every_dependency(set: &LinkedSet, threads: usize) -> Program<'_> {
    build_with(set, threads, false)
}

/// [`build`], keeping only the dependencies that order something (`ordering_only`) or
/// every one.
fn build_with(set: &LinkedSet, threads: usize, ordering_only: bool) -> Program<'_> {
    let cores = set.modules.len() as u64;
    let mut cells: HashMap<(u64, String), u32> = HashMap::new();
    let builders: Vec<Builder<'_>> = set
        .modules
        .iter()
        .enumerate()
        .map(|(index, linked)| {
            let id = linked.core.unwrap_or(index as u64);
            Builder::new(index, cores, id, &linked.module, &mut cells)
        })
        .collect();
    let mut program = if threads <= 1 || builders.len() <= 1 { in_turn(builders) } else { joined(builders, threads) };
    program.walked_instructions = walked(&program);
    // Each lane's own walks pay where the lanes walk the set's items many times over (a
    // modular set's dispatcher calls a definition once per partition; loops of many
    // trips): elsewhere a lane walks each item about once either way, and the walks
    // would hold 4 bytes an instruction more for nothing (docs/benchmarks.md).
    if runs_long(set) {
        program.make_lane_walks();
    }
    program.number_slots();
    if ordering_only {
        program.keep_ordering_dependencies();
    }
    program.shrink();
    let mut by_index: Vec<(u64, String)> = vec![(0, String::new()); cells.len()];
    for (cell, index) in cells {
        by_index[index as usize] = cell;
    }
    program.cells = by_index;
    program
}

/// The cores read one after another into one program: each builder's indices are the
/// program's already, so no part is read and copied again (the least memory: the
/// page's worker, `--threads 1`).
fn in_turn(builders: Vec<Builder<'_>>) -> Program<'_> {
    let mut program = Program::default();
    program.reserve(builders.iter().map(|b| b.module.store.insts.len()).sum());
    for mut builder in builders {
        builder.program = program;
        program = builder.read();
    }
    program
}

/// The cores read on up to `threads` threads, each into its own part, joined in core
/// order as they come: the first core's part is the program (read into a step list
/// sized for every core's), each later part is appended as soon as the parts before it
/// are, and let go, so what is held besides the program is the parts being read and
/// the few waiting for an earlier one (a worker hands a part over before it reads its
/// next).
#[cfg(not(target_arch = "wasm32"))]
fn joined(mut builders: Vec<Builder<'_>>, threads: usize) -> Program<'_> {
    let threads = threads.min(builders.len());
    let mut program = Program::default();
    // The first part is the program: sized for every core's; the others for their own.
    let instructions = builders.iter().map(|b| b.module.store.insts.len()).sum();
    for (k, builder) in builders.iter_mut().enumerate() {
        let own = builder.module.store.insts.len();
        builder.program.reserve(if k == 0 { instructions } else { own });
    }
    // Cores in turn over the threads.
    let mut shares: Vec<Vec<(usize, Builder<'_>)>> = (0..threads).map(|_| Vec::new()).collect();
    for (k, builder) in builders.into_iter().enumerate() {
        shares[k % threads].push((k, builder));
    }
    std::thread::scope(|scope| {
        let (parts, received) = std::sync::mpsc::sync_channel::<(usize, Program<'_>)>(0);
        for share in shares {
            let parts = parts.clone();
            scope.spawn(move || {
                for (k, builder) in share {
                    if parts.send((k, builder.read())).is_err() {
                        return;
                    }
                }
            });
        }
        drop(parts);
        let mut waiting: BTreeMap<usize, Program<'_>> = BTreeMap::new();
        let mut next = 0;
        for (k, part) in received {
            waiting.insert(k, part);
            while let Some(part) = waiting.remove(&next) {
                if next == 0 {
                    program = part;
                } else {
                    program.append(part);
                }
                next += 1;
            }
        }
    });
    program
}

/// Wasm spawns no thread: the cores are read in turn.
#[cfg(target_arch = "wasm32")]
fn joined(builders: Vec<Builder<'_>>, _threads: usize) -> Program<'_> {
    in_turn(builders)
}

#[cfg(not(target_arch = "wasm32"))]
impl Span {
    /// The same range of a list `by` longer at its front.
    fn shifted(self, by: usize) -> Span {
        Span { start: self.start + by as u32, len: self.len }
    }
}

impl<'m> Program<'m> {
    /// The items lane `lane` walks of `span` (a function's items or a loop's body): its
    /// own steps, the loops it issues in and every call, in order — what its walk stops
    /// at of the whole span, so that a lane does not step over the other engines'
    /// instructions (a modular set's dispatcher has each engine walk a 25k-instruction
    /// definition 46 times). The span itself when none was made (a lane of no engine).
    pub(super) fn lane_walk(&self, span: Span, lane: usize) -> Span {
        self.lane_walks.get(&(span.start, span.len, lane as u32)).copied().unwrap_or(span)
    }

    /// Makes every engine lane's walk of its core's functions that issue on its engine
    /// (the entry's always: every lane starts there) and of the loop bodies those hold,
    /// appended to [`Program::items`]: one pass over a span makes every lane's walk of it.
    pub(super) fn make_lane_walks(&mut self) {
        let mut walks = std::mem::take(&mut self.lane_walks);
        for core in 0..self.cores.len() {
            let lanes: Vec<(usize, u64)> = (0..self.lanes.len())
                .filter(|&l| self.lanes[l].core == core && self.lanes[l].queue.is_none())
                .filter_map(|l| self.lanes[l].engine_ix.map(|ix| (l, engine_bit(ix))))
                .collect();
            let entry = self.cores[core].entry;
            for f in 0..self.cores[core].functions.len() {
                let function = &self.cores[core].functions[f];
                let (items, engines) = (function.items, function.engines);
                let entered: Vec<(usize, u64)> =
                    lanes.iter().copied().filter(|&(_, bit)| engines & bit != 0 || entry == Some(f as u32)).collect();
                self.split_walks(&mut walks, items, &entered);
            }
        }
        self.lane_walks = walks;
    }

    /// Each of `lanes`' walk of `span` (and of the bodies of the loops in it they issue
    /// in), made in one pass over it.
    fn split_walks(&mut self, walks: &mut FxHashMap<(u32, u32, u32), Span>, span: Span, lanes: &[(usize, u64)]) {
        let todo: Vec<(usize, u64)> =
            lanes.iter().copied().filter(|&(l, _)| !walks.contains_key(&(span.start, span.len, l as u32))).collect();
        if todo.is_empty() {
            return;
        }
        // Each lane's place among `todo`.
        let mut slot = vec![u32::MAX; self.lanes.len()];
        for (k, &(lane, _)) in todo.iter().enumerate() {
            slot[lane] = k as u32;
        }
        let mut kept: Vec<Vec<Kept>> = vec![Vec::new(); todo.len()];
        for at in span.range() {
            let item = self.items[at];
            match item.item() {
                Item::Step(s) => {
                    if let Some(&k) = self.steps[s as usize].lane().and_then(|lane| slot.get(lane)) {
                        if let Some(walk) = kept.get_mut(k as usize) {
                            walk.push(item);
                        }
                    }
                }
                Item::Loop(l) => {
                    let (engines, body) = (self.loops[l as usize].engines, self.loops[l as usize].body);
                    let entering: Vec<(usize, u64)> =
                        todo.iter().copied().filter(|&(_, bit)| engines & bit != 0).collect();
                    self.split_walks(walks, body, &entering);
                    for (k, &(_, bit)) in todo.iter().enumerate() {
                        if engines & bit != 0 {
                            kept[k].push(item);
                        }
                    }
                }
                // Every call: the walk says a recursive one whoever's engines it holds.
                Item::Call(_) => kept.iter_mut().for_each(|walk| walk.push(item)),
            }
        }
        for ((lane, _), walk) in todo.into_iter().zip(kept) {
            let start = self.items.len();
            self.items.extend(walk);
            walks.insert((span.start, span.len, lane as u32), Span::of(start, self.items.len()));
        }
    }

    /// Sizes its lists for `instructions` more: steps are at most the instructions
    /// (that list is never grown). Natively, waits, updates and dependencies are sized
    /// for one each, updates for one and a half (birlink's sizing, from the compiler's
    /// dumps, where most instructions wait and update once): a list grown by doubling
    /// copies itself and leaves the old one's pages behind (3 MB of the short shape's
    /// 16), and what is sized and never filled is never touched, so it holds no memory
    /// ([`Program::shrink`] gives it back). In wasm every byte sized is memory: there
    /// they grow as they fill.
    fn reserve(&mut self, instructions: usize) {
        self.steps.reserve_exact(instructions);
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.waits.reserve_exact(instructions);
            self.updates.reserve_exact(instructions + instructions / 2);
            self.dependencies.reserve_exact(instructions);
        }
    }

    /// Numbers the dependency slots, for the race check: one per core and name that a
    /// dependency names, in the order first named. Each dependency becomes the slot of
    /// the name it names, and each step's name number its slot ([`NO_SLOT`]: no
    /// dependency names it). Done once the cores are read (names are numbered per core
    /// as each is), in place: the check keeps no table of its own beside them.
    fn number_slots(&mut self) {
        // Names are numbered per core from 0: the slots are a flat table by core and
        // name (4 bytes a name).
        let mut names = vec![0usize; self.cores.len()];
        for (at, step) in self.steps.iter().enumerate() {
            let core = &mut names[step.core()];
            *core = (*core).max(step.slot as usize + 1);
            for &name in &self.dependencies[self.dependencies_range(at as u32)] {
                *core = (*core).max(name as usize + 1);
            }
        }
        let mut first = Vec::with_capacity(names.len());
        let mut total = 0usize;
        for n in &names {
            first.push(total);
            total += n;
        }
        let mut slot_of_name = vec![NO_SLOT; total];
        let mut slots = 0u32;
        for k in 0..self.steps.len() {
            let (core, range) = (self.steps[k].core(), self.dependencies_range(k as u32));
            for at in range {
                let slot = &mut slot_of_name[first[core] + self.dependencies[at] as usize];
                if *slot == NO_SLOT {
                    *slot = slots;
                    slots += 1;
                }
                self.dependencies[at] = *slot;
            }
        }
        for step in &mut self.steps {
            step.slot = slot_of_name[first[step.core()] + step.slot as usize];
        }
        self.slots = slots;
    }

    /// Leaves out the dependencies that order nothing the lane's own clock does not
    /// already: every step that bears the slot is on the dependent's lane (a lane's clock
    /// only grows), or none issues, or the dependent never issues. The slots no
    /// dependency is left naming become [`NO_SLOT`], the others are numbered again in the
    /// order first named: the race check keeps a clock for a step only when another lane
    /// depends on it (the short shape's instructions each depend on the one before them
    /// in the file, often another engine's: 2 × 75k keep 112,656 of about 150k
    /// dependencies, and 37,552 steps a clock).
    fn keep_ordering_dependencies(&mut self) {
        /// A slot that steps of more than one lane bear.
        const LANES: u32 = NO_LANE - 1;
        let mut bearer = vec![NO_LANE; self.slots as usize];
        for step in &self.steps {
            if step.slot != NO_SLOT && step.lane != NO_LANE {
                let lane = &mut bearer[step.slot as usize];
                *lane = if *lane == NO_LANE || *lane == step.lane { step.lane } else { LANES };
            }
        }
        let mut renumbered = vec![NO_SLOT; self.slots as usize];
        let (mut slots, mut kept) = (0u32, 0usize);
        for k in 0..self.steps.len() {
            let range = self.dependencies_range(k as u32);
            let lane = self.steps[k].lane;
            self.steps[k].dependencies = kept as u32;
            for at in range {
                let slot = self.dependencies[at];
                let by = bearer[slot as usize];
                if lane == NO_LANE || by == NO_LANE || by == lane {
                    continue;
                }
                let slot = &mut renumbered[slot as usize];
                if *slot == NO_SLOT {
                    *slot = slots;
                    slots += 1;
                }
                self.dependencies[kept] = *slot;
                kept += 1;
            }
        }
        self.dependencies.truncate(kept);
        for step in &mut self.steps {
            if step.slot != NO_SLOT {
                step.slot = renumbered[step.slot as usize];
            }
        }
        self.slots = slots;
    }

    /// Gives back what its lists grew by and did not fill (a large list's shrink is a
    /// remap in place, not a copy).
    fn shrink(&mut self) {
        self.steps.shrink_to_fit();
        self.items.shrink_to_fit();
        self.waits.shrink_to_fit();
        self.updates.shrink_to_fit();
        self.rare.shrink_to_fit();
        self.triggers.shrink_to_fit();
        self.accesses.shrink_to_fit();
        self.dependencies.shrink_to_fit();
        // Numbered: the table by key is not needed again.
        self.semaphores.numbers = FxHashMap::default();
    }

    /// Appends one core's part, read on its own: its indices into the flat lists move
    /// past what is already there.
    #[cfg(not(target_arch = "wasm32"))]
    fn append(&mut self, part: Program<'m>) {
        let steps = self.steps.len() as u32;
        let shift_step = |s: u32| s + steps;
        let (items, loops, calls, lanes) = (self.items.len(), self.loops.len(), self.calls.len(), self.lanes.len());
        let (waits, updates, triggers, rare) =
            (self.waits.len(), self.updates.len(), self.triggers.len(), self.rare.len());
        let (accesses, dependencies, rendezvous) =
            (self.accesses.len(), self.dependencies.len(), self.rendezvous.len());
        let Program {
            cores: part_cores,
            steps: part_steps,
            items: part_items,
            loops: part_loops,
            calls: part_calls,
            lanes: part_lanes,
            waits: part_waits,
            updates: part_updates,
            semaphores: part_semaphores,
            rare: part_rare,
            triggers: part_triggers,
            accesses: part_accesses,
            dependencies: part_dependencies,
            rendezvous: part_rendezvous,
            pipes: part_pipes,
            cells: _,
            noted: part_noted,
            static_instructions,
            walked_instructions: _,
            // Numbered once the parts are joined.
            slots: _,
            // Made once the parts are joined.
            lane_walks: _,
        } = part;
        self.steps.extend(part_steps.into_iter().map(|mut s| {
            s.waits += waits as u32;
            s.updates += updates as u32;
            if s.rare != NO_RARE {
                s.rare += rare as u32;
            }
            s.dependencies += dependencies as u32;
            if s.lane != NO_LANE {
                s.lane += lanes as u32;
            }
            s
        }));
        self.items.extend(part_items.into_iter().map(|kept| {
            Kept::of(match kept.item() {
                Item::Step(s) => Item::Step(shift_step(s)),
                Item::Loop(l) => Item::Loop(l + loops as u32),
                Item::Call(c) => Item::Call(c + calls as u32),
            })
        }));
        self.loops.extend(part_loops.into_iter().map(|mut l| {
            l.body = l.body.shifted(items);
            l
        }));
        self.calls.extend(part_calls);
        self.lanes.extend(part_lanes.into_iter().map(|mut lane| {
            lane.initial.iter_mut().for_each(|b| *b = shift_step(*b));
            lane
        }));
        // The part's semaphores numbered on: in its order, as first named.
        let sems: Vec<u32> = part_semaphores.keys.into_iter().map(|key| self.semaphores.number(key)).collect();
        self.waits.extend(part_waits.into_iter().map(|mut w| {
            w.sem = sems[w.sem as usize];
            w
        }));
        self.updates.extend(part_updates.into_iter().map(|mut u| {
            u.sem = sems[u.sem as usize];
            u
        }));
        self.rare.extend(part_rare.into_iter().map(|r| Rare {
            triggers: r.triggers.shifted(triggers),
            accesses: r.accesses.shifted(accesses),
            rendezvous: if r.rendezvous == NO_RENDEZVOUS { NO_RENDEZVOUS } else { r.rendezvous + rendezvous as u32 },
            barrier: r.barrier,
        }));
        self.triggers.extend(part_triggers.into_iter().map(shift_step));
        self.accesses.extend(part_accesses);
        self.dependencies.extend(part_dependencies);
        self.rendezvous.extend(part_rendezvous);
        self.pipes.extend(part_pipes.into_iter().map(|(s, pipe)| (shift_step(s), pipe)));
        self.noted.extend(part_noted.into_iter().map(|mut note| {
            if let Noted::NotModelled { step: Some(step), .. } = &mut note {
                *step = shift_step(*step);
            }
            note
        }));
        self.cores.extend(part_cores.into_iter().map(|mut core| {
            core.functions.iter_mut().for_each(|f| {
                f.items = f.items.shifted(items);
                f.steps = f.steps.shifted(steps as usize);
            });
            core
        }));
        self.static_instructions += static_instructions;
    }
}

/// What a walk of every core issues, loops taken once, calls entered each time (a call
/// of a function on its own chain counts nothing), queues' blocks included; saturating.
fn walked(program: &Program<'_>) -> u64 {
    fn items(program: &Program<'_>, core: usize, span: Span, memo: &mut [Option<u64>], chain: &mut Vec<u32>) -> u64 {
        let mut n = 0u64;
        for at in span.range() {
            n = n.saturating_add(match program.item(at) {
                Item::Step(_) => 1,
                Item::Loop(l) => items(program, core, program.loops[l as usize].body, memo, chain),
                Item::Call(c) => match program.calls[c as usize].target {
                    Some(t) if !chain.contains(&t) => function(program, core, t, memo, chain),
                    _ => 0,
                },
            });
        }
        n
    }
    fn function(program: &Program<'_>, core: usize, f: u32, memo: &mut [Option<u64>], chain: &mut Vec<u32>) -> u64 {
        if let Some(n) = memo[f as usize] {
            return n;
        }
        chain.push(f);
        let n = items(program, core, program.cores[core].functions[f as usize].items, memo, chain);
        chain.pop();
        memo[f as usize] = Some(n);
        n
    }
    let mut total = 0u64;
    for (core, prog) in program.cores.iter().enumerate() {
        let mut memo = vec![None; prog.functions.len()];
        if let Some(entry) = prog.entry {
            total = total.saturating_add(function(program, core, entry, &mut memo, &mut Vec::new()));
        }
    }
    let blocks = (0..program.steps.len() as u32).filter(|&s| program.function_of(s).is_none()).count() as u64;
    total.saturating_add(blocks)
}

/// A module's functions by name (the first of a name is the one) and its entry: `main`,
/// else its first function.
fn functions_and_entry(module: &Module) -> (FxHashMap<&str, u32>, Option<u32>) {
    let mut functions = FxHashMap::default();
    for (k, &f) in module.functions.iter().enumerate() {
        functions.entry(module.store.functions[f].name()).or_insert(k as u32);
    }
    let entry = functions.get("main").copied().or((!module.functions.is_empty()).then_some(0));
    (functions, entry)
}

/// How many instructions a walk from each core's entry issues (calls entered unless
/// recursive, loops taken their trip count, an unknown count once: what the execution
/// issues on the engines' lanes when it completes), against how many the set holds:
/// read from the modules before any program is, so a caller can schedule the check
/// (docs/spec/sync.md §11). Only the opcodes, a call's `target` and a loop's count are
/// read.
pub(super) fn issues_and_instructions(set: &LinkedSet) -> (u64, u64) {
    fn blocks(module: &Module, list: &[Handle<Block>], functions: &FxHashMap<&str, u32>, walk: &mut Walk) -> u64 {
        let mut n = 0u64;
        for &block in list {
            for &inst in &module.store.blocks[block].insts {
                let i = &module.store.insts[inst];
                n = n.saturating_add(match i.op {
                    Op::Loop => {
                        let body = i.body.as_deref().map_or(0, |b| blocks(module, b, functions, walk));
                        trips_of(i).unwrap_or(1).saturating_mul(body)
                    }
                    Op::Call => {
                        let view = i.view();
                        let target = view.get("target").and_then(Json::as_str).and_then(|t| functions.get(t));
                        target.map_or(0, |&f| function(module, f as usize, functions, walk))
                    }
                    _ => 1,
                });
            }
        }
        n
    }
    fn function(module: &Module, f: usize, functions: &FxHashMap<&str, u32>, walk: &mut Walk) -> u64 {
        if let Some(n) = walk.memo[f] {
            return n;
        }
        if walk.chain.contains(&f) {
            return 0;
        }
        walk.chain.push(f);
        let n = blocks(module, &module.store.functions[module.functions[f]].blocks, functions, walk);
        walk.chain.pop();
        walk.memo[f] = Some(n);
        n
    }
    struct Walk {
        memo: Vec<Option<u64>>,
        chain: Vec<usize>,
    }
    let (mut issued, mut instructions) = (0u64, 0u64);
    for linked in &set.modules {
        let module = &linked.module;
        instructions = instructions.saturating_add(module.store.insts.len() as u64);
        let (functions, entry) = functions_and_entry(module);
        if let Some(entry) = entry {
            let mut walk = Walk { memo: vec![None; module.functions.len()], chain: Vec::new() };
            issued = issued.saturating_add(function(module, entry as usize, &functions, &mut walk));
        }
    }
    (issued, instructions)
}

/// A `Loop`'s trip count ([`trips`]).
pub(crate) fn trips_of(inst: &Inst) -> Option<u64> {
    trips(&inst.fields())
}

/// The `LoopAxis` trip count: `max(0, ceil((ub-lb)/stride))`, else `iterations` or
/// `trip_count`; `None` without a static one.
fn trips(fields: &serde_json::Map<String, Value>) -> Option<u64> {
    if let Some(axis) = fields.get("LoopAxis").and_then(Value::as_object) {
        let int = |key: &str, default: i64| match axis.get(key) {
            None => Some(default),
            Some(v) => v.as_i64(),
        };
        if let (Some(lb), Some(ub), Some(stride)) =
            (int("lb", 0), axis.get("ub").and_then(Value::as_i64), int("stride", 1))
        {
            if stride != 0 {
                let span = i128::from(ub) - i128::from(lb);
                let stride = i128::from(stride);
                let count = if (span > 0) == (stride > 0) && span != 0 {
                    (span + stride - stride.signum()) / stride
                } else {
                    0
                };
                return u64::try_from(count.max(0)).ok();
            }
        }
    }
    ["iterations", "trip_count"].iter().find_map(|key| fields.get(*key).and_then(Value::as_u64))
}

impl<'m> Builder<'m> {
    /// A name's number: an instruction's, or a dependency's that names none.
    fn intern_name(&mut self, name: &str) -> u32 {
        let insts = &self.module.store.insts;
        let hash = FxBuildHasher.hash_one(name);
        if let Some(&first) = self.names.find(hash, |&first| insts[first].name() == name) {
            return self.name_of[first.index()];
        }
        let next = (self.names.len() + self.strangers.len()) as u32;
        *self.strangers.entry(name.to_owned()).or_insert(next)
    }

    /// A dependency's name's number: a recent instruction's, else [`Builder::intern_name`].
    fn dependency_name(&mut self, name: &str) -> u32 {
        let hash = FxBuildHasher.hash_one(name);
        match self.recent[hash as usize % RECENT] {
            (h, number, recent) if h == hash && recent == name => number,
            _ => self.intern_name(name),
        }
    }

    fn intern_engine(&mut self, engine: &str) -> u16 {
        match self.engines.iter().position(|e| e == engine) {
            Some(at) => at as u16,
            None => {
                self.engines.push(engine.to_owned());
                (self.engines.len() - 1) as u16
            }
        }
    }

    /// The next instruction object's place in the set's order (and the budget's count).
    fn next_order(&mut self) -> u32 {
        self.program.static_instructions += 1;
        self.order += 1;
        self.order - 1
    }

    /// A core's builder, its names, functions and memory locations read, and its shared
    /// cells numbered after those of the cores before it.
    fn new(core: CoreIx, cores: u64, id: u64, module: &'m Module, cells: &mut HashMap<(u64, String), u32>) -> Self {
        let mut builder = Builder {
            program: Program::default(),
            core,
            id,
            cores,
            module,
            names: hashbrown::HashTable::new(),
            name_of: Vec::new(),
            strangers: FxHashMap::default(),
            recent: Box::new([(0, 0, ""); RECENT]),
            named: Vec::new(),
            engines: Vec::new(),
            functions: FxHashMap::default(),
            entry: None,
            memlocs: FxHashMap::default(),
            shared: Vec::new(),
            sharing: Sharing::new(&[]),
            blocks: Vec::new(),
            triggered: HashSet::new(),
            order: 0,
        };
        let store = &module.store;
        let (functions, entry) = functions_and_entry(module);
        (builder.functions, builder.entry) = (functions, entry);
        for (k, &f) in module.functions.iter().enumerate() {
            for allocation in &store.functions[f].allocations {
                let Allocation::Set(set) = allocation else { continue };
                let shared_set = store.sets[*set].addr_space() == "Shared";
                for &m in &store.sets[*set].memlocs {
                    let memloc = &store.memlocs[m];
                    let shared = shared_set
                        || memloc.fields.get("is_shared_post_dram_alloc").and_then(Value::as_bool) == Some(true);
                    let cell = match memloc.remote_target() {
                        Some(target) => Some((target.core, target.name)),
                        None if shared => Some((id, memloc.name().to_owned())),
                        None => None,
                    };
                    let cell = cell.map(|cell| {
                        let next = cells.len() as u32;
                        *cells.entry(cell).or_insert(next)
                    });
                    if cell.is_some() && !builder.shared.contains(&memloc.name()) {
                        builder.shared.push(memloc.name());
                    }
                    builder.memlocs.entry(memloc.name()).or_default().push((k as u32, cell));
                }
            }
        }
        builder.sharing = Sharing::new(&builder.shared);
        builder
    }

    /// The core's part of the program: its functions' steps, then its queues' blocks.
    fn read(mut self) -> Program<'m> {
        let module = self.module;
        let store = &module.store;
        // Names first, when the core is read (not while the cores before it are): a
        // dependency may name an instruction further on.
        let insts = &store.insts;
        let hash_of = |&first: &Handle<Inst>| FxBuildHasher.hash_one(insts[first].name());
        self.names.reserve(insts.len(), hash_of);
        self.name_of.reserve_exact(insts.len());
        for (handle, inst) in insts.iter() {
            let name = inst.name();
            let number = match self.names.entry(FxBuildHasher.hash_one(name), |&h| insts[h].name() == name, hash_of) {
                hashbrown::hash_table::Entry::Occupied(first) => self.name_of[first.get().index()],
                hashbrown::hash_table::Entry::Vacant(vacant) => {
                    vacant.insert(handle);
                    (self.names.len() - 1) as u32
                }
            };
            self.name_of.push(number);
        }
        // The queues' blocks by name, for triggers (their steps are made after the
        // functions', in the set's order).
        for &q in &module.queues {
            let queue = &store.queues[q];
            let named = queue
                .instances
                .iter()
                .flat_map(|&instance| &store.instances[instance].insts)
                .filter(|&&inst| store.insts[inst].op == Op::DmaBlock)
                .map(|&inst| (store.insts[inst].name(), u32::MAX))
                .collect();
            self.blocks.push((queue.name(), named));
        }
        let mut functions = Vec::with_capacity(module.functions.len());
        let mut pending: Vec<(u32, Handle<Inst>, u32, u32)> = Vec::new();
        for (k, &f) in module.functions.iter().enumerate() {
            let first = self.program.steps.len();
            let items = self.blocks_items(&store.functions[f].blocks, k as u32, &mut pending);
            let steps = Span::of(first, self.program.steps.len());
            functions.push(FunctionProg { handle: f, items, steps, engines: 0, reached: false });
        }
        let mut queue_blocks = Vec::new();
        for (qi, &q) in module.queues.iter().enumerate() {
            let mut at = 0;
            for &instance in &store.queues[q].instances {
                for &inst in &store.instances[instance].insts {
                    let order = self.next_order();
                    if store.insts[inst].op != Op::DmaBlock {
                        continue;
                    }
                    let (step, _) = self.step(inst, None, order);
                    if let Some(entry) = self.blocks[qi].1.get_mut(at) {
                        entry.1 = step;
                    }
                    at += 1;
                    queue_blocks.push(step);
                }
            }
        }
        // Triggers, now that every block has its step.
        self.triggers(pending);
        let mut prog = CoreProg { id: self.id, module, functions, entry: self.entry, engines: Vec::new() };
        self.engines_and_reach(&mut prog);
        prog.engines = std::mem::take(&mut self.engines);
        self.lanes(&prog, &queue_blocks);
        self.program.cores.push(prog);
        self.program
    }

    /// The items of a list of blocks, in walk order.
    fn blocks_items(
        &mut self,
        blocks: &[Handle<Block>],
        function: u32,
        pending: &mut Vec<(u32, Handle<Inst>, u32, u32)>,
    ) -> Span {
        let store = &self.module.store;
        let mut items: Vec<Kept> = Vec::new();
        for (b, &block) in blocks.iter().enumerate() {
            let next_block = blocks.get(b + 1).map(|&n| store.blocks[n].name());
            for &inst in &store.blocks[block].insts {
                let order = self.next_order();
                let i = &store.insts[inst];
                match i.op {
                    Op::Loop => {
                        let fields = i.fields();
                        let trips = trips(&fields);
                        if trips.is_none() {
                            let axis = fields.get("LoopAxis").cloned();
                            self.program.noted.push(Noted::Unbounded { core: self.core, function, inst, order, axis });
                        }
                        let inner = i.body.as_deref().map_or(&[][..], |b| &b[..]);
                        let body = self.blocks_items(inner, function, pending);
                        self.program.loops.push(LoopItem { inst, trips, body, engines: 0 });
                        items.push(Kept::of(Item::Loop((self.program.loops.len() - 1) as u32)));
                    }
                    Op::Call => {
                        let view = i.view();
                        let name = view.get("target").and_then(Json::as_str).unwrap_or("");
                        let target = self.functions.get(name).copied();
                        if target.is_none() {
                            self.program.noted.push(Noted::NotModelled {
                                core: self.core,
                                function: Some(function),
                                inst,
                                step: None,
                                order,
                                what: What::UnknownCall,
                                target: Some(name.to_owned()),
                                entry: None,
                            });
                        }
                        self.program.calls.push(CallItem { inst, target, order });
                        items.push(Kept::of(Item::Call((self.program.calls.len() - 1) as u32)));
                    }
                    _ => {
                        let (step, keys) = self.step(inst, Some(function), order);
                        self.branch(inst, step, function, next_block, order, keys);
                        if keys.triggers {
                            pending.push((step, inst, function, order));
                        }
                        items.push(Kept::of(Item::Step(step)));
                    }
                }
            }
        }
        let start = self.program.items.len();
        self.program.items.extend(items);
        Span::of(start, self.program.items.len())
    }

    /// A branch that does not fall through is noted (it is issued, not followed).
    fn branch(
        &mut self,
        inst: Handle<Inst>,
        step: u32,
        function: u32,
        next_block: Option<&str>,
        order: u32,
        keys: Found,
    ) {
        if keys.branch == Branch::None {
            return;
        }
        let i = &self.module.store.insts[inst];
        let view = i.view();
        let target = match keys.branch {
            Branch::Unconditional => match view.get("target").map(|t| t.as_str().map(str::to_owned)) {
                None => return,
                Some(target) if target.as_deref() == next_block => return,
                Some(target) => target,
            },
            _ => view.get("on_true").and_then(Json::as_str).map(str::to_owned),
        };
        self.program.noted.push(Noted::NotModelled {
            core: self.core,
            function: Some(function),
            inst,
            step: Some(step),
            order,
            what: What::Branch,
            target,
            entry: None,
        });
    }

    /// One instruction's step, its keys read in one pass over its text; what else the
    /// walk needs of it.
    fn step(&mut self, inst: Handle<Inst>, function: Option<u32>, order: u32) -> (u32, Found) {
        let module = self.module;
        let i = &module.store.insts[inst];
        // Most instructions: the three keys where the reader found them, when the text
        // names no shared memory location (else its operands are read, below).
        if let Some(found) = i.sync_keys().filter(|found| !self.may_share(Some(found.text))) {
            if let Some(lists) = self.lists_in_place(found) {
                let keys = Keys { engine: found.engine, ..Keys::default() };
                return self.step_of(inst, function, order, keys, false, Some(lists));
            }
        }
        let view = i.view();
        let shares = self.may_share(view.text());
        let mut keys = Keys::default();
        view.for_each_member(&mut |key, value| match key {
            "engine" => keys.engine = Some(value),
            "opcode" => keys.opcode = Some(value),
            "sync_info" => keys.sync = Some(value),
            "ins" => keys.ins = Some(value),
            "outs" => keys.outs = Some(value),
            "blocks" => keys.descriptors = Some(value),
            "dependencies" => keys.dependencies = Some(value),
            "pipe_id" => keys.pipe = Some(value),
            "send_to_rank" => keys.send_to = Some(value),
            "recv_from_rank" => keys.recv_from = Some(value),
            "dma_engine" => keys.dma_engine = true,
            "dma_blocks" => keys.triggers = true,
            "sema_group" => keys.sema_group = Some(value),
            "cores" => keys.cores = Some(value),
            _ => {}
        });
        self.step_of(inst, function, order, keys, shares, None)
    }

    /// A kept instruction's waits and updates, pushed on the program's lists, and its
    /// dependencies' names, in [`Builder::named`]: read in one pass over `sync_info`
    /// and `dependencies` where the reader found them. `None` (nothing pushed) when
    /// one of them is not read so (an escape, an entry that cannot be read, a list that
    /// is not one): the caller walks the instruction's members instead.
    fn lists_in_place(&mut self, found: SyncKeys<'m>) -> Option<Lists> {
        let (waits, updates) = (self.program.waits.len(), self.program.updates.len());
        let mut lists = Lists { waited: false, updated: false, waits, updates };
        if self.read_in_place(found, &mut lists).is_none() {
            self.program.waits.truncate(waits);
            self.program.updates.truncate(updates);
            return None;
        }
        Some(lists)
    }

    /// [`Builder::lists_in_place`]'s reading, into `lists` (the caller undoes a read
    /// that stopped).
    fn read_in_place(&mut self, found: SyncKeys<'m>, lists: &mut Lists) -> Option<()> {
        if let Some(at) = found.sync_info {
            let (cores, core, program) = (self.cores, self.core, &mut self.program);
            Cursor::new(found.text, at).object(|cursor, key| match key {
                "on_wait" => cursor.array(|entry| {
                    lists.waited = true;
                    let sems = &mut program.semaphores;
                    program.waits.push(entries::wait_at(entry, core, |key| sems.number(key))?);
                    Some(())
                }),
                "on_update" => cursor.array(|entry| {
                    lists.updated = true;
                    let sems = &mut program.semaphores;
                    program.updates.push(entries::update_at(entry, cores, core, |key| sems.number(key))?);
                    Some(())
                }),
                _ => cursor.value().map(drop),
            })?;
        }
        self.named.clear();
        if let Some(at) = found.dependencies {
            let named = &mut self.named;
            // Names, or `[name, kind]` pairs.
            Cursor::new(found.text, at).array(|dependency| match dependency.peek()? {
                b'"' => dependency.string().map(|name| named.push(name)),
                b'[' => {
                    let mut first = true;
                    dependency.array(|element| {
                        if std::mem::take(&mut first) && element.peek() == Some(b'"') {
                            named.push(element.string()?);
                        } else {
                            element.value()?;
                        }
                        Some(())
                    })
                }
                _ => dependency.value().map(drop),
            })?;
        }
        Some(())
    }

    /// [`Builder::step`] once its keys are read (`shares`: its operands may name a
    /// shared memory location).
    fn step_of(
        &mut self,
        inst: Handle<Inst>,
        function: Option<u32>,
        order: u32,
        keys: Keys<'_>,
        shares: bool,
        in_place: Option<Lists>,
    ) -> (u32, Found) {
        let i = &self.module.store.insts[inst];
        let opcode = keys.opcode.and_then(Json::as_str).unwrap_or("");
        let found = Found {
            triggers: keys.triggers,
            branch: match opcode {
                opcode::UNCONDITIONAL_BRANCH => Branch::Unconditional,
                opcode::COMPARE_AND_BRANCH => Branch::Compare,
                _ => Branch::None,
            },
        };
        let engine = keys.engine.and_then(Json::as_str).unwrap_or("Unassigned");
        let engine = self.intern_engine(engine);
        // Numbered with the core's names (an instruction of the module always is).
        let name = match self.name_of.get(inst.index()) {
            Some(&number) => number,
            None => self.intern_name(i.name()),
        };
        let hash = FxBuildHasher.hash_one(i.name());
        self.recent[hash as usize % RECENT] = (hash, name, i.name());
        let index = self.program.steps.len() as u32;
        // Waits and updates.
        let (waits_start, updates_start) = match in_place {
            Some(lists) => (lists.waits, lists.updates),
            None => (self.program.waits.len(), self.program.updates.len()),
        };
        let (mut waited, mut updated) = in_place.map_or((false, false), |lists| (lists.waited, lists.updated));
        for_each(keys.sync.and_then(|s| s.get("on_wait")), |entry| {
            waited = true;
            let sems = &mut self.program.semaphores;
            match entries::wait(entry, self.core, |key| sems.number(key)) {
                Some(wait) => self.program.waits.push(wait),
                None => self.note_entry(inst, (index, function), order, What::UnreadableWait, entry.to_value()),
            }
        });
        let waits = waits_start as u32;
        for_each(keys.sync.and_then(|s| s.get("on_update")), |entry| {
            updated = true;
            let sems = &mut self.program.semaphores;
            match entries::update(entry, self.cores, self.core, |key| sems.number(key)) {
                Some(update) => self.program.updates.push(update),
                None => self.note_entry(inst, (index, function), order, What::UnreadableUpdate, entry.to_value()),
            }
        });
        if opcode == opcode::GROUP_RESET_SEMAPHORES {
            let core = self.core;
            for_each(keys.sema_group, |id| {
                if let Some(id) = id.as_u64() {
                    let sem = self.program.semaphores.number((core, SemKind::Semaphore, id));
                    self.program.updates.push(Update { value: 0, sem, mode: Mode::SemWrImm, remote: false });
                }
            });
        }
        let updates = updates_start as u32;
        let lowered = waited || updated;
        // The rendezvous it is, and a sendrecv's pipe.
        let mut rendezvous = None;
        let barrier = i.op == Op::CoreBarrier;
        if barrier && !lowered {
            let mut cores = Vec::new();
            for_each(keys.cores, |c| cores.extend(c.as_u64().filter(|&c| c < self.cores).map(|c| c as usize)));
            if cores.is_empty() {
                cores = (0..self.cores as usize).collect();
            }
            rendezvous = Some(self.push_rendezvous(Meet::Barrier, cores));
        }
        if let Some(pipe) = keys.pipe.and_then(Json::as_u64) {
            let ranks: Vec<u64> =
                [keys.send_to, keys.recv_from].into_iter().flatten().filter_map(Json::as_u64).collect();
            let transport = if keys.dma_engine {
                Transport::DmaEngine
            } else if i.op == Op::Sb2Sb {
                Transport::GpsimdDma
            } else {
                Transport::Dma
            };
            self.program.pipes.push((index, PipeOp { pipe, ranks: ranks.clone(), transport }));
            if !lowered {
                let cores = if ranks.is_empty() {
                    (0..self.cores as usize).collect()
                } else {
                    ranks.iter().filter(|&&r| r < self.cores).map(|&r| r as usize).collect()
                };
                rendezvous = Some(self.push_rendezvous(Meet::Pipe(pipe), cores));
            }
        }
        // Shared memory it touches: `ins` read, `outs` write, then a DMA block's
        // descriptors' own. Its operands are read only when its text names a shared
        // memory location at all (most instructions touch none).
        let accesses_start = self.program.accesses.len();
        if shares {
            self.operands(keys.ins, function, false);
            self.operands(keys.outs, function, true);
            if i.op == Op::DmaBlock {
                for_each(keys.descriptors, |descriptor| {
                    for_each(descriptor.get("instructions"), |inner| {
                        self.operands(inner.get("ins"), function, false);
                        self.operands(inner.get("outs"), function, true);
                    });
                });
            }
        }
        let accesses = Span::of(accesses_start, self.program.accesses.len());
        // Dependencies: names, or `[name, kind]` pairs.
        let dependencies_start = self.program.dependencies.len();
        if in_place.is_some() {
            for at in 0..self.named.len() {
                let name = self.dependency_name(self.named[at]);
                self.program.dependencies.push(name);
            }
        }
        for_each(keys.dependencies, |dependency| {
            let name = dependency.as_str().or_else(|| {
                let mut first = None;
                dependency.for_each_element(&mut |e| {
                    first = first.or(Some(e));
                });
                first.and_then(Json::as_str)
            });
            if let Some(name) = name {
                let name = self.dependency_name(name);
                self.program.dependencies.push(name);
            }
        });
        let dependencies = dependencies_start as u32;
        self.program.steps.push(Step {
            core: self.core as u16,
            inst,
            lane: NO_LANE,
            engine,
            waits,
            updates,
            rare: if accesses.len == 0 && rendezvous.is_none() && !barrier {
                NO_RARE
            } else {
                let rendezvous = rendezvous.unwrap_or(NO_RENDEZVOUS);
                self.program.rare.push(Rare { triggers: Span::default(), accesses, rendezvous, barrier });
                (self.program.rare.len() - 1) as u32
            },
            dependencies,
            slot: name,
        });
        (index, found)
    }

    /// Whether an instruction whose kept text is `text` may name a shared memory
    /// location: an operand's `memref` in its text is one's name, or the text holds an
    /// escape, or it is parsed (`None`) and the core has shared memory at all.
    fn may_share(&self, text: Option<&str>) -> bool {
        match text {
            _ if self.shared.is_empty() => false,
            Some(text) => memchr::memchr(b'\\', text.as_bytes()).is_some() || self.sharing.finds(text),
            None => true,
        }
    }

    /// The shared cells an operand list names.
    fn operands(&mut self, list: Option<Json<'_>>, function: Option<u32>, write: bool) {
        for_each(list, |operand| {
            let Some(memref) = operand.get("memref").and_then(Json::as_str) else { return };
            let owner = operand.get("memref_owner_func").and_then(Json::as_str);
            if let Some(cell) = self.cell(memref, function, owner) {
                self.program.accesses.push(Access { cell, write });
            }
        });
    }

    /// A rendezvous among `cores` and this core, in core order.
    fn push_rendezvous(&mut self, meet: Meet, mut cores: Vec<CoreIx>) -> u32 {
        cores.push(self.core);
        cores.sort_unstable();
        cores.dedup();
        self.program.rendezvous.push(Rendezvous { meet, cores });
        (self.program.rendezvous.len() - 1) as u32
    }

    /// An entry of step `at.0` (in `at.1`) that cannot be read.
    fn note_entry(&mut self, inst: Handle<Inst>, at: (u32, Option<u32>), order: u32, what: What, entry: Value) {
        let (step, function) = at;
        let core = self.core;
        let note = Noted::NotModelled {
            core,
            function,
            inst,
            step: Some(step),
            order,
            what,
            target: None,
            entry: Some(entry),
        };
        self.program.noted.push(note);
    }

    /// The shared cell an operand names: its memory location in its function, then in
    /// `memref_owner_func`, then anywhere in the module; `None` for memory no other core
    /// shares.
    fn cell(&self, memref: &str, function: Option<u32>, owner: Option<&str>) -> Option<u32> {
        let found = self.memlocs.get(memref)?;
        let owner = owner.and_then(|o| self.functions.get(o).copied());
        let pick = found
            .iter()
            .find(|(f, _)| Some(*f) == function)
            .or_else(|| found.iter().find(|(f, _)| Some(*f) == owner))
            .or_else(|| found.first())?;
        pick.1
    }

    /// The blocks each `DMATrigger` names: the first of that name in its queue (in
    /// every queue, in order, without one); BL0712 for a name that names none.
    fn triggers(&mut self, pending: Vec<(u32, Handle<Inst>, u32, u32)>) {
        let mut in_queue: HashMap<(&str, &str), u32> = HashMap::new();
        let mut anywhere: HashMap<&str, u32> = HashMap::new();
        for (queue, blocks) in &self.blocks {
            for &(name, step) in blocks.iter().filter(|(_, step)| *step != u32::MAX) {
                in_queue.entry((*queue, name)).or_insert(step);
                anywhere.entry(name).or_insert(step);
            }
        }
        for (step, inst, function, order) in pending {
            let view = self.module.store.insts[inst].view();
            let queue = view.get("queue").and_then(Json::as_str);
            let start = self.program.triggers.len();
            for_each(view.get("dma_blocks"), |name| {
                let Some(name) = name.as_str() else { return };
                let found = match queue {
                    Some(queue) => in_queue.get(&(queue, name)),
                    None => anywhere.get(name),
                };
                match found {
                    Some(&block) => {
                        self.triggered.insert(block);
                        self.program.triggers.push(block);
                    }
                    None => self.program.noted.push(Noted::NotModelled {
                        core: self.core,
                        function: Some(function),
                        inst,
                        step: Some(step),
                        order,
                        what: What::NoBlock,
                        target: Some(name.to_owned()),
                        entry: None,
                    }),
                }
            });
            let triggers = Span::of(start, self.program.triggers.len());
            let rare = self.program.steps[step as usize].rare;
            match self.program.rare.get_mut(rare as usize) {
                Some(rare) => rare.triggers = triggers,
                None => {
                    self.program.rare.push(Rare { triggers, ..Rare::default() });
                    self.program.steps[step as usize].rare = (self.program.rare.len() - 1) as u32;
                }
            }
        }
    }

    /// Which engines each function and loop issues on (calls included, to a fixed
    /// point), and which functions the entry reaches.
    fn engines_and_reach(&mut self, prog: &mut CoreProg<'m>) {
        let program = &mut self.program;
        // A loop's engines: its body's own steps and nested loops (calls added below).
        fn own(program: &mut Program<'_>, span: Span) -> u64 {
            let mut bits = 0u64;
            for at in span.range() {
                bits |= match program.item(at) {
                    Item::Step(s) => engine_bit(program.steps[s as usize].engine),
                    Item::Loop(l) => {
                        let inner = own(program, program.loops[l as usize].body);
                        program.loops[l as usize].engines = inner;
                        inner
                    }
                    Item::Call(_) => 0,
                };
            }
            bits
        }
        for function in &mut prog.functions {
            function.engines = own(program, function.items);
        }
        // Calls: a function's engines include its callees', to a fixed point.
        fn calls(program: &Program<'_>, span: Span, out: &mut Vec<u32>) {
            for at in span.range() {
                match program.item(at) {
                    Item::Call(c) => out.extend(program.calls[c as usize].target),
                    Item::Loop(l) => calls(program, program.loops[l as usize].body, out),
                    Item::Step(_) => {}
                }
            }
        }
        let callees: Vec<Vec<u32>> = prog
            .functions
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                calls(program, f.items, &mut out);
                out
            })
            .collect();
        loop {
            let mut changed = false;
            for (k, called) in callees.iter().enumerate() {
                let more = called.iter().fold(0u64, |bits, &t| bits | prog.functions[t as usize].engines);
                if more & !prog.functions[k].engines != 0 {
                    prog.functions[k].engines |= more;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // A loop's engines include those of the functions its body calls.
        fn loops_with_calls(program: &mut Program<'_>, span: Span, functions: &[FunctionProg]) -> u64 {
            let mut bits = 0u64;
            for at in span.range() {
                bits |= match program.item(at) {
                    Item::Step(_) => 0,
                    Item::Call(c) => program.calls[c as usize].target.map_or(0, |t| functions[t as usize].engines),
                    Item::Loop(l) => {
                        let body = program.loops[l as usize].body;
                        let inner = program.loops[l as usize].engines | loops_with_calls(program, body, functions);
                        program.loops[l as usize].engines = inner;
                        inner
                    }
                };
            }
            bits
        }
        let functions = prog.functions.clone();
        for function in &prog.functions {
            loops_with_calls(program, function.items, &functions);
        }
        // Reached from the entry.
        let mut stack: Vec<u32> = prog.entry.into_iter().collect();
        while let Some(f) = stack.pop() {
            let function = &mut prog.functions[f as usize];
            if function.reached {
                continue;
            }
            function.reached = true;
            stack.extend(&callees[f as usize]);
        }
    }

    /// The core's lanes: the engines its reached functions issue on, in the wire order,
    /// then its queues that hold blocks, by name; each step given its lane.
    fn lanes(&mut self, prog: &CoreProg<'m>, queue_blocks: &[u32]) {
        let reached_engines = prog.functions.iter().filter(|f| f.reached).fold(0u64, |bits, f| bits | f.engines);
        let mut engines: Vec<(usize, &str, u16)> = prog
            .engines
            .iter()
            .enumerate()
            .filter(|(k, _)| reached_engines & engine_bit(*k as u16) != 0)
            .map(|(k, name)| (engine_order(name).0, name.as_str(), k as u16))
            .collect();
        engines.sort();
        let mut lane_of_engine: HashMap<u16, u32> = HashMap::new();
        for (_, name, k) in engines {
            lane_of_engine.insert(k, self.program.lanes.len() as u32);
            let lane =
                Lane { core: self.core, engine: name.to_owned(), engine_ix: Some(k), queue: None, initial: Vec::new() };
            self.program.lanes.push(lane);
        }
        for f in prog.functions.iter().filter(|f| f.reached) {
            for step in &mut self.program.steps[f.steps.range()] {
                step.lane = lane_of_engine.get(&step.engine).copied().unwrap_or(NO_LANE);
            }
        }
        // Queue lanes, by name (two queues of one name are one lane).
        let store = &prog.module.store;
        let mut queues: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        let mut at = 0;
        for &q in &prog.module.queues {
            let blocks = store.queues[q].instances.iter().flat_map(|&i| &store.instances[i].insts);
            let count = blocks.filter(|&&i| store.insts[i].op == Op::DmaBlock).count();
            if count > 0 {
                queues.entry(store.queues[q].name()).or_default().extend(&queue_blocks[at..at + count]);
            }
            at += count;
        }
        for (name, blocks) in queues {
            let lane = self.program.lanes.len() as u32;
            for &block in &blocks {
                self.program.steps[block as usize].lane = lane;
            }
            let initial = blocks.into_iter().filter(|b| !self.triggered.contains(b)).collect();
            let queue = Some(name.to_owned());
            self.program.lanes.push(Lane {
                core: self.core,
                engine: "DMA".to_owned(),
                engine_ix: None,
                queue,
                initial,
            });
        }
    }
}

/// An engine's place in lane order: the wire order, then other names bytewise.
pub(super) fn engine_order(name: &str) -> (usize, &str) {
    (ENGINES.iter().position(|e| *e == name).unwrap_or(ENGINES.len()), name)
}

/// A function's instructions in walk order (its blocks in order, a `Loop` before its
/// body), each once, with their blocks (walk order too: a block, then the blocks of its
/// loops' bodies).
pub(super) fn static_walk(module: &Module, function: Handle<Function>) -> (Vec<Handle<Inst>>, Vec<Handle<Block>>) {
    fn blocks(module: &Module, list: &[Handle<Block>], insts: &mut Vec<Handle<Inst>>, out: &mut Vec<Handle<Block>>) {
        for &block in list {
            out.push(block);
            let mut inner = Vec::new();
            for &inst in &module.store.blocks[block].insts {
                insts.push(inst);
                if let Some(body) = module.store.insts[inst].body.as_deref() {
                    blocks(module, body, insts, &mut inner);
                }
            }
            out.extend(inner);
        }
    }
    let (mut insts, mut out) = (Vec::new(), Vec::new());
    blocks(module, &module.store.functions[function].blocks, &mut insts, &mut out);
    (insts, out)
}

/// An engine's bit in an engine set (engines past 63 share the last bit: a lane of one
/// then walks into loops and calls of the other, which issue nothing on it).
pub(super) fn engine_bit(engine: u16) -> u64 {
    1u64 << engine.min(63)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn trips_of(value: Value) -> Option<u64> {
        trips(value.as_object().unwrap_or(&serde_json::Map::new()))
    }

    /// A shared name is found as an operand's `memref` value, in either layout, in a
    /// DMA block's descriptors too; the same name elsewhere (a `memsetref`, the debug
    /// text, a `memref_owner_func`) or a `"memref"` that is a value is not; a value
    /// that does not end is taken to name one.
    #[test]
    fn a_shared_name_is_found_as_an_operands_memref_only() {
        let sharing = Sharing::new(&["c_partial_0", "intermediate7"]);
        let finds = [
            r#"{"ins":[{"memref":"c_partial_0","offset":0}],"name":"i0"}"#,
            r#"{"outs": [ {"memref" : "intermediate7"} ]}"#,
            "{\n  \"outs\": [\n    {\n      \"memref\":\n        \"intermediate7\"\n    }\n  ]\n}",
            r#"{"blocks":[{"instructions":[{"ins":[{"memref":"x"}],"outs":[{"memref":"c_partial_0"}]}]}]}"#,
            r#"{"ins":[{"memref":"c_partial_0"#,
        ];
        for text in finds {
            assert!(sharing.finds(text), "{text}");
        }
        let misses = [
            r#"{"ins":[{"memref":"c_partial_00","memsetref":"c_partial_0"}]}"#,
            r#"{"debug":{"tensor_name":"c_partial_0"},"outs":[{"memref":"psum_0","memref_owner_func":"intermediate7"}]}"#,
            r#"{"kind":"memref","name":"intermediate7"}"#,
            r#"{"ins":[{"memref":"intermediate"}]}"#,
            "",
        ];
        for text in misses {
            assert!(!sharing.finds(text), "{text}");
        }
        assert!(!Sharing::new(&[]).finds(finds[0]));
    }

    /// A step keeps no function: it is found from its core's functions' steps, which
    /// are made together. Every step a function's items (and its loops' bodies) name is
    /// its, every other step is a queue's block, in both flows, loops 3 deep, read on
    /// one thread and on two (the parts joined).
    #[test]
    fn a_steps_function_is_the_one_whose_items_name_it() {
        use crate::gen::{self, GenConfig, Layout};
        use crate::Flow;
        fn named(program: &Program<'_>, span: Span, into: &mut Vec<u32>) {
            for at in span.range() {
                match program.item(at) {
                    Item::Step(s) => into.push(s),
                    Item::Loop(l) => named(program, program.loops[l as usize].body, into),
                    Item::Call(_) => {}
                }
            }
        }
        for flow in [Flow::Flat, Flow::Modular] {
            let config = GenConfig { flow, cores: 2, insts: 400, loop_depth: 3, barriers: 4, ..GenConfig::default() };
            let sources = gen::generate(&config, Layout::Files).iter().map(|f| f.source()).collect();
            let outcome = crate::passes::run(sources, &config.link_options());
            let Some(set) = outcome.linked else { panic!("{config:?} did not link") };
            for threads in [1, 2] {
                let program = build(&set, threads);
                let mut of = vec![None; program.steps.len()];
                for (core, prog) in program.cores.iter().enumerate() {
                    for (f, function) in prog.functions.iter().enumerate() {
                        let mut steps = Vec::new();
                        named(&program, function.items, &mut steps);
                        for s in steps {
                            assert_eq!(program.steps[s as usize].core(), core);
                            of[s as usize] = Some(f as u32);
                        }
                    }
                }
                let found: Vec<Option<u32>> = (0..program.steps.len() as u32).map(|s| program.function_of(s)).collect();
                assert_eq!(found, of, "{config:?}, {threads} threads");
                assert!(of.iter().filter(|f| f.is_some()).count() > 700, "{config:?}: too few steps in functions");
            }
        }
    }

    #[test]
    fn a_step_and_its_lists_stay_small() {
        // What the program holds per instruction (docs/benchmarks.md, the sync check):
        // a step, a walk item, and per entry a wait or an update.
        assert_eq!(std::mem::size_of::<Step>(), 32);
        assert_eq!(std::mem::size_of::<Kept>(), 4);
        // A kept item is the item: steps below 2^31, loops and calls below 2^30.
        let (step, other) = (KEPT_OTHERS - 1, (KEPT_OTHERS - 1) >> 1);
        let items =
            [Item::Step(0), Item::Step(step), Item::Loop(0), Item::Loop(other), Item::Call(0), Item::Call(other)];
        for item in items {
            assert_eq!(Kept::of(item).item(), item);
        }
        assert_eq!(std::mem::size_of::<Wait>(), 16);
        assert_eq!(std::mem::size_of::<Update>(), 16);
    }

    #[test]
    fn a_loop_counts_its_trips_from_its_axis_or_its_keys() {
        assert_eq!(trips_of(json!({"LoopAxis": {"lb": 0, "ub": 10, "stride": 1}})), Some(10));
        assert_eq!(trips_of(json!({"LoopAxis": {"ub": 10, "stride": 3}})), Some(4));
        assert_eq!(trips_of(json!({"LoopAxis": {"lb": 5, "ub": 2}})), Some(0));
        assert_eq!(trips_of(json!({"LoopAxis": {"lb": 10, "ub": 0, "stride": -2}})), Some(5));
        assert_eq!(trips_of(json!({"LoopAxis": {"lb": 0, "ub": 4, "stride": 0}, "iterations": 7})), Some(7));
        assert_eq!(trips_of(json!({"trip_count": 3})), Some(3));
        assert_eq!(trips_of(json!({"LoopAxis": {"ub": "n"}})), None);
        assert_eq!(trips_of(json!({})), None);
    }
}
