//! The compiler's log on the page: the "Paste error" box, what the log's lines are and
//! where their names are in the open link set, the compile it tells and its BirLinker
//! blocks held beside birlink's own log.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::model::place::Place;
use birlink_core::tools::log::{Beside, Finding, Located, LogReading, HOW_TO_DUMP};

use super::bytes;
use super::modal::Modal;
use crate::context::use_app;
use crate::state::{Action, LogAction, PassesAction};

/// The box a compiler log is pasted into.
#[function_component(PasteLogDialog)]
pub fn paste_log_dialog() -> Html {
    let context = use_app();
    let on_input = {
        let context = context.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(area) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                context.dispatch(Action::Log(LogAction::Text(area.value())));
            }
        })
    };
    let close = {
        let context = context.clone();
        Callback::from(move |()| context.dispatch(Action::Log(LogAction::Close)))
    };
    let read = context.on(|| Action::Log(LogAction::Read));
    let on_key = {
        let context = context.clone();
        Callback::from(move |event: KeyboardEvent| {
            if event.key() == "Enter" && (event.ctrl_key() || event.meta_key()) {
                event.prevent_default();
                context.dispatch(Action::Log(LogAction::Read));
            }
        })
    };
    html! {
        <Modal id="paste-log" labelledby="paste-log-title" on_close={close.clone()}>
            <h2 id="paste-log-title">{ "Paste the compiler's error" }</h2>
            <p class="muted">
                { "A line of neuronx-cc's log, such as " }
                <code>{ "[NCC_ILLC059] Could not find MemoryLocation named … on core 1" }</code>
                { ", or the whole log. It stays in this page." }
            </p>
            <label for="log-text" class="visually-hidden">{ "Compiler log" }</label>
            <textarea id="log-text" rows="8" spellcheck="false" value={context.state.log.text.clone()}
                      oninput={on_input} onkeydown={on_key}
                      placeholder="[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named inst__I-5-0:send_k_buf on core 1" />
            <div class="dialog-actions">
                <button type="button" class="primary" id="log-read" onclick={read}>{ "Find it (Ctrl+Enter)" }</button>
                <button type="button" onclick={close.reform(|_: MouseEvent| ())}>{ "Cancel" }</button>
            </div>
        </Modal>
    }
}

/// Where one mentioned name is.
fn place(
    context: &crate::context::AppContext,
    mention: &birlink_core::tools::log::Mention,
    located: Option<&Located>,
) -> Html {
    let core = mention.core.map(|c| format!(" on core {c}")).unwrap_or_default();
    let name = html! { <code class="name">{ mention.name.clone() }</code> };
    // With dumps after every pass loaded: the name through them (the Passes view).
    let passes = context.state.has_passes().then(|| {
        let followed = mention.name.clone();
        let onclick = context.on(move || Action::Passes(PassesAction::Follow(Some(followed.clone()))));
        html! { <>{ " · " }<button type="button" class="link follow-passes" {onclick}>{ "through every pass" }</button></> }
    });
    let Some(located) = located else {
        return html! { <li>{ format!("{} ", mention.kind) }{ name }{ core }{ for passes }</li> };
    };
    // One button per entity so named; a core holding several numbers them (real dumps
    // repeat names across loop bodies).
    let mut seen: std::collections::BTreeMap<Option<u64>, usize> = std::collections::BTreeMap::new();
    let jumps: Vec<Html> = located
        .keys
        .iter()
        .map(|key| {
            let onclick = {
                let key = key.clone();
                context.on(move || Action::Log(LogAction::Jump { key: Some(key.clone()), diagnostic: None }))
            };
            let nth = seen.entry(key.core).or_default();
            *nth += 1;
            let core = key.core.map(|c| format!("core {c}")).unwrap_or_else(|| "main".to_owned());
            let label = if *nth == 1 { core } else { format!("{core} ({})", nth) };
            html! { <button type="button" class="link" {onclick} title={key.to_string()}>{ label }</button> }
        })
        .collect();
    let diagnostic = located.diagnostic.map(|index| {
        let onclick = context.on(move || Action::Log(LogAction::Jump { key: None, diagnostic: Some(index) }));
        html! { <button type="button" class="link" {onclick}>{ "the link's diagnostic" }</button> }
    });
    html! {
        <li class={classes!(located.keys.is_empty().then_some("missing"))}>
            { format!("{} ", mention.kind) }{ name }{ core }
            if located.keys.is_empty() {
                { ": in no module of this link set" }
                if !located.nearest.is_empty() {
                    { "; nearest: " }
                    { for located.nearest.iter().map(|n| html! { <><code class="name">{ n.clone() }</code>{ " " }</> }) }
                }
            } else {
                { ": " }{ for jumps }
            }
            if let Some(button) = diagnostic { { " · " }{ button } }
            { for passes }
        </li>
    }
}

fn finding_row(context: &crate::context::AppContext, finding: &Finding, located: Option<&Vec<Located>>) -> Html {
    let explained = match (finding.known, finding.birlink()) {
        (Some(entry), Some(code)) => {
            html! { <>{ format!("birlink's {}: {}. ", code.as_str(), code.info().title) }<span class="muted">{ entry.note }</span></> }
        }
        (Some(entry), None) => {
            html! { <>{ "birlink does not reproduce it: " }<span class="muted">{ entry.note }</span></> }
        }
        (None, _) => html! { { "not a code birlink knows" } },
    };
    html! {
        <li class="finding">
            <div><span class="pill">{ format!("line {}", finding.line) }</span><strong>{ finding.code.clone() }</strong>{ " — " }{ explained }</div>
            <div class="log-line"><code>{ finding.text.clone() }</code></div>
            if !finding.mentions.is_empty() {
                <ul class="mentions">
                    { for finding.mentions.iter().enumerate().map(|(i, m)| place(context, m, located.and_then(|l| l.get(i)))) }
                </ul>
            }
        </li>
    }
}

/// The compile a pasted log tells of, when it tells of one: the compiler, LNC and flow,
/// how many passes ran, and where it failed (the pass, its scope, the assertion, the
/// code) — birlink's reading of the whole log (log spec §3).
#[derive(Properties, PartialEq)]
struct CompileProps {
    reading: Rc<LogReading>,
    /// How many compiles the log holds.
    runs: usize,
}

#[function_component(CompileSummary)]
fn compile_summary(props: &CompileProps) -> Html {
    let reading = &props.reading;
    let run = &reading.run;
    let mut facts = Vec::new();
    if let Some(version) = &run.compiler.version {
        facts.push(format!("neuronx-cc {version}"));
    }
    if let Some(lnc) = run.lnc {
        facts.push(format!("LNC {lnc}"));
    }
    if let Some(flow) = &run.flow {
        facts.push(format!("{flow} flow"));
    }
    if !run.modules.is_empty() {
        facts.push(format!("{} modules loaded", run.modules.len()));
    }
    if !run.passes.is_empty() {
        facts.push(format!("{} passes run", run.passes.len()));
    }
    if facts.is_empty() && run.failure.is_none() {
        return html! {};
    }
    let runs = (props.runs > 1).then(|| {
        let which = if run.failure.is_some() { "the one that failed" } else { "the last" };
        format!("{} compiles in this log; this is {which}.", props.runs)
    });
    html! {
        <div class="log-compile" id="log-compile">
            if !facts.is_empty() {
                <p id="log-compile-facts">{ facts.join(" · ") }</p>
            }
            if let Some(runs) = runs {
                <p class="muted">{ runs }</p>
            }
            if let Some(failure) = &run.failure {
                <p class="check failed" id="log-failure">
                    { "Failed in " }
                    <code>{ failure.pass.clone().unwrap_or_else(|| "a pass the log does not name".to_owned()) }</code>
                    { failure.scope.as_ref().map(|s| format!(" ({s})")).unwrap_or_default() }
                    { format!(", line {}: ", failure.line) }
                    if let Some(code) = &failure.code { <strong>{ code.clone() }</strong>{ " " } }
                    { failure.message.clone() }
                </p>
                if let Some(kind) = failure.kind {
                    <p class="muted" id="log-failure-kind" data-kind={format!("{kind:?}").to_lowercase()}>{ format!("Whose: {}.", kind.words()) }</p>
                }
                if let Some(traceback) = &failure.traceback {
                    <p class="muted" id="log-traceback">
                        { format!("A Python traceback of {} frames (log line {}), raised in ", traceback.frames, traceback.line) }
                        if let Some(frame) = &traceback.frame {
                            <code>{ format!("{} ({}:{})", frame.function, frame.file.rsplit('/').next().unwrap_or(&frame.file), frame.line) }</code>
                        }
                        { ": " }<code>{ traceback.exception.clone() }</code>
                    </p>
                }
                if let Some(assertion) = &failure.assertion {
                    <p class="muted" id="log-assertion">
                        { "Assertion " }<code>{ assertion.text.clone() }</code>
                        { format!(" at {}:{}", assertion.file.rsplit('/').next().unwrap_or(&assertion.file), assertion.line) }
                    </p>
                }
            }
        </div>
    }
}

/// What the log says (pasted, or a file read by the worker): the compile, its passes
/// as a timeline, the log held beside the open link set, and where its names are.
#[function_component(LogFindings)]
pub fn log_findings() -> Html {
    let context = use_app();
    let state = &context.state;
    let log = &state.log;
    let close = context.on(|| Action::Log(LogAction::Close));
    if let Some(file) = log.file.as_ref().filter(|f| f.reading || f.error.is_some()) {
        let said = match &file.error {
            Some(error) => format!("{}: {error}", file.path),
            None => format!("Reading the compiler's log {} ({})…", file.path, bytes(file.size)),
        };
        return html! {
            <section class="log-findings" id="log-findings" aria-label="The compiler log" aria-busy={file.reading.to_string()}>
                <header>
                    <h3 id="log-reading">{ said }</h3>
                    <button type="button" aria-label="Close the log" onclick={close}>{ "×" }</button>
                </header>
            </section>
        };
    }
    if !log.read {
        return html! {};
    }
    let edit = context.on(|| Action::Log(LogAction::Open));
    let located = log.located.clone();
    let needs_files = state.result().is_none() && log.findings.iter().any(|f| f.birlink().is_some());
    let title = match &log.file {
        Some(file) => format!("{} ({}): {} line(s) birlink knows", file.path, bytes(file.size), log.findings.len()),
        None => format!("The pasted log: {} line(s) birlink knows", log.findings.len()),
    };
    // A pasted log's JSON is written here; a file's by the worker, which holds its bytes.
    let download = if log.file.is_some() {
        context.on(|| Action::Log(LogAction::Download))
    } else {
        let reading = log.reading.clone();
        let beside = log.beside.clone();
        Callback::from(move |()| {
            if let Some(reading) = &reading {
                let json = birlink_core::tools::log::reading_json(reading, beside.as_deref());
                crate::services::download::text(&json, "log.json", "application/json");
            }
        })
    };
    let download = Callback::from(move |_: MouseEvent| download.emit(()));
    let paths: Rc<Vec<String>> =
        Rc::new(state.sides[crate::side::Side::Shown].link.files.iter().map(|f| f.path.clone()).collect());
    // Where the failure's names are: the finding on the failure's line.
    let failure_place = log.reading.as_ref().and_then(|r| r.run.failure.as_ref()).and_then(|failure| {
        let i = log.findings.iter().position(|f| f.line == failure.line)?;
        located.as_ref()?.get(i)?.iter().find(|l| l.diagnostic.is_some() || !l.keys.is_empty()).cloned()
    });
    html! {
        <section class="log-findings" id="log-findings" aria-label="The compiler log">
            <header>
                <h3>{ title }</h3>
                <button type="button" id="log-download" title="The log read, as `birlink explain --log LOG --format json` prints it" onclick={download}>{ "log.json" }</button>
                if log.file.is_none() {
                    <button type="button" onclick={edit}>{ "Edit" }</button>
                }
                <button type="button" aria-label="Close the log" onclick={close}>{ "×" }</button>
            </header>
            if let Some(reading) = log.reading.clone() {
                <CompileSummary reading={reading.clone()} runs={log.runs} />
                <super::timeline::Timeline reading={reading.clone()} {paths} selected={log.pass} {failure_place} />
                <super::codegen_stats::CodegenStats {reading} />
            }
            if let Some(beside) = log.beside.clone() {
                <BesideRun {beside} />
            }
            if log.findings.is_empty() {
                if log.reading.as_ref().is_some_and(|r| r.run.failure.is_none() && !r.run.passes.is_empty()) {
                    <p class="muted">{ "No error in this log." }</p>
                } else {
                    <p class="muted">{ "No line of it is a link failure birlink knows; the Diagnostics reference lists them." }</p>
                }
            }
            <ul>
                { for log.findings.iter().enumerate().map(|(i, f)| finding_row(&context, f, located.as_ref().and_then(|l| l.get(i)))) }
            </ul>
            if needs_files {
                <p class="how-to-dump" id="how-to-dump">{ HOW_TO_DUMP }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct BesideProps {
    beside: Rc<Beside>,
}

/// The log held beside the open link set: each core's BirLinker block against
/// birlink's `bir_linker.log`, the failure against the run's diagnostics.
#[function_component(BesideRun)]
fn beside_run(props: &BesideProps) -> Html {
    let context = use_app();
    let beside = &props.beside;
    if beside.bir_linker.is_empty() && beside.failure.is_none() {
        return html! {};
    }
    let cores = beside.bir_linker.iter().map(|core| {
        let name = Place::linked(core.core).to_string();
        match &core.first_difference {
            None => html! {
                <li class="check ok">{ format!("bir_linker {name}: the log's BirLinker lines and birlink's bir_linker.log agree ({} lines)", core.log_lines) }</li>
            },
            Some(d) => html! {
                <li class="check failed">
                    { format!("bir_linker {name}: they part at line {} of {}", d.index + 1, core.log_lines.max(core.birlink_lines)) }
                    { d.line.map(|l| format!(" (log line {l})")).unwrap_or_default() }
                    <div class="log-line"><code>{ format!("log:     {}", d.log.as_deref().unwrap_or("(the log's block ends)")) }</code></div>
                    <div class="log-line"><code>{ format!("birlink: {}", d.birlink.as_deref().unwrap_or("(birlink's block ends)")) }</code></div>
                </li>
            },
        }
    });
    let set_aside = beside.bir_linker.iter().find(|core| !core.set_aside.is_empty()).map(|core| {
        let kinds = birlink_core::tools::log::Aside::counted(&core.set_aside);
        html! { <li class="muted" id="beside-set-aside">{ format!("Set aside from the log before comparing, as birlink cannot know them (core {}): {}", core.core, kinds) }</li> }
    });
    let vnc = beside.vnc.as_ref().map(|vnc| match &vnc.first_difference {
        None => html! { <li class="check ok" id="beside-vnc">{ format!("The VNC passes: the log's lines and birlink's agree ({} lines)", vnc.log_lines) }</li> },
        Some(d) => html! {
            <li class="check failed" id="beside-vnc">
                { format!("The VNC passes: they part at line {} of {}", d.index + 1, vnc.log_lines.max(vnc.birlink_lines)) }
                <div class="log-line"><code>{ format!("log:     {}", d.log.as_deref().unwrap_or("(the log's lines end)")) }</code></div>
                <div class="log-line"><code>{ format!("birlink: {}", d.birlink.as_deref().unwrap_or("(birlink's lines end)")) }</code></div>
            </li>
        },
    });
    let failure = beside.failure.as_ref().map(|f| {
        let class = if f.verdict == "same" { "check ok" } else { "check failed" };
        let jump = f.diagnostic.map(|index| {
            let onclick = context.on(move || Action::Log(LogAction::Jump { key: None, diagnostic: Some(index) }));
            html! { <>{ " · " }<button type="button" class="link" {onclick}>{ "the diagnostic" }</button></> }
        });
        html! { <li {class} id="beside-failure">{ format!("The failure: {}", f.said) }{ for jump }</li> }
    });
    html! {
        <div class="log-beside" id="log-beside">
            <p><strong>{ "Beside the open link set" }</strong></p>
            <ul>
                { for cores }
                { for set_aside }
                { for vnc }
                { for failure }
            </ul>
        </div>
    }
}
