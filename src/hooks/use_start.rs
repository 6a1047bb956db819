//! Start-up: the samples index and the first link set (`?src=`, `?sample=`, or the
//! default sample), fetched side by side so the link does not wait for the menu.

use yew::prelude::*;

use crate::services::fetch;
use crate::state::{Action, State};

/// Fetches what the page opens with, once.
#[hook]
pub fn use_start(state: &UseReducerHandle<State>) {
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let menu = dispatcher.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match fetch::samples_index().await {
                Ok(samples) => menu.dispatch(Action::SamplesLoaded(samples)),
                Err(error) => menu.dispatch(Action::Notice(Some(error))),
            }
        });
        wasm_bindgen_futures::spawn_local(async move {
            let (url, sample) = match (fetch::src_param(), fetch::sample_param()) {
                (Some(src), _) => (src, None),
                (None, Some(sample)) => (format!("samples/{sample}"), Some(sample)),
                (None, None) => {
                    let sample = birlink_core::samples::DEFAULT_SAMPLE.to_owned();
                    (format!("samples/{sample}"), Some(sample))
                }
            };
            match fetch::blob(&url).await {
                Ok(file) => dispatcher.dispatch(Action::ReplaceFiles { files: vec![file], sample }),
                Err(error) => dispatcher.dispatch(Action::Notice(Some(error))),
            }
        });
    });
}
