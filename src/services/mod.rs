//! The page's side effects that are not hooks: reading what the user picked or
//! dropped, fetching samples and `?src=` URLs, downloads.

pub mod download;
pub mod fetch;
pub mod files;
pub mod location;
