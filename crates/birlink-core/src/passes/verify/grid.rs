//! The grid's identity (docs/spec/link.md §0.1, the compiler's flows): every module has
//! a place — a core and a subgraph, or the core's linked module — and the places make a
//! grid. One function per code, each pushing what it finds:
//!
//! - [`places`]: a module with no core when several are given is the compiler's 1203;
//! - [`cores_in_range`]: the cores are `0..C-1`, C the number of distinct cores (BL0102);
//! - [`one_module_per_place`]: each place holds one module (BL0101);
//! - [`one_kind`]: a set is all subgraph modules or all linked ones (BL0109);
//! - [`same_subgraphs`]: every core has the same subgraphs, since the compiler compiles
//!   every subgraph for every core (BL0107);
//! - [`definitions_are_subgraphs`]: a netlist's definitions are the subgraphs (BL0108,
//!   the seeds' `numDefs != modules.size()`).

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::flow::Flow;
use crate::model::pass::Pass;
use crate::model::place::{CoreId, Place, Slot, SubgraphId};
use crate::read::input::{CoreModule, LinkSet};

/// Where every module of a link set sits, once its identity holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Each module's place, in input order.
    pub places: Vec<Place>,
    /// The subgraphs every core has, ascending (none when every module is linked).
    pub subgraph_ids: Vec<u32>,
    /// Every module is already a core's linked module (`ncCC/sgLnk`): the VNC passes'
    /// input, with nothing for `bir_linker` to do.
    pub linked: bool,
}

impl Grid {
    /// The seeds' reading: one module per core, each the core's one subgraph.
    pub fn of_cores(cores: &[u64]) -> Grid {
        Grid {
            places: cores.iter().map(|&core| Place::subgraph(core, 0)).collect(),
            subgraph_ids: vec![0],
            linked: false,
        }
    }

    /// Each module's core, in input order.
    pub fn cores(&self) -> impl Iterator<Item = u64> + '_ {
        self.places.iter().map(|place| place.core.0)
    }

    /// The number of cores.
    pub fn core_count(&self) -> u64 {
        self.cores().collect::<BTreeSet<_>>().len() as u64
    }

    /// The modules of one subgraph, with their cores, in core order.
    pub fn subgraph<'s>(&self, set: &'s LinkSet, subgraph: u32) -> Vec<(u64, &'s CoreModule)> {
        let mut found: Vec<(u64, &CoreModule)> = set
            .modules
            .iter()
            .zip(&self.places)
            .filter(|(_, place)| place.slot.subgraph().is_some_and(|s| s.0 == subgraph))
            .map(|(module, place)| (place.core.0, module))
            .collect();
        found.sort_by_key(|(core, _)| *core);
        found
    }
}

/// Whether a module is already a core's linked module.
fn is_linked(module: &CoreModule) -> bool {
    module.place.is_linked() || !crate::passes::partition::Partitions::of(&module.module).is_empty()
}

/// Checks the grid; its places when they hold.
pub(super) fn check(set: &LinkSet, flow: Flow, diags: &mut Vec<Diagnostic>) -> Option<Grid> {
    let places = places(set, diags)?;
    let start = diags.len();
    cores_in_range(set, &places, diags);
    one_module_per_place(set, &places, diags);
    let linked = one_kind(set, diags);
    // A set of linked modules has no subgraphs to compare (a mixed one is BL0109 already).
    let subgraph_ids = if linked { Vec::new() } else { same_subgraphs(set, &places, diags) };
    if flow == Flow::Modular && !linked {
        definitions_are_subgraphs(set, &subgraph_ids, diags);
    }
    (diags.len() == start).then_some(Grid { places, subgraph_ids, linked })
}

/// Each module's place: its core (one module alone is core 0), and its subgraph (0 when
/// nothing says) or `sgLnk` when it is a core's linked module. 1203 for a module with
/// no core among several.
fn places(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> Option<Vec<Place>> {
    let alone = set.modules.len() == 1;
    let mut places = Vec::with_capacity(set.modules.len());
    let mut missing = false;
    for module in &set.modules {
        let core = match module.place.core {
            Some(core) => core,
            None if alone => CoreId(0),
            None => {
                missing = true;
                diags.push(no_core(module));
                continue;
            }
        };
        let slot = if module.place.is_linked() {
            Slot::Linked
        } else {
            Slot::Subgraph(SubgraphId(module.place.subgraph_or_first()))
        };
        places.push(Place { core, slot });
    }
    (!missing).then_some(places)
}

fn no_core(module: &CoreModule) -> Diagnostic {
    Diagnostic::new(
        Code::MissingCoreId,
        Pass::Verify,
        format!(
            "module `{}` has no core: no `attributes.neuron_core_id`, and neither its file's path nor its name says `ncCC`",
            module.name
        ),
    )
    .at(module.module.src.as_ref())
    .entity(EntityKind::Module, &module.name, None)
    .help("give it `attributes.neuron_core_id`, or name its file as the compiler does (`nc01/sg00/…`)")
}

/// BL0102: the cores are `0..C-1`.
fn cores_in_range(set: &LinkSet, places: &[Place], diags: &mut Vec<Diagnostic>) {
    let distinct: BTreeSet<u64> = places.iter().map(|p| p.core.0).collect();
    let count = distinct.len() as u64;
    for (module, place) in set.modules.iter().zip(places) {
        let core = place.core.0;
        if core < count {
            continue;
        }
        let missing: Vec<String> = (0..count).filter(|c| !distinct.contains(c)).map(|c| c.to_string()).collect();
        diags.push(
            Diagnostic::new(
                Code::CoreOutOfRange,
                Pass::Verify,
                format!(
                    "module `{}` is core {core}, but the modules make {count} core(s), so cores 0..{}: core(s) [{}] have none",
                    module.name,
                    count - 1,
                    missing.join(", ")
                ),
            )
            .core(core)
            .at(module.module.src.as_ref())
            .entity(EntityKind::Module, &module.name, None)
            .help("give the missing core's modules, or fix the core id"),
        );
    }
}

/// BL0101: one module per place.
fn one_module_per_place(set: &LinkSet, places: &[Place], diags: &mut Vec<Diagnostic>) {
    let mut seen: BTreeMap<Place, &CoreModule> = BTreeMap::new();
    for (module, &place) in set.modules.iter().zip(places) {
        let Some(first) = seen.insert(place, module) else { continue };
        let at = match place.slot {
            Slot::Linked => format!("core {}'s linked module", place.core.0),
            Slot::Subgraph(subgraph) => format!("core {}, subgraph {subgraph}", place.core.0),
        };
        diags.push(
            Diagnostic::new(
                Code::DuplicateCore,
                Pass::Verify,
                format!("modules `{}` and `{}` are both {at}", first.name, module.name),
            )
            .core(place.core.0)
            .at(module.module.src.as_ref())
            .entity(EntityKind::Module, &module.name, None)
            .note(format!("`{}` is in `{}`", first.name, set.path(first.file)))
            .note(format!("`{}` is in `{}`", module.name, set.path(module.file)))
            .help("give each place of the grid one module: check that the same dump was not given twice"),
        );
    }
}

/// BL0109: all subgraph modules, or all linked ones; whether all are linked.
fn one_kind(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> bool {
    let n = set.modules.len();
    let linked: Vec<&CoreModule> = set.modules.iter().filter(|m| is_linked(m)).collect();
    let Some(first) = linked.first() else { return false };
    if linked.len() == n {
        return true;
    }
    diags.push(
        Diagnostic::new(
            Code::MixedFlows,
            Pass::Verify,
            format!(
                "`{}` is a core's linked module, but {} of the {n} modules given are not: one link set is either every core's subgraphs or every core's linked module",
                first.name,
                n - linked.len()
            ),
        )
        .at(first.module.src.as_ref())
        .entity(EntityKind::Module, &first.name, None),
    );
    false
}

/// BL0107: every core has the same subgraphs; all of them, ascending. A module is of its
/// subgraph, 0 when nothing says.
fn same_subgraphs(set: &LinkSet, places: &[Place], diags: &mut Vec<Diagnostic>) -> Vec<u32> {
    let subgraph_of = |module: &CoreModule| module.place.subgraph_or_first();
    let mut by_core: BTreeMap<u64, BTreeSet<u32>> = BTreeMap::new();
    for (module, place) in set.modules.iter().zip(places) {
        by_core.entry(place.core.0).or_default().insert(subgraph_of(module));
    }
    let all: BTreeSet<u32> = by_core.values().flatten().copied().collect();
    for (&core, has) in &by_core {
        for &missing in all.difference(has) {
            let found = set.modules.iter().find(|m| subgraph_of(m) == missing);
            let other = found.map(|m| m.name.clone()).unwrap_or_default();
            let subgraph = SubgraphId(missing);
            diags.push(
                Diagnostic::new(
                    Code::SubgraphMissing,
                    Pass::Verify,
                    format!(
                        "core {core} has no module of subgraph {subgraph} (`{other}` is one on another core): the compiler compiles every subgraph for every core"
                    ),
                )
                .core(core)
                .at(found.and_then(|m| m.module.src.as_ref()))
                .entity(EntityKind::Module, &other, None)
                .help(format!("give core {core}'s dump of {subgraph} (`{}/…`)", Place::subgraph(core, missing))),
            );
        }
    }
    all.into_iter().collect()
}

/// BL0108: a netlist with partitions has one definition per subgraph.
fn definitions_are_subgraphs(set: &LinkSet, subgraphs: &[u32], diags: &mut Vec<Diagnostic>) {
    let Some(netlist) = set.netlist.as_ref().filter(|n| n.has_partitions()) else { return };
    let defs = netlist.definitions();
    if defs.len() == subgraphs.len() {
        return;
    }
    let names: Vec<String> = subgraphs.iter().map(|&s| SubgraphId(s).to_string()).collect();
    let ids: Vec<String> = defs.iter().map(u64::to_string).collect();
    let (what, help) = if defs.len() > subgraphs.len() {
        ("a definition has no module", "give every subgraph's dumps, or the netlist of this compile")
    } else {
        ("a module has no definition", "give the netlist of the compile these subgraphs come from")
    };
    diags.push(
        Diagnostic::new(
            Code::DefinitionsMismatch,
            Pass::Verify,
            format!(
                "the netlist has {} definition(s) [{}] but each core has {} subgraph(s) [{}]: {what} (`numDefs != modules.size()`)",
                defs.len(),
                ids.join(", "),
                subgraphs.len(),
                names.join(", ")
            ),
        )
        .at(netlist.src.as_ref())
        .note("the k-th distinct definition id is subgraph k, in ascending order (birlink's reading)")
        .help(help),
    );
}
