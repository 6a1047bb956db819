//! The sync check's log rule (docs/spec/sync.md §7): each codegen scope's
//! `PSEUDO_CORE_BARRIER` count (opcode 0xd8, `UNKNOWN(0xd8)` in 2.24 and 2.25; its
//! tables are `super::stats`'), summed per core; a core whose total differs from core
//! 0's is BL0713.

use std::collections::BTreeMap;

use serde_json::json;

use crate::diag::codes::Code;
use crate::output::sync::{BarrierCount, Check, Finding, Sync, SyncLog, SyncSource, SyncStatus};

/// `report.sync` of a log: its rows (by core, then as the log prints them), each core's
/// total held against core 0's.
pub fn sync_of(mut rows: Vec<BarrierCount>) -> Sync {
    if rows.is_empty() {
        let mut sync = Sync::skipped("the log prints no codegen Instruction Stats table", 0);
        sync.source = SyncSource::Log;
        return sync;
    }
    rows.sort_by_key(|row| row.core);
    let mut totals: BTreeMap<u64, u64> = BTreeMap::new();
    for row in &rows {
        *totals.entry(row.core).or_insert(0) += row.count;
    }
    let mut findings = Vec::new();
    if let Some(&first) = totals.get(&0) {
        for (&core, &total) in totals.iter().filter(|(&core, &total)| core != 0 && total != first) {
            let scopes: Vec<&str> = rows.iter().filter(|r| r.core == core).map(|r| r.scope.as_str()).collect();
            findings.push(Finding {
                code: Code::SyncLogBarriers,
                severity: Code::SyncLogBarriers.severity(),
                check: Check::Log,
                core: Some(core),
                engine: None,
                queue: None,
                function: None,
                instruction: None,
                relates_to: vec!["1187".to_owned()],
                message: format!(
                    "core {core}'s code issues {total} PSEUDO_CORE_BARRIERs (codegen's Instruction Stats of {}), core \
                     0's {first}: one core will wait at a barrier the other never issues (NRT status 5 after the \
                     execution timeout)",
                    scopes.join(", "),
                ),
                detail: json!({"counts": [first, total]}),
            });
        }
    }
    let mut counts = BTreeMap::new();
    if !findings.is_empty() {
        counts.insert(Code::SyncLogBarriers.as_str().to_owned(), findings.len() as u64);
    }
    Sync {
        status: SyncStatus::Ran,
        why: None,
        source: SyncSource::Log,
        cores: totals.len() as u64,
        lanes: Vec::new(),
        execution: None,
        findings,
        counts,
        left_out: 0,
        log: Some(SyncLog { barrier_counts: rows }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_core_whose_total_differs_from_core_0s_is_bl0713() {
        let row = |core, scope: &str, count| BarrierCount { core, scope: scope.to_owned(), count, line: Some(1) };
        let sync = sync_of(vec![row(1, "nc01/sgLnk", 678), row(0, "nc00/sgLnk", 679)]);
        assert_eq!(sync.findings.len(), 1);
        assert_eq!((sync.findings[0].core, &sync.findings[0].detail), (Some(1), &json!({"counts": [679, 678]})));
        assert_eq!(sync.log.map(|l| l.barrier_counts[0].core), Some(0), "rows by core");
        assert!(sync_of(vec![row(0, "nc00/sgLnk", 5), row(1, "nc01/sgLnk", 5)]).findings.is_empty());
        assert!(sync_of(vec![row(1, "nc01/sgLnk", 5)]).findings.is_empty(), "none without a core 0");
        assert_eq!(sync_of(Vec::new()).status, SyncStatus::Skipped);
    }
}
