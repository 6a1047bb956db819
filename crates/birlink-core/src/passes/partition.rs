//! Partitions of a linked set: what belongs to each core (spec §2, §3.3).
//!
//! In the compiler's flows a core's partition is its own module (`ncCC/sgLnk`, or a flat
//! flow's per-core module): every function, `main` (else the first) as its core
//! function, and every queue instance. In the seeds' reading, core `c`'s partition of
//! the one linked module is its functions (the core function first, then the module's
//! other functions `<module>/<name>`) plus its queue instances, in linked order, derived
//! only from the `attributes.neuron_core_id` tags the linker puts on them, so the VNC
//! passes run the same on a module fresh from `bir_linker` and on a `linked.json` read
//! back from disk.

use std::collections::{BTreeMap, HashMap};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::ir::{Allocation, Function, MemLoc, MemLocSet, Module, QueueInstance};
use crate::model::linked::LinkedSet;
use crate::model::pass::Pass;
use crate::output::report::StepRow;

/// What belongs to one core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// The core.
    pub core: u64,
    /// Which module of the linked set holds it.
    pub module: usize,
    /// Whether that module is the core's own (the compiler's flows), not a part of the
    /// seeds' one module.
    pub whole: bool,
    /// The core function (named after the core's module).
    pub function: Handle<Function>,
    /// All of the core's functions, the core function first.
    pub functions: Vec<Handle<Function>>,
    /// The core's queue instances, in linked queue order.
    pub instances: Vec<Handle<QueueInstance>>,
}

/// All partitions of a linked module, by core id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Partitions {
    by_core: BTreeMap<u64, Partition>,
}

impl Partitions {
    /// Derives the partitions from the module's core tags.
    pub fn of(module: &Module) -> Partitions {
        let mut by_core: BTreeMap<u64, Partition> = BTreeMap::new();
        for &function in &module.functions {
            let Some(core) = module.store.functions[function].core() else {
                continue;
            };
            by_core
                .entry(core)
                .or_insert_with(|| Partition {
                    core,
                    module: 0,
                    whole: false,
                    function,
                    functions: Vec::new(),
                    instances: Vec::new(),
                })
                .functions
                .push(function);
        }
        for &queue in &module.queues {
            for &instance in &module.store.queues[queue].instances {
                let Some(core) = module.store.instances[instance].core() else {
                    continue;
                };
                if let Some(partition) = by_core.get_mut(&core) {
                    partition.instances.push(instance);
                }
            }
        }
        Partitions { by_core }
    }

    /// The partitions of a linked set: each per-core module whole, or the seeds' one
    /// module by its tags. A core given twice keeps its first module.
    pub fn of_set(set: &LinkedSet) -> Partitions {
        let mut by_core: BTreeMap<u64, Partition> = BTreeMap::new();
        for (index, linked) in set.modules.iter().enumerate() {
            let module = &linked.module;
            match linked.core {
                None => {
                    for (core, mut partition) in Partitions::of(module).by_core {
                        partition.module = index;
                        by_core.entry(core).or_insert(partition);
                    }
                }
                Some(core) => {
                    let Some(function) = module.entry_function() else { continue };
                    let mut functions = vec![function];
                    functions.extend(module.functions.iter().copied().filter(|&f| f != function));
                    let instances =
                        module.queues.iter().flat_map(|&q| module.store.queues[q].instances.iter().copied()).collect();
                    by_core.entry(core).or_insert(Partition {
                        core,
                        module: index,
                        whole: true,
                        function,
                        functions,
                        instances,
                    });
                }
            }
        }
        Partitions { by_core }
    }

    /// Number of partitions.
    pub fn len(&self) -> usize {
        self.by_core.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_core.is_empty()
    }

    /// The partition of a core.
    pub fn get(&self, core: u64) -> Option<&Partition> {
        self.by_core.get(&core)
    }

    /// Partitions in core order.
    pub fn iter(&self) -> impl Iterator<Item = &Partition> {
        self.by_core.values()
    }

    /// The core ids, in order.
    pub fn cores(&self) -> Vec<u64> {
        self.by_core.keys().copied().collect()
    }

    /// The core ids as text: `0, 1, 2`.
    pub fn cores_text(&self) -> String {
        self.by_core.keys().map(u64::to_string).collect::<Vec<_>>().join(", ")
    }

    /// The prologue both VNC passes open with: the module's partitions, the
    /// `check_partitions` step, and the count check (`modules.size() ==
    /// options.vnc_nc_count`, `code` from `pass` when it fails: `None`, the diagnostic
    /// pushed). One core is said as a note: there are no `nothing` (what the pass would
    /// act on).
    pub fn checked(
        set: &LinkedSet,
        (code, pass): (Code, Pass),
        vnc_nc_count: u64,
        nothing: &str,
        steps: &mut Vec<StepRow>,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Partitions> {
        let partitions = Partitions::of_set(set);
        steps.push(StepRow { name: "check_partitions".to_owned(), changes: 0, edits: Vec::new() });
        if let Some(mismatch) = partitions.count_mismatch(code, pass, vnc_nc_count) {
            diags.push(mismatch);
            return None;
        }
        if partitions.len() == 1 {
            diags.push(Diagnostic::new(Code::NothingToRelink, pass, format!("one core (lnc = 1): no {nothing}")));
        }
        Some(partitions)
    }

    /// The first check of both VNC passes (`modules.size() == options.vnc_nc_count`):
    /// `code` from `pass` when the set has another number of per-core modules (or the
    /// seeds' one module another number of partitions).
    pub fn count_mismatch(&self, code: Code, pass: Pass, vnc_nc_count: u64) -> Option<Diagnostic> {
        let n = self.len() as u64;
        let what = if self.iter().any(|p| p.whole) {
            format!("the linked set has {n} per-core module(s)")
        } else {
            format!("the linked module has {n} partition(s)")
        };
        (n != vnc_nc_count).then(|| {
            Diagnostic::new(
                code,
                pass,
                format!("{what} but `vnc_nc_count` is {vnc_nc_count} (`modules.size() == options.vnc_nc_count`)"),
            )
            .note(format!("partitions: cores [{}]", self.cores_text()))
            .help(format!(
                "give {vnc_nc_count} per-core modules, or set the LNC to {n} (--lnc, bundle `options.lnc`, netlist `lnc`)"
            ))
        })
    }
}

/// A memory location together with the set and function that hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemlocRef {
    /// The function whose allocations hold the set.
    pub function: Handle<Function>,
    /// The set.
    pub set: Handle<MemLocSet>,
    /// The memory location.
    pub memloc: Handle<MemLoc>,
}

/// Every memory location of a partition, in partition order (functions, their
/// allocations, each set's locations).
pub fn memlocs(module: &Module, partition: &Partition) -> Vec<MemlocRef> {
    let mut out = Vec::new();
    for &function in &partition.functions {
        for allocation in &module.store.functions[function].allocations {
            if let Allocation::Set(set) = allocation {
                for &memloc in &module.store.sets[*set].memlocs {
                    out.push(MemlocRef { function, set: *set, memloc });
                }
            }
        }
    }
    out
}

/// Memory locations of one partition by name, for remote-target look-ups.
#[derive(Debug, Default)]
pub struct MemlocIndex<'m> {
    by_name: HashMap<&'m str, Vec<MemlocRef>>,
    names: Vec<&'m str>,
}

impl<'m> MemlocIndex<'m> {
    /// Indexes a partition.
    pub fn build(module: &'m Module, partition: &Partition) -> Self {
        let mut index = MemlocIndex::default();
        for reference in memlocs(module, partition) {
            let name = module.store.memlocs[reference.memloc].name();
            let entry = index.by_name.entry(name).or_default();
            if entry.is_empty() {
                index.names.push(name);
            }
            entry.push(reference);
        }
        index
    }

    /// Finds `name`: first in `prefer` (the counterpart function's sets), then anywhere in
    /// the partition, first in partition order.
    pub fn find(&self, name: &str, prefer: Option<Handle<Function>>) -> Option<MemlocRef> {
        let candidates = self.by_name.get(name)?;
        prefer
            .and_then(|function| candidates.iter().find(|c| c.function == function))
            .or_else(|| candidates.first())
            .copied()
    }

    /// Whether the partition has a location of that name.
    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Distinct names, in partition order.
    pub fn names(&self) -> &[&'m str] {
        &self.names
    }
}

/// The function of partition `to` (in `to_module`) that plays the role `function` plays
/// in `from` (in `from_module`): in the compiler's flows the function of the same name
/// (`sg0001` for `sg0001`); in the seeds' reading the core function for the core
/// function, `<to module>/<name>` for `<from module>/<name>`.
pub fn counterpart(
    (from_module, from): (&Module, &Partition),
    function: Handle<Function>,
    (to_module, to): (&Module, &Partition),
) -> Option<Handle<Function>> {
    let name = |module: &Module, f: Handle<Function>| module.store.functions[f].name().to_owned();
    if from.whole && to.whole {
        let wanted = name(from_module, function);
        return to.functions.iter().copied().find(|&f| name(to_module, f) == wanted);
    }
    if function == from.function {
        return Some(to.function);
    }
    let from_prefix = format!("{}/", name(from_module, from.function));
    let rest = name(from_module, function).strip_prefix(&from_prefix)?.to_owned();
    let wanted = format!("{}/{rest}", name(to_module, to.function));
    to.functions.iter().copied().find(|&f| name(to_module, f) == wanted)
}

/// `text` with every run of digits masked as `#` (`CoreBarrier-0_480` and
/// `CoreBarrier-0_180` both read `CoreBarrier-#_#`): the per-core and per-call counters
/// in names, for the comparison's `--normalize numbers` and `verify`'s hint that two
/// names differ only in their numbers.
pub fn mask_numbers(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    mask_numbers_into(text, &mut out);
    std::borrow::Cow::Owned(out)
}

/// [`mask_numbers`] written into `out` (emptied first): a caller masking many names
/// reuses one buffer.
pub fn mask_numbers_into(text: &str, out: &mut String) {
    out.clear();
    let mut in_digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
}

/// Names in `candidates` closest to `name`, best first (at most `limit`): small edits,
/// and names that one extends (`out` for `out_remote_1`, or the reverse).
pub fn nearest_names(name: &str, candidates: &[&str], limit: usize) -> Vec<String> {
    let mut scored: Vec<(usize, &str)> = candidates
        .iter()
        .filter(|c| **c != name && !c.is_empty())
        .filter_map(|c| {
            let extends = (c.len() >= 3 && (name.starts_with(*c) || name.ends_with(*c)))
                || (name.len() >= 3 && (c.starts_with(name) || c.ends_with(name)));
            if extends {
                return Some((c.len().abs_diff(name.len()).min(8), *c));
            }
            // Cheap filter first: names far apart in length cannot be close.
            if c.len().abs_diff(name.len()) > name.len().max(4) / 2 + 2 {
                return None;
            }
            let distance = strsim::damerau_levenshtein(name, c);
            (distance <= (name.len().max(c.len()) / 3).max(2)).then_some((distance, *c))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(limit).map(|(_, c)| c.to_owned()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_names_prefers_small_edits() {
        let candidates = ["out_tile", "out_tile_1", "weights", "out_tiles", "b"];
        assert_eq!(nearest_names("out_tile_0", &candidates, 3), vec!["out_tile_1", "out_tile", "out_tiles"]);
        assert_eq!(nearest_names("c_partial_0_remote_1", &["c_partial_0", "weights"], 3), vec!["c_partial_0"]);
        assert!(nearest_names("zzzzzzzz", &candidates, 3).is_empty());
    }
}
