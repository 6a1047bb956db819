//! A compiler work directory in the load panel: the pass linked (a chooser among the
//! passes dumped), the file each core links from and why, the cores with none and the
//! flags that would dump them, and what was set aside, counted by kind and listed.

use birlink_core::english::counted;
use birlink_core::read::workdir::{dump_flags, Aside};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::state::{LoadedFile, Workdir};

/// How much of `command.txt` is shown.
const COMMAND_MAX: f64 = 16_384.0;

/// Props of [`WorkdirSummary`].
#[derive(Properties, PartialEq)]
pub struct WorkdirProps {
    /// What the last link took of the files.
    pub workdir: Workdir,
    /// Choose another pass.
    pub on_after: Callback<String>,
    /// The folder's `command.txt`, when it has one.
    #[prop_or_default]
    pub command: Option<LoadedFile>,
}

/// Props of [`CommandText`].
#[derive(Properties, PartialEq)]
struct CommandProps {
    file: LoadedFile,
    /// The pass whose dumps are linked.
    after: String,
    /// Whether a core has no dump of it.
    missing: bool,
}

/// The compile command the work directory was made with, read from its `command.txt`
/// (as text, never markup), and the flags that dump the link's input.
#[function_component(CommandText)]
fn command_text(props: &CommandProps) -> Html {
    let text = use_state(|| None::<String>);
    {
        let text = text.clone();
        let blob = props.file.blob.0.clone();
        use_effect_with(props.file.id, move |_| {
            if let Some(blob) = blob {
                let part = if blob.size() > COMMAND_MAX {
                    blob.slice_with_f64_and_f64(0.0, COMMAND_MAX).ok()
                } else {
                    Some(blob)
                };
                if let Some(part) = part {
                    wasm_bindgen_futures::spawn_local(async move {
                        if let Ok(value) = wasm_bindgen_futures::JsFuture::from(part.text()).await {
                            text.set(value.as_string());
                        }
                    });
                }
            }
        });
    }
    let flags = dump_flags(&props.after);
    html! {
        <details class="workdir-command" id="workdir-command" open={props.missing}>
            <summary>{ format!("compile command ({})", props.file.path) }</summary>
            <pre class="command">{ (*text).clone().unwrap_or_default() }</pre>
            <p class="muted">{ "Run it again with " }<code>{ flags }</code>{ format!(" to dump each core's module after `{}`.", props.after) }</p>
        </details>
    }
}

/// What one kind of set-aside file is called, one and many.
fn kind(aside: &Aside) -> (u8, &'static str, &'static str) {
    match aside {
        Aside::OtherPass(_) => (0, "dump of another pass", "dumps of other passes"),
        Aside::AfterTheLink(_) => (1, "of the compiler's own results", "of the compiler's own results"),
        Aside::TensorMap => (2, "tensor map", "tensor maps"),
        Aside::Artifact => (3, "backend artifact", "backend artifacts"),
        Aside::LinkOutput => (4, "file of an earlier link", "files of an earlier link"),
        Aside::Command => (5, "compile command", "compile commands"),
        Aside::LinkedModule(_) => (6, "dump of the compiler's linked module", "dumps of the compiler's linked modules"),
        Aside::PastTheLink(_) => (7, "dump after the link", "dumps after the link"),
        Aside::Log => (8, "compiler log", "compiler logs"),
    }
}

/// The work directory's summary.
#[function_component(WorkdirSummary)]
pub fn workdir_summary(props: &WorkdirProps) -> Html {
    let WorkdirProps { workdir, on_after, command: command_file } = props;
    let plan = &workdir.plan;
    let chosen =
        plan.picked.first().map(|(_, d, _)| d.after.clone()).unwrap_or_else(|| plan.default_after().to_owned());
    let on_change = {
        let on_after = on_after.clone();
        Callback::from(move |event: Event| {
            if let Some(select) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) {
                on_after.emit(select.value());
            }
        })
    };
    let mut kinds: Vec<(u8, &str, &str, usize)> = Vec::new();
    for (_, aside) in &plan.set_aside {
        let (order, one, many) = kind(aside);
        match kinds.iter_mut().find(|k| k.0 == order) {
            Some(k) => k.3 += 1,
            None => kinds.push((order, one, many, 1)),
        }
    }
    kinds.sort_by_key(|k| k.0);
    let counts: Vec<String> =
        kinds.iter().map(|(_, one, many, n)| format!("{n} {}", if *n == 1 { one } else { many })).collect();
    let command = plan.command.map(|i| workdir.paths[i].clone());
    html! {
        <div class="workdir" id="workdir">
            <p class="workdir-head">
                { format!("Work directory · {} · ", birlink_core::read::workdir::subgraphs_text(&plan.subgraphs)) }
                <label for="after-pass">{ "dumps after " }</label>
                <select id="after-pass" onchange={on_change}>
                    { for plan.passes.iter().map(|pass| html! {
                        <option value={pass.clone()} selected={*pass == chosen}>{ pass.clone() }</option>
                    }) }
                    if !plan.passes.contains(&chosen) {
                        <option value={chosen.clone()} selected=true>{ chosen.clone() }</option>
                    }
                </select>
            </p>
            <ul class="workdir-picked">
                { for plan.picked.iter().map(|(i, dump, reason)| html! {
                    <li>
                        <span class="core">{ dump.module_name(plan.modular()) }</span>{ " " }
                        <span class="file" title={workdir.paths[*i].clone()}>{ workdir.paths[*i].rsplit('/').next().unwrap_or_default().to_owned() }</span>
                        <span class="why">{ format!(" — {}", reason.describe(dump)) }</span>
                    </li>
                }) }
                { for plan.missing.iter().map(|core| html! {
                    <li class="missing">
                        <span class="core">{ format!("core {core}") }</span>
                        { format!(" has no dump after `{chosen}`: re-run the compile{} with ", command.as_ref().map(|c| format!(" (its command is in `{c}`)")).unwrap_or_default()) }
                        <code>{ dump_flags(&chosen) }</code>
                    </li>
                }) }
            </ul>
            if let Some(file) = command_file.clone() {
                <CommandText {file} after={chosen.clone()} missing={!plan.missing.is_empty()} />
            }
            if !plan.set_aside.is_empty() {
                <details class="workdir-aside">
                    <summary>{ format!("set aside {}: {}", counted(plan.set_aside.len(), "file"), counts.join(", ")) }</summary>
                    <ul>
                        { for plan.set_aside.iter().map(|(i, aside)| html! {
                            <li><span class="file">{ workdir.paths[*i].clone() }</span>{ " — " }{ aside.describe() }</li>
                        }) }
                    </ul>
                </details>
            }
        </div>
    }
}
