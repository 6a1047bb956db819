//! A compiler log held beside birlink's run of the same dumps (`birlink explain --log
//! LOG DUMPS…`, the page with a log and a link set open): each core's `BirLinker` block
//! against birlink's own `bir_linker.log` for that core, to the first line that
//! differs, and the log's failure against birlink's diagnostics (the same code about
//! the same name, or why not). Which dumps of a work directory were printed after a
//! pass the log ran is [`dumps_after`].
//!
//! **birlink's reading** (log spec §5): lines are compared by their message, after
//! what birlink cannot know is set aside — a module's unique id
//! (`moving sg0000 Module.getUniqueId() 205426`), the post-link statistics
//! (`PostLink Stats`, `Total Intermediate …`, `Max writers`) — and with paths compared
//! from their core folder on (`…/neuronxcc-a1b2c3/nc00/sgLnk/sg00` is `nc00/sgLnk/sg00`:
//! the compile's directory is not the dumps').

use serde::{Deserialize, Serialize};

use super::compile::{LogReading, PassRun};
use super::findings;
use super::locate::{locate, Index};
use crate::diag::ncc;
use crate::model::place::{CoreId, Scope, Slot};
use crate::output::log::LogLine;
use crate::passes::Outcome;
use crate::read::workdir;

/// A log beside birlink's run of the same dumps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Beside {
    /// Per core (the log's or birlink's), the two `BirLinker` blocks held together.
    pub bir_linker: Vec<LinkerAgainst>,
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

/// Holds a log (its text and its reading) against birlink's run of the dumps.
pub fn beside(text: &str, reading: &LogReading, outcome: &Outcome) -> Beside {
    Beside { bir_linker: linker_against(reading, &outcome.log), failure: failure_against(text, reading, outcome) }
}

/// A message as compared; `None` for what birlink cannot know.
fn comparable(message: &str) -> Option<String> {
    let message = message.trim();
    const UNKNOWABLE: &[&str] = &["PostLink Stats", "Total Intermediate", "Max writers"];
    if UNKNOWABLE.iter().any(|p| message.starts_with(p)) {
        return None;
    }
    let message = match message.find(" Module.getUniqueId()") {
        Some(at) => &message[..at],
        None => message,
    };
    let words: Vec<String> = message.split(' ').map(from_core_folder).collect();
    Some(words.join(" "))
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
/// [BirLinker]: MESSAGE`), as compared.
fn birlink_messages(log: &[LogLine], core: u64) -> Vec<String> {
    log.iter()
        .filter(|line| line.linker_core() == Some(CoreId(core)))
        .filter_map(|line| comparable(&line.message))
        .collect()
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
            let theirs: Vec<(usize, String)> = reading
                .run
                .bir_linker
                .iter()
                .filter(|b| b.core == Some(core))
                .flat_map(|b| &b.messages)
                .filter_map(|(line, m)| Some((*line, comparable(m)?)))
                .collect();
            let ours = birlink_messages(log, core);
            let first_difference = (0..theirs.len().max(ours.len()))
                .find(|&i| theirs.get(i).map(|(_, m)| m) != ours.get(i))
                .map(|index| Difference {
                    index,
                    line: theirs.get(index).map(|(l, _)| *l),
                    log: theirs.get(index).map(|(_, m)| m.clone()),
                    birlink: ours.get(index).cloned(),
                });
            LinkerAgainst { core, log_lines: theirs.len(), birlink_lines: ours.len(), first_difference }
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
        assert_eq!(comparable("moving sg0000 Module.getUniqueId() 205426").as_deref(), Some("moving sg0000"));
        assert_eq!(comparable("PostLink Stats: #MatMults 518570 #MatMult-Transposes 211174"), None);
        assert_eq!(
            comparable("Symlinking debug_info files from /home/u/w/neuronxcc-a1/nc00 to WORK/nc00/sgLnk").as_deref(),
            Some("Symlinking debug_info files from nc00 to nc00/sgLnk")
        );
        assert_eq!(comparable(" Inp[0] input0").as_deref(), Some("Inp[0] input0"));
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
