//! Valid generated link sets with up to sixteen edits to their JSON (deleted keys,
//! wrong types, renamed references, duplicated entities) through the whole pipeline.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: birlink_fuzz::Mutated| {
    let (files, options) = input.sources();
    birlink_fuzz::check(files, &options);
});
