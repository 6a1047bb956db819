//! The Share dialog and the link set's `data=`: the link that carries the link set in
//! its fragment, made by the worker (`birlink_core::tools::share::data`), or why it cannot be
//! one (too large: a bundle is offered instead). When the page compares two link sets,
//! the link carries both (`data=` and `against-data=`), when they fit together.

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
    /// Why the link set does not go in a link, once the worker said so.
    pub error: Option<String>,
    /// Share's question to the worker.
    pub out: Outbox<Ask>,
}

impl ShareState {
    /// Another link set: its data is not known yet, and the dialog closes.
    pub(crate) fn forget_data(&mut self) {
        self.data = None;
        self.data_in_url = false;
        self.error = None;
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
            if self.against.is_open() {
                state.against_data = self.against.data.clone();
            }
            let with_data = format!("{plain}#{state}");
            if with_data.len() <= share::LINK_BUDGET {
                return with_data;
            }
            state.data = None;
            state.against_data = None;
        }
        format!("{plain}#{state}")
    }

    /// The share dialog for what is known: the link (both link sets' data when the page
    /// compares two), why there is none, or `Loading` while an answer is awaited.
    fn share_dialog(&self) -> ShareDialog {
        let comparing = self.against.is_open();
        if let Some(why) = self.share.error.clone() {
            return ShareDialog::TooLarge(why);
        }
        if comparing {
            if let Some(why) = &self.against.data_error {
                return ShareDialog::TooLarge(format!("the link set compared against: {why}"));
            }
        }
        let (Some(data), Some(against)) =
            (self.share.data.as_ref(), if comparing { self.against.data.as_ref().map(Some) } else { Some(None) })
        else {
            return ShareDialog::Loading;
        };
        let mut state = self.view_state();
        state.data = Some(data.clone());
        state.against_data = against.cloned();
        let link = format!("{}#{}", self.page.base, state);
        if link.len() <= share::LINK_BUDGET {
            ShareDialog::Link(link)
        } else {
            let what = if comparing { "both link sets" } else { "the link set" };
            ShareDialog::TooLarge(format!(
                "a link carrying {what} would be {} characters, above the budget of {}: browsers and chat tools may cut it",
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
                if self.share.data.is_none() && self.share.error.is_none() {
                    self.share.out.post(Ask { run, query: Query::Share });
                }
                let against = self.against.result.as_ref().map(|r| r.run).filter(|_| self.against.is_open());
                if let Some(run) = against.filter(|_| self.against.data.is_none() && self.against.data_error.is_none())
                {
                    self.against.share_out.post(Ask { run, query: Query::Share });
                }
                self.share.dialog = Some(self.share_dialog());
            }
            ShareAction::Loaded { run, data } => {
                let against = self.against.result.as_ref().is_some_and(|r| r.run == run) && self.against.is_open();
                if Some(run) != self.result_run() && !against {
                    return false;
                }
                match (against, data) {
                    (false, Ok(data)) => {
                        let in_url = self.share.data_in_url;
                        self.share.know_data(data, in_url);
                    }
                    (false, Err(why)) => self.share.error = Some(why),
                    (true, Ok(data)) => self.against.data = Some(data),
                    (true, Err(why)) => self.against.data_error = Some(why),
                }
                if self.share.dialog.is_some() {
                    self.share.dialog = Some(self.share_dialog());
                }
            }
            ShareAction::Close => self.share.dialog = None,
        }
        true
    }
}
