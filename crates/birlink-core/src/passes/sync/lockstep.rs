//! Lockstep (BL0701, BL0702): per function (by name, core 0 against each other core)
//! and engine, the `CoreBarrier`s in walk order, lowered or not, over the whole set. A
//! count that differs is BL0701 where the two lists part; the same count with the k-th
//! named otherwise (else numbered otherwise, on a core with no BL0701) is BL0702, with
//! how many instructions came in before it.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::findings::Draft;
use super::program::{engine_order, static_walk, CoreIx, Program};
use crate::diag::codes::Code;
use crate::model::arena::Handle;
use crate::model::ir::{Inst, Module, Op};
use crate::model::view::JsonView;

/// A barrier as lockstep compares it.
#[derive(Clone, Debug)]
struct Barrier {
    inst: Handle<Inst>,
    name: String,
    id: Option<u64>,
    /// Instructions before it in its function's walk.
    before: usize,
}

impl Barrier {
    fn expected(&self, core: u64) -> Value {
        json!({"core": core, "name": self.name, "id": self.id, "instructions_before": self.before})
    }

    fn found(&self) -> Value {
        json!({"name": self.name, "id": self.id, "instructions_before": self.before})
    }
}

/// A function's barriers per engine, engines in lane order.
fn barriers(module: &Module, function: Handle<crate::model::ir::Function>) -> BTreeMap<(usize, String), Vec<Barrier>> {
    let (insts, _) = static_walk(module, function);
    let mut by_engine: BTreeMap<(usize, String), Vec<Barrier>> = BTreeMap::new();
    for (before, &inst) in insts.iter().enumerate() {
        let i = &module.store.insts[inst];
        if i.op != Op::CoreBarrier {
            continue;
        }
        let view = i.view();
        let engine = view.get("engine").and_then(JsonView::as_str).unwrap_or("Unassigned").to_owned();
        let id = view.get("id").and_then(JsonView::as_u64);
        let key = (engine_order(&engine).0, engine);
        by_engine.entry(key).or_default().push(Barrier { inst, name: i.name().to_owned(), id, before });
    }
    by_engine
}

/// One comparison: a function and engine on core 0 and on core `core`.
struct Pair {
    core: CoreIx,
    function: String,
    /// Core `core`'s function (where a finding with no barrier of it points).
    handle: Handle<crate::model::ir::Function>,
    engine: String,
    expected: Vec<Barrier>,
    found: Vec<Barrier>,
}

/// BL0701 and BL0702 for every core but core 0.
pub(super) fn check(program: &Program<'_>, drafts: &mut Vec<Draft>) {
    let Some(first) = program.cores.first() else { return };
    for core in 1..program.cores.len() {
        let other = &program.cores[core];
        let by_name: std::collections::HashMap<&str, Handle<crate::model::ir::Function>> =
            other.module.functions.iter().rev().map(|&f| (other.module.store.functions[f].name(), f)).collect();
        let mut pairs = Vec::new();
        for &f in &first.module.functions {
            let name = first.module.store.functions[f].name();
            let Some(&g) = by_name.get(name) else { continue };
            let mut expected = barriers(first.module, f);
            let mut found = barriers(other.module, g);
            let engines: std::collections::BTreeSet<(usize, String)> =
                expected.keys().chain(found.keys()).cloned().collect();
            for key in engines {
                pairs.push(Pair {
                    core,
                    function: name.to_owned(),
                    handle: g,
                    engine: key.1.clone(),
                    expected: expected.remove(&key).unwrap_or_default(),
                    found: found.remove(&key).unwrap_or_default(),
                });
            }
        }
        let counts_differ = pairs.iter().any(|p| p.expected.len() != p.found.len());
        for pair in &pairs {
            if pair.expected.len() != pair.found.len() {
                drafts.push(count_finding(program, pair));
            } else if let Some(draft) = name_finding(program, pair, !counts_differ) {
                drafts.push(draft);
            }
        }
    }
}

/// BL0701 where the two lists part.
fn count_finding(program: &Program<'_>, pair: &Pair) -> Draft {
    let Pair { core, function, engine, expected, found, handle } = pair;
    let index =
        expected.iter().zip(found).position(|(a, b)| a.name != b.name).unwrap_or(expected.len().min(found.len()));
    let (core0, corec) = (program.core_id(0), program.core_id(*core));
    let ordinal = index;
    let theirs = expected.get(index);
    let ours = found.get(index);
    let at = match (theirs, ours) {
        (Some(a), Some(b)) => {
            format!("barrier {ordinal} is `{}` on core {core0} and `{}` on core {corec}", a.name, b.name)
        }
        (Some(a), None) => {
            format!("core {core0} goes on to barrier {ordinal}, `{}`, which core {corec} never issues", a.name)
        }
        (None, Some(b)) => {
            format!("core {corec} goes on to barrier {ordinal}, `{}`, which core {core0} never issues", b.name)
        }
        (None, None) => String::new(),
    };
    let message = format!(
        "in `{function}`, core {corec} issues {} on {engine} where core {core0} issues {}: {at}. At run time one core \
         waits at a barrier its peer never reaches: NRT status 5 after the execution timeout",
        crate::english::counted(found.len(), "CoreBarrier"),
        expected.len(),
    );
    let help = match (theirs, ours) {
        (Some(a), None) | (Some(a), Some(_)) if expected.len() > found.len() => format!(
            "give core {corec} the barrier `{}` on {engine} in `{function}` (or take it off core {core0}'s path): every \
             core must pass the same barriers, in the same order, on each engine",
            a.name
        ),
        (_, Some(b)) => format!(
            "take `{}` off core {corec}'s {engine} path in `{function}` (or give core {core0} the same barrier): every \
             core must pass the same barriers, in the same order, on each engine",
            b.name
        ),
        _ => "give every core the same barriers, in the same order, on each engine".to_owned(),
    };
    let detail = json!({
        "index": index,
        "counts": [expected.len(), found.len()],
        "expected": theirs.map(|b| json!({"core": core0, "name": b.name, "id": b.id})),
    });
    let mut draft = Draft::at(Some(*core), Code::SyncBarrierCount, Some(function.clone()), ours.map(|b| b.inst));
    draft.engine = Some(engine.clone());
    draft.at_function = Some(*handle);
    draft.says(message, help, detail)
}

/// BL0702 at the first barrier named otherwise (else numbered otherwise, when `ids`).
fn name_finding(program: &Program<'_>, pair: &Pair, ids: bool) -> Option<Draft> {
    let Pair { core, function, engine, expected, found, .. } = pair;
    let named = expected.iter().zip(found).position(|(a, b)| a.name != b.name);
    let (index, differs) = match named {
        Some(index) => (index, "name"),
        None if ids => (expected.iter().zip(found).position(|(a, b)| a.id != b.id)?, "id"),
        None => return None,
    };
    let (a, b) = (&expected[index], &found[index]);
    let (core0, corec) = (program.core_id(0), program.core_id(*core));
    let difference = b.before as i64 - a.before as i64;
    let ordinal = index;
    let message = if differs == "name" {
        let drift = match difference {
            0 => "the same number of instructions come before it on both".to_owned(),
            d if d > 0 => {
                format!("{} more came before it on core {corec}", crate::english::counted(d as usize, "instruction"))
            }
            d => format!(
                "{} more came before it on core {core0}",
                crate::english::counted(d.unsigned_abs() as usize, "instruction")
            ),
        };
        format!(
            "in `{function}`, barrier {ordinal} on {engine} is `{}` on core {corec} but `{}` on core {core0} (the \
             compiler's NCC_IXLV002): the compiler names a barrier after the instruction before it, and {drift}",
            b.name, a.name,
        )
    } else {
        format!(
            "in `{function}`, barrier {ordinal} on {engine} (`{}`) has id {} on core {corec} but {} on core {core0}",
            b.name,
            b.id.map_or("none".to_owned(), |i| i.to_string()),
            a.id.map_or("none".to_owned(), |i| i.to_string()),
        )
    };
    let help = if differs == "name" {
        format!(
            "make the cores' programs equal before `{}`: the instructions before it differ (a sendrecv called twice in one \
             traced graph is a known cause)",
            b.name
        )
    } else {
        "renumber the barriers alike on every core (bir_linker renumbers them in walk order)".to_owned()
    };
    let detail = json!({
        "index": index,
        "differs": differs,
        "expected": a.expected(core0),
        "found": b.found(),
        "instructions_before_difference": difference,
    });
    let mut draft = Draft::at(Some(*core), Code::SyncBarrierName, Some(function.clone()), Some(b.inst));
    draft.engine = Some(engine.clone());
    Some(draft.says(message, help, detail))
}
