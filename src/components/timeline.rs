//! The compile a log tells of, as a timeline: every pass it ran, in order (one column per
//! pass, in the order it first ran), in lanes by scope — every module
//! (`[BackendPassManager]`), each core (`(nc00) [CoreForkPass]`), each subgraph across the
//! cores (`(sg00) [SubgraphForkPass]`), each module (`(nc00/sg01) [ModuleForkPass]`,
//! the linked `nc00/sgLnk`). A pass that failed is red, one with no end in the log
//! amber, and a pass whose dumps are loaded carries a dot. Choosing a pass says which
//! loaded dumps were printed after it (`tools::log::Dumps`), or the flags that would
//! print them; the failing pass shows its assertion and error, and what it names in the
//! loaded dumps, or the dumps to print to see it.

use std::collections::BTreeMap;
use std::rc::Rc;

use yew::prelude::*;

use birlink_core::read::workdir::dump_flags;
use birlink_core::tools::log::compile::{Failure, Lane as LaneKind, PassRun, RunStatus};
use birlink_core::tools::log::{Dumps, Located, LogReading};

use crate::context::use_app;
use crate::state::{Action, LogAction, PassesAction};

/// A column's width, a lane's height, the lane labels' width, the header's height.
const COLUMN: f64 = 14.0;
const LANE: f64 = 18.0;
const LABELS: f64 = 96.0;

/// Up to this many columns every pass is named above its column; past it, only the
/// landmarks (the link's passes, the failing one, those with dumps loaded).
const NAME_ALL: usize = 48;

/// At most this many passes are drawn (a run of a thousand passes is a real compile's
/// size; a hundred thousand is not one compile, and would freeze the page): the window
/// around the failing pass, else the first ones.
const MAX_DRAWN: usize = 5000;

/// How far a name above a column is turned, and how wide a character of it is.
const TURN: f64 = 60.0;
const CHAR: f64 = 6.2;

/// The timeline's props.
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// The log, read.
    pub reading: Rc<LogReading>,
    /// The open link set's file paths (a work directory's, relative).
    pub paths: Rc<Vec<String>>,
    /// The pass chosen, by index in the run's passes.
    pub selected: Option<usize>,
    /// Where the failure's names are in the open link set, when found.
    pub failure_place: Option<Located>,
}

/// One lane: its scope as the log writes it (`None`: every module) and kind.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Lane {
    order: LaneKind,
    scope: Option<String>,
}

fn lane_of(pass: &PassRun) -> Lane {
    Lane { order: pass.lane, scope: pass.scope.clone() }
}

fn lane_label(lane: &Lane) -> String {
    lane.scope.clone().unwrap_or_else(|| "all modules".to_owned())
}

/// What the log's passes come to on screen: the columns (pass names in the order they
/// first ran), the lanes, each pass's cell.
struct Layout {
    columns: Vec<String>,
    lanes: Vec<Lane>,
    cells: Vec<(usize, usize)>,
}

fn layout(passes: &[PassRun]) -> Layout {
    let mut columns: Vec<String> = Vec::new();
    let mut column_of: BTreeMap<&str, usize> = BTreeMap::new();
    for pass in passes {
        if !column_of.contains_key(pass.name.as_str()) {
            column_of.insert(&pass.name, columns.len());
            columns.push(pass.name.clone());
        }
    }
    let mut lanes: Vec<Lane> = passes.iter().map(lane_of).collect();
    lanes.sort();
    lanes.dedup();
    let cells = passes
        .iter()
        .map(|p| {
            let lane = lanes.binary_search(&lane_of(p)).unwrap_or(0);
            (column_of.get(p.name.as_str()).copied().unwrap_or(0), lane)
        })
        .collect();
    Layout { columns, lanes, cells }
}

/// The failing pass, by index: the one the failure names on its scope.
fn failing(passes: &[PassRun], failure: Option<&Failure>) -> Option<usize> {
    let failure = failure?;
    passes
        .iter()
        .position(|p| {
            p.status == RunStatus::Failed && Some(&p.name) == failure.pass.as_ref() && p.scope == failure.scope
        })
        .or_else(|| passes.iter().position(|p| p.status == RunStatus::Failed))
}

/// The timeline.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let context = use_app();
    let dumps = use_memo(props.paths.clone(), |paths| {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        Dumps::of(&paths)
    });
    let run = &props.reading.run;
    let window = use_memo(props.reading.clone(), |reading| {
        let passes = &reading.run.passes;
        let failed = failing(passes, reading.run.failure.as_ref());
        let start = failed.map_or(0, |f| f.saturating_sub(MAX_DRAWN / 2)).min(passes.len().saturating_sub(MAX_DRAWN));
        start..passes.len().min(start + MAX_DRAWN)
    });
    let laid = {
        let window = (*window).clone();
        use_memo(props.reading.clone(), move |reading| layout(&reading.run.passes[window]))
    };
    let offset = window.start;
    let passes = &run.passes[(*window).clone()];
    if passes.is_empty() {
        return html! {};
    }
    let failed = failing(passes, run.failure.as_ref());
    let dumped: Vec<bool> = passes.iter().map(|p| !dumps.after(p).is_empty()).collect();
    // The columns named above the lanes: the link's passes, the failing one, and those
    // with dumps loaded (the rest are named on hover and when chosen).
    let landmark = |name: &str| {
        laid.columns.len() <= NAME_ALL
            || matches!(name, "bir_linker" | "vnc_remote_addr_map" | "vnc_link" | "lower_sync")
            || failed.is_some_and(|i| passes[i].name == name)
            || passes.iter().zip(&dumped).any(|(p, d)| *d && p.name == name)
    };
    // The header holds the longest name shown, turned.
    let longest = laid.columns.iter().filter(|n| landmark(n)).map(|n| n.chars().count()).max().unwrap_or(0);
    let header = (longest as f64 * CHAR * TURN.to_radians().sin() + 12.0).clamp(24.0, 180.0);
    let width = LABELS + COLUMN * laid.columns.len() as f64 + longest as f64 * CHAR * TURN.to_radians().cos() + 8.0;
    let height = header + LANE * laid.lanes.len() as f64 + 2.0;
    let labels = laid.lanes.iter().enumerate().map(|(i, lane)| {
        let y = header + LANE * i as f64 + LANE * 0.7;
        html! { <text class="tl-lane" x="4" y={y.to_string()}>{ lane_label(lane) }</text> }
    });
    let names = laid.columns.iter().enumerate().filter(|(_, n)| landmark(n)).map(|(i, name)| {
        let x = LABELS + COLUMN * i as f64 + COLUMN / 2.0;
        let y = header - 4.0;
        html! {
            <text class="tl-name" x={x.to_string()} y={y.to_string()} transform={format!("rotate(-{TURN} {x} {y})")}>{ name.clone() }</text>
        }
    });
    let cells = passes.iter().enumerate().map(|(i, pass)| {
        let (column, lane) = laid.cells[i];
        let x = LABELS + COLUMN * column as f64 + 1.0;
        let y = header + LANE * lane as f64 + 2.0;
        let status = match pass.status {
            RunStatus::Failed => "tl-failed",
            RunStatus::Passed => "tl-passed",
            RunStatus::Started => "tl-started",
        };
        let class = classes!(
            "tl-pass",
            status,
            dumped[i].then_some("tl-dumped"),
            (props.selected == Some(offset + i)).then_some("tl-selected")
        );
        let index = offset + i;
        let choose = context.on(move || Action::Log(LogAction::Pass(Some(index))));
        let onclick = {
            let choose = choose.clone();
            Callback::from(move |_: MouseEvent| choose.emit(()))
        };
        let onkeydown = Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" || e.key() == " " {
                e.prevent_default();
                choose.emit(());
            }
        });
        let scope = pass.scope.as_deref().unwrap_or("all modules");
        let label = format!("{} on {scope}: {}", pass.name, pass.status);
        let dot = dumped[i].then(|| {
            html! { <circle class="tl-dot" cx={(x + COLUMN / 2.0 - 1.0).to_string()} cy={(y + LANE / 2.0 - 2.0).to_string()} r="2" /> }
        });
        html! {
            <g>
                <rect {class} x={x.to_string()} y={y.to_string()} width={(COLUMN - 2.0).to_string()} height={(LANE - 4.0).to_string()} rx="2"
                      tabindex="0" role="button" aria-label={label.clone()} data-pass={pass.name.clone()} data-scope={scope.to_owned()} {onclick} {onkeydown}>
                    <title>{ label }</title>
                </rect>
                { for dot }
            </g>
        }
    });
    let chosen = props.selected.and_then(|i| run.passes.get(i).map(|p| (i, p)));
    let failed_index = failed.map(|f| offset + f);
    let shown = (run.passes.len() > passes.len()).then(|| {
        format!(
            "Passes {}–{} of {} are drawn (the log holds more than one compile's worth). ",
            offset + 1,
            offset + passes.len(),
            run.passes.len()
        )
    });
    html! {
        <div class="timeline" id="log-timeline">
            <p class="muted tl-legend">
                { shown.unwrap_or_default() }
                { format!("{} passes on {} scopes, in the order they ran. ", passes.len(), laid.lanes.len()) }
                <span class="tl-key tl-passed" />{ " passed " }
                <span class="tl-key tl-failed" />{ " failed " }
                <span class="tl-key tl-started" />{ " no end in the log " }
                <span class="tl-key tl-dumped-key" />{ " a dump of it is loaded. Choose a pass to see its dumps." }
            </p>
            <div class="tl-scroll">
                <svg width={width.to_string()} height={height.to_string()} role="group" aria-label="The compile's passes by scope">
                    { for labels }
                    { for names }
                    { for cells }
                </svg>
            </div>
            if let Some((i, pass)) = chosen {
                <PassDetails pass={pass.clone()} dumps={dumps.after(pass).into_iter().filter_map(|d| props.paths.get(d).cloned()).collect::<Vec<_>>()}
                             failure={(failed_index == Some(i)).then(|| run.failure.clone()).flatten()}
                             failure_place={props.failure_place.clone()} />
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct PassDetailsProps {
    pass: PassRun,
    dumps: Vec<String>,
    failure: Option<Failure>,
    failure_place: Option<Located>,
}

/// The pass chosen: where and how it ran, the dumps printed after it, and, when it is
/// the one that failed, what it failed on.
#[function_component(PassDetails)]
fn pass_details(props: &PassDetailsProps) -> Html {
    let context = use_app();
    let pass = &props.pass;
    let scope = match (&pass.scope, pass.lane) {
        (None, _) => "every module".to_owned(),
        (Some(s), LaneKind::Core) => format!("core {s}"),
        (Some(s), LaneKind::Subgraph) => format!("subgraph {s}, across the cores"),
        (Some(s), _) => format!("module {s}"),
    };
    let how = match (pass.status, pass.seconds) {
        (RunStatus::Passed, Some(s)) => format!("passed in {s:.3} s"),
        (RunStatus::Failed, Some(s)) => format!("failed after {s:.3} s"),
        (RunStatus::Started, _) => "started, with no end in the log".to_owned(),
        (status, None) => status.as_str().to_owned(),
    };
    let close = context.on(|| Action::Log(LogAction::Pass(None)));
    let reveal = {
        let name = pass.name.clone();
        context.on(move || Action::Passes(PassesAction::Reveal(name.clone())))
    };
    let failure = props.failure.as_ref().map(|failure| {
        let jump = props.failure_place.as_ref().filter(|p| p.diagnostic.is_some() || !p.keys.is_empty()).map(|place| {
            let (key, diagnostic) = (place.keys.first().cloned(), place.diagnostic);
            let onclick = context.on(move || Action::Log(LogAction::Jump { key: key.clone(), diagnostic }));
            html! { <button type="button" id="timeline-jump" {onclick}>{ "Show it in the loaded dumps" }</button> }
        });
        let to_print = failure.dump_after.as_ref().map(|after| {
            html! {
                <p class="muted" id="timeline-to-print">
                    { "To see what it failed on, print the modules it was given: rerun neuronx-cc with " }
                    <code>{ dump_flags(after) }</code>
                    { format!(" (after `{after}`, the last pass that passed on them).") }
                </p>
            }
        });
        html! {
            <div class="tl-failure">
                <p class="check failed">
                    if let Some(code) = &failure.code { <strong>{ code.clone() }</strong>{ " " } }
                    { failure.message.clone() }
                    { format!(" (log line {})", failure.line) }
                </p>
                if let Some(a) = &failure.assertion {
                    <p class="muted">{ "Assertion " }<code>{ a.text.clone() }</code>{ format!(" at {}:{}", a.file.rsplit('/').next().unwrap_or(&a.file), a.line) }</p>
                }
                if let Some(jump) = jump { <p>{ jump }</p> } else { { for to_print } }
            </div>
        }
    });
    html! {
        <div class="tl-details" id="timeline-pass">
            <header>
                <h4><code>{ pass.name.clone() }</code>{ format!(" on {scope}: {how}, log line {}", pass.line) }</h4>
                <button type="button" aria-label="Close the pass" onclick={close}>{ "×" }</button>
            </header>
            { for failure }
            if pass.status == RunStatus::Failed {
                <p class="muted">{ "A pass that failed prints no dump after it." }</p>
            } else if props.dumps.is_empty() {
                <p class="muted" id="timeline-no-dumps">
                    { "No dump printed after it is loaded. To print one: rerun neuronx-cc with " }
                    <code>{ dump_flags(&pass.name) }</code>{ "." }
                </p>
            } else {
                <p>{ format!("Printed after it ({}):", props.dumps.len()) }</p>
                <ul class="tl-dumps" id="timeline-dumps">
                    { for props.dumps.iter().map(|d| html! { <li><code>{ d.clone() }</code></li> }) }
                </ul>
                <p><button type="button" id="timeline-passes" onclick={reveal}>{ "What it did to each module, and whether the cores parted (Passes view)" }</button></p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(name: &str, scope: Option<&str>) -> PassRun {
        PassRun {
            name: name.to_owned(),
            scope: scope.map(str::to_owned),
            lane: LaneKind::of(scope),
            status: RunStatus::Passed,
            seconds: None,
            line: 1,
        }
    }

    #[test]
    fn passes_lay_out_in_columns_by_first_run_and_lanes_by_scope() {
        let passes = [
            pass("mod_parallel_pass", None),
            pass("lnc_verifier", Some("sg00")),
            pass("dep_reduction", Some("nc01/sg00")),
            pass("dep_reduction", Some("nc00/sg00")),
            pass("bir_linker", Some("nc00")),
            pass("lnc_verifier", Some("sg01")),
        ];
        let laid = layout(&passes);
        assert_eq!(laid.columns, ["mod_parallel_pass", "lnc_verifier", "dep_reduction", "bir_linker"]);
        let lanes: Vec<String> = laid.lanes.iter().map(lane_label).collect();
        assert_eq!(lanes, ["all modules", "nc00", "sg00", "sg01", "nc00/sg00", "nc01/sg00"]);
        assert_eq!(laid.cells, [(0, 0), (1, 2), (2, 5), (2, 4), (3, 1), (1, 3)]);
    }
}
