//! Synthetic SPMD link sets: any number of cores and instructions, with shared-HBM
//! handoffs, remote DMA blocks, barriers, nested loops and unknown keys, optionally with
//! one injected fault per diagnostic code.
//!
//! The shape follows what the seeds say the compiler hands the linker: core 0 owns every
//! shared DRAM tensor (`DRAM_Allocator::mark_remote` leaves the others a view with
//! `allocated: false` and `remote_local_target [name, 0]`, the address already copied
//! by `sync_shared_allocations`); each core has the same functions, blocks, barriers
//! (ids `0..k`) and remote-notifying DMA blocks; a remote DMA block's remote update
//! carries its own core's semaphore id until `vnc_link` relinks it.
//!
//! Deterministic: the same config gives the same bytes (a splitmix64 stream, no clock).
//!
//! Four parts: [`config`] (what to generate, how to lay it out), [`module`] (one
//! core's module), [`faults`] (one injected fault per diagnostic code, an exhaustive
//! `match` over [`Code`], so a new code cannot go without one), [`scenarios`] (failures
//! shaped like the public reports), [`files`] (the documents laid out as files, and the
//! faults that live in the bytes: truncated or non-UTF-8 files, extra files).

mod config;
mod edit;
pub mod faults;
mod files;
pub mod grid;
pub mod log;
pub mod modular_workdir;
mod module;
mod real;
pub mod samples;
mod scenarios;
mod set;
mod short;
mod sync;
pub mod workdir;

pub use config::{GenConfig, IoShape, Layout, Scenario, Shape};
pub use files::{fault_codes, generate, generate_set, write_files};
pub use module::{shared_name, SHARED_BASE, SHARED_STRIDE};
pub use set::{pretty, GenFile, GenSet};
