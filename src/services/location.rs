//! What the page's own URL says, read once at start: the query ([`crate::params`]), the
//! fragment, the page's origin and base (for links), and whom to trust with messages.

use crate::embed::trust::Trust;
use crate::params::{self, PageParams};
use crate::state::{Mode, Page};

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
        let params = params::parse(&search);
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
