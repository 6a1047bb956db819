//! What the check says of its input: waits on semaphores nothing updates (BL0707, the
//! whole set), loops without a static bound (BL0710) and what it does not model
//! (BL0712: branches, unknown and recursive calls, unreadable entries, triggers naming
//! no block), both in the functions the entry reaches and the queues' blocks, in the
//! set's order.

use serde_json::{json, Value};

use super::execution::Ran;
use super::findings::Draft;
use super::program::{CallItem, CoreIx, Item, Noted, Program, What};
use crate::diag::codes::Code;
use crate::model::arena::Handle;
use crate::model::ir::Inst;
use crate::model::view::JsonView;
use crate::output::sync::WaitRow;

/// A step's `k`-th wait as the report shows it (its `from` read again from the
/// instruction: the program keeps counts, not what is only shown).
pub(super) fn wait_row(program: &Program<'_>, step: u32, k: usize) -> WaitRow {
    let wait = &program.waits_of(step)[k];
    let (core, kind, id) = program.semaphores.key(wait.sem);
    let view = program.inst(step).view();
    let mut entries = Vec::new();
    if let Some(list) = view.get("sync_info").and_then(|sync| sync.get("on_wait")) {
        list.for_each_element(&mut |entry| entries.push(entry));
    }
    // The k-th readable entry is the k-th wait (unreadable ones were left out).
    let readable = |e: &_| super::entries::wait(*e, core, |_| 0).is_some();
    let from = entries.into_iter().filter(readable).nth(k).and_then(super::entries::wait_from);
    WaitRow { kind: kind.as_str().to_owned(), id, cmp: wait.cmp.as_str().to_owned(), value: wait.value, from }
}

/// The calls the execution did not enter because they call a function on their own
/// chain, as noted entries (BL0712 `recursive_call`).
pub(super) fn recursive_calls(program: &Program<'_>, ran: &Ran) -> Vec<Noted> {
    ran.recursive
        .iter()
        .filter_map(|&(core, item)| match program.item(item as usize) {
            Item::Call(c) => {
                let CallItem { inst, target, order } = &program.calls[c as usize];
                let target = target.as_ref()?;
                let function = function_of_item(program, core, item)?;
                Some(Noted::NotModelled {
                    core,
                    function: Some(function),
                    inst: *inst,
                    step: None,
                    order: *order,
                    what: What::RecursiveCall,
                    target: Some(program.function_name(core, *target).to_owned()),
                    entry: None,
                })
            }
            _ => None,
        })
        .collect()
}

/// The function whose items (or loops' bodies) hold an item.
fn function_of_item(program: &Program<'_>, core: CoreIx, item: u32) -> Option<u32> {
    fn holds(program: &Program<'_>, span: super::program::Span, item: usize) -> bool {
        span.range().any(|at| {
            at == item
                || matches!(program.item(at), Item::Loop(l) if holds(program, program.loops[l as usize].body, item))
        })
    }
    let functions = &program.cores[core].functions;
    (0..functions.len() as u32).find(|&f| holds(program, functions[f as usize].items, item as usize))
}

/// Every note that counts, in the set's order.
pub(super) fn notes<'n>(program: &'n Program<'_>, recursive: &'n [Noted]) -> Vec<&'n Noted> {
    let mut notes: Vec<&Noted> = program.noted.iter().filter(|n| n.reached(program)).chain(recursive).collect();
    notes.sort_by_key(|n| n.key());
    notes
}

/// BL0707: one per instruction, at its first wait that is false at 0 on a semaphore no
/// update in the set touches on its core.
pub(super) fn unknown_semaphores(program: &Program<'_>, drafts: &mut Vec<Draft>) {
    // By the semaphores' numbers (a set of 800k updates touches a few thousand).
    let mut touched = vec![false; program.semaphores.keys.len()];
    for u in &program.updates {
        touched[u.sem as usize] = true;
    }
    for (step, s) in program.steps.iter().enumerate() {
        let unknown =
            program.waits_of(step as u32).iter().position(|w| !w.cmp.holds(0, w.value) && !touched[w.sem as usize]);
        let Some(k) = unknown else { continue };
        let wait = &program.waits_of(step as u32)[k];
        let core = program.core_id(s.core());
        let name = program.inst(step as u32).name();
        let (_, kind, id) = program.semaphores.key(wait.sem);
        let kind = kind.as_str();
        let message = format!(
            "`{name}` on core {core} waits for {kind} {id} {} {}, and no instruction of the set updates {kind} {id} on \
             core {core}: the wait can never hold (a lane that reaches it hangs: NRT status 5)",
            wait.cmp.as_str(),
            wait.value,
        );
        let help = format!(
            "find the instruction meant to signal `{name}` and check which {kind} it updates (for a remote update, the \
             id vnc_link gave it on core {core}); wait on that one",
        );
        let detail = json!({"wait": wait_row(program, step as u32, k)});
        drafts.push(Draft::at_step(program, Code::SyncUnknownSemaphore, step as u32).says(message, help, detail));
    }
}

/// BL0710 and BL0712, in the set's order.
pub(super) fn noted(notes: &[&Noted], program: &Program<'_>, drafts: &mut Vec<Draft>) {
    for note in notes {
        match note {
            Noted::Unbounded { core, function, inst, axis, .. } => {
                let name = program.inst_of(*core, *inst).name();
                let function = program.function_name(*core, *function).to_owned();
                let message = format!(
                    "loop `{name}` in `{function}` on core {} has no static trip count (its `LoopAxis` has no integer \
                     bounds, and it has no `iterations` or `trip_count`): the sync check takes it once, so its verdict \
                     holds for this schedule only",
                    program.core_id(*core),
                );
                let help = "nothing to change in the program; a dump with integer loop bounds gives an exact verdict"
                    .to_owned();
                let detail = json!({"loop_axis": axis});
                let draft = Draft::at(Some(*core), Code::SyncUnboundedLoop, Some(function), Some(*inst));
                drafts.push(draft.says(message, help, detail));
            }
            Noted::NotModelled { core, function, inst, step, what, target, entry, .. } => {
                let at = Place { core: *core, function: *function, inst: *inst, step: *step };
                drafts.push(not_modelled(program, at, *what, target.as_deref(), entry.as_ref()));
            }
        }
    }
}

/// Where a note is.
struct Place {
    core: CoreIx,
    function: Option<u32>,
    inst: Handle<Inst>,
    /// Its step, when the instruction issues.
    step: Option<u32>,
}

/// One BL0712.
fn not_modelled(program: &Program<'_>, at: Place, what: What, target: Option<&str>, entry: Option<&Value>) -> Draft {
    let Place { core, function, inst, step } = at;
    let i = program.inst_of(core, inst);
    let name = i.name();
    let core_id = program.core_id(core);
    let target_text = target.unwrap_or("?");
    let message = match what {
        What::Branch => format!(
            "branch `{name}` on core {core_id} (to `{target_text}`) is issued but not followed: the walk goes on in block \
             order (each loop through branches is walked once), so the verdict holds for this schedule only"
        ),
        What::RecursiveCall => format!(
            "`{name}` on core {core_id} calls `{target_text}`, which is already being walked: the call is not entered"
        ),
        What::UnknownCall => format!("`{name}` on core {core_id} calls `{target_text}`, which core {core_id} does not have: the call is not entered"),
        What::UnreadableWait => format!("an `on_wait` entry of `{name}` on core {core_id} cannot be read (id, value, mode or cmp): it is ignored"),
        What::UnreadableUpdate => format!(
            "an `on_update` entry of `{name}` on core {core_id} cannot be read (id, value, mode, or a `target_core` that is \
             no core of the set): it is ignored"
        ),
        What::NoBlock => format!("`{name}` on core {core_id} triggers `{target_text}`, which no queue of core {core_id} holds: nothing is triggered"),
    };
    let help = match what {
        What::Branch => "nothing to change; a dump from before `lower_branch` has structured loops the check follows",
        What::UnreadableWait | What::UnreadableUpdate => {
            "give the entry an integer id and value, and one of the modes the Neuron Explorer shows"
        }
        What::NoBlock => "name a DMABlock of the trigger's queue",
        What::RecursiveCall | What::UnknownCall => "check the call's target",
    };
    let (block, target) = match what {
        What::NoBlock => (target, None),
        _ => (None, target),
    };
    let detail = json!({"what": what.as_str(), "target": target, "block": block, "entry": entry});
    let function_name = function.map(|f| program.function_name(core, f).to_owned());
    // A `Loop` or `Call` is never issued: no lane, no engine.
    let draft = match step {
        Some(step) => Draft::at_step(program, Code::SyncNotModelled, step),
        None => Draft::at(Some(core), Code::SyncNotModelled, function_name, Some(inst)),
    };
    draft.says(message, help.to_owned(), detail)
}
