//! The page's side effects that are not hooks: reading what the user picked or
//! dropped, fetching samples and `?src=` URLs, opening a link set on either side from
//! where a link says it comes from, downloads, the editor the page may run in.

pub mod download;
pub mod editor;
pub mod fetch;
pub mod files;
pub mod location;
pub mod open;
