//! `birlink samples`: write the sample link sets of `www/samples/` and their index.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::{create_dir, write, Outcome};

/// `birlink samples`' arguments.
#[derive(Args)]
pub struct SamplesArgs {
    /// The folder to write.
    #[arg(long, default_value = "www/samples")]
    out: PathBuf,
}

impl SamplesArgs {
    /// Writes every sample and `index.json`.
    pub fn run(self) -> Outcome {
        create_dir(&self.out)?;
        let all = birlink_core::samples::all();
        for (info, bytes) in &all {
            write(&self.out.join(&info.file), bytes)?;
        }
        let index: Vec<_> = all.iter().map(|(info, _)| info).collect();
        write(&self.out.join("index.json"), birlink_core::json::write::to_pretty_string(&index))?;
        println!("wrote {} samples and index.json to {}", all.len(), self.out.display());
        Ok(ExitCode::SUCCESS)
    }
}
