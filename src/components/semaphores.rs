//! vnc_link: the per-core count of remote-notifying DMA blocks (the 1512 lockstep
//! check), the blocks paired k-th to k-th across cores (unpaired ones highlighted), and
//! every relocation — block, target core, peer block, old id → new id —
//! with both blocks one click away.

use yew::prelude::*;

use birlink_core::output::report::PassStatus;
use birlink_core::{EntityKind, Pass};

use super::aligned::PairedBlocks;
use super::later::Later;
use super::table::{columns, DataTable};
use super::{value_text, EntityLink};
use crate::context::use_app;

/// The semaphores view.
#[function_component(Semaphores)]
pub fn semaphores() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = state.result() else { return html! {} };
    let report = &result.report;
    if result.pass_status(Pass::VncLink) == PassStatus::Skipped {
        return html! {
            <div class="empty-state"><p>{ "vnc_link did not run (a pass before it failed, or it was not selected)." }</p></div>
        };
    }
    let counts = &report.semaphores.counts;
    let lockstep = counts.windows(2).all(|w| w[0].remote_dma_blocks == w[1].remote_dma_blocks);
    let relocations = &report.semaphores.relocations;
    let row = {
        // The run's result is shared: the rows' closures hold it, not a copy.
        let shared = result.clone();
        Callback::from(move |i: usize| -> Vec<Html> {
            let r = &shared.report.semaphores.relocations[i];
            vec![
                html! { { r.core } },
                html! { <EntityLink kind={EntityKind::Instruction} name={r.block.clone()} parent={Some(AttrValue::from(r.block_parent.clone()))} /> },
                html! { { r.ordinal } },
                html! { { r.update } },
                html! { { r.target_core } },
                html! { <EntityLink kind={EntityKind::Instruction} name={r.peer_block.clone()} parent={Some(AttrValue::from(r.peer_parent.clone()))} /> },
                html! { <span class="num">{ value_text(&r.old_id) }</span> },
                html! { <span class="num new">{ value_text(&r.new_id) }</span> },
            ]
        })
    };
    let row_class = {
        let shared = result.clone();
        Callback::from(move |i: usize| {
            let r = &shared.report.semaphores.relocations[i];
            if r.old_id != r.new_id {
                classes!("changed")
            } else {
                classes!()
            }
        })
    };
    html! {
        <div class="semaphores" id="semaphores-view">
            <section>
                <h3>{ "Remote-notifying DMA blocks per core" }</h3>
                <p class={classes!("check", if lockstep { "ok" } else { "failed" })} id="lockstep">
                    { if lockstep { "✓ every core has the same number: the k-th block of one core pairs with the k-th of its peer" }
                      else { "✕ the counts differ (1512): blocks cannot be paired by position" } }
                </p>
                <table class="counts-table">
                    <caption>{ "The 1512 lockstep check" }</caption>
                    <thead><tr><th scope="col">{ "core" }</th><th scope="col">{ "function" }</th><th scope="col">{ "remote DMA blocks" }</th></tr></thead>
                    <tbody>
                        { for counts.iter().map(|c| html! {
                            <tr class={classes!((!lockstep).then_some("changed"))}>
                                <td>{ c.core }</td><td>{ c.function.clone() }</td><td class="num">{ c.remote_dma_blocks }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </section>
            <Later what="the paired blocks"><PairedBlocks alignment={result.alignment.clone()} /></Later>
            <section>
                <h3>{ format!("Relocations ({})", relocations.len()) }</h3>
                if relocations.is_empty() {
                    <p class="muted">{ "No remote semaphore update was relinked." }</p>
                } else {
                    <Later what="the relocations">
                        <DataTable caption="Each remote update and the peer's local id it now carries"
                                   columns={columns(&["core", "block", "k", "update", "target", "peer block", "old id", "new id"])}
                                   rows={relocations.len()} {row} row_class={Some(row_class)} id="relocations" />
                    </Later>
                }
            </section>
        </div>
    }
}
