//! Races (docs/spec/sync.md §6, birlink's reading of the band model): vector clocks over
//! the execution. Every lane has a clock; issuing joins into it the clocks of the
//! semaphores it waits on, its rendezvous partners' arrival clocks, a DMA block's
//! trigger's clock and its dependencies' clocks at their latest issue, then ticks the
//! lane's own entry; each update joins the lane's clock into its semaphore's. An access
//! to a shared cell is checked against the latest write (and, for a write, read) of the
//! cell by every lane of another core: not ordered before it, it is a race.
//!
//! Memory is per lane, per semaphore, per dependency target and per cell and lane —
//! never per issue: a loop's iterations overwrite what they left. A clock has an entry
//! for each lane that accesses a shared cell only: the check compares no other entry,
//! and a join or a tick of one entry never moves another, so leaving the others out
//! changes no verdict (a set without shared memory keeps empty clocks, and the check does
//! nothing as its lanes issue).

use std::collections::{HashMap, HashSet, VecDeque};

use rustc_hash::FxHashMap;

use super::execution::{Issue, Watch};
use super::program::{Meet, Program, NO_SLOT};

/// One access as the check remembers it: the step, and its lane's entry when it issued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seen {
    step: u32,
    lane: u32,
    tick: u32,
}

/// A cell's latest write and read by one lane.
type Latest = (Option<Seen>, Option<Seen>);

/// A race found: two accesses to one cell, the first not ordered before the second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct RaceFound {
    /// The cell.
    pub cell: u32,
    /// The earlier access: step, lane, whether it writes.
    pub first: (u32, u32, bool),
    /// The later access: step, lane, whether it writes.
    pub second: (u32, u32, bool),
}

/// How many dependency targets' clocks a lane keeps: a dependency on an older issue of
/// its lane joins the oldest kept (birlink's reading: a later clock of the same lane, so
/// it can hide a race, never invent one; real dependents issue within a few steps).
const RING: usize = 32;

/// The race check's state.
pub(super) struct Race {
    /// Entries in a clock: the lanes that access a shared cell.
    lanes: usize,
    /// Each lane's entry in a clock (`u32::MAX`: it has none).
    entry_of: Vec<u32>,
    /// Each lane's issues so far: its own entry, when it has one.
    issued: Vec<u32>,
    /// Each lane's clock, `lanes` entries each.
    clocks: Vec<u32>,
    /// Each lane's core.
    core_of: Vec<usize>,
    /// Semaphores' clocks, by number (`Program::semaphores`), `lanes` entries each (a
    /// semaphore never updated keeps zeros: joining it changes nothing).
    sems: Vec<u32>,
    /// Each lane's clock when it last arrived at a rendezvous, by what it meets.
    arrivals: HashMap<(u32, Meet), Box<[u32]>>,
    /// Each queue lane's FIFO of trigger clocks, `lanes` entries each, after the
    /// blocks in its FIFO from the start (how many of those are left: they carry none).
    triggers: Vec<VecDeque<u32>>,
    initial: Vec<usize>,
    /// Each slot's latest issue: its lane (`u32::MAX`: none), that lane's issues then
    /// and where in the lane's ring its clock was kept (a later issue may have taken it).
    slot_at: Vec<(u32, u32, u32)>,
    /// Each lane's clocks at its last [`RING`] issues of a dependency target, and its
    /// issues then; the next place to write.
    ring: Vec<u32>,
    ring_ticks: Vec<u32>,
    ring_next: Vec<usize>,
    /// The latest write and read of each cell, per lane.
    cells: FxHashMap<u32, Vec<Latest>>,
    /// Races reported, by (cell, first step, second step).
    reported: HashSet<(u32, u32, u32)>,
    /// The races, in the order the execution finds them.
    pub found: Vec<RaceFound>,
}

impl Race {
    /// A check for `program`: clocks at zero; each dependency is already the slot of
    /// the steps of its core that bear its name ([`Step::slot`](super::program::Step::slot)).
    pub(super) fn new(program: &Program<'_>) -> Race {
        let all = program.lanes.len();
        // The lanes that access a shared cell, numbered in lane order.
        let mut shares = vec![false; all];
        for step in &program.steps {
            if let Some(lane) = step.lane() {
                shares[lane] |= !program.accesses_of(step).is_empty();
            }
        }
        let mut lanes = 0;
        let entry_of = shares
            .iter()
            .map(|&shares| {
                if !shares {
                    return u32::MAX;
                }
                lanes += 1;
                lanes as u32 - 1
            })
            .collect();
        Race {
            lanes,
            entry_of,
            issued: vec![0; all],
            clocks: vec![0; all * lanes],
            core_of: program.lanes.iter().map(|l| l.core).collect(),
            sems: vec![0; program.semaphores.keys.len() * lanes],
            arrivals: HashMap::new(),
            triggers: vec![VecDeque::new(); all],
            initial: program.lanes.iter().map(|lane| lane.initial.len()).collect(),
            slot_at: vec![(u32::MAX, 0, 0); program.slots as usize],
            ring: vec![0; all * RING * lanes],
            ring_ticks: vec![0; all * RING],
            ring_next: vec![0; all],
            cells: FxHashMap::default(),
            reported: HashSet::new(),
            found: Vec::new(),
        }
    }

    fn clock(&self, lane: usize) -> &[u32] {
        &self.clocks[lane * self.lanes..(lane + 1) * self.lanes]
    }

    fn join(&mut self, lane: usize, other: &[u32]) {
        let n = self.lanes;
        for (mine, theirs) in self.clocks[lane * n..(lane + 1) * n].iter_mut().zip(other) {
            *mine = (*mine).max(*theirs);
        }
    }
}

impl Watch for Race {
    /// `step` issues on `lane`: joins what orders it, ticks, checks its accesses. Its
    /// rendezvous partners' arrival clocks join too (a partner that passed, its kept
    /// one); a queue lane takes its FIFO's head's trigger clock.
    fn issue(&mut self, program: &Program<'_>, at: Issue<'_>) {
        // No lane touches shared memory: there is nothing to order.
        let n = self.lanes;
        if n == 0 {
            return;
        }
        let Issue { lane, step, partners, meet, waits, .. } = at;
        let s = &program.steps[step as usize];
        // Its waits' semaphores.
        for w in waits {
            let from = w.sem as usize * n;
            let (sems, clocks) = (&self.sems, &mut self.clocks);
            for (mine, theirs) in clocks[lane * n..(lane + 1) * n].iter_mut().zip(&sems[from..from + n]) {
                *mine = (*mine).max(*theirs);
            }
        }
        // Its rendezvous: its own arrival first, then its partners'.
        if let Some(meet) = meet {
            let arrival: Box<[u32]> = self.clock(lane).into();
            self.arrivals.insert((lane as u32, meet.clone()), arrival);
            for &(partner, passed) in partners {
                // A partner that passed has its arrival kept; one still there, its clock.
                let kept = self.arrivals.get(&(partner as u32, meet.clone())).filter(|_| passed);
                let theirs: Box<[u32]> = match kept {
                    Some(kept) => kept.clone(),
                    None => self.clock(partner).into(),
                };
                self.join(lane, &theirs);
            }
        }
        // A DMA block: its trigger's clock.
        if program.lanes[lane].queue.is_some() {
            if self.initial[lane] > 0 {
                self.initial[lane] -= 1;
            } else {
                let (fifo, clocks) = (&mut self.triggers[lane], &mut self.clocks);
                for (mine, theirs) in clocks[lane * n..(lane + 1) * n].iter_mut().zip(fifo.drain(..n.min(fifo.len()))) {
                    *mine = (*mine).max(theirs);
                }
            }
        }
        // Its dependencies at their latest issue (their lane's kept clock then).
        for at in program.dependencies_range(step) {
            let (other, tick, kept) = self.slot_at[program.dependencies[at] as usize];
            if other == u32::MAX {
                continue;
            }
            let other = other as usize;
            // Already ordered after it: its own lane's clock only grows; and a clock is
            // a join of lanes' clocks each taken after its tick, so holding the other
            // lane's entry at that issue or later is holding that issue's whole clock
            // (a tick at its ceiling proves nothing).
            let entry = self.entry_of[other] as usize;
            if other == lane || (entry < n && tick != u32::MAX && self.clocks[lane * n + entry] >= tick) {
                continue;
            }
            // The issue kept there (a lane's issues only grow, so its place still holds
            // it when it holds that count), else the oldest kept (the next to write).
            let kept = kept as usize;
            let k = if self.ring_ticks[other * RING + kept] == tick { kept } else { self.ring_next[other] };
            let from = (other * RING + k) * n;
            let (ring, clocks) = (&self.ring, &mut self.clocks);
            for (mine, theirs) in clocks[lane * n..(lane + 1) * n].iter_mut().zip(&ring[from..from + n]) {
                *mine = (*mine).max(*theirs);
            }
        }
        // Tick.
        let tick = self.issued[lane].saturating_add(1);
        self.issued[lane] = tick;
        let entry = self.entry_of[lane];
        if entry != u32::MAX {
            self.clocks[lane * n + entry as usize] = tick;
        }
        // Its accesses.
        for access in program.accesses_of(s) {
            self.access(program, access.cell, Seen { step, lane: lane as u32, tick }, access.write);
        }
        // What depends on it sees this clock: kept in its lane's ring.
        let slot = s.slot;
        if slot != NO_SLOT {
            let k = self.ring_next[lane];
            self.ring_next[lane] = (k + 1) % RING;
            self.ring_ticks[lane * RING + k] = tick;
            let to = (lane * RING + k) * n;
            let (clocks, ring) = (&self.clocks, &mut self.ring);
            ring[to..to + n].copy_from_slice(&clocks[lane * n..(lane + 1) * n]);
            self.slot_at[slot as usize] = (lane as u32, tick, k as u32);
        }
        // The blocks it triggers carry its clock.
        for &block in program.triggers_of(s) {
            if let Some(queue) = program.steps[block as usize].lane() {
                let (fifo, clocks) = (&mut self.triggers[queue], &self.clocks);
                fifo.extend(&clocks[lane * n..(lane + 1) * n]);
            }
        }
    }

    /// An update by `lane` of a semaphore: the semaphore's clock joins the lane's.
    fn update(&mut self, _: &Program<'_>, lane: usize, sem: u32) {
        let n = self.lanes;
        if n == 0 {
            return;
        }
        let to = sem as usize * n;
        let (sems, clocks) = (&mut self.sems, &self.clocks);
        for (theirs, mine) in sems[to..to + n].iter_mut().zip(&clocks[lane * n..(lane + 1) * n]) {
            *theirs = (*theirs).max(*mine);
        }
    }
}

impl Race {
    /// An access to `cell`: checked against the latest write (and, for a write, read) by
    /// every lane of another core, then remembered as its lane's latest (a cell's row
    /// has a place per clock entry: only the lanes that access shared cells).
    fn access(&mut self, program: &Program<'_>, cell: u32, seen: Seen, write: bool) {
        let n = self.lanes;
        let me = seen.lane as usize;
        let core = self.core_of[me];
        let row = self.cells.entry(cell).or_insert_with(|| vec![(None, None); n]);
        let mut races = Vec::new();
        for (last_write, last_read) in row.iter() {
            let candidates = [last_write.map(|x| (x, true)), if write { last_read.map(|x| (x, false)) } else { None }];
            for (x, x_writes) in candidates.into_iter().flatten() {
                if self.core_of[x.lane as usize] == core {
                    continue;
                }
                let before = x.tick <= self.clocks[me * n + self.entry_of[x.lane as usize] as usize];
                if before {
                    continue;
                }
                // One SPMD instruction's two halves: writes by the same name on two cores.
                if x_writes && write && program.inst(x.step).name() == program.inst(seen.step).name() {
                    continue;
                }
                races.push(RaceFound {
                    cell,
                    first: (x.step, x.lane, x_writes),
                    second: (seen.step, seen.lane, write),
                });
            }
        }
        let row = self.cells.entry(cell).or_insert_with(|| vec![(None, None); n]);
        let mine = &mut row[self.entry_of[me] as usize];
        if write {
            mine.0 = Some(seen);
        } else {
            mine.1 = Some(seen);
        }
        for race in races {
            if self.reported.insert((cell, race.first.0, race.second.0)) {
                self.found.push(race);
            }
        }
    }
}
