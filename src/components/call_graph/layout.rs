//! Where everything of the call graph goes: a pure function of the report, so it is the
//! same from run to run, exports as SVG at its natural size, and is tested natively.
//!
//! One lane per core (in core order), by the report's flow ([`Shape`]). In the seeds'
//! reading ([`seeds`]): the core function, up to three of its other functions stacked behind it,
//! and the memory locations on either end of an alias edge (or named by a diagnostic),
//! one column per name across all lanes so both ends of a handoff line up; `main`'s
//! dispatcher sits left of the lanes. In the compiler's flows ([`grid`]): each core's
//! own `main` and its dispatcher's calls in netlist order, one box per partition
//! shaded by the function it calls (the handoffs between them are arcs above the row),
//! and below them the memory locations the VNC passes resolve across the cores; the
//! flat flow has no dispatcher, only the cores' modules and the cross-core edges.

use birlink_core::model::place::Place;
use std::collections::{BTreeMap, HashMap, HashSet};

use birlink_core::output::report::Report;
use birlink_core::{EntityKind, Severity};

/// The first lane's top.
pub const LANE_TOP: f64 = 36.0;
/// A lane's height.
pub const LANE_HEIGHT: f64 = 84.0;
const LANE_GAP: f64 = 14.0;
const MAIN_W: f64 = 136.0;
/// Where lanes start.
pub const LANE_X: f64 = 160.0;
const CORE_X: f64 = 330.0;
const FUNCTION_W: f64 = 120.0;
const MEMLOC_X: f64 = 480.0;
const MEMLOC_W: f64 = 132.0;
const MEMLOC_H: f64 = 26.0;
const MEMLOC_GAP: f64 = 12.0;
/// The view starts fitted to the frame's width, but never smaller than this (text
/// must stay legible); pan for the rest.
pub const MIN_FIT: f64 = 0.75;

/// A node's box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Its centre.
    pub fn center(self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// A memory location drawn in a lane.
#[derive(Clone, Debug, PartialEq)]
pub struct MemlocNode {
    /// The function that holds it.
    pub function: String,
    /// Its name.
    pub memloc: String,
    /// Where.
    pub rect: Rect,
    /// The message of an error about it, if any.
    pub failure: Option<String>,
}

/// A dispatcher call drawn in its core's lane (the compiler's modular flow).
#[derive(Clone, Debug, PartialEq)]
pub struct CallNode {
    /// `call_def_<definition>_instance_<i>`.
    pub call: String,
    /// The netlist partition it is.
    pub partition: Option<u64>,
    /// The function it calls (`sg0001`).
    pub target: String,
    /// Which of the lane's functions it calls, in order of first call (its shade).
    pub shade: usize,
    /// Where.
    pub rect: Rect,
}

/// One lane: a core, its functions, the memory locations that take part in handoffs.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The core.
    pub core: u64,
    /// Its top.
    pub y: f64,
    /// Its height.
    pub height: f64,
    /// The core's own module, in the compiler's flows (`nc00/sgLnk`, a flat flow's
    /// `nc00/sg00`).
    pub module: Option<String>,
    /// The seeds' reading: the core function and where it is.
    pub function: Option<(String, Rect)>,
    /// The modular flow: the core's own `main`, the dispatcher.
    pub main: Option<Rect>,
    /// The modular flow: its dispatcher's calls, in netlist order.
    pub calls: Vec<CallNode>,
    /// The core's other functions (at most three drawn), and how many it has.
    pub others: Vec<(String, Rect)>,
    /// How many other functions the core has in all.
    pub other_count: usize,
    /// Memory locations.
    pub memlocs: Vec<MemlocNode>,
}

/// What the graph draws, by the flow of its report (`report.options.flow`, decided once
/// by the core).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// The seeds' reading: one `main`, left of the lanes, dispatching to the cores.
    Seeds {
        /// Where `main` is.
        main: Rect,
    },
    /// The compiler's flows: each lane has its own `main` (modular), or none (flat).
    Grid,
}

/// Everything drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// What it draws.
    pub shape: Shape,
    /// The lanes, in core order.
    pub lanes: Vec<Lane>,
    /// Where the lanes start.
    pub lane_x: f64,
    /// Natural width.
    pub width: f64,
    /// Natural height.
    pub height: f64,
    /// Where each memory location is, by core, function and name.
    index: HashMap<(u64, String, String), Rect>,
}

impl Layout {
    /// Where a memory location of a core and function is drawn.
    pub fn memloc(&self, core: u64, function: &str, memloc: &str) -> Option<Rect> {
        self.index.get(&(core, function.to_owned(), memloc.to_owned())).copied()
    }

    /// Where a core's dispatcher call is drawn (the modular flow).
    pub fn call(&self, core: u64, call: &str) -> Option<Rect> {
        let lane = self.lanes.iter().find(|l| l.core == core)?;
        lane.calls.iter().find(|c| c.call == call).map(|c| c.rect)
    }
}

/// At most this many memory locations are drawn because a diagnostic names them (a
/// link set with thousands of one warning would draw a wall of nodes; the Diagnostics
/// view lists them all).
pub const MAX_DIAGNOSED_MEMLOCS: usize = 64;

/// The layout of a report's call graph, by its flow: the compiler's flows' ([`grid`]),
/// or the seeds' reading's one dispatcher of the cores ([`seeds`]).
pub fn layout(report: &Report) -> Layout {
    match report.options.flow {
        birlink_core::Flow::Seeds => seeds(report),
        birlink_core::Flow::Modular | birlink_core::Flow::Flat => grid(report),
    }
}

/// The memory locations a graph draws: one column per name across every lane, in the
/// order first seen (both ends of a handoff line up), each lane's own in that order,
/// only on the lanes drawn; and the first error about each.
struct Memlocs<'r> {
    lanes: HashSet<u64>,
    columns: HashMap<String, usize>,
    seen: HashSet<(u64, String, String)>,
    by_core: BTreeMap<u64, Vec<(String, String)>>,
    failures: HashMap<(u64, &'r str, &'r str), String>,
}

impl<'r> Memlocs<'r> {
    fn new(report: &'r Report, lanes: impl IntoIterator<Item = u64>) -> Memlocs<'r> {
        let mut failures = HashMap::new();
        for d in report.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
            if let (Some(entity), Some(core)) = (&d.entity, d.core) {
                if entity.kind == EntityKind::Memloc {
                    let key = (core, entity.parent.as_deref().unwrap_or(""), entity.name.as_str());
                    failures.entry(key).or_insert_with(|| format!("{} {}", d.code, d.message));
                }
            }
        }
        Memlocs {
            lanes: lanes.into_iter().collect(),
            columns: HashMap::new(),
            seen: HashSet::new(),
            by_core: BTreeMap::new(),
            failures,
        }
    }

    /// A memory location of a core's function, when the core is drawn.
    fn add(&mut self, core: u64, function: &str, memloc: &str) {
        if !self.lanes.contains(&core) {
            return;
        }
        let next = self.columns.len();
        self.columns.entry(memloc.to_owned()).or_insert(next);
        if self.seen.insert((core, function.to_owned(), memloc.to_owned())) {
            self.by_core.entry(core).or_default().push((function.to_owned(), memloc.to_owned()));
        }
    }

    /// The views a diagnostic is about, at most [`MAX_DIAGNOSED_MEMLOCS`].
    fn add_diagnosed(&mut self, report: &Report) {
        let mut diagnosed = 0;
        for d in &report.diagnostics {
            if let (Some(entity), Some(core)) = (&d.entity, d.core) {
                if entity.kind == EntityKind::Memloc && self.lanes.contains(&core) && diagnosed < MAX_DIAGNOSED_MEMLOCS
                {
                    self.add(core, entity.parent.as_deref().unwrap_or(""), &entity.name);
                    diagnosed += 1;
                }
            }
        }
    }

    /// The column of a name.
    fn column(&self, memloc: &str) -> usize {
        self.columns.get(memloc).copied().unwrap_or(0)
    }

    /// A lane's memory locations, each placed by `rect` (from its column).
    fn nodes(&mut self, core: u64, rect: impl Fn(usize) -> Rect) -> Vec<MemlocNode> {
        let listed = self.by_core.remove(&core).unwrap_or_default();
        listed
            .into_iter()
            .map(|(function, memloc)| {
                let rect = rect(self.column(&memloc));
                let failure = self.failures.get(&(core, function.as_str(), memloc.as_str())).cloned();
                MemlocNode { function, memloc, rect, failure }
            })
            .collect()
    }
}

/// The seeds' reading: one lane per core with its core function (and up to three of its
/// other functions stacked behind it), the memory locations on either end of an alias
/// edge or named by a diagnostic, and `main` left of the lanes.
pub fn seeds(report: &Report) -> Layout {
    // Functions per core: the dispatcher's targets, then the other copied functions.
    let mut cores: Vec<(u64, String)> = report.dispatcher.iter().map(|d| (d.core, d.target.clone())).collect();
    cores.sort();
    let mut others: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let core_of: HashMap<&str, u64> = cores.iter().map(|(c, f)| (f.as_str(), *c)).collect();
    let mut listed: HashSet<&str> = HashSet::new();
    if let Some(step) = report.passes.iter().flat_map(|p| &p.steps).find(|s| s.name == "copy_functions") {
        for edit in &step.edits {
            let Some(name) = edit.unit.function() else { continue };
            // `<core function>/<name>`: the core function is the part before the last `/`
            // that names one.
            let core = name.match_indices('/').find_map(|(at, _)| core_of.get(&name[..at]).copied());
            if let Some(core) = core {
                if listed.insert(name) {
                    others.entry(core).or_default().push(name.to_owned());
                }
            }
        }
    }
    let mut memlocs = Memlocs::new(report, cores.iter().map(|(c, _)| *c));
    for alias in &report.aliases {
        memlocs.add(alias.consumer.core, &alias.consumer.function, &alias.consumer.memloc);
        memlocs.add(alias.producer.core, &alias.producer.function, &alias.producer.memloc);
    }
    memlocs.add_diagnosed(report);
    let column_x = |column: usize| MEMLOC_X + column as f64 * (MEMLOC_W + MEMLOC_GAP);
    let mut lanes = Vec::new();
    let mut y = LANE_TOP;
    for (core, function) in &cores {
        let height = LANE_HEIGHT;
        let function_rect = Rect { x: CORE_X, y: y + height / 2.0 - 14.0, w: FUNCTION_W, h: 28.0 };
        let all_others = others.get(core).cloned().unwrap_or_default();
        let other_rects: Vec<(String, Rect)> = all_others
            .iter()
            .take(3)
            .enumerate()
            .map(|(i, name)| {
                let rect = Rect {
                    x: CORE_X + 6.0 + i as f64 * 6.0,
                    y: function_rect.y - 8.0 - i as f64 * 4.0,
                    w: FUNCTION_W,
                    h: 28.0,
                };
                (name.clone(), rect)
            })
            .collect();
        let memloc_y = y + height / 2.0 - MEMLOC_H / 2.0;
        let memloc_nodes =
            memlocs.nodes(*core, |column| Rect { x: column_x(column), y: memloc_y, w: MEMLOC_W, h: MEMLOC_H });
        lanes.push(Lane {
            core: *core,
            y,
            height,
            module: None,
            function: Some((function.clone(), function_rect)),
            main: None,
            calls: Vec::new(),
            others: other_rects,
            other_count: all_others.len(),
            memlocs: memloc_nodes,
        });
        y += height + LANE_GAP;
    }
    let height = y + 6.0;
    let width = MEMLOC_X + memlocs.columns.len().max(1) as f64 * (MEMLOC_W + MEMLOC_GAP) + 20.0;
    let main = Rect { x: 16.0, y: (height / 2.0 - 36.0).max(LANE_TOP), w: MAIN_W, h: 72.0 };
    let index = memloc_index(&lanes);
    Layout { shape: Shape::Seeds { main }, lanes, lane_x: LANE_X, width, height, index }
}

fn memloc_index(lanes: &[Lane]) -> HashMap<(u64, String, String), Rect> {
    lanes
        .iter()
        .flat_map(|lane| lane.memlocs.iter().map(move |m| ((lane.core, m.function.clone(), m.memloc.clone()), m.rect)))
        .collect()
}

/// Where a call box of the modular flow's row is.
const CALL_W: f64 = 46.0;
const CALL_H: f64 = 28.0;
const CALL_GAP: f64 = 6.0;
/// Room above the row of calls for the handoffs' arcs.
const ARC_ROOM: f64 = 64.0;
/// The grid's lanes start here (no `main` left of them).
const GRID_LANE_X: f64 = 8.0;
const GRID_MAIN_W: f64 = 150.0;

/// The layout of a report of the compiler's flows: per core, its `main` and its calls
/// in netlist order (modular), and the memory locations the VNC passes resolve across
/// the cores, one column per name.
pub fn grid(report: &Report) -> Layout {
    // The lanes: the cores of the dispatcher (modular), else of the grid's modules.
    let mut cores: Vec<u64> = report.dispatcher.iter().map(|d| d.core).collect();
    if cores.is_empty() {
        cores = report.subgraphs.iter().map(|s| s.core).collect();
    }
    cores.sort_unstable();
    cores.dedup();
    let module_of = |core: u64| -> Option<String> {
        if report.dispatcher.iter().any(|d| d.core == core) {
            return Some(Place::linked(core).to_string());
        }
        report.subgraphs.iter().find(|s| s.core == core).map(|s| s.module.clone())
    };
    // The memory locations: both ends of every address the VNC passes copied, and the
    // views a diagnostic is about.
    let mut memlocs = Memlocs::new(report, cores.iter().copied());
    for row in &report.address_map {
        memlocs.add(row.core, &row.function, &row.memloc);
        memlocs.add(row.owner_core, &row.owner_function, &row.remote);
    }
    memlocs.add_diagnosed(report);
    let calls_x = GRID_LANE_X + 12.0 + GRID_MAIN_W + 28.0;
    let column_x = |column: usize| calls_x + column as f64 * (MEMLOC_W + MEMLOC_GAP);
    let mut lanes = Vec::new();
    let mut y = LANE_TOP;
    let mut widest = 0usize;
    for &core in &cores {
        let calls: Vec<&birlink_core::output::report::DispatchRow> =
            report.dispatcher.iter().filter(|d| d.core == core).collect();
        widest = widest.max(calls.len());
        let has_memlocs = memlocs.by_core.contains_key(&core);
        let row_y = y + 22.0 + if calls.is_empty() { 0.0 } else { ARC_ROOM };
        let height = if calls.is_empty() { 22.0 } else { ARC_ROOM + 22.0 + CALL_H + 14.0 }
            + if has_memlocs { MEMLOC_H + 20.0 } else { 0.0 }
            + if calls.is_empty() && !has_memlocs { 24.0 } else { 0.0 };
        let mut targets: Vec<&str> = Vec::new();
        let call_nodes: Vec<CallNode> = calls
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let shade = match targets.iter().position(|t| *t == d.target) {
                    Some(at) => at,
                    None => {
                        targets.push(&d.target);
                        targets.len() - 1
                    }
                };
                CallNode {
                    call: d.call.clone(),
                    partition: d.partition,
                    target: d.target.clone(),
                    shade,
                    rect: Rect { x: calls_x + i as f64 * (CALL_W + CALL_GAP), y: row_y, w: CALL_W, h: CALL_H },
                }
            })
            .collect();
        let main = (!call_nodes.is_empty()).then_some(Rect {
            x: GRID_LANE_X + 12.0,
            y: row_y - 22.0,
            w: GRID_MAIN_W,
            h: CALL_H + 44.0,
        });
        let memloc_y = if call_nodes.is_empty() { y + 26.0 } else { row_y + CALL_H + 14.0 };
        let memloc_nodes =
            memlocs.nodes(core, |column| Rect { x: column_x(column), y: memloc_y, w: MEMLOC_W, h: MEMLOC_H });
        lanes.push(Lane {
            core,
            y,
            height,
            module: module_of(core),
            function: None,
            main,
            calls: call_nodes,
            others: Vec::new(),
            other_count: 0,
            memlocs: memloc_nodes,
        });
        y += height + LANE_GAP;
    }
    let calls_w = widest as f64 * (CALL_W + CALL_GAP);
    let memlocs_w = memlocs.columns.len() as f64 * (MEMLOC_W + MEMLOC_GAP);
    let width = (calls_x + calls_w.max(memlocs_w).max(MEMLOC_W) + 20.0).max(560.0);
    let index = memloc_index(&lanes);
    Layout { shape: Shape::Grid, lanes, lane_x: GRID_LANE_X, width, height: y + 6.0, index }
}

/// The scale that fits a graph `width` wide into `available` pixels: never above 1,
/// never below [`MIN_FIT`]; 1 when nothing was measured.
pub fn fit(available: f64, width: f64) -> f64 {
    if available > 0.0 && width > 0.0 {
        (available / width).clamp(MIN_FIT, 1.0)
    } else {
        1.0
    }
}

/// `text`, cut with `…` to fit `width` pixels of the graph's monospace font.
pub fn text_fit(text: &str, width: f64) -> String {
    let max = (width / 7.2) as usize;
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let kept: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// The report of a sample, linked natively (for the graph's tests).
#[cfg(test)]
pub(crate) fn sample_report(file: &str) -> Report {
    let bytes = std::fs::read(format!("{}/www/samples/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default();
    let source = birlink_core::SourceFile {
        path: file.into(),
        content: birlink_core::Content::Bytes(bytes),
        role: birlink_core::Role::Auto,
    };
    birlink_core::run(vec![source], &birlink_core::LinkOptions::default()).report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(file: &str) -> Report {
        sample_report(file)
    }

    #[test]
    fn one_lane_per_core_and_both_ends_of_a_handoff_share_a_column() {
        let report = report("ring-4core.json");
        let graph = layout(&report);
        assert_eq!(graph.lanes.iter().map(|l| l.core).collect::<Vec<_>>(), vec![0, 1, 2, 3]);
        assert!(!report.aliases.is_empty());
        for alias in &report.aliases {
            let c = &alias.consumer;
            let p = &alias.producer;
            let from = graph.memloc(c.core, &c.function, &c.memloc).expect("consumer drawn");
            let to = graph.memloc(p.core, &p.function, &p.memloc).expect("producer drawn");
            assert!(from.y != to.y, "the two ends are in different lanes");
        }
        for lane in &graph.lanes {
            for node in &lane.memlocs {
                assert!(node.rect.x + node.rect.w <= graph.width, "{} fits the width", node.memloc);
            }
        }
    }

    #[test]
    fn the_view_a_failure_is_about_is_drawn_and_marked() {
        let report = report("error-1514.json");
        let graph = layout(&report);
        let failing: Vec<&MemlocNode> =
            graph.lanes.iter().flat_map(|l| &l.memlocs).filter(|m| m.failure.is_some()).collect();
        assert_eq!(failing.len(), 1);
        assert!(failing[0].failure.as_deref().is_some_and(|f| f.starts_with("1514 ")));
    }

    #[test]
    fn a_graph_fits_its_frame_within_bounds() {
        assert_eq!(fit(0.0, 900.0), 1.0, "nothing measured");
        assert_eq!(fit(2000.0, 900.0), 1.0, "never above 1");
        assert_eq!(fit(100.0, 900.0), MIN_FIT, "never below legible");
        assert_eq!(text_fit("short", 100.0), "short");
        assert_eq!(text_fit("a_rather_long_memory_location_name", 72.0), "a_rather_…");
    }
}
