//! The Share dialog and the link set's `data=`: the link that carries the link set in
//! its fragment, made by the worker (`birlink_core::tools::share::data`), or why it cannot be
//! one (too large: a bundle is offered instead). When the page compares two link sets,
//! the link carries both (`data=` and `against-data=`), when they fit together.

use birlink_core::tools::share;

use super::{Ask, Mailbox, Query, State};
use crate::side::Side;

/// The Share dialog.
#[derive(Clone, Debug, PartialEq)]
pub enum ShareDialog {
    /// The worker is encoding the link set.
    Loading,
    /// The link.
    Link(String),
    /// No link: why (too large for one, or a page with no address of its own), and
    /// the bundle is offered instead.
    NoLink(String),
}

/// Why a page its host wrote has no link to offer.
pub const NO_ADDRESS: &str =
    "this page runs inside another program (an editor's view) and has no address of its own for a link to open";

/// The Share dialog. What a link carries of each side is the side's own
/// ([`super::LinkData`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ShareState {
    /// The dialog, when open.
    pub dialog: Option<ShareDialog>,
    /// Share's questions to the worker, about either side's run.
    pub out: Mailbox<Ask>,
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
    /// What a link carries of each side now: A's data, and B's when the page compares
    /// (`Some(None)` when it does not); `None` while the worker has not said.
    fn shared_data(&self) -> Option<(String, Option<String>)> {
        let a = self.sides[Side::Shown].data.text.clone()?;
        if !self.comparing() {
            return Some((a, None));
        }
        Some((a, Some(self.sides[Side::Against].data.text.clone()?)))
    }

    /// The full page's URL showing what this page shows, with the link sets' data when
    /// it is known and fits in a link ("Open in birlink").
    pub fn full_url(&self) -> String {
        let plain = format!("{}{}", self.page.base, self.page.full_query);
        let mut state = self.view_state();
        if let Some(data) = self.sides[Side::Shown].data.text.clone() {
            state.data = Some(data);
            if self.comparing() {
                state.against_data = self.sides[Side::Against].data.text.clone();
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
        let comparing = self.comparing();
        for side in Side::BOTH {
            if side == Side::Against && !comparing {
                continue;
            }
            if let Some(why) = &self.sides[side].data.error {
                return ShareDialog::NoLink(match side {
                    Side::Shown => why.clone(),
                    Side::Against => format!("{}: {why}", side.noun()),
                });
            }
        }
        let Some((data, against)) = self.shared_data() else { return ShareDialog::Loading };
        let mut state = self.view_state();
        state.data = Some(data);
        state.against_data = against;
        let link = format!("{}#{}", self.page.base, state);
        if link.len() <= share::LINK_BUDGET {
            ShareDialog::Link(link)
        } else {
            let what = if comparing { "both link sets" } else { "the link set" };
            ShareDialog::NoLink(format!(
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
                if self.result_run().is_none() {
                    return false;
                }
                if self.page.base.is_empty() {
                    // A page its host wrote (an editor's webview): a link would be a bare
                    // fragment that opens nothing.
                    self.share.dialog = Some(ShareDialog::NoLink(NO_ADDRESS.to_owned()));
                    return true;
                }
                // Each side's data, asked for once (B's when the page compares).
                for side in Side::BOTH {
                    let this = &self.sides[side];
                    let asked = side == Side::Shown || self.comparing();
                    if let (true, false, Some(run)) = (asked, this.data.known(), this.result_run()) {
                        self.share.out.post(Ask { run, query: Query::Share });
                    }
                }
                self.share.dialog = Some(self.share_dialog());
            }
            ShareAction::Loaded { run, data } => {
                let Some(side) = self.side_of_result(run) else { return false };
                let known = &mut self.sides[side].data;
                match data {
                    Ok(data) => known.text = Some(data),
                    Err(why) => known.error = Some(why),
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
