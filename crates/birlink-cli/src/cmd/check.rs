//! `birlink check`: the sync check alone (docs/spec/sync.md §1) — will these linked
//! cores hang or race? — over a set already linked (`OUT/linked.json`, the compiler's
//! dumps after `vnc_link`, per-core files), with no pass run; or, with `--log`, the log
//! rule over a compiler log. Writes `DIR/report.json` with `--out`.

use std::path::PathBuf;

use clap::Args;

use birlink_core::{LinkOptions, Severity};

use super::link::{sync_check, DenyArg};
use super::{create_dir, exit_for, write, Error, FlowArg, Format, Outcome, Status};
use crate::files;
use crate::out::out;
use crate::render;

/// `birlink check`'s arguments.
#[derive(Args)]
pub struct CheckArgs {
    /// A linked set: `OUT/linked.json`, the compiler's per-core dumps after vnc_link, or a folder of them.
    #[arg(required_unless_present = "log")]
    inputs: Vec<PathBuf>,
    /// A compiler log (`log-neuron-cc.txt`): check its per-core PSEUDO_CORE_BARRIER counts instead.
    #[arg(long, conflicts_with = "inputs")]
    log: Option<PathBuf>,
    /// Also write DIR/report.json.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Make the check's warnings errors (`sync`): exit 1 when the cores may hang or race.
    #[arg(long, value_enum, value_name = "CHECK")]
    deny: Vec<DenyArg>,
    /// The number of cores (vnc_nc_count), when the input does not say.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// The flow the set was linked in (default: as the compiler decides).
    #[arg(long, value_enum)]
    flow: Option<FlowArg>,
    /// What to print: a readable summary, or the report (with --log: the log's `sync`).
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

impl CheckArgs {
    /// Checks, writes, prints.
    pub fn run(self) -> Outcome {
        if let Some(log) = &self.log {
            return self.check_log(log);
        }
        let sources = files::gather(&self.inputs);
        let options = LinkOptions {
            lnc: self.lnc,
            flow: self.flow.map(FlowArg::flow),
            threads: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
            sync: sync_check(false, &self.deny),
            ..LinkOptions::default()
        };
        let outcome = birlink_core::passes::check(sources, &options);
        let json = birlink_core::report_json(&outcome);
        if let Some(dir) = &self.out {
            create_dir(dir)?;
            write(&dir.join("report.json"), &json)?;
        }
        let color = render::stderr_color();
        match self.format {
            Format::Json => out!("{json}"),
            Format::Human => {
                out!("{}\n", render::sync_line(&outcome.report.sync, render::stdout_color()));
                eprint!("{}", render::diagnostics(&outcome.report.diagnostics, &outcome.files, color));
                eprint!("{}", render::check_verdict(&outcome.report, color));
            }
        }
        Ok(exit_for(&outcome.report.diagnostics))
    }

    /// The log rule: each core's `PSEUDO_CORE_BARRIER` count, held against core 0's.
    fn check_log(&self, path: &PathBuf) -> Outcome {
        let bytes = std::fs::read(path).map_err(|e| Error(format!("cannot read `{}`: {e}", path.display())))?;
        let reading = birlink_core::tools::log::read_log(&String::from_utf8_lossy(&bytes));
        let mut sync = reading.sync;
        if self.deny.contains(&DenyArg::Sync) {
            for finding in &mut sync.findings {
                if finding.severity == Severity::Warning {
                    finding.severity = Severity::Error;
                }
            }
        }
        let json = birlink_core::output::json::to_pretty_string(&sync);
        if let Some(dir) = &self.out {
            create_dir(dir)?;
            write(&dir.join("sync.json"), &json)?;
        }
        match self.format {
            Format::Json => out!("{json}"),
            Format::Human => {
                out!("{}\n", render::sync_line(&sync, render::stdout_color()));
                for row in sync.log.iter().flat_map(|l| &l.barrier_counts) {
                    let line = row.line.map_or("no row".to_owned(), |l| format!("line {l}"));
                    out!("  core {}  {:<12} {:>7} PSEUDO_CORE_BARRIER  ({line})\n", row.core, row.scope, row.count);
                }
                for finding in &sync.findings {
                    eprintln!("{}[{}]: {}", finding.severity.as_str(), finding.code.as_str(), finding.message);
                }
            }
        }
        let failed = sync.findings.iter().any(|f| f.severity == Severity::Error);
        Ok(if failed { Status(1) } else { Status::OK })
    }
}
