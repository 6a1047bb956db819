//! birlink: the multi-core link of AWS Neuron BIR modules, reimplemented.
//!
//! neuronx-cc splits a program across N logical cores, compiles each core's module
//! separately, then links them back: `bir_linker` merges the N per-core BIR modules into
//! one `<base>/sgLnk` module, `vnc_remote_addr_map` copies each owner core's physical
//! address onto the remote views, `vnc_link` relinks remote semaphore ids from the peer
//! core. This crate is those three passes, with the pre-link checks, over BIR JSON.
//!
//! The tree is the layers, each using only those above it in this list (tidy's
//! `the_core_is_layered` checks it):
//!
//! * [`model`] — the IR in arenas, entity keys, passes by name, uses;
//! * [`diag`] — diagnostics as data, every code declared once, the compiler's codes;
//! * [`output`] — `report.json`'s types, `linked.json`, the canonical text, layouts;
//! * [`read`] — files classified and decoded, documents streamed into the model;
//! * [`passes`] — the pipeline: `verify` → `bir_linker` → `vnc_remote_addr_map` →
//!   `vnc_link`, each reporting what it did;
//! * [`tools`] — what inspects a finished run: queries, aligned views, logs, reduce,
//!   share links, the self-check;
//! * [`gen`] — synthetic link sets and the samples; [`limits`] — the bounds input meets;
//!   [`english`] — numbers in words (both usable from any layer).
//!
//! The crate is pure: no file or network IO, no clock, no printing, no wasm. The CLI and
//! the browser worker call the same [`passes::run`] on the same bytes and get the same
//! bytes back.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod diag;
pub mod english;
pub mod gen;
pub mod limits;
pub mod model;
pub mod output;
pub mod passes;
pub mod read;
pub mod tools;

// What nearly every caller names, at the root (as naga does with its IR's items).
pub use diag::codes::Code;
pub use diag::{Diagnostic, Severity};
pub use model::entity::{EntityKey, EntityKind};
pub use model::flow::{Flow, FlowSource};
pub use model::linked::{LinkedModule, LinkedSet};
pub use model::pass::Pass;
pub use passes::outputs::{bir_linker_log, link_dir_text, linked_json, report_json, tensor_map_files, tensor_map_json};
pub use passes::{run, LinkOptions, Outcome, SyncCheck};
pub use read::compact::Sink;
pub use read::input::{Content, Reader, Role, SourceFile};
