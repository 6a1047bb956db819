//! `birlink diff A… --against B…`: link two link sets and compare them
//! (`birlink_core::tools::compare`, docs/spec/compare.md). Exit 0 when they agree, 1
//! when they differ, 2 for bad arguments, as `diff` does.

use std::collections::BTreeMap;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use birlink_core::tools::compare::{self, CompareOptions, Normalize};
use birlink_core::LinkOptions;

use super::{Error, Format, Outcome, Status};
use crate::files;
use crate::out::out;

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
    /// How to link: `modular`, `flat` (the compiler's flows) or `seeds` (the seeds'
    /// reading); default: decided as the compiler decides.
    #[arg(long, value_enum)]
    flow: Option<super::FlowArg>,
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

/// Links one side as `birlink link` does (one thread per core, a work directory read
/// as one). The Python module's `diff` links its sides with it too.
pub fn link(inputs: &[PathBuf], lnc: Option<u64>, flow: Option<birlink_core::Flow>) -> birlink_core::Outcome {
    let (sources, workdirs) = files::gather_after(inputs, None);
    let options = LinkOptions {
        lnc: lnc.or_else(|| {
            if workdirs.len() > 1 {
                birlink_core::read::workdir::implied_lnc(workdirs.iter().map(|w| &w.plan))
            } else {
                None
            }
        }),
        threads: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
        workdir: files::Workdir::single_input(&workdirs),
        flow,
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
        let flow = self.flow.map(super::FlowArg::flow);
        let a = link(&self.inputs, self.lnc, flow);
        let b = link(&self.against, self.against_lnc, flow);
        let comparison = compare::compare(&a, &b, &options);
        match self.format {
            Format::Json => out!("{}", birlink_core::output::json::to_pretty_string(&comparison)),
            Format::Human => out!("{}", crate::render::diff::comparison(&comparison)),
        }
        Ok(Status(if comparison.equal { 0 } else { 1 }))
    }
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
}
