//! What the reducer asks the worker: each channel is an [`Outbox`] holding the newest
//! request, and `hooks::use_worker` sends each new one.

use birlink_core::output::report::Unit;
use birlink_core::tools::query::EntityQuery;
use birlink_core::EntityKey;

use crate::protocol::Export;

/// The last request the reducer decided to send on one channel; `seq` grows with each,
/// so the effect that sends them sees every new one (and only the newest matters: a
/// new link set supersedes the last, a new selection the last selection).
#[derive(Clone, Debug, PartialEq)]
pub struct Outbox<T> {
    /// How many requests were posted.
    pub seq: u64,
    /// The newest.
    pub message: Option<T>,
}

impl<T> Default for Outbox<T> {
    fn default() -> Self {
        Outbox { seq: 0, message: None }
    }
}

impl<T> Outbox<T> {
    /// Posts a request: the newest, sent once.
    pub(crate) fn post(&mut self, message: T) {
        self.seq += 1;
        self.message = Some(message);
    }
}

/// A question about the current run.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    /// An entity's details.
    Entity(EntityQuery),
    /// The details of the entity a key names.
    EntityByKey(EntityKey),
    /// The link set as a link carries it.
    Share,
    /// The JSON at a place in an input file.
    Original {
        /// The file.
        file: String,
        /// The JSON pointer.
        pointer: String,
    },
    /// A unit's canonical text.
    Unit(Unit),
    /// Names across cores.
    Search(String),
    /// A file to download.
    Export(Export),
    /// Where a log's names are.
    Locate(String),
    /// Reduce the run's link set.
    Reduce,
    /// Stop reducing it.
    CancelReduce,
}

/// A question and the run it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The run.
    pub run: u64,
    /// The question.
    pub query: Query,
}
