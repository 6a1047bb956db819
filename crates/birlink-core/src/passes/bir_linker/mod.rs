//! `bir_linker` (docs/spec/link.md §0.4, §3): modules linked into a new module, each
//! input's arenas moved into it through explicit handle maps, never edited in place.
//! Two siblings, one per flow that runs it, chosen by the driver:
//!
//! - [`modular`] — the compiler's: once per core, that core's subgraphs (the netlist's
//!   definitions) linked into `ncCC/sgLnk`, a dispatcher `main` calling one function per
//!   netlist partition ([`bindings`]), the intermediates handed from call to call, and
//!   the run's own log in the compiler's words ([`log`]);
//! - [`seeds`] — the seeds' reading: the cores' modules merged into one `<base>/sgLnk`,
//!   one dispatcher call per core.
//!
//! Both are the same steps over another grouping, one file each, in the order they are
//! reported: [`module`] `create_module`, [`dispatcher`], [`copy`] `copy_functions`,
//! [`queue_switches`], [`returns`], [`aliases`] (the seeds' alias edges) or
//! [`handoffs`] (the modular flow's), [`output_kinds`] (the seeds'), [`queues`]
//! `merge_queues`, [`barriers`] `renumber_barriers`; for a work directory, [`link_dir`]
//! and [`tensor_map`]. Every step records what it changed as canonical lines before and
//! after (`record::Step`); an error in any step leaves no linked module (the rows
//! computed so far are kept). What a run produced is a [`Linked`], which writes its own
//! report rows.

mod aliases;
mod barriers;
pub mod bindings;
mod copy;
mod dispatcher;
mod handoffs;
pub mod link_dir;
mod linked;
pub mod log;
pub mod modular;
mod module;
mod output_kinds;
mod queue_switches;
mod queues;
mod record;
mod returns;
pub mod seeds;
pub mod tensor_map;

pub use linked::Linked;

use crate::model::pass::Pass;

/// The pass.
pub const PASS: Pass = Pass::BirLinker;
