//! The app's effects, one hook each: the link worker ([`use_worker`]), the start-up
//! fetches ([`use_start`]), the page's URL and history ([`use_history`]), hosts'
//! messages ([`use_messages`]), page-wide keys ([`use_page_keys`]), a compiler log pasted on
//! the page ([`use_paste`]), drag and drop ([`use_drop`]) and the downloads the page
//! makes itself ([`use_exports`]). Each turns something outside the reducer into actions, or the
//! reducer's requests into something outside.

mod use_drop;
mod use_exports;
mod use_history;
mod use_messages;
mod use_page_keys;
mod use_paste;
mod use_start;
mod use_worker;

pub use use_drop::{use_drop, DropHandle};
pub use use_exports::use_exports;
pub use use_history::{current_fragment, use_history};
pub use use_messages::use_messages;
pub use use_page_keys::use_page_keys;
pub use use_paste::use_paste;
pub use use_start::use_start;
pub use use_worker::use_worker;
