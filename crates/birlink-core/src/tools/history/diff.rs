//! What one pass did to one module, line by line: its dump against the module's previous
//! dump, in the canonical text (`output::print`), unit by unit (the module line, each
//! function, each queue — the printer's own units), changed units first-class and the
//! unchanged ones listed (the page's Passes view: side by side, "show unchanged").
//!
//! A unit is matched by its header's kind and name (`function nc00`, `queue q0`); its
//! lines are aligned with `similar`'s Myers diff after the common head and tail are set
//! aside. **birlink's reading:** when the lines left are too many and too different to
//! align in bounded time (their length times a lower bound of the edit distance over
//! [`ALIGN_WORK`]), they are paired by position and the unit says so (`aligned: false`).

use serde::{Deserialize, Serialize};
use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::diag::Diagnostic;
use crate::model::ir::Module;
use crate::output::print::module_text_in_units;
use crate::read::input::SourceFile;
use crate::read::load::{load, LoadOptions};

/// Unchanged lines kept around each change.
pub const CONTEXT: usize = 3;
/// The most rows a unit shows (the rest counted in `more`).
pub const MAX_ROWS: usize = 2_000;
/// An unchanged unit's lines kept for "show unchanged".
pub const UNCHANGED_LINES: usize = 200;
/// The bound on aligning a unit's changed middle: its lines times the least number of
/// edits between them.
pub const ALIGN_WORK: u64 = 200_000_000;

/// A module's dump against its previous one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassDiff {
    /// The units, in the later dump's order (a unit the pass removed after them).
    pub units: Vec<UnitDiff>,
}

/// What a pass did to one unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitState {
    /// The same lines.
    #[default]
    Unchanged,
    /// Some lines differ.
    Changed,
    /// Only the later dump has it.
    Added,
    /// Only the earlier dump has it.
    Removed,
}

/// One unit of the module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitDiff {
    /// Its header line (the later dump's, when it has it).
    pub title: String,
    /// What the pass did to it.
    pub state: UnitState,
    /// Its lines before and after.
    pub lines: (usize, usize),
    /// Its rows: changes with [`CONTEXT`] lines around them (a gap between hunks is a
    /// [`Row::Gap`]); an unchanged unit's first [`UNCHANGED_LINES`] lines.
    pub rows: Vec<Row>,
    /// Rows left out past [`MAX_ROWS`] (or an unchanged unit's lines past its first).
    pub more: usize,
    /// Whether its lines were aligned (else paired by position: too many differences).
    pub aligned: bool,
}

/// One row of a side-by-side diff: a line number (1-based) and text per side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Row {
    /// The same line on both sides.
    Same {
        /// Its line before and after.
        at: (usize, usize),
        /// The line.
        text: String,
    },
    /// A line that differs: before's and after's (either may be missing).
    Changed {
        /// Before's line, with its number.
        a: Option<(usize, String)>,
        /// After's line, with its number.
        b: Option<(usize, String)>,
    },
    /// Unchanged lines left out.
    Gap(usize),
}

/// Reads two dumps of one module (the earlier `None`: the module's first dump), one at a
/// time, and says what changed; `Err` says which dump could not be read, and why.
pub fn pass_diff(before: Option<SourceFile>, after: SourceFile) -> Result<PassDiff, String> {
    let after_text = units(after)?;
    let before_text = match before {
        Some(file) => units(file)?,
        None => Vec::new(),
    };
    Ok(diff_units(&before_text, &after_text))
}

/// A dump's units: each unit's lines.
fn units(file: SourceFile) -> Result<Vec<Vec<String>>, String> {
    let path = file.path.clone();
    let mut diags: Vec<Diagnostic> = Vec::new();
    let set = load(vec![file], &LoadOptions::default(), &mut diags);
    let Some(linked) = set.modules.into_iter().next() else {
        let why = diags
            .first()
            .map_or_else(|| "no module in it".to_owned(), |d| format!("{}: {}", d.code.as_str(), d.message));
        return Err(format!("{path}: {why}"));
    };
    Ok(split(&linked.module))
}

/// A module's canonical text, cut into its units' lines.
fn split(module: &Module) -> Vec<Vec<String>> {
    let (text, starts) = module_text_in_units(module);
    let mut out = Vec::with_capacity(starts.len());
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(text.len());
        let lines: Vec<String> = text[start..end].lines().filter(|l| !l.is_empty()).map(str::to_owned).collect();
        out.push(lines);
    }
    out
}

/// A unit's identity: its header's first two words (`function nc00`, `queue q0`,
/// `module`).
fn key(unit: &[String]) -> String {
    let header = unit.first().map_or("", String::as_str);
    header.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Two dumps' units compared: the later's in order, then the units only the earlier has.
pub fn diff_units(before: &[Vec<String>], after: &[Vec<String>]) -> PassDiff {
    let mut by_key: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (k, unit) in before.iter().enumerate() {
        by_key.entry(key(unit)).or_insert(k);
    }
    let mut matched = vec![false; before.len()];
    let mut units = Vec::with_capacity(after.len());
    for unit in after {
        let title = unit.first().cloned().unwrap_or_default();
        let earlier = by_key.get(&key(unit)).copied().filter(|&k| !matched[k]);
        let diff = match earlier {
            Some(k) => {
                matched[k] = true;
                lines_diff(title, &before[k], unit)
            }
            None => one_sided(title, unit, UnitState::Added),
        };
        units.push(diff);
    }
    for (k, unit) in before.iter().enumerate() {
        if !matched[k] {
            units.push(one_sided(unit.first().cloned().unwrap_or_default(), unit, UnitState::Removed));
        }
    }
    PassDiff { units }
}

/// A unit only one side has: every line a change.
fn one_sided(title: String, unit: &[String], state: UnitState) -> UnitDiff {
    let added = state == UnitState::Added;
    let rows: Vec<Row> = unit
        .iter()
        .take(MAX_ROWS)
        .enumerate()
        .map(|(n, line)| {
            let side = Some((n + 1, line.clone()));
            if added {
                Row::Changed { a: None, b: side }
            } else {
                Row::Changed { a: side, b: None }
            }
        })
        .collect();
    let lines = if added { (0, unit.len()) } else { (unit.len(), 0) };
    UnitDiff { title, state, lines, more: unit.len().saturating_sub(MAX_ROWS), rows, aligned: true }
}

/// The least number of lines one side has that the other lacks (a multiset count): a
/// lower bound of the edit distance.
fn least_edits(a: &[String], b: &[String]) -> u64 {
    let mut count: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
    for line in a {
        *count.entry(line).or_insert(0) += 1;
    }
    for line in b {
        *count.entry(line).or_insert(0) -= 1;
    }
    count.values().map(|n| n.unsigned_abs()).sum()
}

/// One unit both sides have, line by line.
fn lines_diff(title: String, a: &[String], b: &[String]) -> UnitDiff {
    let lines = (a.len(), b.len());
    if a == b {
        let rows = a
            .iter()
            .take(UNCHANGED_LINES)
            .enumerate()
            .map(|(n, text)| Row::Same { at: (n + 1, n + 1), text: text.clone() })
            .collect();
        let more = a.len().saturating_sub(UNCHANGED_LINES);
        return UnitDiff { title, state: UnitState::Unchanged, lines, rows, more, aligned: true };
    }
    // The common head and tail, set aside before aligning the middle.
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..].iter().rev().zip(b[head..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (mid_a, mid_b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let work = (mid_a.len() + mid_b.len()) as u64 * least_edits(mid_a, mid_b);
    let aligned = work <= ALIGN_WORK;
    // Every line as (before's index, after's index): `None` where a side has none.
    let mut pairs: Vec<(Option<usize>, Option<usize>)> = (0..head).map(|n| (Some(n), Some(n))).collect();
    if aligned {
        for op in capture_diff_slices(Algorithm::Myers, mid_a, mid_b) {
            match op {
                DiffOp::Equal { old_index, new_index, len } => {
                    pairs.extend((0..len).map(|k| (Some(head + old_index + k), Some(head + new_index + k))));
                }
                DiffOp::Delete { old_index, old_len, .. } => {
                    pairs.extend((0..old_len).map(|k| (Some(head + old_index + k), None)));
                }
                DiffOp::Insert { new_index, new_len, .. } => {
                    pairs.extend((0..new_len).map(|k| (None, Some(head + new_index + k))));
                }
                DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                    for k in 0..old_len.max(new_len) {
                        let x = (k < old_len).then_some(head + old_index + k);
                        let y = (k < new_len).then_some(head + new_index + k);
                        pairs.push((x, y));
                    }
                }
            }
        }
    } else {
        for k in 0..mid_a.len().max(mid_b.len()) {
            let x = (k < mid_a.len()).then_some(head + k);
            let y = (k < mid_b.len()).then_some(head + k);
            pairs.push((x, y));
        }
    }
    pairs.extend((0..tail).map(|k| (Some(a.len() - tail + k), Some(b.len() - tail + k))));
    let same = |&(x, y): &(Option<usize>, Option<usize>)| matches!((x, y), (Some(x), Some(y)) if a[x] == b[y]);
    // Rows within CONTEXT of a change are kept; runs of others become gaps.
    let changed: Vec<usize> = pairs.iter().enumerate().filter(|(_, p)| !same(p)).map(|(k, _)| k).collect();
    let mut keep = vec![false; pairs.len()];
    for &k in &changed {
        for slot in keep.iter_mut().take((k + CONTEXT + 1).min(pairs.len())).skip(k.saturating_sub(CONTEXT)) {
            *slot = true;
        }
    }
    let mut rows = Vec::new();
    let mut more = 0;
    let mut gap = 0;
    for (k, pair) in pairs.iter().enumerate() {
        if !keep[k] {
            gap += 1;
            continue;
        }
        if rows.len() >= MAX_ROWS {
            more += 1;
            continue;
        }
        if gap > 0 {
            rows.push(Row::Gap(gap));
            gap = 0;
        }
        let row = match *pair {
            (Some(x), Some(y)) if a[x] == b[y] => Row::Same { at: (x + 1, y + 1), text: b[y].clone() },
            (x, y) => Row::Changed { a: x.map(|x| (x + 1, a[x].clone())), b: y.map(|y| (y + 1, b[y].clone())) },
        };
        rows.push(row);
    }
    if gap > 0 && rows.len() < MAX_ROWS {
        rows.push(Row::Gap(gap));
    }
    UnitDiff { title, state: UnitState::Changed, lines, rows, more, aligned }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| (*l).to_owned()).collect()
    }

    #[test]
    fn a_changed_line_is_one_row_with_context_and_gaps() {
        let mut a = vec!["function f".to_owned()];
        a.extend((0..20).map(|n| format!("  i{n} = Add")));
        let mut b = a.clone();
        b[10] = "  i9x = Add".to_owned();
        let diff = diff_units(&[unit(&["module m"]), a], &[unit(&["module m"]), b]);
        assert_eq!(diff.units[0].state, UnitState::Unchanged);
        let f = &diff.units[1];
        assert_eq!(f.state, UnitState::Changed);
        assert!(f.aligned);
        let changed: Vec<&Row> = f.rows.iter().filter(|r| matches!(r, Row::Changed { .. })).collect();
        assert_eq!(
            changed,
            [&Row::Changed { a: Some((11, "  i9 = Add".to_owned())), b: Some((11, "  i9x = Add".to_owned())) }]
        );
        assert_eq!(f.rows.first(), Some(&Row::Gap(7)));
        assert_eq!(f.rows.last(), Some(&Row::Gap(7)));
        assert_eq!(f.rows.len(), 2 + 2 * CONTEXT + 1);
    }

    #[test]
    fn units_are_matched_by_name_and_the_lost_ones_come_last() {
        let before = [unit(&["module m"]), unit(&["function f", "  a = Add"]), unit(&["queue q0", "  x"])];
        let after = [unit(&["module m"]), unit(&["function g", "  a = Add"]), unit(&["queue q0", "  x"])];
        let diff = diff_units(&before, &after);
        let states: Vec<(&str, UnitState)> = diff.units.iter().map(|u| (u.title.as_str(), u.state)).collect();
        assert_eq!(
            states,
            [
                ("module m", UnitState::Unchanged),
                ("function g", UnitState::Added),
                ("queue q0", UnitState::Unchanged),
                ("function f", UnitState::Removed),
            ]
        );
        assert_eq!(diff.units[3].rows[1], Row::Changed { a: Some((2, "  a = Add".to_owned())), b: None });
    }

    #[test]
    fn an_inserted_line_is_aligned_not_a_cascade() {
        let a = unit(&["function f", "  a", "  b", "  c", "  d"]);
        let b = unit(&["function f", "  a", "  new", "  b", "  c", "  d"]);
        let diff = lines_diff("function f".to_owned(), &a, &b);
        let changed: Vec<&Row> = diff.rows.iter().filter(|r| matches!(r, Row::Changed { .. })).collect();
        assert_eq!(changed, [&Row::Changed { a: None, b: Some((3, "  new".to_owned())) }]);
    }

    #[test]
    fn too_different_to_align_pairs_by_position_and_says_so() {
        let a: Vec<String> = (0..30_000).map(|n| format!("a{n}")).collect();
        let b: Vec<String> = (0..30_000).map(|n| format!("b{n}")).collect();
        let diff = lines_diff("function f".to_owned(), &a, &b);
        assert!(!diff.aligned);
        assert_eq!(diff.rows.len(), MAX_ROWS);
        assert_eq!(diff.more, 30_000 - MAX_ROWS);
    }
}
