//! The inspector's components: small, `PartialEq` props, reading the app context.

mod addresses;
mod barriers;
mod call_graph;
mod details;
mod diagnostics;
mod header;
mod help;
mod load_panel;
mod pass_list;
mod pipeline;
mod semaphores;
pub mod table;
mod views;

pub use details::Details;
pub use header::{Header, RunStatus};
pub use help::HelpOverlay;
pub use load_panel::LoadPanel;
pub use pass_list::PassList;
pub use views::MainViews;

use yew::prelude::*;

use birlink_core::query::EntityQuery;

use crate::app::AppContext;
use crate::state::{Action, Selection};

/// The app context (every component is under the provider).
#[hook]
#[allow(clippy::expect_used, reason = "`App` wraps every component in the provider")]
pub fn use_app() -> AppContext {
    use_context::<AppContext>().expect("components live under the app's context")
}

/// Whether `query` is the current selection.
pub fn is_selected(context: &AppContext, kind: &str, name: &str, parent: Option<&str>) -> bool {
    match &context.state.selection {
        Some(Selection::Entity(q)) => {
            q.kind == kind && q.name == name && (parent.is_none() || q.parent.as_deref() == parent)
        }
        _ => false,
    }
}

/// Props of [`EntityLink`].
#[derive(Properties, PartialEq)]
pub struct EntityLinkProps {
    /// Entity kind (`instruction`, `memloc`, …).
    pub kind: AttrValue,
    /// Its name.
    pub name: AttrValue,
    /// Its function, queue or instance.
    #[prop_or_default]
    pub parent: Option<AttrValue>,
}

/// A name that selects its entity (and so shows its details) when clicked.
#[function_component(EntityLink)]
pub fn entity_link(props: &EntityLinkProps) -> Html {
    let context = use_app();
    let selected = is_selected(&context, &props.kind, &props.name, props.parent.as_deref());
    let onclick = {
        let context = context.clone();
        let query = EntityQuery {
            kind: props.kind.to_string(),
            name: props.name.to_string(),
            parent: props.parent.as_ref().map(|p| p.to_string()),
        };
        Callback::from(move |_| context.dispatch(Action::Select(Selection::Entity(query.clone()))))
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
    birlink_core::input::human_bytes(n)
}

/// A JSON value as short text.
pub fn value_text(value: &serde_json::Value) -> String {
    birlink_core::json::read::compact(value)
}
