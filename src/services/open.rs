//! Opening a link set on either side from where a link says it comes from: its data
//! (read by the worker), else its URLs (fetched as blobs), else a shipped sample. One
//! rule for both sides and every caller — the page's own link at start, a link pasted
//! into the Compare panel, the samples menus — so components do no fetching: they call
//! these, and the reducer is told what arrived.

use yew::UseReducerDispatcher;

use crate::params::LinkSource;
use crate::services::fetch;
use crate::side::Side;
use crate::state::{Action, LinkAction, LinkOp, PickedFile, State};

/// How what arrives joins the side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// At start: ignored when the side opened something else first (a host's `load`,
    /// the user's files), which a slower fetch must not replace.
    Start,
    /// On the user's request: replaces what the side holds.
    Now,
}

/// Opens what `source` names on `side`; false when it names nothing (the caller says
/// why, or opens its default). The LNC is set first, so the side's first link uses it.
pub fn open(dispatcher: &UseReducerDispatcher<State>, side: Side, source: LinkSource, when: When) -> bool {
    let LinkSource { data, src, sample, lnc, flow } = source;
    if flow.is_some() {
        dispatcher.dispatch(Action::Link(LinkAction { side, op: LinkOp::SetFlow(flow) }));
    }
    if let Some(data) = data {
        // Inflated and read by the worker: the page's thread never holds it parsed.
        dispatcher.dispatch(Action::Link(LinkAction { side, op: LinkOp::OpenLink { data, lnc } }));
        return true;
    }
    if src.is_empty() && sample.is_none() {
        return false;
    }
    if lnc.is_some() {
        dispatcher.dispatch(Action::Link(LinkAction { side, op: LinkOp::SetLnc(lnc) }));
    }
    let dispatcher = dispatcher.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let opened = match sample {
            Some(sample) if src.is_empty() => fetch::sample(&sample).await.map(|(files, name)| (files, Some(name))),
            _ => urls(&src).await.map(|files| (files, None)),
        };
        match opened {
            Ok((files, sample)) => dispatcher.dispatch(arrived(side, when, files, sample)),
            Err(error) => dispatcher.dispatch(Action::Notice(Some(error))),
        }
    });
    true
}

/// Opens a shipped sample on `side` (the samples menus).
pub fn sample(dispatcher: &UseReducerDispatcher<State>, side: Side, name: String) {
    let source = LinkSource { sample: Some(name), ..LinkSource::default() };
    open(dispatcher, side, source, When::Now);
}

/// Opens a public report's pair: `a` shown, `b` compared against it, once both have
/// arrived (one without the other tells no story).
pub fn pair(dispatcher: &UseReducerDispatcher<State>, a: String, b: Option<String>) {
    let dispatcher = dispatcher.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let b_files = match &b {
            Some(b) => fetch::sample(b).await,
            None => Err(format!("the samples index names no pair for `{a}`")),
        };
        match (fetch::sample(&a).await, b_files) {
            (Ok((a_files, a_name)), Ok((b_files, b_name))) => {
                dispatcher.dispatch(arrived(Side::Shown, When::Now, a_files, Some(a_name)));
                dispatcher.dispatch(arrived(Side::Against, When::Now, b_files, Some(b_name)));
            }
            (Err(error), _) | (_, Err(error)) => {
                dispatcher.dispatch(Action::Notice(Some(format!("could not open the pair of `{a}`: {error}"))))
            }
        }
    });
}

/// Opens on `side` what a pasted birlink link names, or says why nothing was opened.
pub fn pasted(dispatcher: &UseReducerDispatcher<State>, side: Side, text: &str) {
    let (source, dropped) = crate::params::pasted_link(text);
    if !open(dispatcher, side, source, When::Now) {
        let mut why = "that link names no link set (no `data=`, `sample=` or `src=`)".to_owned();
        if !dropped.is_empty() {
            why = format!("{why}; {}", dropped.join("; "));
        }
        dispatcher.dispatch(Action::Notice(Some(why)));
    }
}

/// Fetches URLs in order; the first that fails fails them all.
async fn urls(urls: &[String]) -> Result<Vec<PickedFile>, String> {
    let mut picked = Vec::with_capacity(urls.len());
    for url in urls {
        picked.push(fetch::blob(url).await?);
    }
    Ok(picked)
}

/// The action for files that arrived.
fn arrived(side: Side, when: When, files: Vec<PickedFile>, sample: Option<String>) -> Action {
    let op = match when {
        When::Start => LinkOp::StartFiles { files, sample },
        When::Now => LinkOp::ReplaceFiles { files, sample },
    };
    Action::Link(LinkAction { side, op })
}
