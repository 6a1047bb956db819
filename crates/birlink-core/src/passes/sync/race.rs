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

/// How many entries a clock is stored with: the lanes that access a shared cell, or a
/// fixed count at least as many (the entries past them stay zero), so that the joins of
/// the clocks of the sets that have few such lanes are loops of a known length.
pub(super) trait Width: Copy {
    /// The entries each clock is stored with.
    fn n(self) -> usize;
}

/// Clocks of `N` entries.
#[derive(Clone, Copy, Debug)]
pub(super) struct Fixed<const N: usize>;

impl<const N: usize> Width for Fixed<N> {
    fn n(self) -> usize {
        N
    }
}

/// Clocks of as many entries as lanes that access a shared cell.
#[derive(Clone, Copy, Debug)]
pub(super) struct Exact(usize);

impl Width for Exact {
    fn n(self) -> usize {
        self.0
    }
}

/// The lanes that access a shared cell, each with an entry in a clock.
pub(super) struct Entries {
    /// Each lane's entry (`u32::MAX`: none), numbered in lane order.
    of: Vec<u32>,
    /// How many lanes have one.
    lanes: usize,
}

/// The lanes that access a shared cell, and their entries.
pub(super) fn entries(program: &Program<'_>) -> Entries {
    let mut shares = vec![false; program.lanes.len()];
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
    Entries { of: entry_of, lanes }
}

/// The race check's state.
pub(super) struct Race<W: Width> {
    /// How many entries each clock is stored with.
    width: W,
    /// The lanes that access a shared cell (each has an entry; none: nothing to check).
    lanes: usize,
    /// Each lane's entry in a clock (`u32::MAX`: it has none).
    entry_of: Vec<u32>,
    /// Each lane's issues so far: its own entry, when it has one.
    issued: Vec<u32>,
    /// Each lane's clock, the width's entries each.
    clocks: Vec<u32>,
    /// Each lane's core.
    core_of: Vec<usize>,
    /// Semaphores' clocks, by number (`Program::semaphores`), the width's entries each
    /// (a semaphore never updated keeps zeros: joining it changes nothing).
    sems: Vec<u32>,
    /// Each lane's clock when it last arrived at a rendezvous, by what it meets.
    arrivals: HashMap<(u32, Meet), Box<[u32]>>,
    /// Each queue lane's FIFO of trigger clocks, the width's entries each, after the
    /// blocks in its FIFO from the start, which carry none.
    triggers: Vec<VecDeque<u32>>,
    /// Each queue lane's blocks from the start not issued yet.
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

impl Race<Exact> {
    /// A check for `program` with the lanes' `entries` ([`entries`]), a clock entry for
    /// each lane that has one.
    pub(super) fn exact(program: &Program<'_>, entries: &Entries) -> Race<Exact> {
        Race::with_width(program, entries, Exact(entries.lanes))
    }
}

impl<const N: usize> Race<Fixed<N>> {
    /// A check for `program` with the lanes' `entries`, clocks of `N` entries, when that
    /// is as many as the lanes that have one or more.
    pub(super) fn fixed(program: &Program<'_>, entries: &Entries) -> Option<Race<Fixed<N>>> {
        (entries.lanes <= N).then(|| Race::with_width(program, entries, Fixed))
    }
}

impl<W: Width> Race<W> {
    /// A check for `program` with clocks of `width` entries (as many as the lanes that
    /// have an entry, or more), at zero; each dependency is already the slot of the steps
    /// of its core that bear its name ([`Step::slot`](super::program::Step::slot)).
    fn with_width(program: &Program<'_>, entries: &Entries, width: W) -> Race<W> {
        let all = program.lanes.len();
        let n = width.n();
        Race {
            width,
            lanes: entries.lanes,
            entry_of: entries.of.clone(),
            issued: vec![0; all],
            clocks: vec![0; all * n],
            core_of: program.lanes.iter().map(|l| l.core).collect(),
            sems: vec![0; program.semaphores.keys.len() * n],
            arrivals: HashMap::new(),
            triggers: vec![VecDeque::new(); all],
            initial: program.lanes.iter().map(|lane| lane.initial.len()).collect(),
            slot_at: vec![(u32::MAX, 0, 0); program.slots as usize],
            ring: vec![0; all * RING * n],
            ring_ticks: vec![0; all * RING],
            ring_next: vec![0; all],
            cells: FxHashMap::default(),
            reported: HashSet::new(),
            found: Vec::new(),
        }
    }

    fn clock(&self, lane: usize) -> &[u32] {
        let n = self.width.n();
        &self.clocks[lane * n..(lane + 1) * n]
    }

    fn join(&mut self, lane: usize, other: &[u32]) {
        let n = self.width.n();
        for (mine, theirs) in self.clocks[lane * n..(lane + 1) * n].iter_mut().zip(other) {
            *mine = (*mine).max(*theirs);
        }
    }
}

impl<W: Width> Watch for Race<W> {
    /// `step` issues on `lane`: joins what orders it, ticks, checks its accesses. Its
    /// rendezvous partners' arrival clocks join too (a partner that passed, its kept
    /// one); a queue lane takes its FIFO's head's trigger clock.
    fn issue(&mut self, program: &Program<'_>, at: Issue<'_>) {
        // No lane touches shared memory: there is nothing to order.
        if self.lanes == 0 {
            return;
        }
        let n = self.width.n();
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
        if self.lanes == 0 {
            return;
        }
        let n = self.width.n();
        let to = sem as usize * n;
        let (sems, clocks) = (&mut self.sems, &self.clocks);
        for (theirs, mine) in sems[to..to + n].iter_mut().zip(&clocks[lane * n..(lane + 1) * n]) {
            *theirs = (*theirs).max(*mine);
        }
    }
}

impl<W: Width> Race<W> {
    /// An access to `cell`: checked against the latest write (and, for a write, read) by
    /// every lane of another core, then remembered as its lane's latest (a cell's row
    /// has a place per clock entry: only the lanes that access shared cells).
    fn access(&mut self, program: &Program<'_>, cell: u32, seen: Seen, write: bool) {
        let n = self.width.n();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{self, GenConfig, Layout, Scenario, Shape};
    use crate::model::linked::LinkedSet;
    use crate::passes::sync::{execution, program};
    use crate::Flow;

    /// The generator's set of `cores`, linked in `flow`, with `scenario` planted, its
    /// instructions of `shape`, four handoffs, remote DMA blocks and barriers.
    fn linked(cores: u64, flow: Flow, scenario: Option<Scenario>, shape: Shape) -> LinkedSet {
        let config =
            GenConfig { cores, flow, scenario, shape, handoffs: 4, remote_dma: 4, barriers: 4, ..GenConfig::default() };
        let sources = gen::generate(&config, Layout::Files).iter().map(|f| f.source()).collect();
        let outcome = crate::passes::run(sources, &config.link_options());
        let Some(set) = outcome.linked else { panic!("{config:?} did not link") };
        set
    }

    /// What a run with `race` found, and the lanes' and semaphores' clocks it ended
    /// with, each by the entries of the lanes that have one.
    fn races<W: Width>(program: &Program<'_>, mut race: Race<W>) -> (u64, Vec<RaceFound>, Vec<u32>, Vec<u32>) {
        let ran = execution::run(program, &mut race, u64::MAX);
        let (n, lanes) = (race.width.n(), race.lanes);
        let entries = |clocks: &[u32]| clocks.chunks(n).flat_map(|clock| clock[..lanes].to_vec()).collect();
        (ran.steps, race.found, entries(&race.clocks), entries(&race.sems))
    }

    /// How many entries the clocks are stored with changes nothing: the races found and
    /// the clocks the lanes and semaphores end with, with an entry per lane that touches
    /// shared memory, are those with 2, 4 and 8 entries (where as many or more), in both
    /// flows, with a race planted and without, with 2 and 4 cores.
    #[test]
    fn the_clocks_width_changes_no_race_found() {
        let (mut found, mut widths, mut carried) = (0, 0, 0);
        for flow in [Flow::Flat, Flow::Modular] {
            for (cores, scenario, shape) in [
                (2, None, Shape::Gen),
                (2, Some(Scenario::HandoffRace), Shape::Gen),
                (4, None, Shape::Gen),
                (2, None, Shape::Short),
                (2, None, Shape::Real),
            ] {
                let set = linked(cores, flow, scenario, shape);
                let program = program::build(&set, 1);
                let entries = entries(&program);
                let exact = races(&program, Race::exact(&program, &entries));
                let fixed = [
                    Race::<Fixed<2>>::fixed(&program, &entries).map(|race| races(&program, race)),
                    Race::<Fixed<4>>::fixed(&program, &entries).map(|race| races(&program, race)),
                    Race::<Fixed<8>>::fixed(&program, &entries).map(|race| races(&program, race)),
                ];
                assert_eq!(fixed[0].is_some(), entries.lanes <= 2, "{flow:?} {cores} {scenario:?} {shape:?}");
                for other in fixed.into_iter().flatten() {
                    assert_eq!(other, exact, "{flow:?} {cores} {shape:?}: {} lanes share", entries.lanes);
                    widths += 1;
                }
                found += exact.1.len();
                carried += usize::from(exact.3.iter().any(|&tick| tick > 0));
            }
        }
        assert!(found > 0 && widths >= 12, "{found} races, {widths} widths compared");
        assert!(carried >= 2, "{carried} sets whose semaphores carry a clock");
    }

    /// Leaving out the dependencies on a lane's own steps (and those no issuing step
    /// bears) changes nothing the check finds: the races and the clocks the lanes and
    /// semaphores end with are those with every dependency kept, in both flows, with a
    /// race planted and without, with 2 and 4 cores; and the short shape, whose
    /// instructions each depend on the one before, keeps fewer dependencies and slots,
    /// not none.
    #[test]
    fn leaving_out_a_lanes_own_dependencies_changes_no_race_found() {
        let (mut found, mut fewer) = (0, 0);
        for flow in [Flow::Flat, Flow::Modular] {
            for (cores, scenario, shape) in [
                (2, None, Shape::Gen),
                (2, Some(Scenario::HandoffRace), Shape::Gen),
                (4, Some(Scenario::HandoffRace), Shape::Short),
                (4, None, Shape::Gen),
                (2, None, Shape::Short),
                (2, None, Shape::Real),
            ] {
                let set = linked(cores, flow, scenario, shape);
                let (kept, every) = (program::build(&set, 1), program::build_every_dependency(&set, 1));
                let with_every = races(&every, Race::exact(&every, &entries(&every)));
                assert_eq!(
                    races(&kept, Race::exact(&kept, &entries(&kept))),
                    with_every,
                    "{flow:?} {cores} {scenario:?} {shape:?}"
                );
                assert!(kept.dependencies.len() <= every.dependencies.len() && kept.slots <= every.slots);
                if shape == Shape::Short {
                    assert!(
                        kept.slots < every.slots && kept.dependencies.len() < every.dependencies.len(),
                        "{flow:?} {cores}"
                    );
                    assert!(!kept.dependencies.is_empty(), "{flow:?} {cores}: another lane's dependencies are kept");
                    fewer += 1;
                }
                found += with_every.1.len();
            }
        }
        assert!(found > 0 && fewer == 4, "{found} races, {fewer} short sets");
    }
}
