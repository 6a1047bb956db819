//! Start-up: the samples index, and the first link set — a link's `data=` (read by
//! the worker), else its
//! `src=` URLs, else `sample=`, else the default sample (embedded, none: the host sends
//! the files) — with the LNC the link sets,
//! and the link's view state, applied once that link set has linked. The samples index
//! is fetched beside it, so the link does not wait for the menu.

use yew::prelude::*;

use birlink_core::tools::share::ViewState;

use crate::params::PageParams;
use crate::services::fetch;
use crate::state::{Action, CompareAction, HistoryAction, LinkAction, State};

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
        // The link set to compare against (`against-data=`, `against-src=`, `against=`),
        // opened beside the shown one.
        open_against(&dispatcher, &params, link.against_data.clone());
        // Applied, and what was dropped said, once the link set has linked.
        let opened = ViewState { data: None, against_data: None, ..link.clone() };
        if !opened.is_empty() || !notes.is_empty() {
            dispatcher.dispatch(Action::History(HistoryAction::LinkState(opened, notes)));
        }
        // The samples menu is the full page's: embedded, there is none to fill (and a
        // frame a notebook wrote has no `samples/` beside it).
        if !params.embed {
            let menu = dispatcher.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match fetch::samples_index().await {
                    Ok(samples) => menu.dispatch(Action::SamplesLoaded(samples)),
                    Err(error) => menu.dispatch(Action::Notice(Some(error))),
                }
            });
        }
        if let Some(data) = link.data {
            // Inflated and read by the worker: the page's thread never holds it parsed.
            dispatcher.dispatch(Action::Link(LinkAction::OpenLink { data, lnc: params.lnc }));
            return;
        }
        if params.lnc.is_some() {
            dispatcher.dispatch(Action::Link(LinkAction::SetLnc(params.lnc)));
        }
        wasm_bindgen_futures::spawn_local(async move {
            let (urls, sample) = match (params.src.is_empty(), &params.sample) {
                (false, _) => (params.src.clone(), None),
                // A sample may be a work directory: many files.
                (true, Some(sample)) => {
                    match fetch::sample(sample).await {
                        Ok((files, name)) => {
                            dispatcher.dispatch(Action::Link(LinkAction::StartFiles { files, sample: Some(name) }))
                        }
                        Err(error) => dispatcher.dispatch(Action::Notice(Some(error))),
                    }
                    return;
                }
                // Embedded without a source: the host sends the files (`load`).
                (true, None) if params.embed => return,
                (true, None) => {
                    let sample = birlink_core::gen::samples::DEFAULT_SAMPLE.to_owned();
                    (vec![format!("samples/{sample}")], Some(sample))
                }
            };
            let mut picked = Vec::with_capacity(urls.len());
            for url in &urls {
                match fetch::blob(url).await {
                    Ok(file) => picked.push(file),
                    Err(error) => {
                        dispatcher.dispatch(Action::Notice(Some(error)));
                        return;
                    }
                }
            }
            dispatcher.dispatch(Action::Link(LinkAction::StartFiles { files: picked, sample }));
        });
    });
}

/// Opens the link set a link compares the shown one against: its data (read by the
/// worker), else its URLs, else its sample.
fn open_against(dispatcher: &UseReducerDispatcher<State>, params: &PageParams, data: Option<String>) {
    if let Some(data) = data {
        dispatcher.dispatch(Action::Compare(CompareAction::OpenLink { data, lnc: params.against_lnc }));
        return;
    }
    if params.against_lnc.is_some() {
        dispatcher.dispatch(Action::Compare(CompareAction::SetLnc(params.against_lnc)));
    }
    let dispatcher = dispatcher.clone();
    let (urls, sample) = (params.against_src.clone(), params.against_sample.clone());
    if urls.is_empty() && sample.is_none() {
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let opened = match sample {
            Some(sample) if urls.is_empty() => fetch::sample(&sample).await.map(|(files, name)| (files, Some(name))),
            _ => {
                let mut picked = Vec::with_capacity(urls.len());
                for url in &urls {
                    match fetch::blob(url).await {
                        Ok(file) => picked.push(file),
                        Err(error) => return dispatcher.dispatch(Action::Notice(Some(error))),
                    }
                }
                Ok((picked, None))
            }
        };
        match opened {
            Ok((files, sample)) => dispatcher.dispatch(Action::Compare(CompareAction::ReplaceFiles { files, sample })),
            Err(error) => dispatcher.dispatch(Action::Notice(Some(error))),
        }
    });
}
