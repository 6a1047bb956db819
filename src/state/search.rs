//! The search box: the text typed, the worker's hits for it, the highlighted one.
//!
//! Hits are kept with the text they answer ([`Search::hits_for`]): while the answer to
//! the text now typed has not come, the list shows nothing to choose, so Enter never
//! opens a hit of an older text.

use birlink_core::tools::query::SearchHit;

use super::{Ask, Outbox, Query, State};

/// The search box.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Search {
    /// The text typed.
    pub text: String,
    /// The latest hits the worker sent, and the text they answer.
    hits: Vec<SearchHit>,
    hits_for: String,
    /// Whether the result list is open.
    pub open: bool,
    /// Highlighted result.
    pub cursor: usize,
    /// The box's question to the worker.
    pub out: Outbox<Ask>,
}

impl Search {
    /// The hits for the text typed: empty until the worker has answered it.
    pub fn hits(&self) -> &[SearchHit] {
        if self.hits_for == self.text {
            &self.hits
        } else {
            &[]
        }
    }

    /// Whether the answer to the text typed is still to come.
    pub fn searching(&self) -> bool {
        self.hits_for != self.text && !self.text.trim().is_empty()
    }

    /// A new run: the box starts empty (its requests keep their count).
    pub(crate) fn reset(&mut self) {
        *self = Search { out: std::mem::take(&mut self.out), ..Search::default() };
    }

    /// The highlighted hit, if the list has one.
    pub fn chosen(&self) -> Option<&SearchHit> {
        self.hits().get(self.cursor)
    }
}

/// The search box's actions.
#[derive(Debug)]
pub enum SearchAction {
    /// The search text changed.
    Text(String),
    /// The worker answered a search.
    Results {
        /// The run.
        run: u64,
        /// What was searched.
        text: String,
        /// The hits.
        hits: Vec<SearchHit>,
    },
    /// Move the highlighted result.
    Cursor(isize),
    /// Close the result list.
    Close,
}

impl State {
    /// Applies a search action; false when it changes nothing (a stale answer).
    pub(super) fn apply_search(&mut self, action: SearchAction) -> bool {
        let result_run = self.result_run();
        let search = &mut self.search;
        match action {
            SearchAction::Text(text) => {
                search.open = !text.trim().is_empty();
                search.cursor = 0;
                if let (Some(run), false) = (result_run, text.trim().is_empty()) {
                    search.out.post(Ask { run, query: Query::Search(text.clone()) });
                }
                search.text = text;
            }
            SearchAction::Results { run, text, hits } => {
                if text != search.text || Some(run) != result_run {
                    return false;
                }
                search.hits = hits;
                search.hits_for = text;
                search.cursor = 0;
            }
            SearchAction::Cursor(delta) => {
                let n = search.hits().len();
                if n > 0 {
                    search.cursor = (search.cursor as isize + delta).rem_euclid(n as isize) as usize;
                }
            }
            SearchAction::Close => search.open = false,
        }
        true
    }
}
