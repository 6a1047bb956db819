//! The inspector's components: small, `PartialEq` props, reading the app context
//! (`crate::context`) and dispatching actions. Every hook of a component is called
//! before any early return (yew checks the count in debug builds); where a component
//! has nothing to draw in some states, a guard component decides and a body component
//! holds the hooks.

mod addresses;
mod aligned;
mod barriers;
pub mod call_graph;
mod codegen_stats;
mod compare;
mod details;
mod diagnostics;
mod embed_bar;
mod grid;
mod header;
mod help;
mod later;
mod link_dir;
mod link_set_picker;
mod load_panel;
mod log;
mod modal;
mod pass_list;
mod passes;
mod pipeline;
mod reduce;
mod semaphores;
mod share;
mod sync;
pub mod table;
mod timeline;
mod views;
mod workdir;

pub use call_graph::layout;
pub use details::Details;
pub use embed_bar::EmbedBar;
pub use header::{Header, RunStatus};
pub use help::HelpOverlay;
pub use load_panel::LoadPanel;
pub use log::{LogFindings, PasteLogDialog};
pub use pass_list::PassList;
pub use reduce::ReproBar;
pub use share::ShareOverlay;
pub use views::MainViews;

use yew::prelude::*;

use birlink_core::tools::query::EntityQuery;
use birlink_core::EntityKind;

use crate::context::use_selection;
use crate::state::{query, Action, DetailsAction, Selection};

/// Props of [`EntityLink`].
#[derive(Properties, PartialEq)]
pub struct EntityLinkProps {
    /// What it is.
    pub kind: EntityKind,
    /// Its name.
    pub name: AttrValue,
    /// Its function, queue or instance.
    #[prop_or_default]
    pub parent: Option<AttrValue>,
    /// Its core, when the set has a module per core (the compiler's flows: the same
    /// function names are on every core).
    #[prop_or_default]
    pub core: Option<u64>,
}

/// A name that selects its entity (and so shows its details) when clicked. It reads the
/// selection alone (`SelectionContext`): a table of them renders again when the
/// selection changes, not at every action.
#[function_component(EntityLink)]
pub fn entity_link(props: &EntityLinkProps) -> Html {
    let context = use_selection();
    let selected = context.is_selected(props.kind, &props.name, props.parent.as_deref())
        && props.core.is_none_or(|core| context.selected.as_ref().is_some_and(|q| q.core.is_none_or(|c| c == core)));
    let onclick = {
        let query = EntityQuery { core: props.core, ..query(props.kind, &props.name, props.parent.as_deref()) };
        let dispatcher = context.dispatcher.clone();
        Callback::from(move |_: MouseEvent| {
            dispatcher.dispatch(Action::Details(DetailsAction::Select(Selection::Entity(query.clone()))))
        })
    };
    let title = match &props.parent {
        Some(parent) => format!("{} {} in {parent}", props.kind, props.name),
        None => format!("{} {}", props.kind, props.name),
    };
    html! {
        <button type="button" class={classes!("entity", selected.then_some("selected"))} {onclick} {title}>
            { props.name.clone() }
        </button>
    }
}

/// `1.5 MB`.
pub fn bytes(n: u64) -> String {
    birlink_core::english::human_bytes(n)
}

/// A JSON value as short text.
pub fn value_text(value: &serde_json::Value) -> String {
    birlink_core::diag::describe::compact(value)
}
