//! Each core's CoreBarrier sequence and remote DMA block sequence, A against B,
//! position by position (the aligned views, across the two sides), and the address
//! copies of `vnc_remote_addr_map`, by view.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::options::CompareOptions;
use crate::model::ir::PhysTuple;
use crate::passes::Outcome;
use crate::tools::align::{self, Alignment, Row};

/// A barrier at one position on one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierEnd {
    /// Its name.
    pub name: String,
    /// Its `id` in the input (`None`: no integer id).
    pub id: Option<u64>,
    /// Its id in the linked module.
    pub new_id: Option<u64>,
}

/// `barriers[]`: a position where the two sides' barriers of a core differ (name or
/// input id), or where one side has none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BarrierDiff {
    /// A's core.
    pub core: u64,
    /// B's core.
    pub core_b: u64,
    /// The position among the core's barriers.
    pub index: u64,
    /// A's barrier there.
    pub a: Option<BarrierEnd>,
    /// B's.
    pub b: Option<BarrierEnd>,
}

/// `blocks[]`: a position where the two sides' remote-notifying DMA blocks of a core
/// differ (name or targets), or where one side has none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockDiff {
    /// A's core.
    pub core: u64,
    /// B's core.
    pub core_b: u64,
    /// The block's ordinal among the core's.
    pub index: u64,
    /// A's block there.
    pub a: Option<BlockEnd>,
    /// B's.
    pub b: Option<BlockEnd>,
}

/// A remote-notifying DMA block at one position on one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockEnd {
    /// Its name.
    pub name: String,
    /// The cores it notifies.
    pub targets: Vec<u64>,
}

/// `addresses[]`: a remote view whose copied tuple differs, or that one side has not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressDiff {
    /// A's core.
    pub core: u64,
    /// The view.
    pub memloc: String,
    /// A's tuple after the copy.
    pub a: Option<PhysTuple>,
    /// B's.
    pub b: Option<PhysTuple>,
}

/// One core's column of an alignment's rows.
fn column<T: Clone>(alignment: &Alignment, rows: &[Row<T>], core: u64) -> Vec<T> {
    let Some(at) = alignment.cores.iter().position(|&c| c == core) else { return Vec::new() };
    rows.iter().filter_map(|row| row.cells.get(at).cloned().flatten()).collect()
}

/// The barriers that differ, per core and position.
pub fn barriers(a: &Outcome, b: &Outcome, options: &CompareOptions, pairs: &[(u64, u64)]) -> Vec<BarrierDiff> {
    let (xa, xb) = (align::of(a), align::of(b));
    let norm = options.normalize;
    let mut out = Vec::new();
    for &(core, core_b) in pairs {
        let (ca, cb) = (column(&xa, &xa.barriers, core), column(&xb, &xb.barriers, core_b));
        for index in 0..ca.len().max(cb.len()) {
            let end = |cell: Option<&align::BarrierCell>| {
                cell.map(|c| BarrierEnd { name: c.name.clone(), id: c.old_id, new_id: c.new_id })
            };
            let (ea, eb) = (end(ca.get(index)), end(cb.get(index)));
            let same = match (&ea, &eb) {
                (Some(x), Some(y)) => norm.apply(&x.name) == norm.apply(&y.name) && x.id == y.id,
                _ => false,
            };
            if !same {
                out.push(BarrierDiff { core, core_b, index: index as u64, a: ea, b: eb });
            }
        }
    }
    out
}

/// The remote DMA blocks that differ, per core and position.
pub fn blocks(a: &Outcome, b: &Outcome, options: &CompareOptions, pairs: &[(u64, u64)]) -> Vec<BlockDiff> {
    let (xa, xb) = (align::of(a), align::of(b));
    let norm = options.normalize;
    let mut out = Vec::new();
    for &(core, core_b) in pairs {
        let (ca, cb) = (column(&xa, &xa.blocks, core), column(&xb, &xb.blocks, core_b));
        for index in 0..ca.len().max(cb.len()) {
            let end = |cell: Option<&align::BlockCell>| {
                cell.map(|c| BlockEnd { name: c.name.clone(), targets: c.targets.clone() })
            };
            let (ea, eb) = (end(ca.get(index)), end(cb.get(index)));
            // Targets are compared through the core map: B's core 0 is A's core 1 under `0:1`.
            let same = match (&ea, &eb) {
                (Some(x), Some(y)) => {
                    let tb: Vec<u64> = y.targets.iter().map(|&t| options.a_core(t).unwrap_or(t)).collect();
                    norm.apply(&x.name) == norm.apply(&y.name) && x.targets == tb
                }
                _ => false,
            };
            if !same {
                out.push(BlockDiff { core, core_b, index: index as u64, a: ea, b: eb });
            }
        }
    }
    out
}

/// The address copies that differ, by A's core and view name.
pub fn addresses(a: &Outcome, b: &Outcome, options: &CompareOptions, pairs: &[(u64, u64)]) -> Vec<AddressDiff> {
    let norm = options.normalize;
    let mut by: BTreeMap<(u64, String), (Option<PhysTuple>, Option<PhysTuple>)> = BTreeMap::new();
    for row in &a.report.address_map {
        by.entry((row.core, norm.apply(&row.memloc).into_owned())).or_default().0 = Some(row.after.clone());
    }
    for row in &b.report.address_map {
        let Some(&(core, _)) = pairs.iter().find(|(_, b)| *b == row.core) else { continue };
        by.entry((core, norm.apply(&row.memloc).into_owned())).or_default().1 = Some(row.after.clone());
    }
    by.into_iter()
        .filter(|(_, (x, y))| x != y)
        .map(|((core, memloc), (a, b))| AddressDiff { core, memloc, a, b })
        .collect()
}
