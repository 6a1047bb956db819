//! Terminal rendering of a comparison (`birlink diff`): the verdicts first, then where
//! each core first parts, then the tables. Everything shown comes from the
//! `Comparison`; the changed words are the core's (`tools::compare::words`), marked as
//! `git diff --word-diff` marks them, the same words the page marks.

use std::fmt::Write as _;

use birlink_core::english::counted;
use birlink_core::tools::compare::{self, words, Comparison, Side};

use super::{paint, stdout_color, Style};

/// Two lines' changed words, marked `[-old-]{+new+}`.
fn word_diff(a: &str, b: &str) -> String {
    words::marked(&words::word_diff(a, b))
}

fn side_line(name: &str, side: &Side) -> String {
    let bytes: u64 = side.files.iter().map(|f| f.bytes).sum();
    format!(
        "{name}: {} ({}), {}, lnc {} (from {}): {}",
        counted(side.files.len(), "file"),
        birlink_core::english::human_bytes(bytes),
        counted(side.modules.len(), "module"),
        side.lnc,
        side.lnc_source.as_str(),
        side.verdict()
    )
}

/// The readable summary: the verdicts first, then where each core first parts, then
/// the tables.
pub fn comparison(c: &Comparison) -> String {
    let color = stdout_color();
    let mut out = String::new();
    let head = if c.equal {
        paint("the two link sets agree", Style::Accent, color)
    } else {
        paint("the two link sets differ", Style::Warning, color)
    };
    let _ = writeln!(out, "{head}");
    if let Some(explanation) = c.explanation() {
        let _ = writeln!(out, "  {explanation}");
    }
    let _ = writeln!(out, "  {}", side_line("A", &c.sides[0]));
    let _ = writeln!(out, "  {}", side_line("B", &c.sides[1]));
    if !c.normalization.applied.is_empty() {
        let _ = writeln!(
            out,
            "  names compared with {} masked ({} keys read differently), e.g. {}",
            c.normalization.applied.join(", "),
            c.normalization.keys_changed,
            c.normalization
                .examples
                .iter()
                .take(3)
                .map(|m| format!("`{}` as `{}`", m.written, m.compared))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if c.core_map.iter().any(|p| p.a != p.b) {
        let pairs: Vec<String> = c.core_map.iter().map(|p| format!("{}:{}", p.a, p.b)).collect();
        let _ = writeln!(out, "  cores paired A:B as {}", pairs.join(", "));
    }
    if !c.first_divergence.is_empty() {
        let _ = writeln!(out, "{}", paint("first divergence", Style::Bold, color));
        for d in &c.first_divergence {
            let place =
                |p: &Option<compare::Place>| p.as_ref().map_or("(nothing)".to_owned(), |p| format!("`{}`", p.key));
            let _ = writeln!(
                out,
                "  core {} (B's {}), instruction #{}: A {} · B {}",
                d.core,
                d.core_b,
                d.index,
                place(&d.a),
                place(&d.b)
            );
            if let (Some(a), Some(b)) = (&d.a, &d.b) {
                let _ = writeln!(out, "    {}", word_diff(&a.text, &b.text));
            }
            for (side, place) in [("A", &d.a), ("B", &d.b)] {
                if let Some(source) = place.as_ref().and_then(|p| p.source.as_ref()) {
                    let _ = writeln!(out, "    {side}'s source: {source}");
                }
            }
        }
    }
    let d = &c.diagnostics;
    if !d.only_a.is_empty() || !d.only_b.is_empty() {
        let _ = writeln!(out, "{}", paint("diagnostics", Style::Bold, color));
        for (label, list) in [("only in A", &d.only_a), ("only in B", &d.only_b)] {
            for key in list {
                let what = if key.entity.is_empty() { "(the link set)" } else { key.entity.as_str() };
                let _ = writeln!(out, "  {label}: {} {what}", key.code);
            }
        }
        let _ = writeln!(out, "  in both: {}", d.both.len());
    }
    let cores: Vec<_> = c.cores.iter().filter(|r| !r.differs.is_empty()).collect();
    if !cores.is_empty() {
        let _ = writeln!(out, "{}", paint("counts that differ", Style::Bold, color));
        for row in cores {
            match (&row.a, &row.b) {
                (Some(a), Some(b)) => {
                    let cells: Vec<String> = row
                        .differs
                        .iter()
                        .map(|field| {
                            let get = |c: &compare::Counts| -> u64 {
                                match field.as_str() {
                                    "functions" => c.functions,
                                    "blocks" => c.blocks,
                                    "instructions" => c.instructions,
                                    "memlocs" => c.memlocs,
                                    "shared" => c.shared,
                                    "remote" => c.remote,
                                    "barriers" => c.barriers,
                                    "remote_dma_blocks" => c.remote_dma_blocks,
                                    "semaphores" => c.semaphores,
                                    other => other
                                        .strip_prefix("opcodes.")
                                        .and_then(|op| c.opcodes.get(op))
                                        .copied()
                                        .unwrap_or(0),
                                }
                            };
                            format!("{field} {} → {}", get(a), get(b))
                        })
                        .collect();
                    let _ = writeln!(out, "  core {}: {}", row.core, cells.join(" · "));
                }
                (Some(_), None) => {
                    let _ = writeln!(out, "  core {}: only in A", row.core);
                }
                (None, _) => {
                    let _ = writeln!(out, "  core {}: only in B", row.core_b);
                }
            }
        }
    }
    if !c.entities.is_empty() {
        let _ = writeln!(out, "{}", paint("entities", Style::Bold, color));
        for (kind, [added, removed, changed]) in &c.entities.by_kind {
            let _ = writeln!(out, "  {kind}: {added} added, {removed} removed, {changed} changed");
        }
        for changed in c.entities.changed.iter().take(10) {
            let _ = writeln!(out, "  ~ {}\n    {}", changed.key, word_diff(&changed.a, &changed.b));
        }
        for key in c.entities.removed.iter().take(5) {
            let _ = writeln!(out, "  - {key}");
        }
        for key in c.entities.added.iter().take(5) {
            let _ = writeln!(out, "  + {key}");
        }
    }
    if !c.barriers.is_empty() {
        let _ = writeln!(out, "{}", paint("CoreBarriers that differ", Style::Bold, color));
        for row in c.barriers.iter().take(20) {
            let end = |e: &Option<compare::BarrierEnd>| {
                e.as_ref().map_or("(none)".to_owned(), |e| {
                    format!("{} (id {})", e.name, e.id.map_or("-".to_owned(), |i| i.to_string()))
                })
            };
            let _ = writeln!(out, "  core {} #{}: A {} · B {}", row.core, row.index, end(&row.a), end(&row.b));
        }
    }
    if !c.blocks.is_empty() {
        let _ = writeln!(out, "{}", paint("remote DMA blocks that differ", Style::Bold, color));
        for row in c.blocks.iter().take(20) {
            let end = |e: &Option<compare::BlockEnd>| e.as_ref().map_or("(none)".to_owned(), |e| e.name.clone());
            let _ = writeln!(out, "  core {} #{}: A {} · B {}", row.core, row.index, end(&row.a), end(&row.b));
        }
    }
    if !c.addresses.is_empty() {
        let _ = writeln!(out, "{}", paint("address copies that differ", Style::Bold, color));
        for row in c.addresses.iter().take(20) {
            let _ = writeln!(
                out,
                "  core {} `{}`: A {:?} · B {:?}",
                row.core,
                row.memloc,
                row.a.as_ref().map(|t| t.addr),
                row.b.as_ref().map(|t| t.addr)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_words_are_marked_as_git_marks_them() {
        assert_eq!(word_diff("CoreBarrier a id=3", "CoreBarrier b id=3"), "CoreBarrier [-a-]{+b+} id=3");
        assert_eq!(word_diff("x = A[DMA] q=1 out", "x = B[SP] id=0 out"), "x = [-A[DMA] q=1-]{+B[SP] id=0+} out");
    }
}
