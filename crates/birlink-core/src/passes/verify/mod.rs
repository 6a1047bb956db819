//! `verify`: the pre-link checks (spec §2; LncVerifier, `docs/spec/sources.md`).
//!
//! Four groups, in order, one file each:
//!
//! 1. [`identity`] — every module has a core id when there is more than one (1203),
//!    ids are distinct (BL0101) and in `0..N-1` (BL0102), module names are distinct and
//!    not `main` (BL0104), no module is already linked (BL0308), every module has a
//!    function to clone (BL0105). Errors: linking is impossible without them.
//! 2. [`names`] — no two functions of a module, blocks/sets/memory locations of a
//!    function, queues of a module or instances of a queue share a name (BL0103, error:
//!    references by name would be ambiguous).
//! 3. [`references`] — queue, queue-instance, block, memory-location, call-target and
//!    dependency names resolve inside their module (BL0201–BL0206, warnings, as the
//!    passes do not need them; at most [`MAX_PER_CODE`] per module and code).
//! 4. [`lnc`] — the LncVerifier invariants 1187–1189 and 1191–1198 across cores, as
//!    warnings: the compiler asserts them, but the link itself is still possible.
//! 5. [`collectives`] — lower_local_collectives' look-up of a local collective's names
//!    on the other cores of its subgraph (BL0207, the compiler's `NCC_ILLC059`), a
//!    warning for the same reason.
//!
//! Nothing is changed; the pass only reports.

mod collectives;
mod grid;
mod identity;
mod lnc;
mod names;
mod references;

pub use references::MAX_PER_CODE;

use crate::diag::{has_errors, Diagnostic};
use crate::model::flow::Flow;
use crate::model::pass::Pass;
use crate::output::report::StepRow;
use crate::read::input::LinkSet;

/// The pass.
pub const PASS: Pass = Pass::Verify;

/// What `verify` concluded.
#[derive(Debug)]
pub struct Verified {
    /// The core id of each module of the link set (same order), when identity holds.
    pub cores: Option<Vec<u64>>,
    /// The pass's steps (all with zero changes).
    pub steps: Vec<StepRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

pub use grid::Grid;

/// What `verify` concluded of a grid (the compiler's flows).
#[derive(Debug)]
pub struct GridVerified {
    /// Where every module sits, when the grid's identity holds.
    pub grid: Option<Grid>,
    /// The pass's steps (all with zero changes).
    pub steps: Vec<StepRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

/// Runs every check over a grid of cores × subgraphs: the grid's identity, each
/// module's names and references, and LncVerifier per subgraph across the cores, as
/// the compiler runs `lnc_verifier` (a `SubgraphForkPass`).
pub fn run_grid(set: &LinkSet, flow: Flow, diags: &mut Vec<Diagnostic>) -> GridVerified {
    let start = diags.len();
    let grid = grid::check(set, flow, diags);
    for module in &set.modules {
        names::check(module, diags);
    }
    for module in &set.modules {
        references::check(module, diags);
    }
    if let Some(grid) = &grid {
        for &subgraph in &grid.subgraph_ids {
            let modules = grid.subgraph(set, subgraph);
            if modules.len() > 1 {
                // LncVerifier runs per subgraph (`(sg00) [SubgraphForkPass]`) and its
                // errors name it (`… in subgraph 0 on core 1 …`): so do its warnings.
                let before = diags.len();
                lnc::check_modules(&modules, diags);
                for diagnostic in &mut diags[before..] {
                    diagnostic.message.push_str(&format!(" (subgraph {subgraph})"));
                }
                collectives::check_modules(&modules, Some(subgraph), diags);
            }
        }
    }
    let steps = ["identity", "names", "references", "lnc_verifier", "lower_local_collectives"]
        .iter()
        .map(|name| StepRow { name: (*name).to_owned(), changes: 0, edits: Vec::new() })
        .collect();
    let failed = has_errors(&diags[start..]);
    GridVerified { grid: if failed { None } else { grid }, steps, failed }
}

/// Runs every check over the link set's modules.
pub fn run(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> Verified {
    let start = diags.len();
    let cores = identity::check(set, diags);
    for module in &set.modules {
        names::check(module, diags);
    }
    for module in &set.modules {
        references::check(module, diags);
    }
    if let Some(cores) = &cores {
        if set.modules.len() > 1 {
            lnc::check(set, cores, diags);
            let modules: Vec<_> = cores.iter().copied().zip(&set.modules).collect();
            collectives::check_modules(&modules, None, diags);
        }
    }
    let steps = ["identity", "names", "references", "lnc_verifier", "lower_local_collectives"]
        .iter()
        .map(|name| StepRow { name: (*name).to_owned(), changes: 0, edits: Vec::new() })
        .collect();
    let failed = has_errors(&diags[start..]);
    Verified { cores: if failed { None } else { cores }, steps, failed }
}
