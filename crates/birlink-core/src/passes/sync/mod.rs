//! `sync`: will the linked cores hang or race? (docs/spec/sync.md). birlink's own check,
//! **not a compiler pass**: after `vnc_link`, over the per-core modules the VNC passes
//! produced, it changes nothing and writes `report.sync` and one diagnostic per finding.
//! BIR's execution semantics are not public: what it models is birlink's reading.
//!
//! Its steps, one file each:
//!
//! 1. [`program`]: what each core issues, read once into compact records (lanes per
//!    engine and DMA queue, loops as counters, calls, triggers, waits, updates,
//!    rendezvous, shared memory); [`entries`] reads the `sync_info` entries;
//! 2. [`execution`]: the deterministic round-robin execution, to completion, a deadlock
//!    or the budget, telling [`race`] (vector clocks, the band model) what issues;
//! 3. [`stuck`]: after a deadlock, every blocked lane, what it waits for, who could
//!    signal it, the wait-for graph's roots and cycle;
//! 4. [`exactness`]: whether every fair schedule ends the same way, else why not;
//! 5. the static comparisons across cores: [`lockstep`] (barriers), [`control_flow`]
//!    (blocks, loop trip counts), [`sendrecv`] (pipes); and the input's own ([`input`]);
//! 6. [`findings`]: drafts into findings and diagnostics, in code order, capped;
//! 7. [`replay`]: the same execution to a step, for the page's Sync view.
//!
//! The log rule (§7) reads no module: it is [`crate::tools::log`]'s.

mod control_flow;
mod entries;
mod exactness;
mod execution;
mod findings;
mod input;
mod lockstep;
pub(crate) mod program;
mod race;
mod replay;
mod sendrecv;
mod stuck;

use std::collections::BTreeMap;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::linked::LinkedSet;
use crate::output::sync::{
    reasons_in_words, Execution, FinalValue, LaneRow, LaneState, Sync, SyncSource, SyncStatus, Verdict,
};

pub use findings::Deny;
pub use replay::replay;

/// What the check gives back: `report.sync` and its findings as diagnostics.
#[derive(Debug)]
pub struct Checked {
    /// `report.sync`.
    pub sync: Sync,
    /// One diagnostic per finding kept (`pass: "sync"`).
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks a per-core linked set, reading the cores' programs on up to `threads`
/// threads (the outcome does not depend on it).
pub fn check(set: &LinkedSet, deny: Deny, threads: usize) -> Checked {
    prepare(set, threads).check(deny)
}

/// A set's programs read (step 1), ready to run and judge: [`check`] in two halves, so
/// that a caller can read on every thread and run beside other work.
pub struct Prepared<'m> {
    program: program::Program<'m>,
    cores: u64,
}

/// Whether the check's execution is expected to outlast writing the set, so that the
/// programs are best read on every thread before it runs beside the writing
/// (`program::runs_long`: a walk from the cores' entries issues four times the
/// instructions the set holds or more). It only schedules the work; the outcome is the
/// same either way.
pub fn runs_long(set: &LinkedSet) -> bool {
    program::runs_long(set)
}

/// Reads the cores' programs of a per-core linked set on up to `threads` threads.
pub fn prepare(set: &LinkedSet, threads: usize) -> Prepared<'_> {
    Prepared { program: program::build(set, threads), cores: set.modules.len() as u64 }
}

impl Prepared<'_> {
    /// Steps 2–6: runs the programs and judges them.
    pub fn check(self, deny: Deny) -> Checked {
        checked(self.program, self.cores, deny)
    }
}

/// Steps 2–6 over the programs read ([`Prepared::check`]).
fn checked(program: program::Program<'_>, cores: u64, deny: Deny) -> Checked {
    let (ran, races) = execute(&program);
    let verdict = if ran.stopped {
        Verdict::Stopped
    } else if (0..program.lanes.len()).all(|lane| ran.done(lane)) {
        Verdict::Completes
    } else {
        Verdict::Deadlock
    };
    let recursive = input::recursive_calls(&program, &ran);
    let notes = input::notes(&program, &recursive);
    let stuck = if verdict == Verdict::Deadlock { stuck::state(&program, &ran) } else { stuck::State::default() };
    let not_exact = exactness::reasons(&program, &ran, &notes, &stuck);
    let exact = not_exact.is_empty();
    let mut reason_counts = BTreeMap::new();
    for reason in &not_exact {
        *reason_counts.entry(reason.reason).or_insert(0) += 1;
    }
    let mut not_modelled = BTreeMap::new();
    for note in &notes {
        if let program::Noted::NotModelled { what, .. } = note {
            *not_modelled.entry(what.as_str().to_owned()).or_insert(0) += 1;
        }
    }
    let why = reasons_in_words(&reason_counts, &not_modelled);

    let mut drafts = Vec::new();
    lockstep::check(&program, &mut drafts);
    control_flow::check(&program, &mut drafts);
    sendrecv::check(&program, &mut drafts);
    stuck::findings(&program, &stuck, exact, &why, &mut drafts);
    input::unknown_semaphores(&program, &mut drafts);
    findings::races(&program, &races, &mut drafts);
    if verdict == Verdict::Completes {
        findings::leftovers(&program, &ran, &mut drafts);
    }
    input::noted(&notes, &program, &mut drafts);
    let stop = if verdict == Verdict::Stopped { stuck::stopped_in(&program, &ran) } else { None };
    if verdict == Verdict::Stopped {
        stuck::stop_finding(&ran, stop.as_ref(), &mut drafts);
    }
    let kept = findings::finish(&program, drafts, deny);

    let lanes = program
        .lanes
        .iter()
        .enumerate()
        .map(|(k, lane)| LaneRow {
            core: program.core_id(lane.core),
            engine: lane.engine.clone(),
            queue: lane.queue.clone(),
            issued: ran.lane_issued[k].0,
            barriers: ran.lane_issued[k].1,
            state: if ran.done(k) {
                LaneState::Done
            } else if verdict == Verdict::Stopped {
                LaneState::Running
            } else {
                LaneState::Blocked
            },
        })
        .collect();
    let execution = Execution {
        schedule: "round-robin".to_owned(),
        verdict,
        exact,
        not_exact: not_exact.into_iter().take(findings::CAP).collect(),
        steps: ran.steps,
        rounds: ran.rounds,
        budget: ran.budget,
        stopped_in: stop.map(|s| s.at),
        reason_counts,
        not_modelled,
        cycle: stuck.cycle.clone(),
        blocked: stuck.rows.clone(),
        final_values: final_values(&program, &ran),
    };
    let sync = Sync {
        status: SyncStatus::Ran,
        why: None,
        source: SyncSource::Modules,
        cores,
        lanes,
        execution: Some(execution),
        findings: kept.findings,
        counts: kept.counts,
        left_out: kept.left_out,
        log: None,
    };
    Checked { sync, diagnostics: kept.diagnostics }
}

/// The execution, with the race check told what issues: its clocks stored with 2 or 4
/// entries when as few lanes access a shared cell (loops of a known length), else with
/// one per such lane. The width changes how fast it runs, never what it finds.
fn execute(program: &program::Program<'_>) -> (execution::Ran, Vec<race::RaceFound>) {
    fn with<W: race::Width>(
        program: &program::Program<'_>,
        mut race: race::Race<W>,
    ) -> (execution::Ran, Vec<race::RaceFound>) {
        let ran = execution::run(program, &mut race, u64::MAX);
        (ran, race.found)
    }
    let entries = race::entries(program);
    if let Some(race) = race::Race::<race::Fixed<2>>::fixed(program, &entries) {
        return with(program, race);
    }
    if let Some(race) = race::Race::<race::Fixed<4>>::fixed(program, &entries) {
        return with(program, race);
    }
    with(program, race::Race::exact(program, &entries))
}

/// The non-zero semaphores as the execution ended, by core, type (bytewise), id.
fn final_values(program: &program::Program<'_>, ran: &execution::Ran) -> Vec<FinalValue> {
    let mut values: BTreeMap<(u64, &str, u64), i64> = BTreeMap::new();
    for (&(core, kind, id), &value) in &ran.sems {
        if value != 0 {
            values.insert((program.core_id(core), kind.as_str(), id), value);
        }
    }
    values.into_iter().map(|((core, kind, id), value)| FinalValue { core, kind: kind.to_owned(), id, value }).collect()
}

/// The codes of the check, in order.
pub const CODES: [Code; 13] = [
    Code::SyncBarrierCount,
    Code::SyncBarrierName,
    Code::SyncBlocks,
    Code::SyncTripCount,
    Code::SyncPipe,
    Code::SyncDeadlock,
    Code::SyncUnknownSemaphore,
    Code::SyncRace,
    Code::SyncLeftover,
    Code::SyncUnboundedLoop,
    Code::SyncBudget,
    Code::SyncNotModelled,
    Code::SyncLogBarriers,
];
