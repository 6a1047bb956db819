//! The call graph as a display list: every box, path and label with its position and
//! its text already fitted, made once from the [`Layout`] and the report. The page's
//! canvas ([`super::Canvas`]) and the SVG export ([`super::svg`]) only map it to markup
//! — neither computes an offset or cuts a name — so the file a user downloads is the
//! picture on the screen.

use birlink_core::diag::counted;
use birlink_core::output::report::Report;
use birlink_core::EntityKind;

use super::layout::{text_fit, Layout, Rect, LANE_X};

/// A text drawn at a point.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where it starts (or ends, with `end`).
    pub x: f64,
    /// Its baseline.
    pub y: f64,
    /// The text, cut to fit where it is drawn.
    pub text: String,
    /// Its class (`node-title`, `lane-label`, …), when it has one.
    pub class: Option<&'static str>,
    /// Anchored at its end rather than its start.
    pub end: bool,
}

/// A lane's background and its title.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneBox {
    /// The core.
    pub core: u64,
    /// The lane.
    pub rect: Rect,
    /// `core N`.
    pub label: Label,
}

/// What kind of node a box is (its class, and what the page does with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// `main`, the dispatcher.
    Main,
    /// A core's function, called by the dispatcher.
    CoreFunction,
    /// Another function of a core, stacked behind its core function.
    Other,
    /// A memory location at one end of an alias edge, or named by a diagnostic.
    Memloc,
}

impl NodeKind {
    /// Its class.
    pub fn class(self) -> &'static str {
        match self {
            NodeKind::Main => "main",
            NodeKind::CoreFunction => "core-fn",
            NodeKind::Other => "other",
            NodeKind::Memloc => "memloc",
        }
    }
}

/// A box that stands for an entity.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Where.
    pub rect: Rect,
    /// Its corner radius.
    pub rx: f64,
    /// The texts inside it.
    pub labels: Vec<Label>,
    /// Its tooltip, where the box does not already say it all (a failure's message, a
    /// name cut to fit).
    pub title: Option<String>,
    /// What it is, said whole (the page's `aria-label`).
    pub description: String,
    /// The entity it selects: kind, name, parent.
    pub select: (EntityKind, String, Option<String>),
    /// An error is about it.
    pub failing: bool,
    /// The core it belongs to, when one.
    pub core: Option<u64>,
}

impl Node {
    /// Its data attributes, the same on the page and in the export: what it selects
    /// (`data-select-kind`, `-name`, `-parent`), and the function, memory location and
    /// core it is.
    pub fn data(&self) -> Vec<(&'static str, String)> {
        let (kind, name, parent) = &self.select;
        let mut data = vec![("data-select-kind", kind.as_str().to_owned()), ("data-select-name", name.clone())];
        if let Some(parent) = parent {
            data.push(("data-select-parent", parent.clone()));
        }
        match self.kind {
            NodeKind::Memloc => {
                data.push(("data-memloc", name.clone()));
                data.extend(parent.iter().map(|p| ("data-function", p.clone())));
            }
            _ => data.push(("data-function", name.clone())),
        }
        data.extend(self.core.map(|core| ("data-core", core.to_string())));
        data
    }
}

/// A curve between two boxes, with its arrow.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// The path's `d`.
    pub d: String,
    /// Its label, when drawn (a dispatcher call's name).
    pub label: Option<Label>,
    /// Its tooltip (an alias edge's ends and kind).
    pub title: Option<String>,
    /// For an alias edge: the consumer's and the producer's memory locations.
    pub ends: Option<(String, String)>,
}

/// Everything drawn, in drawing order.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Natural width.
    pub width: f64,
    /// Natural height.
    pub height: f64,
    /// What it shows, said whole.
    pub description: String,
    /// The lanes.
    pub lanes: Vec<LaneBox>,
    /// `main`'s calls, one per core.
    pub calls: Vec<Edge>,
    /// `main`, then each lane's other functions (the furthest first) and its core
    /// function.
    pub functions: Vec<Node>,
    /// Texts outside any box (`+ 3 other functions`).
    pub notes: Vec<Label>,
    /// The memory-location nodes.
    pub memlocs: Vec<Node>,
    /// The alias edges whose ends are both drawn.
    pub aliases: Vec<Edge>,
}

fn label(x: f64, y: f64, text: String, class: Option<&'static str>) -> Label {
    Label { x, y, text, class, end: false }
}

/// The display list of a report's call graph, from its layout.
pub fn scene(report: &Report, graph: &Layout) -> Scene {
    let lanes = graph
        .lanes
        .iter()
        .map(|lane| LaneBox {
            core: lane.core,
            rect: Rect { x: LANE_X, y: lane.y, w: graph.width - LANE_X - 6.0, h: lane.height },
            label: label(LANE_X + 8.0, lane.y + 15.0, format!("core {}", lane.core), Some("lane-label")),
        })
        .collect();
    let main = graph.main;
    let calls = graph
        .lanes
        .iter()
        .map(|lane| {
            let call =
                report.dispatcher.iter().find(|d| d.core == lane.core).map(|d| d.call.clone()).unwrap_or_default();
            let function = lane.function.1;
            Edge {
                d: call_path(main, function),
                label: Some(Label {
                    x: function.x - 6.0,
                    y: function.y + function.h / 2.0 - 8.0,
                    text: call,
                    class: Some("call-label"),
                    end: true,
                }),
                title: None,
                ends: None,
            }
        })
        .collect();
    let calls_count = counted(report.dispatcher.len(), "call");
    let mut functions = vec![Node {
        kind: NodeKind::Main,
        rect: main,
        rx: 8.0,
        labels: vec![
            label(main.x + 12.0, main.y + 30.0, "main · dispatcher".to_owned(), Some("node-title")),
            label(main.x + 12.0, main.y + 52.0, calls_count.clone(), None),
        ],
        title: None,
        description: format!("function main: the dispatcher, {calls_count}"),
        select: (EntityKind::Function, "main".to_owned(), None),
        failing: false,
        core: None,
    }];
    let mut notes = Vec::new();
    let mut memlocs = Vec::new();
    for lane in &graph.lanes {
        for (other, rect) in lane.others.iter().rev() {
            let about = format!("{other}: a function of core {} not called by the dispatcher", lane.core);
            functions.push(Node {
                kind: NodeKind::Other,
                rect: *rect,
                rx: 4.0,
                labels: Vec::new(),
                title: Some(about.clone()),
                description: format!("function {about}"),
                select: (EntityKind::Function, other.clone(), None),
                failing: false,
                core: Some(lane.core),
            });
        }
        let (name, rect) = &lane.function;
        let about = format!("{name}: core {}'s function", lane.core);
        functions.push(Node {
            kind: NodeKind::CoreFunction,
            rect: *rect,
            rx: 6.0,
            labels: vec![label(rect.x + 10.0, rect.y + 21.0, text_fit(name, rect.w - 16.0), Some("node-title"))],
            title: Some(about.clone()),
            description: format!("function {about}"),
            select: (EntityKind::Function, name.clone(), None),
            failing: false,
            core: Some(lane.core),
        });
        if lane.other_count > 0 {
            let text = format!("+ {}", counted(lane.other_count, "other function"));
            notes.push(label(rect.x, rect.y + rect.h + 14.0, text, Some("muted-text")));
        }
        for node in &lane.memlocs {
            let r = node.rect;
            let mark = if node.failure.is_some() { "✕ " } else { "" };
            let text = text_fit(&format!("{mark}{}", node.memloc), r.w - 14.0);
            let whole = format!("{} in {} (core {})", node.memloc, node.function, lane.core);
            let title = match &node.failure {
                Some(message) => Some(message.clone()),
                None if text.ends_with('…') => Some(whole),
                None => None,
            };
            let description = match &node.failure {
                Some(message) => {
                    format!("memory location {} in {}, core {}: {message}", node.memloc, node.function, lane.core)
                }
                None => format!("memory location {} in {}, core {}", node.memloc, node.function, lane.core),
            };
            memlocs.push(Node {
                kind: NodeKind::Memloc,
                rect: r,
                rx: 13.0,
                labels: vec![label(r.x + 10.0, r.y + 17.0, text, None)],
                title,
                description,
                select: (EntityKind::Memloc, node.memloc.clone(), Some(node.function.clone())),
                failing: node.failure.is_some(),
                core: Some(lane.core),
            });
        }
    }
    let aliases = report
        .aliases
        .iter()
        .filter_map(|alias| {
            let (c, p) = (&alias.consumer, &alias.producer);
            let from = graph.memloc(c.core, &c.function, &c.memloc)?;
            let to = graph.memloc(p.core, &p.function, &p.memloc)?;
            Some(Edge {
                d: alias_path(from, to, c.core),
                label: None,
                title: Some(format!(
                    "{} (core {}) aliases {} (core {}), kind {} from {}",
                    c.memloc, c.core, p.memloc, p.core, alias.kind, alias.source
                )),
                ends: Some((c.memloc.clone(), p.memloc.clone())),
            })
        })
        .collect();
    Scene {
        width: graph.width,
        height: graph.height,
        description: format!(
            "Call graph: main calls {}; {}",
            counted(report.dispatcher.len(), "core function"),
            counted(report.aliases.len(), "alias edge")
        ),
        lanes,
        calls,
        functions,
        notes,
        memlocs,
        aliases,
    }
}

/// The curve of `main`'s call to a lane's function.
fn call_path(main: Rect, function: Rect) -> String {
    let (mx, my) = (main.x + main.w, main.y + main.h / 2.0);
    let (fx, fy) = (function.x, function.y + function.h / 2.0);
    let midx = (mx + fx) / 2.0;
    format!("M {mx:.1} {my:.1} C {midx:.1} {my:.1}, {midx:.1} {fy:.1}, {fx:.1} {fy:.1}")
}

/// The curve of an alias edge from its consumer's node to its producer's. Ends of a
/// handoff share a column: a vertical link, nudged per consumer core so fan-ins stay
/// apart.
fn alias_path(from: Rect, to: Rect, consumer_core: u64) -> String {
    let nudge = (consumer_core % 6) as f64 * 9.0 - 22.0;
    let (x1, x2) = (from.center().0 + nudge, to.center().0 + nudge);
    let (y1, y2) = if from.y < to.y { (from.y + from.h, to.y) } else { (from.y, to.y + to.h) };
    let mid = (y1 + y2) / 2.0;
    let bow = if (x1 - x2).abs() < 1.0 { 14.0 } else { 0.0 };
    format!("M {x1:.1} {y1:.1} C {:.1} {mid:.1}, {:.1} {mid:.1}, {x2:.1} {y2:.1}", x1 + bow, x2 + bow)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::call_graph::layout::{layout, sample_report};

    #[test]
    fn every_entity_has_one_node_and_every_drawn_edge_both_ends() {
        for file in ["ring-4core.json", "error-1514.json", "matmul-2core.json"] {
            let report = sample_report(file);
            let graph = layout(&report);
            let scene = scene(&report, &graph);
            assert_eq!(scene.lanes.len(), graph.lanes.len(), "{file}");
            assert_eq!(scene.calls.len(), report.dispatcher.len(), "{file}: one call per core");
            let memlocs: usize = graph.lanes.iter().map(|l| l.memlocs.len()).sum();
            assert_eq!(scene.memlocs.len(), memlocs, "{file}");
            assert_eq!(scene.aliases.len(), report.aliases.len(), "{file}: both ends of every alias are drawn");
            for node in scene.functions.iter().chain(&scene.memlocs) {
                for label in &node.labels {
                    // A label starts inside its box and fits it (monospace, 7.2 px a char).
                    let r = node.rect;
                    assert!(label.x >= r.x && label.y > r.y && label.y < r.y + r.h, "{file}: {label:?} in {r:?}");
                    assert!(label.x + label.text.chars().count() as f64 * 7.2 <= r.x + r.w + 0.5, "{file}: {label:?}");
                }
            }
        }
    }

    #[test]
    fn a_name_cut_to_fit_keeps_its_whole_name_in_its_tooltip() {
        let report = sample_report("error-1514.json");
        let scene = scene(&report, &layout(&report));
        let failing: Vec<&Node> = scene.memlocs.iter().filter(|n| n.failing).collect();
        assert_eq!(failing.len(), 1);
        assert!(failing[0].title.as_deref().is_some_and(|t| t.starts_with("1514 ")));
        assert!(failing[0].labels[0].text.starts_with("✕ "));
        for node in &scene.memlocs {
            if node.labels[0].text.ends_with('…') {
                assert!(node.title.as_deref().is_some_and(|t| t.contains(&node.select.1)), "{node:?}");
            }
        }
    }
}
