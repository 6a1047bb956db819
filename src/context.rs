//! What every component can reach: the state and its dispatcher. Components dispatch
//! actions; they never talk to the worker (the reducer decides what to ask it, and
//! `hooks::use_worker` sends it).

use yew::prelude::*;

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
        match &self.state.selection {
            Some(Selection::Entity(q)) => {
                q.kind == kind && q.name == name && (parent.is_none() || q.parent.as_deref() == parent)
            }
            _ => false,
        }
    }
}

/// The app context.
#[hook]
#[allow(clippy::expect_used, reason = "`App` wraps every component in the provider")]
pub fn use_app() -> AppContext {
    use_context::<AppContext>().expect("components live under the app's context")
}
