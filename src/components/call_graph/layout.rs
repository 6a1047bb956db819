//! Where everything of the call graph goes: a pure function of the report, so it is the
//! same from run to run, exports as SVG at its natural size, and is tested natively.
//!
//! One lane per core (in core order): the core function, up to three of its other
//! functions stacked behind it, and the memory locations on either end of an alias edge
//! (or named by a diagnostic), one column per name across all lanes so both ends of a
//! handoff line up. `main`'s dispatcher sits left of the lanes.

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

/// One lane: a core, its functions, the memory locations that take part in handoffs.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The core.
    pub core: u64,
    /// Its top.
    pub y: f64,
    /// Its height.
    pub height: f64,
    /// The core function and where it is.
    pub function: (String, Rect),
    /// The core's other functions (at most three drawn), and how many it has.
    pub others: Vec<(String, Rect)>,
    /// How many other functions the core has in all.
    pub other_count: usize,
    /// Memory locations.
    pub memlocs: Vec<MemlocNode>,
}

/// Everything drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The lanes, in core order.
    pub lanes: Vec<Lane>,
    /// `main`.
    pub main: Rect,
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
}

/// At most this many memory locations are drawn because a diagnostic names them (a
/// link set with thousands of one warning would draw a wall of nodes; the Diagnostics
/// view lists them all).
pub const MAX_DIAGNOSED_MEMLOCS: usize = 64;

/// The layout of a report's call graph.
pub fn layout(report: &Report) -> Layout {
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
    // Memory locations on either end of an alias edge, and views a diagnostic is about:
    // one column per name, in the order first seen.
    let mut columns: HashMap<String, usize> = HashMap::new();
    let mut seen: HashSet<(u64, String, String)> = HashSet::new();
    let mut memlocs: BTreeMap<u64, Vec<(String, String)>> = BTreeMap::new();
    let mut add = |core: u64, function: &str, memloc: &str| {
        let next = columns.len();
        columns.entry(memloc.to_owned()).or_insert(next);
        if seen.insert((core, function.to_owned(), memloc.to_owned())) {
            memlocs.entry(core).or_default().push((function.to_owned(), memloc.to_owned()));
        }
    };
    for alias in &report.aliases {
        add(alias.consumer.core, &alias.consumer.function, &alias.consumer.memloc);
        add(alias.producer.core, &alias.producer.function, &alias.producer.memloc);
    }
    let lane_cores: HashSet<u64> = cores.iter().map(|(c, _)| *c).collect();
    let mut diagnosed = 0;
    for d in &report.diagnostics {
        if let (Some(entity), Some(core)) = (&d.entity, d.core) {
            if entity.kind == EntityKind::Memloc && lane_cores.contains(&core) && diagnosed < MAX_DIAGNOSED_MEMLOCS {
                add(core, entity.parent.as_deref().unwrap_or(""), &entity.name);
                diagnosed += 1;
            }
        }
    }
    // The first error about each memory location, looked up once per node.
    let mut failures: HashMap<(u64, &str, &str), String> = HashMap::new();
    for d in report.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        if let (Some(entity), Some(core)) = (&d.entity, d.core) {
            if entity.kind == EntityKind::Memloc {
                let key = (core, entity.parent.as_deref().unwrap_or(""), entity.name.as_str());
                failures.entry(key).or_insert_with(|| format!("{} {}", d.code, d.message));
            }
        }
    }
    let failure = |core: u64, function: &str, memloc: &str| failures.get(&(core, function, memloc)).cloned();
    let column_x = |name: &str| -> f64 {
        let index = columns.get(name).copied().unwrap_or(0);
        MEMLOC_X + index as f64 * (MEMLOC_W + MEMLOC_GAP)
    };
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
        let memloc_nodes: Vec<MemlocNode> = memlocs
            .remove(core)
            .unwrap_or_default()
            .into_iter()
            .map(|(function, memloc)| {
                let rect =
                    Rect { x: column_x(&memloc), y: y + height / 2.0 - MEMLOC_H / 2.0, w: MEMLOC_W, h: MEMLOC_H };
                let failure = failure(*core, &function, &memloc);
                MemlocNode { function, memloc, rect, failure }
            })
            .collect();
        lanes.push(Lane {
            core: *core,
            y,
            height,
            function: (function.clone(), function_rect),
            others: other_rects,
            other_count: all_others.len(),
            memlocs: memloc_nodes,
        });
        y += height + LANE_GAP;
    }
    let height = y + 6.0;
    let width = MEMLOC_X + columns.len().max(1) as f64 * (MEMLOC_W + MEMLOC_GAP) + 20.0;
    let main = Rect { x: 16.0, y: (height / 2.0 - 36.0).max(LANE_TOP), w: MAIN_W, h: 72.0 };
    let index = lanes
        .iter()
        .flat_map(|lane| lane.memlocs.iter().map(move |m| ((lane.core, m.function.clone(), m.memloc.clone()), m.rect)))
        .collect();
    Layout { lanes, main, width, height, index }
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
