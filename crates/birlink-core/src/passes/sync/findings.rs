//! The check's findings: each check writes [`Draft`]s in the order it meets them;
//! [`finish`] puts them in code order, then by core (none first), keeps at most
//! [`CAP`] per code and core, gives each its severity (a note when the verdict it rests
//! on is not exact; under `--deny sync` a warning is an error) and makes each kept one a
//! diagnostic (`pass: "sync"`). Races (BL0708) and left-over counts (BL0709) are written
//! here, from the execution's results.

use std::collections::{BTreeMap, HashMap};

use rustc_hash::FxHashMap;
use serde_json::{json, Value};

use super::execution::Ran;
use super::program::{CoreIx, Program};
use super::race::RaceFound;
use crate::diag::codes::Code;
use crate::diag::{Diagnostic, Severity};
use crate::model::arena::Handle;
use crate::model::ir::{Function, Inst};
use crate::model::pass::Pass;
use crate::output::sync::{Check, Finding};

/// Whether a warning of the check fails the run (`--deny sync`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Deny {
    /// Findings keep their severities.
    #[default]
    No,
    /// Warnings become errors (notes stay notes).
    Warnings,
}

/// At most this many findings per code and core (and `not_exact` reasons).
pub(super) const CAP: usize = 20;

/// A finding before it is ordered and capped.
#[derive(Clone, Debug)]
pub(super) struct Draft {
    /// Its code.
    pub code: Code,
    /// Its core (`None`: the set's).
    pub core: Option<CoreIx>,
    /// Its lane's engine.
    pub engine: Option<String>,
    /// Its lane's queue.
    pub queue: Option<String>,
    /// Its function.
    pub function: Option<String>,
    /// Its instruction, of its core.
    pub inst: Option<Handle<Inst>>,
    /// Where it points without an instruction: its core's function.
    pub at_function: Option<Handle<Function>>,
    /// What it says.
    pub message: String,
    /// What to do.
    pub help: String,
    /// The code's details.
    pub detail: Value,
    /// A note whatever the code's severity (a hang the walk assumed its way into).
    pub note: bool,
}

impl Draft {
    /// A finding at a step: its core, lane, function and instruction.
    pub(super) fn at_step(program: &Program<'_>, code: Code, step: u32) -> Draft {
        let s = &program.steps[step as usize];
        let (engine, queue) = step_lane(program, step);
        Draft {
            code,
            core: Some(s.core()),
            engine: Some(engine),
            queue,
            function: program.step_function(step).map(str::to_owned),
            inst: Some(s.inst),
            at_function: None,
            message: String::new(),
            help: String::new(),
            detail: Value::Null,
            note: false,
        }
    }

    /// A finding of a core with no lane: at a function's instruction, if any.
    pub(super) fn at(core: Option<CoreIx>, code: Code, function: Option<String>, inst: Option<Handle<Inst>>) -> Draft {
        Draft {
            code,
            core,
            engine: None,
            queue: None,
            function,
            inst,
            at_function: None,
            message: String::new(),
            help: String::new(),
            detail: Value::Null,
            note: false,
        }
    }

    /// Says what and what to do.
    pub(super) fn says(mut self, message: String, help: String, detail: Value) -> Draft {
        self.message = message;
        self.help = help;
        self.detail = detail;
        self
    }
}

/// A step's lane as findings name it: its engine, and for a queue's block `DMA` and the
/// queue.
pub(super) fn step_lane(program: &Program<'_>, step: u32) -> (String, Option<String>) {
    let s = &program.steps[step as usize];
    match s.lane().map(|lane| &program.lanes[lane]) {
        Some(lane) => (lane.engine.clone(), lane.queue.clone()),
        None => (program.cores[s.core()].engines[usize::from(s.engine)].clone(), None),
    }
}

/// A lane as messages name it: `core 0 Pool`, `core 1 DMA queue qSyncIO`.
pub(super) fn lane_words(program: &Program<'_>, lane: usize) -> String {
    let l = &program.lanes[lane];
    match &l.queue {
        Some(queue) => format!("core {} DMA queue {queue}", program.core_id(l.core)),
        None => format!("core {} {}", program.core_id(l.core), l.engine),
    }
}

/// The check a code belongs to.
fn check_of(code: Code) -> Check {
    match code {
        Code::SyncBarrierCount | Code::SyncBarrierName => Check::Lockstep,
        Code::SyncBlocks | Code::SyncTripCount => Check::ControlFlow,
        Code::SyncPipe => Check::Sendrecv,
        Code::SyncDeadlock | Code::SyncBudget => Check::Deadlock,
        Code::SyncRace => Check::Race,
        Code::SyncLeftover => Check::Leftover,
        Code::SyncLogBarriers => Check::Log,
        _ => Check::Input,
    }
}

/// The compiler's checks and codes a code relates to.
pub(super) fn relates_to(code: Code) -> Vec<String> {
    let related: &[&str] = match code {
        Code::SyncBarrierCount | Code::SyncLogBarriers => &["1187"],
        Code::SyncBarrierName => &["1189", "NCC_IXLV002"],
        Code::SyncBlocks => &["1192", "1194", "NCC_IXGM002"],
        _ => &[],
    };
    related.iter().map(|&r| r.to_owned()).collect()
}

/// What [`finish`] gives: the findings kept, as findings and as diagnostics.
pub(super) struct Kept {
    /// The findings kept.
    pub findings: Vec<Finding>,
    /// Each one's diagnostic.
    pub diagnostics: Vec<Diagnostic>,
    /// Every code and its count, the dropped included.
    pub counts: BTreeMap<String, u64>,
    /// How many were dropped.
    pub left_out: u64,
}

/// Orders, caps and gives severities to the drafts.
pub(super) fn finish(program: &Program<'_>, mut drafts: Vec<Draft>, deny: Deny) -> Kept {
    // Code order, then core (none first); each check's own order kept within.
    drafts.sort_by_key(|d| (d.code, d.core.map(|c| program.core_id(c))));
    let mut kept = Kept { findings: Vec::new(), diagnostics: Vec::new(), counts: BTreeMap::new(), left_out: 0 };
    let mut per: HashMap<(Code, Option<CoreIx>), usize> = HashMap::new();
    for draft in drafts {
        *kept.counts.entry(draft.code.as_str().to_owned()).or_insert(0) += 1;
        let seen = per.entry((draft.code, draft.core)).or_insert(0);
        *seen += 1;
        if *seen > CAP {
            kept.left_out += 1;
            continue;
        }
        let mut severity = if draft.note { Severity::Note } else { draft.code.severity() };
        if deny == Deny::Warnings && severity == Severity::Warning {
            severity = Severity::Error;
        }
        let core = draft.core.map(|c| program.core_id(c));
        let inst = draft.core.zip(draft.inst).map(|(c, i)| program.inst_of(c, i));
        let mut diagnostic =
            Diagnostic::new(draft.code, Pass::Sync, draft.message.clone()).severity(severity).help(draft.help.clone());
        if let Some(core) = core {
            diagnostic = diagnostic.core(core);
        }
        if let Some(inst) = inst {
            diagnostic = diagnostic.at(inst.src.as_ref());
        } else if let Some((core, function)) = draft.core.zip(draft.at_function) {
            diagnostic = diagnostic.at(program.cores[core].module.store.functions[function].src.as_ref());
        }
        kept.diagnostics.push(diagnostic);
        kept.findings.push(Finding {
            code: draft.code,
            severity,
            check: check_of(draft.code),
            core,
            engine: draft.engine,
            queue: draft.queue,
            function: draft.function,
            instruction: inst.map(|i| i.name().to_owned()),
            relates_to: relates_to(draft.code),
            message: draft.message,
            detail: draft.detail,
        });
    }
    kept
}

/// One side of a race, as `detail` says it.
fn access_detail(program: &Program<'_>, (step, lane, write): (u32, u32, bool)) -> Value {
    let l = &program.lanes[lane as usize];
    json!({
        "core": program.core_id(l.core),
        "engine": l.engine,
        "queue": l.queue,
        "instruction": program.inst(step).name(),
        "access": if write { "write" } else { "read" },
    })
}

/// BL0708: each race, at its second access, in the order the execution found them.
pub(super) fn races(program: &Program<'_>, found: &[RaceFound], drafts: &mut Vec<Draft>) {
    for race in found {
        let (owner, memloc) = &program.cells[race.cell as usize];
        let (first, second) = (access_detail(program, race.first), access_detail(program, race.second));
        let first_name = program.inst(race.first.0).name();
        let second_name = program.inst(race.second.0).name();
        let (first_lane, second_lane) =
            (lane_words(program, race.first.1 as usize), lane_words(program, race.second.1 as usize));
        let verb = |write: bool| if write { "writes" } else { "reads" };
        let message = format!(
            "{second_lane} {} `{memloc}` (core {owner}'s) at `{second_name}` while {first_lane} {} it at `{first_name}`, \
             and nothing orders the two: no semaphore, barrier or dependency puts `{first_name}` before `{second_name}`. \
             At run time the value read depends on timing (the compiler's lnc_barriercheck reports such pairs when enabled).",
            verb(race.second.2),
            verb(race.first.2),
        );
        let help = format!(
            "order the two: a CoreBarrier on both cores between them, or a semaphore {first_lane} updates after \
             `{first_name}` (a remote update to core {}) that `{second_name}` waits for",
            program.core_id(program.lanes[race.second.1 as usize].core),
        );
        let detail = json!({"first": first, "second": second, "memory": {"core": owner, "memloc": memloc}});
        drafts.push(Draft::at_step(program, Code::SyncRace, race.second.0).says(message, help, detail));
    }
}

/// What a semaphore is for, the same on every core whatever its id: the first update of
/// it in the set's order made by its own core (else by any core), as (made by its own
/// core, the instruction's name, the entry's index).
type Role<'p> = (bool, &'p str, usize);

/// BL0709: after `completes`, each semaphore whose final value differs between cores.
///
/// birlink's reading, departing from the contract's comparison by id alone: a semaphore
/// is compared with its counterparts on the other cores, those of the same type and id
/// **and** those updated first by the same instruction (its [`Role`]), as `vnc_link`
/// pairs remote updates by the instruction, not the id — a core's semaphore ids may
/// differ from its peer's (that is why `vnc_link` relinks them), so comparing by id alone
/// would compare different semaphores. Counterparts are joined transitively; each core's
/// values in a group are summed (a core with none: 0).
pub(super) fn leftovers(program: &Program<'_>, ran: &Ran, drafts: &mut Vec<Draft>) {
    type Sem = (CoreIx, super::entries::SemKind, u64);
    let cores = program.cores.len();
    // Every semaphore an update touches, with its role: the first local update's
    // (else the first's) step and place among its updates, its name read at the end.
    let mut first: FxHashMap<Sem, (bool, u32, usize)> = FxHashMap::default();
    for (step, s) in program.steps.iter().enumerate() {
        for (k, at) in program.updates_range(step as u32).enumerate() {
            let sem = program.semaphores.key(program.updates[at].sem);
            let local = sem.0 == s.core();
            let role = (local, step as u32, k);
            let entry = first.entry(sem).or_insert(role);
            if local && !entry.0 {
                *entry = role;
            }
        }
    }
    let roles: BTreeMap<Sem, Role<'_>> =
        first.into_iter().map(|(sem, (local, step, k))| (sem, (local, program.inst(step).name(), k))).collect();
    let sems: Vec<Sem> = roles.keys().copied().collect();
    let mut parent: Vec<usize> = (0..sems.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let union = |parent: &mut Vec<usize>, a: usize, b: usize| {
        let (a, b) = (find(parent, a), find(parent, b));
        if a != b {
            parent[a.max(b)] = a.min(b);
        }
    };
    let mut by_id: FxHashMap<(super::entries::SemKind, u64), usize> = FxHashMap::default();
    let mut by_role: FxHashMap<(super::entries::SemKind, Role<'_>), usize> = FxHashMap::default();
    for (i, sem) in sems.iter().enumerate() {
        if let Some(&j) = by_id.get(&(sem.1, sem.2)) {
            union(&mut parent, i, j);
        } else {
            by_id.insert((sem.1, sem.2), i);
        }
        let role = roles[sem];
        if let Some(&j) = by_role.get(&(sem.1, role)) {
            union(&mut parent, i, j);
        } else {
            by_role.insert((sem.1, role), i);
        }
    }
    // Each group: the first semaphore (core order, type, id) names it; each core's sum.
    let mut groups: BTreeMap<usize, (Sem, Vec<i64>)> = BTreeMap::new();
    for (i, sem) in sems.iter().enumerate() {
        let root = find(&mut parent, i);
        let value = ran.sems.get(sem).copied().unwrap_or(0);
        let group = groups.entry(root).or_insert_with(|| (*sem, vec![0; cores]));
        group.1[sem.0] = group.1[sem.0].saturating_add(value);
    }
    let mut differing: Vec<(&str, u64, Vec<i64>)> = groups
        .into_values()
        .filter(|(_, values)| values.iter().any(|v| *v != values[0]))
        .map(|(sem, values)| (sem.1.as_str(), sem.2, values))
        .collect();
    differing.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    for (kind, id, values) in differing {
        let listed: Vec<String> =
            values.iter().enumerate().map(|(c, v)| format!("{v} on core {}", program.core_id(c))).collect();
        let message = format!(
            "{kind} {id} (with its counterparts: the same id, or the semaphore the same instruction updates, on the \
             other cores) ends at {}: the cores leave it at different counts, so the next run's waits on it start \
             from different values",
            listed.join(", "),
        );
        let help = format!(
            "reset {kind} {id} on every core at the end (GroupResetSemaphores), or make the cores update it equally often",
        );
        let detail = json!({"semaphore": {"type": kind, "id": id}, "values": values});
        drafts.push(Draft::at(None, Code::SyncLeftover, None, None).says(message, help, detail));
    }
}
