//! CoreBarriers: the i-th of every core side by side (names that differ are what the
//! compiler's `NCC_IXLV002` stops on), in every flow; then, where bir_linker ran, the
//! renumbering as a remap: per core, every barrier's old id and its new global id,
//! changed ones marked; the barriers left alone (no integer id); the check that no two
//! renumbered barriers share an id; and the old ids that clashed across cores — the
//! reason the renumbering exists. Where it did not run (the flat flow never runs it),
//! the view says so in place of the renumbering, and hides only that.

use birlink_core::english::counted;
use yew::prelude::*;

use birlink_core::output::report::PassStatus;
use birlink_core::{EntityKind, Flow, Pass};

use super::aligned::AlignedBarriers;
use super::later::Later;
use super::table::{columns, DataTable};
use super::EntityLink;
use crate::context::use_app;
use crate::state::{query, Action, DetailsAction, Selection};

/// The barriers view.
#[function_component(Barriers)]
pub fn barriers() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = state.result() else { return html! {} };
    let report = &result.report;
    if result.pass_status(Pass::BirLinker) == PassStatus::Skipped {
        let why = if report.options.flow == Flow::Flat {
            "The flat flow: the compiler runs no bir_linker, so no CoreBarrier was renumbered; each keeps its id."
        } else {
            "bir_linker did not run (a pass before it failed, or it was not selected): nothing was renumbered."
        };
        return html! {
            <div class="barriers" id="barriers-view">
                <AlignedBarriers alignment={result.alignment.clone()} />
                <p class="check info" id="barrier-renumbering">{ why }</p>
            </div>
        };
    }
    let collisions = result.barrier_collisions();
    let reused = result.reused_old_ids();
    let skipped = result.skipped_barriers();
    let groups = result.barriers_by_core();
    html! {
        <div class="barriers" id="barriers-view">
            <div class="checks">
                if collisions.is_empty() {
                    <p class="check ok" id="barrier-collisions">{ format!("✓ no collision: {}, {} distinct ids, dense from 0", counted(report.barriers.len(), "barrier"), report.barriers.len()) }</p>
                } else {
                    <p class="check failed" id="barrier-collisions">{ format!("✕ ids given twice: {collisions:?}") }</p>
                }
                if !reused.is_empty() {
                    <p class="check info">
                        { "Before renumbering, these ids were used on several cores: " }
                        { for reused.iter().take(8).map(|(id, cores)| html! {
                            <span class="pill">{ format!("id {id} on cores {}", cores.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")) }</span>
                        }) }
                        if reused.len() > 8 { { format!(" and {} more", reused.len() - 8) } }
                    </p>
                }
                if !skipped.is_empty() {
                    <p class="check warn">
                        { format!("{} without an integer id, left as they are: ", counted(skipped.len(), "barrier")) }
                        { for skipped.iter().map(|(function, name)| html! {
                            <span class="skipped"><EntityLink kind={EntityKind::Instruction} name={name.clone()} parent={Some(AttrValue::from(function.clone()))} /></span>
                        }) }
                    </p>
                }
            </div>
            <AlignedBarriers alignment={result.alignment.clone()} />
            <h3 class="section-title">{ "Renumbering, per core" }</h3>
            { for groups.iter().map(|(core, rows)| {
                let rows = std::rc::Rc::new(rows.clone());
                // The run's result is shared: the rows' closures hold it, not a copy.
                let shared = result.clone();
                let title = match core { Some(core) => format!("core {core}"), None => "main".to_owned() };
                let selected = rows.iter().position(|&i| context.is_selected(EntityKind::Instruction, &report.barriers[i].instruction, Some(&report.barriers[i].function)));
                let row = {
                    let rows = rows.clone();
                    let shared = shared.clone();
                    Callback::from(move |i: usize| -> Vec<Html> {
                        let b = &shared.report.barriers[rows[i]];
                        vec![
                            html! { <EntityLink kind={EntityKind::Instruction} name={b.instruction.clone()} parent={Some(AttrValue::from(b.function.clone()))} /> },
                            html! { { b.function.clone() } },
                            html! { <span class="num">{ b.old_id }</span> },
                            html! { <span class="arrow">{ "→" }</span> },
                            html! { <span class="num new">{ b.new_id }</span> },
                        ]
                    })
                };
                let row_class = {
                    let rows = rows.clone();
                    let shared = shared.clone();
                    Callback::from(move |i: usize| -> Classes {
                        let b = &shared.report.barriers[rows[i]];
                        if b.old_id != b.new_id { classes!("changed") } else { classes!() }
                    })
                };
                let on_select = {
                    let context = context.clone();
                    let rows = rows.clone();
                    Callback::from(move |i: usize| {
                        let b = &shared.report.barriers[rows[i]];
                        let query = query(EntityKind::Instruction, &b.instruction, Some(&b.function));
                        context.dispatch(Action::Details(DetailsAction::Select(Selection::Entity(query))));
                    })
                };
                let changed = rows.iter().filter(|&&i| report.barriers[i].old_id != report.barriers[i].new_id).count();
                html! {
                    <section class="core-group">
                        <h3>{ format!("{title} — {}, {changed} renumbered", counted(rows.len(), "barrier")) }</h3>
                        <Later what={format!("the barriers of {title}")}>
                            <DataTable caption={format!("CoreBarriers of {title}: old id and new global id")}
                                       columns={columns(&["instruction", "function", "old id", "", "new id"])}
                                       rows={rows.len()} {row} row_class={Some(row_class)} on_select={Some(on_select)} {selected} />
                        </Later>
                    </section>
                }
            }) }
        </div>
    }
}
