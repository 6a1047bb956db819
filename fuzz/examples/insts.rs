//! Writes the instruction texts the `fast_vs_general` corpus stands for, one JSON string
//! per line, to `regressions/fast_vs_general.jsonl`: the stable test
//! `crates/birlink-core/tests/it/fuzz.rs` replays each through
//! `birlink_core::tools::selfcheck::fast_agrees`, without nightly.
//!
//!     cargo run --example insts

use std::io::Write as _;

use arbitrary::{Arbitrary, Unstructured};

fn main() -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir("corpus/fast_vs_general")?.flatten().map(|e| e.path()).collect();
    entries.sort();
    let mut texts = std::collections::BTreeSet::new();
    for path in entries {
        let data = std::fs::read(&path)?;
        if let Ok(inst) = birlink_fuzz::InstText::arbitrary_take_rest(Unstructured::new(&data)) {
            texts.insert(inst.0);
        }
    }
    let mut out = std::fs::File::create("regressions/fast_vs_general.jsonl")?;
    for text in &texts {
        writeln!(out, "{}", serde_json::to_string(text).unwrap_or_default())?;
    }
    eprintln!("wrote {} instruction texts", texts.len());
    Ok(())
}
