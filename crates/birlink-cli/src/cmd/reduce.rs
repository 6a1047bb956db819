//! `birlink reduce`: a failing link set shrunk to a small bundle that still fails with
//! the same code in the same pass (`birlink_core::tools::reduce`), with a progress line.
//! Exit status: 0 reduced, 1 the input does not fail (or does not report `--code`),
//! 2 bad arguments.

use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;

use clap::Args;

use birlink_core::tools::reduce::{self, Form, ReduceError, ReduceOptions};
use birlink_core::tools::share::{LinkSetData, SharedFile};
use birlink_core::Code;

use super::{write, Error, Outcome, Status};
use crate::files;
use crate::out::outln;

/// `birlink reduce`'s arguments.
#[derive(Args)]
pub struct ReduceArgs {
    /// Per-core module files, bundles, or folders of them.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Where the reduced bundle goes.
    #[arg(long)]
    out: PathBuf,
    /// Expected number of cores (vnc_nc_count); default: bundle, netlist, or the number of modules.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// How to link: `modular`, `flat` (the compiler's flows) or `seeds` (the seeds'
    /// reading); default: decided as the compiler decides.
    #[arg(long, value_enum)]
    flow: Option<super::FlowArg>,
    /// The link netlist (hlo_netlist.json).
    #[arg(long)]
    netlist: Option<PathBuf>,
    /// Keep this code (`1514`, `NCC_ILLC059`) instead of the first error; a warning may be kept too.
    #[arg(long, value_parser = parse_code)]
    code: Option<Code>,
    /// Keep every name (by default, names the failure does not need are shortened).
    #[arg(long)]
    keep_names: bool,
}

fn parse_code(text: &str) -> Result<Code, String> {
    Code::parse(text)
        .or_else(|| birlink_core::diag::ncc::find(text).and_then(|n| n.birlink))
        .ok_or_else(|| format!("`{text}` is not a code birlink reports (see `birlink explain`)"))
}

impl ReduceArgs {
    /// Reduces and writes the bundle.
    pub fn run(self) -> Outcome {
        let mut found = files::gather_as_browser(&self.inputs).map_err(Error)?;
        if let Some(netlist) = &self.netlist {
            let bytes =
                std::fs::read(netlist).map_err(|e| Error(format!("cannot read `{}`: {e}", netlist.display())))?;
            found.push(("hlo_netlist.json".to_owned(), bytes));
        }
        let set = LinkSetData {
            files: found.into_iter().map(|(name, bytes)| SharedFile { name, bytes }).collect(),
            lnc: self.lnc,
            flow: self.flow.map(super::FlowArg::flow),
        };
        let options =
            ReduceOptions { lnc: self.lnc, code: self.code, keep_names: self.keep_names, max_input_bytes: None };
        let started = std::time::Instant::now();
        let terminal = std::io::stderr().is_terminal();
        let mut last_level = None;
        let reduced = reduce::reduce(&set, &options, &mut |p| {
            let level = p.level.map_or("done", |l| l.name());
            if terminal {
                eprint!(
                    "\rround {} · {:<16} · {} tests · {} instructions · {:.1} kB   ",
                    p.round,
                    level,
                    p.tests,
                    p.instructions,
                    p.bytes as f64 / 1000.0
                );
                let _ = std::io::stderr().flush();
            } else if p.level != last_level {
                eprintln!("round {} · {level} · {} tests · {} instructions", p.round, p.tests, p.instructions);
                last_level = p.level;
            }
        });
        if terminal {
            eprintln!();
        }
        let reduced = match reduced {
            Ok(reduced) => reduced,
            Err(ReduceError::NotFailing(why)) => {
                eprintln!("error: {why}");
                return Ok(Status(1));
            }
            Err(ReduceError::Input(why)) => return Err(Error(why)),
            Err(error @ ReduceError::TooLarge { .. }) => return Err(Error(error.to_string())),
        };
        write(&self.out, &reduced.contents)?;
        outln!(
            "kept {} in `{}`: {} → {} instructions, {} → {} bytes, {} tests in {:.1} s; wrote {}{}",
            reduced.target.code,
            reduced.target.pass,
            reduced.instructions.0,
            reduced.instructions.1,
            reduced.bytes.0,
            reduced.bytes.1,
            reduced.tests,
            started.elapsed().as_secs_f64(),
            self.out.display(),
            match reduced.form {
                Form::Bundle => "",
                Form::Document => " (a JSON document: it is no module, so cannot be a bundle)",
                Form::Lines => " (the file's own lines: it is not JSON, so cannot be a bundle)",
            }
        );
        Ok(Status::OK)
    }
}
