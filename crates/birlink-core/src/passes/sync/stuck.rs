//! The stuck state after a deadlock (§4): every blocked lane, in lane order, with what
//! it waits for (a semaphore: its value and every update of it in the set; a
//! rendezvous: the partners not arrived), the lanes it waits for, whether it is a root
//! (it waits for no blocked lane: where a hang starts) and the wait-for graph's first
//! cycle; one BL0706 each. After a stop at the budget, where it stopped (BL0711).

use std::collections::HashSet;

use serde_json::json;

use super::entries::SemKey;
use super::execution::{Cursor, Ran, Stuck};
use super::findings::{lane_words, step_lane, Draft};
use super::input::wait_row;
use super::program::{engine_bit, Item, Meet, Program, Span};
use crate::diag::codes::Code;
use crate::model::arena::Handle;
use crate::model::ir::Inst;
use crate::output::sync::{Blocked, BlockedKind, LaneRef, OtherState, RendezvousRow, StoppedIn, UpdateRow, WaitingFor};

/// At most this many updates listed for a blocked wait.
const UPDATES_LISTED: usize = 20;

/// The stuck state.
#[derive(Clone, Debug, Default)]
pub(super) struct State {
    /// The blocked lanes' rows, in lane order.
    pub rows: Vec<Blocked>,
    /// The blocked lanes, as the rows list them.
    pub lanes: Vec<usize>,
    /// Each blocked lane's steps.
    pub steps: Vec<u32>,
    /// The wait-for graph's first cycle.
    pub cycle: Option<Vec<LaneRef>>,
    /// Lowered barriers blocked on a wait no update in the set touches: (step, the
    /// semaphore).
    pub unseen_writes: Vec<(u32, SemKey)>,
}

/// A lane's reference.
fn lane_ref(program: &Program<'_>, lane: usize) -> LaneRef {
    let l = &program.lanes[lane];
    LaneRef { core: program.core_id(l.core), engine: l.engine.clone(), queue: l.queue.clone() }
}

/// Whether a step updates `sem`.
fn updates(program: &Program<'_>, step: u32, sem: SemKey) -> bool {
    program.updates_of(step).iter().any(|u| program.semaphores.key(u.sem) == sem)
}

/// Whether a step updates `sem`, or triggers a block that does.
fn signals(program: &Program<'_>, step: u32, sem: SemKey) -> bool {
    let s = &program.steps[step as usize];
    updates(program, step, sem) || program.triggers_of(s).iter().any(|&b| updates(program, b, sem))
}

/// Whether a lane's rest (§4) holds a step `pred` accepts: from its current instruction
/// on, each frame's rest and, while iterations remain, its whole body again; a queue's
/// FIFO.
fn rest_holds(program: &Program<'_>, ran: &Ran, lane: usize, pred: &dyn Fn(u32) -> bool) -> bool {
    let frames = match &ran.cursors[lane] {
        Cursor::Queue { fifo } => return fifo.iter().any(|&b| pred(b)),
        Cursor::Engine { frames, .. } => frames,
    };
    let mut rest = Rest {
        program,
        core: program.lanes[lane].core,
        lane,
        bit: program.lanes[lane].engine_ix.map_or(0, engine_bit),
        pred,
        seen: HashSet::new(),
    };
    let top = frames.len().saturating_sub(1);
    frames.iter().enumerate().rev().any(|(depth, frame)| {
        // The top frame's current item is the step the lane is at.
        let from = if depth == top { frame.pos.saturating_sub(1) } else { frame.pos } as usize;
        rest.holds(frame.items, from)
            || frame.looping.is_some_and(|(_, iteration, of)| iteration < of) && rest.holds(frame.items, 0)
    })
}

/// A search of a lane's rest for a step.
struct Rest<'p, 'm> {
    program: &'p Program<'m>,
    core: usize,
    lane: usize,
    /// The lane's engine's bit.
    bit: u64,
    pred: &'p dyn Fn(u32) -> bool,
    /// The functions already searched (in vain: a hit ends the search).
    seen: HashSet<u32>,
}

impl Rest<'_, '_> {
    /// Whether the items of `span` from `from` on hold a step of the lane `pred` accepts.
    fn holds(&mut self, span: Span, from: usize) -> bool {
        let program = self.program;
        span.range().skip(from).any(|at| match program.item(at) {
            Item::Step(s) => program.steps[s as usize].lane() == Some(self.lane) && (self.pred)(s),
            Item::Loop(l) => {
                let l = &program.loops[l as usize];
                l.engines & self.bit != 0 && l.trips != Some(0) && self.holds(l.body, 0)
            }
            Item::Call(c) => match program.calls[c as usize].target {
                Some(target) => {
                    let callee = &program.cores[self.core].functions[target as usize];
                    callee.engines & self.bit != 0 && self.seen.insert(target) && self.holds(callee.items, 0)
                }
                None => false,
            },
        })
    }
}

/// Core `core`'s lane of the same engine as `lane`, its state as a partner of the k-th
/// rendezvous of `meet` (`None`: it arrived).
fn partner(program: &Program<'_>, ran: &Ran, core: usize, engine: &str, meet: &Meet, k: u64) -> Option<WaitingFor> {
    let id = program.core_id(core);
    let Some(lane) = super::execution::lane_of(program, core, engine) else {
        return Some(WaitingFor {
            core: id,
            engine: engine.to_owned(),
            queue: None,
            state: OtherState::Absent,
            instruction: None,
        });
    };
    let passed = ran.meets[lane].get(meet).copied().unwrap_or(0);
    let at = ran.at(lane);
    let here = at.and_then(|s| program.rendezvous_of(&program.steps[s as usize])).map(|r| &r.meet);
    if passed > k || (passed == k && here == Some(meet)) {
        return None;
    }
    let (state, instruction) = match at {
        Some(step) if !ran.done(lane) => (OtherState::Blocked, Some(program.inst(step).name().to_owned())),
        _ => (OtherState::Done, None),
    };
    Some(WaitingFor { core: id, engine: engine.to_owned(), queue: None, state, instruction })
}

/// The stuck state of a deadlocked execution.
pub(super) fn state(program: &Program<'_>, ran: &Ran) -> State {
    let mut state = State::default();
    let blocked: Vec<usize> = (0..program.lanes.len()).filter(|&l| !ran.done(l)).collect();
    let mut touched: HashSet<SemKey> = HashSet::new();
    for u in &program.updates {
        touched.insert(program.semaphores.key(u.sem));
    }
    // Each update's step, in the set's order.
    let mut updaters: Vec<(u32, usize)> = Vec::new();
    for step in 0..program.steps.len() as u32 {
        updaters.extend(program.updates_range(step).map(|u| (step, u)));
    }
    let mut edges: Vec<Vec<usize>> = Vec::new();
    for &lane in &blocked {
        let Some(step) = ran.at(lane) else { continue };
        let s = &program.steps[step as usize];
        let core = s.core();
        let this = lane_ref(program, lane);
        let mut row = Blocked {
            core: this.core,
            engine: this.engine,
            queue: this.queue,
            function: program.step_function(step).map(str::to_owned),
            instruction: program.inst(step).name().to_owned(),
            kind: BlockedKind::Wait,
            wait: None,
            current: None,
            rendezvous: None,
            updates: Vec::new(),
            root: false,
            waiting_for: Vec::new(),
        };
        let mut to: Vec<usize> = Vec::new();
        match ran.stuck[lane] {
            Some(Stuck::Wait(k)) => {
                let wait = &program.waits_of(step)[k];
                let sem: SemKey = program.semaphores.key(wait.sem);
                row.wait = Some(wait_row(program, step, k));
                row.current = Some(ran.sems.get(&sem).copied().unwrap_or(0));
                row.updates = updaters
                    .iter()
                    .filter(|&&(_, u)| {
                        let update = &program.updates[u];
                        program.semaphores.key(update.sem) == sem
                    })
                    .take(UPDATES_LISTED)
                    .map(|&(step, u)| {
                        let (engine, queue) = step_lane(program, step);
                        let update = &program.updates[u];
                        UpdateRow {
                            core: program.core_id(program.steps[step as usize].core()),
                            engine,
                            queue,
                            instruction: program.inst(step).name().to_owned(),
                            mode: update.mode.as_str().to_owned(),
                            value: update.value,
                            issued: u64::from(ran.issued[step as usize]),
                        }
                    })
                    .collect();
                for &other in blocked.iter().filter(|&&o| o != lane) {
                    if rest_holds(program, ran, other, &|st| signals(program, st, sem)) {
                        let other_at = ran.at(other).map(|st| program.inst(st).name().to_owned());
                        let r = lane_ref(program, other);
                        row.waiting_for.push(WaitingFor {
                            core: r.core,
                            engine: r.engine,
                            queue: r.queue,
                            state: OtherState::Blocked,
                            instruction: other_at,
                        });
                        to.push(other);
                    }
                }
                if program.is_barrier(s) && !touched.contains(&sem) {
                    state.unseen_writes.push((step, sem));
                }
            }
            Some(Stuck::Rendezvous) | None => {
                row.kind = BlockedKind::Rendezvous;
                if let Some(r) = program.rendezvous_of(s) {
                    let k = ran.meets[lane].get(&r.meet).copied().unwrap_or(0);
                    row.rendezvous = Some(RendezvousRow {
                        group: match r.meet {
                            Meet::Barrier => "barrier",
                            Meet::Pipe(_) => "pipe",
                        }
                        .to_owned(),
                        pipe: match r.meet {
                            Meet::Pipe(p) => Some(p),
                            Meet::Barrier => None,
                        },
                        index: k,
                        participants: r.cores.iter().map(|&c| program.core_id(c)).collect(),
                    });
                    let engine = &program.lanes[lane].engine;
                    for &p in r.cores.iter().filter(|&&p| p != core) {
                        if let Some(waiting) = partner(program, ran, p, engine, &r.meet, k) {
                            if waiting.state == OtherState::Blocked {
                                if let Some(other) = super::execution::lane_of(program, p, engine) {
                                    to.push(other);
                                }
                            }
                            row.waiting_for.push(waiting);
                        }
                    }
                }
            }
        }
        row.root = to.is_empty();
        edges.push(to);
        state.rows.push(row);
        state.lanes.push(lane);
        state.steps.push(step);
    }
    state.cycle = cycle(&state.lanes, &edges).map(|path| path.into_iter().map(|l| lane_ref(program, l)).collect());
    state
}

/// The wait-for graph's first cycle (§4): a depth-first search from each blocked lane, in
/// lane order, that no earlier search reached, edges in `waiting_for` order; the first
/// edge back to a lane on the current path closes it.
fn cycle(lanes: &[usize], edges: &[Vec<usize>]) -> Option<Vec<usize>> {
    let index_of = |lane: usize| lanes.iter().position(|&l| l == lane);
    let mut reached = vec![false; lanes.len()];
    for start in 0..lanes.len() {
        if reached[start] {
            continue;
        }
        // An explicit stack: (node, next edge), and the path.
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        let mut on_path = vec![false; lanes.len()];
        reached[start] = true;
        on_path[start] = true;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let Some(&to_lane) = edges[node].get(*next) else {
                on_path[node] = false;
                stack.pop();
                continue;
            };
            *next += 1;
            let Some(to) = index_of(to_lane) else { continue };
            if on_path[to] {
                let from = stack.iter().position(|&(n, _)| n == to).unwrap_or(0);
                return Some(stack[from..].iter().map(|&(n, _)| lanes[n]).collect());
            }
            if !reached[to] {
                reached[to] = true;
                on_path[to] = true;
                stack.push((to, 0));
            }
        }
    }
    None
}

/// BL0706 for every blocked lane, in lane order: warnings when the verdict is exact,
/// notes ("may deadlock, for this schedule: …") when it is not.
pub(super) fn findings(program: &Program<'_>, state: &State, exact: bool, why: &str, drafts: &mut Vec<Draft>) {
    for ((row, &lane), &step) in state.rows.iter().zip(&state.lanes).zip(&state.steps) {
        let who = lane_words(program, lane);
        let name = &row.instruction;
        let in_function = row.function.as_ref().map(|f| format!(" in `{f}`")).unwrap_or_default();
        let (what, help) = match (&row.wait, &row.rendezvous) {
            (Some(wait), _) => {
                let current = row.current.unwrap_or(0);
                let sem = format!("{} {}", wait.kind, wait.id);
                let blocked_by: Vec<String> = row
                    .waiting_for
                    .iter()
                    .map(|w| {
                        format!(
                            "core {} {} (blocked at `{}`)",
                            w.core,
                            w.queue.as_deref().map_or(w.engine.clone(), |q| format!("DMA queue {q}")),
                            w.instruction.as_deref().unwrap_or("?")
                        )
                    })
                    .collect();
                let who_signals = if row.updates.is_empty() {
                    format!("no instruction of the set updates {sem} on core {}", row.core)
                } else if !blocked_by.is_empty() {
                    format!("the lanes that would update it next are blocked too: {}", blocked_by.join(", "))
                } else {
                    let issued: Vec<String> = row
                        .updates
                        .iter()
                        .map(|u| {
                            format!(
                                "`{}` on core {} {} ({} {}, issued {})",
                                u.instruction,
                                u.core,
                                u.engine,
                                u.mode,
                                u.value,
                                crate::english::counted_as(u.issued as usize, "time", "times")
                            )
                        })
                        .collect();
                    format!("every update of it has issued and it is still short: {}", issued.join(", "))
                };
                let what = format!(
                    "{who} never gets past `{name}`{in_function}: it waits for {sem} {} {}, which stays at {current}; {who_signals}",
                    wait.cmp, wait.value
                );
                let help = if row.updates.is_empty() {
                    format!(
                        "give {sem} on core {} the update `{name}` waits for: find the instruction meant to signal it (a \
                         remote update's id is the one vnc_link gave it) and check which semaphore it updates",
                        row.core
                    )
                } else if !row.root {
                    "this lane is held up by another blocked lane: fix the root lane first (the first blocked lane with no \
                     blocked lane to wait for)"
                        .to_owned()
                } else {
                    format!(
                        "the updates of {sem} reach {current} where `{name}` waits for {} {}: add the missing updates (a \
                         signal on a path this core does not take?), or wait for what they give",
                        wait.cmp, wait.value
                    )
                };
                (what, help)
            }
            (None, Some(r)) => {
                let group = match r.pipe {
                    Some(pipe) => format!("op {} of pipe {pipe}", r.index),
                    None => format!("barrier {} on {}", r.index, row.engine),
                };
                let partners: Vec<String> = row
                    .waiting_for
                    .iter()
                    .map(|w| match w.state {
                        OtherState::Done => format!("core {}'s {} finished without reaching it", w.core, w.engine),
                        OtherState::Absent => format!("core {} issues nothing on {}", w.core, w.engine),
                        OtherState::Blocked => format!(
                            "core {}'s {} is blocked at `{}`",
                            w.core,
                            w.engine,
                            w.instruction.as_deref().unwrap_or("?")
                        ),
                    })
                    .collect();
                let what = format!("{who} never gets past `{name}`{in_function} ({group}): {}", partners.join("; "));
                let help = match row.waiting_for.first() {
                    Some(w) if w.state != OtherState::Blocked => format!(
                        "give core {} the same {} on {}{in_function}, or take `{name}` off core {}'s path: every core must pass \
                         the same barriers, in the same order, on each engine",
                        w.core,
                        if r.pipe.is_some() { "sendrecv" } else { "barrier" },
                        row.engine,
                        row.core
                    ),
                    _ => "this lane is held up by another blocked lane: fix the root lane first".to_owned(),
                };
                (what, help)
            }
            (None, None) => continue,
        };
        let message = if exact {
            format!("{what}. At run time: NRT status 5 after the execution timeout")
        } else {
            format!("may deadlock, for this schedule ({why}): {what}")
        };
        let detail = json!({"kind": row.kind, "wait": row.wait, "current": row.current, "rendezvous": row.rendezvous});
        let mut draft = Draft::at_step(program, Code::SyncDeadlock, step).says(message, help, detail);
        draft.note = !exact;
        drafts.push(draft);
    }
}

/// Where a stopped execution was: the unfinished `Loop` with the largest trip count on
/// a lane's walk, the first in lane order, then the outermost, on a tie.
pub(super) fn stopped_in(program: &Program<'_>, ran: &Ran) -> Option<Stop> {
    let mut best: Option<(u64, usize, u32, u32, u64)> = None;
    for lane in (0..program.lanes.len()).filter(|&l| !ran.done(l)) {
        for frame in ran.frames(lane) {
            if let Some((item, iteration, of)) = frame.looping {
                if best.is_none_or(|b| of > b.0) {
                    best = Some((of, lane, item, frame.function, iteration));
                }
            }
        }
    }
    let (of, lane, item, function, iteration) = best?;
    let core = program.lanes[lane].core;
    let Item::Loop(l) = program.item(item as usize) else { return None };
    let inst = &program.loops[l as usize].inst;
    let at = StoppedIn {
        core: program.core_id(core),
        function: program.function_name(core, function).to_owned(),
        loop_name: program.inst_of(core, *inst).name().to_owned(),
        iteration,
        of,
    };
    Some(Stop { at, core, inst: *inst })
}

/// Where a stopped execution was, and the loop's core and instruction.
#[derive(Clone, Debug)]
pub(super) struct Stop {
    /// As the report says it.
    pub at: StoppedIn,
    /// The loop's core.
    pub core: usize,
    /// The loop.
    pub inst: Handle<Inst>,
}

/// BL0711: the execution stopped at its budget (always a note: a stop is never exact).
pub(super) fn stop_finding(ran: &Ran, stop: Option<&Stop>, drafts: &mut Vec<Draft>) {
    let stopped_in = stop.map(|s| &s.at);
    let place = match stopped_in {
        Some(at) => format!(
            " inside loop `{}` of `{}` on core {} (iteration {} of {})",
            at.loop_name, at.function, at.core, at.iteration, at.of
        ),
        None => String::new(),
    };
    let message = format!(
        "the execution stopped at its budget of {} steps{place}, with some lane not done: not a hang, and its verdict \
         holds for this schedule only",
        ran.budget
    );
    let help = "nothing to fix in the program; if the trip count is not what the kernel meant, check the loop's bounds"
        .to_owned();
    let mut detail = json!({
        "core": stopped_in.map(|s| s.core),
        "function": stopped_in.map(|s| s.function.clone()),
        "loop": stopped_in.map(|s| s.loop_name.clone()),
        "iteration": stopped_in.map(|s| s.iteration),
        "of": stopped_in.map(|s| s.of),
    });
    if let Some(object) = detail.as_object_mut() {
        object.insert("steps".to_owned(), json!(ran.steps));
        object.insert("budget".to_owned(), json!(ran.budget));
    }
    let function = stopped_in.map(|s| s.function.clone());
    let mut draft =
        Draft::at(stop.map(|s| s.core), Code::SyncBudget, function, stop.map(|s| s.inst)).says(message, help, detail);
    draft.note = true;
    drafts.push(draft);
}
