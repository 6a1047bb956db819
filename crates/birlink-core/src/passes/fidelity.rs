//! The compiler's own result beside birlink's (docs/spec/link.md §0.8): when a work
//! directory also holds the compiler's dumps after a pass of the link (`bir_linker`'s
//! `ncCC/sgLnk`, the VNC passes' per-core modules), each is read and held against
//! birlink's module of the same core right after birlink's same pass, for the same
//! input ([`Check::after`]); what birlink never reached is said so at the end
//! ([`Check::finish`]). Nothing of a stage is kept for later: a row is all that stays.
//!
//! They are compared by their canonical text (`output::print`), the text every view and
//! `linked.txt` show, as a line diff (`similar`'s Myers): equal, or the first line where
//! they part, the unit it is in (the printer's own units: the module's line, a
//! function, a queue) and both lines, and how many lines differ — an inserted line is
//! one difference, not every line after it. Past [`MAX_DIFFED_LINES`] lines that differ
//! after their common start and end, the lines between are counted as they stand. This
//! is the fidelity check that runs on every user's own data; it changes nothing and
//! reports no diagnostic (a difference is a finding about birlink's reimplementation or
//! about the dumps, not an error of the link).

use similar::{capture_diff_slices, Algorithm, DiffTag};

use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{FidelityRow, FirstDifference};
use crate::read::input::SourceFile;
use crate::read::load::{self, LoadOptions};
use crate::read::workdir::{Dump, WorkdirInput};

/// The most lines between the texts' common start and end diffed line by line (the
/// diff's time grows with their product when they differ throughout).
pub const MAX_DIFFED_LINES: usize = 50_000;

/// The compiler's dumps of a work directory held against birlink's stages as they end.
#[derive(Debug, Default)]
pub struct Check<'w> {
    /// The work directory, in the compiler's flows.
    work: Option<&'w WorkdirInput>,
    /// Its dumps after a pass of the link, each with its file's index and whether it was
    /// compared yet.
    compiler: Vec<(usize, Dump, bool)>,
    /// The rows so far.
    rows: Vec<FidelityRow>,
}

impl<'w> Check<'w> {
    /// The check of a work directory's compiler dumps (none without one).
    pub fn new(work: Option<&'w WorkdirInput>) -> Check<'w> {
        let compiler = work.and_then(WorkdirInput::plan).map(|plan| plan.compiler).unwrap_or_default();
        let compiler = compiler.into_iter().map(|(index, dump)| (index, dump, false)).collect();
        Check { work, compiler, rows: Vec::new() }
    }

    /// Holds each of the compiler's dumps after `pass` against birlink's module of its
    /// core in `set`, birlink's set right after the same pass.
    pub fn after(&mut self, pass: Pass, set: &LinkedSet) {
        let Some(work) = self.work else { return };
        for (index, dump, done) in &mut self.compiler {
            if *done || Pass::parse(&dump.after) != Some(pass) {
                continue;
            }
            let Some(file) = work.files.get(*index) else { continue };
            *done = true;
            let mut row = row(pass, dump.place.core.0, &file.path);
            match set.module_of(Some(dump.place.core.0)) {
                None => row.unread = Some(no_module(pass, dump)),
                Some(ours) => match file.content.as_ref() {
                    None => row.unread = Some("the dump was not read (too large to hold beside the link)".to_owned()),
                    Some(bytes) => match read_module(&file.path, bytes.clone()) {
                        Ok(theirs) => {
                            let (text, starts) = print::module_text_in_units(ours);
                            compare(&text, &starts, &print::module_text(&theirs), &mut row);
                        }
                        Err(why) => row.unread = Some(why),
                    },
                },
            }
            self.rows.push(row);
        }
    }

    /// Every row: the dumps compared, then those of a pass birlink never finished; in
    /// pass, core and file order.
    pub fn finish(self) -> Vec<FidelityRow> {
        let mut rows = self.rows;
        if let Some(work) = self.work {
            for (index, dump, done) in &self.compiler {
                let (false, Some(pass), Some(file)) = (*done, Pass::parse(&dump.after), work.files.get(*index)) else {
                    continue;
                };
                let mut row = row(pass, dump.place.core.0, &file.path);
                row.unread = Some(no_module(pass, dump));
                rows.push(row);
            }
        }
        rows.sort_by(|a, b| (a.pass.index(), a.core, &a.file).cmp(&(b.pass.index(), b.core, &b.file)));
        rows
    }
}

fn row(pass: Pass, core: u64, file: &str) -> FidelityRow {
    FidelityRow { pass, core, file: file.to_owned(), agree: false, lines: 0, differing: 0, first: None, unread: None }
}

fn no_module(pass: Pass, dump: &Dump) -> String {
    format!("birlink has no module of core {} after `{pass}` (the run stopped before)", dump.place.core.0)
}

/// The one module of a dump, or why not.
fn read_module(path: &str, bytes: Vec<u8>) -> Result<crate::model::ir::Module, String> {
    let mut diags = Vec::new();
    let mut set = load::load(vec![SourceFile::bytes(path, bytes)], &LoadOptions::default(), &mut diags);
    if crate::diag::has_errors(&diags) {
        let first = diags.iter().find(|d| d.severity == crate::diag::Severity::Error);
        return Err(format!("the dump does not read: {}", first.map(|d| d.message.as_str()).unwrap_or("")));
    }
    match set.modules.len() {
        1 => Ok(set.modules.remove(0).module),
        n => Err(format!("the dump holds {n} modules, not one")),
    }
}

/// Holds birlink's canonical text, whose units begin at `starts`, against the
/// compiler's.
fn compare(ours: &str, starts: &[usize], theirs: &str, row: &mut FidelityRow) {
    // birlink's lines, each with the unit it is in (the blank line before a unit is the
    // unit before's): a unit is named by its header's first two words (`function sg0000`).
    let mut lines: Vec<&str> = Vec::new();
    let mut unit_of: Vec<usize> = Vec::new();
    let mut at = 0usize;
    for line in ours.split_inclusive('\n') {
        let unit = starts.partition_point(|&start| start <= at).saturating_sub(1);
        lines.push(line.strip_suffix('\n').unwrap_or(line));
        unit_of.push(unit);
        at += line.len();
    }
    let name = |unit: usize| -> String {
        let header = starts.get(unit).and_then(|&s| ours.get(s..)).and_then(|t| t.lines().next()).unwrap_or("module");
        header.split(' ').take(2).collect::<Vec<_>>().join(" ")
    };
    let theirs: Vec<&str> = theirs.lines().collect();
    row.lines = lines.len().max(theirs.len()) as u64;
    for (tag, old, new) in line_diff(&lines, &theirs) {
        if tag == DiffTag::Equal {
            continue;
        }
        row.differing += old.len().max(new.len()) as u64;
        if row.first.is_none() {
            let unit = unit_of.get(old.start).or(unit_of.last()).copied().unwrap_or(0);
            row.first = Some(FirstDifference {
                line: old.start as u64 + 1,
                unit: name(unit),
                birlink: (tag != DiffTag::Insert).then(|| lines[old.start].to_owned()),
                compiler: (tag != DiffTag::Delete).then(|| theirs[new.start].to_owned()),
            });
        }
    }
    row.agree = row.differing == 0;
}

type Hunk = (DiffTag, std::ops::Range<usize>, std::ops::Range<usize>);

/// The line diff of two texts: their common start and end, and between them a Myers
/// diff, or one replacement past [`MAX_DIFFED_LINES`].
fn line_diff(ours: &[&str], theirs: &[&str]) -> Vec<Hunk> {
    let start = ours.iter().zip(theirs).take_while(|(a, b)| a == b).count();
    let end = ours[start..].iter().rev().zip(theirs[start..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (a, b) = (&ours[start..ours.len() - end], &theirs[start..theirs.len() - end]);
    let mut hunks: Vec<Hunk> = Vec::new();
    if start > 0 {
        hunks.push((DiffTag::Equal, 0..start, 0..start));
    }
    if a.len() + b.len() > MAX_DIFFED_LINES {
        let tag = match (a.is_empty(), b.is_empty()) {
            (true, _) => DiffTag::Insert,
            (_, true) => DiffTag::Delete,
            _ => DiffTag::Replace,
        };
        hunks.push((tag, start..start + a.len(), start..start + b.len()));
    } else {
        for op in capture_diff_slices(Algorithm::Myers, a, b) {
            let (tag, old, new) = op.as_tag_tuple();
            hunks.push((tag, old.start + start..old.end + start, new.start + start..new.end + start));
        }
    }
    if end > 0 {
        hunks.push((DiffTag::Equal, ours.len() - end..ours.len(), theirs.len() - end..theirs.len()));
    }
    hunks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// birlink's text made of `units`, a blank line between, against `theirs`.
    fn compared(units: &[&str], theirs: &str) -> FidelityRow {
        let mut row = row(Pass::BirLinker, 0, "x");
        let mut ours = String::new();
        let mut starts = Vec::new();
        for (k, unit) in units.iter().enumerate() {
            if k > 0 {
                ours.push('\n');
            }
            starts.push(ours.len());
            ours.push_str(unit);
        }
        compare(&ours, &starts, theirs, &mut row);
        row
    }

    #[test]
    fn the_first_line_that_parts_is_named_with_its_unit() -> Result<(), &'static str> {
        let same = compared(&["module m\n", "function f\n  a\n"], "module m\n\nfunction f\n  a\n");
        assert!(same.agree && same.first.is_none() && same.lines == 4);
        let differs = compared(&["module m\n", "function f\n  a\n  b\n"], "module m\n\nfunction f\n  a\n  c\n  d\n");
        assert_eq!((differs.agree, differs.differing, differs.lines), (false, 2, 6));
        let first = differs.first.ok_or("a difference")?;
        assert_eq!((first.line, first.unit.as_str()), (5, "function f"));
        assert_eq!((first.birlink.as_deref(), first.compiler.as_deref()), (Some("  b"), Some("  c")));
        Ok(())
    }

    #[test]
    fn an_inserted_line_is_one_difference_not_every_line_after_it() -> Result<(), &'static str> {
        let ours = ["module m\n", "function f\n  a\n  b\n  c\n", "queue q\n  i\n"];
        let row = compared(&ours, "module m\n\nfunction f\n  a\n  new\n  b\n  c\n\nqueue q\n  i\n");
        assert_eq!((row.agree, row.differing), (false, 1));
        let first = row.first.ok_or("a difference")?;
        assert_eq!((first.line, first.unit.as_str()), (5, "function f"));
        assert_eq!((first.birlink, first.compiler.as_deref()), (None, Some("  new")));
        // A line birlink has and the compiler does not, in the last unit.
        let row = compared(&ours, "module m\n\nfunction f\n  a\n  b\n  c\n\nqueue q\n");
        let first = row.first.ok_or("a difference")?;
        assert_eq!((row.differing, first.line, first.unit.as_str()), (1, 9, "queue q"));
        assert_eq!((first.birlink.as_deref(), first.compiler), (Some("  i"), None));
        Ok(())
    }

    #[test]
    fn texts_that_differ_throughout_past_the_bound_are_counted_as_they_stand() {
        let ours: String = (0..MAX_DIFFED_LINES).map(|i| format!("  a{i}\n")).collect();
        let theirs: String = (0..MAX_DIFFED_LINES).map(|i| format!("  b{i}\n")).collect();
        let row = compared(&[&format!("module m\n{ours}")], &format!("module m\n{theirs}"));
        assert_eq!(row.differing, MAX_DIFFED_LINES as u64);
        assert_eq!(row.first.map(|f| f.line), Some(2));
    }
}
