//! The tight floor of `birlink link` on the same files, for the benchmarks
//! (`tests/perf/cli.mjs`, `docs/benchmarks.md`): read each file, check it is JSON
//! (serde_json into `IgnoredAny`, which builds nothing), write the same bytes into
//! `OUT/`. What any tool that reads and writes these bytes pays, and nothing more.
//!
//!     cargo run --release -p birlink-cli --example floor -- OUT FILE...

use std::path::PathBuf;

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let out = PathBuf::from(args.next().ok_or("usage: floor OUT FILE...")?);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for (i, path) in args.enumerate() {
        let bytes = std::fs::read(&path).map_err(|e| format!("{path}: {e}"))?;
        let _: serde::de::IgnoredAny = serde_json::from_slice(&bytes).map_err(|e| format!("{path}: {e}"))?;
        std::fs::write(out.join(format!("{i}.json")), &bytes).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}
