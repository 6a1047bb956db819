//! `birlink print`: the canonical text of modules (per-core files, bundles,
//! `linked.json`), and the diagnostics of reading them, rendered as `link` renders them.

use std::path::PathBuf;

use clap::Args;

use super::{exit_for, Outcome};
use crate::out::{out, outln};
use crate::{files, render};

/// `birlink print`'s arguments.
#[derive(Args)]
pub struct PrintArgs {
    /// Files to print.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

impl PrintArgs {
    /// Reads and prints.
    pub fn run(self) -> Outcome {
        let sources = files::gather(&self.inputs);
        let mut diags = Vec::new();
        let set = birlink_core::read::load::load(sources, &Default::default(), &mut diags);
        birlink_core::passes::resolve_locations(&set.files, &mut diags);
        let mut first = true;
        for module in &set.modules {
            if !first {
                outln!();
            }
            first = false;
            if set.modules.len() > 1 {
                outln!("; {} ({})", module.name, set.path(module.file));
            }
            out!("{}", birlink_core::output::print::module_text(&module.module));
        }
        eprint!("{}", render::diagnostics(&diags, &set.files, render::stderr_color()));
        Ok(exit_for(&diags))
    }
}
