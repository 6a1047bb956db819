//! How two link sets are compared — the core map ([`CompareOptions`]) and how names are
//! read ([`Normalize`]) — and what was masked on the way ([`Normalization`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How names are compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Normalize {
    /// Mask every run of digits in names and canonical text (`CoreBarrier-0_480` and
    /// `CoreBarrier-0_180` both read `CoreBarrier-#_#`): the counters that differ
    /// between ranks and call sites stop counting as differences.
    pub numbers: bool,
}

impl Normalize {
    /// `text` as compared.
    pub fn apply<'t>(&self, text: &'t str) -> std::borrow::Cow<'t, str> {
        if !self.numbers {
            return std::borrow::Cow::Borrowed(text);
        }
        crate::passes::partition::mask_numbers(text)
    }
}

/// How to compare.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompareOptions {
    /// A's core → B's core; a core not listed maps to the same id.
    pub core_map: BTreeMap<u64, u64>,
    /// Name normalization (off by default).
    pub normalize: Normalize,
}

impl CompareOptions {
    /// B's core for A's core `core`.
    pub fn b_core(&self, core: u64) -> u64 {
        self.core_map.get(&core).copied().unwrap_or(core)
    }

    /// A's core for B's core `core`, when one maps to it.
    pub fn a_core(&self, core: u64) -> Option<u64> {
        match self.core_map.iter().find(|(_, &b)| b == core) {
            Some((&a, _)) => Some(a),
            None if self.core_map.contains_key(&core) => None,
            None => Some(core),
        }
    }
}

/// What was masked: a name as written and as compared, a few of each side's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Normalization {
    /// `numbers` when digits were masked.
    pub applied: Vec<String>,
    /// Up to [`Normalization::EXAMPLES`] keys, as written and as compared.
    pub examples: Vec<Masked>,
    /// How many entity keys read differently once normalized.
    pub keys_changed: u64,
}

/// A key as written and as compared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Masked {
    /// As written.
    pub written: String,
    /// As compared.
    pub compared: String,
}

/// Two cores compared: A's and B's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CorePair {
    /// A's core.
    pub a: u64,
    /// B's core.
    pub b: u64,
}

impl Normalization {
    /// How many examples are listed.
    pub const EXAMPLES: usize = 8;
}
