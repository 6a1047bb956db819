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

/// What a host document that writes the page itself (a notebook's `srcdoc` frame, whose
/// address is `about:srcdoc`) tells it in a global `birlinkPage` before the app starts:
/// the query and fragment it stands for, and where the worker's loader is (a `blob:`
/// URL there, since the frame has no folder to load files from).
#[derive(Clone, Debug, Default)]
pub struct HostPage {
    /// `?embed=1&…`.
    pub query: Option<String>,
    /// The fragment, without `#`.
    pub fragment: Option<String>,
    /// The worker loader's URL.
    pub worker_loader: Option<String>,
}

/// The page's `birlinkPage`, if its document set one.
pub fn host_page() -> HostPage {
    let Ok(given) = js_sys::Reflect::get(&js_sys::global(), &"birlinkPage".into()) else { return HostPage::default() };
    if !given.is_object() {
        return HostPage::default();
    }
    let text = |key: &str| js_sys::Reflect::get(&given, &key.into()).ok().and_then(|v| v.as_string());
    HostPage { query: text("query"), fragment: text("fragment"), worker_loader: text("workerLoader") }
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
    /// Reads the page's URL (or, in a document with none of its own, what its host
    /// document set in `birlinkPage`: see [`host_page`]).
    pub fn from_location() -> Setup {
        let location = gloo::utils::window().location();
        let given = host_page();
        let search = given.query.clone().unwrap_or_else(|| location.search().unwrap_or_default());
        let fragment = match &given.query {
            Some(_) => given.fragment.clone().unwrap_or_default(),
            None => location.hash().unwrap_or_default().trim_start_matches('#').to_owned(),
        };
        // The document's origin (`window.origin`), not its URL's: a `srcdoc` frame's URL
        // is `about:srcdoc`, whose origin is opaque, while the document has its host's.
        let origin = gloo::utils::window().origin();
        let path = if given.query.is_some() { String::new() } else { location.pathname().unwrap_or_default() };
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
        // A page given its query by its host (a notebook's frame) has no address of its
        // own to link to: no "Open in birlink".
        let base = if given.query.is_some() { String::new() } else { format!("{origin}{path}") };
        let page = Page { base, full_query: params::full_query(&search) };
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
