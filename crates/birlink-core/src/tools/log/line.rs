//! One line of `log-neuron-cc.txt`, taken apart: the Python driver's and the backend's
//! lines are `TIME LEVEL PID [(SCOPE)] [LOGGER]: MESSAGE`
//! (`2026-04-29T00:43:07Z USER 121322 (nc00) [CoreForkPass]: Running bir_linker`); the
//! frontend's C++ lines (`2026-04-23 19:15:35.696536: I hilo/…] [INFO] …`) and the
//! lines a message wraps onto have no process id, and are taken whole.

/// A line's parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Line<'t> {
    /// The process that wrote it.
    pub pid: Option<u64>,
    /// `nc00/sg01`, `sg00`, `nc00`, `nc00/sgLnk`: the pass scope in parentheses.
    pub scope: Option<&'t str>,
    /// The logger in brackets (`ModuleForkPass`, `BirLinker`, `root`, a source file).
    pub logger: Option<&'t str>,
    /// What it says (the whole line when it has no prefix).
    pub message: &'t str,
}

/// Takes a line apart; never fails (a line of another shape is all message).
pub(crate) fn parse(text: &str) -> Line<'_> {
    prefixed(text).unwrap_or(Line { message: text.trim(), ..Line::default() })
}

fn prefixed(text: &str) -> Option<Line<'_>> {
    let mut rest = text.trim_start();
    let time = next_word(&mut rest)?;
    // `2026-04-29T00:43:07Z`: a date, a `T`, a time.
    if !(time.len() >= 11 && time.as_bytes().get(4) == Some(&b'-') && time.contains('T')) {
        return None;
    }
    let level = next_word(&mut rest)?;
    if level.is_empty() || !level.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let pid: u64 = next_word(&mut rest)?.parse().ok()?;
    rest = rest.trim_start();
    let mut scope = None;
    if let Some(after) = rest.strip_prefix('(') {
        let close = after.find(')')?;
        scope = Some(&after[..close]);
        rest = after[close + 1..].trim_start();
    }
    let mut logger = None;
    if let Some(after) = rest.strip_prefix('[') {
        if let Some(close) = after.find("]:") {
            logger = Some(&after[..close]);
            rest = &after[close + 2..];
        }
    }
    Some(Line { pid: Some(pid), scope, logger, message: rest.trim() })
}

fn next_word<'t>(rest: &mut &'t str) -> Option<&'t str> {
    let text = rest.trim_start();
    let end = text.find(' ').unwrap_or(text.len());
    let word = &text[..end];
    *rest = &text[end..];
    (!word.is_empty()).then_some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backends_lines_come_apart() {
        let line = parse("2026-04-29T00:43:07Z USER 121322 (nc00) [CoreForkPass]: Running bir_linker");
        assert_eq!(
            line,
            Line {
                pid: Some(121322),
                scope: Some("nc00"),
                logger: Some("CoreForkPass"),
                message: "Running bir_linker"
            }
        );
        let line = parse("2026-04-29T00:43:07Z INFO 121322 (nc00/sgLnk) [BirLinker]:  Inp[0] input0");
        assert_eq!((line.scope, line.logger, line.message), (Some("nc00/sgLnk"), Some("BirLinker"), "Inp[0] input0"));
        let line = parse("2026-04-29T00:43:09Z USER 121322 [BackendPassManager]: Running vnc_link");
        assert_eq!((line.scope, line.logger, line.message), (None, Some("BackendPassManager"), "Running vnc_link"));
        let line = parse("2026-04-23T19:15:35Z INFO 198766 [root]: NeuronX Compiler version 2.24.5133.0+58f8de22 Python version 3.12.3");
        assert_eq!((line.pid, line.logger), (Some(198766), Some("root")));
        let line = parse("2026-03-02T10:00:01Z ERROR 4242 [/opt/walrus/lower_local_collectives/src/lower_local_collectives.cpp:78]: Assertion failure: memlocOnOtherCore != nullptr");
        assert_eq!(line.logger, Some("/opt/walrus/lower_local_collectives/src/lower_local_collectives.cpp:78"));
    }

    #[test]
    fn other_lines_are_all_message() {
        for text in [
            "2026-04-23 19:15:35.696536: I hilo/partition/Partition.cc:83] [INFO] needsModular? No.",
            "           parameter         5  45.45% ####",
            "",
            "2026-04-29T00:43:07Z USER notapid [x]: y",
        ] {
            let line = parse(text);
            assert_eq!((line.pid, line.scope, line.logger, line.message), (None, None, None, text.trim()));
        }
    }
}
