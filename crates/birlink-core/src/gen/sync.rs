//! One fault per code of the sync check (BL0701–BL0712), on the flat flow's clean set
//! (the check reads the compiler's per-core modules, never the seeds' merged one): the
//! shapes the public reports describe — a barrier on one core's path only, a wait whose
//! signal went to another semaphore, a loop whose trip count differs, a handoff read
//! before the barrier that orders it — and the input the check cannot vouch for. BL0713
//! reads a compiler log: its fault is [`super::log`]'s.
//!
//! The same shapes are the sync samples' scenarios ([`scenario`]): the public hang's,
//! a signal relinked to another semaphore, a loop whose trip count differs around a
//! barrier, a handoff read before its barrier.

use serde_json::{json, Value};

use super::config::Scenario;
use super::edit::{blocks_mut, insts_mut, push_inst};
use super::module::ap;
use super::set::GenSet;
use super::shared_name;
use crate::diag::codes::Code;

/// Core 1's module (core 0's with one core).
fn peer(set: &GenSet) -> usize {
    1.min(set.modules.len().saturating_sub(1))
}

/// Puts `inst` first in module `i`'s first block.
fn insert_first(set: &mut GenSet, i: usize, inst: Value) {
    if let Some(insts) = blocks_mut(set, i)
        .and_then(|b| b.get_mut(0))
        .and_then(|b| b.get_mut("instructions"))
        .and_then(Value::as_array_mut)
    {
        insts.insert(0, inst);
    }
}

/// The first `Loop` of module `i`'s first block, to change.
fn first_loop(set: &mut GenSet, i: usize) -> Option<&mut Value> {
    insts_mut(set, i, "Loop").into_iter().next()
}

/// Removes module `i`'s last `CoreBarrier` (the one the public case switched off on one
/// path).
fn remove_last_barrier(set: &mut GenSet, i: usize) {
    let Some(blocks) = blocks_mut(set, i) else { return };
    for block in blocks.iter_mut().rev() {
        let Some(insts) = block.get_mut("instructions").and_then(Value::as_array_mut) else { continue };
        if let Some(at) =
            insts.iter().rposition(|inst| inst.get("opcode").and_then(Value::as_str) == Some("CoreBarrier"))
        {
            insts.remove(at);
            return;
        }
    }
}

/// Injects the sync check's fault for `code` (a code of another check: nothing).
pub(super) fn inject(set: &mut GenSet, code: Code) {
    let one = peer(set);
    match code {
        Code::SyncBarrierCount => remove_last_barrier(set, one),
        Code::SyncBarrierName => {
            if let Some(barrier) = insts_mut(set, one, "CoreBarrier").into_iter().nth(1) {
                barrier["name"] = json!("CoreBarrier-0_180");
            }
        }
        Code::SyncBlocks => {
            if let Some(blocks) = blocks_mut(set, one) {
                blocks.push(json!({"name": "Block_on_core_1_only", "instructions": []}));
            }
        }
        Code::SyncTripCount => {
            if let Some(l) = first_loop(set, one) {
                l["LoopAxis"]["ub"] = json!(2);
            }
        }
        Code::SyncPipe => push_inst(
            set,
            0,
            // A lowered sendrecv (its wait always holds) that names core 1, which has no
            // op on pipe 3.
            json!({"name": "sendrecv_k_0", "opcode": "CollectiveCompute", "engine": "Pool", "pipe_id": 3,
                   "send_to_rank": one, "recv_from_rank": one,
                   "sync_info": {"on_wait": [{"id": 4, "wait_value": 0, "mode": "sem-ge-imm"}]}}),
        ),
        Code::SyncDeadlock => push_inst(
            set,
            one,
            // A wait for more than its semaphore's updates ever give.
            json!({"name": "wait_too_high", "opcode": "TensorCopy", "engine": "PE",
                   "ins": [ap("sb_tile_0", "bfloat16")], "outs": [ap("sb_tile_1", "bfloat16")],
                   "sync_info": {"on_wait": [{"from": "inst__I-0-0:load", "id": 4, "wait_value": 1000, "mode": "sem-ge-imm"}]}}),
        ),
        Code::SyncUnknownSemaphore => push_inst(
            set,
            one,
            // Its signal went to another semaphore: nothing updates 250 on core 1.
            json!({"name": "wait_for_moved_signal", "opcode": "TensorCopy", "engine": "Activation",
                   "ins": [ap("sb_tile_0", "bfloat16")], "outs": [ap("sb_tile_1", "bfloat16")],
                   "sync_info": {"on_wait": [{"from": "remote_dma_0", "id": 250, "wait_value": 1, "mode": "sem-ge-imm"}]}}),
        ),
        Code::SyncRace => {
            let name = shared_name(0);
            insert_first(
                set,
                one,
                // Core 0's tile read before the barrier that orders its store.
                json!({"name": format!("early_load_{name}"), "opcode": "DMACopy", "engine": "SP", "queue": "qSyncIO",
                       "ins": [ap(&name, "bfloat16")], "outs": [ap("sb_tile_3", "bfloat16")]}),
            );
        }
        Code::SyncLeftover => push_inst(
            set,
            0,
            // One more signal of the first group's semaphore on core 0 than on core 1.
            json!({"name": "extra_signal", "opcode": "TensorCopy", "engine": "DVE",
                   "ins": [ap("sb_tile_0", "bfloat16")], "outs": [ap("sb_tile_1", "bfloat16")],
                   "sync_info": {"on_update": [{"id": 4, "update_value": 1, "mode": "sem-inc"}]}}),
        ),
        Code::SyncUnboundedLoop | Code::SyncBudget => {
            // Both cores alike: no trip count differs.
            let ub = if code == Code::SyncBudget { json!(10_000_000) } else { json!("n") };
            for i in 0..set.modules.len() {
                if let Some(l) = first_loop(set, i) {
                    l["LoopAxis"]["ub"] = ub.clone();
                }
            }
        }
        Code::SyncNotModelled => {
            for i in 0..set.modules.len() {
                let cbr = json!({"name": "branch_on_count", "opcode": "CompareAndBranch", "engine": "SP",
                                 "comp_op": "lt", "on_true": "Block2", "on_false": "Block2"});
                push_inst(set, i, cbr);
            }
        }
        _ => {}
    }
}

/// Gives the barriers of `blocks` (loop bodies included) the ids `next..` in walk order,
/// as LncVerifier expects them before the link (1188).
fn renumber_barriers(blocks: &mut [Value], next: &mut u64) {
    for block in blocks {
        for inst in block.get_mut("instructions").and_then(Value::as_array_mut).into_iter().flatten() {
            if inst.get("opcode").and_then(Value::as_str) == Some("CoreBarrier") {
                inst["id"] = json!(*next);
                *next += 1;
            }
            if let Some(body) = inst.get_mut("blocks").and_then(Value::as_array_mut) {
                renumber_barriers(body, next);
            }
        }
    }
}

/// The sync samples' scenarios, on a flat set of two cores.
pub(super) fn scenario(set: &mut GenSet, scenario: Scenario) {
    let one = peer(set);
    match scenario {
        Scenario::BarrierOnOnePath => remove_last_barrier(set, one),
        Scenario::SignalToAnotherSemaphore => {
            // Core 0's `remote_dma_0` signals core 1's semaphore 177 (after vnc_link, the
            // id core 1's own block updates); core 1 waits on 178, which nothing updates.
            push_inst(
                set,
                one,
                json!({"name": "wait_for_tile_0", "opcode": "DMACopy", "engine": "SP", "queue": "qSyncIO",
                       "ins": [ap(&shared_name(0), "bfloat16")], "outs": [ap("sb_tile_3", "bfloat16")],
                       "sync_info": {"on_wait": [{"from": "remote_dma_0", "id": 178, "wait_value": 1, "mode": "sem-ge-imm"}]}}),
            );
        }
        Scenario::TripCountDiffers => {
            for i in 0..set.modules.len() {
                if let Some(l) = first_loop(set, i) {
                    if let Some(body) = l["blocks"][0]["instructions"].as_array_mut() {
                        body.push(json!({"name": "loop_barrier", "opcode": "CoreBarrier", "engine": "DVE", "id": 0,
                                         "cores": [0, 1]}));
                    }
                    if i == one {
                        l["LoopAxis"]["ub"] = json!(2);
                    }
                }
                if let Some(blocks) = blocks_mut(set, i) {
                    renumber_barriers(blocks, &mut 0);
                }
            }
        }
        Scenario::HandoffRace => inject(set, Code::SyncRace),
        _ => {}
    }
}
