//! Raw bytes through the whole pipeline: up to six files split at `0xFF` (invalid JSON,
//! invalid UTF-8, truncated dumps, bundles, netlists, anything).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    birlink_fuzz::check(birlink_fuzz::split_files(data), &birlink_core::LinkOptions::default());
});
