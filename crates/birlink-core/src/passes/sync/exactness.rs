//! Exact, or for this schedule (§4). The verdict is exact when every waited semaphore
//! only grows, no queue two lanes trigger holds a block that waits, nothing was assumed
//! and the execution did not stop: enabling is then monotone and every FIFO's order is
//! its one triggering lane's, so every fair schedule, the hardware's included, ends the
//! same way. Otherwise each reason is listed, in the order of [`Reason`], each in the
//! set's order. Every wait, update and trigger in the set counts, reached or not.

use std::collections::{HashMap, HashSet};

use super::entries::{Mode, SemKind};
use super::execution::Ran;
use super::program::{CoreIx, Noted, Program};
use super::stuck::State;
use crate::output::sync::{NotExact, Reason, SemaphoreRef};

fn semaphore(kind: SemKind, id: u64) -> Option<SemaphoreRef> {
    Some(SemaphoreRef { kind: kind.as_str().to_owned(), id })
}

/// The semaphore numbered `sem`.
fn numbered(program: &Program<'_>, sem: u32) -> Option<SemaphoreRef> {
    let (_, kind, id) = program.semaphores.key(sem);
    semaphore(kind, id)
}

/// Every reason the verdict holds only for this schedule (none: it is exact).
pub(super) fn reasons(program: &Program<'_>, ran: &Ran, notes: &[&Noted], stuck: &State) -> Vec<NotExact> {
    let mut out = Vec::new();
    let name = |step: u32| Some(program.inst(step).name().to_owned());
    // Waits that do not only wait for a count to grow.
    let mut waited = vec![false; program.semaphores.keys.len()];
    for (step, s) in program.steps.iter().enumerate() {
        for wait in program.waits_of(step as u32) {
            waited[wait.sem as usize] = true;
            if !wait.is_monotone() {
                out.push(NotExact {
                    reason: Reason::NonMonotoneWait,
                    core: Some(program.core_id(s.core())),
                    instruction: name(step as u32),
                    semaphore: numbered(program, wait.sem),
                });
            }
        }
    }
    // Updates that lower or overwrite a waited semaphore (`evt-set` grows only where it
    // is the only mode updating its semaphore).
    let mut modes: Vec<HashSet<Mode>> = vec![HashSet::new(); program.semaphores.keys.len()];
    for update in &program.updates {
        modes[update.sem as usize].insert(update.mode);
    }
    for step in 0..program.steps.len() {
        for update in program.updates_of(step as u32) {
            let sem = update.sem as usize;
            if !waited[sem] {
                continue;
            }
            let grows = update.grows() && (update.mode != Mode::EvtSet || modes[sem].len() == 1);
            if !grows {
                let (core, _, _) = program.semaphores.key(update.sem);
                out.push(NotExact {
                    reason: Reason::NonMonotoneUpdate,
                    core: Some(program.core_id(core)),
                    instruction: name(step as u32),
                    semaphore: numbered(program, update.sem),
                });
            }
        }
    }
    // Queues two or more lanes (engines of a core) trigger, holding a block that waits.
    let mut triggered_by: HashMap<u32, HashSet<(CoreIx, u16)>> = HashMap::new();
    for s in &program.steps {
        for &block in program.triggers_of(s) {
            if let Some(queue) = program.steps[block as usize].lane() {
                triggered_by.entry(queue as u32).or_default().insert((s.core(), s.engine));
            }
        }
    }
    for (step, s) in program.steps.iter().enumerate() {
        let shared = s.lane().is_some_and(|lane| triggered_by.get(&(lane as u32)).is_some_and(|by| by.len() >= 2));
        if let (true, Some(wait)) = (shared, program.waits_of(step as u32).first()) {
            out.push(NotExact {
                reason: Reason::QueueOrder,
                core: Some(program.core_id(s.core())),
                instruction: name(step as u32),
                semaphore: numbered(program, wait.sem),
            });
        }
    }
    // What was assumed: loop bounds, then what is not modelled.
    for (reason, unbounded) in [(Reason::LoopBoundAssumed, true), (Reason::NotModelled, false)] {
        for note in notes.iter().filter(|n| matches!(n, Noted::Unbounded { .. }) == unbounded) {
            let (core, inst) = match note {
                Noted::Unbounded { core, inst, .. } | Noted::NotModelled { core, inst, .. } => (*core, *inst),
            };
            out.push(NotExact {
                reason,
                core: Some(program.core_id(core)),
                instruction: Some(program.inst_of(core, inst).name().to_owned()),
                semaphore: None,
            });
        }
    }
    if ran.stopped {
        out.push(NotExact { reason: Reason::Stopped, core: None, instruction: None, semaphore: None });
    }
    for &(step, (core, kind, id)) in &stuck.unseen_writes {
        out.push(NotExact {
            reason: Reason::BarrierWriteUnseen,
            core: Some(program.core_id(core)),
            instruction: name(step),
            semaphore: semaphore(kind, id),
        });
    }
    out
}
