//! The page: mounts the yew app.

fn main() {}
