//! Limits that keep hostile or accidental input from exhausting the stack or memory.

/// Deepest nesting of `Loop` instructions the reader accepts (BL0007). Real BIR nests a
/// handful of loops. Each `Loop` level is four levels of JSON and serde_json stops at
/// 128, so this limit is what real input meets first.
pub const MAX_LOOP_DEPTH: usize = 24;

/// What the browser build lets a link set hold once read (BL0010), checked before a byte
/// of it is parsed, against `read::compact::held_estimate`. wasm32 addresses 4 GiB; what is left is
/// the report, the page's answers and the allocator's slack. Above it the page says so
/// and names the CLI, which has no limit.
pub const WASM_MAX_HELD_BYTES: u64 = 3_600_000_000;

/// The most bytes a host's `load` message may carry (it is refused as `too-large` before
/// anything crosses into the worker): the page holds the host's buffers themselves, so
/// they are bounded as what the worker holds is. Files opened or dropped are judged by
/// what they would hold (an indented set compacts to about a third of its size).
pub const WASM_MAX_INPUT_BYTES: u64 = WASM_MAX_HELD_BYTES;

/// What a link set holds once read, beyond its compact text, per instruction: the
/// model's entities, what uses are recorded, the linked module's, and, for instructions
/// whose keys are not sorted, their sorted copies' allocation. The worst measured in the
/// browser's worker (`docs/benchmarks.md`, 8 × 100k: 146 bytes for the generator's
/// shape, 161 for real-shaped instructions with sorted keys, 236 in a producer's
/// order), rounded up.
pub const HELD_PER_INSTRUCTION: f64 = 240.0;

/// The margin `read::compact::held_estimate` adds to what it estimates.
pub const HELD_MARGIN: f64 = 1.05;

/// How much of each file `read::compact::held_estimate` looks at.
pub const SAMPLE_BYTES: usize = 64 << 10;

/// The most cores a link set may say it has (`--lnc`, `lnc=`, a host's `load`, a
/// bundle's `options.lnc`). Neuron devices link a handful of cores; a number far above
/// it is a typo or hostile, and a number above 2^53 cannot even cross into JavaScript.
pub const MAX_LNC: u64 = 64;

/// The largest link set the browser build reduces (BL0010, with a message naming
/// `birlink reduce`). A reduction holds the link set as a JSON tree (several times its
/// bytes) and runs the whole link once per test; at this size a test takes well under a
/// second in the worker, so Cancel is taken within one.
pub const WASM_MAX_REDUCE_BYTES: u64 = 64_000_000;

/// The largest dump the page's worker reads when comparing passes (`tools::history`):
/// the budget applies per dump, since they are read one at a time; a dump holds its
/// bytes and its module while it is summed up.
pub const WASM_MAX_DUMP_BYTES: u64 = WASM_MAX_HELD_BYTES / 3;
