//! A compiler log, read: each line that is one of the compiler's known error shapes
//! (`diag::ncc`) becomes a [`Finding`] — its code, birlink's code, and the names it
//! mentions — and [`locate`] finds those names in a run: the entities so named, the
//! diagnostic about them, or, when the name is nowhere, the nearest names that are.
//!
//! The whole log — its runs, passes, the link, the failure — is [`compile`]'s
//! ([`read_log`]); a log held beside birlink's run of the same dumps is [`beside`]'s;
//! the lines' parts are `line.rs`'s, the error shapes `findings.rs`'s.

mod barriers;
pub mod beside;
pub mod compile;
mod findings;
mod line;
mod locate;
mod stats;

pub use barriers::sync_of;
pub use beside::{beside, dumps_after, Aside, Beside, Difference, Dumps, LinesAgainst};
pub use compile::{read_log, LogReading};
pub use findings::{read, Finding, Mention};
pub use locate::{locate, locate_all, Index, Located};
pub use stats::{InstructionStats, Named, NAMED};

use crate::passes::Outcome;

/// A whole log's bytes (any encoding errors replaced) read, as the JSON `birlink explain
/// --log LOG --format json` prints and `birlink.read_log` returns (`docs/spec/log.md`).
pub fn read_log_json(bytes: &[u8]) -> String {
    reading_json(&read_log(&String::from_utf8_lossy(bytes)), None)
}

/// A log read and held beside birlink's run of the same dumps: the reading's JSON with
/// a `beside` member ([`Beside`]), as `birlink explain --log LOG DUMPS… --format json`
/// prints it (`docs/spec/log.md` §4).
pub fn read_log_beside_json(bytes: &[u8], outcome: &Outcome) -> String {
    let text = String::from_utf8_lossy(bytes);
    let reading = read_log(&text);
    reading_json(&reading, Some(&beside(&text, &reading, outcome)))
}

/// A reading's JSON, with what it was held beside when it was: the one writer of the
/// CLI's, Python's and the page's (which reads in its worker and writes on its thread).
pub fn reading_json(reading: &LogReading, beside: Option<&Beside>) -> String {
    #[derive(serde::Serialize)]
    struct WithBeside<'r> {
        #[serde(flatten)]
        reading: &'r LogReading,
        #[serde(skip_serializing_if = "Option::is_none")]
        beside: Option<&'r Beside>,
    }
    // A reading is strings, numbers and lists: it always prints.
    serde_json::to_string_pretty(&WithBeside { reading, beside }).unwrap_or_default()
}

/// What to do when no link set is open: which dumps to load, and how to make them.
pub const HOW_TO_DUMP: &str = "Load the per-core BIR modules the link was given: rerun neuronx-cc with `--internal-print-after=lower_sync` (or keep its work directory), then open every `<workdir>/<core>/sg00/bir_debug.*after-lower_sync*.json`, one per core, or their folder.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::codes::Code;
    use crate::model::entity::EntityKind;

    #[test]
    fn an_error_and_its_echo_are_one_finding() {
        let log = "2026-11-21T16:02:05Z ERROR 5131 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named a:b.3 on core 1 - Please open a support ticket\n\
                   2026-11-21T16:02:06Z ERROR 5101 [neuronx-cc]: Error message:  [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named\n\
                   a:b.3 on core 1 - Please open a support ticket\n\
                   [NCC_ILLC059] Could not find MemoryLocation named a:b.4 on core 1\n";
        let findings = read(log);
        assert_eq!(findings.iter().map(|f| f.line).collect::<Vec<_>>(), [1, 4], "{findings:?}");
    }

    #[test]
    fn the_public_reports_lines_are_read() {
        let log = "INFO compiling\n[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named inst__I-5-0:send_k_buf on core 1\n\
                   [INTERNAL_ERROR] [NCC_IXLV002] Expected core barriers to have name CoreBarrier-0_480, but core barrier 5 in subgraph 0 on core 1 has name CoreBarrier-0_180\n\
                   [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named\n   inst____mp_main__.kern-0:buf.3 on core 1\n\
                   ERROR: [NCC_ILNK020] tensor_map verification failed after linking\nwalrus: Assertion `allEqual' failed.\n[NCC_ZZZZ999] something new";
        let findings = read(log);
        let summary: Vec<(usize, &str, Option<Code>)> =
            findings.iter().map(|f| (f.line, f.code.as_str(), f.birlink())).collect();
        assert_eq!(
            summary,
            vec![
                (2, "NCC_ILLC059", Some(Code::LocalCollectiveNameMissing)),
                (3, "NCC_IXLV002", Some(Code::BarrierNameMismatch)),
                (4, "NCC_ILLC059", Some(Code::LocalCollectiveNameMissing)),
                (6, "NCC_ILNK020", Some(Code::TensorMapStale)),
                (7, "allEqual", Some(Code::RemoteBlockCountMismatch)),
                (8, "NCC_ZZZZ999", None),
            ]
        );
        assert_eq!(
            findings[0].mentions,
            vec![Mention { name: "inst__I-5-0:send_k_buf".into(), kind: EntityKind::Memloc, core: Some(1) }]
        );
        assert_eq!(findings[2].mentions[0].name, "inst____mp_main__.kern-0:buf.3", "a wrapped line is joined");
        let barrier: Vec<(&str, Option<u64>)> =
            findings[1].mentions.iter().map(|m| (m.name.as_str(), m.core)).collect();
        assert_eq!(barrier, vec![("CoreBarrier-0_480", Some(0)), ("CoreBarrier-0_180", Some(1))]);
        assert!(findings[5].known.is_none());
    }
}
