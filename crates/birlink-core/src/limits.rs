//! Limits that keep hostile or accidental input from exhausting the stack or memory.

/// Deepest nesting of `Loop` instructions the reader accepts (BL0007). Real BIR nests a
/// handful of loops. Each `Loop` level is four levels of JSON and serde_json stops at
/// 128, so this limit is what real input meets first.
pub const MAX_LOOP_DEPTH: usize = 24;

/// Total input size the browser build accepts (BL0010), checked before a byte is read.
/// Linking holds the files' bytes (the common instructions of a compact dump are spans
/// of them, not copies), the model's entities and the report: measured in headless
/// Chromium, the worker's wasm memory is 1.29× the input at its peak (467 MB for the
/// 361 MB 8 × 100k set, see `docs/benchmarks.md`); a pretty dump's instructions are kept
/// as compact copies, a third of its size, so about 1.4×. wasm32 has 4 GiB: 2.6 GB of
/// input is at most about 3.6 GB of memory. Above it the page says so and names the CLI,
/// which has no limit.
pub const WASM_MAX_INPUT_BYTES: u64 = 2_600_000_000;

/// The most cores a link set may say it has (`--lnc`, `lnc=`, a host's `load`, a
/// bundle's `options.lnc`). Neuron devices link a handful of cores; a number far above
/// it is a typo or hostile, and a number above 2^53 cannot even cross into JavaScript.
pub const MAX_LNC: u64 = 64;

/// The largest link set the browser build reduces (BL0010, with a message naming
/// `birlink reduce`). A reduction holds the link set as a JSON tree (several times its
/// bytes) and runs the whole link once per test; at this size a test takes well under a
/// second in the worker, so Cancel is taken within one.
pub const WASM_MAX_REDUCE_BYTES: u64 = 64_000_000;
