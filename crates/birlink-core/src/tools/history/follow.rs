//! One entity through the passes with no pass table (`birlink history --entity NAME
//! --no-table`): each dump is read for the entities so named alone.
//!
//! An entity's line depends on its own fields only (`output::print`), and an
//! instruction's name is its own `name` string (the empty name when it has none: then
//! every instruction is read), so an instruction whose text holds
//! neither the name as JSON writes it (`"NAME"`, escapes included) nor an escape that
//! could spell it otherwise (`\u`, `\/`) is not one of them: the reader passes over it
//! by its brackets and strings alone (`read::json::read_keeping`), and reads the rest of
//! the module — functions, blocks, sets, locations, queues, instances and the
//! instructions that may be named so — as it always does. The summary is then
//! [`Summary::of_entity`]'s: the named entities' keys, lines and hashes, what
//! [`Summary::of`] holds of them, so the history is the one a full reading gives (a
//! test compares them on every work directory of the suite). A text the reader leaves
//! (not JSON, not UTF-8, a bundle) is read whole, as the pass table reads it.

use std::sync::Arc;

use memchr::memmem::Finder;

use super::summary::Summary;
use crate::model::ir::FileId;
use crate::read::input::Content;
use crate::read::json::{self, Document};
use crate::read::load::Spare;

/// What an entity's history looks for in an instruction's text.
pub(super) struct Follow {
    name: String,
    /// The name as JSON writes it, quoted; `None` for the empty name, which an
    /// instruction with no `name` (or not a string) has: every instruction may be so.
    quoted: Option<Finder<'static>>,
    /// Buffers a dump was read into, for the next dump (the loader's own kind): its
    /// bytes then land in pages already the process's.
    spare: Spare,
}

impl Follow {
    /// The search for `name`; `None` when it cannot be built (the whole dump is then
    /// read).
    pub(super) fn new(name: &str, threads: usize) -> Option<Follow> {
        let quoted = serde_json::to_string(name).ok()?;
        Some(Follow {
            name: name.to_owned(),
            quoted: (!name.is_empty()).then(|| Finder::new(quoted.as_bytes()).into_owned()),
            spare: Spare::new(threads),
        })
    }

    /// Whether an instruction's text may carry the name: it holds the name quoted, or
    /// an escape that could spell it otherwise (`\u`, `\/`).
    fn maybe_named(&self, inst: &[u8]) -> bool {
        let Some(quoted) = &self.quoted else { return true };
        quoted.find(inst).is_some()
            || memchr::memchr_iter(b'\\', inst).any(|at| matches!(inst.get(at + 1), Some(b'u' | b'/')))
    }

    /// A dump summed up for the entity; `whole` reads it as the pass table does, for
    /// a text the keeping reader leaves.
    pub(super) fn read(
        &self,
        content: Content,
        core: u64,
        whole: impl FnOnce(Content) -> Result<(Summary, Vec<(String, String)>), String>,
    ) -> Result<(Summary, Vec<(String, String)>), String> {
        let bytes = match content {
            Content::Bytes(bytes) => bytes,
            Content::Unreadable(why) => return Err(why),
            Content::Later { reader, len } => {
                let mut bytes = self.spare.take(len).unwrap_or_default();
                bytes.clear();
                bytes.reserve(usize::try_from(len).unwrap_or(0));
                reader.read_into(&mut bytes)?;
                bytes
            }
        };
        let text = match String::from_utf8(bytes) {
            Ok(text) => Arc::new(text),
            Err(error) => return whole(Content::Bytes(error.into_bytes())),
        };
        let keep = |inst: &[u8]| self.maybe_named(inst);
        let summed = match json::read_keeping(&text, FileId(0), &keep) {
            Some(Document::Module(module, _)) => Some(Summary::of_entity(*module, Some(core), &self.name)),
            _ => None,
        };
        match summed {
            // The module is gone: the text is a spare buffer again.
            Some(summed) => {
                self.spare.give(text);
                Ok(summed)
            }
            None => {
                let bytes = Arc::try_unwrap(text).unwrap_or_else(|shared| String::clone(&shared)).into_bytes();
                whole(Content::Bytes(bytes))
            }
        }
    }
}
