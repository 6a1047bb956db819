//! The sync check's log rule (docs/spec/sync.md §7): each codegen scope's
//! `Instruction Stats:` table of opcodes, its `PSEUDO_CORE_BARRIER` row (opcode 0xd8,
//! `UNKNOWN(0xd8)` in 2.24 and 2.25) counted per core; a core whose total differs from
//! core 0's is BL0713. The table is read as the compiler draws it, boxed (`│ Opcode │
//! Count │`) or plain (`Opcode | Count`), its rows on lines of their own or behind the
//! log's prefix: the first table after the stats line whose header is `Opcode | Count`.

use std::collections::BTreeMap;

use serde_json::json;

use crate::diag::codes::Code;
use crate::output::sync::{BarrierCount, Check, Finding, Sync, SyncLog, SyncSource, SyncStatus};

/// Where a scope's table is, as lines come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Table {
    /// After the stats line, before the `Opcode | Count` header: its row in the run's
    /// counts.
    Awaiting(usize),
    /// Inside the table: the row, and the opcode's and the count's columns.
    Reading { row: usize, opcode: usize, count: usize },
}

/// The opcode rows that count a core barrier.
const BARRIER_OPCODES: [&str; 2] = ["PSEUDO_CORE_BARRIER", "UNKNOWN(0xd8)"];

/// `(nc00/sgLnk) [Codegen]: Instruction Stats:`: the scope's core and name.
pub(super) fn stats_scope<'t>(scope: Option<&'t str>, logger: Option<&str>, message: &str) -> Option<(u64, &'t str)> {
    if logger != Some("Codegen") || !message.starts_with("Instruction Stats") {
        return None;
    }
    let scope = scope?;
    let core = crate::model::place::Scope::parse(scope).and_then(crate::model::place::Scope::core)?;
    Some((core.0, scope))
}

/// A line's cells, split on the table's column separators (`│`, `┃`, `|`); `None` for a
/// line with no separator.
fn cells(text: &str) -> Option<Vec<&str>> {
    let separator = |c: char| matches!(c, '│' | '┃' | '|');
    text.contains(separator).then(|| text.split(separator).map(str::trim).collect())
}

/// Whether a line only draws the table's borders (`┌──┬──┐`, `+----+`, `|====|`).
fn is_border(text: &str) -> bool {
    let drawn =
        |c: char| c.is_whitespace() || matches!(c, '-' | '=' | '+' | '|') || ('\u{2500}'..='\u{257F}').contains(&c);
    let body = text.trim();
    !body.is_empty() && body.chars().all(drawn)
}

/// What a line does to the table being read: `None` when the table is over (the line is
/// read as any other), else the table's next state and the count the line gives.
pub(super) fn table_line(table: Table, text: &str) -> Option<(Table, Option<u64>)> {
    // A row may stand behind the log's prefix: only what follows it is the table's.
    let body = match super::line::parse(text) {
        parsed if parsed.pid.is_some() => parsed.message,
        _ => text.trim(),
    };
    if is_border(body) {
        return Some((table, None));
    }
    let cells = cells(body)?;
    match table {
        Table::Awaiting(row) => {
            let opcode = cells.iter().position(|c| c.eq_ignore_ascii_case("Opcode"));
            let count = cells.iter().position(|c| c.eq_ignore_ascii_case("Count"));
            match (opcode, count) {
                (Some(opcode), Some(count)) => Some((Table::Reading { row, opcode, count }, None)),
                // Another table first (engines, queues): keep waiting for the opcodes'.
                _ => Some((table, None)),
            }
        }
        Table::Reading { opcode, count, .. } => {
            let name = cells.get(opcode).copied().unwrap_or("");
            let counted = BARRIER_OPCODES.iter().any(|b| name.eq_ignore_ascii_case(b));
            let value = cells.get(count).and_then(|c| c.replace([',', '_'], "").parse::<u64>().ok());
            Some((table, if counted { value } else { None }))
        }
    }
}

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
    fn boxed_and_plain_tables_are_read_behind_a_prefix_or_not() {
        let awaiting = Table::Awaiting(0);
        let header = table_line(awaiting, "│ Opcode              │ Count │").map(|(t, _)| t);
        let reading = Table::Reading { row: 0, opcode: 1, count: 2 };
        assert_eq!(header, Some(reading));
        assert_eq!(table_line(awaiting, "┌────────┬───────┐"), Some((awaiting, None)));
        assert_eq!(table_line(awaiting, "│ Engine │ Count │"), Some((awaiting, None)), "not the opcodes' table");
        assert_eq!(table_line(reading, "│ UNKNOWN(0xd8)       │   679 │"), Some((reading, Some(679))));
        assert_eq!(table_line(reading, "│ MATMULT             │  5180 │"), Some((reading, None)));
        let prefixed = "2026-11-21T16:00:05Z INFO 5131 (nc01/sgLnk) [Codegen]: | PSEUDO_CORE_BARRIER | 2,406 |";
        let plain = Table::Reading { row: 0, opcode: 1, count: 2 };
        assert_eq!(table_line(plain, prefixed), Some((plain, Some(2406))));
        assert_eq!(
            table_line(reading, "2026-11-21T16:00:06Z INFO 5131 (nc00) [Codegen]: Engine stats"),
            None,
            "the table is over"
        );
    }

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
