//! Where did the cores part? A work directory's dumps after every pass
//! (`bir_debug.<n>.after-<pass>…json`, per module), each pass with what it changed, the
//! first pass after which a subgraph's cores differ in a way they did not before, and
//! one entity through all of them (`birlink history`, docs/spec/history.md).
//!
//! Dumps are read one at a time and summed up ([`summary`]): a module's entities by key
//! with a hash of their canonical lines, and the facts its cores must agree on. Only the
//! last summary of each module is held, so memory is one dump's plus the summaries.
//!
//! **birlink's reading.** Passes run in the log's order when a log is given, else in
//! the order of their dumps' `<n>`. An entity is matched across passes by kind and key;
//! one a pass renamed (gone under its key, a new key of its kind in the same function,
//! the same number of each) is matched by its place in that function: counted once as
//! `renamed`, not as removed and added. The cores of one subgraph are compared with
//! numbers masked in names (per-core suffixes), without remote views (a core's view of
//! another's memory is its own by nature) and without core ids; what differs in a
//! subgraph's first dump is its `baseline`, and a pass is a parting when a difference
//! appears after it that the pass before it did not have.

pub mod diff;
mod follow;
mod summary;

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::place::{Place, Slot};
use crate::read::input::{Content, Role, SourceFile};
use crate::read::load::{load, LoadOptions};
use crate::read::workdir::{self, Dump};
use crate::tools::log::LogReading;

use summary::Summary;

/// What to follow besides the pass table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryOptions {
    /// An entity's name to follow through every pass.
    pub entity: Option<String>,
    /// Only this core's modules.
    pub core: Option<u64>,
    /// Only this subgraph's modules.
    pub subgraph: Option<u32>,
    /// Dumps read at once, each on its own thread where threads may be spawned (not in
    /// wasm); 0 or 1: one at a time. The outcome does not depend on it.
    pub threads: usize,
    /// With `entity`: follow it alone, with no pass table (`passes` lists the passes
    /// with no module rows; no `baseline`, no `parted`): each dump is read for the
    /// instructions that may carry its name ([`follow`]). Its history is the same.
    pub no_table: bool,
}

/// `birlink history --format json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// The passes, in the order they ran, each with what it changed per module.
    pub passes: Vec<PassRow>,
    /// Per subgraph, what differs between its cores in its first dump.
    pub baseline: Vec<Parting>,
    /// Per subgraph and in pass order, each pass after which a difference appears
    /// between the cores that the pass before did not have.
    pub parted: Vec<Parting>,
    /// The entity followed, when one was asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<EntityHistory>,
    /// Dumps that could not be read, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unread: Vec<Unread>,
    /// The entity was followed alone ([`HistoryOptions::no_table`]): no module rows,
    /// baseline or partings were made.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_table: bool,
}

/// One pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassRow {
    /// The pass.
    pub name: String,
    /// Its place in the order (0-based).
    pub index: usize,
    /// Each module it was dumped for.
    pub changed: Vec<ModuleChange>,
}

/// What one pass did to one module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleChange {
    /// The module (`nc00/sg00`).
    pub module: String,
    /// `first`, `changed` or `unchanged`.
    pub state: ModuleState,
    /// Entities added, by kind.
    pub added: BTreeMap<EntityKind, usize>,
    /// Entities removed, by kind.
    pub removed: BTreeMap<EntityKind, usize>,
    /// Entities changed, by kind.
    pub changed: BTreeMap<EntityKind, usize>,
    /// Entities renamed (matched by their place), by kind.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub renamed: BTreeMap<EntityKind, usize>,
    /// The dump's path.
    pub file: String,
}

/// A module's state after a pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ModuleState {
    /// Its first dump.
    #[default]
    First,
    /// Something differs from its previous dump.
    Changed,
    /// Nothing does.
    Unchanged,
}

/// What differs between a subgraph's cores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parting {
    /// The subgraph.
    pub subgraph: u32,
    /// The pass after which it shows (the first dumped, for a baseline).
    pub pass: String,
    /// Entities on some cores only.
    pub only_on: Vec<OnlyOn>,
    /// Facts whose numbers differ between the cores.
    pub counts: Vec<CountsDiffer>,
}

/// An entity some cores have and others lack.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct OnlyOn {
    /// A core that has it.
    pub core: u64,
    /// Its kind.
    pub kind: EntityKind,
    /// Its name.
    pub name: String,
}

/// A fact whose numbers differ between the cores.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CountsDiffer {
    /// What it is (`instructions before each CoreBarrier of sg0000 on SP`).
    pub what: String,
    /// Per core, its numbers (`null`: no static count).
    pub values: Vec<(u64, Vec<Option<u64>>)>,
}

/// An entity through every pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityHistory {
    /// Its name.
    pub name: String,
    /// Per pass, core and subgraph, its state.
    pub history: Vec<EntityState>,
    /// Per core, the last pass it was seen after.
    pub last_seen: Vec<(u64, Option<String>)>,
}

/// An entity's state in one module after one pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityState {
    /// The pass.
    pub pass: String,
    /// The core.
    pub core: u64,
    /// The subgraph (`None`: the linked module).
    pub subgraph: Option<u32>,
    /// `first`, `added`, `changed`, `unchanged`, `removed` or `absent`.
    pub state: String,
    /// Its canonical line(s) there, when it is there and differs from before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub text: Vec<String>,
}

/// A dump that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unread {
    /// Its path.
    pub file: String,
    /// Why.
    pub why: String,
}

/// The name to follow from what the user gave: a name, or a pasted compiler error
/// (`[NCC_ILLC059] Could not find MemoryLocation named X on core 1`), whose first
/// quoted name is taken (the log reader's shapes, `tools::log::read`).
pub fn entity_of(given: &str) -> String {
    let found = crate::tools::log::read(given);
    found.into_iter().find_map(|f| f.mentions.into_iter().next()).map_or_else(|| given.trim().to_owned(), |m| m.name)
}

/// The passes of the dumps among `paths`, in the order they ran: `ran`'s (the log's
/// passes, by each pass's first run) for those it names, else the dumps' `<n>`; with
/// each pass's dumps.
fn passes_in_order(paths: &[String], ran: &[String], options: &HistoryOptions) -> Vec<(String, Vec<(usize, Dump)>)> {
    let mut by_pass: BTreeMap<String, Vec<(usize, Dump)>> = BTreeMap::new();
    for (i, path) in paths.iter().enumerate() {
        let Some(dump) = workdir::dump_of(path) else { continue };
        if options.core.is_some_and(|c| dump.core() != c) {
            continue;
        }
        if options.subgraph.is_some_and(|s| dump.place.slot != Slot::Subgraph(crate::model::place::SubgraphId(s))) {
            continue;
        }
        by_pass.entry(dump.after.clone()).or_default().push((i, dump));
    }
    let ran = |name: &str| ran.iter().position(|p| p == name);
    let mut passes: Vec<(String, Vec<(usize, Dump)>)> = by_pass.into_iter().collect();
    passes.sort_by_key(|(name, dumps)| {
        let ordinal = dumps.iter().filter_map(|(_, d)| d.ordinal).min().unwrap_or(u64::MAX);
        (ran(name).unwrap_or(usize::MAX), ordinal, name.clone())
    });
    for (_, dumps) in &mut passes {
        dumps.sort_by_key(|(_, d)| d.place);
    }
    passes
}

/// A dump summed up, or why it could not be.
type Summed = Result<(Summary, Vec<(String, String)>), String>;

/// The dumps of a chunk summed up, in the chunk's order: each on its own thread when
/// there are several and threads may be spawned (not in wasm), else one after another.
fn sum_up(
    chunk: &[(usize, Dump)],
    contents: Vec<Content>,
    paths: &[String],
    entity: Option<&str>,
    follow: Option<&follow::Follow>,
) -> Vec<Summed> {
    let one = |(i, d): &(usize, Dump), c: Content| match follow {
        Some(follow) => follow.read(c, d.core(), |c| read(&paths[*i], c, d.core(), entity)),
        None => read(&paths[*i], c, d.core(), entity),
    };
    if cfg!(target_arch = "wasm32") || chunk.len() < 2 {
        return chunk.iter().zip(contents).map(|(dump, c)| one(dump, c)).collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunk.iter().zip(contents).map(|(dump, c)| scope.spawn(move || one(dump, c))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// Reads one dump into a summary, or says why it cannot.
fn read(
    path: &str,
    content: Content,
    core: u64,
    entity: Option<&str>,
) -> Result<(Summary, Vec<(String, String)>), String> {
    let mut diags: Vec<Diagnostic> = Vec::new();
    let file = SourceFile { path: path.to_owned(), content, role: Role::Auto };
    let set = load(vec![file], &LoadOptions::default(), &mut diags);
    let Some(module) = set.modules.into_iter().next() else {
        let why = diags
            .first()
            .map_or_else(|| "no module in it".to_owned(), |d| format!("{}: {}", d.code.as_str(), d.message));
        return Err(why);
    };
    Ok(Summary::of(module.module, Some(core), entity))
}

/// Every pass of a work directory's dumps with what it changed, where the cores parted
/// and, when asked, one entity's history. `paths` are the directory's files (relative,
/// `/`-separated); `content` gives a file's content by index, asked once per dump (and
/// once more for a module's previous dump when the next has its length, to compare
/// their bytes), one at a time, best as `Content::Later` (the loader then reads it in
/// chunks: nothing holds more than the dump being read and the summaries); `log`
/// orders the passes when given. A dump that is its module's previous dump again — the
/// same length and 128-bit digest: its pass changed nothing — is not read (birlink's
/// reading: the digest stands for the bytes).
pub fn history(
    paths: &[String],
    content: &mut dyn FnMut(usize) -> Content,
    log: Option<&LogReading>,
    options: &HistoryOptions,
) -> History {
    let mut run = HistoryRun::new(paths.to_vec(), log, options);
    while run.step(content) {}
    run.finish()
}

/// A history made a pass at a time ([`history`] runs it to the end): the page's worker
/// runs a pass, says how far it is, and reads its messages (a Cancel) before the next.
pub struct HistoryRun {
    paths: Vec<String>,
    /// The passes in order, each with its dumps.
    passes: Vec<(String, Vec<(usize, Dump)>)>,
    /// The next pass to read.
    next: usize,
    /// The name followed, read from what was given.
    entity: Option<String>,
    /// The search for it, when it is followed alone (no pass table).
    follow: Option<follow::Follow>,
    threads: usize,
    out: History,
    /// Each module's last summary.
    last: BTreeMap<Place, Summary>,
    /// Per subgraph: the differences between its cores after the pass before.
    between: BTreeMap<u32, (BTreeSet<OnlyOn>, BTreeSet<CountsDiffer>)>,
    followed: Vec<EntityState>,
    last_seen: BTreeMap<u64, Option<String>>,
    /// Each module's last dump: its index, length and digest (when its bytes were read
    /// whole: [`Fingerprint`]).
    fingerprints: BTreeMap<Place, Fingerprint>,
    /// Dumps not read: each its module's last dump again.
    unchanged: usize,
}

/// What identifies a module's last dump's bytes: a dump of the same length and digest
/// is the same dump again (its pass changed nothing), and is not read.
#[derive(Clone, Copy, Debug)]
struct Fingerprint {
    /// The dump's index among the paths (to read it again for its digest).
    index: usize,
    len: u64,
    /// Its bytes' digest, once they were read whole.
    digest: Option<(u64, u64)>,
}

/// A 128-bit digest of bytes, fed chunk by chunk (two 64-bit multiply-rotate lanes
/// over 8-byte words, each with a final mix): what [`Fingerprint`] compares. Not
/// cryptographic: it tells a dump from the one before it, which no one crafts.
struct Digest {
    a: u64,
    b: u64,
    len: u64,
    /// The bytes of a word not yet whole.
    pending: [u8; 8],
    filled: usize,
}

impl Digest {
    const K1: u64 = 0x9e37_79b9_7f4a_7c15;
    const K2: u64 = 0xc2b2_ae3d_27d4_eb4f;

    fn new() -> Digest {
        Digest { a: Digest::K1, b: Digest::K2, len: 0, pending: [0; 8], filled: 0 }
    }

    fn word(&mut self, w: u64) {
        self.a = (self.a.rotate_left(5) ^ w).wrapping_mul(Digest::K1);
        self.b = (self.b.rotate_left(29) ^ w).wrapping_mul(Digest::K2);
    }

    fn update(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.filled = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for chunk in &mut words {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.word(u64::from_le_bytes(word));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    fn finish(mut self) -> (u64, u64) {
        let mut last = [0u8; 8];
        last[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        self.word(u64::from_le_bytes(last) ^ self.len);
        (summary::stable_hash(&self.a.to_le_bytes()), summary::stable_hash(&self.b.to_le_bytes()))
    }

    /// The digest of a content's bytes, read chunk by chunk (never held whole).
    fn of(content: Content) -> Result<(u64, u64), String> {
        let mut digest = Digest::new();
        match content {
            Content::Bytes(bytes) => digest.update(&bytes),
            Content::Unreadable(why) => return Err(why),
            Content::Later { reader, .. } => reader.each_chunk(&mut |chunk| digest.update(chunk))?,
        }
        Ok(digest.finish())
    }
}

impl HistoryRun {
    /// A run over `paths` (see [`history`]); nothing is read yet.
    pub fn new(paths: Vec<String>, log: Option<&LogReading>, options: &HistoryOptions) -> HistoryRun {
        let ran: Vec<String> = log.map(|l| l.run.passes.iter().map(|p| p.name.clone()).collect()).unwrap_or_default();
        HistoryRun::in_order(paths, &ran, options)
    }

    /// A run over `paths` whose passes ran in `ran`'s order (a log's passes, as the page
    /// holds them), those it does not name by their dumps' `<n>`.
    pub fn in_order(paths: Vec<String>, ran: &[String], options: &HistoryOptions) -> HistoryRun {
        let passes = passes_in_order(&paths, ran, options);
        let entity = options.entity.as_deref().map(entity_of);
        let threads = options.threads.max(1);
        let follow = entity.as_deref().filter(|_| options.no_table).and_then(|name| follow::Follow::new(name, threads));
        HistoryRun {
            paths,
            passes,
            next: 0,
            entity,
            follow,
            threads,
            out: History::default(),
            last: BTreeMap::new(),
            between: BTreeMap::new(),
            followed: Vec::new(),
            last_seen: BTreeMap::new(),
            fingerprints: BTreeMap::new(),
            unchanged: 0,
        }
    }

    /// How many dumps were not read so far, each being its module's last dump again
    /// (the same length and digest: its pass changed nothing).
    pub fn unchanged_dumps(&self) -> usize {
        self.unchanged
    }

    /// A dump's content, or `None` when it is its module's last dump again (the same
    /// length and digest: only then are its bytes, and the last dump's, read for their
    /// digests). Its fingerprint is kept either way.
    fn unless_unchanged(
        &mut self,
        index: usize,
        place: Place,
        content: &mut dyn FnMut(usize) -> Content,
    ) -> Option<Content> {
        let this = content(index);
        let len = this.len();
        let last = self.fingerprints.get(&place).copied();
        let mut fingerprint = Fingerprint { index, len, digest: None };
        let same_len = last.filter(|last| last.len == len && len > 0);
        let Some(last) = same_len else {
            self.fingerprints.insert(place, fingerprint);
            return Some(this);
        };
        // Both digests read chunk by chunk: no dump is held for them; one that differs
        // is asked for again and read as any.
        let now = match Digest::of(this) {
            Ok(now) => now,
            Err(why) => return Some(Content::Unreadable(why)),
        };
        fingerprint.digest = Some(now);
        self.fingerprints.insert(place, fingerprint);
        let before = last.digest.or_else(|| Digest::of(content(last.index)).ok());
        (before != Some(now)).then(|| content(index))
    }

    /// The passes dumped.
    pub fn total(&self) -> usize {
        self.passes.len()
    }

    /// The passes read so far.
    pub fn done(&self) -> usize {
        self.next
    }

    /// The pass read next, when one is left.
    pub fn next_pass(&self) -> Option<&str> {
        self.passes.get(self.next).map(|(name, _)| name.as_str())
    }

    /// Reads the next pass's dumps and compares them; whether a pass is left.
    pub fn step(&mut self, content: &mut dyn FnMut(usize) -> Content) -> bool {
        let Some((pass, dumps)) = self.passes.get(self.next).cloned() else { return false };
        let index = self.next;
        self.next += 1;
        let entity = self.entity.clone();
        let entity = entity.as_deref();
        let mut row = PassRow { name: pass.clone(), index, changed: Vec::new() };
        let mut now: BTreeMap<Place, Summary> = BTreeMap::new();
        let mut summed = Vec::with_capacity(dumps.len());
        // A dump that is its module's last again is that dump's summary again; the
        // others are read, `threads` at a time, each asked for just before it is read.
        for chunk in dumps.chunks(self.threads) {
            let mut to_read = Vec::with_capacity(chunk.len());
            let mut contents = Vec::with_capacity(chunk.len());
            for (i, dump) in chunk {
                match self.unless_unchanged(*i, dump.place, content) {
                    Some(read) => {
                        to_read.push((*i, dump.clone()));
                        contents.push(read);
                    }
                    None => {
                        self.unchanged += 1;
                        let again = self.last.get(&dump.place).cloned().map(|summary| (summary, Vec::new()));
                        let again = again.ok_or_else(|| "no summary of its last dump".to_owned());
                        summed.push(((*i, dump.clone()), again));
                    }
                }
            }
            let read = sum_up(&to_read, contents, &self.paths, entity, self.follow.as_ref());
            summed.extend(to_read.iter().cloned().zip(read));
        }
        // In the pass's order of dumps.
        summed.sort_by_key(|((i, _), _)| dumps.iter().position(|(j, _)| j == i));
        for ((i, dump), read) in summed {
            let (summary, kept) = match read {
                Ok(read) => read,
                Err(why) => {
                    // Not a module's last dump to compare the next one with.
                    self.fingerprints.remove(&dump.place);
                    self.out.unread.push(Unread { file: self.paths[i].clone(), why });
                    continue;
                }
            };
            let before = self.last.get(&dump.place);
            if self.follow.is_none() {
                row.changed.push(change(before, &summary, dump.place, &self.paths[i]));
            }
            if let Some(name) = entity {
                let state = entity_state(before, &summary, name, kept);
                self.last_seen.entry(dump.core()).or_insert(None);
                if state.state != "absent" && state.state != "removed" {
                    self.last_seen.insert(dump.core(), Some(pass.clone()));
                }
                self.followed.push(EntityState {
                    pass: pass.clone(),
                    core: dump.core(),
                    subgraph: match dump.place.slot {
                        Slot::Subgraph(s) => Some(s.0),
                        _ => None,
                    },
                    ..state
                });
            }
            now.insert(dump.place, summary);
        }
        if self.follow.is_none() {
            self.compare_cores(&pass, &now);
        }
        self.last.extend(now);
        self.out.passes.push(row);
        self.next < self.passes.len()
    }

    /// The cores of each subgraph dumped after `pass`, compared: a baseline at a
    /// subgraph's first dump, a parting where a difference is new.
    fn compare_cores(&mut self, pass: &str, now: &BTreeMap<Place, Summary>) {
        let mut subgraphs: BTreeMap<u32, Vec<(u64, &Summary)>> = BTreeMap::new();
        for (place, summary) in now {
            if let Slot::Subgraph(s) = place.slot {
                subgraphs.entry(s.0).or_default().push((place.core.0, summary));
            }
        }
        for (subgraph, cores) in subgraphs {
            if cores.len() < 2 {
                continue;
            }
            let (only_on, counts) = differences(&cores);
            match self.between.get(&subgraph) {
                None => self.out.baseline.push(Parting {
                    subgraph,
                    pass: pass.to_owned(),
                    only_on: only_on.iter().cloned().collect(),
                    counts: counts.iter().cloned().collect(),
                }),
                Some((was_only, was_counts)) => {
                    let new_only: Vec<OnlyOn> = only_on.difference(was_only).cloned().collect();
                    // A fact parts anew when how the cores differ changed: its cores'
                    // differences from core 0 (a pass adding alike to every core keeps
                    // them).
                    let was: BTreeMap<&String, Delta> =
                        was_counts.iter().map(|c| (&c.what, delta(&c.values))).collect();
                    let new_counts: Vec<CountsDiffer> =
                        counts.iter().filter(|c| was.get(&c.what) != Some(&delta(&c.values))).cloned().collect();
                    if !new_only.is_empty() || !new_counts.is_empty() {
                        self.out.parted.push(Parting {
                            subgraph,
                            pass: pass.to_owned(),
                            only_on: new_only,
                            counts: new_counts,
                        });
                    }
                }
            }
            self.between.insert(subgraph, (only_on, counts));
        }
    }

    /// The history of the passes read (all of them once [`HistoryRun::step`] said none
    /// is left).
    pub fn finish(self) -> History {
        let mut out = self.out;
        out.no_table = self.follow.is_some();
        if let Some(name) = self.entity {
            out.entity =
                Some(EntityHistory { name, history: self.followed, last_seen: self.last_seen.into_iter().collect() });
        }
        out
    }
}

/// How a fact's numbers differ between cores: per core, its count of numbers and each
/// number's difference from the first core's.
type Delta = Vec<(u64, usize, Vec<Option<i128>>)>;

fn delta(values: &[(u64, Vec<Option<u64>>)]) -> Delta {
    let Some((_, first)) = values.first() else { return Vec::new() };
    values
        .iter()
        .map(|(core, v)| {
            let d = v.iter().zip(first).map(|(a, b)| Some(i128::from((*a)?) - i128::from((*b)?))).collect();
            (*core, v.len(), d)
        })
        .collect()
}

/// What a pass did to a module, against its previous dump.
fn change(before: Option<&Summary>, now: &Summary, place: Place, file: &str) -> ModuleChange {
    let mut row = ModuleChange { module: place.to_string(), file: file.to_owned(), ..ModuleChange::default() };
    let Some(before) = before else {
        row.state = ModuleState::First;
        return row;
    };
    // Gone and new keys, by kind and parent: paired where their numbers match (a
    // rename), else counted as removed and added.
    let mut gone: BTreeMap<(EntityKind, u64), usize> = BTreeMap::new();
    let mut new: BTreeMap<(EntityKind, u64), usize> = BTreeMap::new();
    for (key, held) in &before.entities {
        match now.entities.get(key) {
            Some(after) if after.hash != held.hash => *row.changed.entry(held.kind).or_insert(0) += 1,
            Some(_) => {}
            None => *gone.entry((held.kind, held.parent)).or_insert(0) += 1,
        }
    }
    for (key, held) in &now.entities {
        if !before.entities.contains_key(key) {
            *new.entry((held.kind, held.parent)).or_insert(0) += 1;
        }
    }
    for (at, n) in &gone {
        match new.get(at) {
            Some(m) if m == n => *row.renamed.entry(at.0).or_insert(0) += n,
            _ => *row.removed.entry(at.0).or_insert(0) += n,
        }
    }
    for (at, n) in &new {
        if gone.get(at) != Some(n) {
            *row.added.entry(at.0).or_insert(0) += n;
        }
    }
    let same = row.changed.is_empty() && row.added.is_empty() && row.removed.is_empty() && row.renamed.is_empty();
    row.state = if same { ModuleState::Unchanged } else { ModuleState::Changed };
    row
}

/// The followed entity's state in a module after a pass.
fn entity_state(before: Option<&Summary>, now: &Summary, name: &str, kept: Vec<(String, String)>) -> EntityState {
    // Every entity of that name, in key order (the summaries are hash maps).
    let named = |summary: &Summary| -> Vec<(u64, u64)> {
        let mut found: Vec<(u64, u64)> =
            summary.entities.iter().filter(|(_, h)| summary.name(h) == name).map(|(k, h)| (*k, h.hash)).collect();
        found.sort();
        found
    };
    let here = named(now);
    let was = before.map(named).unwrap_or_default();
    let text = || kept.iter().map(|(_, line)| line.clone()).collect();
    let (state, text) = match (before.is_some(), was.is_empty(), here.is_empty()) {
        (_, _, false) if before.is_none() => ("first", text()),
        (_, true, false) => ("added", text()),
        (_, false, false) if was != here => ("changed", text()),
        (_, false, false) => ("unchanged", Vec::new()),
        (true, false, true) => ("removed", Vec::new()),
        _ => ("absent", Vec::new()),
    };
    EntityState { state: state.to_owned(), text, ..EntityState::default() }
}

/// What differs between a subgraph's cores: entities some lack (masked keys, remote
/// views left out) and facts whose numbers differ.
fn differences(cores: &[(u64, &Summary)]) -> (BTreeSet<OnlyOn>, BTreeSet<CountsDiffer>) {
    // Keys with their numbers masked (`memloc:-:sg0000/buf.#`): what the cores compare.
    // Of the entities one masked key names, the one first by name (then key) speaks
    // for them: the same on every platform.
    let keys: Vec<FxHashMap<u64, (&str, u64, &summary::Held)>> = cores
        .iter()
        .map(|(_, s)| {
            let mut masked: FxHashMap<u64, (&str, u64, &summary::Held)> = FxHashMap::default();
            for (key, held) in s.entities.iter().filter(|(_, h)| !h.remote_view) {
                let candidate = (s.name(held), *key, held);
                masked
                    .entry(held.masked)
                    .and_modify(|first| {
                        if (candidate.0, candidate.1) < (first.0, first.1) {
                            *first = candidate;
                        }
                    })
                    .or_insert(candidate);
            }
            masked
        })
        .collect();
    let mut only_on = BTreeSet::new();
    for (c, (core, _)) in cores.iter().enumerate() {
        for (masked, (name, _, held)) in &keys[c] {
            if keys.iter().any(|other| !other.contains_key(masked)) {
                only_on.insert(OnlyOn { core: *core, kind: held.kind, name: (*name).to_owned() });
            }
        }
    }
    let mut counts = BTreeSet::new();
    let whats: BTreeSet<&String> = cores.iter().flat_map(|(_, s)| s.facts.keys()).collect();
    for what in whats {
        let values: Vec<(u64, Vec<Option<u64>>)> =
            cores.iter().map(|(core, s)| (*core, s.facts.get(what).cloned().unwrap_or_default())).collect();
        if values.iter().any(|(_, v)| *v != values[0].1) {
            counts.insert(CountsDiffer { what: what.clone(), values });
        }
    }
    (only_on, counts)
}

/// The `--no-table` reading's oracle (`tools::selfcheck`, the fuzz targets): for names of
/// a document (up to eight of its entities', spread over them, and one it does not
/// have), the document read for one name alone ([`follow`]) gives the entities so named
/// — their keys, kinds, lines and hashes — that the whole reading gives. `Ok` when the
/// whole reading reads no module (a dump the table lists unread).
pub fn follow_agrees(text: &str) -> Result<(), String> {
    let bytes = || Content::Bytes(text.as_bytes().to_vec());
    let Ok((all, _)) = read("dump.json", bytes(), 0, None) else { return Ok(()) };
    let mut names: Vec<&str> = all.entities.values().map(|held| all.name(held)).collect();
    names.sort_unstable();
    names.dedup();
    let step = names.len().div_ceil(8).max(1);
    let mut names: Vec<String> = names.into_iter().step_by(step).map(str::to_owned).collect();
    names.push("no such name".to_owned());
    // The entities of that name, comparable across summaries (a name is a range of
    // each summary's own string).
    let named = |summary: &Summary, name: &str| {
        let mut found: Vec<(u64, EntityKind, bool, u64, u64, u64)> = summary
            .entities
            .iter()
            .filter(|(_, held)| summary.name(held) == name)
            .map(|(key, h)| (*key, h.kind, h.remote_view, h.hash, h.parent, h.masked))
            .collect();
        found.sort_unstable();
        found
    };
    for name in names {
        let whole = |content| read("dump.json", content, 0, Some(&name));
        let (table, mut table_lines) = whole(bytes())?;
        let follow = follow::Follow::new(&name, 1).ok_or_else(|| format!("no search for `{name}`"))?;
        let (alone, mut alone_lines) = follow.read(bytes(), 0, whole)?;
        table_lines.sort();
        alone_lines.sort();
        if named(&table, &name) != named(&alone, &name) || table_lines != alone_lines {
            return Err(format!("`{name}` read alone is {alone_lines:?}, in the whole reading {table_lines:?}"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Digest;

    fn whole(bytes: &[u8]) -> (u64, u64) {
        let mut digest = Digest::new();
        digest.update(bytes);
        digest.finish()
    }

    #[test]
    fn a_digest_does_not_depend_on_how_the_bytes_are_cut_and_tells_any_change() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let expected = whole(&bytes);
        for cut in [1, 3, 7, 8, 9, 64, 999] {
            let mut digest = Digest::new();
            bytes.chunks(cut).for_each(|chunk| digest.update(chunk));
            assert_eq!(digest.finish(), expected, "chunks of {cut}");
        }
        for at in [0, 7, 8, 500, 999] {
            let mut other = bytes.clone();
            other[at] ^= 1;
            assert_ne!(whole(&other), expected, "byte {at}");
        }
        // A zero byte more, or less, is another length.
        let mut longer = bytes.clone();
        longer.push(0);
        assert_ne!(whole(&longer), expected);
        assert_ne!(whole(&bytes[..999]), whole(&[&bytes[..999], &[0u8][..]].concat()));
    }
}
