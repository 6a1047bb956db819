//! Each codegen scope's statistics (`(nc00/sgLnk) [Codegen]: Instruction Stats:`), read
//! into [`InstructionStats`]: the opcode table, the engine table and the DMA descriptors
//! per queue, as the compiler draws them — boxed (`│ Opcode │ Count │`) or plain
//! (`Opcode | Count`), rows on lines of their own or behind the log's prefix. A table is
//! known by its header's first column (`Opcode`, `Engine`, `Queue`); the count is the
//! column headed `Count` (or `Descriptors`), else the last.
//!
//! Opcodes the compiler prints as `UNKNOWN(0x..)` are named where public material names
//! them ([`NAMED`], each with where its name comes from); the rest keep the compiler's
//! words. The sync check's log rule counts the `PSEUDO_CORE_BARRIER` row
//! (`super::barriers`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Opcodes the compiler prints unnamed, named from public material: printed, name,
/// where the name comes from.
pub const NAMED: &[(&str, &str, &str)] = &[(
    "UNKNOWN(0xd8)",
    "PSEUDO_CORE_BARRIER",
    "opcode 0xd8 in a public reverse-engineering wiki of the Neuron ISA; equal on both cores in every public log (116/116 at 2.25, 679/679 flat and 2406/2406 modular at 2.24)",
)];

/// One codegen scope's statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstructionStats {
    /// The core.
    pub core: u64,
    /// The module (`nc00/sgLnk`, `nc01/sg00`).
    pub module: String,
    /// Instructions per opcode.
    pub opcodes: BTreeMap<String, u64>,
    /// Instructions per engine.
    pub engines: BTreeMap<String, u64>,
    /// DMA descriptors per queue.
    pub queues: BTreeMap<String, u64>,
    /// The opcodes named here that the compiler printed unnamed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub named: Vec<Named>,
    /// The `Instruction Stats` line (1-based).
    pub line: usize,
}

/// An opcode the compiler printed unnamed, named.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named {
    /// As printed (`UNKNOWN(0xd8)`).
    pub printed: String,
    /// Its name (`PSEUDO_CORE_BARRIER`).
    pub name: String,
    /// Where the name comes from.
    pub source: String,
}

/// Which table a row is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `Opcode | Count`.
    Opcodes,
    /// `Engine | Count`.
    Engines,
    /// `Queue | Descriptors`.
    Queues,
}

/// One row of a table: its table, its name and its count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Row {
    /// The table.
    pub kind: Kind,
    /// Its first column (`MATMULT`, `PE`, `qSyncIO0`).
    pub label: String,
    /// Its count.
    pub count: u64,
}

/// Where a scope's tables are, as lines come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Table {
    /// After a stats line, before a table's header: the scope's stats.
    Awaiting(usize),
    /// Inside a table: the stats, the table, its name's and its count's columns.
    Reading { stats: usize, kind: Kind, name: usize, count: usize },
}

impl Table {
    /// The stats it fills.
    pub(super) fn stats(self) -> usize {
        match self {
            Table::Awaiting(stats) | Table::Reading { stats, .. } => stats,
        }
    }
}

/// `(nc00/sgLnk) [Codegen]: Instruction Stats:`: the scope's core and name.
pub(super) fn stats_scope<'t>(scope: Option<&'t str>, logger: Option<&str>, message: &str) -> Option<(u64, &'t str)> {
    if logger != Some("Codegen") || !message.starts_with("Instruction Stats") {
        return None;
    }
    let scope = scope?;
    let core = crate::model::place::Scope::parse(scope).and_then(crate::model::place::Scope::core)?;
    Some((core.0, scope))
}

/// A codegen line that announces another table of the scope's statistics (`Engine
/// Stats:`, `Number of DMA descriptors per queue:`).
pub(super) fn more_stats(logger: Option<&str>, message: &str) -> bool {
    logger == Some("Codegen")
        && (message.starts_with("Engine Stats") || message.starts_with("Number of DMA descriptors"))
        && message.trim_end().ends_with(':')
}

/// `Number of DMA descriptors for qSyncIO0: 1234` (also `in`/`on`, `=`): one queue's
/// descriptors on a line of its own.
pub(super) fn descriptors_line(logger: Option<&str>, message: &str) -> Option<(String, u64)> {
    if logger != Some("Codegen") {
        return None;
    }
    let rest = message.strip_prefix("Number of DMA descriptors")?.trim_start();
    let rest =
        ["for queue ", "in queue ", "on queue ", "for ", "in ", "on "].iter().find_map(|p| rest.strip_prefix(p))?;
    let (queue, count) = rest.rsplit_once([':', '='])?;
    let count = count.trim().replace([',', '_'], "").parse().ok()?;
    Some((queue.trim().to_owned(), count))
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

/// A table's header: which table, its name's and its count's columns.
fn header(cells: &[&str]) -> Option<(Kind, usize, usize)> {
    let (name, kind) = cells.iter().enumerate().find_map(|(at, cell)| {
        let kind = match cell.to_ascii_lowercase().as_str() {
            "opcode" => Kind::Opcodes,
            "engine" => Kind::Engines,
            "queue" | "queue instance" | "queue name" => Kind::Queues,
            _ => return None,
        };
        Some((at, kind))
    })?;
    let count = cells
        .iter()
        .position(|c| ["count", "descriptors", "num descriptors"].contains(&c.to_ascii_lowercase().as_str()))
        .or_else(|| cells.iter().rposition(|c| !c.is_empty()).filter(|&at| at != name))?;
    Some((kind, name, count))
}

/// What a line does to the table being read: `None` when the tables are over (the line
/// is read as any other), else the next state and the row the line gives (its table,
/// name and count).
pub(super) fn table_line(table: Table, text: &str) -> Option<(Table, Option<Row>)> {
    // A row may stand behind the log's prefix: only what follows it is the table's.
    let body = match super::line::parse(text) {
        parsed if parsed.pid.is_some() => parsed.message,
        _ => text.trim(),
    };
    if is_border(body) {
        return Some((table, None));
    }
    let cells = cells(body)?;
    if let Some((kind, name, count)) = header(&cells) {
        return Some((Table::Reading { stats: table.stats(), kind, name, count }, None));
    }
    match table {
        // Some other table first: keep waiting for one birlink knows.
        Table::Awaiting(_) => Some((table, None)),
        Table::Reading { kind, name, count, .. } => {
            let label = cells.get(name).copied().unwrap_or("");
            let value = cells.get(count).and_then(|c| c.replace([',', '_'], "").parse::<u64>().ok());
            Some((table, value.filter(|_| !label.is_empty()).map(|count| Row { kind, label: label.to_owned(), count })))
        }
    }
}

impl InstructionStats {
    /// Adds a row, naming an opcode printed unnamed where public material names it.
    pub(super) fn add(&mut self, Row { kind, label, count }: Row) {
        let label = match (kind, NAMED.iter().find(|(printed, _, _)| label.eq_ignore_ascii_case(printed))) {
            (Kind::Opcodes, Some((printed, name, source))) => {
                if !self.named.iter().any(|n| n.name == *name) {
                    let named = Named {
                        printed: (*printed).to_owned(),
                        name: (*name).to_owned(),
                        source: (*source).to_owned(),
                    };
                    self.named.push(named);
                }
                (*name).to_owned()
            }
            _ => label,
        };
        let map = match kind {
            Kind::Opcodes => &mut self.opcodes,
            Kind::Engines => &mut self.engines,
            Kind::Queues => &mut self.queues,
        };
        *map.entry(label).or_insert(0) += count;
    }

    /// Its core barriers: the `PSEUDO_CORE_BARRIER` row.
    pub fn core_barriers(&self) -> u64 {
        self.opcodes.get("PSEUDO_CORE_BARRIER").copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxed_and_plain_tables_are_read_behind_a_prefix_or_not() {
        let awaiting = Table::Awaiting(0);
        let header_of = |line| table_line(awaiting, line).map(|(t, _)| t);
        let opcodes = Table::Reading { stats: 0, kind: Kind::Opcodes, name: 1, count: 2 };
        assert_eq!(header_of("│ Opcode              │ Count │"), Some(opcodes));
        assert_eq!(table_line(awaiting, "┌────────┬───────┐"), Some((awaiting, None)));
        let engines = Table::Reading { stats: 0, kind: Kind::Engines, name: 1, count: 2 };
        assert_eq!(header_of("│ Engine │ Count │"), Some(engines));
        assert_eq!(
            header_of("| Queue | Descriptors |"),
            Some(Table::Reading { stats: 0, kind: Kind::Queues, name: 1, count: 2 })
        );
        assert_eq!(table_line(awaiting, "│ Other │ Count │"), Some((awaiting, None)), "a table birlink does not know");
        assert_eq!(
            table_line(opcodes, "│ UNKNOWN(0xd8)       │   679 │"),
            Some((opcodes, Some(Row { kind: Kind::Opcodes, label: "UNKNOWN(0xd8)".to_owned(), count: 679 })))
        );
        let prefixed = "2026-11-21T16:00:05Z INFO 5131 (nc01/sgLnk) [Codegen]: | PSEUDO_CORE_BARRIER | 2,406 |";
        assert_eq!(table_line(opcodes, prefixed).and_then(|(_, row)| row).map(|r| r.count), Some(2406));
        assert_eq!(table_line(opcodes, "2026-11-21T16:00:06Z INFO 5131 (nc00) [Codegen]: Engine stats"), None, "over");
    }

    #[test]
    fn an_unnamed_opcode_is_named_with_its_source_and_descriptors_read_from_a_line() {
        let mut stats = InstructionStats::default();
        let row = |kind, label: &str, count| Row { kind, label: label.to_owned(), count };
        stats.add(row(Kind::Opcodes, "UNKNOWN(0xd8)", 116));
        stats.add(row(Kind::Opcodes, "UNKNOWN(0x7f)", 3));
        stats.add(row(Kind::Engines, "PE", 7291));
        assert_eq!(stats.core_barriers(), 116);
        assert_eq!(stats.opcodes.get("UNKNOWN(0x7f)"), Some(&3), "an opcode no public material names keeps its words");
        assert_eq!(stats.named.len(), 1);
        assert!(stats.named[0].source.contains("0xd8"));
        assert_eq!(
            descriptors_line(Some("Codegen"), "Number of DMA descriptors for queue qSyncIO0: 1,234"),
            Some(("qSyncIO0".to_owned(), 1234))
        );
        assert!(more_stats(Some("Codegen"), "Number of DMA descriptors per queue:"));
    }
}
