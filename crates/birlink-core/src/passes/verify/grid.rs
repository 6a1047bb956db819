//! The grid's identity (docs/spec/link.md §1.1, the compiler's flows): every module has
//! a place — a core and a subgraph — and the places make a grid. Each place holds one
//! module (BL0101); the cores are `0..C-1`, C the number of distinct cores (BL0102);
//! every core has the same subgraphs, since the compiler compiles every subgraph for
//! every core (BL0107); a netlist's definitions are the subgraphs (BL0108, the seeds'
//! `numDefs != modules.size()`); a set is all subgraph modules or all linked ones
//! (BL0109). Module ids missing altogether when several modules are given is the
//! compiler's 1203.

use std::collections::{BTreeMap, BTreeSet};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::flow::Flow;
use crate::model::pass::Pass;
use crate::read::input::{CoreModule, LinkSet};

/// Where every module of a link set sits, once its identity holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Each module's core, in input order.
    pub cores: Vec<u64>,
    /// Each module's subgraph, in input order (0 when nothing says).
    pub subgraphs: Vec<u32>,
    /// The subgraphs every core has, ascending.
    pub subgraph_ids: Vec<u32>,
    /// Every module is already a core's linked module (`ncCC/sgLnk`): the VNC passes'
    /// input, with nothing for `bir_linker` to do.
    pub linked: bool,
}

impl Grid {
    /// The number of cores.
    pub fn core_count(&self) -> u64 {
        self.cores.iter().collect::<BTreeSet<_>>().len() as u64
    }

    /// The modules of one subgraph, with their cores, in core order.
    pub fn subgraph<'s>(&self, set: &'s LinkSet, subgraph: u32) -> Vec<(u64, &'s CoreModule)> {
        let mut found: Vec<(u64, &CoreModule)> = set
            .modules
            .iter()
            .enumerate()
            .filter(|(i, _)| self.subgraphs[*i] == subgraph)
            .map(|(i, m)| (self.cores[i], m))
            .collect();
        found.sort_by_key(|(core, _)| *core);
        found
    }
}

/// Whether a module is already a core's linked module.
fn is_linked(module: &CoreModule) -> bool {
    module.place.linked || !crate::passes::partition::Partitions::of(&module.module).is_empty()
}

/// Checks the grid; its places when they hold.
pub(super) fn check(set: &LinkSet, flow: Flow, diags: &mut Vec<Diagnostic>) -> Option<Grid> {
    let n = set.modules.len();
    let mut ok = true;
    let mut cores = Vec::with_capacity(n);
    for module in &set.modules {
        match module.place.core {
            Some(core) => cores.push(core),
            None if n == 1 => cores.push(0),
            None => {
                ok = false;
                cores.push(u64::MAX);
                diags.push(
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
                    .help("give it `attributes.neuron_core_id`, or name its file as the compiler does (`nc01/sg00/…`)"),
                );
            }
        }
    }
    if !ok {
        return None;
    }
    let subgraphs: Vec<u32> = set.modules.iter().map(|m| m.place.subgraph_or_first()).collect();
    let distinct: BTreeSet<u64> = cores.iter().copied().collect();
    let count = distinct.len() as u64;
    for (module, &core) in set.modules.iter().zip(&cores) {
        if core >= count {
            ok = false;
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
    // One module per place.
    let mut places: BTreeMap<(u64, u32, bool), &CoreModule> = BTreeMap::new();
    for (i, module) in set.modules.iter().enumerate() {
        let place = (cores[i], subgraphs[i], module.place.linked);
        if let Some(first) = places.insert(place, module) {
            ok = false;
            let at = if module.place.linked {
                format!("core {}'s linked module", cores[i])
            } else {
                format!("core {}, subgraph sg{:02}", cores[i], subgraphs[i])
            };
            diags.push(
                Diagnostic::new(
                    Code::DuplicateCore,
                    Pass::Verify,
                    format!("modules `{}` and `{}` are both {at}", first.name, module.name),
                )
                .core(cores[i])
                .at(module.module.src.as_ref())
                .entity(EntityKind::Module, &module.name, None)
                .note(format!("`{}` is in `{}`", first.name, set.path(first.file)))
                .note(format!("`{}` is in `{}`", module.name, set.path(module.file)))
                .help("give each place of the grid one module: check that the same dump was not given twice"),
            );
        }
    }
    // All subgraph modules, or all linked ones.
    let linked: Vec<&CoreModule> = set.modules.iter().filter(|m| is_linked(m)).collect();
    if !linked.is_empty() && linked.len() != n {
        ok = false;
        let first = linked[0];
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
    }
    let all_linked = !linked.is_empty() && linked.len() == n;
    // Every core has the same subgraphs.
    let mut by_core: BTreeMap<u64, BTreeSet<u32>> = BTreeMap::new();
    for i in 0..n {
        by_core.entry(cores[i]).or_default().insert(subgraphs[i]);
    }
    let all: BTreeSet<u32> = by_core.values().flatten().copied().collect();
    if !all_linked {
        for (core, has) in &by_core {
            for &missing in all.difference(has) {
                ok = false;
                let found = set.modules.iter().enumerate().find(|(i, _)| subgraphs[*i] == missing).map(|(_, m)| m);
                let other = found.map(|m| m.name.clone()).unwrap_or_default();
                diags.push(
                    Diagnostic::new(
                        Code::SubgraphMissing,
                        Pass::Verify,
                        format!(
                            "core {core} has no module of subgraph sg{missing:02} (`{other}` is one on another core): the compiler compiles every subgraph for every core"
                        ),
                    )
                    .core(*core)
                    .at(found.and_then(|m| m.module.src.as_ref()))
                    .entity(EntityKind::Module, &other, None)
                    .help(format!("give core {core}'s dump of sg{missing:02} (`nc{core:02}/sg{missing:02}/…`)")),
                );
            }
        }
    }
    // The netlist's definitions are the subgraphs.
    if let (Flow::Modular, Some(netlist), false) = (flow, set.netlist.as_ref(), all_linked) {
        if netlist.has_partitions() {
            let defs = netlist.definitions();
            if defs.len() != all.len() {
                ok = false;
                let subgraphs: Vec<String> = all.iter().map(|s| format!("sg{s:02}")).collect();
                let ids: Vec<String> = defs.iter().map(u64::to_string).collect();
                let (what, help) = if defs.len() > all.len() {
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
                            all.len(),
                            subgraphs.join(", ")
                        ),
                    )
                    .at(netlist.src.as_ref())
                    .note("the k-th distinct definition id is subgraph k, in ascending order (birlink's reading)")
                    .help(help),
                );
            }
        }
    }
    ok.then(|| Grid { cores, subgraphs, subgraph_ids: all.into_iter().collect(), linked: all_linked })
}
