//! What every component can reach: the state and its dispatcher. Components dispatch
//! actions; they never talk to the worker (the reducer decides what to ask it, and
//! `hooks::use_worker` sends it).
//!
//! Two contexts: [`AppContext`], the whole state (a component that reads it renders
//! after every action), and [`SelectionContext`], only the selected entity and the
//! dispatcher, for what is drawn many times over (every name in a table is an
//! [`EntityLink`](crate::components::EntityLink)): those render when the selection
//! changes, not at every keystroke or progress message.

use yew::prelude::*;

use birlink_core::tools::query::EntityQuery;
use birlink_core::EntityKind;

use crate::state::{Action, Selection, State};

/// The app context (provided by `App` around every component).
#[derive(Clone, PartialEq)]
pub struct AppContext {
    /// The state and its dispatcher.
    pub state: UseReducerHandle<State>,
}

impl AppContext {
    /// Dispatches an action.
    pub fn dispatch(&self, action: Action) {
        self.state.dispatch(action);
    }

    /// A callback that dispatches `action()` whatever the event.
    pub fn on<E>(&self, action: impl Fn() -> Action + 'static) -> Callback<E> {
        let state = self.state.clone();
        Callback::from(move |_| state.dispatch(action()))
    }

    /// Whether an entity is the current selection (`parent` `None`: any parent).
    pub fn is_selected(&self, kind: EntityKind, name: &str, parent: Option<&str>) -> bool {
        match &self.state.details.selection {
            Some(Selection::Entity(q)) => {
                q.kind == kind && q.name == name && (parent.is_none() || q.parent.as_deref() == parent)
            }
            _ => false,
        }
    }
}

/// The selected entity, and a way to dispatch; compared by the selection alone.
#[derive(Clone)]
pub struct SelectionContext {
    /// The entity selected, if one is.
    pub selected: Option<EntityQuery>,
    /// Dispatches actions.
    pub dispatcher: UseReducerDispatcher<State>,
}

impl PartialEq for SelectionContext {
    fn eq(&self, other: &Self) -> bool {
        self.selected == other.selected
    }
}

impl SelectionContext {
    /// The context of a state.
    pub fn of(state: &UseReducerHandle<State>) -> Self {
        let selected = match &state.details.selection {
            Some(Selection::Entity(query)) => Some(query.clone()),
            _ => None,
        };
        SelectionContext { selected, dispatcher: state.dispatcher() }
    }

    /// Whether an entity is the current selection (`parent` `None`: any parent).
    pub fn is_selected(&self, kind: EntityKind, name: &str, parent: Option<&str>) -> bool {
        self.selected
            .as_ref()
            .is_some_and(|q| q.kind == kind && q.name == name && (parent.is_none() || q.parent.as_deref() == parent))
    }
}

/// The selection context.
#[hook]
#[allow(clippy::expect_used, reason = "`App` wraps every component in the provider")]
pub fn use_selection() -> SelectionContext {
    use_context::<SelectionContext>().expect("components live under the app's context")
}

/// The app context.
#[hook]
#[allow(clippy::expect_used, reason = "`App` wraps every component in the provider")]
pub fn use_app() -> AppContext {
    use_context::<AppContext>().expect("components live under the app's context")
}
