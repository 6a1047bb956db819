//! Structured link sets (`arbitrary`-derived) through the whole pipeline: every
//! instruction kind the passes act on, names that collide and dangle, any core ids,
//! netlists, `--lnc` and `--passes`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|set: birlink_fuzz::FuzzSet| {
    let (files, options) = set.sources();
    birlink_fuzz::check(files, &options);
});
