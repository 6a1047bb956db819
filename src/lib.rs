//! birlink in the browser: the link pipeline in a web worker, a yew inspector on top.
//!
//! `bin/app.rs` mounts [`app::App`]; `bin/worker.rs` registers [`worker::LinkWorker`].
//! The page never builds IR: it sends files (as blobs) to the worker, which runs
//! `birlink-core` — the same code as the CLI — and answers with `report.json` and
//! details on demand. [`state`] is the reducer every view reads.

pub mod app;
pub mod components;
pub mod context;
pub mod embed;
pub mod hooks;
pub mod params;
pub mod protocol;
pub mod services;
pub mod side;
pub mod state;
pub mod worker;
