//! Downloads the page makes itself: the call graph as SVG, built from the run's report,
//! its layout and display list (`components::call_graph::{scene, svg}`) when the reducer asks for it, whatever
//! the page has drawn.

use yew::prelude::*;

use crate::components::call_graph::{layout, scene, svg};
use crate::services::download;
use crate::state::State;

/// Whether the page is dark now (the theme asked for, or the system's).
fn dark() -> bool {
    let window = gloo::utils::window();
    let asked = gloo::utils::document().document_element().and_then(|root| root.get_attribute("data-theme"));
    match asked.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => window.match_media("(prefers-color-scheme: dark)").ok().flatten().is_some_and(|m| m.matches()),
    }
}

/// Makes each SVG export the reducer posts.
#[hook]
pub fn use_exports(state: &UseReducerHandle<State>) {
    let result = state.result().cloned();
    let aliases = state.show_aliases;
    let asked = state.export.svg.clone();
    use_effect_with(asked.seq, move |_| {
        if let (Some(run), Some(result)) = (asked.message, result) {
            if result.run == run {
                let graph = layout::layout(&result.report);
                let text = svg::document(&scene::scene(&result.report, &graph), aliases, dark());
                download::text(&text, "call-graph.svg", "image/svg+xml");
            }
        }
    });
}
