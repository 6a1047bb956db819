//! Two link sets compared: A against B, each linked by the real pipeline
//! (docs/spec/compare.md).
//!
//! Public failure reports are comparisons made by hand — rank 0 against rank 1, LNC 1
//! against LNC 2, one call against two. birlink knows both sides' structure and where
//! every entity came from, so it aligns them by entity key ([`entities`]), sums up
//! first ([`sides`]: provenance and verdicts; [`counts`]: per-core tables), lines up
//! each core's CoreBarriers and remote DMA blocks position by position
//! ([`sequences`]), and says where each core's instructions first part
//! ([`entities::first_divergence`]). Cores are matched through a core map (default:
//! the same ids); names can be compared with their numbers masked ([`Normalize`]),
//! and what was masked is listed, never hidden.
//!
//! Pure, like the rest of the core: two [`Outcome`]s in, one [`Comparison`] out, the
//! same bytes for the same inputs.

pub mod counts;
pub mod entities;
mod options;
pub mod sequences;
pub mod sides;
pub mod words;

use serde::{Deserialize, Serialize};

use crate::passes::Outcome;

pub use counts::{CoreCounts, Counts};
pub use entities::{Changed, Divergence, EntityChanges, Place};
pub use options::{CompareOptions, CorePair, Masked, Normalization, Normalize};
pub use sequences::{AddressDiff, BarrierDiff, BarrierEnd, BlockDiff, BlockEnd};
pub use sides::{DiagnosticEntity, DiagnosticKey, Diagnostics, ErrorCode, Side, SideFile};

/// The comparison of two link sets: `birlink diff --format json` (docs/spec/compare.md).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// Whether nothing differs (after normalization).
    pub equal: bool,
    /// A and B: provenance and verdict.
    pub sides: [Side; 2],
    /// A's core → B's core, every core compared (the identity unless a map was given).
    pub core_map: Vec<CorePair>,
    /// What was normalized.
    pub normalization: Normalization,
    /// Diagnostics only in A, only in B, in both, matched by code and entity.
    pub diagnostics: Diagnostics,
    /// Per core, both sides' counts, the differing ones named.
    pub cores: Vec<CoreCounts>,
    /// Entities added (in B only), removed (in A only) and changed, by key.
    pub entities: EntityChanges,
    /// CoreBarriers that differ, per core and position.
    pub barriers: Vec<BarrierDiff>,
    /// Remote-notifying DMA blocks that differ, per core and position.
    pub blocks: Vec<BlockDiff>,
    /// Address copies (vnc_remote_addr_map) that differ.
    pub addresses: Vec<AddressDiff>,
    /// Each differing core's first instruction, in walk order, whose text differs.
    pub first_divergence: Vec<Divergence>,
}

impl Comparison {
    /// The one difference that explains the rest, first: the verdicts when they part
    /// (one side fails), else the LNCs, else a diagnostic only one side reports, else
    /// where a core's instructions first part, else a count, else how many entities
    /// differ; `None` when the two agree. What `birlink diff` and the page's Compare view
    /// say at the top.
    pub fn explanation(&self) -> Option<String> {
        if self.equal {
            return None;
        }
        let [a, b] = &self.sides;
        if a.ok != b.ok || a.failed_pass != b.failed_pass {
            return Some(format!("A {}; B {}", a.verdict(), b.verdict()));
        }
        if a.lnc != b.lnc {
            return Some(format!(
                "A links {} (LNC {}, from {}); B {} (LNC {}, from {})",
                crate::english::counted(a.cores.len(), "core"),
                a.lnc,
                a.lnc_source.as_str(),
                crate::english::counted(b.cores.len(), "core"),
                b.lnc,
                b.lnc_source.as_str()
            ));
        }
        let said = |side: &str, d: &DiagnosticKey| {
            let code = match crate::diag::codes::Code::parse(&d.code).and_then(|c| c.ncc()) {
                Some(ncc) => format!("{} ({ncc})", d.code),
                None => d.code.clone(),
            };
            let about = if d.entity.is_empty() { "the link set".to_owned() } else { format!("`{}`", d.entity) };
            format!("only {side} reports {code} about {about}")
        };
        if let Some(d) = self.diagnostics.only_b.first() {
            return Some(said("B", d));
        }
        if let Some(d) = self.diagnostics.only_a.first() {
            return Some(said("A", d));
        }
        if let Some(d) = self.first_divergence.first() {
            let place = |p: &Option<Place>| p.as_ref().map_or("nothing more".to_owned(), |p| format!("`{}`", p.key));
            return Some(format!(
                "core {} first parts at instruction #{}: A has {}, B {}",
                d.core,
                d.index,
                place(&d.a),
                place(&d.b)
            ));
        }
        if let Some(c) = self.cores.iter().find(|c| !c.differs.is_empty()) {
            return Some(format!("core {}: {} differ", c.core, c.differs.join(", ")));
        }
        let e = &self.entities;
        let changes = e.added.len() + e.removed.len() + e.changed.len();
        if changes > 0 {
            let verb = if changes == 1 { "differs" } else { "differ" };
            return Some(format!(
                "{} {verb} (added {}, removed {}, changed {})",
                if changes == 1 { "1 entity".to_owned() } else { format!("{changes} entities") },
                e.added.len(),
                e.removed.len(),
                e.changed.len()
            ));
        }
        Some("the barriers, remote DMA blocks or address copies differ".to_owned())
    }
}

/// Compares two linked runs.
pub fn compare(a: &Outcome, b: &Outcome, options: &CompareOptions) -> Comparison {
    let sides = [sides::side(a), sides::side(b)];
    let core_map = core_pairs(&sides, options);
    let mut normalization = Normalization::default();
    if options.normalize.numbers {
        normalization.applied.push("numbers".to_owned());
    }
    let diagnostics = sides::diagnostics(a, b, options);
    let cores = counts::compare(a, b, &core_map);
    let (entities, first_divergence) = entities::compare(a, b, options, &core_map, &mut normalization);
    let barriers = sequences::barriers(a, b, options, &core_map);
    let blocks = sequences::blocks(a, b, options, &core_map);
    let addresses = sequences::addresses(a, b, options, &core_map);
    let verdicts_agree = sides[0].ok == sides[1].ok && sides[0].failed_pass == sides[1].failed_pass;
    let equal = verdicts_agree
        && sides[0].lnc == sides[1].lnc
        && diagnostics.only_a.is_empty()
        && diagnostics.only_b.is_empty()
        && cores.iter().all(|c| c.differs.is_empty())
        && entities.is_empty()
        && barriers.is_empty()
        && blocks.is_empty()
        && addresses.is_empty()
        && first_divergence.is_empty();
    Comparison {
        equal,
        sides,
        core_map: core_map.iter().map(|&(a, b)| CorePair { a, b }).collect(),
        normalization,
        diagnostics,
        cores,
        entities,
        barriers,
        blocks,
        addresses,
        first_divergence,
    }
}

/// Every core compared, as (A's, B's): A's cores through the map, then B's cores no A
/// core maps to (a core of one side only pairs with itself and finds nothing there).
fn core_pairs(sides: &[Side; 2], options: &CompareOptions) -> Vec<(u64, u64)> {
    let mut pairs: Vec<(u64, u64)> = sides[0].cores.iter().map(|&c| (c, options.b_core(c))).collect();
    for &core in &sides[1].cores {
        if !pairs.iter().any(|&(_, b)| b == core) {
            pairs.push((options.a_core(core).unwrap_or(core), core));
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_masked_only_when_asked() {
        let on = Normalize { numbers: true };
        assert_eq!(on.apply("CoreBarrier-0_480"), "CoreBarrier-#_#");
        assert_eq!(on.apply("CoreBarrier-0_180"), "CoreBarrier-#_#");
        assert_eq!(on.apply("no digits"), "no digits");
        assert_eq!(Normalize::default().apply("CoreBarrier-0_480"), "CoreBarrier-0_480");
    }

    #[test]
    fn a_core_map_pairs_cores_and_keeps_the_rest_as_they_are() {
        let options = CompareOptions { core_map: [(0, 1), (1, 0)].into_iter().collect(), ..Default::default() };
        assert_eq!((options.b_core(0), options.b_core(1), options.b_core(2)), (1, 0, 2));
        assert_eq!((options.a_core(1), options.a_core(0), options.a_core(2)), (Some(0), Some(1), Some(2)));
        let only = CompareOptions { core_map: [(0, 1)].into_iter().collect(), ..Default::default() };
        // B's core 0: no A core maps to it, and A's core 0 is mapped elsewhere.
        assert_eq!(only.a_core(0), None);
    }
}
