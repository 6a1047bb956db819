//! The link set as the compiler sees it, first: the flow and why, and the grid of cores
//! × subgraphs with each module's place and file (docs/spec/link.md §0). The flow is
//! one choice away: as the compiler decides, or asked for (the seeds' reading
//! labelled as such).

use birlink_core::model::place::{CoreId, Place, SubgraphId};
use birlink_core::output::report::{Report, SubgraphRow};
use birlink_core::Flow;
use yew::prelude::*;

use crate::context::use_app;
use crate::state::{LinkAction, LinkOp, RunRef};

/// One cell of the grid: the modules at a core and subgraph (two is an error).
fn cell(rows: &[&SubgraphRow]) -> Html {
    if rows.is_empty() {
        return html! { <td class="missing" title="no module here">{ "—" }</td> };
    }
    html! {
        <td class={classes!((rows.len() > 1).then_some("conflict"))}>
            // The row and column say the place; the cell says what is there (the module
            // and its file in full on hover).
            { for rows.iter().map(|r| html! {
                <div class="grid-module" title={format!("{} · {}", r.module, r.file)} data-file={r.file.clone()} data-module={r.module.clone()}>
                    { match r.definition {
                        Some(d) => format!("def {d}"),
                        None => "✓".to_owned(),
                    } }
                </div>
            }) }
        </td>
    }
}

#[derive(Properties, PartialEq)]
pub struct FlowGridProps {
    /// The run.
    pub run: RunRef,
}

/// The flow line, its chooser, and the grid.
#[function_component(FlowGrid)]
pub fn flow_grid(props: &FlowGridProps) -> Html {
    let context = use_app();
    let report: &Report = &props.run.report;
    let options = &report.options;
    let chosen = context.state.shown().link.flow;
    let onchange = {
        let context = context.clone();
        Callback::from(move |event: Event| {
            let value = event.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            context.dispatch(LinkAction::shown(LinkOp::SetFlow(Flow::parse(&value))));
        })
    };
    let option = |value: &str, label: &str, selected: bool| {
        html! { <option value={value.to_owned()} {selected}>{ label.to_owned() }</option> }
    };
    let mut cores: Vec<u64> = report.subgraphs.iter().map(|r| r.core).collect();
    cores.dedup();
    let mut subgraphs: Vec<u32> = report.subgraphs.iter().map(|r| r.subgraph).collect();
    subgraphs.sort_unstable();
    subgraphs.dedup();
    let name = match options.flow {
        Flow::Modular => "modular flow",
        Flow::Flat => "flat flow",
        Flow::Seeds => "the seeds' reading",
    };
    html! {
        <div class="flow-grid" id="flow-grid" data-flow={options.flow.as_str()} data-flow-source={options.flow_source.as_str()}>
            <p class="flow-line">
                <strong>{ name }</strong>
                { format!(" — {}", options.flow_source.why(options.flow)) }
            </p>
            <label class="flow-choice">
                { "Link " }
                <select id="flow-select" {onchange} aria-label="How to link">
                    { option("", "as the compiler decides (or the bundle says)", chosen.is_none()) }
                    { option("modular", "modular (bir_linker per core)", chosen == Some(Flow::Modular)) }
                    { option("flat", "flat (no bir_linker)", chosen == Some(Flow::Flat)) }
                    { option("seeds", "the seeds' reading (cores merged)", chosen == Some(Flow::Seeds)) }
                </select>
            </label>
            if !report.subgraphs.is_empty() && options.flow != Flow::Seeds {
                <table class="grid-table" id="grid-table">
                    <caption>{ format!("{} core(s) × {} subgraph(s): each module's place", cores.len(), subgraphs.len()) }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "core" }</th>
                            { for subgraphs.iter().map(|&s| html! { <th scope="col">{ SubgraphId(s).to_string() }</th> }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for cores.iter().map(|&core| html! {
                            <tr data-core={core.to_string()}>
                                <th scope="row">{ CoreId(core).to_string() }</th>
                                { for subgraphs.iter().map(|&s| {
                                    let rows: Vec<&SubgraphRow> = report.subgraphs.iter().filter(|r| r.core == core && r.subgraph == s).collect();
                                    cell(&rows)
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
            if !report.vnc_input.is_empty() {
                <p class="flow-line" id="vnc-input" title={report.vnc_input.iter().map(|r| r.file.as_str()).collect::<Vec<_>>().join("\n")}>
                    <strong>{ "The VNC passes' input" }</strong>
                    { if report.vnc_input.iter().all(|r| r.used) {
                        format!(
                            ": the compiler's linked modules ({}) as it dumped them after `{}`, not birlink's bir_linker output — they carry what the post-link passes made of the link.",
                            report.vnc_input.iter().map(|r| Place::linked(r.core).to_string()).collect::<Vec<_>>().join(", "),
                            report.vnc_input[0].after,
                        )
                    } else {
                        ": birlink's own bir_linker output (the compiler's linked modules were dumped, but not for every core, or bir_linker did not link).".to_owned()
                    } }
                </p>
            }
            if !report.fidelity.is_empty() {
                <div class="fidelity" id="fidelity">
                    <p class="flow-line"><strong>{ "The compiler's own result" }</strong>{ ", held against birlink's for the same input:" }</p>
                    <ul>
                        { for report.fidelity.iter().map(|row| {
                            let (agreement, text) = row.verdict();
                            html! {
                                <li class={classes!("fidelity-row", agreement.as_str())} data-pass={row.pass.as_str()} data-core={row.core.to_string()} title={row.file.clone()}>
                                    <strong>{ row.label() }</strong>{ " " }{ text }
                                </li>
                            }
                        }) }
                    </ul>
                </div>
            }
        </div>
    }
}
