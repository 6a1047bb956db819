//! One instruction's JSON of any shape, layout and key order, read by the reader as it
//! reads every instruction (`read::json::fast` first) and by the general path alone: the same
//! diagnostics, uses, facts and kept text (`birlink_core::tools::selfcheck::fast_agrees`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|inst: birlink_fuzz::InstText| {
    if let Err(problem) = birlink_core::tools::selfcheck::fast_agrees(&inst.0) {
        panic!("the reading paths disagree: {problem}");
    }
});
