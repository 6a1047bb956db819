//! `birlink diff A… --against B…`: link two link sets and compare them
//! (`birlink_core::tools::compare`, docs/spec/compare.md). Exit 0 when they agree, 1
//! when they differ, 2 for bad arguments, as `diff` does.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use birlink_core::diag::counted;
use birlink_core::tools::compare::{self, CompareOptions, Comparison, Normalize, Side};
use birlink_core::LinkOptions;

use super::{Error, Outcome, Status};
use crate::files;
use crate::out::out;
use crate::render::{paint, stdout_color, Style};

/// `birlink diff`'s arguments.
#[derive(Args)]
pub struct DiffArgs {
    /// Side A: per-core module files, bundles, folders or a compiler work directory.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Side B, the same kinds of input.
    #[arg(long, required = true, num_args = 1..)]
    against: Vec<PathBuf>,
    /// Side A's vnc_nc_count (default: as `birlink link` decides).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// Side B's vnc_nc_count.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    against_lnc: Option<u64>,
    /// Pair A's cores with B's: `A:B,…` (default: the same ids).
    #[arg(long, value_name = "A:B,…", value_delimiter = ',')]
    core_map: Vec<String>,
    /// Compare names with this masked: `numbers` masks the counters that differ between
    /// ranks and call sites (`CoreBarrier-0_480` and `CoreBarrier-0_180` agree).
    #[arg(long, value_enum)]
    normalize: Option<NormalizeArg>,
    /// What to print: a readable summary, or the comparison as JSON.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum NormalizeArg {
    Numbers,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Human,
    Json,
}

/// Links one side as `birlink link` does (one thread per core, a work directory read
/// as one). The Python module's `diff` links its sides with it too.
pub fn link(inputs: &[PathBuf], lnc: Option<u64>) -> birlink_core::Outcome {
    let (sources, workdirs) = files::gather_after(inputs, None);
    let options = LinkOptions {
        lnc: lnc.or_else(|| if workdirs.len() > 1 { files::Workdir::lnc(&workdirs) } else { None }),
        threads: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
        workdir: files::Workdir::single_input(&workdirs),
        ..LinkOptions::default()
    };
    birlink_core::run(sources, &options)
}

/// `A:B,…` as a map.
fn core_map(pairs: &[String]) -> Result<BTreeMap<u64, u64>, Error> {
    let mut map = BTreeMap::new();
    for pair in pairs.iter().filter(|p| !p.is_empty()) {
        let parsed = pair.split_once(':').and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
        let Some((a, b)) = parsed else {
            return Err(Error(format!("--core-map: `{pair}` is not `A:B` (two core ids)")));
        };
        if map.insert(a, b).is_some() {
            return Err(Error(format!("--core-map: core {a} of A is mapped twice")));
        }
    }
    Ok(map)
}

impl DiffArgs {
    /// Links both sides, compares, prints.
    pub fn run(self) -> Outcome {
        // As `diff`: an input that is not there is trouble (2), not a difference.
        if let Some(missing) = self.inputs.iter().chain(&self.against).find(|p| !p.exists()) {
            return Err(Error(format!("cannot read `{}`: no such file or directory", missing.display())));
        }
        let options = CompareOptions {
            core_map: core_map(&self.core_map)?,
            normalize: Normalize { numbers: matches!(self.normalize, Some(NormalizeArg::Numbers)) },
        };
        let a = link(&self.inputs, self.lnc);
        let b = link(&self.against, self.against_lnc);
        let comparison = compare::compare(&a, &b, &options);
        match self.format {
            Format::Json => out!("{}", birlink_core::output::json::to_pretty_string(&comparison)),
            Format::Human => out!("{}", human(&comparison)),
        }
        Ok(Status(if comparison.equal { 0 } else { 1 }))
    }
}

fn side_line(name: &str, side: &Side) -> String {
    let bytes: u64 = side.files.iter().map(|f| f.bytes).sum();
    format!(
        "{name}: {} ({}), {}, lnc {} (from {}): {}",
        counted(side.files.len(), "file"),
        birlink_core::read::input::human_bytes(bytes),
        counted(side.modules.len(), "module"),
        side.lnc,
        side.lnc_source.as_str(),
        side.verdict()
    )
}

/// Words that differ between two lines, marked `[-old-]{+new+}` (as `git diff
/// --word-diff` prints them), a run of changed words and the spaces between them
/// marked once.
fn word_diff(a: &str, b: &str) -> String {
    let diff = similar::TextDiff::from_words(a, b);
    let mut out = String::new();
    let (mut del, mut ins, mut gap) = (String::new(), String::new(), String::new());
    let flush = |out: &mut String, del: &mut String, ins: &mut String| {
        if !del.is_empty() {
            let _ = write!(out, "[-{}-]", del);
        }
        if !ins.is_empty() {
            let _ = write!(out, "{{+{}+}}", ins);
        }
        del.clear();
        ins.clear();
    };
    for change in diff.iter_all_changes() {
        let value = change.value();
        match change.tag() {
            similar::ChangeTag::Equal if value.trim().is_empty() && !(del.is_empty() && ins.is_empty()) => {
                gap.push_str(value);
            }
            similar::ChangeTag::Equal => {
                flush(&mut out, &mut del, &mut ins);
                out.push_str(&gap);
                gap.clear();
                out.push_str(value);
            }
            tag => {
                // Spaces inside a run of changes belong to both sides of it.
                if !gap.is_empty() {
                    if !del.is_empty() {
                        del.push_str(&gap);
                    }
                    if !ins.is_empty() {
                        ins.push_str(&gap);
                    }
                    gap.clear();
                }
                if tag == similar::ChangeTag::Delete {
                    del.push_str(value);
                } else {
                    ins.push_str(value);
                }
            }
        }
    }
    flush(&mut out, &mut del, &mut ins);
    out.push_str(&gap);
    out
}

/// The readable summary: the verdicts first, then where each core first parts, then
/// the tables.
fn human(c: &Comparison) -> String {
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
    fn a_core_map_is_pairs_of_ids() {
        assert_eq!(core_map(&["0:1".into(), "1:0".into()]).unwrap(), [(0, 1), (1, 0)].into_iter().collect());
        assert!(core_map(&["0-1".into()]).is_err());
        assert!(core_map(&["0:1".into(), "0:2".into()]).is_err());
        assert!(core_map(&[]).unwrap().is_empty());
    }

    #[test]
    fn changed_words_are_marked() {
        assert_eq!(word_diff("CoreBarrier a id=3", "CoreBarrier b id=3"), "CoreBarrier [-a-]{+b+} id=3");
        assert_eq!(word_diff("x = A[DMA] q=1 out", "x = B[SP] id=0 out"), "x = [-A[DMA] q=1-]{+B[SP] id=0+} out");
    }
}
