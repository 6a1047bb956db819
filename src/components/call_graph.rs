//! The call graph: `main`'s dispatcher calling one function per core, one lane per core,
//! the cross-core alias edges between lanes.
//!
//! The layout is a function of the report only (lane = core, columns in report order),
//! so it is stable from run to run and can be exported as SVG. Pan with the mouse, zoom
//! with the wheel or the buttons; click a node for its details.

use birlink_core::diag::counted;
use std::collections::BTreeMap;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::query::EntityQuery;
use birlink_core::report::Report;

use super::{is_selected, use_app};
use crate::state::{Action, Selection};

const LANE_TOP: f64 = 36.0;
const LANE_HEIGHT: f64 = 84.0;
const LANE_GAP: f64 = 14.0;
const MAIN_W: f64 = 120.0;
const LANE_X: f64 = 160.0;
const CORE_X: f64 = 330.0;
const FUNCTION_W: f64 = 120.0;
const MEMLOC_X: f64 = 480.0;
const MEMLOC_W: f64 = 132.0;
const MEMLOC_H: f64 = 26.0;
const MEMLOC_GAP: f64 = 12.0;
/// The view starts fitted to the frame's width, but never smaller than this (text
/// must stay legible); pan for the rest.
const MIN_FIT: f64 = 0.75;

/// A node's box.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn center(self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// One lane: a core, its functions, the memory locations that take part in handoffs.
#[derive(Clone, Debug, PartialEq)]
struct Lane {
    core: u64,
    y: f64,
    height: f64,
    function: (String, Rect),
    others: Vec<(String, Rect)>,
    memlocs: Vec<(String, String, Rect)>,
}

/// Everything drawn, computed from the report.
#[derive(Clone, Debug, PartialEq)]
struct Layout {
    lanes: Vec<Lane>,
    main: Rect,
    width: f64,
    height: f64,
}

fn layout(report: &Report) -> Layout {
    // Functions per core: the dispatcher's targets, then the other copied functions.
    let mut cores: Vec<(u64, String)> = report.dispatcher.iter().map(|d| (d.core, d.target.clone())).collect();
    cores.sort();
    let mut others: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    if let Some(step) = report.passes.iter().flat_map(|p| &p.steps).find(|s| s.name == "copy_functions") {
        for edit in &step.edits {
            let Some(name) = edit.unit.strip_prefix("function ") else { continue };
            if let Some((core, _)) = cores.iter().find(|(_, f)| name.starts_with(&format!("{f}/"))) {
                let list = others.entry(*core).or_default();
                if !list.iter().any(|n| n == name) {
                    list.push(name.to_owned());
                }
            }
        }
    }
    // Memory locations on either end of an alias edge, and views a diagnostic is about.
    // One column per name across all lanes: both ends of a handoff line up.
    let mut columns: Vec<String> = Vec::new();
    let mut memlocs: BTreeMap<u64, Vec<(String, String)>> = BTreeMap::new();
    let mut add = |core: u64, function: &str, memloc: &str| {
        if !columns.iter().any(|c| c == memloc) {
            columns.push(memloc.to_owned());
        }
        let list = memlocs.entry(core).or_default();
        if !list.iter().any(|(f, m)| f == function && m == memloc) {
            list.push((function.to_owned(), memloc.to_owned()));
        }
    };
    for alias in &report.aliases {
        add(alias.consumer.core, &alias.consumer.function, &alias.consumer.memloc);
        add(alias.producer.core, &alias.producer.function, &alias.producer.memloc);
    }
    for d in &report.diagnostics {
        if let (Some(entity), Some(core)) = (&d.entity, d.core) {
            if entity.kind == "memloc" && cores.iter().any(|(c, _)| *c == core) {
                add(core, entity.parent.as_deref().unwrap_or(""), &entity.name);
            }
        }
    }
    let column_x = |name: &str| -> f64 {
        let index = columns.iter().position(|c| c == name).unwrap_or(0);
        MEMLOC_X + index as f64 * (MEMLOC_W + MEMLOC_GAP)
    };
    let mut lanes = Vec::new();
    let mut y = LANE_TOP;
    for (core, function) in &cores {
        let height = LANE_HEIGHT;
        let function_rect = Rect { x: CORE_X, y: y + height / 2.0 - 14.0, w: FUNCTION_W, h: 28.0 };
        let other_rects: Vec<(String, Rect)> = others
            .get(core)
            .map(|list| {
                list.iter()
                    .take(3)
                    .enumerate()
                    .map(|(i, name)| {
                        let r = Rect {
                            x: CORE_X + 6.0 + i as f64 * 6.0,
                            y: function_rect.y - 8.0 - i as f64 * 4.0,
                            w: FUNCTION_W,
                            h: 28.0,
                        };
                        (name.clone(), r)
                    })
                    .collect()
            })
            .unwrap_or_default();
        let memloc_rects: Vec<(String, String, Rect)> = memlocs
            .remove(core)
            .unwrap_or_default()
            .into_iter()
            .map(|(function, memloc)| {
                let rect =
                    Rect { x: column_x(&memloc), y: y + height / 2.0 - MEMLOC_H / 2.0, w: MEMLOC_W, h: MEMLOC_H };
                (function, memloc, rect)
            })
            .collect();
        lanes.push(Lane {
            core: *core,
            y,
            height,
            function: (function.clone(), function_rect),
            others: other_rects,
            memlocs: memloc_rects,
        });
        y += height + LANE_GAP;
    }
    let height = y + 6.0;
    let width = MEMLOC_X + columns.len().max(1) as f64 * (MEMLOC_W + MEMLOC_GAP) + 20.0;
    let main = Rect { x: 16.0, y: (height / 2.0 - 36.0).max(LANE_TOP), w: MAIN_W, h: 72.0 };
    Layout { lanes, main, width, height }
}

/// The scale that fits a graph `width` wide into `available` pixels: never above 1,
/// never below [`MIN_FIT`]; 1 when nothing was measured.
fn fit(available: f64, width: f64) -> f64 {
    if available > 0.0 && width > 0.0 {
        (available / width).clamp(MIN_FIT, 1.0)
    } else {
        1.0
    }
}

fn text_fit(text: &str, width: f64) -> String {
    let max = (width / 7.2) as usize;
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let kept: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{kept}…")
    }
}

/// The call graph view.
#[function_component(CallGraph)]
pub fn call_graph() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = &state.result else { return html! {} };
    let report = &result.report;
    let graph = use_memo(result.run, |_| layout(report));
    // Start fitted to the view's width, measured on the tab panel that already exists,
    // so switching to this tab draws the graph once; read before this render's DOM
    // exists, it costs no layout of the graph. The frame is the panel's width less
    // its 1 px borders.
    let fitted = use_mut_ref(|| false);
    let view = use_state(|| {
        let available = gloo::utils::document()
            .query_selector(".view")
            .ok()
            .flatten()
            .map(|panel| panel.client_width())
            .filter(|width| *width > 0);
        *fitted.borrow_mut() = available.is_some();
        (fit(available.map_or(0.0, |w| f64::from(w) - 6.0), graph.width), 0.0f64, 0.0f64)
    });
    let frame = use_node_ref();
    {
        // Fit to the frame itself when a run is shown that the first measure did not
        // cover (a new run while this view is open, or no panel to measure then):
        // measuring the drawn graph forces a layout, so only then.
        let view = view.clone();
        let frame = frame.clone();
        let width = graph.width;
        let fitted = fitted.clone();
        use_effect_with(result.run, move |_| {
            if std::mem::take(&mut *fitted.borrow_mut()) {
                return;
            }
            if let Some(element) = frame.cast::<web_sys::Element>() {
                let scale = fit(element.client_width() as f64 - 4.0, width);
                if (scale - view.0).abs() > 1e-3 || view.1 != 0.0 || view.2 != 0.0 {
                    view.set((scale, 0.0, 0.0));
                }
            }
        });
    }
    let drag = use_mut_ref(|| None::<(f64, f64, f64, f64)>);
    let show_table = use_state(|| false);

    if report.dispatcher.is_empty() {
        return html! {
            <div class="empty-state" id="call-graph">
                <p>{ "bir_linker did not run: there is no dispatcher to draw. See the diagnostics." }</p>
            </div>
        };
    }

    let select = |kind: &str, name: &str, parent: Option<&str>| {
        let context = context.clone();
        let query = EntityQuery { kind: kind.to_owned(), name: name.to_owned(), parent: parent.map(str::to_owned) };
        Callback::from(move |event: MouseEvent| {
            event.stop_propagation();
            context.dispatch(Action::Select(Selection::Entity(query.clone())));
        })
    };
    // The wheel zooms the graph instead of scrolling the page, so its listener must
    // not be passive (yew's are).
    let svg_ref = use_node_ref();
    {
        let view = view.clone();
        let svg_ref = svg_ref.clone();
        use_effect_with((*view, svg_ref.clone()), move |_| {
            let listener = svg_ref.cast::<web_sys::Element>().map(|svg| {
                let options = gloo::events::EventListenerOptions::enable_prevent_default();
                gloo::events::EventListener::new_with_options(&svg, "wheel", options, move |event| {
                    let Some(event) = event.dyn_ref::<WheelEvent>() else { return };
                    event.prevent_default();
                    let (scale, x, y) = *view;
                    let factor = if event.delta_y() < 0.0 { 1.15 } else { 1.0 / 1.15 };
                    let next = (scale * factor).clamp(0.2, 5.0);
                    let (mx, my) = (event.offset_x() as f64, event.offset_y() as f64);
                    view.set((next, mx - (mx - x) * next / scale, my - (my - y) * next / scale));
                })
            });
            move || drop(listener)
        });
    }
    let onmousedown = {
        let drag = drag.clone();
        let view = view.clone();
        Callback::from(move |event: MouseEvent| {
            let (_, x, y) = *view;
            *drag.borrow_mut() = Some((event.client_x() as f64, event.client_y() as f64, x, y));
        })
    };
    let onmousemove = {
        let drag = drag.clone();
        let view = view.clone();
        Callback::from(move |event: MouseEvent| {
            if let Some((sx, sy, x, y)) = *drag.borrow() {
                let (scale, _, _) = *view;
                view.set((scale, x + event.client_x() as f64 - sx, y + event.client_y() as f64 - sy));
            }
        })
    };
    let onmouseup = {
        let drag = drag.clone();
        Callback::from(move |_| *drag.borrow_mut() = None)
    };
    let zoom = |factor: f64| {
        let view = view.clone();
        Callback::from(move |_| {
            let (scale, x, y) = *view;
            view.set(((scale * factor).clamp(0.2, 5.0), x, y));
        })
    };
    let reset = {
        let view = view.clone();
        let frame = frame.clone();
        let width = graph.width;
        Callback::from(move |_| {
            let available = frame.cast::<web_sys::Element>().map(|e| e.client_width() as f64 - 4.0).unwrap_or(width);
            view.set((fit(available, width), 0.0, 0.0));
        })
    };
    let toggle_table = {
        let show_table = show_table.clone();
        Callback::from(move |_| show_table.set(!*show_table))
    };
    let toggle_aliases = {
        let context = context.clone();
        Callback::from(move |_| context.dispatch(Action::ToggleAliases))
    };

    // Where each memory location node is, for alias edges.
    let mut memloc_at: BTreeMap<(u64, String, String), Rect> = BTreeMap::new();
    for lane in &graph.lanes {
        for (function, memloc, rect) in &lane.memlocs {
            memloc_at.insert((lane.core, function.clone(), memloc.clone()), *rect);
        }
    }
    let failing: Vec<(u64, String, String, String)> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == birlink_core::Severity::Error)
        .filter_map(|d| {
            let entity = d.entity.as_ref()?;
            Some((
                d.core?,
                entity.parent.clone().unwrap_or_default(),
                entity.name.clone(),
                format!("{} {}", d.code, d.message),
            ))
        })
        .collect();
    let (scale, tx, ty) = *view;
    let main = graph.main;
    let (mx, my) = (main.x + main.w, main.y + main.h / 2.0);

    html! {
        <div class="call-graph" id="call-graph">
            <div class="graph-tools">
                <label class="toggle">
                    <input type="checkbox" checked={state.show_aliases} onchange={toggle_aliases} id="toggle-aliases" />
                    { format!(" alias edges ({})", report.aliases.len()) }
                </label>
                <button type="button" onclick={zoom(1.25)} aria-label="Zoom in">{ "+" }</button>
                <button type="button" onclick={zoom(0.8)} aria-label="Zoom out">{ "−" }</button>
                <button type="button" onclick={reset}>{ "Reset view" }</button>
                <span class="muted">{ "drag to pan · wheel to zoom · click a node" }</span>
            </div>
            <div class="graph-frame" ref={frame}>
            <svg id="call-graph-svg" xmlns="http://www.w3.org/2000/svg" role="img"
                 data-width={format!("{:.0}", graph.width)} data-height={format!("{:.0}", graph.height)}
                 aria-label={format!("Call graph: main calls {} core functions; {} alias edges", report.dispatcher.len(), report.aliases.len())}
                 width="100%" height={format!("{:.0}", graph.height * scale.max(MIN_FIT) + 8.0)}
                 ref={svg_ref} {onmousedown} {onmousemove} onmouseup={onmouseup.clone()} onmouseleave={onmouseup}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
                    </marker>
                </defs>
                <g class="viewport" transform={format!("translate({tx:.1},{ty:.1}) scale({scale:.3})")}>
                    { for graph.lanes.iter().map(|lane| html! {
                        <g class="lane-group" data-core={lane.core.to_string()}>
                            <rect class="lane" x={format!("{LANE_X:.0}")} y={format!("{:.0}", lane.y)} width={format!("{:.0}", graph.width - LANE_X - 6.0)} height={format!("{:.0}", lane.height)} rx="6" />
                            <text class="lane-label" x={format!("{:.0}", LANE_X + 8.0)} y={format!("{:.0}", lane.y + 15.0)}>{ format!("core {}", lane.core) }</text>
                        </g>
                    }) }
                    // Calls from the dispatcher.
                    { for graph.lanes.iter().map(|lane| {
                        let (fx, fy) = (lane.function.1.x, lane.function.1.y + lane.function.1.h / 2.0);
                        let label = format!("call_def_{}_instance_0", lane.core);
                        let midx = (mx + fx) / 2.0;
                        html! {
                            <g class="call">
                                <path d={format!("M {mx:.1} {my:.1} C {midx:.1} {my:.1}, {midx:.1} {fy:.1}, {fx:.1} {fy:.1}")} marker-end="url(#arrow)" />
                                <text class="call-label" x={format!("{:.1}", fx - 6.0)} y={format!("{:.1}", fy - 8.0)} text-anchor="end">{ label }</text>
                            </g>
                        }
                    }) }
                    <g class={classes!("node", "main", is_selected(&context, "function", "main", None).then_some("selected"))}
                       onclick={select("function", "main", None)}>
                        <rect x={format!("{:.0}", main.x)} y={format!("{:.0}", main.y)} width={format!("{:.0}", main.w)} height={format!("{:.0}", main.h)} rx="8" />
                        <text x={format!("{:.0}", main.x + 12.0)} y={format!("{:.0}", main.y + 30.0)} class="node-title">{ "main · dispatcher" }</text>
                        <text x={format!("{:.0}", main.x + 12.0)} y={format!("{:.0}", main.y + 52.0)}>{ counted(report.dispatcher.len(), "call") }</text>
                    </g>
                    { for graph.lanes.iter().map(|lane| {
                        let (name, rect) = &lane.function;
                        html! {
                            <g>
                                { for lane.others.iter().rev().map(|(other, r)| html! {
                                    <g class={classes!("node", "other", is_selected(&context, "function", other, None).then_some("selected"))}
                                       onclick={select("function", other, None)}>
                                        <rect x={format!("{:.0}", r.x)} y={format!("{:.0}", r.y)} width={format!("{:.0}", r.w)} height={format!("{:.0}", r.h)} rx="4" />
                                        <title>{ format!("{other}: a function of core {} not called by the dispatcher", lane.core) }</title>
                                    </g>
                                }) }
                                <g class={classes!("node", "core-fn", is_selected(&context, "function", name, None).then_some("selected"))}
                                   onclick={select("function", name, None)} data-function={name.clone()}>
                                    <rect x={format!("{:.0}", rect.x)} y={format!("{:.0}", rect.y)} width={format!("{:.0}", rect.w)} height={format!("{:.0}", rect.h)} rx="6" />
                                    <text x={format!("{:.0}", rect.x + 10.0)} y={format!("{:.0}", rect.y + 21.0)} class="node-title">{ text_fit(name, rect.w - 16.0) }</text>
                                    <title>{ format!("{name}: core {}'s function", lane.core) }</title>
                                </g>
                                if !lane.others.is_empty() {
                                    <text x={format!("{:.0}", rect.x)} y={format!("{:.0}", rect.y + rect.h + 14.0)} class="muted-text">
                                        { format!("+ {}", counted(lane.others.len(), "other function")) }
                                    </text>
                                }
                                { for lane.memlocs.iter().map(|(function, memloc, r)| {
                                    let failure = failing.iter().find(|(c, f, m, _)| *c == lane.core && f == function && m == memloc);
                                    let selected = is_selected(&context, "memloc", memloc, Some(function));
                                    let label = text_fit(&format!("{}{memloc}", if failure.is_some() { "✕ " } else { "" }), r.w - 14.0);
                                    let title = match failure {
                                        Some((_, _, _, message)) => Some(message.clone()),
                                        None if label.ends_with('…') => Some(format!("{memloc} in {function} (core {})", lane.core)),
                                        None => None,
                                    };
                                    html! {
                                        <g class={classes!("node", "memloc", selected.then_some("selected"), failure.is_some().then_some("failing"))}
                                           onclick={select("memloc", memloc, Some(function))} data-memloc={memloc.clone()}>
                                            <rect x={format!("{:.0}", r.x)} y={format!("{:.0}", r.y)} width={format!("{:.0}", r.w)} height={format!("{:.0}", r.h)} rx="13" />
                                            <text x={format!("{:.0}", r.x + 10.0)} y={format!("{:.0}", r.y + 17.0)}>{ label }</text>
                                            // A tooltip only where the node does not already say it all: a
                                            // failure's message, or a name cut to fit (the details panel has
                                            // the rest); big graphs stay light.
                                            if let Some(title) = title { <title>{ title }</title> }
                                        </g>
                                    }
                                }) }
                            </g>
                        }
                    }) }
                    if state.show_aliases {
                        <g class="alias">
                            { for report.aliases.iter().filter_map(|alias| {
                                let from = memloc_at.get(&(alias.consumer.core, alias.consumer.function.clone(), alias.consumer.memloc.clone()))?;
                                let to = memloc_at.get(&(alias.producer.core, alias.producer.function.clone(), alias.producer.memloc.clone()))?;
                                // Ends of a handoff share a column: a vertical link, nudged per
                                // consumer core so fan-ins stay apart.
                                let nudge = (alias.consumer.core % 6) as f64 * 9.0 - 22.0;
                                let (x1, x2) = (from.center().0 + nudge, to.center().0 + nudge);
                                let (y1, y2) = if from.y < to.y { (from.y + from.h, to.y) } else { (from.y, to.y + to.h) };
                                let mid = (y1 + y2) / 2.0;
                                let bow = if (x1 - x2).abs() < 1.0 { 14.0 } else { 0.0 };
                                Some(html! {
                                    <path d={format!("M {x1:.1} {y1:.1} C {:.1} {mid:.1}, {:.1} {mid:.1}, {x2:.1} {y2:.1}", x1 + bow, x2 + bow)}
                                          marker-end="url(#arrow)">
                                        <title>{ format!("{} (core {}) aliases {} (core {}), kind {} from {}",
                                            alias.consumer.memloc, alias.consumer.core, alias.producer.memloc, alias.producer.core, alias.kind, alias.source) }</title>
                                    </path>
                                })
                            }) }
                        </g>
                    }
                </g>
            </svg>
            </div>
            // The table is built only when asked for: large link sets have many edges.
            <div class="graph-table">
                <button type="button" class="link" aria-expanded={show_table.to_string()}
                        aria-controls="graph-table" onclick={toggle_table}>
                    { if *show_table { "Hide the table" } else { "The same as a table" } }
                </button>
                if *show_table {
                <table id="graph-table">
                    <caption>{ "Dispatcher calls and alias edges" }</caption>
                    <thead><tr><th scope="col">{ "from" }</th><th scope="col">{ "edge" }</th><th scope="col">{ "to" }</th></tr></thead>
                    <tbody>
                        { for report.dispatcher.iter().map(|d| html! {
                            <tr><td>{ "main" }</td><td>{ d.call.clone() }</td><td>{ format!("{} (core {})", d.target, d.core) }</td></tr>
                        }) }
                        { for report.aliases.iter().map(|a| html! {
                            <tr>
                                <td>{ format!("{} · {} (core {})", a.consumer.function, a.consumer.memloc, a.consumer.core) }</td>
                                <td>{ format!("alias kind {} ({})", a.kind, a.source) }</td>
                                <td>{ format!("{} · {} (core {})", a.producer.function, a.producer.memloc, a.producer.core) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                }
            </div>
        </div>
    }
}
