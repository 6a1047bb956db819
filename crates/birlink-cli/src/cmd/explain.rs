//! `birlink explain`: what a diagnostic code means and what to do — birlink's codes, and
//! the compiler's (`NCC_ILLC059`, any case, with or without `NCC_`) through birlink's;
//! a compiler log read line by line (`--log`), its names found in a link set when one is
//! given; or the list of all codes, or the Markdown reference (`docs/diagnostics.md`).

use std::path::PathBuf;

use clap::Args;

use birlink_core::diag::ncc;
use birlink_core::model::place::{CoreId, Place};
use birlink_core::tools::log;
use birlink_core::tools::log::compile::RunStatus;
use birlink_core::Code;

use super::{Error, Format, Outcome, Status};
use crate::out::{out, outln};

/// `birlink explain`'s arguments.
#[derive(Args)]
pub struct ExplainArgs {
    /// The code (`1514`, `BL0002`, `NCC_ILLC059`; all codes when omitted), or with
    /// `--log` the link set the log is about (files or folders), to find its names in.
    #[arg(value_name = "CODE | INPUT...")]
    args: Vec<String>,
    /// Read a compiler log: each line birlink knows, explained.
    #[arg(long)]
    log: Option<PathBuf>,
    /// The LNC of that link set.
    #[arg(long, requires = "log", value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// Print the Markdown reference (`docs/diagnostics.md`).
    #[arg(long)]
    markdown: bool,
    /// With `--log`: a readable account, or the whole log read as JSON (`docs/spec/log.md`).
    #[arg(long, value_enum, default_value_t = Format::Human, requires = "log")]
    format: Format,
}

/// The whole log, told: the run, its passes, the link, the failure.
fn tell_reading(path: &std::path::Path, reading: &log::LogReading) {
    let run = &reading.run;
    let runs = match reading.runs.len() {
        1 => "one compile".to_owned(),
        n => format!("{n} compiles, this is run {} of them", reading.run_index.map_or(0, |i| i + 1)),
    };
    outln!("{}: {} lines, {runs}", path.display(), reading.lines);
    let version = run
        .compiler
        .version
        .as_deref()
        .map(|v| format!("neuronx-cc {v}"))
        .unwrap_or_else(|| "compiler version not in the log".to_owned());
    let lnc = run.lnc.map(|n| format!(", LNC {n}")).unwrap_or_default();
    let flow = run.flow.map(|f| format!(", {f} flow")).unwrap_or_default();
    outln!("  {version}{lnc}{flow}");
    if !run.modules.is_empty() {
        let files: Vec<&str> = run.modules.iter().map(|m| m.file.as_str()).collect();
        outln!("  modules loaded ({}): {}", files.len(), files.join(", "));
    }
    let count = |status: RunStatus| run.passes.iter().filter(|p| p.status == status).count();
    outln!(
        "  passes: {} run ({} passed, {} failed, {} with no end in the log)",
        run.passes.len(),
        count(RunStatus::Passed),
        count(RunStatus::Failed),
        count(RunStatus::Started)
    );
    for block in &run.bir_linker {
        let core = block.core.map_or_else(|| "?".to_owned(), |c| CoreId(c).to_string());
        let moved: Vec<String> = block
            .moved
            .iter()
            .map(|m| format!("{} ({} in, {} out)", m.function, m.inputs.len(), m.outputs.len()))
            .collect();
        let n = |v: Option<u64>| v.map_or_else(|| "?".to_owned(), |v| v.to_string());
        outln!(
            "  bir_linker {core}/sgLnk: {} intermediates, {} definitions, moved {}{}",
            n(block.intermediates),
            n(block.definitions),
            if moved.is_empty() { "nothing".to_owned() } else { moved.join(", ") },
            if block.done { "; linking Done." } else { "; no `linking Done.` in the log" }
        );
    }
    if let Some(vnc) = &run.vnc_link {
        outln!("  vnc_link: found {} remote updates", vnc.remote_updates);
    }
    // The closing status: the last count of each kind.
    for of in ["subgraphs", "modules"] {
        if let Some(status) = run.status.iter().rev().find(|s| s.of == of) {
            let of = if status.total == 1 { of.trim_end_matches('s') } else { of };
            outln!("  line {}: {} {of}: {} passed, {} failed", status.line, status.total, status.passed, status.failed);
        }
    }
    match &run.failure {
        None => outln!("  no failure in the log"),
        Some(failure) => {
            let pass = failure.pass.as_deref().unwrap_or("a pass the log does not name");
            let scope = failure.scope.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
            let code = failure.code.as_deref().map(|c| format!("[{c}] ")).unwrap_or_default();
            outln!("  failed in {pass}{scope}, line {}: {code}{}", failure.line, failure.message);
            if let Some(kind) = failure.kind {
                outln!("    {}", kind.words());
            }
            if let Some(traceback) = &failure.traceback {
                outln!(
                    "    a Python traceback of {} frames from line {}: {}",
                    traceback.frames,
                    traceback.line,
                    traceback.exception
                );
            }
            if let Some(a) = &failure.assertion {
                outln!("    assertion at {}:{}: {}", a.file, a.line, a.text);
            }
            if let Some(after) = &failure.dump_after {
                outln!(
                    "    to see what it failed on, dump the modules before it: rerun neuronx-cc with `{}` (after `{after}`, the last pass that passed on them)",
                    birlink_core::read::workdir::dump_flags(after)
                );
            }
        }
    }
    tell_stats(&run.instruction_stats);
    if reading.unknown.count > 0 {
        outln!("  {} lines birlink does not read (kept as they are)", reading.unknown.count);
    }
    outln!();
}

/// Each codegen scope's opcode table, the cores side by side: the opcodes whose counts
/// differ between the cores of one kind of module.
fn tell_stats(stats: &[log::InstructionStats]) {
    if stats.is_empty() {
        return;
    }
    let modules: Vec<&str> = stats.iter().map(|s| s.module.as_str()).collect();
    outln!("  codegen's Instruction Stats: {}", modules.join(", "));
    // Modules of one slot (`sgLnk`, `sg00`) across the cores.
    let slot = |module: &str| module.split_once('/').map_or(module, |(_, slot)| slot).to_owned();
    let mut slots: Vec<String> = stats.iter().map(|s| slot(&s.module)).collect();
    slots.dedup();
    for name in slots {
        let same: Vec<&log::InstructionStats> = stats.iter().filter(|s| slot(&s.module) == name).collect();
        if same.len() < 2 {
            continue;
        }
        let mut opcodes: Vec<&String> = same.iter().flat_map(|s| s.opcodes.keys()).collect();
        opcodes.sort();
        opcodes.dedup();
        let differ: Vec<String> = opcodes
            .into_iter()
            .filter(|op| same.iter().any(|s| s.opcodes.get(*op) != same[0].opcodes.get(*op)))
            .map(|op| {
                let counts: Vec<String> = same
                    .iter()
                    .map(|s| format!("{} on core {}", s.opcodes.get(op).copied().unwrap_or(0), s.core))
                    .collect();
                format!("{op} {}", counts.join(", "))
            })
            .collect();
        if differ.is_empty() {
            outln!("    {name}: the cores' opcode counts are equal");
        } else {
            outln!("    {name}: the cores' opcode counts differ: {}", differ.join("; "));
        }
    }
}

/// The log beside birlink's run: each core's BirLinker block against birlink's
/// `bir_linker.log`, the failure against its diagnostics.
fn tell_beside(beside: &log::Beside) {
    outln!("Beside birlink's run of the dumps given:");
    if beside.bir_linker.is_empty() {
        outln!("  bir_linker: neither the log nor birlink's run links subgraphs (the flat flow has no bir_linker)");
    }
    for core in &beside.bir_linker {
        let name = format!("bir_linker {}", Place::linked(core.core));
        tell_against(&name, "BirLinker lines", core.first_difference.as_ref(), (core.log_lines, core.birlink_lines));
        if !core.set_aside.is_empty() {
            let kinds = log::Aside::counted(&core.set_aside);
            outln!("    set aside from the log before comparing (birlink cannot know them): {kinds}");
        }
    }
    if let Some(vnc) = &beside.vnc {
        tell_against("the VNC passes", "lines", vnc.first_difference.as_ref(), (vnc.log_lines, vnc.birlink_lines));
    }
    if let Some(failure) = &beside.failure {
        outln!("  the failure: {}", failure.said);
    }
    outln!();
}

/// One block of lines held against birlink's: they agree, or where they first part.
fn tell_against(
    name: &str,
    what: &str,
    difference: Option<&log::Difference>,
    (log_lines, birlink_lines): (usize, usize),
) {
    match difference {
        None => outln!("  {name}: the log's {what} and birlink's bir_linker.log agree ({log_lines} lines)"),
        Some(d) => {
            let at = d.line.map(|l| format!("log line {l}")).unwrap_or_else(|| "after the log's last line".to_owned());
            outln!(
                "  {name}: the first line that differs is line {} of {} compared ({at})",
                d.index + 1,
                log_lines.max(birlink_lines)
            );
            outln!("    log:     {}", d.log.as_deref().unwrap_or("(the log's block ends)"));
            outln!("    birlink: {}", d.birlink.as_deref().unwrap_or("(birlink's block ends)"));
        }
    }
}

fn explain_code(code: Code, out: &mut String) {
    use std::fmt::Write as _;
    let info = code.info();
    let ncc = code.ncc().map(|n| format!(", the compiler's {n}")).unwrap_or_default();
    let _ = writeln!(out, "{} — {} ({} in `{}`{ncc})\n", info.code, info.title, info.severity.as_str(), info.pass);
    let _ = writeln!(out, "{}\n", info.explanation);
    let _ = writeln!(out, "Example:\n    {}\n", info.example.replace('\n', "\n    "));
    let _ = writeln!(out, "Fix: {}.", info.fix);
}

/// What a code means and what to do, as `birlink explain CODE` prints it: birlink's
/// codes (`1514`, `BL0002`) and the compiler's (`NCC_ILLC059`, any case, with or without
/// `NCC_`, an assertion's text); `Err` for a code neither knows.
pub fn explanation(text: &str) -> Result<String, String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    if let Some(code) = Code::parse(text) {
        explain_code(code, &mut out);
        return Ok(out);
    }
    let entry = ncc::find(text).ok_or_else(|| {
        format!("unknown code `{text}`; `birlink explain` lists birlink's, docs/diagnostics.md the compiler's")
    })?;
    // In the form of Neuron's own error-code pages: the message, what it means, the fix.
    let _ = writeln!(
        out,
        "Error message: {}\n\nRaised by: {}.\n\nWhat it means: {}.\n\nHow to fix it: {}.\n",
        entry.shape,
        entry.pass,
        capitalized(entry.note),
        capitalized(entry.fix)
    );
    match entry.birlink {
        Some(code) => {
            let _ = writeln!(out, "birlink reports it as {}, in `{}`:\n", code.as_str(), code.info().pass);
            explain_code(code, &mut out);
        }
        None => {
            let _ = writeln!(
                out,
                "birlink does not reproduce this failure: it is outside bir_linker, vnc_remote_addr_map and vnc_link."
            );
        }
    }
    Ok(out)
}

impl ExplainArgs {
    /// Prints the explanation.
    pub fn run(self) -> Outcome {
        if self.markdown {
            out!("{}", birlink_core::diag::docs::markdown_reference());
            return Ok(Status::OK);
        }
        if let Some(path) = &self.log {
            let inputs: Vec<PathBuf> = self.args.iter().map(PathBuf::from).collect();
            return self.explain_log(path, &inputs);
        }
        if self.args.len() > 1 {
            return Err(Error("give one code to explain (or `--log FILE` and the link set's files)".to_owned()));
        }
        let Some(text) = self.args.first().cloned() else {
            for code in Code::ALL {
                let info = code.info();
                outln!("{:<7} {:<8} {:<20} {}", info.code, info.severity.as_str(), info.pass, info.title);
            }
            return Ok(Status::OK);
        };
        out!("{}", explanation(&text).map_err(Error)?);
        Ok(Status::OK)
    }

    fn explain_log(&self, path: &PathBuf, inputs: &[PathBuf]) -> Outcome {
        let bytes = std::fs::read(path).map_err(|e| Error(format!("cannot read `{}`: {e}", path.display())))?;
        let outcome = (!inputs.is_empty()).then(|| super::diff::link(inputs, self.lnc, None));
        if self.format == Format::Json {
            match &outcome {
                None => outln!("{}", log::read_log_json(&bytes)),
                Some(outcome) => outln!("{}", log::read_log_beside_json(&bytes, outcome)),
            }
            return Ok(Status::OK);
        }
        let text = String::from_utf8_lossy(&bytes);
        let reading = log::read_log(&text);
        tell_reading(path, &reading);
        if let Some(outcome) = &outcome {
            tell_beside(&log::beside(&text, &reading, outcome));
        }
        let findings = log::read(&text);
        if findings.is_empty() {
            outln!("no line of `{}` is a link failure birlink knows (docs/diagnostics.md lists them)", path.display());
            return Ok(Status(1));
        }
        let located = outcome.as_ref().map(|o| log::locate_all(&findings, o));
        for (n, finding) in findings.iter().enumerate() {
            outln!("line {}: {}", finding.line, finding.text);
            match (finding.known, finding.birlink()) {
                (Some(entry), Some(code)) => {
                    let info = code.info();
                    outln!(
                        "  {} (raised by {}) is birlink's {} in `{}`: {} ({}).",
                        finding.code,
                        entry.pass,
                        info.code,
                        info.pass,
                        info.title,
                        entry.note
                    );
                    outln!("  fix: {}", info.fix);
                }
                (Some(entry), None) => outln!("  {}: {}; birlink does not reproduce it.", finding.code, entry.note),
                (None, _) => outln!("  {} is not a code birlink knows.", finding.code),
            }
            let located = located.as_ref().map(|all| &all[n]);
            for (i, mention) in finding.mentions.iter().enumerate() {
                let core = mention.core.map(|c| format!(", core {c}")).unwrap_or_default();
                out!("  `{}` ({}{core})", mention.name, mention.kind);
                match located.as_ref().map(|l| &l[i]) {
                    None => outln!(),
                    Some(place) => {
                        if place.keys.is_empty() {
                            out!(": in no module of the link set");
                            if !place.nearest.is_empty() {
                                let names: Vec<String> = place.nearest.iter().map(|n| format!("`{n}`")).collect();
                                out!("; nearest: {}", names.join(", "));
                            }
                            outln!();
                        } else {
                            let keys: Vec<String> = place.keys.iter().map(ToString::to_string).collect();
                            outln!(": {}", keys.join(", "));
                        }
                        if let (Some(index), Some(outcome)) = (place.diagnostic, &outcome) {
                            let d = &outcome.report.diagnostics[index];
                            outln!("    the link reports it: {}[{}] {}", d.severity.as_str(), d.code, d.message);
                        }
                    }
                }
            }
            outln!();
        }
        if outcome.is_none() && findings.iter().any(|f| f.birlink().is_some()) {
            outln!("{}", log::HOW_TO_DUMP);
            outln!("Then `birlink explain --log {} DUMPS...` finds these names in them.", path.display());
        }
        Ok(Status::OK)
    }
}

fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}
