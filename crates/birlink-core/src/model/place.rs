//! The grid's coordinate (docs/spec/link.md §1.1): where a module sits — a core and one
//! of its subgraphs, or the core's linked module — spelled as the compiler spells it in
//! its work directories and its log's scopes (`nc01`, `nc01/sg02`, `nc01/sgLnk`).
//!
//! This is the one parser and the one printer of that spelling. A core is `nc` and one to
//! six ASCII digits (the compiler writes two; `nc+1`, `nc`, `nc1234567` and `NC01` are
//! not cores), a subgraph `sg` and one to six digits, a core's linked module `sgLnk`.
//! Printing pads to two digits (`nc00`, `sg07`) and parsing accepts any padding, so a
//! place prints back to the compiler's spelling. A path or a module name says what it
//! can of a place ([`Place::of_path`]): the last core component — a folder, or a file
//! `ncCC.json` — and the `sgKK` or `sgLnk` component right after it; `\` separates as
//! `/` does. The VS Code extension's copy of the core rule is held to this one by the
//! shared fixture `tests/data/places.json`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The most digits a core or subgraph number may have.
const MAX_DIGITS: usize = 6;

/// A core of the grid (the compiler's `nc<k>`, `attributes.neuron_core_id`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CoreId(pub u64);

/// A subgraph of the netlist, compiled for every core (the compiler's `sg<k>`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SubgraphId(pub u32);

/// What a core's module is: one of its subgraphs, or its linked module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Slot {
    /// Subgraph `sgKK`, as the frontend cut it and the backend compiled it for the core.
    Subgraph(SubgraphId),
    /// `sgLnk`: the core's subgraphs linked by `bir_linker`.
    Linked,
}

/// A place in the grid: `nc01/sg02`, `nc01/sgLnk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    /// The core.
    pub core: CoreId,
    /// Which of its modules.
    pub slot: Slot,
}

/// What a path or a module name says of a place: either part may be missing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PartialPlace {
    /// The last core component.
    pub core: Option<CoreId>,
    /// The `sgKK` or `sgLnk` component right after it.
    pub slot: Option<Slot>,
}

/// What a pass ran on, as the compiler's log scopes it in parentheses: a core (`nc00`,
/// a `CoreForkPass`), a subgraph across the cores (`sg00`, a `SubgraphForkPass`), or one
/// module (`nc00/sg01`, `nc00/sgLnk`, a `ModuleForkPass`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// A core.
    Core(CoreId),
    /// A subgraph, on every core.
    Subgraph(SubgraphId),
    /// One core's module.
    Module(Place),
}

impl Scope {
    /// The core it is on, when it is on one.
    pub fn core(self) -> Option<CoreId> {
        match self {
            Scope::Core(core) => Some(core),
            Scope::Subgraph(_) => None,
            Scope::Module(place) => Some(place.core),
        }
    }

    /// The subgraph it is of, when it is of one.
    pub fn subgraph(self) -> Option<SubgraphId> {
        match self {
            Scope::Core(_) => None,
            Scope::Subgraph(subgraph) => Some(subgraph),
            Scope::Module(place) => place.slot.subgraph(),
        }
    }

    /// The scope of a text (`nc00`, `sg00`, `nc00/sg01`, `nc00/sgLnk`), when it is one.
    pub fn parse(text: &str) -> Option<Scope> {
        if let Ok(place) = text.parse::<Place>() {
            return Some(Scope::Module(place));
        }
        CoreId::parse(text).map(Scope::Core).or_else(|| SubgraphId::parse(text).map(Scope::Subgraph))
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scope::Core(core) => core.fmt(f),
            Scope::Subgraph(subgraph) => subgraph.fmt(f),
            Scope::Module(place) => place.fmt(f),
        }
    }
}

impl FromStr for Scope {
    type Err = NotAPlace;
    fn from_str(text: &str) -> Result<Scope, NotAPlace> {
        Scope::parse(text).ok_or_else(|| NotAPlace(text.to_owned()))
    }
}

/// A spelling that is not a core, a subgraph or a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAPlace(pub String);

impl fmt::Display for NotAPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a place of the grid (`ncCC`, `ncCC/sgKK`, `ncCC/sgLnk`)", self.0)
    }
}

impl std::error::Error for NotAPlace {}

/// The number after `prefix`: one to [`MAX_DIGITS`] ASCII digits, nothing else.
fn numbered(text: &str, prefix: &str) -> Option<u64> {
    let digits = text.strip_prefix(prefix)?;
    let valid = !digits.is_empty() && digits.len() <= MAX_DIGITS && digits.bytes().all(|b| b.is_ascii_digit());
    valid.then(|| digits.parse().ok()).flatten()
}

impl CoreId {
    /// The core of a component (`nc01`), when it is one.
    pub fn parse(text: &str) -> Option<CoreId> {
        numbered(text, "nc").map(CoreId)
    }

    /// The core's linked module.
    pub fn linked(self) -> Place {
        Place { core: self, slot: Slot::Linked }
    }

    /// One of the core's subgraphs.
    pub fn subgraph(self, subgraph: u32) -> Place {
        Place { core: self, slot: Slot::Subgraph(SubgraphId(subgraph)) }
    }
}

impl SubgraphId {
    /// The subgraph of a component (`sg02`), when it is one.
    pub fn parse(text: &str) -> Option<SubgraphId> {
        numbered(text, "sg").and_then(|n| u32::try_from(n).ok()).map(SubgraphId)
    }
}

impl Slot {
    /// The slot of a component (`sg02`, `sgLnk`), when it is one.
    pub fn parse(text: &str) -> Option<Slot> {
        if text == "sgLnk" {
            return Some(Slot::Linked);
        }
        SubgraphId::parse(text).map(Slot::Subgraph)
    }

    /// The subgraph, when the slot is one.
    pub fn subgraph(self) -> Option<SubgraphId> {
        match self {
            Slot::Subgraph(subgraph) => Some(subgraph),
            Slot::Linked => None,
        }
    }
}

impl Place {
    /// `core`'s linked module.
    pub fn linked(core: u64) -> Place {
        CoreId(core).linked()
    }

    /// `core`'s subgraph `subgraph`.
    pub fn subgraph(core: u64, subgraph: u32) -> Place {
        CoreId(core).subgraph(subgraph)
    }

    /// Whether it is a core's linked module.
    pub fn is_linked(self) -> bool {
        self.slot == Slot::Linked
    }

    /// What a path (or a module name) says of a place: its last core component — a
    /// folder, or a file `ncCC.json` — and the `sgKK`/`sgLnk` component right after it
    /// (a `.json` stem too).
    pub fn of_path(path: &str) -> PartialPlace {
        let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
        let stem = |part: &str| -> String { part.strip_suffix(".json").unwrap_or(part).to_owned() };
        let Some(at) = parts.iter().rposition(|p| CoreId::parse(&stem(p)).is_some()) else {
            return PartialPlace::default();
        };
        PartialPlace {
            core: CoreId::parse(&stem(parts[at])),
            slot: parts.get(at + 1).and_then(|p| Slot::parse(&stem(p))),
        }
    }
}

impl PartialPlace {
    /// The place, when both parts were said.
    pub fn place(self) -> Option<Place> {
        Some(Place { core: self.core?, slot: self.slot? })
    }

    /// The core's number, when one was said.
    pub fn core_number(self) -> Option<u64> {
        self.core.map(|core| core.0)
    }

    /// The subgraph, when one was said.
    pub fn subgraph(self) -> Option<u32> {
        self.slot.and_then(Slot::subgraph).map(|subgraph| subgraph.0)
    }

    /// The subgraph, 0 when nothing says (a core's one module is its first subgraph).
    pub fn subgraph_or_first(self) -> u32 {
        self.subgraph().unwrap_or(0)
    }

    /// Whether it is a core's linked module (`sgLnk`).
    pub fn is_linked(self) -> bool {
        self.slot == Some(Slot::Linked)
    }
}

impl fmt::Display for CoreId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "nc{:02}", self.0)
    }
}

impl fmt::Display for SubgraphId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sg{:02}", self.0)
    }
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Slot::Subgraph(subgraph) => subgraph.fmt(f),
            Slot::Linked => f.write_str("sgLnk"),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.core, self.slot)
    }
}

impl FromStr for CoreId {
    type Err = NotAPlace;
    fn from_str(text: &str) -> Result<CoreId, NotAPlace> {
        CoreId::parse(text).ok_or_else(|| NotAPlace(text.to_owned()))
    }
}

impl FromStr for SubgraphId {
    type Err = NotAPlace;
    fn from_str(text: &str) -> Result<SubgraphId, NotAPlace> {
        SubgraphId::parse(text).ok_or_else(|| NotAPlace(text.to_owned()))
    }
}

impl FromStr for Slot {
    type Err = NotAPlace;
    fn from_str(text: &str) -> Result<Slot, NotAPlace> {
        Slot::parse(text).ok_or_else(|| NotAPlace(text.to_owned()))
    }
}

impl FromStr for Place {
    type Err = NotAPlace;
    /// Exactly `ncCC/sgKK` or `ncCC/sgLnk`.
    fn from_str(text: &str) -> Result<Place, NotAPlace> {
        let (core, slot) = text.split_once('/').ok_or_else(|| NotAPlace(text.to_owned()))?;
        match (CoreId::parse(core), Slot::parse(slot)) {
            (Some(core), Some(slot)) => Ok(Place { core, slot }),
            _ => Err(NotAPlace(text.to_owned())),
        }
    }
}

impl From<u64> for CoreId {
    fn from(core: u64) -> CoreId {
        CoreId(core)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_prints_as_the_compiler_spells_it_and_parses_back() {
        for (place, text) in [
            (Place::subgraph(0, 0), "nc00/sg00"),
            (Place::subgraph(1, 2), "nc01/sg02"),
            (Place::linked(1), "nc01/sgLnk"),
            (Place::subgraph(12, 123), "nc12/sg123"),
        ] {
            assert_eq!(place.to_string(), text);
            assert_eq!(text.parse::<Place>(), Ok(place));
        }
        assert_eq!(CoreId(3).to_string(), "nc03");
        assert_eq!(SubgraphId(7).to_string(), "sg07");
    }
}
