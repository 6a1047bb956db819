//! Compiler logs through every reading of them (`tools::log`): any text, and the real
//! logs' shape with lines dropped, repeated, cut, spliced or replaced. No panic, the same
//! reading twice, JSON that reads back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|log: birlink_fuzz::LogText| {
    birlink_fuzz::check_log(&log.0);
});
