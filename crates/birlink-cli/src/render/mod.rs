//! Terminal rendering of a run: the summary, rustc-style diagnostics with the source
//! line, and the verdict. Everything shown comes from `report.json` (and the input texts
//! for source lines); nothing is computed here.

pub mod diff;

use birlink_core::english::{counted, counted_as};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use birlink_core::diag::Diagnostic;
use birlink_core::output::report::{Agreement, EntryStatus, InputStatus, PassStatus, Placement, Report};
use birlink_core::read::input::FileEntry;
use birlink_core::{Pass, Severity};

/// Colours used on the terminal.
#[derive(Clone, Copy)]
pub enum Style {
    Error,
    Warning,
    Note,
    Accent,
    Dim,
    Bold,
}

/// Whether stderr gets colour (a terminal, and `NO_COLOR` unset).
pub fn stderr_color() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// Whether standard output gets colour (a terminal, no `NO_COLOR`).
pub fn stdout_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// `text` in a style, when colour is on.
pub fn paint(text: &str, style: Style, color: bool) -> String {
    if !color {
        return text.to_owned();
    }
    let code = match style {
        Style::Error => "1;31",
        Style::Warning => "1;33",
        Style::Note => "1;36",
        Style::Accent => "1;34",
        Style::Dim => "2",
        Style::Bold => "1",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

fn severity_style(severity: Severity) -> Style {
    match severity {
        Severity::Error => Style::Error,
        Severity::Warning => Style::Warning,
        Severity::Note => Style::Note,
    }
}

/// The readable summary: inputs, passes with what they did, files written.
/// The sync check's line after the pass table, and what it is: birlink's own check.
pub fn sync_line(sync: &birlink_core::output::sync::Sync, color: bool) -> String {
    use birlink_core::output::sync::{SyncStatus, Verdict};
    let style = match (sync.status, sync.execution.as_ref().map(|e| (e.verdict, e.exact))) {
        (SyncStatus::Skipped, _) => Style::Dim,
        (_, Some((Verdict::Deadlock, true))) => Style::Error,
        (_, Some((Verdict::Completes, true))) if sync.counts.is_empty() => Style::Accent,
        _ => Style::Warning,
    };
    let mut line = paint(&sync.headline(), style, color).to_string();
    let said = match sync.source {
        _ if sync.status != SyncStatus::Ran => None,
        birlink_core::output::sync::SyncSource::Log => Some("the log rule: codegen's opcode 0xd8 (UNKNOWN(0xd8) in 2.24 and 2.25) counted as PSEUDO_CORE_BARRIER, birlink's reading"),
        birlink_core::output::sync::SyncSource::Modules => Some("birlink's own check after the link (not a compiler pass); its model of BIR's execution is birlink's reading"),
    };
    if let Some(said) = said {
        line.push_str(&format!("\n  {}", paint(said, Style::Dim, color)));
    }
    line
}

pub fn summary(report: &Report, written: &[PathBuf], elapsed: Duration) -> String {
    let color = stdout_color();
    let mut out = String::new();
    let modules = report.inputs.iter().filter(|i| i.module.is_some()).count();
    let flow = match report.options.flow {
        birlink_core::Flow::Seeds => "the seeds' reading".to_owned(),
        flow => format!("{flow} flow"),
    };
    let _ = writeln!(
        out,
        "{} {} — {}, lnc {} (from {}), {flow} (from {})",
        paint("birlink", Style::Bold, color),
        report.tool.version,
        counted(modules, "module"),
        report.options.lnc,
        report.options.lnc_source.as_str(),
        report.options.flow_source.as_str()
    );
    let why = report.options.flow_source.why(report.options.flow);
    let _ = writeln!(out, "  {}", paint(&format!("why this flow: {why}"), Style::Dim, color));
    for input in &report.inputs {
        let module = input.module.as_deref().unwrap_or("-");
        let core = input.core.map(|c| format!("core {c}")).unwrap_or_else(|| "core ?".to_owned());
        let status = match input.status {
            InputStatus::Error => paint("error", Style::Error, color),
            InputStatus::Warning => paint("warning", Style::Warning, color),
            InputStatus::Ok => paint("ok", Style::Dim, color),
        };
        let _ = writeln!(
            out,
            "  {module:<10} {core:<8} {:<40} {:>3} fn {:>8} inst  {status}",
            shorten(&format!("{}{}", input.file, input.pointer.replace("/modules/", "#")), 40),
            input.functions,
            input.instructions
        );
    }
    let _ = writeln!(out, "{}", paint("passes", Style::Bold, color));
    for pass in &report.passes {
        let status = match pass.status {
            PassStatus::Ok => paint("ok     ", Style::Accent, color),
            PassStatus::Error => paint("error  ", Style::Error, color),
            PassStatus::Skipped => paint("skipped", Style::Dim, color),
        };
        let ran = pass.status != PassStatus::Skipped;
        let detail = match pass.name {
            // Once per core in the modular flow: that core's calls, handoffs, queues
            // and barriers.
            Pass::BirLinker if ran && pass.core.is_some() => {
                let core = pass.core;
                let calls = report.dispatcher.iter().filter(|d| Some(d.core) == core).count();
                let handoffs = report.aliases.iter().filter(|a| Some(a.consumer.core) == core).count();
                let queues = report.queues.iter().filter(|q| q.instances.iter().any(|i| Some(i.core) == core)).count();
                let barriers = report.barriers.iter().filter(|b| b.core == core).count();
                format!(
                    "{} · {} · {} · {} renumbered",
                    counted(calls, "call"),
                    counted(handoffs, "handoff"),
                    counted(queues, "queue"),
                    counted(barriers, "barrier")
                )
            }
            Pass::BirLinker if ran => format!(
                "{} · {} · {} · {} · {} renumbered",
                counted(report.dispatcher.len(), "call"),
                counted(report.aliases.len(), "alias edge"),
                counted(report.output_kinds.len(), "output kind"),
                counted(report.queues.len(), "queue"),
                counted(report.barriers.len(), "barrier")
            ),
            Pass::VncRemoteAddrMap if ran => {
                let n = report.address_map.len();
                format!("{} copied", counted_as(n, "address", "addresses"))
            }
            Pass::VncLink if ran => format!(
                "remote DMA blocks per core: {} · {} relocated",
                report.semaphores.counts.iter().map(|c| c.remote_dma_blocks.to_string()).collect::<Vec<_>>().join("/"),
                counted(report.semaphores.relocations.len(), "semaphore")
            ),
            _ => String::new(),
        };
        let name = pass.label();
        let _ = writeln!(out, "  {name:<20} {status} {detail}");
        if pass.name == Pass::Verify && report.options.flow == birlink_core::Flow::Flat {
            let _ = writeln!(
                out,
                "  {:<20} {} the flat flow: the compiler runs none",
                "bir_linker",
                paint("none   ", Style::Dim, color)
            );
        }
    }
    let _ = writeln!(out, "{}", sync_line(&report.sync, color));
    for (i, row) in report.fidelity.iter().enumerate() {
        let head = if i == 0 { "compiler's result" } else { "" };
        let (agreement, said) = row.verdict();
        let style = match agreement {
            Agreement::Agree => Style::Accent,
            Agreement::Differ => Style::Error,
            Agreement::Unread => Style::Warning,
        };
        let _ = writeln!(out, "  {head:<20} {:<24} {}", row.label(), paint(&said, style, color));
    }
    if let Some(dir) = &report.link_dir {
        let count = |p: Placement| dir.entries.iter().filter(|e| e.placement == p).count();
        let collisions = dir.entries.iter().filter(|e| !e.differs_on.is_empty()).count();
        let _ = writeln!(
            out,
            "  {:<20} {} {} · {} · {} written · {} left in the core folders{}",
            "link directory",
            paint(
                if dir.root == "." { "ncCC/sgLnk/".to_owned() } else { format!("{}/", dir.root) }.as_str(),
                Style::Accent,
                color
            ),
            counted(count(Placement::Symlink), "symbolic link"),
            match count(Placement::Copy) {
                1 => "1 copy".to_owned(),
                n => format!("{n} copies"),
            },
            count(Placement::Write),
            counted(dir.in_place.len(), "file"),
            if collisions > 0 { format!(" · {}", counted(collisions, "collision")) } else { String::new() }
        );
    }
    if let Some(map) = &report.tensor_map {
        let count = |s: EntryStatus| map.entries.iter().filter(|e| e.status == s).count();
        let _ = writeln!(
            out,
            "  {:<20} {} from {} · {} bound · {} stale · {} left out (internal) · {} in conflict",
            "tensor map",
            match map.entries.len() {
                1 => "1 entry".to_owned(),
                n => format!("{n} entries"),
            },
            counted(
                map.files.len(),
                if report.link_dir.as_ref().is_some_and(|d| d.root == ".") { "subgraph" } else { "core" }
            ),
            count(EntryStatus::Bound),
            count(EntryStatus::Stale),
            count(EntryStatus::Demoted),
            count(EntryStatus::Conflict)
        );
    }
    let names: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
    let linked = report.options.linked_name.as_deref().unwrap_or("-");
    let _ = writeln!(out, "wrote {} ({}) in {:.0} ms", names.join(", "), linked, elapsed.as_secs_f64() * 1000.0);
    out
}

fn shorten(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        text.to_owned()
    } else {
        let tail: String = text.chars().skip(count - (width - 1)).collect();
        format!("…{tail}")
    }
}

/// Past this many diagnostics of one code, the rest are counted, not shown: a link set
/// with one fault repeated 10,000 times reads as ten examples and a count.
pub const SHOWN_PER_CODE: usize = 10;

/// Diagnostics, rustc-style, with the source line when the file text is known; the
/// first [`SHOWN_PER_CODE`] of each code in full, then one line per code for the rest.
pub fn diagnostics(diagnostics: &[Diagnostic], files: &[FileEntry], color: bool) -> String {
    let mut out = String::new();
    let mut seen: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    // Codes in order of their first diagnostic, with how many were not shown.
    let mut hidden: Vec<(&Diagnostic, usize)> = Vec::new();
    for diagnostic in diagnostics {
        let count = seen.entry(diagnostic.code.as_str()).or_default();
        *count += 1;
        if *count <= SHOWN_PER_CODE {
            render_one(&mut out, files, diagnostic, color);
        } else if *count == SHOWN_PER_CODE + 1 {
            hidden.push((diagnostic, 1));
        } else if let Some(entry) = hidden.iter_mut().find(|(d, _)| d.code == diagnostic.code) {
            entry.1 += 1;
        }
    }
    for (first, more) in hidden {
        let head = format!("{}[{}]", first.severity.as_str(), first.code);
        let _ = writeln!(
            out,
            "{} {more} more {} like these ({}); `birlink link --format json` lists every one\n",
            paint("...", Style::Accent, color),
            paint(&head, severity_style(first.severity), color),
            first.code.info().title,
        );
    }
    out
}

/// At most `width` characters of `line` around character `column` (1-based), and the
/// caret's place in them: a one-line dump of 40 MB shows the part the column is in.
fn window(line: &str, column: usize, width: usize) -> (String, usize) {
    let skip = column.saturating_sub(1).saturating_sub(width / 2);
    let shown: String = line.chars().skip(skip).take(width).collect();
    let caret = column.saturating_sub(1) - skip;
    if skip == 0 {
        (shown, caret)
    } else {
        (format!("…{shown}"), caret + 1)
    }
}

fn render_one(out: &mut String, files: &[FileEntry], d: &Diagnostic, color: bool) {
    // The compiler's code beside birlink's, where one is public: what the user's log says.
    let head = match d.code.ncc() {
        Some(ncc) => format!("{}[{}] ({ncc})", d.severity.as_str(), d.code),
        None => format!("{}[{}]", d.severity.as_str(), d.code),
    };
    let _ =
        writeln!(out, "{}: {}", paint(&head, severity_style(d.severity), color), paint(&d.message, Style::Bold, color));
    let gutter = d.location.as_ref().and_then(|l| l.line).map(|l| l.to_string().len()).unwrap_or(1);
    let pad = " ".repeat(gutter);
    if let Some(location) = &d.location {
        let position = match (location.line, location.column) {
            (Some(line), Some(column)) => format!("{}:{line}:{column}", location.file),
            _ => location.file.clone(),
        };
        let pointer = if location.pointer.is_empty() { String::new() } else { format!("  {}", location.pointer) };
        let _ = writeln!(
            out,
            "{pad}{} {position}{}",
            paint("-->", Style::Accent, color),
            paint(&pointer, Style::Dim, color)
        );
        let held = files.iter().find(|f| f.path == location.file).and_then(|f| f.read_text());
        let text = held.as_deref().map(String::as_str);
        if let (Some(text), Some(line), Some(column)) = (text, location.line, location.column) {
            if let Some(source) = text.lines().nth(line.saturating_sub(1) as usize) {
                let (shown, caret_at) = window(source, column as usize, 160);
                let bar = paint("|", Style::Accent, color);
                let _ = writeln!(out, "{pad} {bar}");
                let _ = writeln!(out, "{} {bar} {shown}", paint(&line.to_string(), Style::Accent, color));
                let caret_at = caret_at.min(shown.chars().count());
                let caret_pad: String =
                    shown.chars().take(caret_at).map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                let _ = writeln!(out, "{pad} {bar} {caret_pad}{}", paint("^", severity_style(d.severity), color));
            }
        }
    }
    let eq = paint("=", Style::Accent, color);
    let _ = writeln!(out, "{pad} {eq} pass: {}{}", d.pass, d.core.map(|c| format!(", core {c}")).unwrap_or_default());
    if let Some(source) = &d.source {
        let _ = writeln!(out, "{pad} {eq} source: {source}");
    }
    for note in &d.notes {
        let _ = writeln!(out, "{pad} {eq} note: {note}");
    }
    if !d.nearest.is_empty() {
        let names: Vec<String> = d.nearest.iter().map(|n| format!("`{n}`")).collect();
        let _ = writeln!(out, "{pad} {eq} note: closest names on core {}: {}", target_core(d), names.join(", "));
    }
    if !d.found_on_cores.is_empty() {
        let cores: Vec<String> = d.found_on_cores.iter().map(u64::to_string).collect();
        let _ = writeln!(
            out,
            "{pad} {eq} note: the name exists on {} {}",
            if cores.len() == 1 { "core" } else { "cores" },
            cores.join(", ")
        );
    }
    if !d.table.is_empty() {
        let _ = writeln!(out, "{pad} {eq} note: per core:");
        for row in &d.table {
            let _ = writeln!(out, "{pad}       core {:<3} {:<16} {}", row.core, row.module, row.count);
        }
    }
    if !d.help.is_empty() {
        let _ = writeln!(out, "{pad} {eq} {}: {}", paint("help", Style::Bold, color), d.help);
    }
    out.push('\n');
}

/// The owner core named in a 1514 message (`on core <n>`), for the nearest-names note.
fn target_core(d: &Diagnostic) -> String {
    d.message
        .split("on core ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap_or("?")
        .to_owned()
}

/// `linked with 2 warnings` / `error: link failed: 1 error, 2 warnings`.
pub fn verdict(report: &Report, color: bool) -> String {
    verdict_of(report, "linked", color)
}

/// The verdict line of `birlink check`: `checked: …`, or where it failed.
pub fn check_verdict(report: &Report, color: bool) -> String {
    verdict_of(report, "checked", color)
}

fn verdict_of(report: &Report, done: &str, color: bool) -> String {
    let count = |s: Severity| report.diagnostics.iter().filter(|d| d.severity == s).count();
    let (errors, warnings, notes) = (count(Severity::Error), count(Severity::Warning), count(Severity::Note));
    let tally = birlink_core::diag::tally(errors, warnings, notes);
    if errors > 0 {
        let failed = report.diagnostics.iter().find(|d| d.severity == Severity::Error).map(|d| d.pass);
        let failed = report
            .passes
            .iter()
            .find(|p| p.status == PassStatus::Error)
            .map(|p| p.name)
            .or(failed)
            .unwrap_or(Pass::Read);
        let what = if done == "linked" { "link" } else { "check" };
        format!("{}: {what} failed in `{failed}`: {tally}\n", paint("error", Style::Error, color))
    } else {
        format!("{}: {tally}\n", paint(done, Style::Accent, color))
    }
}
