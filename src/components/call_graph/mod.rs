//! The call graph, one lane per core: in the compiler's modular flow each core's `main`
//! calling its partitions in netlist order, the handoffs between them and the addresses
//! the VNC passes resolve across the cores (the flat flow: the cores and those
//! addresses); in the seeds' reading `main`'s dispatcher calling one function per core,
//! the cross-core alias edges between lanes.
//!
//! [`CallGraph`] decides whether there is a graph to draw (no run yet, or `bir_linker`
//! did not run); [`Canvas`] holds every hook and draws it, laid out by [`layout`] (a
//! pure function of the report) and drawn from its display list ([`scene`], which the
//! SVG export maps too: this file computes no position). Pan with the mouse, zoom with
//! the wheel or the buttons; every node is a button: Tab reaches it, Enter or Space (or
//! a click) shows its details.

pub mod layout;
pub mod scene;
pub mod svg;

use birlink_core::EntityKind;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use self::layout::{fit, MIN_FIT};
use self::scene::{Edge, Label, Node, NodeKind};
use crate::context::{use_app, AppContext};
use crate::state::{query, Action, DetailsAction, RunRef, Selection, ViewAction};

/// The call graph view.
#[function_component(CallGraph)]
pub fn call_graph() -> Html {
    let context = use_app();
    let Some(result) = context.state.result().cloned() else { return html! {} };
    let report = &result.report;
    let nothing = match report.options.flow {
        // The flat flow has no dispatcher: its cores and what crosses between them.
        birlink_core::Flow::Flat if report.subgraphs.is_empty() => {
            Some("No module was read: there is no core to draw. See the diagnostics.")
        }
        birlink_core::Flow::Flat => None,
        _ if report.dispatcher.is_empty() => {
            Some("bir_linker did not run: there is no dispatcher to draw. See the diagnostics.")
        }
        _ => None,
    };
    if let Some(said) = nothing {
        return html! {
            <div class="empty-state" id="call-graph">
                <p>{ said }</p>
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
    let graph = use_memo(run.run, |_| scene::scene(report, &layout::layout(report)));
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
    // Drawn in three tasks: lanes and functions, then the calls (the modular flow's) and
    // the memory-location nodes, then the handoffs and alias edges. A large link has hundreds of each; one task for all of them held
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
        // The same names are on every core's module in the compiler's flows.
        let core = node.get_attribute("data-core").and_then(|c| c.parse().ok());
        let query = query(kind, &name, parent.as_deref()).on(core);
        Some(Action::Details(DetailsAction::Select(Selection::Entity(query))))
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

    html! {
        <div class="call-graph" id="call-graph">
            <div class="graph-tools">
                <label class="toggle">
                    <input type="checkbox" checked={state.show_aliases} onchange={toggle_aliases} id="toggle-aliases" />
                    { if report.options.flow == birlink_core::Flow::Seeds {
                        format!(" alias edges ({})", graph.aliases.len())
                    } else {
                        format!(" cross-core edges ({})", graph.aliases.len())
                    } }
                </label>
                <button type="button" onclick={zoom(1.25)} aria-label="Zoom in">{ "+" }</button>
                <button type="button" onclick={zoom(0.8)} aria-label="Zoom out">{ "−" }</button>
                <button type="button" onclick={reset}>{ "Reset view" }</button>
                <span class="muted">{ "drag to pan · wheel to zoom · click a node, or Tab to it and press Enter" }</span>
            </div>
            <div class="graph-frame" ref={frame}>
            <svg id="call-graph-svg" xmlns="http://www.w3.org/2000/svg" role="group"
                 data-width={format!("{:.0}", graph.width)} data-height={format!("{:.0}", graph.height)}
                 aria-label={graph.description.clone()}
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
                            <rect class="lane" x={format!("{:.0}", lane.rect.x)} y={format!("{:.0}", lane.rect.y)} width={format!("{:.0}", lane.rect.w)} height={format!("{:.0}", lane.rect.h)} rx="6" />
                            { label(&lane.label) }
                        </g>
                    }) }
                    { for graph.calls.iter().map(|call| html! {
                        <g class="call">
                            { edge(call) }
                            if let Some(text) = &call.label { { label(text) } }
                        </g>
                    }) }
                    { for graph.functions.iter().map(|n| node(&context, n)) }
                    { for graph.notes.iter().map(label) }
                    if memlocs_drawn {
                        { for graph.call_nodes.iter().map(|n| node(&context, n)) }
                        { for graph.memlocs.iter().map(|n| node(&context, n)) }
                    }
                    if edges_drawn {
                        <g class="handoff">{ for graph.handoffs.iter().map(edge) }</g>
                    }
                    if state.show_aliases && edges_drawn {
                        <g class="alias">{ for graph.aliases.iter().map(edge) }</g>
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
                            <tr><td>{ if d.partition.is_some() { format!("main (core {})", d.core) } else { "main".to_owned() } }</td><td>{ d.call.clone() }</td><td>{ format!("{} (core {})", d.target, d.core) }</td></tr>
                        }) }
                        { for report.address_map.iter().filter(|_| report.options.flow != birlink_core::Flow::Seeds).map(|a| html! {
                            <tr>
                                <td>{ format!("{} · {} (core {})", a.function, a.memloc, a.core) }</td>
                                <td>{ "remote view (vnc_remote_addr_map)" }</td>
                                <td>{ format!("{} · {} (core {})", a.owner_function, a.remote, a.owner_core) }</td>
                            </tr>
                        }) }
                        { for report.aliases.iter().map(|a| html! {
                            <tr>
                                <td>{ match &a.producer.call {
                                    Some(call) => format!("{call} · {} (core {})", a.producer.memloc, a.producer.core),
                                    None => format!("{} · {} (core {})", a.consumer.function, a.consumer.memloc, a.consumer.core),
                                } }</td>
                                <td>{ match &a.tensor {
                                    Some(tensor) => format!("hands {tensor} (netlist)"),
                                    None => format!("alias kind {} ({})", a.kind, a.source),
                                } }</td>
                                <td>{ match &a.consumer.call {
                                    Some(call) => format!("{call} · {} (core {})", a.consumer.memloc, a.consumer.core),
                                    None => format!("{} · {} (core {})", a.producer.function, a.producer.memloc, a.producer.core),
                                } }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                }
            </div>
        </div>
    }
}

/// A text of the display list.
fn label(label: &Label) -> Html {
    html! {
        <text x={format!("{:.1}", label.x)} y={format!("{:.1}", label.y)} class={label.class}
              text-anchor={label.end.then_some("end")}>{ label.text.clone() }</text>
    }
}

/// An edge of the display list.
fn edge(edge: &Edge) -> Html {
    html! {
        <path d={edge.d.clone()} marker-end="url(#arrow)">
            if let Some(title) = &edge.title { <title>{ title.clone() }</title> }
        </path>
    }
}

/// A node of the display list: a button that selects its entity.
fn node(context: &AppContext, node: &Node) -> Html {
    let (kind, name, parent) = &node.select;
    // A memory location is one of its function's; a function is one by its name.
    let parent = if node.kind == NodeKind::Memloc { parent.as_deref() } else { None };
    let selected = context.is_selected(*kind, name, parent);
    let r = node.rect;
    let mut group = html! {
        <g class={classes!("node", node.kind.class(), selected.then_some("selected"), node.failing.then_some("failing"))}
           tabindex="0" role="button" aria-label={node.description.clone()} aria-pressed={selected.to_string()}>
            <rect x={format!("{:.0}", r.x)} y={format!("{:.0}", r.y)} width={format!("{:.0}", r.w)} height={format!("{:.0}", r.h)} rx={format!("{:.0}", node.rx)} />
            { for node.labels.iter().map(label) }
            // A tooltip only where the node does not already say it all: a failure's
            // message, a name cut to fit (the details panel has the rest).
            if let Some(title) = &node.title { <title>{ title.clone() }</title> }
        </g>
    };
    if let Html::VTag(tag) = &mut group {
        let tag = std::rc::Rc::make_mut(tag);
        for (key, value) in node.data() {
            tag.add_attribute(key, value);
        }
    }
    group
}
