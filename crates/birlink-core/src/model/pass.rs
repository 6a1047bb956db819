//! The stages of a run, by name: reading, the four passes of the pipeline, then the
//! sync check.
//!
//! A leaf of the crate (diagnostics, codes, the report and the passes all name a
//! stage), so it depends on nothing. On the wire (`report.json`, diagnostics) a stage
//! is its snake_case name, exactly as the link spec writes it (`docs/spec/link.md` §2).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A stage of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pass {
    /// Reading and lowering the input files (not a pass of the pipeline: it has no row
    /// in `report.passes`, but diagnostics come from it).
    Read,
    /// The pre-link checks (LncVerifier and birlink's own).
    Verify,
    /// N per-core modules into one `<base>/sgLnk` module.
    BirLinker,
    /// The owner's physical address onto each remote view.
    VncRemoteAddrMap,
    /// Remote semaphore ids from the peer core.
    VncLink,
    /// birlink's cross-core synchronization check (not a pass of the pipeline: it has no
    /// row in `report.passes`, but diagnostics come from it; docs/spec/sync.md).
    Sync,
}

impl Pass {
    /// The pipeline, in order: what `report.passes` lists.
    pub const PIPELINE: [Pass; 4] = [Pass::Verify, Pass::BirLinker, Pass::VncRemoteAddrMap, Pass::VncLink];

    /// The stage's name: `read`, `verify`, `bir_linker`, `vnc_remote_addr_map`, `vnc_link`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pass::Read => "read",
            Pass::Verify => "verify",
            Pass::BirLinker => "bir_linker",
            Pass::VncRemoteAddrMap => "vnc_remote_addr_map",
            Pass::VncLink => "vnc_link",
            Pass::Sync => "sync",
        }
    }

    /// A pass of the pipeline by its name (`read` is not one).
    pub fn parse(name: &str) -> Option<Pass> {
        Pass::PIPELINE.into_iter().find(|p| p.as_str() == name)
    }

    /// Its position in [`Pass::PIPELINE`] (`None` for `read`).
    pub fn index(self) -> Option<usize> {
        Pass::PIPELINE.iter().position(|p| *p == self)
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Pass;

    #[test]
    fn names_round_trip_through_serde_and_parse() {
        for pass in Pass::PIPELINE {
            let text = serde_json::to_string(&pass).unwrap_or_default();
            assert_eq!(text, format!("\"{}\"", pass.as_str()));
            assert_eq!(serde_json::from_str::<Pass>(&text).ok(), Some(pass));
            assert_eq!(Pass::parse(pass.as_str()), Some(pass));
        }
        assert_eq!(serde_json::to_string(&Pass::Read).unwrap_or_default(), "\"read\"");
        assert_eq!(Pass::parse("read"), None, "reading is not a pass of the pipeline");
        assert_eq!(serde_json::to_string(&Pass::Sync).unwrap_or_default(), "\"sync\"");
        assert_eq!(Pass::parse("sync"), None, "the sync check is not a pass of the pipeline");
        assert_eq!(Pass::BirLinker.index(), Some(1));
    }
}
