//! What the fuzz targets share: turning fuzzer bytes into link sets, and the check.
//!
//! * [`split_files`] — raw bytes as up to six files (split at `0xFF`, a byte no UTF-8
//!   JSON text holds), for `read_bytes`.
//! * [`FuzzSet`] (`set.rs`) — a structured link set (`arbitrary`-derived): modules,
//!   functions, memory locations with remote targets, blocks, every instruction kind the
//!   passes act on, queues with DMA blocks, netlists (the compiler's `PartMap`,
//!   `IntermediateIOs`, `DefMap` too), options; as per-core files, a bundle, or a work
//!   directory's grid (`ncCC/sgKK/…`), in any flow. Names come from a small table so
//!   references collide, resolve and miss the way real ones do. For `link_set`.
//! * [`Mutated`] (`mutate.rs`) — a generated, valid link set in any flow and a list of
//!   edits to its JSON (delete, replace, retype, rename, duplicate, move), for
//!   `mutate_generated`.
//! * [`LogText`] (`log.rs`) — a compiler log: any text, or a real log's shape with lines
//!   dropped, repeated, cut or spliced, for `read_log`.
//! * [`InstText`] (`inst.rs`) — one instruction's JSON of any shape, in any layout and
//!   key order, for `fast_vs_general`.
//!
//! The link-set targets end in [`birlink_core::tools::selfcheck::check_run`];
//! `fast_vs_general` in [`birlink_core::tools::selfcheck::fast_agrees`].

mod inst;
mod log;
mod mutate;
mod set;

pub use inst::InstText;
pub use log::{check_log, LogText};
pub use mutate::{Edit, EditOp, Mutated};
pub use set::{
    FuzzBlock, FuzzDmaBlock, FuzzFunction, FuzzInst, FuzzMemSet, FuzzMemloc, FuzzModule, FuzzNetlist, FuzzPartition,
    FuzzQueue, FuzzSet, SetKind,
};

use arbitrary::{Arbitrary, Result, Unstructured};
use serde_json::{json, Value};

use birlink_core::{LinkOptions, SourceFile};

/// Runs the pipeline and the invariant checks; panics (a finding) when one breaks.
pub fn check(sources: Vec<SourceFile>, options: &LinkOptions) {
    if let Err(problem) = birlink_core::tools::selfcheck::check_run(sources, options) {
        panic!("invariant broken: {problem}");
    }
}

pub use birlink_core::tools::selfcheck::{join_files, split_files};

const NAMES: [&str; 16] = [
    "main",
    "a",
    "b",
    "c_partial_0",
    "c_partial_1",
    "qSyncIO",
    "qRemoteSem",
    "Block1",
    "Block2",
    "entry",
    "x",
    "in",
    "out",
    "q0",
    "def",
    "sg00",
];

/// A name: mostly from [`NAMES`] (so they collide), sometimes any text.
#[derive(Debug, Clone)]
pub struct Name(pub String);

impl<'a> Arbitrary<'a> for Name {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(Name(match u.int_in_range(0u8..=19)? {
            i @ 0..=15 => NAMES[i as usize].to_owned(),
            16 => format!("{}/{}", NAMES[u.choose_index(NAMES.len())?], NAMES[u.choose_index(NAMES.len())?]),
            17 => format!("{}_{}", NAMES[u.choose_index(NAMES.len())?], u.int_in_range(0u8..=3)?),
            _ => String::arbitrary(u)?,
        }))
    }
}

/// A small JSON value of any type, for ids, addresses and unknown keys.
#[derive(Debug, Clone, Arbitrary)]
pub enum Scalar {
    /// A small non-negative integer.
    Small(u8),
    /// Any integer.
    Int(i64),
    /// Any unsigned integer.
    Big(u64),
    /// A float.
    Float(f64),
    /// Text.
    Text(Name),
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// An empty array.
    Array,
    /// An empty object.
    Object,
}

impl Scalar {
    fn value(&self) -> Value {
        match self {
            Scalar::Small(n) => json!(n),
            Scalar::Int(n) => json!(n),
            Scalar::Big(n) => json!(n),
            Scalar::Float(f) => json!(f),
            Scalar::Text(n) => json!(n.0),
            Scalar::Null => Value::Null,
            Scalar::Bool(b) => json!(b),
            Scalar::Array => json!([]),
            Scalar::Object => json!({}),
        }
    }
}
