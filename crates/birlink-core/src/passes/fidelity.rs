//! The compiler's own result beside birlink's (docs/spec/link.md §0.8): when a work
//! directory also holds the compiler's dumps after a pass of the link (`bir_linker`'s
//! `ncCC/sgLnk`, the VNC passes' per-core modules), each is read and held against
//! birlink's module of the same core after the same pass, for the same input.
//!
//! They are compared by their canonical text (`output::print`), the text every view and
//! `linked.txt` show: equal, or the first line where they part, its unit and both
//! lines, and how many lines differ. This is the fidelity check that runs on every
//! user's own data; it changes nothing and reports no diagnostic (a difference is a
//! finding about birlink's reimplementation or about the dumps, not an error of the
//! link).

use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::print;
use crate::output::report::{FidelityRow, FirstDifference};
use crate::read::input::{self, SourceFile};
use crate::read::workdir::{Dump, WorkdirInput};

/// birlink's linked set after each pass a compiler dump is held against (kept only
/// when the work directory holds such a dump: a copy of the set each).
#[derive(Debug, Default)]
pub struct Stages {
    /// After `bir_linker`.
    pub bir_linker: Option<LinkedSet>,
    /// After `vnc_remote_addr_map`.
    pub vnc_remote_addr_map: Option<LinkedSet>,
}

impl Stages {
    /// birlink's set after `pass`; `last` is the set as the run ends (after `vnc_link`
    /// when it ran).
    fn of<'s>(&'s self, pass: Pass, last: Option<&'s LinkedSet>, ran_vnc_link: bool) -> Option<&'s LinkedSet> {
        match pass {
            Pass::BirLinker => self.bir_linker.as_ref(),
            Pass::VncRemoteAddrMap => self.vnc_remote_addr_map.as_ref(),
            Pass::VncLink => last.filter(|_| ran_vnc_link),
            _ => None,
        }
    }
}

/// Which passes the work directory holds the compiler's results of (the stages to keep).
pub fn wanted(compiler: &[(usize, Dump)]) -> Vec<Pass> {
    let mut passes: Vec<Pass> = compiler.iter().filter_map(|(_, d)| Pass::parse(&d.after)).collect();
    passes.sort_by_key(|p| p.index());
    passes.dedup();
    passes
}

/// One row per compiler dump: agreement, or where they first part. `last` is birlink's
/// set as the run ended, `ran_vnc_link` whether `vnc_link` made it.
pub fn check(
    work: &WorkdirInput,
    compiler: &[(usize, Dump)],
    stages: &Stages,
    last: Option<&LinkedSet>,
    ran_vnc_link: bool,
) -> Vec<FidelityRow> {
    let mut rows = Vec::new();
    for (index, dump) in compiler {
        let Some(pass) = Pass::parse(&dump.after) else { continue };
        let Some(file) = work.files.get(*index) else { continue };
        let core = u64::from(dump.core);
        let mut row = FidelityRow {
            pass,
            core,
            file: file.path.clone(),
            agree: false,
            lines: 0,
            differing: 0,
            first: None,
            unread: None,
        };
        let theirs = match file.content.as_ref() {
            Some(bytes) => read_module(&file.path, bytes.clone()),
            None => Err("the dump was not read (too large to hold beside the link)".to_owned()),
        };
        let ours = stages.of(pass, last, ran_vnc_link).and_then(|set| set.module_of(Some(core)));
        match (ours, theirs) {
            (Some(ours), Ok(theirs)) => compare(&print::module_text(ours), &print::module_text(&theirs), &mut row),
            (None, _) => {
                row.unread =
                    Some(format!("birlink has no module of core {core} after `{pass}` (the run stopped before)"))
            }
            (_, Err(why)) => row.unread = Some(why),
        }
        rows.push(row);
    }
    rows.sort_by(|a, b| (a.pass.index(), a.core, &a.file).cmp(&(b.pass.index(), b.core, &b.file)));
    rows
}

/// The one module of a dump, or why not.
fn read_module(path: &str, bytes: Vec<u8>) -> Result<crate::model::ir::Module, String> {
    let mut diags = Vec::new();
    let mut set = input::load(vec![SourceFile::bytes(path, bytes)], None, None, None, 1, &mut diags, &mut |_, _| {});
    if crate::diag::has_errors(&diags) {
        let first = diags.iter().find(|d| d.severity == crate::diag::Severity::Error);
        return Err(format!("the dump does not read: {}", first.map(|d| d.message.as_str()).unwrap_or("")));
    }
    match set.modules.len() {
        1 => Ok(set.modules.remove(0).module),
        n => Err(format!("the dump holds {n} modules, not one")),
    }
}

/// Holds two canonical texts line by line.
fn compare(ours: &str, theirs: &str, row: &mut FidelityRow) {
    let (a, b): (Vec<&str>, Vec<&str>) = (ours.lines().collect(), theirs.lines().collect());
    row.lines = a.len().max(b.len()) as u64;
    let mut unit = "module".to_owned();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied(), b.get(i).copied());
        if let Some(line) =
            x.filter(|l| l.starts_with("function ") || l.starts_with("queue ") || l.starts_with("module "))
        {
            unit = line.split(' ').take(2).collect::<Vec<_>>().join(" ");
        }
        if x != y {
            row.differing += 1;
            if row.first.is_none() {
                row.first = Some(FirstDifference {
                    line: i as u64 + 1,
                    unit: unit.clone(),
                    birlink: x.map(str::to_owned),
                    compiler: y.map(str::to_owned),
                });
            }
        }
    }
    row.agree = row.differing == 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> FidelityRow {
        FidelityRow {
            pass: Pass::BirLinker,
            core: 0,
            file: "x".into(),
            agree: false,
            lines: 0,
            differing: 0,
            first: None,
            unread: None,
        }
    }

    #[test]
    fn the_first_line_that_parts_is_named_with_its_unit() {
        let mut same = row();
        compare("module m\nfunction f\n  a\n", "module m\nfunction f\n  a\n", &mut same);
        assert!(same.agree && same.first.is_none() && same.lines == 3);
        let mut differs = row();
        compare("module m\nfunction f\n  a\n  b\n", "module m\nfunction f\n  a\n  c\n  d\n", &mut differs);
        assert_eq!((differs.agree, differs.differing, differs.lines), (false, 2, 5));
        let first = differs.first.expect("a difference");
        assert_eq!((first.line, first.unit.as_str()), (4, "function f"));
        assert_eq!((first.birlink.as_deref(), first.compiler.as_deref()), (Some("  b"), Some("  c")));
    }
}
