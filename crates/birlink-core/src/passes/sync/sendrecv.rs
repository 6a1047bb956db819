//! Sendrecv pipes (BL0705): the k-th op of pipe p on a core pairs with the k-th op of
//! pipe p on each rank it names (every other core when it names none); each op, lowered
//! or not, in the set's order. One finding per op: the first peer that has no such op,
//! does not name the core back, or moves the data another way.

use std::collections::BTreeMap;

use serde_json::json;

use super::findings::Draft;
use super::program::{PipeOp, Program};
use crate::diag::codes::Code;

/// BL0705, by core, then pipe, then index.
pub(super) fn check(program: &Program<'_>, drafts: &mut Vec<Draft>) {
    // Each core's ops per pipe, in the set's order.
    let mut ops: Vec<BTreeMap<u64, Vec<(u32, &PipeOp)>>> = vec![BTreeMap::new(); program.cores.len()];
    for (step, op) in &program.pipes {
        ops[program.steps[*step as usize].core()].entry(op.pipe).or_default().push((*step, op));
    }
    let core_of_id = |id: u64| program.cores.iter().position(|c| c.id == id);
    for (core, pipes) in ops.iter().enumerate() {
        let me = program.core_id(core);
        for (&pipe, list) in pipes {
            for (index, &(step, op)) in list.iter().enumerate() {
                let peers: Vec<u64> = if op.ranks.is_empty() {
                    program.cores.iter().map(|c| c.id).filter(|&id| id != me).collect()
                } else {
                    let mut peers: Vec<u64> = op.ranks.iter().copied().filter(|&r| r != me).collect();
                    peers.dedup();
                    peers
                };
                for peer in peers {
                    let theirs = core_of_id(peer).and_then(|p| ops[p].get(&pipe)).and_then(|l| l.get(index));
                    let why = match theirs {
                        None => "no_partner",
                        Some((_, other)) if !other.ranks.is_empty() && !other.ranks.contains(&me) => "ranks_differ",
                        Some((_, other)) if other.transport != op.transport => "transports_differ",
                        Some(_) => continue,
                    };
                    let name = program.inst(step).name();
                    let ordinal = index;
                    let peer_name = theirs.map(|(s, _)| program.inst(*s).name().to_owned());
                    let message = match (why, theirs) {
                        ("no_partner", _) => format!(
                            "`{name}` is op {ordinal} of pipe {pipe} on core {me} and names core {peer}, which has no op {ordinal} \
                             on pipe {pipe}: the group never completes (\"all operations in the group must complete before \
                             any can proceed\"), and core {me} hangs: NRT status 5"
                        ),
                        ("ranks_differ", Some((_, other))) => format!(
                            "`{name}` (op {ordinal} of pipe {pipe} on core {me}) names core {peer}, but core {peer}'s op {ordinal} \
                             on pipe {pipe} (`{}`) names ranks {:?}, not core {me}",
                            peer_name.as_deref().unwrap_or("?"),
                            other.ranks,
                        ),
                        (_, Some((_, other))) => format!(
                            "`{name}` (op {ordinal} of pipe {pipe} on core {me}) moves its data by {} and core {peer}'s op \
                             {ordinal} (`{}`) by {}: the two ends do not meet",
                            op.transport.as_str(),
                            peer_name.as_deref().unwrap_or("?"),
                            other.transport.as_str(),
                        ),
                        _ => String::new(),
                    };
                    let help = format!(
                        "issue the same sendrecv ops on core {me} and core {peer}, in the same order on pipe {pipe}, each \
                         naming the other, over the same transport"
                    );
                    let detail =
                        json!({"pipe": pipe, "index": index, "peer": peer, "why": why, "peer_instruction": peer_name});
                    drafts.push(Draft::at_step(program, Code::SyncPipe, step).says(message, help, detail));
                    break;
                }
            }
        }
    }
}
