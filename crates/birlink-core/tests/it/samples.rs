//! Every sample of `www/samples/`: the committed files are exactly what
//! `birlink_core::gen::samples` generates, and each sample's `linked.json`, `report.json` and
//! canonical text are snapshotted.

use std::path::PathBuf;

use birlink_core::{gen::samples, LinkOptions, SourceFile};

fn samples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/samples")
}

#[test]
fn committed_samples_are_generated() {
    let dir = samples_dir();
    for (info, bytes) in samples::all() {
        let committed = std::fs::read(dir.join(&info.file)).unwrap_or_default();
        assert!(committed == bytes, "www/samples/{} differs from the generator: run `cargo xtask codegen`", info.file);
    }
    let index = birlink_core::output::json::to_pretty_string(&samples::index());
    let committed = std::fs::read_to_string(dir.join("index.json")).unwrap_or_default();
    assert_eq!(committed, index, "www/samples/index.json is stale: run `cargo xtask codegen`");
}

#[test]
fn every_sample_links_as_its_index_says() {
    for (info, bytes) in samples::all() {
        let outcome = birlink_core::run(
            vec![SourceFile { path: info.file.clone(), content: Ok(bytes), role: birlink_core::Role::Auto }],
            &LinkOptions::default(),
        );
        let worst = outcome.report.diagnostics.iter().map(|d| d.severity).max();
        match &info.code {
            None => assert!(
                worst.is_none_or(|s| s < birlink_core::Severity::Warning),
                "{}: {:?}",
                info.file,
                crate::support::codes(&outcome)
            ),
            Some(code) => {
                let found = outcome.report.diagnostics.iter().find(|d| d.code == *code);
                let found = found
                    .unwrap_or_else(|| panic!("{}: no {code} in {:?}", info.file, crate::support::codes(&outcome)));
                assert_eq!(found.severity.as_str(), info.expect, "{}", info.file);
            }
        }
    }
}

#[test]
fn sample_outputs() {
    for (info, bytes) in samples::all() {
        let name = info.file.trim_end_matches(".json").to_owned();
        let outcome = birlink_core::run(
            vec![SourceFile { path: info.file.clone(), content: Ok(bytes), role: birlink_core::Role::Auto }],
            &LinkOptions::default(),
        );
        insta::assert_snapshot!(format!("{name}.report.json"), birlink_core::report_json(&outcome));
        insta::assert_snapshot!(
            format!("{name}.linked.json"),
            birlink_core::linked_json(&outcome).unwrap_or_else(|| "(no linked module)\n".to_owned())
        );
        insta::assert_snapshot!(
            format!("{name}.linked.txt"),
            outcome
                .linked
                .as_ref()
                .map(birlink_core::output::print::module_text)
                .unwrap_or_else(|| "(no linked module)\n".to_owned())
        );
    }
}
