//! birlink's own `bir_linker.log` (docs/spec/link.md §0.5), kept as lines with their
//! parts: the scope a pass ran on (`nc00`, `nc00/sgLnk`; none for the passes across the
//! cores), the logger, the message. One `Display` prints a line as the compiler's log
//! prints it, less the time, level and process id: `(nc00/sgLnk) [BirLinker]: moving
//! sg0000`, `[VncLink]: Found 4 remote updates`. What reads birlink's log (the log held
//! beside the compiler's, the generated compiler logs) reads the parts.

use std::fmt;

use crate::model::place::{CoreId, Scope};

/// Who says a line, in the compiler's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Logger {
    /// The per-core pass runner (`Running bir_linker`, `Inputs to …`, `Output has …`).
    CoreForkPass,
    /// `bir_linker` itself.
    BirLinker,
    /// The backend's pass runner across the cores (the VNC passes).
    BackendPassManager,
    /// `vnc_link`.
    VncLink,
}

impl Logger {
    /// The name in brackets.
    pub fn as_str(self) -> &'static str {
        match self {
            Logger::CoreForkPass => "CoreForkPass",
            Logger::BirLinker => "BirLinker",
            Logger::BackendPassManager => "BackendPassManager",
            Logger::VncLink => "VncLink",
        }
    }
}

/// One line of birlink's `bir_linker.log`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The scope, for a pass run per core or per module.
    pub scope: Option<Scope>,
    /// Who says it.
    pub logger: Logger,
    /// What it says.
    pub message: String,
}

impl LogLine {
    /// A line said on a scope.
    pub fn on(scope: Scope, logger: Logger, message: impl Into<String>) -> LogLine {
        LogLine { scope: Some(scope), logger, message: message.into() }
    }

    /// A line said across the cores.
    pub fn across(logger: Logger, message: impl Into<String>) -> LogLine {
        LogLine { scope: None, logger, message: message.into() }
    }

    /// The linked module of a core whose `BirLinker` said it, when it is such a line.
    pub fn linker_core(&self) -> Option<CoreId> {
        match (self.scope, self.logger) {
            (Some(Scope::Module(place)), Logger::BirLinker) if place.is_linked() => Some(place.core),
            _ => None,
        }
    }
}

impl fmt::Display for LogLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(scope) = self.scope {
            write!(f, "({scope}) ")?;
        }
        write!(f, "[{}]: {}", self.logger.as_str(), self.message)
    }
}

/// The text of a log: its lines, each ended.
pub fn text(lines: &[LogLine]) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_prints_as_the_compiler_prints_it() {
        let core = CoreId(1);
        assert_eq!(
            LogLine::on(Scope::Core(core), Logger::CoreForkPass, "Running bir_linker").to_string(),
            "(nc01) [CoreForkPass]: Running bir_linker"
        );
        let line = LogLine::on(Scope::Module(core.linked()), Logger::BirLinker, " Inp[0] input0");
        assert_eq!(line.to_string(), "(nc01/sgLnk) [BirLinker]:  Inp[0] input0");
        assert_eq!(line.linker_core(), Some(core));
        let across = LogLine::across(Logger::VncLink, "Found 2 remote updates");
        assert_eq!(across.to_string(), "[VncLink]: Found 2 remote updates");
        assert_eq!(across.linker_core(), None);
        assert_eq!(
            text(&[across.clone(), across]),
            "[VncLink]: Found 2 remote updates\n[VncLink]: Found 2 remote updates\n"
        );
    }
}
