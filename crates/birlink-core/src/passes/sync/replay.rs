//! The execution replayed to a step, for the page's Sync view (§9): the same program
//! and schedule as the check's (deterministic, so `report.json` carries no trace), told
//! to a [`Trace`] that keeps the window of steps before the slider, with each remote
//! update joined to the wait that took it.

use rustc_hash::FxHashMap;

use super::entries::SemKey;
use super::execution::{self, Issue, Watch};
use super::program::{self, Meet, Program};
use crate::model::linked::LinkedSet;
use crate::output::sync::{RendezvousRow, Replay, ReplayEvent};

/// What a replay keeps as it goes.
struct Trace {
    from: u64,
    events: Vec<ReplayEvent>,
    arrows: Vec<(u64, u64)>,
    /// Remote updates not yet taken by a wait, by semaphore: their steps.
    pending: FxHashMap<SemKey, Vec<u64>>,
    /// The step issuing now, and its core.
    current: (u64, usize),
    /// Each lane's rendezvous passed, by what it meets.
    meets: FxHashMap<(usize, Meet), u64>,
}

impl Watch for Trace {
    fn issue(&mut self, program: &Program<'_>, at: Issue<'_>) {
        let s = &program.steps[at.step as usize];
        self.current = (at.seq, s.core());
        let mut waits = false;
        for wait in program.waits_of(at.step) {
            waits = true;
            if let Some(updates) = self.pending.remove(&program.semaphores.key(wait.sem)) {
                self.arrows.extend(updates.into_iter().filter(|&u| u >= self.from).map(|u| (u, at.seq)));
            }
        }
        let rendezvous = at.meet.map(|meet| {
            let k = self.meets.entry((at.lane, meet.clone())).or_insert(0);
            *k += 1;
            let (group, pipe) = match meet {
                Meet::Barrier => ("barrier", None),
                Meet::Pipe(p) => ("pipe", Some(*p)),
            };
            let cores = program.rendezvous_of(s).map(|r| r.cores.clone()).unwrap_or_default();
            let participants = cores.into_iter().map(|c| program.core_id(c)).collect();
            RendezvousRow { group: group.to_owned(), pipe, index: *k - 1, participants }
        });
        if at.seq >= self.from {
            self.events.push(ReplayEvent {
                step: at.seq,
                round: at.round,
                lane: at.lane as u32,
                instruction: program.inst(at.step).name().to_owned(),
                function: program.step_function(at.step).map(str::to_owned),
                barrier: program.is_barrier(s),
                rendezvous,
                waits,
            });
        }
    }

    fn update(&mut self, program: &Program<'_>, _lane: usize, sem: u32) {
        let sem = program.semaphores.key(sem);
        let (seq, core) = self.current;
        if sem.0 != core {
            self.pending.entry(sem).or_default().push(seq);
        }
    }
}

/// Replays the check's execution of `set` to step `upto`, keeping the `window` steps
/// before it.
pub fn replay(set: &LinkedSet, upto: u64, window: u64) -> Replay {
    let program = program::build(set, 1);
    let from = upto.saturating_sub(window);
    let mut trace = Trace {
        from,
        events: Vec::new(),
        arrows: Vec::new(),
        pending: FxHashMap::default(),
        current: (0, 0),
        meets: FxHashMap::default(),
    };
    let ran = execution::run(&program, &mut trace, upto);
    let at =
        (0..program.lanes.len()).map(|lane| ran.at(lane).map(|step| program.inst(step).name().to_owned())).collect();
    Replay { upto: ran.steps, from, events: trace.events, arrows: trace.arrows, at }
}
