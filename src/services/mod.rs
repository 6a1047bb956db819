//! The page's side effects: reading what the user picked or dropped, fetching samples
//! and `?src=` URLs, downloads, and the link worker's bridge.

pub mod download;
pub mod fetch;
pub mod files;
