//! `report.sync` (docs/spec/sync.md §8): the cross-core synchronization check of a linked
//! set — its lanes, its execution (completes, deadlock or stopped, exact or for this
//! schedule, the stuck state) and its findings — or why it did not run. Fields may be
//! added, never renamed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::Severity;

/// Whether the check ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncStatus {
    /// It ran.
    Ran,
    /// It did not (`why` says why).
    #[default]
    Skipped,
}

/// What it read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncSource {
    /// The per-core modules.
    #[default]
    Modules,
    /// A compiler log (§7).
    Log,
}

/// `report.sync`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sync {
    /// `ran` or `skipped`.
    pub status: SyncStatus,
    /// Why it was skipped.
    pub why: Option<String>,
    /// What it read.
    pub source: SyncSource,
    /// The per-core modules read (the log's cores).
    pub cores: u64,
    /// The lanes, in lane order.
    pub lanes: Vec<LaneRow>,
    /// The execution (`null` when skipped, and for a log).
    pub execution: Option<Execution>,
    /// The findings, in code order (at most 20 per code and core).
    pub findings: Vec<Finding>,
    /// Every finding's code and how many there were, left out ones included.
    pub counts: BTreeMap<String, u64>,
    /// Findings left out past the cap.
    pub left_out: u64,
    /// The log rule's reading (`null` unless the source is a log).
    pub log: Option<SyncLog>,
}

impl Sync {
    /// Skipped, and why.
    pub fn skipped(why: impl Into<String>, cores: u64) -> Sync {
        Sync { status: SyncStatus::Skipped, why: Some(why.into()), cores, ..Sync::default() }
    }
}

/// A lane's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaneState {
    /// At the end of its walk (a queue: its FIFO empty).
    Done,
    /// Could not issue its next instruction.
    Blocked,
    /// Not done when the execution stopped at its budget.
    Running,
}

/// One lane: a core's engine, or one of its DMA queues.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneRow {
    /// The core.
    pub core: u64,
    /// The engine (`DMA` for a queue).
    pub engine: String,
    /// The queue, for a queue's lane.
    pub queue: Option<String>,
    /// The instructions it issued.
    pub issued: u64,
    /// The `CoreBarrier`s it issued (lowered or not).
    pub barriers: u64,
    /// How it ended.
    pub state: LaneState,
}

/// A lane named in a row.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LaneRef {
    /// The core.
    pub core: u64,
    /// The engine.
    pub engine: String,
    /// The queue, for a queue's lane.
    pub queue: Option<String>,
}

/// How the execution ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Every lane is done.
    Completes,
    /// A round issued nothing and some lane is not done.
    Deadlock,
    /// It reached its budget of steps.
    Stopped,
}

impl Verdict {
    /// `completes`, `deadlock`, `stopped`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Completes => "completes",
            Verdict::Deadlock => "deadlock",
            Verdict::Stopped => "stopped",
        }
    }
}

/// The deterministic execution (§4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Execution {
    /// Always `round-robin`.
    pub schedule: String,
    /// How it ended.
    pub verdict: Verdict,
    /// Whether every fair schedule ends the same way (§4).
    pub exact: bool,
    /// Why not (at most 20).
    pub not_exact: Vec<NotExact>,
    /// Instructions issued.
    pub steps: u64,
    /// Rounds that issued.
    pub rounds: u64,
    /// Its budget of steps.
    pub budget: u64,
    /// Where it stopped (a stop at its budget).
    pub stopped_in: Option<StoppedIn>,
    /// Every reason it is not exact and how often (`not_exact` lists at most 20).
    pub reason_counts: BTreeMap<Reason, u64>,
    /// What was not modelled (BL0712's `detail.what`) and how often.
    pub not_modelled: BTreeMap<String, u64>,
    /// A cycle of the wait-for graph, when there is one.
    pub cycle: Option<Vec<LaneRef>>,
    /// The blocked lanes (a deadlock), in lane order.
    pub blocked: Vec<Blocked>,
    /// The non-zero semaphores as it ended, by core, type, id.
    #[serde(rename = "final")]
    pub final_values: Vec<FinalValue>,
}

/// Why a verdict holds only for this schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// A wait that does not only wait for a count to grow.
    NonMonotoneWait,
    /// An update that lowers or overwrites a waited semaphore.
    NonMonotoneUpdate,
    /// A queue two lanes trigger holds a block that waits.
    QueueOrder,
    /// A loop bound was assumed (BL0710).
    LoopBoundAssumed,
    /// Something was not modelled (BL0712).
    NotModelled,
    /// The execution stopped at its budget.
    Stopped,
    /// A lowered barrier waits on a write no instruction in the set makes.
    BarrierWriteUnseen,
}

/// One reason, where it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotExact {
    /// Why.
    pub reason: Reason,
    /// The semaphore's core (the finding's, for the assumed ones).
    pub core: Option<u64>,
    /// The instruction.
    pub instruction: Option<String>,
    /// The semaphore.
    pub semaphore: Option<SemaphoreRef>,
}

/// A semaphore of a core.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SemaphoreRef {
    /// `semaphore` or `event`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Its id.
    pub id: u64,
}

/// Where a stopped execution was.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoppedIn {
    /// The core.
    pub core: u64,
    /// The function holding the loop.
    pub function: String,
    /// The loop.
    #[serde(rename = "loop")]
    pub loop_name: String,
    /// Its iteration, from 1.
    pub iteration: u64,
    /// Its trip count.
    pub of: u64,
}

/// What a blocked lane waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockedKind {
    /// A semaphore wait that does not hold.
    Wait,
    /// A rendezvous (an un-lowered barrier or sendrecv) not met.
    Rendezvous,
}

/// A blocked lane (§4's stuck state).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blocked {
    /// The core.
    pub core: u64,
    /// The engine.
    pub engine: String,
    /// The queue, for a queue's lane.
    pub queue: Option<String>,
    /// The function (`null` for a queue's block).
    pub function: Option<String>,
    /// The instruction it is blocked at.
    pub instruction: String,
    /// What it waits for.
    pub kind: BlockedKind,
    /// The wait that does not hold.
    pub wait: Option<WaitRow>,
    /// The semaphore's value.
    pub current: Option<i64>,
    /// The rendezvous not met.
    pub rendezvous: Option<RendezvousRow>,
    /// Every update in the set touching the waited semaphore (at most 20).
    pub updates: Vec<UpdateRow>,
    /// Where a hang starts: it waits for no other blocked lane.
    pub root: bool,
    /// The lanes it waits for.
    pub waiting_for: Vec<WaitingFor>,
}

/// A wait, as read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitRow {
    /// `semaphore` or `event`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The semaphore's id.
    pub id: u64,
    /// The comparison.
    pub cmp: String,
    /// The value compared with.
    pub value: i64,
    /// The entry's `from`, when it has one.
    pub from: Option<Value>,
}

/// A rendezvous not met.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RendezvousRow {
    /// `barrier` or `pipe`.
    pub group: String,
    /// The pipe, for a sendrecv.
    pub pipe: Option<u64>,
    /// Which of the lane's (from 0).
    pub index: u64,
    /// The cores that meet there.
    pub participants: Vec<u64>,
}

/// An update of a waited semaphore.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpdateRow {
    /// The issuing core.
    pub core: u64,
    /// Its engine.
    pub engine: String,
    /// Its queue, for a queue's block.
    pub queue: Option<String>,
    /// The instruction.
    pub instruction: String,
    /// The mode.
    pub mode: String,
    /// The value.
    pub value: i64,
    /// How often it issued.
    pub issued: u64,
}

/// Another lane's state, as a blocked lane sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OtherState {
    /// Blocked too.
    Blocked,
    /// Done.
    Done,
    /// No such lane.
    Absent,
}

/// A lane a blocked lane waits for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WaitingFor {
    /// The core.
    pub core: u64,
    /// The engine.
    pub engine: String,
    /// The queue.
    pub queue: Option<String>,
    /// Its state.
    pub state: OtherState,
    /// The instruction it is blocked at.
    pub instruction: Option<String>,
}

/// A semaphore's value as the execution ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalValue {
    /// The core.
    pub core: u64,
    /// `semaphore` or `event`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The id.
    pub id: u64,
    /// The value.
    pub value: i64,
}

/// Which check a finding is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Check {
    /// Barrier counts and names per function and engine.
    Lockstep,
    /// Basic blocks and loop trip counts.
    ControlFlow,
    /// Sendrecv pipes.
    Sendrecv,
    /// The execution hangs.
    Deadlock,
    /// The input's waits, loops and what is not modelled.
    Input,
    /// Two cores touch shared memory unordered.
    Race,
    /// Semaphores left at other values.
    Leftover,
    /// A compiler log's barrier counts.
    Log,
}

/// One finding (§5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Its code.
    pub code: Code,
    /// Its severity (under `--deny sync`, a warning is an error).
    pub severity: Severity,
    /// Its check.
    pub check: Check,
    /// The core.
    pub core: Option<u64>,
    /// The engine of its lane.
    pub engine: Option<String>,
    /// The queue of its lane.
    pub queue: Option<String>,
    /// The function.
    pub function: Option<String>,
    /// The instruction.
    pub instruction: Option<String>,
    /// The compiler's checks and codes it relates to.
    pub relates_to: Vec<String>,
    /// What it says.
    pub message: String,
    /// The code's details.
    pub detail: Value,
}

/// The log rule's reading (§7).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SyncLog {
    /// One row per codegen scope.
    pub barrier_counts: Vec<BarrierCount>,
}

/// A codegen scope's `PSEUDO_CORE_BARRIER` count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierCount {
    /// The core.
    pub core: u64,
    /// The scope (`nc00/sgLnk`).
    pub scope: String,
    /// The count.
    pub count: u64,
    /// The 1-based line of the row counted.
    pub line: Option<u64>,
}

/// Why a verdict holds only for this schedule, in words: `2 branches not followed, 1 loop
/// bound assumed` (empty when it is exact).
pub fn reasons_in_words(reasons: &BTreeMap<Reason, u64>, not_modelled: &BTreeMap<String, u64>) -> String {
    use crate::english::counted_as;
    let mut words = Vec::new();
    for (&reason, &n) in reasons {
        let n = n as usize;
        match reason {
            Reason::NonMonotoneWait => {
                words.push(counted_as(n, "wait that is not a count's", "waits that are not a count's"))
            }
            Reason::NonMonotoneUpdate => {
                words.push(counted_as(n, "update that lowers a waited count", "updates that lower a waited count"))
            }
            Reason::QueueOrder => words.push(counted_as(n, "DMA block two lanes order", "DMA blocks two lanes order")),
            Reason::LoopBoundAssumed => words.push(counted_as(n, "loop bound assumed", "loop bounds assumed")),
            Reason::NotModelled => {
                for (what, &m) in not_modelled {
                    let m = m as usize;
                    words.push(match what.as_str() {
                        "branch" => counted_as(m, "branch not followed", "branches not followed"),
                        "recursive_call" | "unknown_call" => counted_as(m, "call not entered", "calls not entered"),
                        "no_block" => counted_as(m, "trigger naming no block", "triggers naming no block"),
                        _ => counted_as(m, "sync entry not read", "sync entries not read"),
                    });
                }
            }
            Reason::Stopped => words.push("stopped at its budget".to_owned()),
            Reason::BarrierWriteUnseen => {
                words.push(counted_as(n, "barrier write not in the dump", "barrier writes not in the dump"))
            }
        }
    }
    words.join(", ")
}

impl LaneRef {
    /// `core 0 Pool`, `core 1 DMA queue qSyncIO`.
    pub fn words(&self) -> String {
        match &self.queue {
            Some(queue) => format!("core {} DMA queue {queue}", self.core),
            None => format!("core {} {}", self.core, self.engine),
        }
    }
}

impl Blocked {
    /// Its lane.
    pub fn lane(&self) -> LaneRef {
        LaneRef { core: self.core, engine: self.engine.clone(), queue: self.queue.clone() }
    }

    /// What it waits for, in a few words: `waits at cb_pool_1 (barrier 1) for core 1's
    /// Pool, which finished`.
    pub fn words(&self) -> String {
        let lane = self.lane().words();
        let at = &self.instruction;
        let other = |w: &WaitingFor| {
            let whose = match &w.queue {
                Some(queue) => format!("core {}'s DMA queue {queue}", w.core),
                None => format!("core {}'s {}", w.core, w.engine),
            };
            match w.state {
                OtherState::Done => format!("{whose}, which finished"),
                OtherState::Absent => format!("{whose}, which issues nothing"),
                OtherState::Blocked => format!("{whose}, blocked at {}", w.instruction.as_deref().unwrap_or("?")),
            }
        };
        let others: Vec<String> = self.waiting_for.iter().map(other).collect();
        match (&self.wait, &self.rendezvous) {
            (_, Some(r)) => {
                let what = match r.pipe {
                    Some(pipe) => format!("pipe {pipe} op {}", r.index),
                    None => format!("barrier {}", r.index),
                };
                format!("{lane} waits at {at} ({what}) for {}", others.join(" and "))
            }
            (Some(w), None) => {
                let current = self.current.unwrap_or(0);
                let wait = format!("{} {} {} {} (it is {current})", w.kind, w.id, w.cmp, w.value);
                if others.is_empty() {
                    let signal =
                        if self.updates.is_empty() { "nothing updates it" } else { "no update is left to come" };
                    format!("{lane} waits at {at} for {wait}, and {signal}")
                } else {
                    format!("{lane} waits at {at} for {wait}, which {} would update", others.join(" or "))
                }
            }
            (None, None) => format!("{lane} is blocked at {at}"),
        }
    }
}

impl Sync {
    /// The CLI's line after the pass table: `sync: deadlock (exact) — core 0 Pool waits
    /// at cb_pool_1 (barrier 1) for core 1's Pool, which finished`.
    pub fn headline(&self) -> String {
        if self.status == SyncStatus::Skipped {
            return format!("sync: skipped ({})", self.why.as_deref().unwrap_or("not run"));
        }
        let findings = crate::english::counted(self.counts.values().sum::<u64>() as usize, "finding");
        if let Some(log) = &self.log {
            let mut totals: BTreeMap<u64, u64> = BTreeMap::new();
            for row in &log.barrier_counts {
                *totals.entry(row.core).or_insert(0) += row.count;
            }
            let counts: Vec<String> = totals.values().map(u64::to_string).collect();
            return format!("sync: the log's PSEUDO_CORE_BARRIER counts per core: {}, {findings}", counts.join("/"));
        }
        let Some(execution) = &self.execution else { return format!("sync: {findings}") };
        let why = reasons_in_words(&execution.reason_counts, &execution.not_modelled);
        let lead = execution
            .blocked
            .iter()
            .find(|b| b.root)
            .map(Blocked::words)
            .or_else(|| {
                execution.cycle.as_ref().map(|cycle| {
                    let lanes: Vec<String> = cycle.iter().map(LaneRef::words).collect();
                    format!("a cycle: {} → {}", lanes.join(" → "), lanes.first().cloned().unwrap_or_default())
                })
            })
            .or_else(|| execution.blocked.first().map(Blocked::words))
            .unwrap_or_default();
        match (execution.verdict, execution.exact) {
            (Verdict::Completes, true) => format!("sync: completes (exact), {findings}"),
            (Verdict::Completes, false) => format!("sync: completes, for this schedule ({why}), {findings}"),
            (Verdict::Deadlock, true) => format!("sync: deadlock (exact) — {lead}"),
            (Verdict::Deadlock, false) => format!("sync: may deadlock, for this schedule ({why}) — {lead}"),
            (Verdict::Stopped, _) => {
                let place = execution.stopped_in.as_ref().map_or(String::new(), |s| {
                    format!(
                        " in loop {} of {} on core {} (iteration {} of {})",
                        s.loop_name, s.function, s.core, s.iteration, s.of
                    )
                });
                format!(
                    "sync: stopped at its budget of {} steps{place}, for this schedule, {findings}",
                    execution.budget
                )
            }
        }
    }
}

/// The execution replayed to a step (the page's Sync view, docs/spec/sync.md §9): what
/// issued in the window of steps before it, the remote updates and the waits that took
/// them, and where every lane is. Not in `report.json`: the worker replays on demand.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    /// The step replayed to (the steps issued before it).
    pub upto: u64,
    /// The window's first step.
    pub from: u64,
    /// What issued in the window, in issue order.
    pub events: Vec<ReplayEvent>,
    /// Each remote update and the wait that took it: (the update's step, the wait's
    /// step), both in the window.
    pub arrows: Vec<(u64, u64)>,
    /// Each lane (in `sync.lanes` order) at the step: its next instruction (`None`:
    /// done).
    pub at: Vec<Option<String>>,
}

/// One issue in a replay's window.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayEvent {
    /// Its step (from 0).
    pub step: u64,
    /// Its round (from 0).
    pub round: u64,
    /// Its lane (an index of `sync.lanes`).
    pub lane: u32,
    /// The instruction.
    pub instruction: String,
    /// Its function (`None`: a queue's block).
    pub function: Option<String>,
    /// A `CoreBarrier` (lowered or not).
    pub barrier: bool,
    /// The rendezvous it passed: `barrier` or `pipe`, the pipe, and which of the lane's.
    pub rendezvous: Option<RendezvousRow>,
    /// Whether it waited on a semaphore.
    pub waits: bool,
}
