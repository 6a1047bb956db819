//! The Passes view: where did the cores part? The shown link set's dumps after every pass
//! (a work directory printed with `--internal-print-after=…` or print-after-all), read
//! in the worker pass by pass (`birlink_core::tools::history`, the same library as
//! `birlink history`), with progress and Cancel; one name followed through them (typed,
//! pasted from a compiler error, or picked in the details panel); one pass's diff of one
//! module (the module's dump against its previous one).
//!
//! Only the newest order matters: an answer for an older one is dropped, and a new
//! directory (other dumps) reads again when the view is opened.

use std::rc::Rc;

use birlink_core::read::workdir;
use birlink_core::tools::history::diff::PassDiff;
use birlink_core::tools::history::History;
use birlink_core::tools::share::View;

use super::{LoadedFile, Outbox, State};

/// Where the reading of the passes is.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum PassesStatus {
    /// Not asked yet.
    #[default]
    Idle,
    /// The worker is reading: passes read of all.
    Reading {
        /// Passes read.
        done: u32,
        /// Passes dumped.
        total: u32,
        /// The pass it reads next.
        pass: String,
    },
    /// Read.
    Read(Rc<History>),
    /// The user stopped it.
    Cancelled,
    /// Why there is no history.
    Failed(String),
}

/// A pass's diff of a module: asked, answered, or why not.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum DiffFetch {
    /// No cell chosen.
    #[default]
    None,
    /// Asked of the worker.
    Waiting,
    /// The diff.
    Ready(Rc<PassDiff>),
    /// Why there is none.
    Failed(String),
}

/// What the view asks the worker to read.
#[derive(Clone, Debug, PartialEq)]
pub enum PassesOrder {
    /// Read these dumps.
    Read {
        /// The order's number.
        seq: u64,
        /// The dumps.
        files: Vec<LoadedFile>,
        /// The passes in the log's order (empty: the dumps' `<n>`).
        ran: Vec<String>,
        /// The name to follow.
        entity: Option<String>,
        /// Follow it alone: the table read before is kept ([`PassesState::table`]).
        no_table: bool,
    },
    /// Stop reading.
    Cancel {
        /// The order stopped.
        seq: u64,
    },
}

/// A pass's diff of a module to make.
#[derive(Clone, Debug, PartialEq)]
pub struct DiffOrder {
    /// The order's number.
    pub seq: u64,
    /// The module's previous dump (`None`: this is its first).
    pub before: Option<LoadedFile>,
    /// The pass's dump.
    pub after: LoadedFile,
}

/// The Passes view's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PassesState {
    /// The newest reading's number.
    pub seq: u64,
    /// The dumps it reads (their ids): another directory reads again.
    pub of: Vec<u64>,
    /// The name followed, as given (a name or a pasted compiler error).
    pub entity: Option<String>,
    /// Where the reading is.
    pub status: PassesStatus,
    /// The pass table last read, with the dumps it is of: a name followed over the same
    /// dumps is read alone (no table: faster) and shown with it.
    pub table: Option<(Vec<u64>, Rc<History>)>,
    /// The cell chosen: a pass (by index) and a module (its name).
    pub cell: Option<(usize, String)>,
    /// Its diff.
    pub diff: DiffFetch,
    /// The newest diff's number.
    pub diff_seq: u64,
    /// Show the units the pass left unchanged too.
    pub show_unchanged: bool,
    /// A pass to open once the dumps are read (the timeline's).
    pub wanted: Option<String>,
    /// Readings to start or stop.
    pub out: Outbox<PassesOrder>,
    /// Diffs to make.
    pub diff_out: Outbox<DiffOrder>,
}

/// The Passes view's actions.
#[derive(Debug)]
pub enum PassesAction {
    /// The view is shown: read the dumps unless they are read (or being read).
    Open,
    /// Follow a name (or the name a pasted compiler error quotes) through every pass:
    /// the dumps are read again; `None` stops following. Opens the view.
    Follow(Option<String>),
    /// Stop the reading.
    Cancel,
    /// Read again (after a Cancel or a failure).
    Again,
    /// Show a pass's diff of a module (the pass by index, the module by name).
    Cell(usize, String),
    /// Open the view on a pass (the timeline's): its first changed module's diff, once
    /// the dumps are read.
    Reveal(String),
    /// Show or hide the unchanged units.
    ShowUnchanged(bool),
    /// The worker's progress.
    Progress {
        /// The order.
        seq: u64,
        /// Passes read.
        done: u32,
        /// Passes dumped.
        total: u32,
        /// The pass read next.
        pass: String,
    },
    /// The worker's history.
    Read {
        /// The order.
        seq: u64,
        /// The history, or why there is none.
        history: Result<Box<History>, String>,
    },
    /// The worker's diff.
    Diffed {
        /// The order.
        seq: u64,
        /// The diff, or why there is none.
        diff: Result<Box<PassDiff>, String>,
    },
}

impl State {
    /// The shown link set's dumps (files named `bir_debug.<n>.after-<pass>…json` under
    /// a core's folder).
    pub fn dumps(&self) -> Vec<&LoadedFile> {
        self.dump_files().collect()
    }

    /// Whether the shown link set has dumps to compare pass by pass.
    pub fn has_passes(&self) -> bool {
        self.dump_files().next().is_some()
    }

    fn dump_files(&self) -> impl Iterator<Item = &LoadedFile> {
        self.shown().link.files.iter().filter(|f| workdir::dump_of(&f.path).is_some())
    }

    /// The history read, when it is of the shown dumps.
    pub fn history(&self) -> Option<&Rc<History>> {
        match &self.passes.status {
            PassesStatus::Read(history) => Some(history),
            _ => None,
        }
    }

    /// Starts reading the shown dumps: a followed name alone when the table of these
    /// dumps is held, else the table (and the name).
    fn read_passes(&mut self) {
        let files: Vec<LoadedFile> = self.dumps().into_iter().cloned().collect();
        self.passes.of = files.iter().map(|f| f.id).collect();
        if self.passes.table.as_ref().is_some_and(|(of, _)| *of != self.passes.of) {
            self.passes.table = None;
        }
        self.passes.seq += 1;
        self.passes.cell = None;
        self.passes.diff = DiffFetch::None;
        if files.is_empty() {
            self.passes.status = PassesStatus::Failed(
                "no dump after a pass: open a work directory printed with `--internal-compiler-debug-mode=all --internal-backend-options=--print-after-all` (or `--internal-print-after=PASS`)".to_owned(),
            );
            return;
        }
        let ran = self
            .log
            .reading
            .as_ref()
            .map(|r| r.run.passes.iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default();
        let (seq, entity) = (self.passes.seq, self.passes.entity.clone());
        let held = self.passes.table.as_ref().map(|(_, table)| Rc::clone(table));
        if let (None, Some(table)) = (&entity, &held) {
            // Nothing followed: the table again, as read (a name still being read is
            // stopped).
            if matches!(self.passes.status, PassesStatus::Reading { .. }) {
                self.passes.out.post(PassesOrder::Cancel { seq: seq - 1 });
            }
            self.passes.status = PassesStatus::Read(Rc::clone(table));
            return;
        }
        self.passes.status = PassesStatus::Reading { done: 0, total: 0, pass: String::new() };
        let no_table = entity.is_some() && held.is_some();
        self.passes.out.post(PassesOrder::Read { seq, files, ran, entity, no_table });
    }

    /// The file at a history's path among the shown ones.
    fn file_at(&self, path: &str) -> Option<LoadedFile> {
        self.shown().link.files.iter().find(|f| f.path == path).cloned()
    }

    /// Opens the pass the timeline asked for, once read: its first changed module (else
    /// its first).
    fn reveal_wanted(&mut self) {
        let Some(pass) = self.passes.wanted.take() else { return };
        let Some(history) = self.history() else { return };
        let Some(row) = history.passes.iter().find(|p| p.name == pass) else { return };
        let changed = row.changed.iter().find(|c| c.state == birlink_core::tools::history::ModuleState::Changed);
        let Some(module) = changed.or(row.changed.first()).map(|c| c.module.clone()) else { return };
        let index = row.index;
        self.apply_passes(PassesAction::Cell(index, module));
    }

    /// Moves the chosen cell to the module's dump after the next (or previous) pass
    /// that dumped it (`j`, `k` in the Passes view); false when there is none.
    pub(crate) fn move_pass_by(&mut self, delta: isize) -> bool {
        let Some((at, module)) = self.passes.cell.clone() else { return false };
        let Some(history) = self.history() else { return false };
        let dumped = |p: &usize| history.passes[*p].changed.iter().any(|c| c.module == module);
        let next = if delta > 0 { (at + 1..history.passes.len()).find(dumped) } else { (0..at).rev().find(dumped) };
        match next {
            Some(pass) => self.apply_passes(PassesAction::Cell(pass, module)),
            None => false,
        }
    }

    /// Applies a Passes view action; false when it changes nothing (a stale answer).
    pub(super) fn apply_passes(&mut self, action: PassesAction) -> bool {
        match action {
            PassesAction::Open => {
                let of: Vec<u64> = self.dumps().iter().map(|f| f.id).collect();
                let current = of == self.passes.of;
                let going = matches!(self.passes.status, PassesStatus::Reading { .. } | PassesStatus::Read(_));
                if current && (going || self.passes.status == PassesStatus::Cancelled) {
                    return false;
                }
                self.read_passes();
            }
            PassesAction::Follow(entity) => {
                self.passes.entity = entity.map(|e| e.trim().to_owned()).filter(|e| !e.is_empty());
                self.view = View::Passes;
                self.read_passes();
            }
            PassesAction::Cancel => {
                if !matches!(self.passes.status, PassesStatus::Reading { .. }) {
                    return false;
                }
                self.passes.status = PassesStatus::Cancelled;
                self.passes.out.post(PassesOrder::Cancel { seq: self.passes.seq });
            }
            PassesAction::Again => self.read_passes(),
            PassesAction::Cell(pass, module) => {
                let Some(history) = self.history() else { return false };
                let Some(row) = history.passes.get(pass) else { return false };
                let Some(change) = row.changed.iter().find(|c| c.module == module) else { return false };
                // The module's dump before: its latest in an earlier pass.
                let before = history.passes[..pass]
                    .iter()
                    .rev()
                    .find_map(|p| p.changed.iter().find(|c| c.module == module))
                    .map(|c| c.file.clone());
                let after = self.file_at(&change.file);
                let before = before.map(|path| self.file_at(&path));
                self.passes.cell = Some((pass, module));
                self.passes.diff_seq += 1;
                match (after, before) {
                    (Some(after), None) => {
                        self.passes.diff = DiffFetch::Waiting;
                        self.passes.diff_out.post(DiffOrder { seq: self.passes.diff_seq, before: None, after });
                    }
                    (Some(after), Some(Some(before))) => {
                        self.passes.diff = DiffFetch::Waiting;
                        let order = DiffOrder { seq: self.passes.diff_seq, before: Some(before), after };
                        self.passes.diff_out.post(order);
                    }
                    _ => self.passes.diff = DiffFetch::Failed("the dump is no longer open".to_owned()),
                }
            }
            PassesAction::Reveal(pass) => {
                self.view = View::Passes;
                self.passes.wanted = Some(pass);
                if self.history().is_some() {
                    self.reveal_wanted();
                }
            }
            PassesAction::ShowUnchanged(show) => self.passes.show_unchanged = show,
            PassesAction::Progress { seq, done, total, pass } => {
                if seq != self.passes.seq || !matches!(self.passes.status, PassesStatus::Reading { .. }) {
                    return false;
                }
                self.passes.status = PassesStatus::Reading { done, total, pass };
            }
            PassesAction::Read { seq, history } => {
                if seq != self.passes.seq || !matches!(self.passes.status, PassesStatus::Reading { .. }) {
                    return false;
                }
                self.passes.status = match history {
                    // A name followed alone: shown with the table it was followed beside.
                    Ok(followed) if followed.no_table => match &self.passes.table {
                        Some((_, table)) => {
                            let mut history = History::clone(table);
                            let followed = *followed;
                            history.entity = followed.entity;
                            // A dump that could not be read this time is said too.
                            for unread in followed.unread {
                                if !history.unread.iter().any(|u| u.file == unread.file) {
                                    history.unread.push(unread);
                                }
                            }
                            PassesStatus::Read(Rc::new(history))
                        }
                        None => PassesStatus::Read(Rc::new(*followed)),
                    },
                    Ok(history) => {
                        let table = History { entity: None, ..History::clone(&history) };
                        self.passes.table = Some((self.passes.of.clone(), Rc::new(table)));
                        PassesStatus::Read(Rc::new(*history))
                    }
                    Err(why) => PassesStatus::Failed(why),
                };
                self.reveal_wanted();
            }
            PassesAction::Diffed { seq, diff } => {
                if seq != self.passes.diff_seq {
                    return false;
                }
                self.passes.diff = match diff {
                    Ok(diff) => DiffFetch::Ready(Rc::new(*diff)),
                    Err(why) => DiffFetch::Failed(why),
                };
            }
        }
        true
    }
}
