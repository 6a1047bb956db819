//! How the compiler links a program (docs/spec/link.md §2): the **flow**, and what
//! decided it. The compiler's own logs say which it takes (`found partitions within
//! VNC, using VNC + MT modular flow`, `no partitions within VNC found. Switching to VNC
//! + flat flow`); birlink decides it from the inputs the same way, or is told.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flow {
    /// Subgraphs: `bir_linker` links each core's subgraphs through the netlist, then the
    /// VNC passes run across the per-core modules.
    Modular,
    /// One subgraph per core: no `bir_linker`; the VNC passes run across the per-core
    /// modules.
    Flat,
    /// The seeds' reading: the cores merged into one module by `bir_linker`, each core a
    /// partition of it. Only when asked.
    #[default]
    Seeds,
}

impl Flow {
    /// Every flow.
    pub const ALL: [Flow; 3] = [Flow::Modular, Flow::Flat, Flow::Seeds];

    /// `modular`, `flat` or `seeds`.
    pub fn as_str(self) -> &'static str {
        match self {
            Flow::Modular => "modular",
            Flow::Flat => "flat",
            Flow::Seeds => "seeds",
        }
    }

    /// The flow of a name.
    pub fn parse(text: &str) -> Option<Flow> {
        Flow::ALL.into_iter().find(|f| f.as_str() == text)
    }

    /// Whether the link set is a grid linked per core (the compiler's flows).
    pub fn per_core(self) -> bool {
        self != Flow::Seeds
    }
}

impl fmt::Display for Flow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What decided the flow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FlowSource {
    /// A netlist with partitions (modular).
    Netlist,
    /// Some core has several subgraphs (modular).
    Subgraphs,
    /// Every core has one subgraph and no netlist has partitions (flat).
    Single,
    /// Asked for: `--flow`, a bundle's `options.flow`, the page's `flow=`.
    #[default]
    Option,
    /// An input is the seeds' linked module (its functions carry several cores: an
    /// earlier birlink's `linked.json`), which only the seeds' reading makes (seeds;
    /// birlink's reading).
    Linked,
    /// Every module is a core's linked module (`ncCC/sgLnk`): the modular flow's VNC
    /// passes' input, bir_linker already run (birlink's reading).
    Sglnk,
}

impl FlowSource {
    /// Why the flow is `flow`, in the compiler's words where it has them — the same
    /// words in the CLI and on the page.
    pub fn why(self, flow: Flow) -> &'static str {
        match (flow, self) {
            (_, FlowSource::Netlist) => {
                "a netlist with partitions (the compiler: “found partitions within VNC, using VNC + MT modular flow”)"
            }
            (_, FlowSource::Subgraphs) => "a core has several subgraphs",
            (_, FlowSource::Sglnk) => {
                "every module is a core's linked module (ncCC/sgLnk): bir_linker has run, the VNC passes link them across the cores"
            }
            (_, FlowSource::Single) => {
                "one subgraph per core and no netlist partitions (the compiler: “Switching to VNC + flat flow”): the compiler runs no bir_linker"
            }
            (Flow::Seeds, FlowSource::Linked) => "an input is the seeds' linked module (its functions carry several cores)",
            (Flow::Seeds, _) => {
                "asked for (--flow, the page's flow menu, a link's flow=, or a bundle's options.flow): the cores merged into one module — not what the compiler does"
            }
            (_, _) => "asked for (--flow, the page's flow menu, a link's flow=, or a bundle's options.flow)",
        }
    }

    /// `netlist`, `subgraphs`, `single` or `option`.
    pub fn as_str(self) -> &'static str {
        match self {
            FlowSource::Netlist => "netlist",
            FlowSource::Subgraphs => "subgraphs",
            FlowSource::Single => "single",
            FlowSource::Option => "option",
            FlowSource::Linked => "linked",
            FlowSource::Sglnk => "sglnk",
        }
    }
}
