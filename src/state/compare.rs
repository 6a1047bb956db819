//! The comparison of the two sides: how to compare (`normalize=`, `core-map=`), and the
//! comparison the worker made of the two sides' latest runs
//! (`birlink_core::tools::compare`, the JSON of `birlink diff`). The link set compared
//! against is a side like the shown one (`super::link_set`); what is here is only what
//! is about comparing them.

use std::rc::Rc;

use birlink_core::tools::compare::Comparison;
use birlink_core::tools::share::{CompareState, View};

use super::{LinkOp, Outbox, State};
use crate::side::Side;

/// A comparison, and the two runs it compares, compared by identity.
#[derive(Clone, Debug)]
pub struct ComparisonRef {
    /// A's run.
    pub a: u64,
    /// B's run.
    pub b: u64,
    /// The options it was made with.
    pub options: CompareState,
    /// The comparison.
    pub comparison: Rc<Comparison>,
}

impl PartialEq for ComparisonRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.comparison, &other.comparison)
    }
}

/// A comparison to make: the two runs, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareOrder {
    /// A's run.
    pub a: u64,
    /// B's run.
    pub b: u64,
    /// How.
    pub options: CompareState,
}

/// How the two sides are compared, and the comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Comparing {
    /// How the two are compared.
    pub options: CompareState,
    /// The latest comparison.
    pub comparison: Option<ComparisonRef>,
    /// Why the last comparison could not be made.
    pub failed: Option<String>,
    /// The comparison to ask the worker for.
    pub out: Outbox<CompareOrder>,
}

impl Comparing {
    /// A side's link set changed: the comparison of the last ones is not of these.
    pub(crate) fn forget(&mut self) {
        self.comparison = None;
        self.failed = None;
    }
}

/// The comparison's actions.
#[derive(Debug)]
pub enum CompareAction {
    /// Stop comparing: B's files are dropped.
    Close,
    /// Mask numbers in names, or not.
    SetNumbers(bool),
    /// A's core → B's core (a core not listed pairs with itself).
    SetCoreMap(Vec<(u64, u64)>),
    /// The worker compared two runs.
    Compared {
        /// A's run.
        a: u64,
        /// B's run.
        b: u64,
        /// The options it was made with.
        options: CompareState,
        /// The comparison, or why there is none.
        comparison: Result<Box<Comparison>, String>,
    },
    /// B becomes the link set the views show, and A the one compared against.
    Swap,
}

impl State {
    /// Whether there is a link set to compare against.
    pub fn comparing(&self) -> bool {
        self.sides[Side::Against].is_open()
    }

    /// Asks for the comparison of the two sides' latest runs, when both have finished.
    pub(crate) fn compare_again(&mut self) {
        let (Some(a), Some(b)) = (self.sides[Side::Shown].result_run(), self.sides[Side::Against].result_run()) else {
            return;
        };
        if !self.comparing() {
            return;
        }
        let options = self.compare.options.clone();
        if self.compare.comparison.as_ref().is_some_and(|c| c.a == a && c.b == b && c.options == options) {
            return;
        }
        self.compare.failed = None;
        self.compare.out.post(CompareOrder { a, b, options });
    }

    /// Applies a comparison action; false when it changes nothing (a stale answer).
    pub(super) fn apply_compare(&mut self, action: CompareAction) -> bool {
        match action {
            CompareAction::Close => {
                return self.apply_link(super::LinkAction { side: Side::Against, op: LinkOp::ClearFiles })
            }
            CompareAction::SetNumbers(numbers) => {
                if self.compare.options.numbers == numbers {
                    return false;
                }
                self.compare.options.numbers = numbers;
                self.compare_again();
            }
            CompareAction::SetCoreMap(map) => {
                let map: Vec<(u64, u64)> = map.into_iter().filter(|(a, b)| a != b).collect();
                if self.compare.options.core_map == map {
                    return false;
                }
                self.compare.options.core_map = map;
                self.compare_again();
            }
            CompareAction::Compared { a, b, options, comparison } => {
                let current = Some(a) == self.sides[Side::Shown].result_run()
                    && Some(b) == self.sides[Side::Against].result_run()
                    && options == self.compare.options;
                if !current {
                    return false;
                }
                match comparison {
                    Ok(comparison) => {
                        self.compare.comparison =
                            Some(ComparisonRef { a, b, options, comparison: Rc::from(comparison) });
                        self.compare.failed = None;
                    }
                    Err(why) => self.compare.failed = Some(why),
                }
            }
            CompareAction::Swap => {
                if !self.comparing() {
                    return false;
                }
                self.sides.swap();
                // A's core k was B's core map[k]: the map read the other way.
                let map = &mut self.compare.options.core_map;
                *map = map.iter().map(|&(a, b)| (b, a)).collect();
                map.sort_unstable();
                self.compare.comparison = None;
                self.clear_selection();
                self.step = self.default_step();
                self.search.reset();
                self.view = View::Compare;
                self.compare_again();
            }
        }
        true
    }
}

/// Shared by the samples menu and links: the other half of a sample pair, when the
/// samples index names one (`against`).
pub fn pair_of<'a>(samples: &'a [birlink_core::gen::samples::SampleInfo], file: &str) -> Option<&'a str> {
    samples.iter().find(|s| s.file == file).and_then(|s| s.against.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_maps_read_the_other_way_on_a_swap() {
        let mut state = State::default();
        state.compare.options.core_map = vec![(0, 1), (1, 2)];
        state.sides[Side::Against].link.files.push(crate::state::LoadedFile {
            id: 1,
            path: "b.json".into(),
            size: 1,
            blob: crate::state::FileBlob(None),
        });
        assert!(state.apply_compare(CompareAction::Swap));
        assert_eq!(state.compare.options.core_map, vec![(1, 0), (2, 1)]);
        assert_eq!(state.view, View::Compare);
        assert_eq!(state.sides[Side::Shown].link.files.len(), 1, "B's files are now the ones shown");
    }
}
