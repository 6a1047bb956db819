//! Start-up: the samples index, and each side's first link set as the page's link names
//! it (`services::open`: its data, else its URLs, else its sample; the shown side falls
//! back to the default sample, and embedded to nothing: the host sends the files), and
//! the link's view state, applied once the shown link set has linked. The samples index
//! is fetched beside it, so the link does not wait for the menu.

use yew::prelude::*;

use birlink_core::tools::share::ViewState;

use crate::params::{LinkSource, PageParams};
use crate::services::fetch;
use crate::services::open::{self, When};
use crate::side::Side;
use crate::state::{Action, HistoryAction, State};

/// Fetches what the page opens with, once.
#[hook]
pub fn use_start(state: &UseReducerHandle<State>, params: &PageParams, fragment: &str) {
    let dispatcher = state.dispatcher();
    let params = params.clone();
    let fragment = fragment.to_owned();
    use_effect_with((), move |_| {
        let (link, dropped) = ViewState::parse(&fragment);
        let mut notes: Vec<String> = params.dropped.clone();
        notes.extend(dropped.into_iter().map(|d| format!("`{}`: {}", d.part, d.why)));
        // Applied, and what was dropped said, once the link set has linked.
        let opened = ViewState { data: None, against_data: None, ..link.clone() };
        if !opened.is_empty() || !notes.is_empty() {
            dispatcher.dispatch(Action::History(HistoryAction::LinkState(opened, notes)));
        }
        // The samples menu is the full page's: embedded, there is none to fill (and a
        // frame a notebook wrote has no `samples/` beside it).
        // In an editor's webview the host sends the files: no samples, no default sample.
        let hosted = crate::services::editor::available();
        if !params.embed && !hosted {
            let menu = dispatcher.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match fetch::samples_index().await {
                    Ok(samples) => menu.dispatch(Action::SamplesLoaded(samples)),
                    Err(error) => menu.dispatch(Action::Notice(Some(error))),
                }
            });
        }
        // The link set compared against, opened beside the shown one.
        let mut against = params.sources[Side::Against].clone();
        against.data = link.against_data;
        open::open(&dispatcher, Side::Against, against, When::Start);
        let mut shown = params.sources[Side::Shown].clone();
        shown.data = link.data;
        // Nothing named: the default sample (embedded, the host sends the files).
        if shown.is_empty() && !params.embed && !hosted {
            let sample = birlink_core::gen::samples::DEFAULT_SAMPLE.to_owned();
            shown = LinkSource { sample: Some(sample), ..shown };
        }
        open::open(&dispatcher, Side::Shown, shown, When::Start);
    });
}
