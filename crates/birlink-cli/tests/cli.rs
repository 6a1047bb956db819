//! The `birlink` binary end to end: exit codes (0 linked, 1 an error diagnostic, 2 bad
//! arguments), the files it writes and removes, and its output on the samples.

// Tests and benchmarks may panic on a broken fixture: that is their failure report.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a broken fixture panics: that is the test failing"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn birlink(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_birlink")).args(args).env("NO_COLOR", "1").output().expect("run birlink")
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/samples")
}

fn sample(name: &str) -> String {
    samples().join(name).to_string_lossy().into_owned()
}

/// A test's scratch folder under the system's temporary folder, removed when the test
/// ends, passed or failed (a run used to leave 2 MB here each time).
struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

fn temp(name: &str) -> Scratch {
    Scratch(tempfile::Builder::new().prefix(&format!("birlink-cli-test-{name}-")).tempdir().expect("temp dir"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn links_the_default_sample() {
    let out = temp("default");
    let run = birlink(&["link", &sample("matmul-2core.json"), "--out", out.to_str().expect("path"), "--text"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(stdout.contains("bir_linker") && stdout.contains("2 calls"), "{stdout}");
    assert!(text(&run.stderr).contains("linked: 0 errors"), "{}", text(&run.stderr));
    for file in ["report.json", "linked.json", "linked.txt"] {
        assert!(out.join(file).exists(), "{file} not written");
    }
    let linked = std::fs::read_to_string(out.join("linked.json")).expect("linked.json");
    assert!(linked.contains("\"name\": \"nc00/sgLnk\""));
    let text_form = std::fs::read_to_string(out.join("linked.txt")).expect("linked.txt");
    assert!(text_form.contains("call_def_1_instance_0 = Call @nc01"));
}

#[test]
fn json_format_prints_the_report() {
    let out = temp("json");
    let run =
        birlink(&["link", &sample("matmul-2core.json"), "--out", out.to_str().expect("path"), "--format", "json"]);
    assert_eq!(run.status.code(), Some(0));
    let written = std::fs::read(out.join("report.json")).expect("report.json");
    assert_eq!(run.stdout, written);
}

#[test]
fn a_vnc_failure_exits_1_and_keeps_the_linked_module() {
    let out = temp("1514");
    let run = birlink(&["link", &sample("error-1514.json"), "--out", out.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains("error[1514]: could not find memory location `c_partial_0_remote_1` on core 0"),
        "{stderr}"
    );
    assert!(stderr.contains("closest names on core 0: `c_partial_0`"), "{stderr}");
    assert!(stderr.contains("link failed in `vnc_remote_addr_map`"), "{stderr}");
    assert!(out.join("linked.json").exists(), "bir_linker succeeded, so linked.json is written");
}

#[test]
fn a_link_failure_removes_a_stale_linked_json() {
    let out = temp("1203");
    std::fs::write(out.join("linked.json"), "stale").expect("write");
    std::fs::write(out.join("linked.txt"), "stale").expect("write");
    let run = birlink(&["link", &sample("error-1203.json"), "--out", out.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("error[1203]"));
    assert!(out.join("report.json").exists());
    assert!(!out.join("linked.json").exists(), "stale linked.json survived");
    assert!(!out.join("linked.txt").exists(), "stale linked.txt survived");
}

#[test]
fn a_missing_input_is_a_diagnostic_not_a_crash() {
    let out = temp("missing");
    let run = birlink(&["link", "no/such/nc00.json", "--out", out.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("error[BL0001]: cannot read `no/such/nc00.json`: no such file or directory"), "{stderr}");
}

#[test]
fn bad_arguments_exit_2() {
    assert_eq!(birlink(&["link", "x.json", "--lnc", "two"]).status.code(), Some(2));
    assert_eq!(birlink(&["link"]).status.code(), Some(2));
    assert_eq!(birlink(&["explain", "9999"]).status.code(), Some(2));
    assert_eq!(birlink(&["gen", "--out", "/tmp/x", "--fault", "nope"]).status.code(), Some(2));
}

#[test]
fn generated_files_link_and_twice_give_the_same_bytes() {
    let dir = temp("gen");
    let set = dir.join("set");
    let run = birlink(&[
        "gen",
        "--cores",
        "4",
        "--insts",
        "300",
        "--ring",
        "--unknown-keys",
        "--out",
        set.to_str().expect("path"),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let mut outputs = Vec::new();
    for name in ["a", "b"] {
        let out = dir.join(name);
        let run = birlink(&["link", set.to_str().expect("path"), "--out", out.to_str().expect("path")]);
        assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
        outputs.push((
            std::fs::read(out.join("report.json")).expect("report"),
            std::fs::read(out.join("linked.json")).expect("linked"),
        ));
    }
    assert!(outputs[0] == outputs[1], "two runs differ");
}

#[test]
fn a_diagnostic_about_an_instruction_names_its_kernel_line() {
    // Real-shaped instructions carry `debug.filename` and `lineno`; a renamed CoreBarrier
    // (1189, NCC_IXLV002) is a diagnostic about an instruction.
    let dir = temp("source");
    let set = dir.join("set");
    let run = birlink(&["gen", "--shape", "real", "--fault", "1189", "--out", set.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let out = dir.join("out");
    let run = birlink(&["link", set.to_str().expect("path"), "--out", out.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("report.json")).expect("report")).expect("report json");
    let diagnostic = report["diagnostics"]
        .as_array()
        .expect("diagnostics")
        .iter()
        .find(|d| d["code"] == "1189")
        .expect("a 1189 diagnostic");
    let source = diagnostic["source"].as_str().expect("the diagnostic's source");
    let (file, line) = source.rsplit_once(':').expect("file:line");
    assert!(file.ends_with(".py") && line.parse::<u64>().is_ok(), "{source}");
    let printed = text(&run.stderr);
    let at = printed.find("warning[1189]").expect("the warning printed");
    let block = printed[at..].split("\n\n").next().unwrap_or_default();
    let shown = block.lines().find(|l| l.trim_start().starts_with("= source:")).expect("a source line");
    assert_eq!(shown.trim_start(), format!("= source: {source}"), "{printed}");
}

#[test]
fn a_folder_of_nc_sg_files_links() {
    let dir = temp("folder");
    for core in 0..2 {
        let sub = dir.join(format!("dump/nc{core:02}/sg00"));
        std::fs::create_dir_all(&sub).expect("mkdir");
        let module = format!(
            r#"{{"attributes": {{"neuron_core_id": {core}}}, "functions": [{{"name": "sg0000", "blocks": [{{"name": "Block1", "instructions": []}}]}}]}}"#
        );
        std::fs::write(sub.join("bir.json"), module).expect("write");
    }
    let out = dir.join("out");
    let dump = dir.join("dump");
    // As the compiler links it: one subgraph per core, the flat flow, no bir_linker;
    // linked.json is the two per-core modules, a bundle.
    let run = birlink(&["link", dump.to_str().expect("path"), "--out", out.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let linked: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("linked.json")).expect("linked")).expect("json");
    assert_eq!(linked["modules"].as_array().map(Vec::len), Some(2), "{linked}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report")).expect("json");
    assert_eq!(
        (report["options"]["flow"].as_str(), report["options"]["flow_source"].as_str()),
        (Some("flat"), Some("single"))
    );
    assert!(report["passes"].as_array().expect("passes").iter().all(|p| p["name"] != "bir_linker"));
    // In the seeds' reading, the cores merged into one module.
    let run = birlink(&["link", dump.to_str().expect("path"), "--out", out.to_str().expect("path"), "--flow", "seeds"]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let linked = std::fs::read_to_string(out.join("linked.json")).expect("linked");
    assert!(linked.contains("\"target\": \"nc01\""));
    assert!(!out.join("bir_linker.log").exists(), "the seeds' reading writes no compiler log; a stale one is removed");
}

#[test]
fn the_vnc_passes_rerun_on_linked_json() {
    let out = temp("rerun");
    let first = birlink(&["link", &sample("matmul-2core.json"), "--out", out.to_str().expect("path")]);
    assert_eq!(first.status.code(), Some(0));
    let again = out.join("again");
    let linked = out.join("linked.json");
    let run = birlink(&[
        "link",
        linked.to_str().expect("path"),
        "--passes",
        "vnc_remote_addr_map,vnc_link",
        "--out",
        again.to_str().expect("path"),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(std::fs::read(&linked).expect("first"), std::fs::read(again.join("linked.json")).expect("again"));
    // Linking a linked module again is refused with a clear code.
    let run = birlink(&["link", linked.to_str().expect("path"), "--out", again.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("error[BL0308]"), "{}", text(&run.stderr));
}

#[test]
fn explain_and_print() {
    let run = birlink(&["explain", "1514"]);
    assert_eq!(run.status.code(), Some(0));
    assert!(text(&run.stdout).contains("remote_mloc != nullptr"));
    let run = birlink(&["print", &sample("matmul-2core.json")]);
    assert_eq!(run.status.code(), Some(0));
    assert!(text(&run.stdout).contains("; nc01 ("));
}

#[test]
fn every_sample_exits_as_its_index_says() {
    let index: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(samples().join("index.json")).expect("index.json"))
            .expect("json");
    let entries = index.as_array().expect("array");
    assert!(entries.len() > 40);
    let out = temp("every-sample");
    for entry in entries {
        let file = entry["file"].as_str().expect("file");
        let fails = entry["fails"].as_bool().expect("fails");
        // A work directory's sample says its flow in the index (a bundle says it itself).
        let flow = entry["flow"].as_str().expect("flow");
        let run = birlink(&["link", &sample(file), "--out", out.to_str().expect("path"), "--flow", flow]);
        let want = if fails { 1 } else { 0 };
        assert_eq!(run.status.code(), Some(want), "{file}: {}", text(&run.stderr));
        if let Some(code) = entry["code"].as_str() {
            assert!(text(&run.stderr).contains(&format!("[{code}]")), "{file} does not report {code}");
        }
    }
}

#[test]
fn quiet_prints_the_errors_and_the_verdict_only() {
    let out = temp("quiet");
    let path = out.to_str().expect("path");
    // error-1514 reports a warning (BL0301, in the linker) before its error.
    let loud = birlink(&["link", &sample("error-1514.json"), "--out", path]);
    assert!(text(&loud.stderr).contains("warning[BL0301]"), "{}", text(&loud.stderr));
    let quiet = birlink(&["link", &sample("error-1514.json"), "--out", path, "--quiet"]);
    assert_eq!(quiet.status.code(), Some(1));
    assert!(quiet.stdout.is_empty(), "no summary: {}", text(&quiet.stdout));
    let stderr = text(&quiet.stderr);
    assert!(stderr.contains("error[1514]"), "{stderr}");
    assert!(!stderr.contains("warning["), "no warnings: {stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: link failed in `vnc_remote_addr_map`: 1 error"), "the verdict is last: {last}");
    // A clean link prints the verdict line and nothing else.
    let clean = birlink(&["link", &sample("matmul-2core.json"), "--out", path, "--quiet"]);
    assert_eq!(clean.status.code(), Some(0));
    assert!(clean.stdout.is_empty());
    assert_eq!(text(&clean.stderr).lines().collect::<Vec<_>>(), vec!["linked: 0 errors, 0 warnings, 0 notes"]);
}

#[test]
fn print_renders_diagnostics_like_link() {
    let out = temp("print");
    let bad = out.join("nc00.json");
    std::fs::write(&bad, "{\n  \"functions\": [\n    {\"name\": 5}\n  ]\n}\n").expect("write");
    let run = birlink(&["print", bad.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("error[BL0003]: `name` of function without a name must be a string"), "{stderr}");
    assert!(stderr.contains("nc00.json:3:14  /functions/0/name"), "a location with line and column: {stderr}");
    assert!(stderr.contains("= help:"), "{stderr}");
}

#[test]
fn gen_defaults_are_the_librarys() {
    let run = birlink(&["gen", "--help"]);
    let help = text(&run.stdout);
    let defaults = birlink_core_defaults();
    for (flag, value) in defaults {
        let line = help.lines().skip_while(|l| !l.contains(flag)).take(3).collect::<Vec<_>>().join(" ");
        assert!(line.contains(&format!("[default: {value}]")), "{flag}: {line}");
    }
}

fn birlink_core_defaults() -> Vec<(&'static str, String)> {
    let config = birlink_core::gen::GenConfig::default();
    vec![
        ("--cores", config.cores.to_string()),
        ("--insts", config.insts.to_string()),
        ("--handoffs", config.handoffs.to_string()),
        ("--remote-dma", config.remote_dma.to_string()),
        ("--barriers", config.barriers.to_string()),
        ("--loops", config.loop_depth.to_string()),
        ("--seed", config.seed.to_string()),
    ]
}

#[test]
fn a_bad_pass_selection_has_its_own_code() {
    let out = temp("passes");
    let run = birlink(&[
        "link",
        &sample("matmul-2core.json"),
        "--out",
        out.to_str().expect("path"),
        "--passes",
        "verify,vnc_link",
    ]);
    assert_eq!(run.status.code(), Some(1));
    assert!(text(&run.stderr).contains("error[BL0012]: pass selection [verify, vnc_link]"), "{}", text(&run.stderr));
}

#[test]
fn share_names_files_as_the_browser_does_and_the_link_reads_back() {
    let out = temp("share");
    let dump = out.join("dump");
    let run = birlink(&["gen", "--out", dump.join("nc01-stuff").to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(0));
    let link =
        birlink(&["share", dump.to_str().expect("path"), "--base", "https://example.org/b/", "--view", "barriers"]);
    assert_eq!(link.status.code(), Some(0), "{}", text(&link.stderr));
    let link = text(&link.stdout).trim().to_owned();
    assert!(link.starts_with("https://example.org/b/#view=barriers&data=v1."), "{link}");
    let data = link.split("data=").nth(1).expect("data");
    let set = birlink_core::tools::share::data::decode(data).expect("reads back");
    let names: Vec<&str> = set.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["dump/nc01-stuff/nc00.json", "dump/nc01-stuff/nc01.json"], "the folder's name first");
    // A file is named by its file name; a bad view is a bad argument.
    let one = birlink(&["share", &sample("matmul-2core.json")]);
    let data = text(&one.stdout).trim().split("data=").nth(1).expect("data").to_owned();
    assert_eq!(birlink_core::tools::share::data::decode(&data).expect("reads").files[0].name, "matmul-2core.json");
    assert_eq!(birlink(&["share", &sample("matmul-2core.json"), "--view", "graph"]).status.code(), Some(2));
}

#[test]
fn explain_takes_the_compilers_codes_in_any_case() {
    for (asked, ours) in [
        ("NCC_ILLC059", "BL0207"),
        ("illc059", "BL0207"),
        ("ncc_ixlv002", "1189"),
        ("IXLV002", "1189"),
        ("allEqual", "1512"),
        ("modules.size() == options.vnc_nc_count", "1513"),
    ] {
        let run = birlink(&["explain", asked]);
        assert_eq!(run.status.code(), Some(0), "{asked}: {}", text(&run.stderr));
        let stdout = text(&run.stdout);
        assert!(stdout.contains(&format!("birlink reports it as {ours}")), "{asked}: {stdout}");
        assert!(stdout.contains("Fix: "), "{asked} explains the fix: {stdout}");
    }
    let outside = birlink(&["explain", "NCC_IBIR440"]);
    assert_eq!(outside.status.code(), Some(0));
    assert!(text(&outside.stdout).contains("birlink does not reproduce this failure"));
    let unknown = birlink(&["explain", "NCC_XYZ999"]);
    assert_eq!(unknown.status.code(), Some(2), "an unknown code is a bad argument");
    assert!(text(&unknown.stderr).contains("unknown code `NCC_XYZ999`"), "{}", text(&unknown.stderr));
}

#[test]
fn explain_log_names_the_entity_in_the_link_set() {
    let out = temp("explain-log");
    let log = out.join("neuronx-cc.log");
    std::fs::write(
        &log,
        "2026-01-01 INFO starting\n\
         [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named c_partial_0_remote_1 on core 0\n",
    )
    .expect("write");
    // Without a link set: the explanation and how to dump the per-core modules.
    let alone = birlink(&["explain", "--log", log.to_str().expect("path")]);
    assert_eq!(alone.status.code(), Some(0), "{}", text(&alone.stderr));
    let stdout = text(&alone.stdout);
    assert!(stdout.contains("line 2: "), "{stdout}");
    assert!(stdout.contains("NCC_ILLC059 (raised by lower_local_collectives, per subgraph across the cores, before bir_linker) is birlink's BL0207 in `verify`"), "{stdout}");
    assert!(stdout.contains("`c_partial_0_remote_1`"), "{stdout}");
    assert!(stdout.contains("finds these names in them"), "says how to go on: {stdout}");
    // With the link set: the name is found nowhere, its nearest is named, and the link's
    // own 1514 is quoted.
    let with = birlink(&["explain", "--log", log.to_str().expect("path"), &sample("error-1514.json")]);
    assert_eq!(with.status.code(), Some(0), "{}", text(&with.stderr));
    let stdout = text(&with.stdout);
    assert!(stdout.contains("in no module of the link set; nearest: `c_partial_0`"), "{stdout}");
    assert!(stdout.contains("the link reports it: error[1514]"), "{stdout}");
    // A log with no line birlink knows exits 1.
    std::fs::write(&log, "all good\n").expect("write");
    let none = birlink(&["explain", "--log", log.to_str().expect("path")]);
    assert_eq!(none.status.code(), Some(1));
}

#[test]
fn reduce_exits_by_outcome() {
    let out = temp("reduce");
    let bundle = out.join("reduced.json");
    let bundle_path = bundle.to_str().expect("path");
    let run = birlink(&["reduce", &sample("error-1514.json"), "--out", bundle_path]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(text(&run.stdout).starts_with("kept 1514 in `vnc_remote_addr_map`"), "{}", text(&run.stdout));
    // The bundle fails the same way when linked.
    let linked = birlink(&["link", bundle_path, "--out", out.join("linked").to_str().expect("path")]);
    assert_eq!(linked.status.code(), Some(1));
    assert!(text(&linked.stderr).contains("error[1514]"), "{}", text(&linked.stderr));
    // A link set that links is not reduced: exit 1 with a clear message.
    let clean = birlink(&["reduce", &sample("matmul-2core.json"), "--out", bundle_path]);
    assert_eq!(clean.status.code(), Some(1));
    assert!(text(&clean.stderr).contains("does not fail"), "{}", text(&clean.stderr));
    // Bad arguments exit 2.
    let no_out = birlink(&["reduce", &sample("error-1514.json")]);
    assert_eq!(no_out.status.code(), Some(2));
    let bad_code = birlink(&["reduce", &sample("error-1514.json"), "--out", bundle_path, "--code", "NCC_NOPE"]);
    assert_eq!(bad_code.status.code(), Some(2));
    assert!(text(&bad_code.stderr).contains("is not a code birlink reports"), "{}", text(&bad_code.stderr));
}

#[test]
fn repeated_findings_are_counted_past_ten_of_a_code() {
    let out = temp("repeated");
    let bad = out.join("nc00.json");
    // One line, as real dumps are, with the same fault 30 times.
    let functions: Vec<String> = (0..30).map(|_| "{\"name\": 5}".to_owned()).collect();
    std::fs::write(&bad, format!("{{\"functions\": [{}]}}", functions.join(", "))).expect("write");
    let run = birlink(&["print", bad.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(1));
    let stderr = text(&run.stderr);
    assert_eq!(stderr.matches("error[BL0003]:").count(), 10, "{stderr}");
    assert!(stderr.contains("... 20 more error[BL0003] like these"), "{stderr}");
    // The source line is shown around the column, not from the line's start.
    assert!(stderr.contains("/functions/9/name"), "{stderr}");
    let caret_lines: Vec<&str> = stderr.lines().filter(|l| l.trim_start().starts_with("1 | …")).collect();
    assert!(!caret_lines.is_empty(), "a long line is shown as a window: {stderr}");
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // `birlink print … | head -1`: the reader goes away after one line.
    use std::io::{BufRead, BufReader};
    // Far more than a pipe holds (64 KiB), so writing goes on after the reader is gone.
    let dir = temp("closed-pipe");
    let gen = birlink(&["gen", "--cores", "2", "--insts", "20000", "--out", dir.to_str().expect("path")]);
    assert_eq!(gen.status.code(), Some(0), "{}", text(&gen.stderr));
    let mut child = Command::new(env!("CARGO_BIN_EXE_birlink"))
        .args(["print", dir.to_str().expect("path")])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run birlink");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut first).expect("a line");
    assert!(!first.is_empty());
    let output = child.wait_with_output().expect("birlink ends");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(!text(&output.stderr).contains("panicked"), "{}", text(&output.stderr));
}

#[cfg(unix)]
#[test]
fn a_folder_that_links_to_itself_is_walked_once() {
    let dir = temp("symlink-loop");
    std::fs::copy(samples().join("matmul-2core.json"), dir.join("linkset.json")).expect("copy");
    std::os::unix::fs::symlink(&dir, dir.join("again")).expect("a link to the folder itself");
    std::os::unix::fs::symlink(dir.join("linkset.json"), dir.join("same.json")).expect("a link to a file");
    let out = temp("symlink-loop-out");
    let run = birlink(&["link", dir.to_str().expect("path"), "--quiet", "--out", out.to_str().expect("path")]);
    let stderr = text(&run.stderr);
    // The file and the link to it are read (two bundles of the same modules), the
    // folder's link to itself is not entered.
    assert!(!stderr.contains("again"), "{stderr}");
    assert!(run.status.code().is_some(), "{stderr}");
}

#[test]
fn an_lnc_past_any_device_is_a_bad_argument() {
    let run = birlink(&["link", &sample("matmul-2core.json"), "--lnc", "9007199254740993"]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("1..=64"), "{}", text(&run.stderr));
}

/// A two-core work directory as neuronx-cc leaves it: two dumped passes per core, the
/// backend's other files, an earlier link's `sgLnk/`, the compile command.
fn work_directory(name: &str) -> (Scratch, PathBuf) {
    let dir = temp(name);
    let gen = dir.join("gen");
    let run = birlink(&["gen", "--cores", "2", "--out", gen.to_str().expect("path")]);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let work = dir.join("work");
    std::fs::create_dir_all(&work).expect("mkdir");
    std::fs::write(work.join("command.txt"), "neuronx-cc compile --framework XLA model.hlo --output model.neff\n")
        .expect("write");
    for core in 0..2 {
        let sg = work.join(format!("nc{core:02}/sg00"));
        std::fs::create_dir_all(sg.join("sgLnk")).expect("mkdir");
        let module = std::fs::read(gen.join(format!("nc{core:02}.json"))).expect("read");
        std::fs::write(sg.join("bir_debug.11.after-lower_dma.before-lower_sync.penguin.json"), &module).expect("write");
        std::fs::write(sg.join("bir_debug.12.after-lower_sync.before-lower_act.penguin.json"), &module).expect("write");
        for other in ["def.json", "tensor_map.json", "PE.json", "kelf-0.json", "sgLnk/def.json"] {
            std::fs::write(sg.join(other), "{\"not\": \"bir\"}").expect("write");
        }
        std::fs::write(sg.join("PE.bin"), [0u8, 1, 2]).expect("write");
    }
    (dir, work)
}

#[test]
fn a_work_directory_links_its_lower_sync_dumps_and_says_what_it_set_aside() {
    let (dir, work) = work_directory("workdir");
    let out = dir.join("out");
    let run = birlink(&["link", work.to_str().expect("path"), "--out", out.to_str().expect("path"), "--flow", "seeds"]);
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("subgraph sg00, the link's input (after `lower_sync`) (dumped: lower_dma, lower_sync)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("core 1: `nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json`"),
        "{stderr}"
    );
    assert!(
        stderr.contains("set aside 15 files: 2 dumps of other passes, 2 tensor maps, 8 backend artifacts, 2 files of an earlier link (`sgLnk/`), 1 compile command"),
        "{stderr}"
    );
    // The placeholder tensor maps are read by the link's last step, and said unreadable.
    assert!(stderr.contains("linked: 0 errors, 2 warnings"), "{stderr}");
    assert!(stderr.contains("warning[BL0309]: cannot read the tensor map"), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).expect("report")).expect("json");
    let inputs: Vec<&str> = report["inputs"].as_array().unwrap().iter().filter_map(|r| r["file"].as_str()).collect();
    assert!(
        inputs.len() == 2 && inputs.iter().all(|f| f.contains("after-lower_sync")),
        "nothing but the two dumps read: {inputs:?}"
    );
    assert!(!report.to_string().contains("BL0005"));
    assert_eq!(report["options"]["lnc"], 2, "{report}");

    // Another pass on request; a pass nobody dumped names the cores and how to dump it.
    let run = birlink(&[
        "link",
        work.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        "--flow",
        "seeds",
        "--after",
        "lower_dma",
    ]);
    assert_eq!(run.status.code(), Some(0));
    assert!(text(&run.stderr).contains("after-lower_dma.before-lower_sync.penguin.json` (after `lower_dma`, as asked)"));
    let run = birlink(&[
        "link",
        work.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        "--flow",
        "seeds",
        "--after",
        "lower_act",
    ]);
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("core 0: no dump after `lower_act`: re-run the compile command in `command.txt` with `--internal-print-after=lower_act "), "{stderr}");
    // Quiet says nothing of it.
    let run = birlink(&[
        "link",
        work.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        "--flow",
        "seeds",
        "--quiet",
    ]);
    assert!(!text(&run.stderr).contains("work directory"));
}

#[test]
fn a_core_missing_its_dump_is_a_missing_core_not_a_smaller_link() {
    let (dir, work) = work_directory("workdir-missing");
    std::fs::remove_file(work.join("nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json"))
        .expect("rm");
    let out = dir.join("out");
    let run = birlink(&["link", work.to_str().expect("path"), "--out", out.to_str().expect("path"), "--flow", "seeds"]);
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("core 1: no dump after `lower_sync`"), "{stderr}");
    assert!(text(&run.stdout).contains("1 module, lnc 2"), "the folders say two cores: {}", text(&run.stdout));
}

/// A copy of a work-directory sample, to make its link directory from.
fn sample_workdir(name: &str, sample: &str) -> (Scratch, PathBuf) {
    let dir = temp(name);
    let work = dir.join("work");
    copy_tree(&samples().join(sample), &work);
    (dir, work)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(entry.file_name()));
        } else {
            std::fs::copy(&path, to.join(entry.file_name())).expect("copy");
        }
    }
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .flatten()
        .map(|e| e.path().strip_prefix(dir).expect("inside").to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

#[test]
fn link_dir_makes_sg_lnk_from_a_work_directory_and_a_second_run_changes_nothing() {
    let (dir, work) = sample_workdir("link-dir", "workdir-2core");
    let link_dir = dir.join("sgLnk");
    let out = dir.join("out");
    let before = files_under(&work);
    let args = [
        "link",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--flow",
        "seeds",
        "--link-dir",
        link_dir.to_str().unwrap(),
    ];
    let run = birlink(&args);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    let stderr = text(&run.stderr);
    assert!(stderr.contains("6 symbolic links, 1 copy, 1 written; 8 made, 0 already there"), "{stderr}");
    // Symbolic links to the cores' files, a copy of the CPU-node file, the merged map.
    let weights = link_dir.join("weights_nc01.npy");
    assert!(std::fs::symlink_metadata(&weights).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_link(&weights).unwrap(), work.join("nc01/sg00/weights_nc01.npy").canonicalize().unwrap());
    let copy = link_dir.join("cpu_node_0/host_graph.json");
    assert!(std::fs::symlink_metadata(&copy).unwrap().file_type().is_file());
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(work.join("nc00/sg00/cpu_node_0/host_graph.json")).unwrap()
    );
    let merged = std::fs::read_to_string(link_dir.join("tensor-map.json")).unwrap();
    assert_eq!(merged, std::fs::read_to_string(out.join("tensor-map.json")).unwrap());
    assert!(serde_json::from_str::<serde_json::Value>(&merged).unwrap()["nc01"].is_object());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap()).unwrap();
    assert_eq!(report["link_dir"]["entries"].as_array().map(Vec::len), Some(8));
    // Nothing else was written: the work directory is as it was, the link directory holds the plan.
    assert_eq!(files_under(&work), before);
    assert_eq!(
        files_under(&link_dir),
        [
            "cpu_node_0",
            "cpu_node_0/host_graph.json",
            "custom_op",
            "custom_op/libtopk.so",
            "debug_info_nc00.json",
            "debug_info_nc01.json",
            "shared_constants.npy",
            "tensor-map.json",
            "weights_nc00.npy",
            "weights_nc01.npy"
        ]
    );
    let again = birlink(&args);
    assert_eq!(again.status.code(), Some(0));
    assert!(text(&again.stderr).contains("0 made, 8 already there"), "{}", text(&again.stderr));
}

/// The modular flow: `--link-dir DIR` stands for the work directory and gets each core's
/// `ncCC/sgLnk/` (docs/spec/link.md §3.6); `--link-dir` the work directory itself makes
/// them where the compiler does. Each core's merged map is the output folder's
/// `tensor_map.ncCC.json`; an earlier run's `tensor-map.json` is removed.
#[test]
fn link_dir_makes_each_cores_sg_lnk_in_the_modular_flow() {
    let (dir, work) = sample_workdir("link-dir-modular", "workdir-moe");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("tensor-map.json"), "{}").unwrap();
    let args = ["link", work.to_str().unwrap(), "--out", out.to_str().unwrap(), "--link-dir", work.to_str().unwrap()];
    let run = birlink(&args);
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("12 symbolic links, 0 copies, 2 written; 14 made, 0 already there"), "{stderr}");
    assert!(stderr.contains("bir_linker's input (each subgraph's latest dump before the link)"), "{stderr}");
    assert!(!out.join("tensor-map.json").exists(), "the stale merged map is removed");
    for core in ["nc00", "nc01"] {
        let link = work.join(core).join("sgLnk");
        let weights = link.join("sg00/weights_sg02.npy");
        assert!(std::fs::symlink_metadata(&weights).unwrap().file_type().is_symlink());
        assert_eq!(
            std::fs::read_link(&weights).unwrap(),
            work.join(core).join("sg02/weights_sg02.npy").canonicalize().unwrap()
        );
        assert!(std::fs::symlink_metadata(link.join("libtopk_custom_op.so")).unwrap().file_type().is_symlink());
        let written = std::fs::read_to_string(link.join("sg00/tensor_map.json")).unwrap();
        assert_eq!(written, std::fs::read_to_string(out.join(format!("tensor_map.{core}.json"))).unwrap());
        let map: serde_json::Value = serde_json::from_str(&written).unwrap();
        let functions: Vec<&String> = map.as_object().unwrap().keys().collect();
        assert_eq!(functions, ["sg0000", "sg0001", "sg0002"]);
    }
    let log = std::fs::read_to_string(out.join("bir_linker.log")).unwrap();
    let sg_lnk = work.join("nc01/sgLnk");
    assert!(
        log.contains(&format!(
            "(nc01/sgLnk) [BirLinker]: Writing updated tensor_map {}/sg00/tensor_map.json\n",
            sg_lnk.display()
        )),
        "{log}"
    );
    // The link directory made inside the work directory is not read back as an input.
    let again = birlink(&args);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert!(text(&again.stderr).contains("0 made, 14 already there"), "{}", text(&again.stderr));
}

#[test]
fn link_dir_never_writes_outside_its_folder() {
    let (dir, work) = sample_workdir("link-dir-outside", "workdir-2core");
    let link_dir = dir.join("sgLnk");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&link_dir).unwrap();
    std::fs::write(outside.join("victim.json"), "keep me").unwrap();
    // A symbolic link where the merged map goes, pointing outside: replaced, not written through.
    std::os::unix::fs::symlink(outside.join("victim.json"), link_dir.join("tensor-map.json")).unwrap();
    let out = dir.join("out");
    let args = [
        "link",
        work.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--flow",
        "seeds",
        "--link-dir",
        link_dir.to_str().unwrap(),
    ];
    let run = birlink(&args);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert_eq!(std::fs::read_to_string(outside.join("victim.json")).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(link_dir.join("tensor-map.json")).unwrap().file_type().is_file());
    // A folder on the way that is a symbolic link to elsewhere: refused, exit 2, nothing written there.
    std::fs::remove_dir_all(link_dir.join("cpu_node_0")).unwrap();
    std::os::unix::fs::symlink(&outside, link_dir.join("cpu_node_0")).unwrap();
    let run = birlink(&args);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("refusing"), "{}", text(&run.stderr));
    assert_eq!(files_under(&outside), ["victim.json"]);
}

#[test]
fn link_dir_needs_a_work_directory() {
    let out = temp("link-dir-none");
    let run = birlink(&[
        "link",
        &sample("matmul-2core.json"),
        "--out",
        out.to_str().unwrap(),
        "--link-dir",
        out.join("l").to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("--link-dir needs one compiler work directory"), "{}", text(&run.stderr));
    assert!(!out.join("l").exists());
}

#[test]
fn diff_exits_as_diff_does_and_prints_the_comparison() {
    let same = birlink(&["diff", &sample("matmul-2core.json"), "--against", &sample("matmul-2core.json")]);
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
    assert!(text(&same.stdout).starts_with("the two link sets agree"), "{}", text(&same.stdout));

    let differ = birlink(&["diff", &sample("matmul-2core.json"), "--against", &sample("error-1514.json")]);
    assert_eq!(differ.status.code(), Some(1));
    let stdout = text(&differ.stdout);
    assert!(stdout.contains("B: 1 file") && stdout.contains("fails in vnc_remote_addr_map with 1514"), "{stdout}");
    assert!(stdout.contains("first divergence"), "{stdout}");

    let json = birlink(&[
        "diff",
        &sample("sendrecv-called-twice.json"),
        "--against",
        &sample("sendrecv-called-twice.json"),
        "--normalize",
        "numbers",
        "--format",
        "json",
    ]);
    assert_eq!(json.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    for key in ["equal", "sides", "diagnostics", "cores", "entities", "barriers", "first_divergence"] {
        assert!(value.get(key).is_some(), "no `{key}` in {value}");
    }
    assert_eq!(value["normalization"]["applied"], serde_json::json!(["numbers"]));
    assert_eq!(value["sides"][0]["lnc"], 2);

    for bad in [
        vec!["diff", "x.json"],
        vec!["diff", "x.json", "--against", "y.json", "--core-map", "0-1"],
        vec!["diff", "x.json", "--against", "y.json", "--normalize", "letters"],
        vec!["diff", "no-such-a.json", "--against", "no-such-b.json"],
    ] {
        let run = birlink(&bad);
        assert_eq!(run.status.code(), Some(2), "{bad:?}: {}", text(&run.stderr));
    }
}

/// An indented file is compacted as it is read (never held whole), and what is said
/// about it points into the file itself: a shape error and a syntax error, at their
/// lines and columns, and the linked module the compact file of the same value gives.
#[test]
fn an_indented_file_is_read_compacted_and_located_in_the_file() {
    let dir = temp("indented");
    let odd = dir.join("odd.json");
    std::fs::write(&odd, "{\n  \"functions\": [\n    {\n      \"name\": 5,\n      \"blocks\": []\n    }\n  ]\n}\n")
        .expect("write");
    let run = birlink(&["link", odd.to_str().expect("path"), "--out", dir.join("o1").to_str().expect("path")]);
    let said = format!("{}{}", text(&run.stdout), text(&run.stderr));
    assert!(said.contains("odd.json:4:15"), "{said}");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\n  \"functions\": [\n    {\n      \"blocks\": [1, 2,]\n    }\n  ]\n}\n").expect("write");
    let run = birlink(&["link", bad.to_str().expect("path"), "--out", dir.join("o2").to_str().expect("path")]);
    let said = format!("{}{}", text(&run.stdout), text(&run.stderr));
    assert!(said.contains("trailing comma") && said.contains("bad.json:4:23"), "{said}");
    // The default sample (indented) and its compact form link to the same bytes.
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sample("matmul-2core.json")).expect("sample")).expect("json");
    let compact = dir.join("compact.json");
    std::fs::write(&compact, value.to_string()).expect("write");
    let a = dir.join("a");
    let b = dir.join("b");
    assert_eq!(
        birlink(&["link", &sample("matmul-2core.json"), "--out", a.to_str().expect("path")]).status.code(),
        Some(0)
    );
    assert_eq!(
        birlink(&["link", compact.to_str().expect("path"), "--out", b.to_str().expect("path")]).status.code(),
        Some(0)
    );
    assert_eq!(std::fs::read(a.join("linked.json")).expect("a"), std::fs::read(b.join("linked.json")).expect("b"));
}

fn log_fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../birlink-core/tests/logs").join(name).to_string_lossy().into_owned()
}

#[test]
fn explain_log_reads_the_whole_compile() {
    // The account: the run, its flow, the link per core, the failure at its pass.
    let modular = birlink(&["explain", "--log", &log_fixture("modular-two-cores.txt")]);
    let stdout = text(&modular.stdout);
    assert!(stdout.contains("neuronx-cc 2.24.5133.0+58f8de22, LNC 2, modular flow"), "{stdout}");
    assert!(
        stdout.contains("bir_linker nc00/sgLnk: 6 intermediates, 3 definitions, moved sg0000 (2 in, 2 out)"),
        "{stdout}"
    );
    assert!(stdout.contains("vnc_link: found 0 remote updates"), "{stdout}");
    let failing = birlink(&["explain", "--log", &log_fixture("two-compiles.txt")]);
    let stdout = text(&failing.stdout);
    assert_eq!(failing.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("2 compiles, this is run 2 of them"), "{stdout}");
    assert!(stdout.contains("failed in lower_local_collectives (sg00), line"), "{stdout}");
    assert!(stdout.contains("lower_local_collectives.cpp:78: memlocOnOtherCore != nullptr"), "{stdout}");
    assert!(
        stdout.contains("rerun neuronx-cc with `--internal-print-after=coloring_allocator_dram --internal-compiler-debug-mode=all --internal-backend-options=--print-after-all=false` (after `coloring_allocator_dram`"),
        "{stdout}"
    );
    // The code's explanation names the pass that raises it, before the link.
    let explained = text(&birlink(&["explain", "NCC_ILLC059"]).stdout);
    assert!(
        explained.contains("Raised by: lower_local_collectives, per subgraph across the cores, before bir_linker."),
        "{explained}"
    );
    assert!(explained.contains("birlink reports it as BL0207, in `verify`"), "{explained}");
    // In the form of Neuron's error-code pages, leading with the commonest public cause.
    assert!(explained.starts_with("Error message: [NCC_ILLC059] Could not find MemoryLocation named"), "{explained}");
    assert!(
        explained.contains("What it means: The commonest public cause is a kernel traced for one core"),
        "{explained}"
    );
    assert!(explained.contains("How to fix it: Launch the NKI kernel on its LNC grid"), "{explained}");
    let ixgm = text(&birlink(&["explain", "NCC_IXGM002"]).stdout);
    assert!(ixgm.contains("birlink reports it as BL0703"), "{ixgm}");
    // The JSON: the same reading, the failure's fields.
    let json = birlink(&["explain", "--log", &log_fixture("flat-illc059.txt"), "--format", "json"]);
    assert_eq!(json.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(value["flow"], "flat");
    assert_eq!(value["failure"]["code"], "NCC_ILLC059");
    assert_eq!(value["failure"]["names"][0]["core"], 1);
    assert_eq!(value["failure"]["dump_after"], "coloring_allocator_dram");
    assert_eq!(value["runs"].as_array().map(Vec::len), Some(1));
    // `--format` belongs to `--log`.
    let refused = birlink(&["explain", "1514", "--format", "json"]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
}

#[test]
fn explain_log_beside_dumps_holds_the_linker_block_and_the_failure_against_birlinks() {
    // The modular sample's log beside its work directory: BirLinker agrees line for line.
    let log = sample("workdir-moe/log-neuron-cc.txt");
    let moe = birlink(&["explain", "--log", &log, &sample("workdir-moe")]);
    let stdout = text(&moe.stdout);
    assert!(
        stdout
            .contains("bir_linker nc01/sgLnk: the log's BirLinker lines and birlink's bir_linker.log agree (60 lines)"),
        "{stdout}"
    );
    // What a real block carries and birlink cannot know is said, by kind.
    assert!(stdout.contains("set aside from the log before comparing (birlink cannot know them): 1 cwd, "), "{stdout}");
    assert!(stdout.contains("the VNC passes: the log's lines and birlink's bir_linker.log agree"), "{stdout}");
    // The flat sample's failure is birlink's BL0207 about the same name.
    let log = sample("workdir-illc059/log-neuron-cc.txt");
    let flat = birlink(&["explain", "--log", &log, &sample("workdir-illc059"), "--format", "json"]);
    assert_eq!(flat.status.code(), Some(0));
    let value: serde_json::Value = serde_json::from_slice(&flat.stdout).expect("json");
    assert_eq!(value["failure"]["pass"], "lower_local_collectives");
    assert_eq!(value["beside"]["failure"]["verdict"], "same");
    assert_eq!(value["beside"]["failure"]["birlink"], "BL0207");
    assert_eq!(value["beside"]["bir_linker"].as_array().map(Vec::len), Some(0));
    // Beside the wrong dumps: why it is not there, and what to print.
    let wrong = birlink(&["explain", "--log", &log, &sample("workdir-moe")]);
    let stdout = text(&wrong.stdout);
    assert!(stdout.contains("the failure: birlink's run of these dumps has no BL0207"), "{stdout}");
    assert!(stdout.contains("--internal-print-after=coloring_allocator_dram"), "{stdout}");
}

#[test]
fn history_reads_every_dumped_pass_and_follows_one_name() {
    let workdir = sample("workdir-2core");
    let human = birlink(&["history", &workdir]);
    let stdout = text(&human.stdout);
    assert_eq!(human.status.code(), Some(0), "{}", text(&human.stderr));
    assert!(stdout.starts_with("3 passes dumped, in the order they ran:"), "{stdout}");
    assert!(stdout.contains("0 lower_dma: nc00/sg00 first · nc01/sg00 first"), "{stdout}");
    assert!(stdout.contains("1 lower_sync: nc00/sg00 unchanged · nc01/sg00 unchanged"), "{stdout}");
    let followed = text(&birlink(&["history", &workdir, "--entity", "input_act"]).stdout);
    assert!(followed.contains("`input_act` through the passes:"), "{followed}");
    assert!(followed.contains("last seen on core 1 after lower_act"), "{followed}");
    // The name alone, with no pass table: the same lines about it, no table.
    let alone = text(&birlink(&["history", &workdir, "--entity", "input_act", "--no-table"]).stdout);
    assert!(alone.starts_with("3 passes dumped, in the order they ran: lower_dma, lower_sync, lower_act\n"), "{alone}");
    let about = |s: &str| s.lines().skip_while(|l| !l.starts_with('`')).map(str::to_owned).collect::<Vec<_>>();
    assert_eq!(about(&alone), about(&followed));
    assert!(!alone.contains("never part"), "{alone}");
    let without = birlink(&["history", &workdir, "--no-table"]);
    assert_eq!(without.status.code(), Some(2), "--no-table needs --entity");
    let json = birlink(&["history", &workdir, "--format", "json", "--subgraph", "0"]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(value["passes"].as_array().map(Vec::len), Some(3));
    assert_eq!(value["passes"][1]["changed"][0]["state"], "unchanged");
    // Not a work directory: said, exit 2.
    let refused = birlink(&["history", &sample("matmul-2core.json")]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(text(&refused.stderr).contains("is not a directory"), "{}", text(&refused.stderr));
}

/// On two threads the linked set is written while the sync check runs; what is written
/// is what one thread writes after it, and a linked.json that cannot be written is an
/// error after the report is.
#[test]
fn the_linked_set_written_beside_the_sync_check_is_the_same() {
    let outputs = ["report.json", "linked.json", "linked.txt", "bir_linker.log"];
    for name in ["sync-barrier-on-one-path.json", "sync-race.json", "flat-2core.json", "moe-2core.json"] {
        let runs: Vec<Vec<Vec<u8>>> = ["1", "2"]
            .iter()
            .map(|threads| {
                let out = temp(&format!("beside-{name}-{threads}"));
                let run = birlink(&[
                    "link",
                    &sample(name),
                    "--out",
                    out.to_str().expect("path"),
                    "--text",
                    "--threads",
                    threads,
                ]);
                assert!(run.status.code().is_some(), "{name}: {}", text(&run.stderr));
                outputs.iter().map(|file| std::fs::read(out.join(file)).unwrap_or_default()).collect()
            })
            .collect();
        assert!(!runs[0][1].is_empty(), "{name}: linked.json written");
        assert!(runs[0] == runs[1], "{name}: one thread and two wrote different files");
    }
    let out = temp("beside-unwritable");
    std::fs::create_dir_all(out.join("linked.json")).expect("a folder where linked.json goes");
    let run = birlink(&["link", &sample("flat-2core.json"), "--out", out.to_str().expect("path"), "--threads", "2"]);
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(text(&run.stderr).contains("cannot write"), "{}", text(&run.stderr));
    assert!(out.join("report.json").exists());
}
