//! The deterministic execution (docs/spec/sync.md §4): rounds in which every lane, in lane
//! order, issues at most its next instruction when its waits hold and its rendezvous is
//! met; it ends when a round issues nothing (`completes`, or `deadlock` with the stuck
//! state) or at its budget of steps (`stopped`). A lane is a cursor over its functions'
//! items (loops are counters, never unrolled) or a queue's FIFO; what issues is told to a
//! [`Watch`] as it issues: the race check (`race.rs`), or a replay's trace
//! (`replay.rs`).
//!
//! A lane that cannot issue is *parked* until what stopped it may have changed: a lane
//! stuck at its `k`-th wait, until a semaphore of its waits up to the `k`-th changes (an
//! update, or a clearing wait); a queue with an empty FIFO, until a block is triggered
//! onto it; an engine whose walk is over, for good. A round tries the lanes not parked,
//! in lane order, so the run is the very run that tries every lane every round: a parked
//! lane's try would fail for the same reason (its [`Ran::stuck`] unchanged). A lane
//! stuck at a rendezvous is never parked (what it waits for is other lanes' places).

use std::collections::{HashMap, HashSet, VecDeque};

use rustc_hash::FxHashMap;

use super::entries::{Change, SemKey, Wait};
use super::program::{engine_bit, CoreIx, Item, Meet, Program, Span};

/// What an execution tells as it goes.
pub(super) trait Watch {
    /// `step` issues on `lane`, the execution's `seq`-th step, in round `round`: its
    /// rendezvous partners (each with whether it already passed) and what it meets.
    fn issue(&mut self, program: &Program<'_>, at: Issue<'_>);
    /// The step just issued on `lane` updates the program's `sem`-th semaphore
    /// ([`Program::semaphores`]), after [`Watch::issue`].
    fn update(&mut self, program: &Program<'_>, lane: usize, sem: u32);
}

/// One issue, as a [`Watch`] is told it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Issue<'a> {
    /// The lane.
    pub lane: usize,
    /// The step.
    pub step: u32,
    /// The execution's steps before it.
    pub seq: u64,
    /// The rounds before its own.
    pub round: u64,
    /// Its rendezvous partners, each with whether it already passed.
    pub partners: &'a [(usize, bool)],
    /// What it meets, when it is a rendezvous.
    pub meet: Option<&'a Meet>,
    /// Its waits (their semaphores by number: [`Program::semaphores`]).
    pub waits: &'a [Wait],
}

/// The walk's moves (items stepped over, loop iterations begun, calls entered) allowed
/// per step of the budget: a walk through loops and calls that issue nothing on a lane
/// (a loop of many trips holding another engine's steps only, say) is work too, bounded
/// with the rest.
const MOVES_PER_STEP: u64 = 16;

/// A frame of an engine lane's walk: a function's items, or a loop's body.
#[derive(Clone, Debug)]
pub(super) struct Frame {
    /// The items.
    pub items: Span,
    /// The next item.
    pub pos: u32,
    /// For a loop's body: the `Loop`'s item, the iteration (from 1) and its trip count.
    pub looping: Option<(u32, u64, u64)>,
    /// The function whose items these are.
    pub function: u32,
}

/// A lane's position.
#[derive(Clone, Debug)]
pub(super) enum Cursor {
    /// An engine: its walk, and the next step it issues.
    Engine {
        /// The frames, the entry's first.
        frames: Vec<Frame>,
        /// The next step (`None`: done).
        next: Option<u32>,
    },
    /// A queue: its FIFO of blocks.
    Queue {
        /// The blocks still to issue.
        fifo: VecDeque<u32>,
    },
}

/// Why a lane does not issue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stuck {
    /// Its `k`-th wait (entry order) does not hold.
    Wait(usize),
    /// Its rendezvous is not met.
    Rendezvous,
}

/// The execution as it ended.
#[derive(Debug)]
pub(super) struct Ran {
    /// Each lane's position.
    pub cursors: Vec<Cursor>,
    /// Why each lane did not issue in the last round it tried (`None`: done, or it did).
    pub stuck: Vec<Option<Stuck>>,
    /// The semaphores' values.
    pub sems: FxHashMap<SemKey, i64>,
    /// How often each step issued.
    pub issued: Vec<u32>,
    /// Each lane's issued instructions and `CoreBarrier`s.
    pub lane_issued: Vec<(u64, u64)>,
    /// Each lane's rendezvous passed, by what it meets.
    pub meets: Vec<HashMap<Meet, u64>>,
    /// Instructions issued.
    pub steps: u64,
    /// Rounds that issued.
    pub rounds: u64,
    /// The budget of steps.
    pub budget: u64,
    /// Whether it stopped at its budget.
    pub stopped: bool,
    /// Calls not entered because they call a function on their own chain: (core, the
    /// call's item), in the order met.
    pub recursive: Vec<(CoreIx, u32)>,
}

impl Ran {
    /// Whether a lane is done (an engine's walk is over only when it has no frame left:
    /// one stopped mid-walk has no next step yet).
    pub(super) fn done(&self, lane: usize) -> bool {
        match &self.cursors[lane] {
            Cursor::Engine { next, frames } => next.is_none() && frames.is_empty(),
            Cursor::Queue { fifo } => fifo.is_empty(),
        }
    }

    /// The step a lane is at.
    pub(super) fn at(&self, lane: usize) -> Option<u32> {
        match &self.cursors[lane] {
            Cursor::Engine { next, .. } => *next,
            Cursor::Queue { fifo } => fifo.front().copied(),
        }
    }

    /// A lane's frames (a queue has none).
    pub(super) fn frames(&self, lane: usize) -> &[Frame] {
        match &self.cursors[lane] {
            Cursor::Engine { frames, .. } => frames,
            Cursor::Queue { .. } => &[],
        }
    }
}

/// The execution's state while it runs.
struct Exec<'p, 'm> {
    program: &'p Program<'m>,
    ran: Ran,
    /// Each semaphore's value, by number, and whether an update or a clearing wait
    /// touched it (what [`Ran::sems`] holds when the run ends).
    values: Vec<(i64, bool)>,
    /// The engine lane of each core and engine name, for rendezvous partners.
    lane_of: HashMap<(CoreIx, &'p str), usize>,
    recursive_seen: HashSet<(CoreIx, u32)>,
    /// Moves left before the walk itself is out of budget.
    moves: u64,
    /// The lanes a round tries, one bit each: the lanes not parked.
    ready: Vec<u64>,
    /// The lanes parked on each semaphore, by number (each at most once).
    parked_on: Vec<Vec<u32>>,
    /// Whether lanes are parked at all.
    parks: bool,
}

/// The most steps a walk through calls may add to the budget (a call tree that doubles
/// at each level would otherwise give it billions).
const WALKED_BUDGET_CAP: u64 = 20_000_000;

/// The budget of steps: max(10^6, 4 × the set's static instructions, 4 × what a walk
/// through its calls issues, loops once, capped at [`WALKED_BUDGET_CAP`]). birlink's
/// reading: the calls' share is what lets a modular set, whose dispatcher calls one
/// definition 46 times, run to its end.
pub(super) fn budget(program: &Program<'_>) -> u64 {
    let walked = program.walked_instructions.saturating_mul(4).min(WALKED_BUDGET_CAP);
    program.static_instructions.saturating_mul(4).max(walked).max(1_000_000)
}

/// Runs the program to its end (or after `limit` steps), telling `watch` what issues.
pub(super) fn run<W: Watch>(program: &Program<'_>, watch: &mut W, limit: u64) -> Ran {
    run_parking(program, watch, limit, true)
}

/// [`run`], parking lanes or (`parks` false: the tests' measure) trying every lane every
/// round.
fn run_parking<W: Watch>(program: &Program<'_>, watch: &mut W, limit: u64, parks: bool) -> Ran {
    let lanes = program.lanes.len();
    let budget = budget(program);
    let mut lane_of = HashMap::new();
    for (k, lane) in program.lanes.iter().enumerate() {
        if lane.queue.is_none() {
            lane_of.insert((lane.core, lane.engine.as_str()), k);
        }
    }
    let cursors = program
        .lanes
        .iter()
        .enumerate()
        .map(|(k, lane)| match &lane.queue {
            Some(_) => Cursor::Queue { fifo: lane.initial.iter().copied().collect() },
            None => {
                let core = &program.cores[lane.core];
                let frames = core
                    .entry
                    .map(|f| {
                        let items = program.lane_walk(core.functions[f as usize].items, k);
                        Frame { items, pos: 0, looping: None, function: f }
                    })
                    .into_iter()
                    .collect();
                Cursor::Engine { frames, next: None }
            }
        })
        .collect();
    let values = vec![(0, false); program.semaphores.keys.len()];
    let mut exec = Exec {
        program,
        values,
        ran: Ran {
            cursors,
            stuck: vec![None; lanes],
            sems: FxHashMap::default(),
            issued: vec![0; program.steps.len()],
            lane_issued: vec![(0, 0); lanes],
            meets: vec![HashMap::new(); lanes],
            steps: 0,
            rounds: 0,
            budget,
            stopped: false,
            recursive: Vec::new(),
        },
        lane_of,
        recursive_seen: HashSet::new(),
        moves: budget.saturating_mul(MOVES_PER_STEP),
        ready: vec![0; lanes.div_ceil(64)],
        parked_on: vec![Vec::new(); program.semaphores.keys.len()],
        parks,
    };
    for lane in 0..lanes {
        exec.unpark(lane);
        exec.advance(lane);
    }
    'rounds: loop {
        let mut issued_any = false;
        // A round tries the lanes not parked; one unparked later in the round by a lane
        // before it is tried in this round, as a try of every lane would.
        let mut from = 0;
        loop {
            if exec.ran.steps >= limit.min(budget) || exec.ran.stopped {
                exec.ran.stopped |= exec.ran.steps >= budget;
                exec.ran.rounds += u64::from(issued_any);
                break 'rounds;
            }
            let Some(lane) = exec.next_ready(from) else { break };
            from = lane + 1;
            if exec.try_issue(lane, watch) {
                issued_any = true;
                exec.ran.steps += 1;
            }
        }
        if !issued_any {
            break;
        }
        exec.ran.rounds += 1;
    }
    // A stop when every lane is done is no stop.
    if exec.ran.stopped && (0..lanes).all(|l| exec.ran.done(l)) {
        exec.ran.stopped = false;
    }
    let Exec { mut ran, values, .. } = exec;
    let keys = program.semaphores.keys.iter();
    ran.sems = keys.zip(values).filter(|(_, (_, touched))| *touched).map(|(&k, (v, _))| (k, v)).collect();
    ran
}

impl Exec<'_, '_> {
    /// The first lane from `from` on that is not parked.
    fn next_ready(&self, from: usize) -> Option<usize> {
        let mut word = from / 64;
        let mut bits = self.ready.get(word)? & (u64::MAX << (from % 64));
        loop {
            if bits != 0 {
                return Some(word * 64 + bits.trailing_zeros() as usize);
            }
            word += 1;
            bits = *self.ready.get(word)?;
        }
    }

    fn unpark(&mut self, lane: usize) {
        self.ready[lane / 64] |= 1 << (lane % 64);
    }

    fn park(&mut self, lane: usize) {
        if self.parks {
            self.ready[lane / 64] &= !(1 << (lane % 64));
        }
    }

    /// A semaphore's value changed: the lanes parked on it are tried again.
    fn changed(&mut self, sem: u32) {
        let ready = &mut self.ready;
        for lane in self.parked_on[sem as usize].drain(..) {
            ready[lane as usize / 64] |= 1 << (lane % 64);
        }
    }

    /// Moves an engine lane to its next step (a queue's is its FIFO's head).
    fn advance(&mut self, lane: usize) {
        let program = self.program;
        let Cursor::Engine { frames, next } = &mut self.ran.cursors[lane] else { return };
        let core = program.lanes[lane].core;
        let bit = program.lanes[lane].engine_ix.map_or(0, engine_bit);
        *next = None;
        while let Some(frame) = frames.last_mut() {
            if self.moves == 0 {
                // Out of budget: the lane stays in its walk, not done, and the run stops.
                self.ran.stopped = true;
                return;
            }
            self.moves -= 1;
            if frame.pos as usize >= frame.items.range().len() {
                if let Some((item, iteration, of)) = frame.looping {
                    if iteration < of {
                        frame.looping = Some((item, iteration + 1, of));
                        frame.pos = 0;
                        continue;
                    }
                }
                frames.pop();
                continue;
            }
            let at = frame.items.range().start + frame.pos as usize;
            frame.pos += 1;
            let function = frame.function;
            match program.item(at) {
                Item::Step(s) => {
                    if program.steps[s as usize].lane() == Some(lane) {
                        *next = Some(s);
                        return;
                    }
                }
                Item::Loop(l) => {
                    let l = &program.loops[l as usize];
                    let of = l.trips.unwrap_or(1);
                    if l.engines & bit != 0 && of > 0 {
                        let items = program.lane_walk(l.body, lane);
                        frames.push(Frame { items, pos: 0, looping: Some((at as u32, 1, of)), function });
                    }
                }
                Item::Call(c) => {
                    let Some(target) = program.calls[c as usize].target else { continue };
                    let on_chain = frames.iter().any(|f| f.looping.is_none() && f.function == target);
                    if on_chain {
                        if self.recursive_seen.insert((core, at as u32)) {
                            self.ran.recursive.push((core, at as u32));
                        }
                        continue;
                    }
                    let callee = &program.cores[core].functions[target as usize];
                    if callee.engines & bit != 0 {
                        let items = program.lane_walk(callee.items, lane);
                        frames.push(Frame { items, pos: 0, looping: None, function: target });
                    }
                }
            }
        }
    }

    /// Issues a lane's next instruction when it can; whether it did.
    fn try_issue<W: Watch>(&mut self, lane: usize, watch: &mut W) -> bool {
        let Some(step) = self.ran.at(lane) else {
            // Done, or a queue with nothing triggered yet.
            self.ran.stuck[lane] = None;
            self.park(lane);
            return false;
        };
        let program = self.program;
        let s = &program.steps[step as usize];
        let core = s.core();
        let waits = program.waits_of(step);
        for (k, w) in waits.iter().enumerate() {
            let (value, _) = self.values[w.sem as usize];
            if !w.cmp.holds(value, w.value) {
                self.ran.stuck[lane] = Some(Stuck::Wait(k));
                // Parked until a semaphore of its waits up to this one changes: the
                // waits after it are not read.
                self.park(lane);
                for w in &waits[..=k] {
                    let parked = &mut self.parked_on[w.sem as usize];
                    if !parked.contains(&(lane as u32)) {
                        parked.push(lane as u32);
                    }
                }
                return false;
            }
        }
        let mut partners = Vec::new();
        let meet = program.rendezvous_of(s);
        if let Some(r) = meet {
            let k = self.ran.meets[lane].get(&r.meet).copied().unwrap_or(0);
            for &p in r.cores.iter().filter(|&&p| p != core) {
                match self.arrived(p, &program.lanes[lane].engine, &r.meet, k) {
                    Some(other) => {
                        let passed = self.ran.meets[other].get(&r.meet).copied().unwrap_or(0) > k;
                        partners.push((other, passed));
                    }
                    None => {
                        self.ran.stuck[lane] = Some(Stuck::Rendezvous);
                        return false;
                    }
                }
            }
        }
        self.ran.stuck[lane] = None;
        // Issue: the watch first (the race check orders by the clocks before the
        // updates), then waits that clear, updates in entry order, triggers.
        if let Cursor::Queue { fifo } = &mut self.ran.cursors[lane] {
            fifo.pop_front();
        }
        let (seq, round) = (self.ran.steps, self.ran.rounds);
        let meets = meet.map(|r| &r.meet);
        watch.issue(program, Issue { lane, step, seq, round, partners: &partners, meet: meets, waits });
        for w in waits {
            if w.clears {
                self.values[w.sem as usize] = (0, true);
                self.changed(w.sem);
            }
        }
        for u in program.updates_of(step) {
            let (value, touched) = &mut self.values[u.sem as usize];
            *touched = true;
            *value = match u.change() {
                Change::Add(v) => value.saturating_add(v),
                Change::Write(v) => v,
            };
            self.changed(u.sem);
            watch.update(program, lane, u.sem);
        }
        for &block in program.triggers_of(s) {
            if let Some(queue) = program.steps[block as usize].lane() {
                if let Cursor::Queue { fifo } = &mut self.ran.cursors[queue] {
                    fifo.push_back(block);
                    self.unpark(queue);
                }
            }
        }
        self.ran.issued[step as usize] = self.ran.issued[step as usize].saturating_add(1);
        let counts = &mut self.ran.lane_issued[lane];
        counts.0 += 1;
        counts.1 += u64::from(program.is_barrier(s));
        if let Some(r) = meet {
            *self.ran.meets[lane].entry(r.meet.clone()).or_insert(0) += 1;
        }
        self.advance(lane);
        true
    }

    /// Core `core`'s lane of `engine`, when it has arrived at (or passed) its `k`-th
    /// rendezvous of `meet`.
    fn arrived(&self, core: CoreIx, engine: &str, meet: &Meet, k: u64) -> Option<usize> {
        let lane = *self.lane_of.get(&(core, engine))?;
        let passed = self.ran.meets[lane].get(meet).copied().unwrap_or(0);
        if passed > k {
            return Some(lane);
        }
        let at = self.ran.at(lane)?;
        let here = self.program.rendezvous_of(&self.program.steps[at as usize]).map(|r| &r.meet);
        (passed == k && here == Some(meet)).then_some(lane)
    }
}

/// Which engine lane of a core runs `engine`.
pub(super) fn lane_of(program: &Program<'_>, core: CoreIx, engine: &str) -> Option<usize> {
    program.lanes.iter().position(|l| l.core == core && l.queue.is_none() && l.engine == engine)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{self, GenConfig, Layout, Scenario};
    use crate::passes::sync::program;
    use crate::Flow;

    /// Every scenario the generator plants.
    const SCENARIOS: [Scenario; 4] = [
        Scenario::BarrierOnOnePath,
        Scenario::SignalToAnotherSemaphore,
        Scenario::TripCountDiffers,
        Scenario::HandoffRace,
    ];

    /// A watch that keeps the order of what issued, and each update.
    #[derive(Default)]
    struct Trace(Vec<(usize, u32, u64)>, Vec<(usize, u32)>);

    impl Watch for Trace {
        fn issue(&mut self, _: &Program<'_>, at: Issue<'_>) {
            self.0.push((at.lane, at.step, at.round));
        }
        fn update(&mut self, _: &Program<'_>, lane: usize, sem: u32) {
            self.1.push((lane, sem));
        }
    }

    /// What a run did, all of it, to compare two runs: every lane's cursor by its next
    /// step and its frames' functions, loops and iterations (a frame's place is in the
    /// items it walks, which differ; its loop is the item there).
    fn said(program: &Program<'_>, ran: &Ran, trace: &Trace) -> String {
        let mut sems: Vec<_> = ran.sems.iter().collect();
        sems.sort();
        let cursors: Vec<String> = ran
            .cursors
            .iter()
            .map(|cursor| match cursor {
                Cursor::Engine { frames, next } => {
                    let frames: Vec<_> = frames
                        .iter()
                        .map(|f| (f.function, f.looping.map(|(at, k, of)| (program.item(at as usize), k, of))))
                        .collect();
                    format!("{next:?} {frames:?}")
                }
                queue => format!("{queue:?}"),
            })
            .collect();
        format!(
            "{:?} {:?} {:?} {} {} {} {:?} {:?} {:?} {:?} {:?}",
            ran.issued,
            ran.lane_issued,
            ran.stuck,
            ran.steps,
            ran.rounds,
            ran.stopped,
            ran.recursive,
            sems,
            cursors,
            trace.0,
            trace.1
        )
    }

    /// A lane walks its own items of each function and loop body (its steps, the loops
    /// it issues in, every call), not every item: the run is the very run its walk of
    /// every item gives — the same steps in the same rounds, the same stuck state, the
    /// same semaphores — in both flows, with loops 3 deep, in every scenario the
    /// generator plants (a barrier on one path, trip counts that differ, a race, …).
    #[test]
    fn a_lanes_walk_of_its_own_items_runs_as_its_walk_of_every_item() {
        let mut configs = Vec::new();
        for flow in [Flow::Flat, Flow::Modular] {
            configs.push(GenConfig { flow, cores: 2, insts: 300, loop_depth: 3, barriers: 4, ..GenConfig::default() });
        }
        for scenario in SCENARIOS {
            configs.push(GenConfig { cores: 2, flow: Flow::Flat, scenario: Some(scenario), ..GenConfig::default() });
        }
        let mut walked = 0;
        for config in configs {
            let sources = gen::generate(&config, Layout::Files).iter().map(|f| f.source()).collect();
            let outcome = crate::passes::run(sources, &config.link_options());
            let Some(set) = outcome.linked else { panic!("{config:?} did not link") };
            let mut program = program::build(&set, 1);
            // Made where they pay (many walks of the items), here for every set.
            if program.lane_walks.is_empty() {
                program.make_lane_walks();
            }
            assert!(!program.lane_walks.is_empty(), "{config:?}: no lane walk made");
            let mut own = Trace::default();
            let by_own = run(&program, &mut own, u64::MAX);
            program.lane_walks.clear();
            let mut every = Trace::default();
            let by_every = run(&program, &mut every, u64::MAX);
            assert_eq!(said(&program, &by_own, &own), said(&program, &by_every, &every), "{config:?}");
            walked += by_own.steps;
        }
        assert!(walked > 1000, "{walked} steps in all");
    }

    /// Parking the lanes that cannot issue changes nothing: every run is the very run
    /// that tries every lane every round — the same steps in the same rounds, the same
    /// stuck state (deadlocks at a wait, at a rendezvous, a queue never triggered), the
    /// same semaphores — in both flows, loops 3 deep, in every scenario the generator
    /// plants, and when stopped part-way.
    #[test]
    fn parking_the_lanes_that_cannot_issue_runs_as_trying_every_lane() {
        let mut configs = Vec::new();
        for flow in [Flow::Flat, Flow::Modular] {
            configs.push(GenConfig { flow, cores: 2, insts: 300, loop_depth: 3, barriers: 4, ..GenConfig::default() });
            configs.push(GenConfig { flow, cores: 4, insts: 200, barriers: 6, remote_dma: 4, ..GenConfig::default() });
        }
        for scenario in SCENARIOS {
            for flow in [Flow::Flat, Flow::Modular] {
                configs.push(GenConfig { cores: 2, flow, scenario: Some(scenario), ..GenConfig::default() });
            }
        }
        let (mut deadlocks, mut parked, mut triggered) = (0, 0, 0);
        let triggering = configs.len();
        configs.push(GenConfig { cores: 2, flow: Flow::Flat, ..GenConfig::default() });
        for (k, config) in configs.into_iter().enumerate() {
            let mut files = gen::generate(&config, Layout::Files);
            if k == triggering {
                triggers_queue_blocks(&mut files);
            }
            let sources = files.iter().map(|f| f.source()).collect();
            let outcome = crate::passes::run(sources, &config.link_options());
            let Some(set) = outcome.linked else { panic!("{config:?} did not link") };
            let program = program::build(&set, 1);
            let mut every = Trace::default();
            let by_every = run_parking(&program, &mut every, u64::MAX, false);
            for limit in [u64::MAX, by_every.steps / 2] {
                let (mut by_parking, mut trace) = (Trace::default(), Trace::default());
                let ran = run_parking(&program, &mut by_parking, limit, true);
                let again = run_parking(&program, &mut trace, limit, false);
                assert_eq!(said(&program, &ran, &by_parking), said(&program, &again, &trace), "{config:?} to {limit}");
            }
            deadlocks += usize::from(!(0..program.lanes.len()).all(|lane| by_every.done(lane)));
            parked += by_every.stuck.iter().filter(|s| matches!(s, Some(Stuck::Wait(_)))).count();
            triggered += program.triggers.iter().filter(|&&block| by_every.issued[block as usize] > 0).count();
        }
        assert!(deadlocks >= 2 && parked >= 1, "{deadlocks} deadlocks, {parked} lanes stuck at a wait");
        assert_eq!(triggered, 6, "each core's three triggered blocks issue");
    }

    /// Makes a generated set's `io` DMA blocks wait for a `DmaTrigger` at the end of each
    /// core's first function: its queue runs its other blocks, waits with an empty FIFO,
    /// and runs them once triggered.
    fn triggers_queue_blocks(files: &mut [gen::GenFile]) {
        for file in files.iter_mut().filter(|f| f.path.ends_with(".json")) {
            let mut module: serde_json::Value = serde_json::from_slice(&file.bytes).expect("a generated module");
            let Some(blocks) = module["functions"][0]["blocks"].as_array_mut() else { continue };
            let Some(instructions) = blocks.last_mut().and_then(|b| b["instructions"].as_array_mut()) else {
                continue;
            };
            let trigger = serde_json::json!({
                "name": "trigger_io", "opcode": "DmaTrigger", "engine": "SP", "queue": "qSyncIO",
                "dma_blocks": ["io_dma_0", "io_dma_1", "io_dma_2"],
            });
            instructions.push(trigger);
            file.bytes = serde_json::to_vec(&module).expect("JSON");
        }
    }

    /// What the modules say a walk from each entry issues (read before any program, to
    /// schedule the check) is what the execution issues on the engines' lanes, in both
    /// flows, loops 3 deep; a modular set's dispatcher makes it many times the set's
    /// instructions (the check runs long), a flat set's not.
    #[test]
    fn the_issues_the_modules_promise_are_the_issues_the_engines_make() {
        for flow in [Flow::Flat, Flow::Modular] {
            for loop_depth in [0, 3] {
                let config = GenConfig { flow, cores: 2, insts: 400, loop_depth, barriers: 4, ..GenConfig::default() };
                let sources = gen::generate(&config, Layout::Files).iter().map(|f| f.source()).collect();
                let outcome = crate::passes::run(sources, &config.link_options());
                let Some(set) = outcome.linked else { panic!("{config:?} did not link") };
                let program = program::build(&set, 1);
                let ran = run(&program, &mut Trace::default(), u64::MAX);
                assert!((0..program.lanes.len()).all(|lane| ran.done(lane)), "{config:?} did not complete");
                let engines: u64 = (0..program.lanes.len())
                    .filter(|&lane| program.lanes[lane].queue.is_none())
                    .map(|lane| ran.lane_issued[lane].0)
                    .sum();
                let (issued, instructions) = program::issues_and_instructions(&set);
                assert_eq!(issued, engines, "{config:?}");
                assert_eq!(instructions, set.modules.iter().map(|m| m.module.store.insts.len() as u64).sum::<u64>());
                assert_eq!(
                    super::super::runs_long(&set),
                    flow == Flow::Modular,
                    "{config:?}: {issued} of {instructions}"
                );
                // Each lane's own walks are made where the items are walked many times.
                assert_eq!(!program.lane_walks.is_empty(), flow == Flow::Modular, "{config:?}");
            }
        }
    }
}
