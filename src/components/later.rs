//! A section drawn one task after the view that holds it, so a view with many sections
//! paints its first ones at once and each later one in a task of its own: switching to
//! a view of a large link never holds the page for the whole of it.

use gloo::timers::callback::Timeout;
use yew::prelude::*;

/// Props of [`Later`].
#[derive(Properties, PartialEq)]
pub struct LaterProps {
    /// What to draw.
    pub children: Html,
    /// What it is, for the line shown until then.
    pub what: AttrValue,
}

/// Draws its children in the task after its first draw (a one-line stand-in until then).
#[function_component(Later)]
pub fn later(props: &LaterProps) -> Html {
    let ready = use_state(|| false);
    {
        let ready = ready.clone();
        use_effect_with((), move |_| {
            // Each `Later` of a view has its own timer, so each draws in its own task.
            let timeout = Timeout::new(0, move || ready.set(true));
            move || drop(timeout)
        });
    }
    if *ready {
        props.children.clone()
    } else {
        html! { <p class="muted later" aria-busy="true">{ format!("drawing {}…", props.what) }</p> }
    }
}
