//! The Sync view's step slider: the step the user replays the execution to, and the
//! worker's replay of it (`birlink_core::passes::sync::replay`: the same library,
//! deterministic, so `report.json` carries no trace). Only the newest question matters:
//! a slider dragged across a thousand steps asks once per step it rests on, and an
//! answer for another run or step is dropped.

use std::rc::Rc;

use birlink_core::output::sync::Replay;

use super::{Ask, Outbox, Query, State};

/// The steps a replay draws before the slider.
pub const WINDOW: u64 = 120;

/// The Sync view's state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SyncState {
    /// The step replayed to (`None`: the execution's end).
    pub step: Option<u64>,
    /// The run the step is of (another run starts at its end).
    pub run: Option<u64>,
    /// The newest replay, with the run it is of.
    pub replay: Option<Rc<(u64, Replay)>>,
    /// The view's question to the worker.
    pub out: Outbox<Ask>,
}

/// The Sync view's actions.
#[derive(Debug)]
pub enum SyncAction {
    /// The view shows the run: replay it to the step it is at (a new run: its end).
    Open,
    /// Replay to a step (`None`: the end): the slider moved.
    Show(Option<u64>),
    /// The worker replayed a run.
    Replayed {
        /// The run.
        run: u64,
        /// The replay (`None`: the run has no linked set to replay).
        replay: Option<Box<Replay>>,
    },
}

impl State {
    /// The steps the shown run's execution issued (`None`: no execution).
    pub fn sync_steps(&self) -> Option<u64> {
        Some(self.result()?.report.sync.execution.as_ref()?.steps)
    }

    /// The step the Sync view shows: the slider's (for this run), else the end.
    pub fn sync_step(&self) -> Option<u64> {
        let end = self.sync_steps()?;
        let step = self.sync.step.filter(|_| self.sync.run == self.result_run());
        Some(step.map_or(end, |s| s.min(end)))
    }

    /// The replay of the shown run, when the worker has sent one.
    pub fn sync_replay(&self) -> Option<&Replay> {
        let replay = self.sync.replay.as_ref()?;
        (Some(replay.0) == self.result_run()).then_some(&replay.1)
    }

    /// Asks for the replay to the step shown, unless the newest one is it.
    fn ask_replay(&mut self) {
        let (Some(run), Some(upto)) = (self.result_run(), self.sync_step()) else { return };
        let have = self.sync.replay.as_ref().is_some_and(|r| r.0 == run && r.1.upto == upto);
        let asked =
            matches!(&self.sync.out.message, Some(Ask { run: r, query: Query::Replay(u) }) if *r == run && *u == upto);
        if !have && !asked {
            self.sync.out.post(Ask { run, query: Query::Replay(upto) });
        }
    }

    /// Moves the slider by `delta` steps (`j`, `k` in the Sync view).
    pub(crate) fn move_sync_by(&mut self, delta: i64) {
        let (Some(end), Some(at)) = (self.sync_steps(), self.sync_step()) else { return };
        let step = (at as i64 + delta).clamp(0, end as i64) as u64;
        self.sync.step = (step < end).then_some(step);
        self.sync.run = self.result_run();
        self.ask_replay();
    }

    /// Applies a Sync view action; false when it changes nothing (a stale answer).
    pub(super) fn apply_sync(&mut self, action: SyncAction) -> bool {
        match action {
            SyncAction::Open => {
                let run = self.result_run();
                if self.sync.run != run {
                    self.sync.run = run;
                    self.sync.step = None;
                }
                self.ask_replay();
            }
            SyncAction::Show(step) => {
                let end = self.sync_steps();
                self.sync.step = step.filter(|s| end.is_some_and(|end| *s < end));
                self.sync.run = self.result_run();
                self.ask_replay();
            }
            SyncAction::Replayed { run, replay } => {
                if Some(run) != self.result_run() {
                    return false;
                }
                let Some(replay) = replay else { return false };
                self.sync.replay = Some(Rc::new((run, *replay)));
            }
        }
        true
    }
}
