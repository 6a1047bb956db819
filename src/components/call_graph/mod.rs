//! The call graph: `main`'s dispatcher calling one function per core, one lane per core,
//! the cross-core alias edges between lanes.
//!
//! [`CallGraph`] decides whether there is a graph to draw (no run yet, or `bir_linker`
//! did not run); [`Canvas`] holds every hook and draws it, laid out by [`layout`] (a
//! pure function of the report). Pan with the mouse, zoom with the wheel or the
//! buttons; every node is a button: Tab reaches it, Enter or Space (or a click) shows
//! its details.

pub mod layout;
pub mod svg;

use birlink_core::diag::counted;
use birlink_core::EntityKind;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use self::layout::{alias_path, call_label_at, call_path, fit, text_fit, Layout, MIN_FIT};
use crate::context::use_app;
use crate::state::{query, Action, DetailsAction, RunRef, Selection, ViewAction};

/// The call graph view.
#[function_component(CallGraph)]
pub fn call_graph() -> Html {
    let context = use_app();
    let Some(result) = context.state.result().cloned() else { return html! {} };
    if result.report.dispatcher.is_empty() {
        return html! {
            <div class="empty-state" id="call-graph">
                <p>{ "bir_linker did not run: there is no dispatcher to draw. See the diagnostics." }</p>
            </div>
        };
    }
    html! { <Canvas run={result} /> }
}

#[derive(Properties, PartialEq)]
struct CanvasProps {
    run: RunRef,
}

/// How the graph is shown: its scale and offset.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ViewBox {
    scale: f64,
    x: f64,
    y: f64,
}

/// A drag in progress: where it started, and the offset then.
#[derive(Clone, Copy)]
struct Drag {
    client_x: f64,
    client_y: f64,
    x: f64,
    y: f64,
}

/// The width of the tab panel the graph is drawn in, measured before the graph exists
/// (so switching to this tab lays the graph out once).
fn panel_width() -> Option<f64> {
    let panel = gloo::utils::document().query_selector(".view").ok().flatten()?;
    let width = panel.client_width();
    (width > 0).then(|| f64::from(width) - 6.0)
}

#[function_component(Canvas)]
fn canvas(props: &CanvasProps) -> Html {
    let context = use_app();
    let state = &context.state;
    let run = &props.run;
    let report = &run.report;
    let graph = use_memo(run.run, |_| layout::layout(report));
    let fitted = use_mut_ref(|| false);
    let view = use_state(|| {
        let available = panel_width();
        *fitted.borrow_mut() = available.is_some();
        ViewBox { scale: fit(available.unwrap_or(0.0), graph.width), x: 0.0, y: 0.0 }
    });
    let frame = use_node_ref();
    let svg_ref = use_node_ref();
    let drag = use_mut_ref(|| None::<Drag>);
    let show_table = use_state(|| false);
    // Drawn in three tasks: lanes and functions, then the memory-location nodes, then
    // the alias edges. A large link has hundreds of each; one task for all of them held
    // the page too long.
    let drawn = use_state(|| (0u64, 0u8));
    let stage = if drawn.0 == run.run { drawn.1 } else { 0 };
    {
        let drawn = drawn.clone();
        use_effect_with((run.run, stage), move |&(run, stage)| {
            let next =
                (stage < 2).then(|| gloo::timers::callback::Timeout::new(0, move || drawn.set((run, stage + 1))));
            move || drop(next)
        });
    }
    let (memlocs_drawn, edges_drawn) = (stage >= 1, stage >= 2);
    {
        // Fit to the frame itself when a run is shown that the first measure did not
        // cover (a new run while this view is open, or no panel to measure then):
        // measuring the drawn graph forces a layout, so only then.
        let view = view.clone();
        let frame = frame.clone();
        let width = graph.width;
        let fitted = fitted.clone();
        use_effect_with(run.run, move |_| {
            if std::mem::take(&mut *fitted.borrow_mut()) {
                return;
            }
            if let Some(element) = frame.cast::<web_sys::Element>() {
                let scale = fit(element.client_width() as f64 - 4.0, width);
                if (scale - view.scale).abs() > 1e-3 || view.x != 0.0 || view.y != 0.0 {
                    view.set(ViewBox { scale, x: 0.0, y: 0.0 });
                }
            }
        });
    }
    {
        // The wheel zooms the graph instead of scrolling the page, so its listener must
        // not be passive (yew's are).
        let view = view.clone();
        let svg_ref = svg_ref.clone();
        use_effect_with((*view, svg_ref.clone()), move |_| {
            let listener = svg_ref.cast::<web_sys::Element>().map(|svg| {
                let options = gloo::events::EventListenerOptions::enable_prevent_default();
                gloo::events::EventListener::new_with_options(&svg, "wheel", options, move |event| {
                    let Some(event) = event.dyn_ref::<WheelEvent>() else { return };
                    event.prevent_default();
                    let ViewBox { scale, x, y } = *view;
                    let factor = if event.delta_y() < 0.0 { 1.15 } else { 1.0 / 1.15 };
                    let next = (scale * factor).clamp(0.2, 5.0);
                    let (mx, my) = (event.offset_x() as f64, event.offset_y() as f64);
                    view.set(ViewBox { scale: next, x: mx - (mx - x) * next / scale, y: my - (my - y) * next / scale });
                })
            });
            move || drop(listener)
        });
    }
    // One listener for every node (each carries what it selects in `data-select-*`):
    // a graph of a large link has hundreds of nodes, and a pair of closures and
    // listeners each made switching to this view slow.
    let selected_node = |event: &Event| -> Option<Action> {
        let node = event.target()?.dyn_into::<web_sys::Element>().ok()?.closest("[data-select-kind]").ok()??;
        let kind = EntityKind::parse(&node.get_attribute("data-select-kind")?)?;
        let name = node.get_attribute("data-select-name")?;
        let parent = node.get_attribute("data-select-parent");
        Some(Action::Details(DetailsAction::Select(Selection::Entity(query(kind, &name, parent.as_deref())))))
    };
    let onclick = {
        let dispatcher = state.dispatcher();
        Callback::from(move |event: MouseEvent| {
            if let Some(action) = selected_node(&event) {
                event.stop_propagation();
                dispatcher.dispatch(action);
            }
        })
    };
    let onkeydown = {
        let dispatcher = state.dispatcher();
        Callback::from(move |event: KeyboardEvent| {
            if !matches!(event.key().as_str(), "Enter" | " ") {
                return;
            }
            if let Some(action) = selected_node(&event) {
                event.prevent_default();
                dispatcher.dispatch(action);
            }
        })
    };
    let onmousedown = {
        let drag = drag.clone();
        let view = view.clone();
        Callback::from(move |event: MouseEvent| {
            *drag.borrow_mut() = Some(Drag {
                client_x: event.client_x() as f64,
                client_y: event.client_y() as f64,
                x: view.x,
                y: view.y,
            });
        })
    };
    let onmousemove = {
        let drag = drag.clone();
        let view = view.clone();
        Callback::from(move |event: MouseEvent| {
            if let Some(start) = *drag.borrow() {
                view.set(ViewBox {
                    scale: view.scale,
                    x: start.x + event.client_x() as f64 - start.client_x,
                    y: start.y + event.client_y() as f64 - start.client_y,
                });
            }
        })
    };
    let onmouseup = {
        let drag = drag.clone();
        Callback::from(move |_| *drag.borrow_mut() = None)
    };
    let zoom = |factor: f64| {
        let view = view.clone();
        Callback::from(move |_| view.set(ViewBox { scale: (view.scale * factor).clamp(0.2, 5.0), ..*view }))
    };
    let reset = {
        let view = view.clone();
        let frame = frame.clone();
        let width = graph.width;
        Callback::from(move |_| {
            let available = frame.cast::<web_sys::Element>().map(|e| e.client_width() as f64 - 4.0).unwrap_or(width);
            view.set(ViewBox { scale: fit(available, width), x: 0.0, y: 0.0 });
        })
    };
    let toggle_table = {
        let show_table = show_table.clone();
        Callback::from(move |_| show_table.set(!*show_table))
    };
    let toggle_aliases = context.on(|| Action::View(ViewAction::ToggleAliases));

    let ViewBox { scale, x: tx, y: ty } = *view;
    let Layout { main, .. } = *graph;
    let main_selected = context.is_selected(EntityKind::Function, "main", None);

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
                <span class="muted">{ "drag to pan · wheel to zoom · click a node, or Tab to it and press Enter" }</span>
            </div>
            <div class="graph-frame" ref={frame}>
            <svg id="call-graph-svg" xmlns="http://www.w3.org/2000/svg" role="group"
                 data-width={format!("{:.0}", graph.width)} data-height={format!("{:.0}", graph.height)}
                 aria-label={format!("Call graph: main calls {}; {}", counted(report.dispatcher.len(), "core function"), counted(report.aliases.len(), "alias edge"))}
                 width="100%" height={format!("{:.0}", graph.height * scale.max(MIN_FIT) + 8.0)}
                 ref={svg_ref} {onmousedown} {onmousemove} onmouseup={onmouseup.clone()} onmouseleave={onmouseup}
                 {onclick} {onkeydown}>
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
                    </marker>
                </defs>
                <g class="viewport" transform={format!("translate({tx:.1},{ty:.1}) scale({scale:.3})")}>
                    { for graph.lanes.iter().map(|lane| html! {
                        <g class="lane-group" data-core={lane.core.to_string()}>
                            <rect class="lane" x={format!("{:.0}", layout::LANE_X)} y={format!("{:.0}", lane.y)} width={format!("{:.0}", graph.width - layout::LANE_X - 6.0)} height={format!("{:.0}", lane.height)} rx="6" />
                            <text class="lane-label" x={format!("{:.0}", layout::LANE_X + 8.0)} y={format!("{:.0}", lane.y + 15.0)}>{ format!("core {}", lane.core) }</text>
                        </g>
                    }) }
                    // Calls from the dispatcher, labelled with their names from the report.
                    { for graph.lanes.iter().map(|lane| {
                        let label = report.dispatcher.iter().find(|d| d.core == lane.core).map(|d| d.call.clone()).unwrap_or_default();
                        let (lx, ly) = call_label_at(lane.function.1);
                        html! {
                            <g class="call">
                                <path d={call_path(main, lane.function.1)} marker-end="url(#arrow)" />
                                <text class="call-label" x={format!("{lx:.1}")} y={format!("{ly:.1}")} text-anchor="end">{ label }</text>
                            </g>
                        }
                    }) }
                    <g class={classes!("node", "main", main_selected.then_some("selected"))} tabindex="0" role="button"
                       aria-label={format!("function main: the dispatcher, {}", counted(report.dispatcher.len(), "call"))}
                       aria-pressed={main_selected.to_string()}
                       data-select-kind="function" data-select-name="main">
                        <rect x={format!("{:.0}", main.x)} y={format!("{:.0}", main.y)} width={format!("{:.0}", main.w)} height={format!("{:.0}", main.h)} rx="8" />
                        <text x={format!("{:.0}", main.x + 12.0)} y={format!("{:.0}", main.y + 30.0)} class="node-title">{ "main · dispatcher" }</text>
                        <text x={format!("{:.0}", main.x + 12.0)} y={format!("{:.0}", main.y + 52.0)}>{ counted(report.dispatcher.len(), "call") }</text>
                    </g>
                    { for graph.lanes.iter().map(|lane| {
                        let (name, rect) = &lane.function;
                        let selected = context.is_selected(EntityKind::Function, name, None);
                        html! {
                            <g>
                                { for lane.others.iter().rev().map(|(other, r)| {
                                    let selected = context.is_selected(EntityKind::Function, other, None);
                                    html! {
                                        <g class={classes!("node", "other", selected.then_some("selected"))} tabindex="0" role="button"
                                           aria-label={format!("function {other}: a function of core {} not called by the dispatcher", lane.core)}
                                           aria-pressed={selected.to_string()}
                                           data-select-kind="function" data-select-name={other.clone()}>
                                            <rect x={format!("{:.0}", r.x)} y={format!("{:.0}", r.y)} width={format!("{:.0}", r.w)} height={format!("{:.0}", r.h)} rx="4" />
                                            <title>{ format!("{other}: a function of core {} not called by the dispatcher", lane.core) }</title>
                                        </g>
                                    }
                                }) }
                                <g class={classes!("node", "core-fn", selected.then_some("selected"))} tabindex="0" role="button"
                                   aria-label={format!("function {name}: core {}'s function", lane.core)} aria-pressed={selected.to_string()}
                                   data-select-kind="function" data-select-name={name.clone()} data-function={name.clone()}>
                                    <rect x={format!("{:.0}", rect.x)} y={format!("{:.0}", rect.y)} width={format!("{:.0}", rect.w)} height={format!("{:.0}", rect.h)} rx="6" />
                                    <text x={format!("{:.0}", rect.x + 10.0)} y={format!("{:.0}", rect.y + 21.0)} class="node-title">{ text_fit(name, rect.w - 16.0) }</text>
                                    <title>{ format!("{name}: core {}'s function", lane.core) }</title>
                                </g>
                                if lane.other_count > 0 {
                                    <text x={format!("{:.0}", rect.x)} y={format!("{:.0}", rect.y + rect.h + 14.0)} class="muted-text">
                                        { format!("+ {}", counted(lane.other_count, "other function")) }
                                    </text>
                                }
                                { for lane.memlocs.iter().filter(|_| memlocs_drawn).map(|node| {
                                    let (function, memloc, r) = (&node.function, &node.memloc, node.rect);
                                    let selected = context.is_selected(EntityKind::Memloc, memloc, Some(function));
                                    let label = text_fit(&format!("{}{memloc}", if node.failure.is_some() { "✕ " } else { "" }), r.w - 14.0);
                                    let title = match &node.failure {
                                        Some(message) => Some(message.clone()),
                                        None if label.ends_with('…') => Some(format!("{memloc} in {function} (core {})", lane.core)),
                                        None => None,
                                    };
                                    let described = match &node.failure {
                                        Some(message) => format!("memory location {memloc} in {function}, core {}: {message}", lane.core),
                                        None => format!("memory location {memloc} in {function}, core {}", lane.core),
                                    };
                                    html! {
                                        <g class={classes!("node", "memloc", selected.then_some("selected"), node.failure.is_some().then_some("failing"))}
                                           tabindex="0" role="button" aria-label={described} aria-pressed={selected.to_string()}
                                           data-select-kind="memloc" data-select-name={memloc.clone()} data-select-parent={function.clone()}
                                           data-memloc={memloc.clone()}>
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
                    if state.show_aliases && edges_drawn {
                        <g class="alias">
                            { for report.aliases.iter().filter_map(|alias| {
                                let (c, p) = (&alias.consumer, &alias.producer);
                                let from = graph.memloc(c.core, &c.function, &c.memloc)?;
                                let to = graph.memloc(p.core, &p.function, &p.memloc)?;
                                Some(html! {
                                    <path d={alias_path(from, to, c.core)}
                                          marker-end="url(#arrow)">
                                        <title>{ format!("{} (core {}) aliases {} (core {}), kind {} from {}",
                                            c.memloc, c.core, p.memloc, p.core, alias.kind, alias.source) }</title>
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
