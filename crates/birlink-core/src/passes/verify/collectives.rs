//! lower_local_collectives' look-up (BL0207, the compiler's `NCC_ILLC059`), per subgraph
//! across the cores: every memory location a local collective on one core names must
//! exist, by that name, on each other core's module of the same subgraph.
//!
//! birlink's reading (spec §2, `docs/diagnostics.md` BL0207): a local collective is a
//! `CollectiveCompute` with `is_local: true` or a `cc_channel.kind` of 0–2 (SendRecv,
//! SendRecvCCE, AllReduce: the kinds the compiler lowers on-chip), and the names it uses
//! are the `memref`s of its `ins` and `outs`. The compiler stops on a miss; birlink warns
//! and links on, as for the LncVerifier's checks.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::ir::{Module, Op};
use crate::model::pass::Pass;
use crate::passes::partition::{mask_numbers, nearest_names};
use crate::read::input::CoreModule;

/// At most this many misses are reported per subgraph; the rest are counted.
const MAX_MISSES: usize = 20;

/// Whether an instruction's fields are a local collective's.
fn is_local_collective(fields: &serde_json::Map<String, Value>) -> bool {
    if fields.get("is_local").and_then(Value::as_bool) == Some(true) {
        return true;
    }
    match fields.get("cc_channel").and_then(|c| c.get("kind")) {
        Some(Value::Number(kind)) => kind.as_u64().is_some_and(|k| k <= 2),
        Some(Value::String(kind)) => matches!(kind.as_str(), "SendRecv" | "SendRecvCCE" | "AllReduce"),
        _ => false,
    }
}

/// Every name a module allocates (sets and memory locations).
fn names(module: &Module) -> BTreeSet<String> {
    let store = &module.store;
    let mut names: BTreeSet<String> = store.memlocs.iter().map(|(_, m)| m.name().to_owned()).collect();
    names.extend(store.sets.iter().map(|(_, s)| s.name(store)));
    names
}

/// Whether two names differ only in their digits (`buf.31_set`, `buf.72_set`).
pub(crate) fn differ_only_in_numbers(a: &str, b: &str) -> bool {
    a != b && mask_numbers(a) == mask_numbers(b)
}

/// The check over the modules of one subgraph (each with its core).
pub(super) fn check_modules(modules: &[(u64, &CoreModule)], subgraph: Option<u32>, diags: &mut Vec<Diagnostic>) {
    if modules.len() < 2 {
        return;
    }
    let allocated: Vec<BTreeSet<String>> = modules.iter().map(|(_, m)| names(&m.module)).collect();
    let where_ = subgraph.map(|s| format!(" of subgraph {s}")).unwrap_or_default();
    let mut misses = 0usize;
    for (at, &(core, core_module)) in modules.iter().enumerate() {
        let module = &core_module.module;
        let store = &module.store;
        for &function in &module.functions {
            let fname = store.functions[function].name();
            let mut blocks = Vec::new();
            module.walk_function_blocks(function, &mut |b| blocks.push(b));
            for block in blocks {
                for &inst in &store.blocks[block].insts {
                    let inst = &store.insts[inst];
                    if inst.op != Op::CollectiveCompute {
                        continue;
                    }
                    let fields = inst.fields();
                    if !is_local_collective(&fields) {
                        continue;
                    }
                    let mut memrefs: Vec<&str> = Vec::new();
                    for operand in
                        ["ins", "outs"].iter().filter_map(|key| fields.get(*key).and_then(Value::as_array)).flatten()
                    {
                        // A buffer read and written is one name to look up.
                        match operand.get("memref").and_then(Value::as_str) {
                            Some(name) if !memrefs.contains(&name) => memrefs.push(name),
                            _ => {}
                        }
                    }
                    for name in memrefs {
                        for (other, &(other_core, _)) in modules.iter().enumerate() {
                            if other == at || allocated[other].contains(name) {
                                continue;
                            }
                            misses += 1;
                            if misses > MAX_MISSES {
                                continue;
                            }
                            let candidates: Vec<&str> = allocated[other].iter().map(String::as_str).collect();
                            let nearest = nearest_names(name, &candidates, 3);
                            let mut message = format!(
                                "local collective `{}` on core {core}{where_} names `{name}`, which core {other_core} does not have (lower_local_collectives' look-up: the compiler's NCC_ILLC059)",
                                inst.name()
                            );
                            if !nearest.is_empty() {
                                let quoted: Vec<String> = nearest.iter().map(|n| format!("`{n}`")).collect();
                                message.push_str(&format!("; nearest on core {other_core}: {}", quoted.join(", ")));
                            }
                            let mut diagnostic =
                                Diagnostic::new(Code::LocalCollectiveNameMissing, Pass::Verify, message)
                                    .core(core)
                                    .at(inst.src.as_ref())
                                    .entity(EntityKind::Instruction, inst.name(), Some(fname));
                            if let Some(close) = nearest.iter().find(|n| differ_only_in_numbers(name, n)) {
                                diagnostic = diagnostic.help(format!(
                                    "`{close}` on core {other_core} differs from `{name}` only in its numbers: the kernel's buffers were numbered per core; launch it with its LNC grid (`kernel[2]`) so both cores name them alike"
                                ));
                            }
                            diags.push(diagnostic);
                        }
                    }
                }
            }
        }
    }
    if misses > MAX_MISSES {
        diags.push(Diagnostic::new(
            Code::LocalCollectiveNameMissing,
            Pass::Verify,
            format!(
                "{} more names of local collectives{where_} missing on another core are not shown",
                misses - MAX_MISSES
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_alone_differ() {
        assert!(differ_only_in_numbers("inst____main__.k-0:my_row.31_set", "inst____main__.k-0:my_row.72_set"));
        assert!(differ_only_in_numbers("send_k_buf.3", "send_k_buf.12"));
        assert!(!differ_only_in_numbers("send_k_buf", "send_v_buf"));
        assert!(!differ_only_in_numbers("a.1", "a.1"));
    }

    #[test]
    fn local_collectives_are_told_by_is_local_or_their_kind() {
        let fields = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert!(is_local_collective(&fields(serde_json::json!({"is_local": true}))));
        assert!(is_local_collective(&fields(serde_json::json!({"cc_channel": {"kind": 2}}))));
        assert!(is_local_collective(&fields(serde_json::json!({"cc_channel": {"kind": "SendRecv"}}))));
        assert!(!is_local_collective(&fields(serde_json::json!({"cc_channel": {"kind": 5}}))));
        assert!(!is_local_collective(&fields(serde_json::json!({"is_local": false}))));
    }
}
