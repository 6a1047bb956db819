//! The app: the page's setup from its URL, the state, its effects (`hooks`), and the
//! layout of the page's mode — the full inspector (with the pasted log and the reduce
//! bar above the views), or embedded in a host's page (views and details only, no drop
//! target, no paste, never touching its URL).

use yew::prelude::*;

use crate::components::{
    Details, EmbedBar, Header, HelpOverlay, LoadPanel, LogFindings, MainViews, PassList, PasteLogDialog, ReproBar,
    ShareOverlay,
};
use crate::context::{AppContext, SelectionContext};
use crate::hooks::{use_drop, use_exports, use_history, use_messages, use_page_keys, use_paste, use_start, use_worker};
use crate::services::location::Setup;
use crate::state::{Mode, State};

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let setup = use_memo((), |_| {
        let setup = Setup::from_location();
        setup.mark_document();
        setup
    });
    let state = use_reducer({
        let setup = setup.clone();
        move || State::new(setup.mode(), setup.page.clone())
    });
    use_worker(&state);
    use_start(&state, &setup.params, &setup.fragment);
    use_history(&state);
    use_messages(&state, &setup.trust);
    use_page_keys(&state);
    use_paste(&state);
    use_exports(&state);
    let drop = use_drop(&state);
    let selection = SelectionContext::of(&state);
    let (help, share, mode, pasting) = (state.help, state.share.dialog.is_some(), state.mode, state.log.editing);
    let context = AppContext { state };
    if mode == Mode::Embed {
        // Not a drop target: a file dropped here must not make the frame open it.
        let refuse = Callback::from(|event: DragEvent| event.prevent_default());
        return html! {
            <ContextProvider<AppContext> {context}>
            <ContextProvider<SelectionContext> context={selection}>
                <div class="app embed" ondragover={refuse.clone()} ondrop={refuse}>
                    <EmbedBar />
                    <div class="body">
                        <main class="main" id="main">
                            <MainViews />
                        </main>
                        <Details />
                    </div>
                    if help {
                        <HelpOverlay />
                    }
                </div>
            </ContextProvider<SelectionContext>>
            </ContextProvider<AppContext>>
        };
    }
    html! {
        <ContextProvider<AppContext> {context}>
        <ContextProvider<SelectionContext> context={selection}>
            <div class={classes!("app", drop.dragging.then_some("dragging"))}
                 ondragover={drop.ondragover} ondragleave={drop.ondragleave} ondrop={drop.ondrop}>
                <Header />
                <div class="body">
                    <aside class="sidebar" aria-label="Link set and pipeline">
                        <LoadPanel />
                        <PassList />
                    </aside>
                    <main class="main" id="main">
                        <LogFindings />
                        <ReproBar />
                        <MainViews />
                    </main>
                    <Details />
                </div>
                if drop.dragging {
                    <div class="drop-overlay" aria-hidden="true">
                        <p>{ "Drop per-core module JSON, bundles, folders or a compiler log" }</p>
                    </div>
                }
                if help {
                    <HelpOverlay />
                }
                if share {
                    <ShareOverlay />
                }
                if pasting {
                    <PasteLogDialog />
                }
            </div>
        </ContextProvider<SelectionContext>>
        </ContextProvider<AppContext>>
    }
}

/// Mounts the app on the page.
pub fn start() {
    yew::Renderer::<App>::new().render();
}
