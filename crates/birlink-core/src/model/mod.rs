//! The model: what a link set is made of, with no knowledge of how it was read or what
//! runs on it.
//!
//! * [`ir`] — modules, functions, blocks, instructions, memory-location sets and
//!   locations, queues and instances, each its JSON fields plus typed child containers,
//!   in typed arenas ([`arena`]);
//! * [`flow`] — how the compiler links a program: modular, flat, or the seeds' reading;
//! * [`place`] — the grid's coordinate (`nc01/sg02`, `nc01/sgLnk`), parsed and printed
//!   in one place;
//! * [`linked`] — what a run links into: one module per core, or the seeds' one module;
//! * [`entity`] — the kinds of entity and their content-derived keys; [`pass`] — the
//!   stages by name; [`uses`] — the names instructions refer to;
//! * [`view`] — a JSON value read the same way parsed or as text, so each fact about an
//!   instruction is written once for both reading paths.

pub mod arena;
pub mod entity;
pub mod flow;
pub mod ir;
pub mod linked;
pub mod pass;
pub mod place;
pub mod uses;
pub(crate) mod view;
