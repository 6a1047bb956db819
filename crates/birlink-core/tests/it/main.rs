//! The integration tests of birlink-core: one binary (see `Cargo.toml`), one module per
//! boundary. Inputs are data (`tests/data/<case>/`, the generated samples, generated link
//! sets); expectations are insta snapshots under `tests/it/snapshots/`.
//! Refresh snapshots with `INSTA_UPDATE=always cargo test -p birlink-core` and review
//! the diff.

// Tests and benchmarks may panic on a broken fixture: that is their failure report.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a broken fixture panics: that is the test failing"
)]

mod align;
mod cases;
mod codes;
mod compare;
mod entities;
mod fuzz;
mod history;
mod layouts;
mod logs;
mod netlist;
mod pipeline;
mod places;
mod properties;
mod reduce;
mod samples;
mod support;
mod sync;
mod verify_flows;
mod workdir;
