//! `verify`: the pre-link checks (spec §2; LncVerifier, `docs/spec/sources.md`), in
//! every flow. [`run`] is five groups of checks, in order, one file each:
//!
//! 1. Identity — who each module is, and whether the set can be linked at all (errors):
//!    in the compiler's flows [`grid`], the places of the grid of cores × subgraphs
//!    (1203, BL0101, BL0102, BL0107, BL0108, BL0109); in the seeds' reading
//!    [`identity`], one module per core (1203, BL0101, BL0102, BL0104, BL0308). In
//!    every flow every module has a function to clone (BL0105).
//! 2. [`names`] — no two functions of a module, blocks/sets/memory locations of a
//!    function, queues of a module or instances of a queue share a name (BL0103, error:
//!    references by name would be ambiguous).
//! 3. [`references`] — queue, queue-instance, block, memory-location, call-target and
//!    dependency names resolve inside their module (BL0201–BL0206, warnings, as the
//!    passes do not need them; at most [`MAX_PER_CODE`] per module and code).
//! 4. [`lnc`] — the LncVerifier invariants 1187–1189 and 1191–1198 across cores, as
//!    warnings: the compiler asserts them, but the link itself is still possible.
//! 5. [`collectives`] — lower_local_collectives' look-up of a local collective's names
//!    on the other cores (BL0207, the compiler's `NCC_ILLC059`), a warning for the same
//!    reason.
//!
//! The cross-core groups (4, 5) compare the modules the compiler compares: each
//! subgraph's across the cores, as `lnc_verifier` runs (a `SubgraphForkPass`, its
//! messages naming the subgraph); every core's linked module together; the seeds'
//! per-core modules together. Which identity check runs in which flow, and why, is
//! `docs/spec/link.md` §1.2. Nothing is changed; the pass only reports.

mod collectives;
mod grid;
mod identity;
mod lnc;
mod names;
mod references;

pub use grid::Grid;
pub use references::MAX_PER_CODE;

use crate::diag::{has_errors, Diagnostic};
use crate::model::flow::Flow;
use crate::model::pass::Pass;
use crate::output::report::StepRow;
use crate::read::input::{CoreModule, LinkSet};

/// The pass.
pub const PASS: Pass = Pass::Verify;

/// The steps `report.passes` lists for `verify`, in order.
const STEPS: [&str; 5] = ["identity", "names", "references", "lnc_verifier", "lower_local_collectives"];

/// What `verify` concluded.
#[derive(Debug)]
pub struct Verified {
    /// Where every module sits, when identity holds (the seeds' reading: each module its
    /// core's one subgraph).
    pub grid: Option<Grid>,
    /// The pass's steps (all with zero changes).
    pub steps: Vec<StepRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

/// Runs every check over the link set's modules, as `flow` links them.
pub fn run(set: &LinkSet, flow: Flow, diags: &mut Vec<Diagnostic>) -> Verified {
    let start = diags.len();
    let grid = match flow {
        Flow::Seeds => identity::check(set, diags).map(|cores| Grid::of_cores(&cores)),
        Flow::Modular | Flow::Flat => {
            let grid = grid::check(set, flow, diags);
            let functions = identity::every_module_has_functions(set, diags);
            grid.filter(|_| functions)
        }
    };
    for module in &set.modules {
        names::check(module, diags);
    }
    for module in &set.modules {
        references::check(module, diags);
    }
    if let Some(grid) = &grid {
        for (subgraph, modules) in compared(set, grid, flow) {
            if modules.len() > 1 {
                let before = diags.len();
                lnc::check_modules(&modules, diags);
                // LncVerifier's errors name the subgraph (`… in subgraph 0 on core 1 …`):
                // so do its warnings.
                if let Some(subgraph) = subgraph {
                    for diagnostic in &mut diags[before..] {
                        diagnostic.message.push_str(&format!(" (subgraph {subgraph})"));
                    }
                }
                collectives::check_modules(&modules, subgraph, diags);
            }
        }
    }
    let steps = STEPS.iter().map(|name| StepRow { name: (*name).to_owned(), changes: 0, edits: Vec::new() }).collect();
    let failed = has_errors(&diags[start..]);
    Verified { grid: if failed { None } else { grid }, steps, failed }
}

/// Modules compared across the cores, each with its core, and the subgraph they are.
type Group<'s> = (Option<u32>, Vec<(u64, &'s CoreModule)>);

/// The groups of modules compared across the cores, each with the subgraph it is:
/// every subgraph's modules in core order (the compiler's flows); every core's linked
/// module; the seeds' per-core modules in input order.
fn compared<'s>(set: &'s LinkSet, grid: &Grid, flow: Flow) -> Vec<Group<'s>> {
    if flow == Flow::Seeds {
        return vec![(None, grid.cores().zip(&set.modules).collect())];
    }
    if grid.linked {
        let mut all: Vec<(u64, &CoreModule)> = grid.cores().zip(&set.modules).collect();
        all.sort_by_key(|(core, _)| *core);
        return vec![(None, all)];
    }
    grid.subgraph_ids.iter().map(|&subgraph| (Some(subgraph), grid.subgraph(set, subgraph))).collect()
}
