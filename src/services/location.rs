//! What the page's own URL says, read once at start: the query ([`crate::params`]), the
//! fragment, the page's origin and base (for links), and whom to trust with messages.

use crate::embed::trust::Trust;
use crate::params::{self, PageParams};
use crate::state::{Mode, Page};

/// An `origin=` as browsers write `MessageEvent.origin` (`scheme://host[:port]`, the
/// default port left out), by the platform's `URL`; `None` unless it is an `http` or
/// `https` origin and nothing more (no path, query, fragment or credentials).
pub fn normalize_origin(text: &str) -> Option<String> {
    let url = web_sys::Url::new(text).ok()?;
    let bare = url.pathname() == "/"
        && url.search().is_empty()
        && url.hash().is_empty()
        && url.username().is_empty()
        && url.password().is_empty();
    (bare && matches!(url.protocol().as_str(), "http:" | "https:")).then(|| url.origin())
}

/// The page's setup from its URL.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The query.
    pub params: PageParams,
    /// The fragment (without `#`).
    pub fragment: String,
    /// Where the page is, for the links it makes.
    pub page: Page,
    /// Who may drive it by message.
    pub trust: Trust,
}

impl Setup {
    /// Reads the page's URL.
    pub fn from_location() -> Setup {
        let location = gloo::utils::window().location();
        let search = location.search().unwrap_or_default();
        let fragment = location.hash().unwrap_or_default().trim_start_matches('#').to_owned();
        let origin = location.origin().unwrap_or_default();
        let path = location.pathname().unwrap_or_default();
        let mut params = params::parse(&search);
        let mut origins = Vec::new();
        for listed in std::mem::take(&mut params.origins) {
            match normalize_origin(&listed) {
                Some(normalized) => origins.push(normalized),
                None => params.dropped.push(format!("`origin={listed}` is not an origin (`https://docs.example.org`)")),
            }
        }
        params.origins = origins;
        let trust = Trust::new(&origin, &params.origins);
        let page = Page { base: format!("{origin}{path}"), full_query: params::full_query(&search) };
        Setup { params, fragment, page, trust }
    }

    /// Embedded or full.
    pub fn mode(&self) -> Mode {
        if self.params.embed {
            Mode::Embed
        } else {
            Mode::Full
        }
    }

    /// Marks the document for the stylesheet: the theme asked for, and embed mode.
    pub fn mark_document(&self) {
        let Some(root) = gloo::utils::document().document_element() else { return };
        if let Some(theme) = self.params.theme.attribute() {
            let _ = root.set_attribute("data-theme", theme);
        }
        if self.params.embed {
            let _ = root.set_attribute("data-embed", "");
        }
    }
}
