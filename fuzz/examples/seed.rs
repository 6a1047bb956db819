//! Seeds `corpus/read_bytes` with small, compact link sets: one per fault code (each
//! code's injected fault, per-core files joined at `0xFF`, and as a bundle), clean sets
//! of several shapes, and the hand-written cases of `crates/birlink-core/tests/data`.
//!
//!     cargo run --example seed            (from `fuzz/`; existing files are kept)

use std::{fs, path::Path};

use birlink_core::gen::{self, GenConfig, Layout};

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    let path = dir.join(name);
    if !path.exists() {
        if let Err(e) = fs::write(&path, bytes) {
            eprintln!("{}: {e}", path.display());
        }
    }
}

fn joined(config: &GenConfig) -> Vec<u8> {
    let files: Vec<Vec<u8>> = gen::generate(config, Layout::Files).into_iter().map(|f| f.bytes).collect();
    birlink_fuzz::join_files(&files)
}

fn main() {
    let dir = Path::new("corpus/read_bytes");
    if let Err(e) = fs::create_dir_all(dir) {
        eprintln!("{}: {e}", dir.display());
        return;
    }
    let small = GenConfig {
        cores: 2,
        insts: 2,
        handoffs: 1,
        remote_dma: 1,
        barriers: 1,
        loop_depth: 1,
        compact: true,
        ..GenConfig::default()
    };
    for code in gen::fault_codes() {
        let config = GenConfig { fault: Some(code), ..small.clone() };
        write(dir, &format!("fault-{}", code.as_str()), &joined(&config));
        let bundle = gen::generate(&config, Layout::Bundle);
        if let Some(file) = bundle.first() {
            write(dir, &format!("fault-{}-bundle", code.as_str()), &file.bytes);
        }
    }
    for (name, config) in [
        ("clean-1core", GenConfig { cores: 1, ..small.clone() }),
        ("clean-3core-ring", GenConfig { cores: 3, ring: true, ..small.clone() }),
        ("clean-2core-netlist", GenConfig { netlist: true, ..small.clone() }),
        ("clean-2core-unknown-keys", GenConfig { unknown_keys: true, ..small.clone() }),
        ("clean-4core-loops", GenConfig { cores: 4, loop_depth: 3, ..small.clone() }),
    ] {
        write(dir, name, &joined(&config));
    }
    let cases = Path::new("../crates/birlink-core/tests/data");
    if let Ok(entries) = fs::read_dir(cases) {
        for entry in entries.flatten() {
            let mut files: Vec<_> = walk(&entry.path());
            files.sort();
            let bytes: Vec<Vec<u8>> = files.iter().filter_map(|f| fs::read(f).ok()).collect();
            write(dir, &format!("case-{}", entry.file_name().to_string_lossy()), &birlink_fuzz::join_files(&bytes));
        }
    }
    println!("seeded {}", dir.display());
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(walk(&path));
            } else if path.extension().is_some_and(|e| e == "json") && !path.ends_with("expected.json") {
                out.push(path);
            }
        }
    }
    out
}
