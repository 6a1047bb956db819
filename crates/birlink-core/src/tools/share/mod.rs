//! Links that reproduce a view, and links that carry a whole link set (embed spec §2,
//! §5).
//!
//! A link is `<base>#<fragment>`. The fragment is the view state ([`fragment`]): the
//! view, the step, the diagnostic and the entity in focus, and optionally `data=`, the
//! link set itself ([`data`]: the input files, deflated and base64url-encoded). It is
//! made here, in the core, so that the page's Share and `birlink share` make the same
//! bytes for the same files. A link set too large for a link goes out as a bundle
//! instead ([`bundle`]).

pub mod bundle;
pub mod data;
pub mod fragment;

pub use data::{LinkSetData, SharedFile};
pub use fragment::{CompareState, View, ViewState};

/// The longest link Share makes, in characters: above it, the page offers the link set
/// as a bundle to download. 32,000 characters fit every current browser's address bar
/// and the messages of the tools engineers paste links into (a GitHub comment holds
/// 65,536, a Slack message 40,000).
pub const LINK_BUDGET: usize = 32_000;

/// A link to `base` showing `state`, carrying `data` when given.
pub fn link(base: &str, state: &ViewState, data: Option<&LinkSetData>) -> String {
    let mut state = state.clone();
    state.data = data.map(data::encode);
    let fragment = state.to_string();
    let base = base.split('#').next().unwrap_or(base);
    if fragment.is_empty() {
        base.to_owned()
    } else {
        format!("{base}#{fragment}")
    }
}
