//! Repository hygiene that the tests enforce: generated docs are current, every Rust
//! file opens with a `//!` comment, and the core crate stays pure.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn diagnostics_reference_is_current() {
    let committed = std::fs::read_to_string(root().join("docs/diagnostics.md")).unwrap_or_default();
    assert!(
        committed == birlink_core::codes::markdown_reference(),
        "docs/diagnostics.md is stale: run `birlink explain --markdown > docs/diagnostics.md`"
    );
}

#[test]
fn every_rust_file_starts_with_a_module_comment() {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !matches!(name, "target" | "node_modules" | "dist" | ".git" | "snapshots" | "corpus" | "artifacts") {
                    walk(&path, found);
                }
            } else if name.ends_with(".rs") {
                found.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root(), &mut files);
    assert!(files.len() > 20, "found only {} Rust files", files.len());
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(text.starts_with("//!"), "{} does not start with a `//!` comment", file.display());
    }
}

#[test]
fn core_crate_has_no_io_or_web_dependencies() {
    let manifest = std::fs::read_to_string(root().join("crates/birlink-core/Cargo.toml")).unwrap_or_default();
    let dependencies = manifest.split("[dev-dependencies]").next().unwrap_or("");
    for forbidden in ["wasm-bindgen", "web-sys", "js-sys", "yew", "gloo", "clap", "anyhow"] {
        assert!(!dependencies.contains(forbidden), "birlink-core depends on `{forbidden}`");
    }
    let sources = rust_files(&root().join("crates/birlink-core/src"));
    assert!(sources.len() > 20, "found only {} core sources", sources.len());
    for source in sources {
        let text = std::fs::read_to_string(&source).unwrap_or_default();
        for forbidden in ["std::fs", "std::net", "std::time", "std::env", "println!", "eprintln!", "print!("] {
            assert!(!text.contains(forbidden), "{} uses `{forbidden}`", source.display());
        }
    }
}

#[test]
fn the_page_never_builds_markup_from_text() {
    // Uploaded names reach the DOM as text nodes and attributes only (ARCHITECTURE.md).
    let sources = rust_files(&root().join("src"));
    assert!(sources.len() > 10, "found only {} web sources", sources.len());
    for source in sources {
        let text = std::fs::read_to_string(&source).unwrap_or_default();
        for forbidden in
            ["inner_html", "from_html_unchecked", "insert_adjacent_html", "set_outer_html", "document.write"]
        {
            assert!(!text.contains(forbidden), "{} uses `{forbidden}`", source.display());
        }
    }
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}
