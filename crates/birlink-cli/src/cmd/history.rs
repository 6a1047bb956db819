//! `birlink history WORKDIR`: where did the cores part? Every dumped pass with what it
//! changed per module, the first pass after which a subgraph's cores differ, and with
//! `--entity`, one name through every pass (`tools::history`, docs/spec/history.md).
//! The dumps are read one at a time, from disk, as they are compared.

use std::path::{Path, PathBuf};

use clap::Args;

use birlink_core::tools::history::{self, History, HistoryOptions, ModuleState};

use super::{Error, Format, Outcome, Status};
use crate::out::{out, outln};

/// `birlink history`'s arguments.
#[derive(Args)]
pub struct HistoryArgs {
    /// A compiler work directory printed after every pass (`--internal-print-after=…`).
    workdir: PathBuf,
    /// Follow one entity (a memory location, set, instruction, function, queue or barrier name), or the name a pasted compiler error quotes (`[NCC_ILLC059] Could not find MemoryLocation named … on core 1`).
    #[arg(long, value_name = "NAME")]
    entity: Option<String>,
    /// With `--entity`: follow it alone, with no pass table (faster: each dump is read for the instructions that may carry the name; the entity's history is the same).
    #[arg(long, requires = "entity")]
    no_table: bool,
    /// Only this core's modules.
    #[arg(long)]
    core: Option<u64>,
    /// Only this subgraph's modules.
    #[arg(long)]
    subgraph: Option<u32>,
    /// The compile's log (`log-neuron-cc.txt`), for the order the passes ran in (default: the one in WORKDIR, else the dumps' numbers).
    #[arg(long)]
    log: Option<PathBuf>,
    /// Dumps read at once, each on its own thread: 1 (the default) holds the least memory (about twice the largest dump); 2 is faster and holds two.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=64), default_value_t = 1)]
    threads: u64,
    /// What to print.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

/// Every file under `dir`, named from `dir`'s own name on (`w/nc00/sg00/…`), sorted.
fn files_under(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    fn walk(dir: &Path, name: &str, out: &mut Vec<(String, PathBuf)>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot read `{}`: {e}", dir.display()))?;
            let path = entry.path();
            let child = format!("{name}/{}", entry.file_name().to_string_lossy());
            if path.is_dir() {
                walk(&path, &child, out)?;
            } else {
                out.push((child, path));
            }
        }
        Ok(())
    }
    let name = dir.canonicalize().ok().and_then(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()));
    let mut out = Vec::new();
    walk(dir, &name.unwrap_or_else(|| ".".to_owned()), &mut out)?;
    out.sort();
    Ok(out)
}

/// A work directory's history (the CLI's and Python's): its dumps read from disk one at
/// a time, in the order of its log (`log`, else the `log-neuron-cc.txt` in it, else the
/// dumps' numbers). `Err` says why there is none.
pub fn history_of(workdir: &Path, log: Option<&Path>, options: &HistoryOptions) -> Result<History, String> {
    if !workdir.is_dir() {
        return Err(format!("`{}` is not a directory: give the compiler's work directory", workdir.display()));
    }
    let files = files_under(workdir)?;
    let log_path = log
        .map(Path::to_path_buf)
        .or_else(|| files.iter().find(|(name, _)| name.ends_with("/log-neuron-cc.txt")).map(|(_, p)| p.clone()));
    let log = match &log_path {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", path.display()))?;
            Some(birlink_core::tools::log::read_log(&String::from_utf8_lossy(&bytes)))
        }
        None => None,
    };
    let names: Vec<String> = files.iter().map(|(n, _)| n.clone()).collect();
    let mut read = |i: usize| crate::files::content(&files[i].1);
    let history = history::history(&names, &mut read, log.as_ref(), options);
    if history.passes.is_empty() {
        return Err(format!(
            "no dump in `{}`: rerun neuronx-cc with `--internal-compiler-debug-mode=all --internal-backend-options=--print-after-all` (or `--internal-print-after=PASS`)",
            workdir.display()
        ));
    }
    Ok(history)
}

impl HistoryArgs {
    /// Reads, compares, prints.
    pub fn run(self) -> Outcome {
        let threads = self.threads as usize;
        let options = HistoryOptions {
            entity: self.entity.clone(),
            core: self.core,
            subgraph: self.subgraph,
            threads,
            no_table: self.no_table,
        };
        let history = history_of(&self.workdir, self.log.as_deref(), &options).map_err(Error)?;
        match self.format {
            Format::Json => out!("{}\n", serde_json::to_string_pretty(&history).unwrap_or_default()),
            Format::Human => tell(&history),
        }
        Ok(Status(0))
    }
}

fn kinds(counts: &std::collections::BTreeMap<birlink_core::model::entity::EntityKind, usize>) -> String {
    let parts: Vec<String> = counts.iter().map(|(kind, n)| format!("{n} {}", kind.as_str())).collect();
    parts.join(", ")
}

fn tell(history: &History) {
    if history.no_table {
        let names: Vec<&str> = history.passes.iter().map(|p| p.name.as_str()).collect();
        outln!("{} passes dumped, in the order they ran: {}", names.len(), names.join(", "));
    } else {
        table(history);
    }
    if let Some(entity) = &history.entity {
        outln!("`{}` through the passes:", entity.name);
        for state in entity.history.iter().filter(|s| s.state != "unchanged") {
            let module = match state.subgraph {
                Some(s) => format!("nc{:02}/sg{s:02}", state.core),
                None => format!("nc{:02}/sgLnk", state.core),
            };
            outln!("  after {} on {module}: {}", state.pass, state.state);
        }
        for (core, pass) in &entity.last_seen {
            match pass {
                Some(pass) => outln!("  last seen on core {core} after {pass}"),
                None => outln!("  never seen on core {core}"),
            }
        }
    }
    if !history.unread.is_empty() {
        outln!("{} dumps could not be read: {}", history.unread.len(), history.unread[0].why);
    }
}

/// The pass table, the baseline and the partings.
fn table(history: &History) {
    outln!("{} passes dumped, in the order they ran:", history.passes.len());
    for pass in &history.passes {
        let cells: Vec<String> = pass
            .changed
            .iter()
            .map(|m| match m.state {
                ModuleState::First => format!("{} first", m.module),
                ModuleState::Unchanged => format!("{} unchanged", m.module),
                ModuleState::Changed => {
                    let mut said = Vec::new();
                    for (what, counts) in
                        [("+", &m.added), ("-", &m.removed), ("~", &m.changed), ("renamed ", &m.renamed)]
                    {
                        if !counts.is_empty() {
                            said.push(format!("{what}{}", kinds(counts)));
                        }
                    }
                    format!("{} changed ({})", m.module, said.join("; "))
                }
            })
            .collect();
        outln!("  {:>3} {}: {}", pass.index, pass.name, cells.join(" · "));
    }
    for base in &history.baseline {
        if !base.only_on.is_empty() || !base.counts.is_empty() {
            outln!("sg{:02}: the cores already differ in their first dump (after {}): {} entities on some cores only, {} counts", base.subgraph, base.pass, base.only_on.len(), base.counts.len());
        }
    }
    if history.parted.is_empty() {
        outln!("the cores never part after their first dump");
    }
    for parted in &history.parted {
        outln!("sg{:02}: the cores part after {}:", parted.subgraph, parted.pass);
        for only in parted.only_on.iter().take(10) {
            outln!("    {} `{}` only on core {}", only.kind.as_str(), only.name, only.core);
        }
        for counts in parted.counts.iter().take(10) {
            let values: Vec<String> = counts.values.iter().map(|(core, v)| format!("core {core}: {v:?}")).collect();
            outln!("    {}: {}", counts.what, values.join(", "));
        }
    }
}
