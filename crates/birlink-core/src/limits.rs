//! Limits that keep hostile or accidental input from exhausting the stack or memory.

/// Deepest nesting of `Loop` instructions the reader accepts (BL0007). Real BIR nests a
/// handful of loops. Each `Loop` level is four levels of JSON and serde_json stops at
/// 128, so this limit is what real input meets first.
pub const MAX_LOOP_DEPTH: usize = 24;

/// Total input size the browser build accepts (BL0010), checked before a byte is read.
/// Linking holds the documents, the linked module and the exports at once: measured in
/// headless Chromium, the worker's wasm memory is about 2.8× the input (1009 MB for the
/// 361 MB 8 × 100k set, see `docs/benchmarks.md`). wasm32 has 4 GiB, so 1.2 GB of input
/// (about 3.4 GB of memory) leaves room for growth; above it the page says so and names
/// the CLI, which has no limit.
pub const WASM_MAX_INPUT_BYTES: u64 = 1_200_000_000;
