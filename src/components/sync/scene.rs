//! The Sync view's lanes as a display list: one row per lane, grouped by core (queue
//! lanes last), the replayed window's issues left to right, rendezvous as rungs joining
//! the lanes that passed them together, remote updates as arrows to the wait that took
//! them, and, at the execution's end, the stuck state (each blocked lane marked at its
//! instruction, the root ringed, the cycle's edges). Pure: tested natively; the
//! component maps it to SVG.

use birlink_core::output::sync::{Blocked, LaneRef, LaneRow, LaneState, Replay};

/// Left of the chart: the lanes' labels.
pub const LABEL_WIDTH: f64 = 190.0;
/// One lane's height.
pub const ROW: f64 = 22.0;
/// The space between two cores' lanes.
pub const CORE_GAP: f64 = 12.0;
/// The chart's width for the window (the issues' x).
pub const CHART_WIDTH: f64 = 720.0;
/// Right of the chart: where blocked lanes are marked.
pub const STUCK_WIDTH: f64 = 40.0;

/// One lane's row.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its middle's y.
    pub y: f64,
    /// `core 0 Pool`, `core 1 DMA qSyncIO`.
    pub label: String,
    /// How it ended: `done`, `blocked`, `running`.
    pub state: &'static str,
    /// The instruction it is at, at the replayed step.
    pub at: Option<String>,
}

/// One issue.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Its centre.
    pub x: f64,
    /// Its lane's y.
    pub y: f64,
    /// Its event in the replay.
    pub event: usize,
    /// `issue`, `barrier`, `wait`.
    pub class: &'static str,
}

/// A blocked lane at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Stuck {
    /// Its centre.
    pub x: f64,
    /// Its lane's y.
    pub y: f64,
    /// Where a hang starts.
    pub root: bool,
    /// What it waits for, in words.
    pub title: String,
}

/// The display list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The whole width and height.
    pub width: f64,
    /// See `width`.
    pub height: f64,
    /// The lanes.
    pub rows: Vec<Row>,
    /// The issues.
    pub marks: Vec<Mark>,
    /// Each rendezvous passed together: its marks' centres, lane order.
    pub rungs: Vec<Vec<(f64, f64)>>,
    /// Remote updates to the waits that took them.
    pub arrows: Vec<((f64, f64), (f64, f64))>,
    /// The blocked lanes, at the end.
    pub stuck: Vec<Stuck>,
    /// The wait-for cycle's edges, between stuck marks.
    pub cycle: Vec<((f64, f64), (f64, f64))>,
}

/// A lane's words.
fn label(lane: &LaneRow) -> String {
    match &lane.queue {
        Some(queue) => format!("core {} DMA {queue}", lane.core),
        None => format!("core {} {}", lane.core, lane.engine),
    }
}

/// The scene of a replay over the check's lanes; `end` when it is replayed to the
/// execution's end (the stuck state is drawn then).
pub fn scene(lanes: &[LaneRow], replay: &Replay, blocked: &[Blocked], cycle: Option<&[LaneRef]>, end: bool) -> Scene {
    let mut rows = Vec::with_capacity(lanes.len());
    let mut y = ROW / 2.0 + 4.0;
    for (k, lane) in lanes.iter().enumerate() {
        if k > 0 && lanes[k - 1].core != lane.core {
            y += CORE_GAP;
        }
        let state = match lane.state {
            _ if !end => "running",
            LaneState::Done => "done",
            LaneState::Blocked => "blocked",
            LaneState::Running => "running",
        };
        let at = replay.at.get(k).cloned().flatten();
        rows.push(Row { y, label: label(lane), state, at });
        y += ROW;
    }
    let height = y - ROW / 2.0 + 8.0;
    let window = (replay.upto - replay.from).max(1) as f64;
    let x_of = |step: u64| LABEL_WIDTH + ((step - replay.from) as f64 + 0.5) * CHART_WIDTH / window;
    let mut marks = Vec::with_capacity(replay.events.len());
    for (event, e) in replay.events.iter().enumerate() {
        let Some(row) = rows.get(e.lane as usize) else { continue };
        let class = if e.barrier {
            "barrier"
        } else if e.waits {
            "wait"
        } else {
            "issue"
        };
        marks.push(Mark { x: x_of(e.step), y: row.y, event, class });
    }
    // Rendezvous passed together: the same group, pipe and index, on the same engine.
    let mut rungs: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for mark in &marks {
        let e = &replay.events[mark.event];
        let (Some(r), Some(lane)) = (&e.rendezvous, lanes.get(e.lane as usize)) else { continue };
        let key = format!("{}/{:?}/{}/{}", r.group, r.pipe, r.index, lane.engine);
        match rungs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, points)) => points.push((mark.x, mark.y)),
            None => rungs.push((key, vec![(mark.x, mark.y)])),
        }
    }
    let rungs = rungs
        .into_iter()
        .map(|(_, mut points)| {
            points.sort_by(|a, b| a.1.total_cmp(&b.1));
            points
        })
        .filter(|points| points.len() > 1)
        .collect();
    let at_step = |step: u64| marks.iter().find(|m| replay.events[m.event].step == step).map(|m| (m.x, m.y));
    let arrows = replay.arrows.iter().filter_map(|&(from, to)| Some((at_step(from)?, at_step(to)?))).collect();
    let stuck_x = LABEL_WIDTH + CHART_WIDTH + STUCK_WIDTH / 2.0;
    let lane_y = |core: u64, engine: &str, queue: Option<&str>| {
        lanes
            .iter()
            .position(|l| l.core == core && l.engine == engine && l.queue.as_deref() == queue)
            .and_then(|k| rows.get(k))
            .map(|row| row.y)
    };
    let stuck: Vec<Stuck> = if end {
        blocked
            .iter()
            .filter_map(|b| {
                let y = lane_y(b.core, &b.engine, b.queue.as_deref())?;
                Some(Stuck { x: stuck_x, y, root: b.root, title: b.words() })
            })
            .collect()
    } else {
        Vec::new()
    };
    let cycle = match (end, cycle) {
        (true, Some(lanes)) => {
            let ys: Vec<f64> = lanes.iter().filter_map(|l| lane_y(l.core, &l.engine, l.queue.as_deref())).collect();
            ys.iter().zip(ys.iter().cycle().skip(1)).map(|(&a, &b)| ((stuck_x, a), (stuck_x, b))).collect()
        }
        _ => Vec::new(),
    };
    Scene { width: LABEL_WIDTH + CHART_WIDTH + STUCK_WIDTH, height, rows, marks, rungs, arrows, stuck, cycle }
}

#[cfg(test)]
mod tests {
    use birlink_core::output::sync::{BlockedKind, OtherState, RendezvousRow, ReplayEvent, WaitingFor};

    use super::*;

    fn lane(core: u64, engine: &str, state: LaneState) -> LaneRow {
        LaneRow { core, engine: engine.to_owned(), queue: None, issued: 1, barriers: 1, state }
    }

    fn event(step: u64, lane: u32, rendezvous: Option<u64>) -> ReplayEvent {
        ReplayEvent {
            step,
            round: step,
            lane,
            instruction: format!("i{step}"),
            function: Some("sg0000".to_owned()),
            barrier: rendezvous.is_some(),
            rendezvous: rendezvous.map(|index| RendezvousRow {
                group: "barrier".to_owned(),
                pipe: None,
                index,
                participants: vec![0, 1],
            }),
            waits: false,
        }
    }

    #[test]
    fn rendezvous_join_their_lanes_and_the_stuck_lane_is_marked_at_the_end() {
        let lanes =
            [lane(0, "Pool", LaneState::Blocked), lane(0, "SP", LaneState::Done), lane(1, "Pool", LaneState::Done)];
        let replay = Replay {
            upto: 4,
            from: 0,
            events: vec![event(0, 0, Some(0)), event(1, 2, Some(0)), event(2, 1, None), event(3, 2, None)],
            arrows: vec![(2, 3)],
            at: vec![Some("cb_pool_1".to_owned()), None, None],
        };
        let blocked = Blocked {
            core: 0,
            engine: "Pool".to_owned(),
            queue: None,
            function: Some("sg0000".to_owned()),
            instruction: "cb_pool_1".to_owned(),
            kind: BlockedKind::Rendezvous,
            wait: None,
            current: None,
            rendezvous: Some(RendezvousRow {
                group: "barrier".to_owned(),
                pipe: None,
                index: 1,
                participants: vec![0, 1],
            }),
            updates: Vec::new(),
            root: true,
            waiting_for: vec![WaitingFor {
                core: 1,
                engine: "Pool".to_owned(),
                queue: None,
                state: OtherState::Done,
                instruction: None,
            }],
        };
        let scene = scene(&lanes, &replay, &[blocked], None, true);
        assert_eq!(scene.rows.len(), 3);
        assert!(scene.rows[2].y - scene.rows[1].y > ROW, "a gap between the cores");
        assert_eq!(scene.marks.len(), 4);
        assert_eq!(scene.rungs.len(), 1, "core 0's and core 1's first barrier on Pool");
        assert_eq!(scene.rungs[0].len(), 2);
        assert_eq!(scene.arrows.len(), 1);
        assert_eq!(scene.stuck.len(), 1);
        assert!(scene.stuck[0].root && scene.stuck[0].title.contains("which finished"), "{}", scene.stuck[0].title);
        // Before the end, nothing is stuck yet.
        assert!(super::scene(&lanes, &replay, &[], None, false).stuck.is_empty());
    }
}
