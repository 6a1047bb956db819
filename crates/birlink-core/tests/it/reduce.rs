//! `birlink_core::tools::reduce`: every failing sample and a generated 2 × 5k link set per
//! fault code shrink to a bundle that fails with the same code in the same pass, is a
//! fixed point, is the same bytes every time, and is no larger than [`MAX_INSTRUCTIONS`]
//! and [`MAX_BYTES`] (the bound `docs/reduce.md` states).

use crate::support::seeds;
use birlink_core::diag::codes::Code;
use birlink_core::diag::Severity;
use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::tools::reduce::{self, ReduceError, ReduceOptions, Reduced};
use birlink_core::tools::share::{LinkSetData, SharedFile};
use birlink_core::{gen::samples, Pass, SourceFile};

/// The stated bound on a reduced link set's instructions.
const MAX_INSTRUCTIONS: usize = 40;
/// The stated bound on a reduced link set's bytes (pretty bundle).
const MAX_BYTES: usize = 40_000;

fn set_of(files: Vec<(String, Vec<u8>)>) -> LinkSetData {
    LinkSetData {
        files: files.into_iter().map(|(name, bytes)| SharedFile { name, bytes }).collect(),
        lnc: None,
        flow: None,
    }
}

/// The codes and passes of a run of the reduced contents.
fn diagnostics_of(reduced: &Reduced) -> Vec<(Code, Pass, Severity)> {
    let name = reduced.form.file_name();
    let source = SourceFile {
        path: name.to_owned(),
        content: birlink_core::Content::Bytes(reduced.contents.clone()),
        role: birlink_core::Role::Auto,
    };
    // The reduced bundle says the flow it was reduced in.
    let outcome = birlink_core::run(vec![source], &birlink_core::LinkOptions::default());
    outcome.report.diagnostics.iter().map(|d| (d.code, d.pass, d.severity)).collect()
}

/// Reduces `set`, then checks the result: same code and pass, within the bound, a fixed
/// point, deterministic. Returns the result for case-specific checks.
fn check(what: &str, set: &LinkSetData, options: &ReduceOptions) -> Reduced {
    let reduced = reduce::reduce(set, options, &mut |_| {}).unwrap_or_else(|e| panic!("{what}: {e}"));
    let target = reduced.target;
    if let Some(code) = options.code {
        assert_eq!(target.code, code, "{what}");
    }
    let found = diagnostics_of(&reduced);
    assert!(
        found.iter().any(|&(code, pass, _)| code == target.code && pass == target.pass),
        "{what}: the reduced set does not report {} in `{}`: {found:?}",
        target.code,
        target.pass
    );
    if target.first_error {
        let first = found.iter().find(|d| d.2 == Severity::Error).map(|d| (d.0, d.1));
        assert_eq!(first, Some((target.code, target.pass)), "{what}: the first error changed");
    }
    assert!(
        reduced.instructions.1 <= MAX_INSTRUCTIONS && reduced.bytes.1 <= MAX_BYTES,
        "{what}: {} instructions, {} bytes is above the bound",
        reduced.instructions.1,
        reduced.bytes.1
    );
    assert!(reduced.bytes.1 <= reduced.bytes.0, "{what}: the reduction grew the set");

    // A fixed point: reducing the result again changes nothing.
    let name = reduced.form.file_name();
    let again = reduce::reduce_file(name, &reduced.contents, &ReduceOptions { lnc: None, ..options.clone() })
        .unwrap_or_else(|e| panic!("{what}: the result does not reduce again: {e}"));
    assert!(
        again.contents == reduced.contents,
        "{what}: reducing again removed more ({} → {} bytes)",
        reduced.bytes.1,
        again.bytes.1
    );
    reduced
}

#[test]
fn every_failing_sample_reduces_to_a_fixed_point_within_the_bound() {
    let mut failing = 0;
    for (info, bytes) in samples::all() {
        let Some(code) = info.code else { continue };
        // Errors reduce toward the first error; warnings and notes with `--code`.
        let options = if code.severity() == Severity::Error {
            ReduceOptions::default()
        } else {
            ReduceOptions { code: Some(code), ..ReduceOptions::default() }
        };
        let set = set_of(vec![(info.file.clone(), bytes)]);
        let reduced = check(&info.file, &set, &options);
        if code.severity() == Severity::Error {
            failing += 1;
            assert!(reduced.target.first_error, "{}", info.file);
        }
        // The same bytes from a second run.
        let twice = reduce::reduce(&set, &options, &mut |_| {}).unwrap();
        assert!(twice.contents == reduced.contents, "{}: two reductions differ", info.file);
    }
    assert!(failing >= 25, "only {failing} failing samples");
}

/// A 2 × 5k link set (two per-core files) with one fault.
fn generated(code: Code) -> LinkSetData {
    let config = GenConfig { insts: 5000, ..samples::fault_config_for(code) };
    let layout = if matches!(code, Code::NotLinked | Code::VncLinkCoreCount | Code::BadPassSelection) {
        Layout::Bundle
    } else {
        Layout::Files
    };
    let mut set = set_of(gen::generate(&config, layout).into_iter().map(|f| (f.path, f.bytes)).collect());
    set.flow = config.link_options().flow;
    set
}

/// The generated link sets of the passes' faults (reading faults are covered by the
/// samples: their 2 × 5k versions are the same failure with more bytes around it).
fn pass_fault(code: Code) -> bool {
    code.info().pass != Pass::Read
}

#[test]
fn generated_two_by_five_thousand_sets_reduce_per_fault_code() {
    let mut measured = Vec::new();
    for code in gen::fault_codes().into_iter().filter(|&c| pass_fault(c)) {
        let set = generated(code);
        let options = ReduceOptions { code: Some(code), ..ReduceOptions::default() };
        let started = std::time::Instant::now();
        let reduced = check(code.as_str(), &set, &options);
        assert!(
            reduced.instructions.0 >= 5_000,
            "{code}: the generated set has {} instructions",
            reduced.instructions.0
        );
        measured.push((code, reduced.instructions, reduced.bytes, reduced.tests, started.elapsed()));
    }
    assert!(measured.len() >= 20, "only {} codes", measured.len());
    for (code, instructions, bytes, tests, took) in measured {
        eprintln!(
            "{code}: {} → {} instructions, {} → {} bytes, {tests} tests, {:.1} s",
            instructions.0,
            instructions.1,
            bytes.0,
            bytes.1,
            took.as_secs_f64()
        );
    }
}

#[test]
fn a_set_that_links_cleanly_is_not_reduced() {
    let (_, bytes) = samples::all().into_iter().find(|(i, _)| i.file == "matmul-2core.json").unwrap();
    let set = set_of(vec![("matmul-2core.json".to_owned(), bytes)]);
    match reduce::reduce(&set, &ReduceOptions::default(), &mut |_| {}) {
        Err(ReduceError::NotFailing(why)) => assert!(why.contains("does not fail"), "{why}"),
        other => panic!("{:?}", other.map(|r| r.target)),
    }
    // Asking for a code it does not report is the same answer.
    let options = ReduceOptions { code: Some(Code::RemoteBlockCountMismatch), ..ReduceOptions::default() };
    match reduce::reduce(&set, &options, &mut |_| {}) {
        Err(ReduceError::NotFailing(why)) => assert!(why.contains("1512"), "{why}"),
        other => panic!("{:?}", other.map(|r| r.target)),
    }
}

/// The bundle of a reduced set.
fn bundle_value(reduced: &Reduced) -> serde_json::Value {
    assert_eq!(reduced.form, reduce::Form::Bundle);
    serde_json::from_slice(&reduced.contents).unwrap()
}

#[test]
fn the_names_the_kept_diagnostic_quotes_are_never_shortened() {
    // The sendrecv sample's 1189 (the compiler's NCC_IXLV002), kept by --code: the repro
    // names the two barriers as the user's log does.
    let (_, bytes) = birlink_core::gen::samples::all()
        .into_iter()
        .find(|(info, _)| info.file == "sendrecv-called-twice.json")
        .unwrap();
    let set = set_of(vec![("sendrecv-called-twice.json".to_owned(), bytes)]);
    let options = ReduceOptions { code: Some(Code::BarrierNameMismatch), ..ReduceOptions::default() };
    let reduced = reduce::reduce(&set, &options, &mut |_| {}).unwrap();
    let outcome = birlink_core::run(
        vec![SourceFile {
            path: "r.json".into(),
            content: birlink_core::Content::Bytes(reduced.contents.clone()),
            role: birlink_core::Role::Auto,
        }],
        &seeds(),
    );
    let kept = outcome.report.diagnostics.iter().find(|d| d.code == Code::BarrierNameMismatch).unwrap();
    assert!(
        kept.message.contains("`CoreBarrier-0_480`") && kept.message.contains("`CoreBarrier-0_180`"),
        "{}",
        kept.message
    );
    assert!(reduced.instructions.1 < reduced.instructions.0);
}

#[test]
fn the_bundle_records_the_lnc_and_names_are_shortened_unless_kept() {
    let set = generated(Code::RemoteMemlocMissing);
    let short = reduce::reduce(&set, &ReduceOptions::default(), &mut |_| {}).unwrap();
    let value = bundle_value(&short);
    assert_eq!(value["options"]["lnc"], 2, "{value}");
    let text = String::from_utf8(short.contents.clone()).unwrap();
    // The generator's hierarchical names are gone unless kept.
    assert!(!text.contains("matmul"), "{text}");

    let kept =
        reduce::reduce(&set, &ReduceOptions { keep_names: true, ..ReduceOptions::default() }, &mut |_| {}).unwrap();
    let kept_text = String::from_utf8(kept.contents.clone()).unwrap();
    assert!(kept_text.len() > text.len());
    // The name 1514 reports is in the bundle verbatim when names are kept.
    let outcome = birlink_core::run(
        vec![SourceFile {
            path: "r.json".into(),
            content: birlink_core::Content::Bytes(kept.contents.clone()),
            role: birlink_core::Role::Auto,
        }],
        &seeds(),
    );
    let missing = outcome.report.diagnostics.iter().find(|d| d.code == Code::RemoteMemlocMissing).unwrap();
    let original = birlink_core::run(
        set.files
            .iter()
            .map(|f| SourceFile {
                path: f.name.clone(),
                content: birlink_core::Content::Bytes(f.bytes.clone()),
                role: birlink_core::Role::Auto,
            })
            .collect(),
        &seeds(),
    );
    // The same failure: one of the original's 1514 messages, word for word.
    let originals: Vec<&str> = original
        .report
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::RemoteMemlocMissing)
        .map(|d| d.message.as_str())
        .collect();
    assert!(originals.contains(&missing.message.as_str()), "{} not in {originals:?}", missing.message);
}

#[test]
fn a_reduction_can_stop_between_tests_and_removes_large_chunks_first() {
    let set = generated(Code::RemoteBlockCountMismatch);
    let mut reduction = reduce::Reduction::new(&set, &ReduceOptions::default()).unwrap();
    let before = reduction.progress();
    // Large chunks first: a few dozen tests remove most of a 2 × 5k set.
    while reduction.progress().instructions * 2 > before.instructions {
        assert!(reduction.step(), "done before removing half");
        let p = reduction.progress();
        assert!(
            p.tests <= 40,
            "{} tests and still {} of {} instructions",
            p.tests,
            p.instructions,
            before.instructions
        );
    }
    assert!(!reduction.is_done());
    // Stopped here, the set as far as it got still fails the same way.
    let partial = reduction.result();
    assert_eq!(partial.tests, reduction.progress().tests);
    let found = diagnostics_of(&partial);
    assert!(found.iter().any(|d| d.0 == Code::RemoteBlockCountMismatch), "{found:?}");
}

#[test]
fn a_set_above_the_bound_is_refused_with_a_code_that_names_the_cli() {
    let (info, bytes) = samples::all().into_iter().find(|(i, _)| i.file == "error-1514.json").unwrap();
    let size = bytes.len() as u64;
    let set = set_of(vec![(info.file, bytes)]);
    let options = ReduceOptions { max_input_bytes: Some(size - 1), ..ReduceOptions::default() };
    let error = reduce::Reduction::new(&set, &options).err().expect("refused");
    assert_eq!(error, ReduceError::TooLarge { bytes: size, max: size - 1 });
    let message = error.to_string();
    assert!(message.starts_with("BL0010:") && message.contains("birlink reduce"), "{message}");
    let options = ReduceOptions { max_input_bytes: Some(size), ..ReduceOptions::default() };
    assert!(reduce::Reduction::new(&set, &options).is_ok(), "at the bound it reduces");
}

#[test]
fn progress_is_kept_as_tests_are_accepted() {
    let (info, bytes) = samples::all().into_iter().find(|(i, _)| i.file == "error-1514.json").unwrap();
    let mut reduction = reduce::Reduction::new(&set_of(vec![(info.file, bytes)]), &ReduceOptions::default()).unwrap();
    let start = reduction.progress();
    assert_eq!(start.level, Some(reduce::Level::Cores));
    let mut last = start.clone();
    while reduction.step() {
        let now = reduction.progress();
        assert!(now.bytes <= last.bytes && now.instructions <= last.instructions, "{last:?} then {now:?}");
        last = now;
    }
    let result = reduction.result();
    assert_eq!(reduction.progress().level, None);
    assert_eq!(last.instructions, result.instructions.1, "the count progress kept is the result's");
}
