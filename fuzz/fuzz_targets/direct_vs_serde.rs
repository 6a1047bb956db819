//! Any text read as a document by both readers: straight from its text
//! (`read::json::direct`) and with serde_json driving (`read::json::stream`). Whenever the
//! direct reader reads it, both give the same module, entities, pointers, uses and
//! diagnostics (`birlink_core::tools::selfcheck::direct_agrees`); read for one name
//! alone (`birlink history --no-table`), it gives the entities so named that the whole
//! reading gives (`birlink_core::tools::history::follow_agrees`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Err(problem) = birlink_core::tools::selfcheck::direct_agrees(text) {
        panic!("the document readers disagree: {problem}");
    }
    if let Err(problem) = birlink_core::tools::history::follow_agrees(text) {
        panic!("a name read alone disagrees with the whole reading: {problem}");
    }
});
