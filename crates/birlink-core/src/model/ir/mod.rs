//! The BIR module model: entities in arenas, each one its JSON fields plus typed containers.
//!
//! A BIR module is a tree (module → functions → allocations → memory locations, and
//! functions → blocks → instructions, `Loop` instructions nesting blocks; module →
//! queues → queue instances → `DMABlock`s) whose cross-references are name strings
//! (spec §1). The model keeps that shape:
//!
//! * every entity is a [`Fields`] map holding **all** of its JSON keys except its child
//!   containers, which become typed lists of [`Handle`]s into the module's [`Store`];
//! * typed accessors (`name()`, `opcode()`, `addr()`, …) read the fields with the
//!   spec's defaults; the passes write back through setters on the same fields.
//!
//! **Invariant:** no key of the input is ever dropped. Lowering removes only child
//! containers that are arrays; anything with an unexpected shape stays in `fields` and
//! is written back verbatim (`json::write`). The property test `no_input_key_lost`
//! checks this.
//!
//! Every input entity remembers where it came from ([`Src`]: file and JSON pointer), so
//! diagnostics raised after linking still point into the user's file.
//!
//! One file per concern, each using only those before it: [`src`] (where entities came
//! from), [`fields`] (an entity's JSON), [`inst`] (instructions and blocks),
//! [`entities`] (functions, sets, memory locations, queues), [`store`] (the module, its
//! arenas and how they move).

mod entities;
mod fields;
mod inst;
mod src;
mod store;

pub use entities::*;
pub use fields::*;
pub use inst::*;
pub use src::*;
pub use store::*;
