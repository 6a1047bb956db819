//! The details panel: what is selected, as canonical text, as JSON in the linked module,
//! and as JSON in its input file with the file, line and column. What it shows comes
//! from the reducer ([`crate::state::Details`]): loading, missing (and why), or ready.

use yew::prelude::*;

use birlink_core::output::report::{DispatchRow, ModuleUnit, PartitionRow, Report};
use birlink_core::tools::query::{EntityView, Original};
use birlink_core::EntityKind;

use super::EntityLink;
use crate::context::use_app;
use crate::state::{Action, Details as Shown, DetailsAction, Fetch, Mode, PassesAction};

/// A fetch that is not ready: what it waits for, or why there is nothing.
fn pending<T>(fetch: &Fetch<T>, what: &str) -> Option<Html> {
    match fetch {
        Fetch::Loading => Some(html! { <p class="muted" role="status">{ format!("loading {what}…") }</p> }),
        Fetch::Missing(why) => Some(html! { <p class="muted missing">{ why.clone() }</p> }),
        Fetch::Ready(_) => None,
    }
}

/// The details panel.
#[function_component(Details)]
pub fn details() -> Html {
    let context = use_app();
    let state = &context.state;
    let body = match &state.details.shown {
        Shown::Empty => html! {
            <p class="hint">{ "Select an instruction, a memory location, a function or a diagnostic: its canonical text and its JSON, linked and original, show here." }</p>
        },
        Shown::Entity { query, view } => match view {
            Fetch::Ready(view) => {
                let call =
                    state.sides[state.details.side].result.as_ref().and_then(|result| call_of(&result.report, view));
                html! { <EntityDetails view={view.clone()} {call} /> }
            }
            other => html! {
                <>
                    <h3 class="details-title"><span class="kind">{ query.kind.as_str() }</span><span class="name">{ query.name.clone() }</span></h3>
                    { pending(other, &format!("{} `{}`", query.kind, query.name)).unwrap_or_default() }
                </>
            },
        },
        Shown::Original { title, original, .. } => html! {
            <>
                <h3 class="details-title">
                    <span class="kind">{ "input" }</span>
                    <span class="name">{ if title.is_empty() { "no place in a file" } else { "where the diagnostic points" } }</span>
                </h3>
                { match original {
                    Fetch::Ready(original) => original_text(original),
                    other => pending(other, &format!("the place in {title}")).unwrap_or_default(),
                } }
            </>
        },
        Shown::Unit { unit, text } => html! {
            <>
                <h3 class="details-title"><span class="kind">{ "text" }</span><span class="name">{ unit.to_string() }</span></h3>
                { match text {
                    Fetch::Ready(text) => html! { <pre class="code unit" id="details-unit">{ (**text).clone() }</pre> },
                    other => pending(other, &format!("the text of `{unit}`")).unwrap_or_default(),
                } }
            </>
        },
    };
    // Embedded, the panel folds (it opens on a selection); in full, it is always open.
    let foldable = state.mode == Mode::Embed;
    let open = !foldable || state.details.open;
    html! {
        <aside class={classes!("details", (!open).then_some("folded"))} aria-label="Details" id="details">
            <div class="details-head">
                if foldable {
                    <button type="button" class="fold" aria-expanded={open.to_string()} aria-controls="details-body"
                            onclick={context.on(|| Action::Details(DetailsAction::Toggle))} id="details-toggle">
                        { if open { "▾ Details" } else { "▸ Details" } }
                    </button>
                } else {
                    <h2>
                        { "Details" }
                        if state.details.side == crate::state::Side::Against && state.details.shown != Shown::Empty {
                            <span class="side-badge" id="details-side" title="an entity of the link set compared against">{ "B" }</span>
                        }
                    </h2>
                }
                if state.details.shown != Shown::Empty && open {
                    <button type="button" class="link" onclick={context.on(|| Action::Details(DetailsAction::Clear))} aria-label="Close details">{ "clear (Esc)" }</button>
                }
            </div>
            if open {
                <div id="details-body">{ body }</div>
            }
        </aside>
    }
}

/// "Open in editor" for a place in an input file, when the page runs in an editor.
fn open_in_editor(original: &Original) -> Html {
    if !crate::services::editor::available() {
        return html! {};
    }
    let (file, line, column) = (original.file.clone(), original.line, original.column);
    let onclick = Callback::from(move |_: MouseEvent| crate::services::editor::open_file(&file, line, column));
    html! { <button type="button" class="link open-in-editor" {onclick}>{ "Open in editor" }</button> }
}

fn original_text(original: &Original) -> Html {
    html! {
        <>
            <p class="muted">{ format!("{}:{}:{}", original.file, original.line, original.column) }{ " " }{ open_in_editor(original) }</p>
            <p class="pointer"><code>{ original.pointer.clone() }</code></p>
            <pre class="code json" id="details-original">{ original.json.clone() }</pre>
        </>
    }
}

#[derive(Properties, PartialEq)]
struct EntityProps {
    view: std::rc::Rc<EntityView>,
    /// The dispatcher's call it is, with its partition, in the modular flow.
    #[prop_or_default]
    call: Option<std::rc::Rc<CallBindings>>,
}

/// A dispatcher call of the modular flow: what it binds (`report.dispatcher[]`) and the
/// partition it is (`report.partitions[]`).
#[derive(PartialEq)]
struct CallBindings {
    row: DispatchRow,
    partition: Option<PartitionRow>,
}

/// The call an instruction is, when it is one of a core's dispatcher calls with
/// arguments (the modular flow).
fn call_of(report: &Report, view: &EntityView) -> Option<std::rc::Rc<CallBindings>> {
    if view.entity.kind != EntityKind::Instruction {
        return None;
    }
    let row = report
        .dispatcher
        .iter()
        .find(|r| r.call == view.entity.name && Some(r.core) == view.core && !r.arguments.is_empty())?;
    let partition = report.partitions.iter().find(|p| Some(p.index) == row.partition).cloned();
    Some(std::rc::Rc::new(CallBindings { row: row.clone(), partition }))
}

/// What a call binds: each formal set of the callee and `main`'s set bound to it, each a
/// link to the set in its core's module.
fn call_bindings(call: &CallBindings) -> Html {
    let row = &call.row;
    let core = Some(row.core);
    // What the tensor is to the partition: short, the whole in its title.
    let role = |tensor: &str| -> (&'static str, &'static str) {
        let Some(p) = &call.partition else { return ("", "") };
        let has = |list: &[String]| list.iter().any(|t| tensor.trim_end_matches("_set") == t || tensor == t);
        if has(&p.inputs) {
            ("input", "a model input")
        } else if has(&p.outputs) {
            ("output", "a model output")
        } else if has(&p.reads) {
            ("reads", "an intermediate this partition reads")
        } else if has(&p.writes) {
            ("writes", "an intermediate this partition writes")
        } else {
            ("", "")
        }
    };
    html! {
        <details open=true id="call-bindings">
            <summary>
                { format!("Bindings of {} ({} arguments)", row.call, row.arguments.len()) }
                if let Some(p) = &call.partition {
                    <span class="muted">{ format!(" partition {} · definition {} · instance {}", p.index, p.definition, p.instance) }</span>
                }
            </summary>
            <table class="bindings">
                <thead><tr><th scope="col">{ format!("{}'s formal set", row.target) }</th><th scope="col">{ "main's set" }</th><th scope="col">{ "is" }</th></tr></thead>
                <tbody>
                    { for row.arguments.iter().map(|(formal, actual)| html! {
                        <tr>
                            <td><EntityLink kind={EntityKind::Set} name={formal.clone()} parent={Some(AttrValue::from(row.target.clone()))} {core} /></td>
                            <td><EntityLink kind={EntityKind::Set} name={actual.clone()} parent={Some(AttrValue::from("main"))} {core} /></td>
                            <td class="muted" title={role(actual).1}>{ role(actual).0 }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </details>
    }
}

/// One entity: its text, its linked JSON, its original JSON, and its whole unit.
#[function_component(EntityDetails)]
fn entity_details(props: &EntityProps) -> Html {
    let context = use_app();
    let view = &props.view;
    // Functions and queues are their own unit and already show their whole text.
    let whole = (!matches!(view.entity.kind, EntityKind::Function | EntityKind::Queue)).then(|| {
        let unit = ModuleUnit { module: view.module.clone(), unit: view.unit.clone() };
        let label = format!("whole text of `{}`", unit.unit);
        html! { <button type="button" class="link" onclick={context.on(move || Action::Details(DetailsAction::ShowUnit(unit.clone())))}>{ label }</button> }
    });
    // With dumps after every pass loaded: this name through them (the Passes view).
    let follow = context.state.has_passes().then(|| {
        let name = view.entity.name.clone();
        let onclick = context.on(move || Action::Passes(PassesAction::Follow(Some(name.clone()))));
        html! { <button type="button" class="link follow-passes" {onclick}>{ "through every pass" }</button> }
    });
    html! {
        <>
            <h3 class="details-title">
                <span class="kind">{ view.entity.kind.as_str() }</span>
                <span class="name">{ view.entity.name.clone() }</span>
            </h3>
            <p class="muted">
                if let Some(parent) = view.entity.parent.clone().filter(|p| !p.is_empty()) { { format!("in {parent}") } }
                if let Some(core) = view.core { { format!(" · core {core}") } }
                { " " }{ whole.unwrap_or_default() }
                if let Some(follow) = follow { { " · " }{ follow } }
            </p>
            <p class="key"><code title="the entity's key: links to it use this">{ view.key.to_string() }</code></p>
            if let Some(source) = &view.source {
                <p class="source" title="the kernel line behind it (debug.filename)">{ "source: " }<code>{ source.clone() }</code>
                    if crate::services::editor::available() {
                        { " " }
                        <button type="button" class="link open-in-editor" onclick={
                            let source = source.clone();
                            Callback::from(move |_: MouseEvent| crate::services::editor::open_source(&source))
                        }>{ "Open in editor" }</button>
                    }
                </p>
            }
            if let Some(call) = &props.call {
                { call_bindings(call) }
            }
            <details open=true>
                <summary>{ "Canonical text" }</summary>
                <pre class="code">{ view.text.clone() }</pre>
            </details>
            <details open=true>
                <summary>{ "Linked JSON" }</summary>
                <pre class="code json" id="details-linked">{ view.linked.clone() }</pre>
            </details>
            <details open=true>
                <summary>
                    { "Original JSON" }
                    if let Some(original) = &view.original {
                        <span class="muted">{ format!(" {}:{}:{}", original.file, original.line, original.column) }</span>
                        { " " }{ open_in_editor(original) }
                    }
                </summary>
                { match &view.original {
                    Some(original) => html! {
                        <>
                            <p class="pointer"><code>{ original.pointer.clone() }</code></p>
                            <pre class="code json" id="details-original">{ original.json.clone() }</pre>
                        </>
                    },
                    None => html! { <p class="muted">{ "made by the linker: it has no input" }</p> },
                } }
            </details>
        </>
    }
}
