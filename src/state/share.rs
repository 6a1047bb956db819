//! The Share dialog and the link set's `data=`: the link that carries the link set in
//! its fragment, made by the worker (`birlink_core::tools::share::data`), or why it cannot be
//! one (too large: a bundle is offered instead).

use birlink_core::tools::share;

use super::{Ask, Outbox, Query, State};

/// The Share dialog.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareDialog {
    /// The worker is encoding the link set.
    Loading,
    /// The link.
    Link(String),
    /// Too large for a link: why, and the bundle is offered instead.
    TooLarge(String),
}

/// The Share dialog and what is known of the link set's data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareState {
    /// The dialog, when open.
    pub dialog: Option<ShareDialog>,
    /// The link set as a link carries it, when known (`data=`).
    pub data: Option<String>,
    /// Whether `data` belongs in the page's own URL (the link set came from a link).
    pub data_in_url: bool,
    /// Share's question to the worker.
    pub out: Outbox<Ask>,
}

impl ShareState {
    /// Another link set: its data is not known yet, and the dialog closes.
    pub(crate) fn forget_data(&mut self) {
        self.data = None;
        self.data_in_url = false;
        self.dialog = None;
    }

    /// The link set's data is known (`in_url`: it came with the page's own link).
    pub(crate) fn know_data(&mut self, data: String, in_url: bool) {
        self.data = Some(data);
        self.data_in_url = in_url;
    }
}

/// The Share dialog's actions.
#[derive(Debug)]
pub enum ShareAction {
    /// Open the dialog.
    Open,
    /// The worker answered.
    Loaded {
        /// The run.
        run: u64,
        /// The data, or why it does not go in a link.
        data: Result<String, String>,
    },
    /// Close the dialog.
    Close,
}

impl State {
    /// The full page's URL showing what this page shows, with the link set's data when
    /// it is known and fits in a link ("Open in birlink").
    pub fn full_url(&self) -> String {
        let plain = format!("{}{}", self.page.base, self.page.full_query);
        let mut state = self.view_state();
        if let Some(data) = &self.share.data {
            state.data = Some(data.clone());
            let with_data = format!("{plain}#{state}");
            if with_data.len() <= share::LINK_BUDGET {
                return with_data;
            }
            state.data = None;
        }
        format!("{plain}#{state}")
    }

    /// The share link of the current link set, given its data.
    fn share_link(&self, data: &str) -> ShareDialog {
        let mut state = self.view_state();
        state.data = Some(data.to_owned());
        let link = format!("{}#{}", self.page.base, state);
        if link.len() <= share::LINK_BUDGET {
            ShareDialog::Link(link)
        } else {
            ShareDialog::TooLarge(format!(
                "the link would be {} characters, above the budget of {}: browsers and chat tools may cut it",
                link.len(),
                share::LINK_BUDGET
            ))
        }
    }

    /// Applies a Share action; false when it changes nothing (a stale answer).
    pub(super) fn apply_share(&mut self, action: ShareAction) -> bool {
        match action {
            ShareAction::Open => {
                let Some(run) = self.result_run() else { return false };
                self.share.dialog = Some(match self.share.data.clone() {
                    Some(data) => self.share_link(&data),
                    None => {
                        self.share.out.post(Ask { run, query: Query::Share });
                        ShareDialog::Loading
                    }
                });
            }
            ShareAction::Loaded { run, data } => {
                if Some(run) != self.result_run() {
                    return false;
                }
                match data {
                    Ok(data) => {
                        if self.share.dialog.is_some() {
                            self.share.dialog = Some(self.share_link(&data));
                        }
                        let in_url = self.share.data_in_url;
                        self.share.know_data(data, in_url);
                    }
                    Err(why) => {
                        if self.share.dialog.is_some() {
                            self.share.dialog = Some(ShareDialog::TooLarge(why));
                        }
                    }
                }
            }
            ShareAction::Close => self.share.dialog = None,
        }
        true
    }
}
