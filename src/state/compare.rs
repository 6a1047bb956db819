//! The link set compared against (B): its files and runs — a second [`LinkSet`], linked
//! by the same worker, which keeps both runs — how to compare (`normalize=`,
//! `core-map=`), and the comparison the worker made of the two
//! (`birlink_core::tools::compare`, the JSON of `birlink diff`).
//!
//! Runs of both link sets take their numbers from one counter, so an answer about a
//! run finds its link set by number ([`State::side_of`]), and swapping the two sides
//! is a swap in the page alone: the worker answers about either run by its number.

use std::rc::Rc;

use birlink_core::tools::compare::Comparison;
use birlink_core::tools::share::{CompareState, View};
use birlink_core::EntityKey;

use super::{Ask, LinkOrder, LinkSet, Outbox, PickedFile, RunRef, Source, State, Status};

/// Which of the two link sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Side {
    /// The link set the views show (A).
    #[default]
    Shown,
    /// The link set it is compared against (B).
    Against,
}

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

/// The link set compared against, and the comparison.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Against {
    /// B's link set: its files, LNC and runs.
    pub link: LinkSet,
    /// B's latest finished run.
    pub result: Option<RunRef>,
    /// How the two are compared.
    pub options: CompareState,
    /// The latest comparison.
    pub comparison: Option<ComparisonRef>,
    /// Why the last comparison could not be made.
    pub failed: Option<String>,
    /// The comparison to ask the worker for.
    pub out: Outbox<CompareOrder>,
    /// B's link set as a link carries it (`against-data=`), when known.
    pub data: Option<String>,
    /// Whether `data` belongs in the page's own URL (B came from a link).
    pub data_in_url: bool,
    /// Why B does not go in a link, once the worker said so.
    pub data_error: Option<String>,
    /// Share's question about B.
    pub share_out: Outbox<Ask>,
    /// B's link data (`against-data=`) to read in the worker, with `against-lnc=`.
    pub decode: Outbox<(String, Option<u64>)>,
}

impl Against {
    /// Whether there is a link set to compare against.
    pub fn is_open(&self) -> bool {
        !self.link.files.is_empty()
    }
}

/// The comparison's actions.
#[derive(Debug)]
pub enum CompareAction {
    /// Add files to B (the first replace a link set the page opened).
    AddFiles(Vec<PickedFile>),
    /// Replace B (a sample, a URL).
    ReplaceFiles {
        /// The files.
        files: Vec<PickedFile>,
        /// The sample's file name, when it is one.
        sample: Option<String>,
    },
    /// B came with a link (`against-data=`): the worker reads it.
    OpenLink {
        /// The `data=` text.
        data: String,
        /// The query's LNC for B (`against-lnc=`).
        lnc: Option<u64>,
    },
    /// B's link data, read by the worker.
    OpenData {
        /// The files.
        files: Vec<PickedFile>,
        /// The LNC it carries.
        lnc: Option<u64>,
        /// The text.
        data: String,
    },
    /// Drop one of B's files.
    RemoveFile(u64),
    /// Close B.
    Close,
    /// Set B's `vnc_nc_count` (`None`: automatic).
    SetLnc(Option<u64>),
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
    /// Show an entity of B in the details panel, by key.
    SelectAgainst(EntityKey),
    /// Show an entity of B in the details panel, by what names it (a diagnostic's).
    SelectAgainstEntity(birlink_core::tools::query::EntityQuery),
}

impl State {
    /// A new run number, unique across both link sets.
    pub(crate) fn next_run(&mut self) -> u64 {
        self.runs += 1;
        self.runs
    }

    /// Which link set a run number belongs to (its latest run), if either.
    pub(crate) fn side_of(&self, run: u64) -> Option<Side> {
        if run == self.link.run {
            Some(Side::Shown)
        } else if self.against.link.run == run && self.against.is_open() {
            Some(Side::Against)
        } else {
            None
        }
    }

    /// The other side's latest run, whose worker session is kept while this side
    /// relinks: read when the link is sent (after its delay), so a run the other side
    /// asked for meanwhile is the one kept. The worker takes requests in order: a run
    /// asked for before is there by then, or comes later and keeps this one in turn.
    pub(crate) fn kept_run(&self, side: Side) -> Option<u64> {
        match side {
            Side::Shown => Some(self.against.link.run).filter(|&run| run > 0 && self.against.is_open()),
            Side::Against => Some(self.link.run).filter(|&run| run > 0 && !self.link.files.is_empty()),
        }
    }

    /// Posts a link of B's files.
    pub(crate) fn relink_against(&mut self) {
        self.against.data = None;
        self.against.data_in_url = false;
        self.against.data_error = None;
        self.share.dialog = None;
        self.against.comparison = None;
        self.against.failed = None;
        if self.against.link.files.is_empty() {
            self.against.link.status = Status::Idle;
            self.against.link.out.message = None;
            self.against.link.source = Source::None;
            self.against.result = None;
            return;
        }
        let run = self.next_run();
        let delay_ms = if self.against.link.run == 0 { 0 } else { 120 };
        let link = &mut self.against.link;
        let (files, lnc, workdir) = link.take_for_link();
        link.run = run;
        link.status = Status::Running { phase: "starting".to_owned(), done: 0, total: 1 };
        link.out.post(LinkOrder { run, files, lnc, delay_ms, workdir });
    }

    /// Asks for the comparison of the two latest runs, when both have finished.
    pub(crate) fn compare_again(&mut self) {
        let (Some(a), Some(b)) = (self.result_run(), self.against.result.as_ref().map(|r| r.run)) else { return };
        if !self.against.is_open() {
            return;
        }
        let options = self.against.options.clone();
        if self.against.comparison.as_ref().is_some_and(|c| c.a == a && c.b == b && c.options == options) {
            return;
        }
        self.against.failed = None;
        self.against.out.post(CompareOrder { a, b, options });
    }

    /// A run of B finished.
    pub(crate) fn against_linked(&mut self, result: RunRef) {
        self.against.result = Some(result);
        self.against.link.status = Status::Done;
        self.compare_again();
    }

    /// Applies a comparison action; false when it changes nothing (a stale answer).
    pub(super) fn apply_compare(&mut self, action: CompareAction) -> bool {
        match action {
            CompareAction::AddFiles(files) => {
                if self.against.link.replace_on_add {
                    self.against.link.files.clear();
                    self.against.link.replace_on_add = false;
                }
                self.against.link.open_sample = None;
                self.against.link.source = Source::User;
                self.against.link.add(files);
                self.view = View::Compare;
                self.relink_against();
            }
            CompareAction::ReplaceFiles { files, sample } => {
                self.against.link.replace(files, Source::Link);
                self.against.link.open_sample = sample;
                self.view = View::Compare;
                self.relink_against();
            }
            CompareAction::OpenLink { data, lnc } => {
                self.against.link.status =
                    Status::Running { phase: "reading the link's data".to_owned(), done: 0, total: 1 };
                self.against.decode.post((data, lnc));
            }
            CompareAction::OpenData { files, lnc, data } => {
                self.against.link.replace(files, Source::Link);
                self.against.link.open_sample = None;
                self.against.link.lnc = lnc;
                self.relink_against();
                self.against.data = Some(data);
                self.against.data_in_url = true;
            }
            CompareAction::RemoveFile(id) => {
                self.against.link.files.retain(|f| f.id != id);
                self.against.link.open_sample = None;
                self.relink_against();
            }
            CompareAction::Close => {
                self.against.link.files.clear();
                self.against.link.open_sample = None;
                self.against.link.after = None;
                self.relink_against();
                if matches!(self.details.side, Side::Against) {
                    self.clear_selection();
                }
            }
            CompareAction::SetLnc(lnc) => {
                self.against.link.lnc = lnc.filter(|n| (1..=birlink_core::limits::MAX_LNC).contains(n));
                self.relink_against();
            }
            CompareAction::SetNumbers(numbers) => {
                if self.against.options.numbers == numbers {
                    return false;
                }
                self.against.options.numbers = numbers;
                self.compare_again();
            }
            CompareAction::SetCoreMap(map) => {
                let map: Vec<(u64, u64)> = map.into_iter().filter(|(a, b)| a != b).collect();
                if self.against.options.core_map == map {
                    return false;
                }
                self.against.options.core_map = map;
                self.compare_again();
            }
            CompareAction::Compared { a, b, options, comparison } => {
                let current = Some(a) == self.result_run()
                    && self.against.result.as_ref().is_some_and(|r| r.run == b)
                    && options == self.against.options;
                if !current {
                    return false;
                }
                match comparison {
                    Ok(comparison) => {
                        self.against.comparison =
                            Some(ComparisonRef { a, b, options, comparison: Rc::from(comparison) });
                        self.against.failed = None;
                    }
                    Err(why) => self.against.failed = Some(why),
                }
            }
            CompareAction::Swap => {
                if !self.against.is_open() {
                    return false;
                }
                std::mem::swap(&mut self.link, &mut self.against.link);
                std::mem::swap(&mut self.result, &mut self.against.result);
                let (data, in_url, error) = (self.share.data.take(), self.share.data_in_url, self.share.error.take());
                self.share.forget_data();
                if let Some(against) = self.against.data.take() {
                    self.share.know_data(against, self.against.data_in_url);
                }
                self.share.error = self.against.data_error.take();
                self.against.data = data;
                self.against.data_in_url = in_url;
                self.against.data_error = error;
                // A's core k was B's core map[k]: the map read the other way.
                let map = &mut self.against.options.core_map;
                *map = map.iter().map(|&(a, b)| (b, a)).collect();
                map.sort_unstable();
                self.against.comparison = None;
                self.clear_selection();
                self.step = self.default_step();
                self.search.reset();
                self.view = View::Compare;
                self.compare_again();
            }
            CompareAction::SelectAgainst(key) => self.select_key_against(key),
            CompareAction::SelectAgainstEntity(query) => {
                self.select_on(Side::Against, super::Selection::Entity(query));
                self.details.by_user = true;
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
        state.against.options.core_map = vec![(0, 1), (1, 2)];
        state.against.link.files.push(crate::state::LoadedFile {
            id: 1,
            path: "b.json".into(),
            size: 1,
            blob: crate::state::FileBlob(None),
        });
        assert!(state.apply_compare(CompareAction::Swap));
        assert_eq!(state.against.options.core_map, vec![(1, 0), (2, 1)]);
        assert_eq!(state.view, View::Compare);
        assert_eq!(state.link.files.len(), 1, "B's files are now the ones shown");
    }
}
