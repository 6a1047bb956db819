//! Who may drive the page by message (embed spec §4): only its parent or its opener,
//! and only when that window's origin is the page's own or one the page's own URL
//! lists in `origin=`. Everything else is ignored, with a console notice and no reply:
//! a page that embeds birlink must not read what a user dropped into it unless the
//! user's link allows it.

/// The origins allowed to drive the page: its own, then the `origin=` ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trust {
    origins: Vec<String>,
}

impl Trust {
    /// The page's own origin and the ones its link lists.
    pub fn new(own: &str, listed: &[String]) -> Trust {
        let mut origins = vec![own.to_owned()];
        origins.extend(listed.iter().filter(|o| *o != own).cloned());
        Trust { origins }
    }

    /// Whether a message from `origin`, sent by the parent or opener (`related`), is
    /// to be obeyed. An opaque origin (`null`: a sandboxed frame, a `file://` page)
    /// never is.
    pub fn allows(&self, origin: &str, related: bool) -> bool {
        related && origin != "null" && self.origins.iter().any(|o| o == origin)
    }

    /// Where unprompted messages may go: each allowed origin (the browser delivers to
    /// the one the parent has, and to none other).
    pub fn targets(&self) -> &[String] {
        &self.origins
    }
}

#[cfg(test)]
mod tests {
    use super::Trust;

    #[test]
    fn only_the_parent_or_opener_from_an_allowed_origin_is_obeyed() {
        let trust = Trust::new("http://127.0.0.1:8080", &["https://docs.example.org".to_owned()]);
        assert!(trust.allows("http://127.0.0.1:8080", true));
        assert!(trust.allows("https://docs.example.org", true));
        assert!(!trust.allows("https://docs.example.org", false), "another window of an allowed origin");
        assert!(!trust.allows("https://evil.example", true), "the parent, of an origin the link does not list");
        assert!(!trust.allows("null", true));
        assert_eq!(trust.targets().len(), 2);
    }
}
