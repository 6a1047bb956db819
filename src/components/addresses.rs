//! vnc_remote_addr_map: every copy of an owner's physical tuple onto a remote view, the
//! tuple before and after, fields that changed marked.

use yew::prelude::*;

use birlink_core::output::report::PassStatus;
use birlink_core::{EntityKind, Pass};

use birlink_core::model::ir::PhysTuple;

use super::table::{columns, DataTable};
use super::EntityLink;
use crate::context::use_app;

fn tuple(t: &PhysTuple, other: &PhysTuple) -> Html {
    let field = |name: &str, value: String, changed: bool| {
        html! { <span class={classes!("field", changed.then_some("changed"))}>{ format!("{name}={value}") }</span> }
    };
    html! {
        <span class="tuple">
            { field("type", t.mem_type.clone(), t.mem_type != other.mem_type) }
            { field("space", t.addr_space.clone(), t.addr_space != other.addr_space) }
            { field("addr", t.addr.to_string(), t.addr != other.addr) }
            { field("bank", t.bank.to_string(), t.bank != other.bank) }
            { field("base", t.base.to_string(), t.base != other.base) }
            { field("allocated", t.allocated.to_string(), t.allocated != other.allocated) }
        </span>
    }
}

/// The addresses view.
#[function_component(Addresses)]
pub fn addresses() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = state.result() else { return html! {} };
    let report = &result.report;
    let status = result.pass_status(Pass::VncRemoteAddrMap);
    if status == PassStatus::Skipped {
        return html! { <div class="empty-state"><p>{ "vnc_remote_addr_map did not run." }</p></div> };
    }
    let failed = status == PassStatus::Error;
    let rows = report.address_map.clone();
    let row = {
        let rows = rows.clone();
        Callback::from(move |i: usize| -> Vec<Html> {
            let r = &rows[i];
            vec![
                html! { { r.core } },
                html! { <EntityLink kind={EntityKind::Memloc} name={r.memloc.clone()} parent={Some(AttrValue::from(r.function.clone()))} /> },
                html! { { format!("{} / {}", r.function, r.set) } },
                html! { <><EntityLink kind={EntityKind::Memloc} name={r.remote.clone()} parent={Some(AttrValue::from(r.owner_function.clone()))} />{ format!(" (core {})", r.owner_core) }</> },
                tuple(&r.before, &r.after),
                tuple(&r.after, &r.before),
            ]
        })
    };
    html! {
        <div class="addresses" id="addresses-view">
            if failed {
                <p class="check failed">{ "✕ the pass failed: these copies were found but not applied (see the diagnostics)" }</p>
            }
            if rows.is_empty() {
                <p class="muted">{ "No memory location has a remote_local_target: nothing to copy." }</p>
            } else {
                <DataTable caption="Each remote view and the owner's physical tuple copied onto it"
                           columns={columns(&["core", "view", "function / set", "owner", "before", "after"])}
                           rows={rows.len()} {row} id="address-map" />
            }
        </div>
    }
}
