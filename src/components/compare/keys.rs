//! A key or a name in the Compare view that selects its entity, A's or B's, in the
//! details panel (B's marked as B's).

use yew::prelude::*;

use birlink_core::tools::compare::DiagnosticEntity;
use birlink_core::EntityKey;

use crate::context::use_app;
use crate::side::Side;
use crate::state::{Action, DetailsAction};

/// Props of [`KeyLink`].
#[derive(Properties, PartialEq)]
pub(super) struct KeyLinkProps {
    /// The entity key, as text.
    pub key_text: AttrValue,
    /// Whose.
    pub side: Side,
}

/// An entity key that selects its entity (A's, or B's) in the details panel.
#[function_component(KeyLink)]
pub(super) fn key_link(props: &KeyLinkProps) -> Html {
    let context = use_app();
    let Ok(key) = props.key_text.parse::<EntityKey>() else {
        return html! { <code class="key">{ props.key_text.clone() }</code> };
    };
    let side = props.side;
    let onclick = context.on(move || Action::Details(DetailsAction::PickKey(side, key.clone())));
    let class = side_class(side);
    let title = format!("show {}'s {}", side.letter(), props.key_text);
    html! {
        <button type="button" class={classes!("entity", "key", class)} {onclick} {title}>{ props.key_text.clone() }</button>
    }
}

/// Props of [`NamedLink`].
#[derive(Properties, PartialEq)]
pub(super) struct NamedLinkProps {
    /// The entity as its side names it.
    pub entity: DiagnosticEntity,
    /// What to show (the key the comparison matched it by).
    pub text: AttrValue,
    /// Whose.
    pub side: Side,
}

/// An entity a diagnostic is about, selected by what names it (A's, or B's).
#[function_component(NamedLink)]
pub(super) fn named_link(props: &NamedLinkProps) -> Html {
    let context = use_app();
    let query = crate::state::query(props.entity.kind, &props.entity.name, props.entity.parent.as_deref());
    let side = props.side;
    let onclick = context.on(move || Action::Details(DetailsAction::PickOn(side, query.clone())));
    html! {
        <button type="button" class={classes!("entity", "key", side_class(side))} {onclick}
                title={format!("show {}'s {} {}", side.letter(), props.entity.kind, props.entity.name)}>
            { props.text.clone() }
        </button>
    }
}

/// The class that marks a side's keys.
fn side_class(side: Side) -> &'static str {
    match side {
        Side::Shown => "side-a",
        Side::Against => "side-b",
    }
}
