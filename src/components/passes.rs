//! The Passes view (docs/spec/history.md §6): where did the cores part? The shown work
//! directory's dumps after every pass, read in the worker pass by pass with progress and
//! Cancel: the passes down the side in the order they ran, the modules across, each cell
//! what that pass did to that module (first, unchanged, or changed with counts by kind);
//! each subgraph's first parting marked and said; one name followed as a strip per core;
//! a cell opens that pass's diff of that module, side by side, changed units only unless
//! asked. Names are text, never markup.

use std::collections::BTreeSet;

use yew::prelude::*;

use birlink_core::model::entity::EntityKind;
use birlink_core::tools::history::diff::{PassDiff, Row, UnitDiff, UnitState};
use birlink_core::tools::history::{EntityHistory, History, ModuleChange, ModuleState, Parting};

use super::pipeline::word_diff;
use crate::context::use_app;
use crate::state::{Action, DiffFetch, PassesAction, PassesStatus};

/// The Passes view.
#[function_component(PassesView)]
pub fn passes_view() -> Html {
    let context = use_app();
    let state = &context.state;
    let dumps: Vec<u64> = state.dumps().iter().map(|f| f.id).collect();
    {
        // The view shows the dumps: read them (the reducer decides whether to).
        let context = context.clone();
        use_effect_with(dumps.clone(), move |_| context.dispatch(Action::Passes(PassesAction::Open)));
    }
    let passes = &state.passes;
    let dispatch = |action: PassesAction| {
        let context = context.clone();
        let action = std::cell::Cell::new(Some(action));
        Callback::from(move |_: MouseEvent| {
            if let Some(action) = action.take() {
                context.dispatch(Action::Passes(action));
            }
        })
    };
    let status = match &passes.status {
        PassesStatus::Idle => html! {},
        PassesStatus::Reading { done, total, pass } => html! {
            <div class="passes-status" id="passes-progress" role="status">
                <progress max={total.max(&1).to_string()} value={done.to_string()}></progress>
                <span>{ if *total == 0 {
                    format!("Reading {} dumps…", dumps.len())
                } else {
                    format!("Reading the dumps after `{pass}` ({done} of {total} passes read)")
                } }</span>
                <button type="button" id="passes-cancel" onclick={dispatch(PassesAction::Cancel)}>{ "Cancel" }</button>
            </div>
        },
        PassesStatus::Cancelled => html! {
            <div class="passes-status" role="status">
                <span>{ "Stopped: the dumps were not all read." }</span>
                <button type="button" id="passes-again" onclick={dispatch(PassesAction::Again)}>{ "Read again" }</button>
            </div>
        },
        PassesStatus::Failed(why) => html! {
            <div class="passes-status failed" role="alert">
                <span>{ why.clone() }</span>
                <button type="button" id="passes-again" onclick={dispatch(PassesAction::Again)}>{ "Read again" }</button>
            </div>
        },
        PassesStatus::Read(_) => html! {},
    };
    let ordered_by = if state.log.reading.is_some() {
        "in the order the log says they ran"
    } else {
        "in the order of their dumps' numbers (load the compile's log for the order they ran)"
    };
    let save = state.history().cloned().map(|history| {
        Callback::from(move |_: MouseEvent| {
            // `birlink history --format json`'s bytes.
            if let Ok(json) = serde_json::to_string_pretty(&*history) {
                crate::services::download::text(&format!("{json}\n"), "history.json", "application/json");
            }
        })
    });
    html! {
        <div class="passes-view">
            <div class="view-head">
                <h2>{ "Passes" }</h2>
                <span class="muted">{ format!("{} dumps after passes, {ordered_by}", dumps.len()) }</span>
                if let Some(onclick) = save {
                    <button type="button" id="passes-json" {onclick} title="birlink history --format json">{ "history.json" }</button>
                }
            </div>
            { status }
            <Follow given={passes.entity.clone()} />
            if let Some(history) = state.history() {
                <Read history={history.clone()} />
            }
        </div>
    }
}

/// Props of [`Follow`].
#[derive(Properties, PartialEq)]
struct FollowProps {
    /// The name followed, as given.
    given: Option<String>,
}

/// The name to follow: typed, or a compiler error pasted (its quoted name is taken).
#[function_component(Follow)]
fn follow(props: &FollowProps) -> Html {
    let context = use_app();
    let input = use_node_ref();
    let onsubmit = {
        let (context, input) = (context.clone(), input.clone());
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            let value = input.cast::<web_sys::HtmlInputElement>().map(|i| i.value()).unwrap_or_default();
            context.dispatch(Action::Passes(PassesAction::Follow(Some(value))));
        })
    };
    let stop = {
        let context = context.clone();
        Callback::from(move |_: MouseEvent| context.dispatch(Action::Passes(PassesAction::Follow(None))))
    };
    html! {
        <form class="passes-follow" {onsubmit}>
            <label for="passes-entity">{ "Follow a name through every pass" }</label>
            <input id="passes-entity" ref={input} type="text" spellcheck="false" autocomplete="off"
                   value={props.given.clone().unwrap_or_default()}
                   placeholder="a memory location, instruction, barrier… or paste a compiler error ([NCC_ILLC059] …)" />
            <button type="submit" id="passes-follow">{ "Follow" }</button>
            if props.given.is_some() {
                <button type="button" onclick={stop}>{ "Stop following" }</button>
            }
        </form>
    }
}

/// Props of the read history's parts.
#[derive(Properties, PartialEq)]
struct ReadProps {
    history: std::rc::Rc<History>,
}

/// The modules of a history, in order (`nc00/sg00`, `nc00/sgLnk`, `nc01/sg00`, …).
fn modules(history: &History) -> Vec<String> {
    let set: BTreeSet<&str> = history.passes.iter().flat_map(|p| p.changed.iter().map(|c| c.module.as_str())).collect();
    set.into_iter().map(str::to_owned).collect()
}

/// What a read history shows: the partings, the entity, the table, the diff.
#[function_component(Read)]
fn read(props: &ReadProps) -> Html {
    let history = &props.history;
    html! {
        <>
            <Partings history={props.history.clone()} />
            if let Some(entity) = &history.entity {
                <EntityStrip entity={entity.clone()} passes={history.passes.iter().map(|p| p.name.clone()).collect::<Vec<_>>()} />
            }
            if !history.unread.is_empty() {
                <details class="passes-unread" open=true>
                    <summary>{ format!("{} dumps could not be read; the others are compared", history.unread.len()) }</summary>
                    <ul>{ for history.unread.iter().map(|u| html! { <li><code>{ u.file.clone() }</code>{ ": " }{ u.why.clone() }</li> }) }</ul>
                </details>
            }
            <Table history={props.history.clone()} />
            <DiffPanel />
        </>
    }
}

/// What a parting says: the entities on some cores only, the facts that differ.
fn parting_text(parting: &Parting) -> Vec<String> {
    let mut said: Vec<String> =
        parting.only_on.iter().map(|o| format!("{} `{}` only on core {}", o.kind.as_str(), o.name, o.core)).collect();
    said.extend(parting.counts.iter().map(|c| {
        let values: Vec<String> = c
            .values
            .iter()
            .map(|(core, v)| {
                let v: Vec<String> = v.iter().map(|n| n.map_or_else(|| "?".to_owned(), |n| n.to_string())).collect();
                format!("core {core}: {}", v.join(", "))
            })
            .collect();
        format!("{} — {}", c.what, values.join("; "))
    }));
    said
}

/// Each subgraph's first parting, said and linked to its row; the rest, and what the
/// cores differed in from their first dump, below it.
#[function_component(Partings)]
fn partings(props: &ReadProps) -> Html {
    let context = use_app();
    let history = &props.history;
    let subgraphs: BTreeSet<u32> = history.parted.iter().map(|p| p.subgraph).collect();
    let index_of = |pass: &str| history.passes.iter().position(|p| p.name == pass);
    let differs = history.baseline.iter().any(|b| !b.only_on.is_empty() || !b.counts.is_empty());
    let jump = |parting: &Parting| {
        let context = context.clone();
        let module = history
            .passes
            .iter()
            .find(|p| p.name == parting.pass)
            .and_then(|p| {
                p.changed
                    .iter()
                    .filter(|c| c.state == ModuleState::Changed)
                    .find(|c| c.module.ends_with(&format!("/sg{:02}", parting.subgraph)))
            })
            .map(|c| c.module.clone());
        let at = index_of(&parting.pass);
        Callback::from(move |_: MouseEvent| {
            if let (Some(at), Some(module)) = (at, module.clone()) {
                context.dispatch(Action::Passes(PassesAction::Cell(at, module)));
            }
        })
    };
    html! {
        <section class="passes-parted" id="passes-parted" aria-label="Where the cores part">
            if history.parted.is_empty() && !differs {
                <p class="verdict ok">{ format!("The cores do not part: no pass after the first dump ({}) made a subgraph's cores differ in a new way.", history.passes.first().map_or("", |p| p.name.as_str())) }</p>
            }
            if history.parted.is_empty() && differs {
                <p class="verdict">{ "No pass dumped here parted the cores anew: they already differ in their first dump (below). To see which pass parted them, print earlier passes: " }<code>{ "--internal-compiler-debug-mode=all --internal-backend-options=--print-after-all" }</code></p>
            }
            { for subgraphs.iter().filter_map(|s| history.parted.iter().find(|p| p.subgraph == *s)).map(|first| html! {
                <div class="parting first" data-subgraph={first.subgraph.to_string()}>
                    <p>
                        <strong>{ format!("sg{:02}: the cores first part after ", first.subgraph) }</strong>
                        <button type="button" class="link pass-link" onclick={jump(first)}><code>{ first.pass.clone() }</code></button>
                    </p>
                    <ul>{ for parting_text(first).into_iter().map(|t| html! { <li>{ t }</li> }) }</ul>
                </div>
            }) }
            if history.parted.len() > subgraphs.len() {
                <details class="parting later">
                    <summary>{ format!("{} later partings", history.parted.len() - subgraphs.len()) }</summary>
                    { for history.parted.iter().filter(|p| !subgraphs.iter().any(|s| history.parted.iter().find(|q| q.subgraph == *s).is_some_and(|q| std::ptr::eq(q, *p)))).map(|p| html! {
                        <div>
                            <p>{ format!("sg{:02} after ", p.subgraph) }<button type="button" class="link pass-link" onclick={jump(p)}><code>{ p.pass.clone() }</code></button></p>
                            <ul>{ for parting_text(p).into_iter().map(|t| html! { <li>{ t }</li> }) }</ul>
                        </div>
                    }) }
                </details>
            }
            if differs {
                <details class="parting baseline" id="passes-baseline" open={history.parted.is_empty()}>
                    <summary>{ "How the cores already differed in their first dump (the baseline)" }</summary>
                    { for history.baseline.iter().map(|b| html! {
                        <div>
                            <p>{ format!("sg{:02} after `{}`", b.subgraph, b.pass) }</p>
                            <ul>{ for parting_text(b).into_iter().map(|t| html! { <li>{ t }</li> }) }</ul>
                        </div>
                    }) }
                </details>
            }
        </section>
    }
}

/// Props of [`EntityStrip`].
#[derive(Properties, PartialEq)]
struct EntityProps {
    entity: EntityHistory,
    /// The passes, in order.
    passes: Vec<String>,
}

/// One letter per entity state, and its words.
fn state_mark(state: &str) -> (&'static str, &'static str) {
    match state {
        "first" => ("●", "there in its first dump"),
        "added" => ("+", "added by this pass"),
        "changed" => ("~", "changed by this pass"),
        "unchanged" => ("=", "unchanged"),
        "removed" => ("✕", "removed by this pass"),
        _ => ("·", "absent"),
    }
}

/// The followed name as a strip per core (and subgraph): its state after each pass, its
/// text where it changed, where each core last had it.
#[function_component(EntityStrip)]
fn entity_strip(props: &EntityProps) -> Html {
    let entity = &props.entity;
    let mut lanes: BTreeSet<(u64, Option<u32>)> = BTreeSet::new();
    for row in &entity.history {
        lanes.insert((row.core, row.subgraph));
    }
    let lane_name = |(core, subgraph): &(u64, Option<u32>)| match subgraph {
        Some(s) => format!("core {core} · sg{s:02}"),
        None => format!("core {core} · sgLnk"),
    };
    html! {
        <section class="passes-entity" id="passes-entity-history" aria-label="The name through every pass">
            <h3>{ "`" }{ entity.name.clone() }{ "` through every pass" }</h3>
            if entity.history.iter().all(|r| r.state == "absent") {
                <p class="muted">{ "No dump has an entity of that name." }</p>
            }
            <ul class="last-seen">
                { for entity.last_seen.iter().map(|(core, pass)| html! {
                    <li data-core={core.to_string()}>{ match pass {
                        Some(pass) => format!("core {core}: last seen after `{pass}`"),
                        None => format!("core {core}: never seen"),
                    } }</li>
                }) }
            </ul>
            <table class="entity-strip">
                <tbody>
                    { for lanes.iter().map(|lane| html! {
                        <tr data-lane={lane_name(lane)}>
                            <th scope="row">{ lane_name(lane) }</th>
                            { for props.passes.iter().map(|pass| {
                                let row = entity.history.iter().find(|r| &r.pass == pass && (r.core, r.subgraph) == *lane);
                                match row {
                                    Some(row) => {
                                        let (mark, words) = state_mark(&row.state);
                                        let title = if row.text.is_empty() {
                                            format!("after {pass}: {words}")
                                        } else {
                                            format!("after {pass}: {words}\n{}", row.text.join("\n"))
                                        };
                                        html! { <td class={classes!("es", row.state.clone())} data-pass={pass.clone()} title={title}>{ mark }</td> }
                                    }
                                    None => html! { <td class="es none" data-pass={pass.clone()} title={format!("after {pass}: not dumped")}></td> },
                                }
                            }) }
                        </tr>
                    }) }
                </tbody>
            </table>
            <details class="entity-texts">
                <summary>{ "Its text where it first is, is added or changes" }</summary>
                <ul>
                    { for entity.history.iter().filter(|r| !r.text.is_empty()).map(|r| html! {
                        <li>
                            <span class="muted">{ format!("after {} on {}: {}", r.pass, lane_name(&(r.core, r.subgraph)), r.state) }</span>
                            <pre>{ r.text.join("\n") }</pre>
                        </li>
                    }) }
                </ul>
            </details>
        </section>
    }
}

/// A cell's counts: `+2 memloc −1 inst ~3 inst ↻1 inst`.
fn counts(change: &ModuleChange) -> String {
    let part = |sign: &str, counts: &std::collections::BTreeMap<EntityKind, usize>| -> Vec<String> {
        counts.iter().map(|(kind, n)| format!("{sign}{n} {}", kind.as_str())).collect()
    };
    let mut said = part("+", &change.added);
    said.extend(part("−", &change.removed));
    said.extend(part("~", &change.changed));
    said.extend(part("↻", &change.renamed));
    said.join(" ")
}

/// The passes down the side, the modules across.
#[function_component(Table)]
fn table(props: &ReadProps) -> Html {
    let context = use_app();
    let state = &context.state;
    let history = &props.history;
    let modules = modules(history);
    let chosen = state.passes.cell.clone();
    let first_parting: BTreeSet<&str> = {
        let subgraphs: BTreeSet<u32> = history.parted.iter().map(|p| p.subgraph).collect();
        subgraphs
            .iter()
            .filter_map(|s| history.parted.iter().find(|p| p.subgraph == *s))
            .map(|p| p.pass.as_str())
            .collect()
    };
    let parted: BTreeSet<&str> = history.parted.iter().map(|p| p.pass.as_str()).collect();
    html! {
        <div class="table-wrap">
            <table class="passes-table" id="passes-table">
                <thead>
                    <tr><th scope="col">{ "pass" }</th>{ for modules.iter().map(|m| html! { <th scope="col">{ m.clone() }</th> }) }</tr>
                </thead>
                <tbody>
                    { for history.passes.iter().map(|pass| {
                        let first = first_parting.contains(pass.name.as_str());
                        let parts = parted.contains(pass.name.as_str());
                        html! {
                            <tr data-pass={pass.name.clone()} class={classes!(first.then_some("first-parting"), parts.then_some("parting"))}>
                                <th scope="row">
                                    <code>{ pass.name.clone() }</code>
                                    if first { <span class="badge parting-badge" title="the cores of a subgraph first part after this pass">{ "cores part" }</span> }
                                    else if parts { <span class="badge parting-badge later" title="the cores part further after this pass">{ "parts further" }</span> }
                                </th>
                                { for modules.iter().map(|module| {
                                    let Some(change) = pass.changed.iter().find(|c| &c.module == module) else {
                                        return html! { <td class="cell none" title="not dumped after this pass"></td> };
                                    };
                                    let (class, text) = match change.state {
                                        ModuleState::First => ("first", "first".to_owned()),
                                        ModuleState::Unchanged => ("unchanged", "=".to_owned()),
                                        ModuleState::Changed => ("changed", counts(change)),
                                    };
                                    let selected = chosen.as_ref().is_some_and(|(p, m)| *p == pass.index && m == module);
                                    let onclick = {
                                        let context = context.clone();
                                        let (at, module) = (pass.index, module.clone());
                                        Callback::from(move |_: MouseEvent| context.dispatch(Action::Passes(PassesAction::Cell(at, module.clone()))))
                                    };
                                    html! {
                                        <td class={classes!("cell", class, selected.then_some("selected"))} data-module={module.clone()}>
                                            <button type="button" class="cell-button" {onclick} aria-pressed={selected.to_string()}
                                                    title={format!("{} after {}: {}", module, pass.name, change.file)}>{ text }</button>
                                        </td>
                                    }
                                }) }
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}

/// The chosen cell's diff.
#[function_component(DiffPanel)]
fn diff_panel() -> Html {
    let context = use_app();
    let state = &context.state;
    let passes = &state.passes;
    let Some((at, module)) = passes.cell.clone() else {
        return html! { <p class="muted">{ "Choose a cell to see what that pass did to that module (j and k: the next and previous pass)." }</p> };
    };
    let Some(history) = state.history() else { return html! {} };
    let pass = history.passes.get(at).map_or("", |p| p.name.as_str());
    let before = history.passes[..at.min(history.passes.len())]
        .iter()
        .rev()
        .find(|p| p.changed.iter().any(|c| c.module == module))
        .map(|p| p.name.clone());
    let toggle = {
        let context = context.clone();
        let show = !passes.show_unchanged;
        Callback::from(move |_: Event| context.dispatch(Action::Passes(PassesAction::ShowUnchanged(show))))
    };
    let head = match &before {
        Some(before) => format!("`{pass}` on {module}: its dump against the one after `{before}`"),
        None => format!("`{pass}` on {module}: its first dump"),
    };
    let body = match &passes.diff {
        DiffFetch::None => html! {},
        DiffFetch::Waiting => html! { <p class="muted" role="status">{ "Comparing the two dumps…" }</p> },
        DiffFetch::Failed(why) => html! { <p class="error" role="alert">{ why.clone() }</p> },
        DiffFetch::Ready(diff) => units(diff, passes.show_unchanged),
    };
    html! {
        <section class="pass-diff" id="pass-diff" aria-label="What the pass did to the module">
            <div class="view-head">
                <h3>{ head }</h3>
                <label class="toggle"><input type="checkbox" id="show-unchanged-units" checked={passes.show_unchanged} onchange={toggle} />{ " show unchanged units" }</label>
            </div>
            { body }
        </section>
    }
}

/// A diff's units: the changed ones, and the unchanged too when asked.
fn units(diff: &PassDiff, show_unchanged: bool) -> Html {
    let unchanged = diff.units.iter().filter(|u| u.state == UnitState::Unchanged).count();
    let shown: Vec<&UnitDiff> =
        diff.units.iter().filter(|u| show_unchanged || u.state != UnitState::Unchanged).collect();
    html! {
        <>
            if shown.is_empty() {
                <p class="muted">{ format!("No line changed ({unchanged} units, all unchanged).") }</p>
            } else if !show_unchanged && unchanged > 0 {
                <p class="muted">{ format!("{unchanged} unchanged units not shown.") }</p>
            }
            { for shown.into_iter().map(unit) }
        </>
    }
}

/// One unit, side by side.
fn unit(unit: &UnitDiff) -> Html {
    let state = match unit.state {
        UnitState::Unchanged => "unchanged",
        UnitState::Changed => "changed",
        UnitState::Added => "added by the pass",
        UnitState::Removed => "removed by the pass",
    };
    let class = match unit.state {
        UnitState::Unchanged => "unchanged",
        UnitState::Changed => "changed",
        UnitState::Added => "added",
        UnitState::Removed => "removed",
    };
    let line = |n: Option<usize>| n.map_or_else(String::new, |n| n.to_string());
    html! {
        <details class={classes!("unit-diff", class)} open={unit.state != UnitState::Unchanged}>
            <summary><code>{ unit.title.clone() }</code>{ format!(" — {state}, {} → {} lines", unit.lines.0, unit.lines.1) }</summary>
            if !unit.aligned {
                <p class="muted">{ "birlink's reading: too many lines differ to align them in bounded time; paired by position." }</p>
            }
            <table class="side-by-side">
                <tbody>
                    { for unit.rows.iter().map(|row| match row {
                        Row::Same { at, text } => html! {
                            <tr class="same"><td class="ln">{ at.0 }</td><td><code>{ text.clone() }</code></td><td class="ln">{ at.1 }</td><td><code>{ text.clone() }</code></td></tr>
                        },
                        Row::Gap(n) => html! { <tr class="gap"><td colspan="4">{ format!("… {n} unchanged lines") }</td></tr> },
                        Row::Changed { a, b } => {
                            let (left, right) = match (a, b) {
                                (Some((_, a)), Some((_, b))) => word_diff(a, b),
                                (Some((_, a)), None) => (html! { <code><del>{ a.clone() }</del></code> }, html! {}),
                                (None, Some((_, b))) => (html! {}, html! { <code><ins>{ b.clone() }</ins></code> }),
                                (None, None) => (html! {}, html! {}),
                            };
                            html! {
                                <tr class="changed">
                                    <td class="ln">{ line(a.as_ref().map(|a| a.0)) }</td><td class={classes!("a", a.is_some().then_some("has"))}>{ left }</td>
                                    <td class="ln">{ line(b.as_ref().map(|b| b.0)) }</td><td class={classes!("b", b.is_some().then_some("has"))}>{ right }</td>
                                </tr>
                            }
                        }
                    }) }
                </tbody>
            </table>
            if unit.more > 0 {
                <p class="muted">{ format!("… {} more rows (`birlink print` prints the whole module)", unit.more) }</p>
            }
        </details>
    }
}
