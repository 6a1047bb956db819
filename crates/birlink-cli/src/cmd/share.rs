//! `birlink share`: a link that carries a link set (embed spec §5), the same link the
//! page's Share makes for the same files, byte for byte. Above the link budget it
//! refuses, says so, and writes the link set as a bundle when `--bundle` says where.

use std::path::PathBuf;

use clap::Args;

use birlink_core::tools::share::{self, LinkSetData, SharedFile, View, ViewState};
use birlink_core::EntityKey;

use super::{write, Error, Outcome, Status};
use crate::files;
use crate::out::outln;

/// `birlink share`'s arguments.
#[derive(Args)]
pub struct ShareArgs {
    /// Per-core module files, bundles, or folders of them (named as the browser names them).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Where birlink is served; the link opens there.
    #[arg(long, default_value = "http://127.0.0.1:8080/")]
    base: String,
    /// The LNC the link sets.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// How to link: `modular`, `flat` (the compiler's flows) or `seeds` (the seeds'
    /// reading); default: decided as the compiler decides.
    #[arg(long, value_enum)]
    flow: Option<super::FlowArg>,
    /// The view the link opens (pipeline, callgraph, barriers, semaphores, addresses, diagnostics).
    #[arg(long, value_parser = parse_view)]
    view: Option<View>,
    /// The entity the link selects, by key (`instruction:1:nc01/Block1/mm0`).
    #[arg(long, value_parser = parse_key)]
    select: Option<EntityKey>,
    /// The pipeline step the link shows (`bir_linker/renumber_barriers`).
    #[arg(long)]
    step: Option<String>,
    /// The diagnostic the link focuses, by its index in the report.
    #[arg(long)]
    diag: Option<usize>,
    /// Above the link budget, write the link set here as a bundle.
    #[arg(long)]
    bundle: Option<PathBuf>,
}

fn parse_view(text: &str) -> Result<View, String> {
    View::parse(text).ok_or_else(|| format!("`{text}` is not a view ({})", View::names()))
}

fn parse_key(text: &str) -> Result<EntityKey, String> {
    text.parse().map_err(|e: birlink_core::model::entity::KeyError| e.0)
}

impl ShareArgs {
    /// Prints the link (or writes the bundle).
    pub fn run(self) -> Outcome {
        let files = files::gather_as_browser(&self.inputs).map_err(Error)?;
        let data = LinkSetData {
            files: files.into_iter().map(|(name, bytes)| SharedFile { name, bytes }).collect(),
            lnc: self.lnc,
            flow: self.flow.map(super::FlowArg::flow),
        };
        let mut state = ViewState { view: self.view, select: self.select, diag: self.diag, ..ViewState::default() };
        if let Some(step) = &self.step {
            let (parsed, dropped) = ViewState::parse(&format!("step={step}"));
            match (parsed.step, dropped.first()) {
                (Some(step), _) => state.step = Some(step),
                (None, Some(dropped)) => return Err(Error(format!("--step: {}", dropped.why))),
                (None, None) => {}
            }
        }
        let link = share::link(&self.base, &state, Some(&data));
        if link.len() <= share::LINK_BUDGET {
            outln!("{link}");
            return Ok(Status::OK);
        }
        eprintln!(
            "error: the link would be {} characters, above the budget of {}: browsers and chat tools may cut it",
            link.len(),
            share::LINK_BUDGET
        );
        match &self.bundle {
            Some(path) => {
                let bundle = share::bundle::to_bundle(&data).map_err(|e| Error(e.0))?;
                write(path, bundle)?;
                eprintln!("wrote the link set as a bundle to {}: share the file instead", path.display());
            }
            None => eprintln!("help: `--bundle FILE` writes the link set as one bundle file to share instead"),
        }
        Ok(Status(1))
    }
}
