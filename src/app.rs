//! The app: the state, its effects (`hooks`), and the page's layout. Nothing else.

use yew::prelude::*;

use crate::components::{Details, Header, HelpOverlay, LoadPanel, MainViews, PassList};
use crate::context::AppContext;
use crate::hooks::{use_drop, use_page_keys, use_start, use_worker};
use crate::state::State;

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(State::default);
    use_worker(&state);
    use_start(&state);
    use_page_keys(&state);
    let drop = use_drop(&state);
    let help = state.help;
    html! {
        <ContextProvider<AppContext> context={AppContext { state }}>
            <div class={classes!("app", drop.dragging.then_some("dragging"))}
                 ondragover={drop.ondragover} ondragleave={drop.ondragleave} ondrop={drop.ondrop}>
                <Header />
                <div class="body">
                    <aside class="sidebar" aria-label="Link set and pipeline">
                        <LoadPanel />
                        <PassList />
                    </aside>
                    <main class="main" id="main">
                        <MainViews />
                    </main>
                    <Details />
                </div>
                if drop.dragging {
                    <div class="drop-overlay" aria-hidden="true">
                        <p>{ "Drop per-core module JSON, bundles or folders" }</p>
                    </div>
                }
                if help {
                    <HelpOverlay />
                }
            </div>
        </ContextProvider<AppContext>>
    }
}

/// Mounts the app on the page.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
