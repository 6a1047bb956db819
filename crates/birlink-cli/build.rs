//! Build-time facts of the `birlink` CLI:
//!
//! * `BIRLINK_COMMIT` — the commit it was built from (`birlink --version`): the
//!   environment's `BIRLINK_COMMIT` when set (a release build from a tarball), else
//!   `git rev-parse --short HEAD`, else `unknown`.
//! * `web_assets.rs` in `OUT_DIR` — the inspector's files, for `birlink open`: every
//!   file of the folder `BIRLINK_WEB_DIST` names (a `trunk build --release` `dist/`;
//!   a relative path is the repository root's, as in a release job's container),
//!   embedded; none when it is unset (a plain `cargo build`, which then says how to get
//!   a build with the web app).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=BIRLINK_COMMIT");
    println!("cargo:rerun-if-env-changed=BIRLINK_WEB_DIST");
    let commit = std::env::var("BIRLINK_COMMIT").ok().filter(|c| !c.is_empty()).or_else(git_commit);
    println!("cargo:rustc-env=BIRLINK_COMMIT={}", commit.as_deref().unwrap_or("unknown"));

    let mut table =
        String::from("/// The inspector's files, by path below `dist/`.\npub static ASSETS: &[(&str, &[u8])] = &[\n");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if let Some(dist) = std::env::var_os("BIRLINK_WEB_DIST").filter(|d| !d.is_empty()).map(|d| root.join(d)) {
        let mut files = Vec::new();
        walk(&dist, &mut files);
        files.sort();
        if !files.iter().any(|f| f.ends_with("index.html")) {
            let _ = writeln!(
                table,
                "compile_error!({:?});",
                format!("BIRLINK_WEB_DIST={} holds no index.html: run `trunk build --release` first", dist.display())
            );
        }
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
            let relative = file.strip_prefix(&dist).unwrap_or(&file).to_string_lossy().replace('\\', "/");
            let _ = writeln!(table, "    ({relative:?}, include_bytes!({:?})),", file.display().to_string());
        }
    }
    table.push_str("];\n");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default()).join("web_assets.rs");
    if let Err(error) = std::fs::write(&out, table) {
        println!("cargo:warning=cannot write {}: {error}", out.display());
    }
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found);
        } else {
            found.push(path);
        }
    }
}

fn git_commit() -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let head = root.join(".git/HEAD");
    if head.exists() {
        println!("cargo:rerun-if-changed={}", head.display());
        if let Ok(text) = std::fs::read_to_string(&head) {
            if let Some(reference) = text.trim().strip_prefix("ref: ") {
                println!("cargo:rerun-if-changed={}", root.join(".git").join(reference).display());
            }
        }
    }
    let output =
        std::process::Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).current_dir(&root).output().ok()?;
    let commit = String::from_utf8(output.stdout).ok()?.trim().to_owned();
    (output.status.success() && !commit.is_empty()).then_some(commit)
}
