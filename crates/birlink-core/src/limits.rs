//! Limits that keep hostile or accidental input from exhausting the stack or memory.

/// Deepest nesting of `Loop` instructions the reader accepts (BL0007). Real BIR nests a
/// handful of loops. Each `Loop` level is four levels of JSON and serde_json stops at
/// 128, so this limit is what real input meets first.
pub const MAX_LOOP_DEPTH: usize = 24;

/// Total input size the browser build accepts (BL0010). Linking holds the parsed
/// documents, the linked module and the output text at once, about 5× the input (see
/// `docs/benchmarks.md`), and wasm32 has 4 GiB of address space.
pub const WASM_MAX_INPUT_BYTES: u64 = 600_000_000;
