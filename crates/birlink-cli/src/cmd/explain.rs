//! `birlink explain`: what a diagnostic code means and what to do, or the list of all
//! codes, or the Markdown reference (`docs/diagnostics.md`).

use std::process::ExitCode;

use clap::Args;

use birlink_core::Code;

use super::{Error, Outcome};

/// `birlink explain`'s arguments.
#[derive(Args)]
pub struct ExplainArgs {
    /// The code (`1514`, `BL0002`); all codes when omitted.
    code: Option<String>,
    /// Print the Markdown reference (`docs/diagnostics.md`).
    #[arg(long)]
    markdown: bool,
}

impl ExplainArgs {
    /// Prints the explanation.
    pub fn run(self) -> Outcome {
        if self.markdown {
            print!("{}", birlink_core::codes::markdown_reference());
            return Ok(ExitCode::SUCCESS);
        }
        let Some(text) = self.code else {
            for code in Code::ALL {
                let info = code.info();
                println!("{:<7} {:<8} {:<20} {}", info.code, info.severity.as_str(), info.pass, info.title);
            }
            return Ok(ExitCode::SUCCESS);
        };
        let code =
            Code::parse(&text).ok_or_else(|| Error(format!("unknown code `{text}`; `birlink explain` lists them")))?;
        let info = code.info();
        println!("{} — {} ({} in `{}`)\n", info.code, info.title, info.severity.as_str(), info.pass);
        println!("{}\n", info.explanation);
        println!("Example:\n    {}\n", info.example.replace('\n', "\n    "));
        println!("Fix: {}.", info.fix);
        Ok(ExitCode::SUCCESS)
    }
}
