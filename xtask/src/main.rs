//! `cargo xtask`: the repository's chores, in Rust so they run wherever cargo does.
//!
//! * `cargo xtask codegen` — writes what is generated from the code: `docs/diagnostics.md`
//!   (from the code registry) and `www/samples/` (from the generator). The tidy tests
//!   fail until the committed files equal what this writes.
//! * `cargo xtask dist [ARTIFACT…]` — the release into `target/dist/` (see `dist.rs`):
//!   the CLI with the web app inside, the wheel, the npm tarball, the site tarball and
//!   `SHA256SUMS`.
//!
//! The tidy tests themselves (`tidy.rs`) are ordinary `#[test]`s: `cargo test
//! --workspace` runs them with everything else. They police the whole repository, so
//! they live here rather than in any one crate's tests.

#![forbid(unsafe_code)]

mod dist;
#[cfg(test)]
mod imports;
#[cfg(test)]
mod tidy;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `docs/diagnostics.md` as the code registry generates it.
fn diagnostics_reference() -> String {
    birlink_core::diag::docs::markdown_reference()
}

fn codegen() -> Result<(), String> {
    let root = root();
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
    };
    write(&root.join("docs/diagnostics.md"), diagnostics_reference().as_bytes())?;
    let samples = root.join("www/samples");
    std::fs::create_dir_all(&samples).map_err(|e| format!("cannot create `{}`: {e}", samples.display()))?;
    let all = birlink_core::gen::samples::all();
    for (info, bytes) in &all {
        write(&samples.join(&info.file), bytes)?;
    }
    let workdirs = birlink_core::gen::samples::workdirs();
    for (info, files) in &workdirs {
        // Made afresh: a file the generator no longer writes does not linger.
        let folder = samples.join(&info.file);
        if folder.exists() {
            std::fs::remove_dir_all(&folder).map_err(|e| format!("cannot remove `{}`: {e}", folder.display()))?;
        }
        for file in files {
            let path = samples.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("cannot create `{}`: {e}", parent.display()))?;
            }
            write(&path, &file.bytes)?;
        }
    }
    let index = birlink_core::gen::samples::index();
    write(&samples.join("index.json"), birlink_core::output::json::to_pretty_string(&index).as_bytes())?;
    println!(
        "wrote docs/diagnostics.md and {} samples ({} work directories) with their index",
        all.len() + workdirs.len(),
        workdirs.len()
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("codegen") => codegen(),
        Some("dist") => dist::dist(&root(), &args[1..]),
        _ => Err("usage: cargo xtask codegen | cargo xtask dist [cli] [wheel] [npm] [site]".to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
