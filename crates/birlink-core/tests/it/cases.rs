//! Hand-written cases under `tests/data/<case>/`, one behaviour of a pass each; the
//! expectation is a snapshot of the run's summary (diagnostics, steps, rows, linked text).

use std::path::Path;

use crate::support::{link, link_as_compiler, read_dir_sources, summary};

#[test]
fn cases() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut dirs: Vec<_> = std::fs::read_dir(&data).expect("tests/data").map(|e| e.expect("entry").path()).collect();
    dirs.sort();
    for dir in dirs.into_iter().filter(|d| d.is_dir()) {
        let name = dir.file_name().expect("name").to_string_lossy().into_owned();
        // `modular-*` and `flat-*` cases are linked as the compiler decides; the others
        // are the seeds' reading's.
        let compiler = name.starts_with("modular-") || name.starts_with("flat-");
        let sources = read_dir_sources(&dir);
        let outcome = if compiler { link_as_compiler(sources) } else { link(sources) };
        insta::assert_snapshot!(format!("case-{name}"), summary(&outcome));
    }
}

#[test]
fn case_folders_exist() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let n = std::fs::read_dir(data).expect("tests/data").count();
    assert!(n >= 7, "expected the hand-written cases, found {n}");
}
