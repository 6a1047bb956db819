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
    for (info, files) in samples::workdirs() {
        let mut committed: Vec<String> = Vec::new();
        collect(&dir.join(&info.file), &dir, &mut committed);
        committed.sort();
        let mut generated: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        generated.sort();
        assert_eq!(committed, generated, "www/samples/{}/ holds other files: run `cargo xtask codegen`", info.file);
        for file in files {
            let bytes = std::fs::read(dir.join(&file.path)).unwrap_or_default();
            assert!(
                bytes == file.bytes,
                "www/samples/{} differs from the generator: run `cargo xtask codegen`",
                file.path
            );
        }
    }
    let index = birlink_core::output::json::to_pretty_string(&samples::index());
    let committed = std::fs::read_to_string(dir.join("index.json")).unwrap_or_default();
    assert_eq!(committed, index, "www/samples/index.json is stale: run `cargo xtask codegen`");
}

fn collect(at: &std::path::Path, root: &std::path::Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(at).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, root, out);
        } else if let Ok(relative) = path.strip_prefix(root) {
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn every_work_directory_sample_links_as_its_index_says() {
    for (info, files) in samples::workdirs() {
        // As the index says: the seeds' reading for the seeds' work directories, the
        // compiler's flow as it decides it for the others.
        let outcome = if info.flow == birlink_core::Flow::Seeds {
            crate::workdir::link(files, None)
        } else {
            let (sources, input) =
                birlink_core::read::workdir::split(files.into_iter().map(|f| (f.path, f.bytes)).collect(), None)
                    .expect("a work directory");
            birlink_core::run(sources, &LinkOptions { workdir: Some(input), ..LinkOptions::default() })
        };
        assert_eq!(outcome.report.options.flow, info.flow, "{}", info.file);
        let warnings: Vec<_> = outcome
            .report
            .diagnostics
            .iter()
            .filter(|d| d.severity >= birlink_core::Severity::Warning)
            .map(|d| d.code)
            .collect();
        match info.code {
            None => assert!(warnings.is_empty(), "{}: {warnings:?}", info.file),
            Some(code) => assert_eq!(warnings.first(), Some(&code), "{}", info.file),
        }
        assert!(!info.fails);
        // The flat flow has no bir_linker: no link directory, no merged tensor map.
        let linked = info.flow != birlink_core::Flow::Flat;
        assert_eq!(outcome.report.link_dir.is_some() && outcome.report.tensor_map.is_some(), linked, "{}", info.file);
        let name = info.file.clone();
        insta::assert_snapshot!(format!("{name}.report.json"), birlink_core::report_json(&outcome));
        let maps = birlink_core::tensor_map_files(&outcome);
        assert_eq!(!maps.is_empty(), linked, "{name}");
        for (file, text) in maps {
            insta::assert_snapshot!(format!("{name}.{file}"), text);
        }
        if let Some(log) = birlink_core::bir_linker_log(&outcome) {
            insta::assert_snapshot!(format!("{name}.bir_linker.log"), log);
        }
    }
}

#[test]
fn every_sample_links_as_its_index_says() {
    for (info, bytes) in samples::all() {
        let outcome = birlink_core::run(
            vec![SourceFile {
                path: info.file.clone(),
                content: birlink_core::Content::Bytes(bytes),
                role: birlink_core::Role::Auto,
            }],
            // A sample's bundle says its flow (the seeds' samples ask for it).
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
            vec![SourceFile {
                path: info.file.clone(),
                content: birlink_core::Content::Bytes(bytes),
                role: birlink_core::Role::Auto,
            }],
            // A sample's bundle says its flow (the seeds' samples ask for it).
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
                .map(birlink_core::output::print::set_text)
                .unwrap_or_else(|| "(no linked module)\n".to_owned())
        );
    }
}
