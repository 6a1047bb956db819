//! The Sync view (docs/spec/sync.md §9): will the linked cores hang or race? The check's
//! verdict, exact or for this schedule, and birlink's reading said as such; where a hang
//! starts (the root lane first, then the knock-on ones, the cycle); the lanes, grouped by
//! core, their issues replayed to the slider's step by the worker (the same library,
//! deterministic), rendezvous as rungs and remote updates as arrows; a click opens the
//! instruction. The findings are the diagnostics panel's.

mod scene;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::output::sync::{Blocked, Execution, LaneRow, Replay, Sync as SyncReport, SyncStatus, Verdict};
use birlink_core::tools::query::EntityQuery;
use birlink_core::tools::share::View;
use birlink_core::EntityKind;

use super::EntityLink;
use crate::context::use_app;
use crate::state::{Action, DetailsAction, Selection, SyncAction, ViewAction};
use scene::{Scene, LABEL_WIDTH};

/// The Sync view.
#[function_component(SyncView)]
pub fn sync_view() -> Html {
    let context = use_app();
    let state = &context.state;
    let run = state.result_run();
    {
        // The view shows a run: ask for its replay (the reducer decides whether to).
        let context = context.clone();
        use_effect_with(run, move |_| context.dispatch(Action::Sync(SyncAction::Open)));
    }
    let Some(result) = state.result() else { return html! {} };
    let sync = &result.report.sync;
    let Some(execution) = sync.execution.as_ref().filter(|_| sync.status == SyncStatus::Ran) else {
        return skipped(sync);
    };
    let step = state.sync_step().unwrap_or(execution.steps);
    let replay = state.sync_replay();
    html! {
        <div class="sync-view" id="sync-view">
            <SyncVerdict sync={sync.clone()} />
            if execution.verdict == Verdict::Deadlock {
                <StuckState execution={execution.clone()} />
            }
            <section class="sync-replay" aria-label="The execution, replayed">
                <h3>{ "The lanes, replayed" }</h3>
                <Slider step={step} steps={execution.steps} rounds={execution.rounds}
                        round={replay.and_then(|r| r.events.last()).map(|e| e.round)} />
                {
                    match replay {
                        Some(replay) => html! {
                            <Lanes lanes={sync.lanes.clone()} replay={replay.clone()}
                                   blocked={execution.blocked.clone()} cycle={execution.cycle.clone()}
                                   end={step == execution.steps} />
                        },
                        None => html! { <p class="muted">{ "Replaying…" }</p> },
                    }
                }
            </section>
            <LaneTable lanes={sync.lanes.clone()} />
        </div>
    }
}

/// Why the check did not run, and what would run it.
fn skipped(sync: &SyncReport) -> Html {
    let why = sync.why.clone().unwrap_or_else(|| "it did not run".to_owned());
    let what = if why.contains("seeds") {
        "Link it as the compiler does (the Link menu: as the compiler decides) to check its per-core modules."
    } else if why.contains("vnc_link") {
        "The check reads the modules vnc_link relinked: fix the link first (the Diagnostics view)."
    } else {
        "Open per-core modules the VNC passes can link."
    };
    html! {
        <div class="empty-state sync-skipped">
            <p>{ format!("The sync check did not run: {why}.") }</p>
            <p class="muted">{ what }</p>
        </div>
    }
}

/// Props of [`SyncVerdict`].
#[derive(Properties, PartialEq)]
struct VerdictProps {
    sync: SyncReport,
}

/// The check's verdict: the CLI's line, exact or for this schedule, and what birlink's
/// reading is.
#[function_component(SyncVerdict)]
fn sync_verdict(props: &VerdictProps) -> Html {
    let context = use_app();
    let sync = &props.sync;
    let Some(execution) = &sync.execution else { return html! {} };
    let class = match (execution.verdict, execution.exact) {
        (Verdict::Deadlock, true) => "deadlock",
        (Verdict::Deadlock, false) => "may-deadlock",
        (Verdict::Stopped, _) => "stopped",
        _ if sync.counts.is_empty() => "completes",
        _ => "findings",
    };
    let findings: u64 = sync.counts.values().sum();
    let open_diagnostics = context.on(|| Action::View(ViewAction::Set(View::Diagnostics)));
    html! {
        <header class={classes!("sync-verdict", class)}>
            <p id="sync-headline" class="headline">{ sync.headline().trim_start_matches("sync: ").to_owned() }</p>
            <p class="exactness">
                if execution.exact {
                    <span class="badge exact" title="Every fair schedule, the hardware's included, ends the same way">{ "exact" }</span>
                } else {
                    <span class="badge schedule" title="Something was assumed: the verdict holds for the round-robin schedule only">{ "for this schedule" }</span>
                    { " " }{ birlink_core::output::sync::reasons_in_words(&execution.reason_counts, &execution.not_modelled) }
                }
                { format!(" · {} steps in {} rounds (budget {})", execution.steps, execution.rounds, execution.budget) }
            </p>
            <p class="reading muted">
                { "birlink's reading: its own check after the link, not a compiler pass. BIR's execution is not public: every engine and DMA queue of every core issues in order, round-robin; un-lowered barriers and sendrecvs meet by position; semaphores count; races are vector clocks (the band model of the compiler's lnc_barriercheck). " }
                if findings > 0 {
                    <button type="button" class="link" onclick={open_diagnostics}>
                        { format!("{} in the Diagnostics view", birlink_core::english::counted(findings as usize, "finding")) }
                    </button>
                }
            </p>
        </header>
    }
}

/// Props of [`StuckState`].
#[derive(Properties, PartialEq)]
struct StuckProps {
    execution: Execution,
}

/// Where the hang starts: the root lanes first, then the knock-on ones, and the cycle.
#[function_component(StuckState)]
fn stuck_state(props: &StuckProps) -> Html {
    let execution = &props.execution;
    let mut rows: Vec<&Blocked> = execution.blocked.iter().filter(|b| b.root).collect();
    rows.extend(execution.blocked.iter().filter(|b| !b.root));
    html! {
        <section class="sync-stuck" aria-label="Where it hangs">
            <h3>{ if execution.exact { "Where it hangs" } else { "Where it may hang" } }</h3>
            if let Some(cycle) = &execution.cycle {
                <p class="cycle">{ "A cycle: " }{ cycle.iter().map(|l| l.words()).collect::<Vec<_>>().join(" → ") }{ " → back" }</p>
            }
            <ul class="stuck-lanes">
                { for rows.into_iter().map(|b| html! { <StuckLane blocked={b.clone()} /> }) }
            </ul>
        </section>
    }
}

/// Props of [`StuckLane`].
#[derive(Properties, PartialEq)]
struct StuckLaneProps {
    blocked: Blocked,
}

/// One blocked lane: where it is, what it waits for, who could signal it.
#[function_component(StuckLane)]
fn stuck_lane(props: &StuckLaneProps) -> Html {
    let b = &props.blocked;
    let parent = b.function.clone().map(AttrValue::from);
    let updates: Vec<String> = b
        .updates
        .iter()
        .map(|u| {
            format!("{} on core {} {} ({} {}, issued {}×)", u.instruction, u.core, u.engine, u.mode, u.value, u.issued)
        })
        .collect();
    html! {
        <li class={classes!("stuck-lane", b.root.then_some("root"))} data-core={b.core.to_string()} data-engine={b.engine.clone()}>
            <span class={classes!("badge", if b.root { "root" } else { "knock-on" })}>
                { if b.root { "root" } else { "knock-on" } }
            </span>
            <span class="lane-name">{ b.lane().words() }</span>{ " at " }
            <EntityLink kind={EntityKind::Instruction} name={b.instruction.clone()} {parent} core={Some(b.core)} />
            <span class="waits">{ b.words() }</span>
            if !updates.is_empty() {
                <details class="updates">
                    <summary>{ birlink_core::english::counted(b.updates.len(), "update") }{ " of the waited semaphore in the set" }</summary>
                    <ul>{ for updates.into_iter().map(|u| html! { <li>{ u }</li> }) }</ul>
                </details>
            }
        </li>
    }
}

/// Props of [`Slider`].
#[derive(Properties, PartialEq)]
struct SliderProps {
    step: u64,
    steps: u64,
    rounds: u64,
    round: Option<u64>,
}

/// The step slider: the execution replayed to step n (arrow keys on it, `j` and `k` on
/// the page).
#[function_component(Slider)]
fn slider(props: &SliderProps) -> Html {
    let context = use_app();
    let oninput = {
        let context = context.clone();
        let steps = props.steps;
        Callback::from(move |event: InputEvent| {
            let value = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .and_then(|input| input.value().parse::<u64>().ok());
            if let Some(step) = value {
                context.dispatch(Action::Sync(SyncAction::Show((step < steps).then_some(step))));
            }
        })
    };
    let at = match props.round {
        Some(round) => format!("step {} of {} (round {} of {})", props.step, props.steps, round + 1, props.rounds),
        None => format!("step {} of {}", props.step, props.steps),
    };
    html! {
        <div class="sync-slider">
            <label for="sync-step">{ "Replay to" }</label>
            <input id="sync-step" type="range" min="0" max={props.steps.to_string()} value={props.step.to_string()}
                   step="1" {oninput} aria-valuetext={at.clone()} />
            <output for="sync-step" id="sync-at">{ at }</output>
        </div>
    }
}

/// Props of [`Lanes`].
#[derive(Properties, PartialEq)]
struct LanesProps {
    lanes: Vec<LaneRow>,
    replay: Replay,
    blocked: Vec<Blocked>,
    cycle: Option<Vec<birlink_core::output::sync::LaneRef>>,
    end: bool,
}

/// The lanes as SVG: the scene mapped to elements, each issue a button to its details.
#[function_component(Lanes)]
fn lanes(props: &LanesProps) -> Html {
    let context = use_app();
    let scene: Scene = scene::scene(&props.lanes, &props.replay, &props.blocked, props.cycle.as_deref(), props.end);
    let select = |event: usize| {
        let context = context.clone();
        let e = &props.replay.events[event];
        let core = props.lanes.get(e.lane as usize).map(|l| l.core);
        let query =
            EntityQuery { core, ..crate::state::query(EntityKind::Instruction, &e.instruction, e.function.as_deref()) };
        Callback::from(move |_: MouseEvent| {
            context.dispatch(Action::Details(DetailsAction::Select(Selection::Entity(query.clone()))))
        })
    };
    let view_box = format!("0 0 {} {}", scene.width, scene.height);
    html! {
        <div class="sync-lanes">
            <svg id="sync-lanes" role="img" aria-label="Each lane's issues in the window before the slider"
                 viewBox={view_box} style={format!("max-width: {}px", scene.width)}>
                <defs>
                    <marker id="sync-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
                    </marker>
                </defs>
                { for scene.rows.iter().map(|row| html! {
                    <g class={classes!("sync-row", row.state)}>
                        <line x1={LABEL_WIDTH.to_string()} x2={(scene.width - 4.0).to_string()} y1={row.y.to_string()} y2={row.y.to_string()} class="rail" />
                        <text x="4" y={(row.y + 4.0).to_string()} class="lane-label">{ row.label.clone() }</text>
                        if let Some(at) = &row.at {
                            <title>{ format!("{} at {at}", row.label) }</title>
                        }
                    </g>
                }) }
                { for scene.rungs.iter().map(|points| {
                    let d = points.iter().enumerate().map(|(i, (x, y))| format!("{}{x:.1} {y:.1}", if i == 0 { "M" } else { " L" })).collect::<String>();
                    html! { <path class="rung" d={d} /> }
                }) }
                { for scene.arrows.iter().map(|((x1, y1), (x2, y2))| html! {
                    <line class="remote" x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()} marker-end="url(#sync-arrow)" />
                }) }
                { for scene.marks.iter().map(|m| {
                    let e = &props.replay.events[m.event];
                    let title = format!("step {}, round {}: {}{}", e.step, e.round, e.instruction,
                        e.rendezvous.as_ref().map(|r| format!(" ({} {})", r.group, r.index)).unwrap_or_default());
                    html! {
                        <g class={classes!("mark", m.class)} onclick={select(m.event)} role="button" data-step={e.step.to_string()}>
                            <rect x={(m.x - 3.0).to_string()} y={(m.y - 6.0).to_string()} width="6" height="12" rx="1.5" />
                            <title>{ title }</title>
                        </g>
                    }
                }) }
                { for scene.cycle.iter().map(|((x1, y1), (x2, y2))| html! {
                    <path class="cycle-edge" d={format!("M{x1:.1} {y1:.1} C{:.1} {y1:.1} {:.1} {y2:.1} {x2:.1} {y2:.1}", x1 + 18.0, x2 + 18.0)} marker-end="url(#sync-arrow)" />
                }) }
                { for scene.stuck.iter().map(|s| html! {
                    <g class={classes!("stuck", s.root.then_some("root"))}>
                        <circle cx={s.x.to_string()} cy={s.y.to_string()} r={if s.root { "7" } else { "5" }} />
                        <title>{ s.title.clone() }</title>
                    </g>
                }) }
            </svg>
            <p class="sync-legend muted">
                <span class="key issue" />{ "an issue " }<span class="key wait" />{ "one that waited " }
                <span class="key barrier" />{ "a barrier · a rung: a rendezvous passed together · an arrow: a remote update to the wait that took it · at the right, a blocked lane (filled: the root)" }
            </p>
        </div>
    }
}

/// Props of [`LaneTable`].
#[derive(Properties, PartialEq)]
struct LaneTableProps {
    lanes: Vec<LaneRow>,
}

/// Every lane: what it issued and how it ended.
#[function_component(LaneTable)]
fn lane_table(props: &LaneTableProps) -> Html {
    html! {
        <table class="data sync-lane-table">
            <caption>{ "Every lane: an engine of a core, or one of its DMA queues, issuing in order" }</caption>
            <thead><tr><th>{ "core" }</th><th>{ "lane" }</th><th>{ "issued" }</th><th>{ "barriers" }</th><th>{ "end" }</th></tr></thead>
            <tbody>
                { for props.lanes.iter().map(|l| html! {
                    <tr class={classes!(match l.state {
                        birlink_core::output::sync::LaneState::Blocked => "blocked",
                        birlink_core::output::sync::LaneState::Running => "running",
                        birlink_core::output::sync::LaneState::Done => "done",
                    })}>
                        <td class="num">{ l.core }</td>
                        <td>{ l.queue.as_ref().map_or(l.engine.clone(), |q| format!("DMA {q}")) }</td>
                        <td class="num">{ l.issued }</td>
                        <td class="num">{ l.barriers }</td>
                        <td>{ format!("{:?}", l.state).to_lowercase() }</td>
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
