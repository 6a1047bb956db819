//! birlink: the multi-core link of AWS Neuron BIR modules, reimplemented.
//!
//! neuronx-cc splits a program across N logical cores, compiles each core's module
//! separately, then links them back: `bir_linker` merges the N per-core BIR modules into
//! one `<base>/sgLnk` module, `vnc_remote_addr_map` copies each owner core's physical
//! address onto the remote views, `vnc_link` relinks remote semaphore ids from the peer
//! core. This crate is those three passes, with the pre-link checks, over BIR JSON:
//!
//! * [`input`] classifies files (per-core module, bundle, netlist) and [`json::read`]
//!   lowers each module into the [`ir`] — entities in arenas ([`arena`]), each one its
//!   JSON fields plus typed child containers, so nothing uploaded is ever lost;
//! * [`passes`] runs `verify` → `bir_linker` → `vnc_remote_addr_map` → `vnc_link`, each
//!   reporting [`diag::Diagnostic`]s (codes in [`codes`]) and what it changed;
//! * [`report`] is `report.json`, [`json::write`] writes `linked.json`, [`print`] is the
//!   canonical text every diff is made of; [`gen`] generates synthetic link sets.
//!
//! The crate is pure: no file or network IO, no clock, no printing, no wasm. The CLI and
//! the browser worker call the same [`passes::run`] on the same bytes and get the same
//! bytes back.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod align;
pub mod arena;
pub mod diag;
pub mod entity;
pub mod gen;
pub mod input;
pub mod ir;
pub mod json;
pub mod limits;
pub mod log;
pub mod netlist;
pub mod partition;
pub mod pass;
pub mod passes;
pub mod print;
pub mod query;
pub mod reduce;
pub mod report;
pub mod samples;
pub mod selfcheck;
pub mod share;
pub mod uses;

pub use diag::codes;
pub use diag::codes::Code;
pub use diag::{Diagnostic, Severity};
pub use entity::{EntityKey, EntityKind};
pub use input::{Role, SourceFile};
pub use pass::Pass;
pub use passes::{run, LinkOptions, Outcome};

/// `report.json` text for an outcome.
pub fn report_json(outcome: &Outcome) -> String {
    json::write::to_pretty_string(&outcome.report)
}

/// `linked.json` text for an outcome, if there is a linked module.
pub fn linked_json(outcome: &Outcome) -> Option<String> {
    outcome.linked.as_ref().map(json::write::module_to_string)
}
