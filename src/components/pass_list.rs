//! The pipeline in the sidebar: each pass with its status, each step with how many
//! entities it changed. Selecting a step opens its diff; unchanged steps can be hidden.

use yew::prelude::*;

use crate::context::use_app;
use birlink_core::tools::share::View;

use crate::state::{Action, ViewAction};

/// The pass list.
#[function_component(PassList)]
pub fn pass_list() -> Html {
    let context = use_app();
    let state = &context.state;
    let Some(result) = state.result() else {
        return html! { <section class="panel passes" aria-labelledby="passes-title"><h2 id="passes-title">{ "Pipeline" }</h2></section> };
    };
    let toggle = {
        let context = context.clone();
        Callback::from(move |_| context.dispatch(Action::View(ViewAction::ToggleHideUnchanged)))
    };
    let flat = result.report.options.flow == birlink_core::Flow::Flat;
    html! {
        <section class="panel passes" aria-labelledby="passes-title" id="pass-list">
            <h2 id="passes-title">{ "Pipeline" }</h2>
            <label class="toggle">
                <input type="checkbox" checked={state.hide_unchanged} onchange={toggle} />
                { " hide unchanged steps" }
            </label>
            <ol class="pass-list">
                { for result.report.passes.iter().enumerate().map(|(p, pass)| {
                    // A pass run once per core (bir_linker in the modular flow) counts its core's.
                    let diagnostics = result.report.diagnostics.iter()
                        .filter(|d| d.pass == pass.name && (pass.core.is_none() || d.core == pass.core))
                        .count();
                    let status = pass.status.as_str();
                    let name = pass.label();
                    let flat_after_verify = flat && pass.name == birlink_core::Pass::Verify;
                    html! {
                        <>
                        <li class={classes!("pass", status)} data-pass={pass.name.as_str()} data-core={pass.core.map(|c| c.to_string())}>
                            <div class="pass-head">
                                <span class={classes!("dot", status)} aria-hidden="true"></span>
                                <span class="pass-name">{ name }</span>
                                <span class="pass-status">{ status }</span>
                                if diagnostics > 0 {
                                    <span class="pass-diags" title="diagnostics of this pass">{ format!("{diagnostics} diag") }</span>
                                }
                            </div>
                            <ol class="steps">
                                { for pass.steps.iter().enumerate()
                                    .filter(|(_, step)| !state.hide_unchanged || step.changes > 0)
                                    .map(|(s, step)| {
                                        let selected = state.step == Some((p, s)) && state.view == View::Pipeline;
                                        let onclick = {
                                            context.on(move || Action::View(ViewAction::SelectStep(p, s)))
                                        };
                                        html! {
                                            <li>
                                                <button type="button" class={classes!("step", selected.then_some("selected"), (step.changes == 0).then_some("unchanged"))}
                                                        {onclick} aria-current={selected.then_some("step")}>
                                                    <span>{ step.name.clone() }</span>
                                                    <span class="changes">{ step.changes }</span>
                                                </button>
                                            </li>
                                        }
                                    }) }
                            </ol>
                        </li>
                        if flat_after_verify {
                            <li class="pass none" data-pass="bir_linker" id="no-bir-linker">
                                <div class="pass-head">
                                    <span class="pass-name">{ "bir_linker" }</span>
                                    <span class="pass-status">{ "none" }</span>
                                </div>
                                <p class="hint">{ "The flat flow: the compiler runs no bir_linker; the VNC passes work across the per-core modules." }</p>
                            </li>
                        }
                        </>
                    }
                }) }
            </ol>
            <p class="hint">{ "j / k: next / previous step" }</p>
        </section>
    }
}
