//! `birlink link`: run the pipeline, write `report.json` (always), `linked.json` (the
//! linked set, unless a pass before the VNC passes failed; a stale one is removed) and
//! `bir_linker.log` (the compiler's words, in its flows), print what happened.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use birlink_core::{LinkOptions, Severity, SyncCheck};

use super::{create_dir, exit_for, write, Error, FlowArg, Format, Outcome};
use crate::out::out;
use crate::{files, render};

/// `birlink link`'s arguments.
#[derive(Args)]
pub struct LinkArgs {
    /// Per-core module files, bundles, or folders of them.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Expected number of cores (vnc_nc_count); default: bundle, netlist, or the number of modules.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// The link netlist (hlo_netlist.json).
    #[arg(long)]
    netlist: Option<PathBuf>,
    /// Where report.json and linked.json go.
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Passes to run, comma-separated (a run of verify,bir_linker,vnc_remote_addr_map,vnc_link).
    #[arg(long, value_delimiter = ',')]
    passes: Option<Vec<String>>,
    /// How to link: as the compiler does (`modular`: each core's subgraphs through the
    /// netlist, then the VNC passes across the cores; `flat`: no bir_linker), or the
    /// seeds' reading (`seeds`: the cores merged into one module). Default: decided as the
    /// compiler decides (a netlist with partitions, or several subgraphs on a core:
    /// modular; else flat).
    #[arg(long, value_enum)]
    flow: Option<FlowArg>,
    /// Also write DIR/linked.txt, the canonical text of the linked module.
    #[arg(long)]
    text: bool,
    /// Refuse inputs larger than this many bytes in total (BL0010).
    #[arg(long)]
    max_input_bytes: Option<u64>,
    /// Threads to read the files on (default: one per core). The output does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
    /// What to print: a readable summary, or report.json.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
    /// Print only the errors and the verdict line (no summary, warnings or notes).
    #[arg(long, short)]
    quiet: bool,
    /// In a compiler work directory, link the dumps printed after this pass (default:
    /// `lower_sync`, else the latest dumped).
    #[arg(long, value_name = "PASS")]
    after: Option<String>,
    /// Skip the sync check after the link (will the cores hang or race?).
    #[arg(long)]
    no_sync: bool,
    /// Make a check's warnings errors: `sync` (the exit code is then 1 when the cores
    /// may hang or race).
    #[arg(long, value_enum, value_name = "CHECK")]
    deny: Vec<DenyArg>,
    /// For a compiler work directory, make its link directory here (what the compiler
    /// makes as `sgLnk/`): symbolic links to each core's weights, debug info and custom
    /// ops, copies of CPU-node files, the merged tensor-map.json. Nothing is written
    /// outside DIR; a second run changes nothing.
    #[arg(long, value_name = "DIR")]
    link_dir: Option<PathBuf>,
}

/// A check whose warnings `--deny` makes errors.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DenyArg {
    /// The sync check's findings.
    Sync,
}

/// The sync check as the arguments ask for it.
pub fn sync_check(no_sync: bool, deny: &[DenyArg]) -> SyncCheck {
    if no_sync {
        SyncCheck::Off
    } else if deny.contains(&DenyArg::Sync) {
        SyncCheck::Deny
    } else {
        SyncCheck::Run
    }
}

impl LinkArgs {
    /// Links, writes, prints.
    pub fn run(self) -> Outcome {
        let started = std::time::Instant::now();
        let (mut sources, workdirs) = files::gather_after(&self.inputs, self.after.as_deref());
        if !self.quiet {
            for line in workdirs.iter().flat_map(files::Workdir::summary) {
                eprintln!("{line}");
            }
        }
        if let Some(netlist) = &self.netlist {
            sources.push(files::read_netlist(netlist));
        }
        create_dir(&self.out)?;
        // One work directory: the core counts its folders (`lnc_source` `workdir`).
        let lnc = self.lnc.or_else(|| {
            if workdirs.len() > 1 {
                birlink_core::read::workdir::implied_lnc(workdirs.iter().map(|w| &w.plan))
            } else {
                None
            }
        });
        let options = LinkOptions {
            lnc,
            passes: self.passes.clone(),
            max_input_bytes: self.max_input_bytes,
            input_bytes: None,
            held_estimate: None,
            threads: self
                .threads
                .map(|n| n as usize)
                .unwrap_or_else(|| std::thread::available_parallelism().map(usize::from).unwrap_or(1)),
            workdir: files::Workdir::single_input(&workdirs),
            flow: self.flow.map(FlowArg::flow),
            sync: sync_check(self.no_sync, &self.deny),
        };
        if self.link_dir.is_some() && options.workdir.is_none() {
            return Err(Error(
                "--link-dir needs one compiler work directory among the inputs (nc00/sg00/bir_debug.*.json …)"
                    .to_owned(),
            ));
        }
        let report_path = self.out.join("report.json");
        let linked_path = self.out.join("linked.json");
        let text_path = self.out.join("linked.txt");
        let log_path = self.out.join("bir_linker.log");
        // The linked set is written while the sync check runs (it needs no finding).
        let mut wrote_linked: Option<Result<(), Error>> = None;
        let mut write_beside = |set: &birlink_core::model::linked::LinkedSet| {
            wrote_linked = Some(write_linked(set, &linked_path, self.text.then_some(&text_path)));
        };
        let outcome = birlink_core::passes::run_beside(sources, &options, &mut |_| {}, Some(&mut write_beside));
        let mut written = Vec::new();
        write(&report_path, birlink_core::report_json(&outcome))?;
        written.push(report_path);
        match (&outcome.linked, wrote_linked) {
            (Some(_), Some(wrote)) => {
                wrote?;
                written.push(linked_path);
                if self.text {
                    written.push(text_path);
                }
            }
            (Some(set), None) => {
                write_linked(set, &linked_path, self.text.then_some(&text_path))?;
                written.push(linked_path);
                if self.text {
                    written.push(text_path);
                }
            }
            (None, _) => remove_stale(&[&linked_path, &text_path])?,
        }
        match birlink_core::bir_linker_log(&outcome) {
            Some(log) => {
                write(&log_path, log)?;
                written.push(log_path);
            }
            None => remove_stale(&[&log_path])?,
        }
        // The merged maps: the seeds' `tensor-map.json`, or each core's
        // `tensor_map.ncCC.json`; an earlier run's others are removed.
        let maps = birlink_core::tensor_map_files(&outcome);
        stale_maps(&self.out, &maps)?;
        for (name, text) in &maps {
            let path = self.out.join(name);
            write(&path, text.clone())?;
            written.push(path);
        }
        let made = match (&self.link_dir, &outcome.report.link_dir) {
            (Some(dir), Some(plan)) => Some(
                crate::link_dir::make(dir, plan, |entry| birlink_core::link_dir_text(&outcome, entry))
                    .map_err(Error)?
                    .describe(dir),
            ),
            (Some(_), None) => Some(format!(
                "no link directory made: the {} flow links no work directory's subgraphs here",
                outcome.report.options.flow
            )),
            _ => None,
        };
        let color = render::stderr_color();
        let diagnostics = &outcome.report.diagnostics;
        match self.format {
            Format::Json => out!("{}", birlink_core::report_json(&outcome)),
            Format::Human if self.quiet => {
                let errors: Vec<_> = diagnostics.iter().filter(|d| d.severity == Severity::Error).cloned().collect();
                eprint!("{}", render::diagnostics(&errors, &outcome.files, color));
                eprint!("{}", render::verdict(&outcome.report, color));
            }
            Format::Human => {
                out!("{}", render::summary(&outcome.report, &written, started.elapsed()));
                if let Some(made) = &made {
                    eprintln!("{made}");
                }
                eprint!("{}", render::diagnostics(diagnostics, &outcome.files, color));
                eprint!("{}", render::verdict(&outcome.report, color));
            }
        }
        Ok(exit_for(diagnostics))
    }
}

/// Writes `linked.json` (and `linked.txt`, when asked for).
fn write_linked(
    set: &birlink_core::model::linked::LinkedSet,
    linked_path: &std::path::Path,
    text_path: Option<&std::path::PathBuf>,
) -> Result<(), Error> {
    std::fs::File::create(linked_path)
        .and_then(|file| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
            birlink_core::output::json::write_set(set, &mut out)?;
            std::io::Write::flush(&mut out)
        })
        .map_err(|e| Error(format!("cannot write `{}`: {e}", linked_path.display())))?;
    if let Some(text_path) = text_path {
        write(text_path, birlink_core::output::print::set_text(set))?;
    }
    Ok(())
}

/// Removes what an earlier run wrote and this one did not: a stale linked set or log
/// must not pass for this run's.
/// Removes the merged maps of an earlier run in `out` that this run does not write.
fn stale_maps(out: &std::path::Path, keep: &[(String, String)]) -> Result<(), Error> {
    let Ok(listing) = std::fs::read_dir(out) else { return Ok(()) };
    for entry in listing.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = name == "tensor-map.json" || (name.starts_with("tensor_map.nc") && name.ends_with(".json"));
        if ours && !keep.iter().any(|(k, _)| *k == name) {
            remove_stale(&[&entry.path()])?;
        }
    }
    Ok(())
}

fn remove_stale(paths: &[&std::path::Path]) -> Result<(), Error> {
    for stale in paths {
        if stale.exists() {
            std::fs::remove_file(stale)
                .map_err(|e| Error(format!("cannot remove stale `{}`: {e}", stale.display())))?;
        }
    }
    Ok(())
}
