//! The web worker that runs the link pipeline off the main thread.

fn main() {}
