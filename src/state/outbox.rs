//! What the reducer asks the worker (and tells a host): a channel where only the newest
//! request matters is an [`Outbox`] (a new link set supersedes the last, a new selection
//! the last selection); a channel where every message must go, in order, is a
//! [`Mailbox`] (both sides' share questions, both sides' link data to read, a host's
//! answers). `hooks::use_worker` and `hooks::use_messages` send each new one once.

use birlink_core::output::report::ModuleUnit;
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

/// Messages to send, in order; each has a number so the hook that sends them sends each
/// once (several can come from one action, or from actions handled in one render).
#[derive(Clone, Debug, PartialEq)]
pub struct Mailbox<T> {
    /// The number of the last message.
    pub seq: u64,
    /// The latest messages with their numbers (older ones are sent and dropped).
    pub messages: Vec<(u64, T)>,
}

impl<T> Default for Mailbox<T> {
    fn default() -> Self {
        Mailbox { seq: 0, messages: Vec::new() }
    }
}

impl<T> Mailbox<T> {
    /// How many messages are kept for the hook that sends them: it sends after every
    /// render, and no render handles more actions than this posts.
    const KEPT: usize = 32;

    /// Posts a message.
    pub(crate) fn post(&mut self, message: T) {
        self.seq += 1;
        self.messages.push((self.seq, message));
        let excess = self.messages.len().saturating_sub(Self::KEPT);
        self.messages.drain(..excess);
    }

    /// The messages after `sent`, in order.
    pub fn after(&self, sent: u64) -> impl Iterator<Item = &(u64, T)> {
        self.messages.iter().filter(move |(seq, _)| *seq > sent)
    }
}

/// A link's data to read (`data=`, `against-data=`): the worker reads it into files,
/// and its answer names the run it was asked for, which is the side's.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodeOrder {
    /// The run the side is at while its data is read.
    pub run: u64,
    /// The data.
    pub data: String,
    /// The query's LNC, which wins over the data's.
    pub lnc: Option<u64>,
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
    Unit(ModuleUnit),
    /// Names across cores.
    Search(String),
    /// A file to download.
    Export(Export),
    /// Where a log's names are.
    Locate(String),
    /// A log file's JSON, to download (the run is 0 when none is shown).
    LogJson {
        /// Its name.
        path: String,
        /// Its bytes.
        blob: super::FileBlob,
    },
    /// Read a log file (the run is 0 when none is shown).
    ReadLog {
        /// Which log of the page's.
        seq: u64,
        /// Its name.
        path: String,
        /// Its bytes.
        blob: super::FileBlob,
    },
    /// Reduce the run's link set.
    Reduce,
    /// Replay the sync check's execution to a step (the Sync view).
    Replay(u64),
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
