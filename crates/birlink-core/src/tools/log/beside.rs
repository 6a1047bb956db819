//! A compiler log held beside birlink's run of the same dumps (`birlink explain --log
//! LOG DUMPS…`, the page with a log and a link set open): each core's `BirLinker` block
//! against birlink's own `bir_linker.log` for that core, to the first line that
//! differs, and the log's failure against birlink's diagnostics (the same code about
//! the same name, or why not). Which dumps of a work directory were printed after a
//! pass the log ran is [`dumps_after`].
//!
//! **birlink's reading** (log spec §5): lines are compared by their message, after
//! what birlink cannot know is set aside ([`Aside`], counted per kind on the log's side)
//! — the linker's `bir_linker cwd:`, every `Symlinking …` line (per file and per kind:
//! which files a subgraph left is the compile's, not the dumps'), a module's unique id
//! (`moving sg0000 Module.getUniqueId() 205426`), the post-link statistics
//! (`PostLink Stats`, `Total Intermediate …`, `Max writers`) — and with paths compared
//! from their core folder on (`…/neuronxcc-a1b2c3/nc00/sgLnk/sg00` is `nc00/sgLnk/sg00`:
//! the compile's directory is not the dumps'). `Writing updated tensor_map PATH` is
//! compared by its place from the core folder, or by its presence when the log's path
//! names no core folder (a redacted log). The core's `Inputs to bir_linker` and
//! `Output has …` lines frame its block and are compared with it; the VNC passes' lines
//! are compared as one more block.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::compile::{LogReading, PassRun};
use super::findings;
use super::locate::{locate, Index};
use crate::diag::ncc;
use crate::model::place::{CoreId, Scope, Slot};
use crate::output::log::{LogLine, Logger};
use crate::passes::Outcome;
use crate::read::workdir;

/// A log beside birlink's run of the same dumps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beside {
    /// Per core (the log's or birlink's), the two `BirLinker` blocks held together.
    pub bir_linker: Vec<LinkerAgainst>,
    /// The VNC passes' lines held together, when either side has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vnc: Option<LinesAgainst>,
    /// The log's failure against birlink's diagnostics, when the log has one.
    pub failure: Option<FailureAgainst>,
}

/// One core's `BirLinker` lines, the log's against birlink's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkerAgainst {
    /// The core.
    pub core: u64,
    /// The log's lines compared (what birlink cannot know set aside).
    pub log_lines: usize,
    /// birlink's lines compared.
    pub birlink_lines: usize,
    /// The first line that differs; `None` when they agree line for line.
    pub first_difference: Option<Difference>,
    /// The log's lines set aside before comparing, by kind ([`Aside`]).
    #[serde(default)]
    pub set_aside: BTreeMap<Aside, usize>,
}

/// Lines of no core held together (the VNC passes').
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinesAgainst {
    /// The log's lines compared.
    pub log_lines: usize,
    /// birlink's lines compared.
    pub birlink_lines: usize,
    /// The first line that differs; `None` when they agree line for line.
    pub first_difference: Option<Difference>,
}

/// A kind of line, or of part of one, birlink cannot know and sets aside before
/// comparing (birlink's reading, log spec §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Aside {
    /// `bir_linker cwd: DIR`: where the compiler ran.
    Cwd,
    /// `Symlinking …`, per file (`Symlinking "A" to "B"`) and per kind (npy, debug_info,
    /// `.so`): the files the compile left.
    Symlink,
    /// ` Module.getUniqueId() N` after `moving sgNNNN` (the rest of the line is compared).
    UniqueId,
    /// `PostLink Stats: …`.
    PostLinkStats,
    /// `Total Intermediate …`.
    TotalIntermediate,
    /// `Max writers …`.
    MaxWriters,
    /// The path of `Writing updated tensor_map PATH` when it names no core folder (the
    /// line is compared by its presence).
    TensorMapPath,
}

/// The first line where two `BirLinker` blocks part.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// Its position among the lines compared (0-based).
    pub index: usize,
    /// The log's line (1-based), when the log has one there.
    pub line: Option<usize>,
    /// The log's message there (`None`: the log's block ended).
    pub log: Option<String>,
    /// birlink's message there (`None`: birlink's block ended).
    pub birlink: Option<String>,
}

/// The log's failure against birlink's diagnostics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureAgainst {
    /// The compiler's code (`NCC_ILLC059`).
    pub code: Option<String>,
    /// birlink's code for the same failure, when birlink reproduces it (`BL0207`).
    pub birlink: Option<String>,
    /// `same` (birlink reports that code about the name the log names), `other` (birlink
    /// reports something else about it), `missing` (birlink's run does not show it) or
    /// `not_reproduced` (no birlink code for it).
    pub verdict: String,
    /// birlink's diagnostic about it, by index in the report.
    pub diagnostic: Option<usize>,
    /// What the user is told.
    pub said: String,
}

impl Aside {
    /// Its name in the JSON (`post_link_stats`).
    pub fn as_str(self) -> &'static str {
        match self {
            Aside::Cwd => "cwd",
            Aside::Symlink => "symlink",
            Aside::UniqueId => "unique_id",
            Aside::PostLinkStats => "post_link_stats",
            Aside::TotalIntermediate => "total_intermediate",
            Aside::MaxWriters => "max_writers",
            Aside::TensorMapPath => "tensor_map_path",
        }
    }

    /// What was set aside, in words: `1 cwd, 9 symlink, …`.
    pub fn counted(set_aside: &BTreeMap<Aside, usize>) -> String {
        let kinds: Vec<String> = set_aside.iter().map(|(kind, n)| format!("{n} {}", kind.as_str())).collect();
        kinds.join(", ")
    }
}

/// Holds a log (its text and its reading) against birlink's run of the dumps.
pub fn beside(text: &str, reading: &LogReading, outcome: &Outcome) -> Beside {
    Beside {
        bir_linker: linker_against(reading, &outcome.log),
        vnc: vnc_against(reading, &outcome.log),
        failure: failure_against(text, reading, outcome),
    }
}

/// What is compared of a message.
#[derive(Debug, PartialEq, Eq)]
struct Compared {
    /// The text compared; `None` when the whole line is set aside.
    text: Option<String>,
    /// What was set aside of it.
    aside: Option<Aside>,
}

const TENSOR_MAP: &str = "Writing updated tensor_map";

/// A message as compared. `redacted`: the log's tensor-map path names no core folder,
/// so that line is compared by its presence on both sides.
fn comparable(message: &str, redacted: bool) -> Compared {
    let message = message.trim();
    let whole = |aside| Compared { text: None, aside: Some(aside) };
    const UNKNOWABLE: &[(&str, Aside)] = &[
        ("bir_linker cwd", Aside::Cwd),
        ("Symlinking ", Aside::Symlink),
        ("PostLink Stats", Aside::PostLinkStats),
        ("Total Intermediate", Aside::TotalIntermediate),
        ("Max writers", Aside::MaxWriters),
    ];
    if let Some((_, aside)) = UNKNOWABLE.iter().find(|(p, _)| message.starts_with(p)) {
        return whole(*aside);
    }
    if message.starts_with(TENSOR_MAP) && redacted {
        return Compared { text: Some(TENSOR_MAP.to_owned()), aside: Some(Aside::TensorMapPath) };
    }
    let (message, aside) = match message.find(" Module.getUniqueId()") {
        Some(at) => (&message[..at], Some(Aside::UniqueId)),
        None => (message, None),
    };
    let words: Vec<String> = message.split(' ').map(from_core_folder).collect();
    Compared { text: Some(words.join(" ")), aside }
}

/// Whether a log's `Writing updated tensor_map PATH` lines name no core folder (a
/// redacted path).
fn redacted(messages: &[(usize, String)]) -> bool {
    messages.iter().filter_map(|(_, m)| m.trim().strip_prefix(TENSOR_MAP)).any(|path| {
        let path = path.trim();
        path.split('/').all(|segment| CoreId::parse(segment).is_none())
    })
}

/// A path from its last core folder on (`/x/y/nc00/sgLnk` → `nc00/sgLnk`); any other
/// word as it is.
fn from_core_folder(word: &str) -> String {
    if !word.contains('/') {
        return word.to_owned();
    }
    let segments: Vec<&str> = word.split('/').collect();
    let core = segments.iter().rposition(|s| CoreId::parse(s).is_some());
    match core {
        Some(at) => segments[at..].join("/"),
        None => word.to_owned(),
    }
}

/// birlink's `bir_linker.log` lines of one core's `BirLinker` (`(nc00/sgLnk)
/// [BirLinker]: MESSAGE`) and the core's `CoreForkPass` lines around it but its
/// `Running bir_linker` (`(nc00) [CoreForkPass]: Inputs to bir_linker: …`), as compared.
fn birlink_messages(log: &[LogLine], core: u64, redacted: bool) -> Vec<String> {
    let framing = |line: &LogLine| {
        line.scope == Some(Scope::Core(CoreId(core)))
            && line.logger == Logger::CoreForkPass
            && !line.message.starts_with("Running ")
    };
    log.iter()
        .filter(|line| line.linker_core() == Some(CoreId(core)) || framing(line))
        .filter_map(|line| comparable(&line.message, redacted).text)
        .collect()
}

/// The first place two lists of compared lines part: the log's (with its lines) and
/// birlink's.
fn first_difference(theirs: &[(usize, String)], ours: &[String]) -> Option<Difference> {
    (0..theirs.len().max(ours.len())).find(|&i| theirs.get(i).map(|(_, m)| m) != ours.get(i)).map(|index| Difference {
        index,
        line: theirs.get(index).map(|(l, _)| *l),
        log: theirs.get(index).map(|(_, m)| m.clone()),
        birlink: ours.get(index).cloned(),
    })
}

/// The VNC passes' lines, the log's against birlink's (lines of no scope), when
/// either has any.
fn vnc_against(reading: &LogReading, log: &[LogLine]) -> Option<LinesAgainst> {
    let theirs: Vec<(usize, String)> =
        reading.run.vnc_lines.iter().filter_map(|(l, m)| Some((*l, comparable(m, false).text?))).collect();
    let ours: Vec<String> =
        log.iter().filter(|l| l.scope.is_none()).filter_map(|l| comparable(&l.message, false).text).collect();
    if theirs.is_empty() && ours.is_empty() {
        return None;
    }
    let first_difference = first_difference(&theirs, &ours);
    Some(LinesAgainst { log_lines: theirs.len(), birlink_lines: ours.len(), first_difference })
}

/// The cores whose linked module birlink's log speaks of, in order.
fn birlink_cores(log: &[LogLine]) -> Vec<u64> {
    let mut cores = Vec::new();
    for core in log.iter().filter_map(LogLine::linker_core) {
        if !cores.contains(&core.0) {
            cores.push(core.0);
        }
    }
    cores
}

fn linker_against(reading: &LogReading, log: &[LogLine]) -> Vec<LinkerAgainst> {
    let mut cores: Vec<u64> = reading.run.bir_linker.iter().filter_map(|b| b.core).collect();
    for core in birlink_cores(log) {
        if !cores.contains(&core) {
            cores.push(core);
        }
    }
    cores.sort_unstable();
    cores.dedup();
    cores
        .into_iter()
        .map(|core| {
            let mut lines: Vec<&(usize, String)> = reading
                .run
                .bir_linker
                .iter()
                .filter(|b| b.core == Some(core))
                .flat_map(|b| b.messages.iter().chain(&b.framing))
                .collect();
            lines.sort_by_key(|(line, _)| *line);
            let messages: Vec<(usize, String)> = lines.iter().map(|&l| l.clone()).collect();
            let redacted = redacted(&messages);
            let mut set_aside = BTreeMap::new();
            let mut theirs = Vec::new();
            for (line, message) in &messages {
                let compared = comparable(message, redacted);
                if let Some(aside) = compared.aside {
                    *set_aside.entry(aside).or_insert(0) += 1;
                }
                theirs.extend(compared.text.map(|text| (*line, text)));
            }
            let ours = birlink_messages(log, core, redacted);
            let first_difference = first_difference(&theirs, &ours);
            LinkerAgainst { core, log_lines: theirs.len(), birlink_lines: ours.len(), first_difference, set_aside }
        })
        .collect()
}

fn failure_against(text: &str, reading: &LogReading, outcome: &Outcome) -> Option<FailureAgainst> {
    let failure = reading.run.failure.as_ref()?;
    let known = failure.code.as_deref().and_then(ncc::find);
    let birlink = known.and_then(|k| k.birlink);
    let code_text = failure.code.clone();
    let shown = code_text.clone().unwrap_or_else(|| "the failure".to_owned());
    let Some(code) = birlink else {
        let raised = known.map(|k| format!(" (raised by {})", k.pass)).unwrap_or_default();
        return Some(FailureAgainst {
            code: code_text,
            birlink: None,
            verdict: "not_reproduced".to_owned(),
            diagnostic: None,
            said: format!("birlink does not reproduce {shown}{raised}: it has no check for it."),
        });
    };
    let diagnostics = &outcome.report.diagnostics;
    // The log's finding at the failure's line (its names, as the findings read them).
    let found = findings::read(text);
    let finding =
        found.iter().find(|f| f.line == failure.line).or_else(|| found.iter().find(|f| f.birlink() == Some(code)));
    let index = Index::of(outcome);
    let located = finding.map(|f| locate(f, outcome, &index)).unwrap_or_default();
    let about = located.iter().filter_map(|l| l.diagnostic).next();
    let names: Vec<String> =
        finding.map(|f| f.mentions.iter().map(|m| format!("`{}`", m.name)).collect()).unwrap_or_default();
    let names = if names.is_empty() { "the names it gives".to_owned() } else { names.join(", ") };
    let (verdict, diagnostic, said) = match about {
        Some(i) if diagnostics[i].code == code => (
            "same",
            Some(i),
            format!(
                "birlink reports it too: {}[{}] {}",
                diagnostics[i].severity.as_str(),
                code.as_str(),
                diagnostics[i].message
            ),
        ),
        Some(i) => (
            "other",
            Some(i),
            format!(
                "birlink reports {} about {names}, not {}: {}",
                diagnostics[i].code.as_str(),
                code.as_str(),
                diagnostics[i].message
            ),
        ),
        None => {
            let same_code = diagnostics.iter().position(|d| d.code == code);
            let to_dump = failure
                .dump_after
                .as_deref()
                .map(|after| {
                    format!(
                        " To see what it failed on, print the modules after `{after}`: `{}`.",
                        workdir::dump_flags(after)
                    )
                })
                .unwrap_or_default();
            match same_code {
                Some(i) => (
                    "other",
                    Some(i),
                    format!(
                        "birlink reports {} about other names than {names} (the log's name is not in these dumps): {}",
                        code.as_str(),
                        diagnostics[i].message
                    ),
                ),
                None => (
                    "missing",
                    None,
                    format!(
                        "birlink's run of these dumps has no {} about {names}: they do not show what {} failed on.{to_dump}",
                        code.as_str(),
                        failure.pass.as_deref().unwrap_or("the pass")
                    ),
                ),
            }
        }
    };
    Some(FailureAgainst {
        code: code_text,
        birlink: Some(code.as_str().to_owned()),
        verdict: verdict.to_owned(),
        diagnostic,
        said,
    })
}

/// The dumps among a work directory's paths, by the pass they were printed after: read
/// once, asked for each pass of a log (a timeline of a thousand passes over a
/// print-after-all directory of thousands of files).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dumps {
    by_pass: std::collections::HashMap<String, Vec<(usize, workdir::Dump)>>,
}

impl Dumps {
    /// The dumps among `paths` (relative, `/`-separated), by index.
    pub fn of(paths: &[&str]) -> Dumps {
        let mut by_pass: std::collections::HashMap<String, Vec<(usize, workdir::Dump)>> = Default::default();
        for (i, path) in paths.iter().enumerate() {
            if let Some(dump) = workdir::dump_of(path) {
                by_pass.entry(dump.after.clone()).or_default().push((i, dump));
            }
        }
        Dumps { by_pass }
    }

    /// Whether any dump was found.
    pub fn is_empty(&self) -> bool {
        self.by_pass.is_empty()
    }

    /// The dumps printed after a pass on its scope: after `pass.name`, of the module,
    /// subgraph or core its scope names (every module when it has none), by index.
    pub fn after(&self, pass: &PassRun) -> Vec<usize> {
        let Some(dumps) = self.by_pass.get(&pass.name) else { return Vec::new() };
        let scope = pass.scope.as_deref().and_then(Scope::parse);
        dumps
            .iter()
            .filter(|(_, dump)| match scope {
                None => true,
                Some(Scope::Core(core)) => dump.place.core == core,
                Some(Scope::Subgraph(subgraph)) => dump.place.slot == Slot::Subgraph(subgraph),
                Some(Scope::Module(place)) => dump.place == place,
            })
            .map(|(i, _)| *i)
            .collect()
    }
}

/// The files among `paths` (a work directory's, relative) that are dumps printed after
/// a pass on its scope ([`Dumps::after`]), by index.
pub fn dumps_after(pass: &PassRun, paths: &[&str]) -> Vec<usize> {
    Dumps::of(paths).after(pass)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_birlink_cannot_know_is_set_aside() {
        let text = |m: &str, redacted| comparable(m, redacted).text;
        let aside = |m: &str| comparable(m, false).aside;
        for kind in [
            Aside::Cwd,
            Aside::Symlink,
            Aside::UniqueId,
            Aside::PostLinkStats,
            Aside::TotalIntermediate,
            Aside::MaxWriters,
            Aside::TensorMapPath,
        ] {
            assert_eq!(
                serde_json::to_value(kind).ok().and_then(|v| v.as_str().map(str::to_owned)).as_deref(),
                Some(kind.as_str())
            );
        }
        assert_eq!(text("moving sg0000 Module.getUniqueId() 205426", false).as_deref(), Some("moving sg0000"));
        assert_eq!(aside("moving sg0000 Module.getUniqueId() 205426"), Some(Aside::UniqueId));
        assert_eq!(text("PostLink Stats: #MatMults 518570 #MatMult-Transposes 211174", false), None);
        assert_eq!(
            aside("Total Intermediate MMTs 846 #out: 0 #inp: 846 #symmetric: 0"),
            Some(Aside::TotalIntermediate)
        );
        assert_eq!(aside("bir_linker cwd: /home/u/w/neuronxcc-a1"), Some(Aside::Cwd));
        for symlink in [
            "Symlinking debug_info files from /home/u/w/neuronxcc-a1/nc00 to WORK/nc00/sgLnk",
            r#"Symlinking "/w/nc00/sg01/input113.npy" to "/w/nc00/sgLnk/sg00/input113.npy""#,
        ] {
            assert_eq!((text(symlink, false), aside(symlink)), (None, Some(Aside::Symlink)));
        }
        assert_eq!(text(" Inp[0] input0", false).as_deref(), Some("Inp[0] input0"));
        // A tensor map's path from its core folder, or only its presence when redacted.
        let write = "Writing updated tensor_map /home/u/w/neuronxcc-a1/nc00/sgLnk/sg00/tensor_map.json";
        assert_eq!(text(write, false).as_deref(), Some("Writing updated tensor_map nc00/sgLnk/sg00/tensor_map.json"));
        assert_eq!(text(write, true).as_deref(), Some("Writing updated tensor_map"));
        assert!(redacted(&[(1, "Writing updated tensor_map <redacted>/tensor_map.json".to_owned())]));
        assert!(!redacted(&[(1, write.to_owned())]));
    }

    fn pass(name: &str, scope: Option<&str>) -> PassRun {
        PassRun {
            name: name.to_owned(),
            scope: scope.map(str::to_owned),
            lane: super::super::compile::Lane::of(scope),
            status: super::super::compile::RunStatus::Passed,
            seconds: None,
            line: 1,
        }
    }

    #[test]
    fn a_pass_finds_the_dumps_printed_after_it_on_its_scope() {
        let paths = [
            "w/nc00/sg00/bir_debug.3.after-dep_reduction.before-bir_linker.json",
            "w/nc00/sg01/bir_debug.3.after-dep_reduction.before-bir_linker.json",
            "w/nc01/sg00/bir_debug.3.after-dep_reduction.before-bir_linker.json",
            "w/nc00/sgLnk/bir_debug.9.after-lower_sync.before-lower_act.json",
            "w/nc01/sgLnk/bir_debug.9.after-lower_sync.before-lower_act.json",
            "w/nc00/sg00/def.json",
        ];
        assert_eq!(dumps_after(&pass("dep_reduction", Some("nc00/sg01")), &paths), [1]);
        assert_eq!(dumps_after(&pass("dep_reduction", Some("sg00")), &paths), [0, 2]);
        assert_eq!(dumps_after(&pass("dep_reduction", Some("nc00")), &paths), [0, 1]);
        assert_eq!(dumps_after(&pass("dep_reduction", None), &paths), [0, 1, 2]);
        assert_eq!(dumps_after(&pass("lower_sync", Some("nc01")), &paths), [4]);
        assert_eq!(dumps_after(&pass("lower_sync", Some("nc00/sgLnk")), &paths), [3]);
        assert!(dumps_after(&pass("lower_act", Some("nc00")), &paths).is_empty());
    }
}
