//! The call graph as a display list: every box, path and label with its position and
//! its text already fitted, made once from the [`Layout`] and the report. The page's
//! canvas ([`super::Canvas`]) and the SVG export ([`super::svg`]) only map it to markup
//! — neither computes an offset or cuts a name — so the file a user downloads is the
//! picture on the screen.

use birlink_core::english::counted;
use birlink_core::model::place::CoreId;
use birlink_core::output::report::Report;
use birlink_core::EntityKind;

use super::layout::{text_fit, Layout, Rect, Shape, LANE_X};

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
    /// A dispatcher's call of one partition (the modular flow), shaded by the function
    /// it calls (the lane's n-th, from 0).
    Call(usize),
}

impl NodeKind {
    /// Its class.
    pub fn class(self) -> &'static str {
        match self {
            NodeKind::Main => "main",
            NodeKind::CoreFunction => "core-fn",
            NodeKind::Other => "other",
            NodeKind::Memloc => "memloc",
            NodeKind::Call(shade) => [
                "call-node shade-0",
                "call-node shade-1",
                "call-node shade-2",
                "call-node shade-3",
                "call-node shade-4",
                "call-node shade-5",
            ][shade % 6],
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
            NodeKind::Call(_) => data.push(("data-call", name.clone())),
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
    /// The modular flow's dispatcher calls, a box each (drawn after the lanes and
    /// functions, in a task of their own: a real model has dozens per core).
    pub call_nodes: Vec<Node>,
    /// Texts outside any box (`+ 3 other functions`).
    pub notes: Vec<Label>,
    /// The memory-location nodes.
    pub memlocs: Vec<Node>,
    /// The alias edges whose ends are both drawn (the compiler's flows: the addresses
    /// the VNC passes copy across the cores, view to owner).
    pub aliases: Vec<Edge>,
    /// The modular flow: each intermediate's handoff, from the call producing it to a
    /// call consuming it (one arc per pair of calls).
    pub handoffs: Vec<Edge>,
}

fn label(x: f64, y: f64, text: String, class: Option<&'static str>) -> Label {
    Label { x, y, text, class, end: false }
}

/// The display list of a report's call graph, from its layout: the flow's shape decides.
pub fn scene(report: &Report, graph: &Layout) -> Scene {
    match graph.shape {
        Shape::Seeds { main } => seeds_scene(report, graph, main),
        Shape::Grid => grid_scene(report, graph),
    }
}

/// The seeds' reading: `main`'s dispatcher of the cores, and the alias edges.
fn seeds_scene(report: &Report, graph: &Layout, main: Rect) -> Scene {
    let lanes = graph
        .lanes
        .iter()
        .map(|lane| LaneBox {
            core: lane.core,
            rect: Rect { x: LANE_X, y: lane.y, w: graph.width - LANE_X - 6.0, h: lane.height },
            label: label(LANE_X + 8.0, lane.y + 15.0, format!("core {}", lane.core), Some("lane-label")),
        })
        .collect();
    let calls = graph
        .lanes
        .iter()
        .filter_map(|lane| {
            let call =
                report.dispatcher.iter().find(|d| d.core == lane.core).map(|d| d.call.clone()).unwrap_or_default();
            let function = lane.function.as_ref()?.1;
            Some(Edge {
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
            })
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
        let Some((name, rect)) = &lane.function else { continue };
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
        memlocs.extend(lane.memlocs.iter().map(|node| memloc_node(lane.core, node)));
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
        handoffs: Vec::new(),
        call_nodes: Vec::new(),
    }
}

/// A memory-location node (both scenes draw them alike).
fn memloc_node(core: u64, node: &super::layout::MemlocNode) -> Node {
    let r = node.rect;
    let mark = if node.failure.is_some() { "✕ " } else { "" };
    let text = text_fit(&format!("{mark}{}", node.memloc), r.w - 14.0);
    let whole = format!("{} in {} (core {core})", node.memloc, node.function);
    let title = match &node.failure {
        Some(message) => Some(message.clone()),
        None if text.ends_with('…') => Some(whole),
        None => None,
    };
    let description = match &node.failure {
        Some(message) => format!("memory location {} in {}, core {core}: {message}", node.memloc, node.function),
        None => format!("memory location {} in {}, core {core}", node.memloc, node.function),
    };
    Node {
        kind: NodeKind::Memloc,
        rect: r,
        rx: 13.0,
        labels: vec![label(r.x + 10.0, r.y + 17.0, text, None)],
        title,
        description,
        select: (EntityKind::Memloc, node.memloc.clone(), Some(node.function.clone())),
        failing: node.failure.is_some(),
        core: Some(core),
    }
}

/// The display list of the compiler's flows: each core's lane with its module, its
/// `main` and its calls (modular), the handoffs between calls, the memory locations
/// and the addresses the VNC passes copy across the cores.
fn grid_scene(report: &Report, graph: &Layout) -> Scene {
    let modular = graph.lanes.iter().any(|l| !l.calls.is_empty());
    let lanes = graph
        .lanes
        .iter()
        .map(|lane| {
            let module = lane.module.clone().unwrap_or_else(|| CoreId(lane.core).to_string());
            let text = if lane.calls.is_empty() {
                format!("core {} · {module}", lane.core)
            } else {
                let mut targets: Vec<(&str, usize)> = Vec::new();
                for call in &lane.calls {
                    match targets.iter_mut().find(|(t, _)| *t == call.target) {
                        Some((_, n)) => *n += 1,
                        None => targets.push((&call.target, 1)),
                    }
                }
                let calls: Vec<String> = targets.iter().map(|(t, n)| format!("{t} ×{n}")).collect();
                format!("core {} · {module} · {}: {}", lane.core, counted(lane.calls.len(), "call"), calls.join(", "))
            };
            LaneBox {
                core: lane.core,
                rect: Rect { x: graph.lane_x, y: lane.y, w: graph.width - graph.lane_x - 6.0, h: lane.height },
                label: label(graph.lane_x + 8.0, lane.y + 15.0, text, Some("lane-label")),
            }
        })
        .collect();
    let mut functions = Vec::new();
    let mut call_nodes = Vec::new();
    let mut memlocs = Vec::new();
    for lane in &graph.lanes {
        if let Some(main) = lane.main {
            let calls = counted(lane.calls.len(), "call");
            let module = lane.module.clone().unwrap_or_default();
            functions.push(Node {
                kind: NodeKind::Main,
                rect: main,
                rx: 8.0,
                labels: vec![
                    label(main.x + 12.0, main.y + 28.0, "main · dispatcher".to_owned(), Some("node-title")),
                    label(main.x + 12.0, main.y + 50.0, text_fit(&calls, main.w - 20.0), None),
                ],
                title: Some(format!("main of {module}: {calls} in netlist order")),
                description: format!("function main of core {} ({module}): the dispatcher, {calls}", lane.core),
                select: (EntityKind::Function, "main".to_owned(), None),
                failing: false,
                core: Some(lane.core),
            });
        }
        for call in &lane.calls {
            let r = call.rect;
            let short = match call.partition {
                Some(p) => format!("p{p}"),
                None => call.call.trim_start_matches("call_def_").to_owned(),
            };
            let partition = call.partition.map(|p| format!(" (partition {p})")).unwrap_or_default();
            let about = format!("{}{partition} calls {}", call.call, call.target);
            call_nodes.push(Node {
                kind: NodeKind::Call(call.shade),
                rect: r,
                rx: 4.0,
                labels: vec![label(r.x + 6.0, r.y + 18.0, text_fit(&short, r.w - 10.0), None)],
                title: Some(format!("{about} (core {})", lane.core)),
                description: format!("call {about}, core {}", lane.core),
                select: (EntityKind::Instruction, call.call.clone(), Some("main".to_owned())),
                failing: false,
                core: Some(lane.core),
            });
        }
        memlocs.extend(lane.memlocs.iter().map(|node| memloc_node(lane.core, node)));
    }
    // One arc per pair of calls a handoff joins, its tensors in the tooltip.
    let mut pairs: std::collections::BTreeMap<(u64, String, String), Vec<String>> = std::collections::BTreeMap::new();
    for alias in &report.aliases {
        let (Some(consumer), Some(producer)) = (&alias.consumer.call, &alias.producer.call) else { continue };
        let tensor = alias.tensor.clone().unwrap_or_else(|| alias.consumer.memloc.clone());
        pairs.entry((alias.consumer.core, producer.clone(), consumer.clone())).or_default().push(tensor);
    }
    let handoffs = pairs
        .into_iter()
        .filter_map(|((core, producer, consumer), tensors)| {
            let from = graph.call(core, &producer)?;
            let to = graph.call(core, &consumer)?;
            Some(Edge {
                d: arc_path(from, to),
                label: None,
                title: Some(format!("{producer} hands {} to {consumer} (core {core})", tensors.join(", "))),
                ends: None,
            })
        })
        .collect::<Vec<_>>();
    let aliases = report
        .address_map
        .iter()
        .filter_map(|row| {
            let from = graph.memloc(row.core, &row.function, &row.memloc)?;
            let to = graph.memloc(row.owner_core, &row.owner_function, &row.remote)?;
            Some(Edge {
                d: alias_path(from, to, row.core),
                label: None,
                title: Some(format!(
                    "{} (core {}) is a remote view of {} (core {}): vnc_remote_addr_map copies its address",
                    row.memloc, row.core, row.remote, row.owner_core
                )),
                ends: Some((row.memloc.clone(), row.remote.clone())),
            })
        })
        .collect::<Vec<_>>();
    let description = if modular {
        format!(
            "Call graph, modular flow: {} each linked by bir_linker, {}; {}; {} across the cores",
            counted(graph.lanes.len(), "core"),
            counted(report.dispatcher.len(), "dispatcher call"),
            counted(handoffs.len(), "handoff"),
            counted(aliases.len(), "address")
        )
    } else {
        format!(
            "Cores, flat flow (the compiler runs no bir_linker): {}; {} across the cores",
            counted(graph.lanes.len(), "core"),
            counted(aliases.len(), "address")
        )
    };
    Scene {
        width: graph.width,
        height: graph.height,
        description,
        lanes,
        calls: Vec::new(),
        functions,
        call_nodes,
        notes: Vec::new(),
        memlocs,
        aliases,
        handoffs,
    }
}

/// An arc over a lane's row of calls, from the producing call to the consuming one;
/// longer handoffs bow higher (within the room above the row).
fn arc_path(from: Rect, to: Rect) -> String {
    let (x1, x2) = (from.center().0, to.center().0);
    let y = from.y;
    let bow = (10.0 + (x2 - x1).abs() * 0.12).min(58.0);
    format!("M {x1:.1} {y:.1} C {x1:.1} {:.1}, {x2:.1} {:.1}, {x2:.1} {y:.1}", y - bow, y - bow)
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
    fn the_modular_flow_draws_each_cores_calls_in_netlist_order_and_every_handoff() {
        let report = sample_report("moe-2core.json");
        assert_eq!(report.options.flow, birlink_core::Flow::Modular);
        let graph = layout(&report);
        let scene = scene(&report, &graph);
        assert_eq!(graph.lanes.iter().map(|l| l.core).collect::<Vec<_>>(), vec![0, 1]);
        for lane in &graph.lanes {
            assert_eq!(lane.module.as_deref(), Some(format!("nc{:02}/sgLnk", lane.core).as_str()));
            let partitions: Vec<Option<u64>> = lane.calls.iter().map(|c| c.partition).collect();
            assert_eq!(partitions, (0..48).map(Some).collect::<Vec<_>>(), "netlist order");
            assert!(lane.calls.windows(2).all(|w| w[0].rect.x + w[0].rect.w < w[1].rect.x), "left to right, apart");
            // Three functions: the embedding once, the layer 46 times, the head once.
            let shades: Vec<usize> = lane.calls.iter().map(|c| c.shade).collect();
            assert_eq!((shades[0], shades[1], shades[46], shades[47]), (0, 1, 1, 2));
            for call in &lane.calls {
                assert!(call.rect.x + call.rect.w <= graph.width && call.rect.y + call.rect.h <= lane.y + lane.height);
            }
        }
        assert!(scene.call_nodes.iter().all(|n| matches!(n.kind, NodeKind::Call(_))));
        assert_eq!(scene.call_nodes.len(), report.dispatcher.len());
        assert_eq!(scene.functions.iter().filter(|n| n.kind == NodeKind::Main).count(), 2, "one main per core");
        // One arc per pair of calls some intermediate joins, on each core.
        let mut pairs = std::collections::BTreeSet::new();
        for a in &report.aliases {
            pairs.insert((a.consumer.core, a.producer.call.clone(), a.consumer.call.clone()));
        }
        assert!(!pairs.is_empty());
        assert_eq!(scene.handoffs.len(), pairs.len());
        assert_eq!(scene.aliases.len(), report.address_map.len(), "every address copied across the cores");
        for node in scene.functions.iter().chain(&scene.call_nodes) {
            for label in &node.labels {
                let r = node.rect;
                assert!(label.x + label.text.chars().count() as f64 * 7.2 <= r.x + r.w + 0.5, "{label:?} in {r:?}");
            }
        }
        let svg = super::super::svg::document(&scene, true, false);
        assert!(roxmltree::Document::parse(&svg).is_ok());
    }

    #[test]
    fn the_flat_flow_draws_the_cores_and_what_crosses_between_them() {
        let report = sample_report("flat-2core.json");
        assert_eq!(report.options.flow, birlink_core::Flow::Flat);
        let graph = layout(&report);
        let scene = scene(&report, &graph);
        assert_eq!(graph.lanes.len(), 2);
        assert!(graph.lanes.iter().all(|l| l.calls.is_empty() && l.main.is_none()));
        assert!(!report.address_map.is_empty());
        assert_eq!(scene.aliases.len(), report.address_map.len());
        assert!(scene.description.contains("no bir_linker"), "{}", scene.description);
    }

    #[test]
    fn a_modular_failure_across_cores_marks_the_view() {
        let report = sample_report("moe-1514.json");
        let scene = scene(&report, &layout(&report));
        let failing: Vec<&Node> = scene.memlocs.iter().filter(|n| n.failing).collect();
        assert_eq!(failing.len(), 1, "{:?}", scene.memlocs);
        assert!(failing[0].title.as_deref().is_some_and(|t| t.starts_with("1514 ")));
        assert_eq!(failing[0].core, Some(1));
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
