//! Pipeline benchmark: generated link sets from 2 × 1k to 8 × 300k instructions.
//!
//! For each size it times, on the same in-memory files:
//! - the **tight floor**: check every file is JSON (`serde_json` into `IgnoredAny`, which
//!   builds nothing) and copy its bytes out, as writing them would; what reading the
//!   bytes costs;
//! - the **naive floor**: a `serde_json::Value` tree of every file and a pretty write of
//!   it, what a tool that builds trees pays;
//! - reading (parse and lower), each pass, writing (`linked.json` + `report.json`);
//! - the whole pipeline end to end on one thread (as the browser's worker runs it) and
//!   reading on every core (as `birlink link` does), with their ratios to the tight floor.
//!
//! The pipeline is handed each file as `birlink link` and the browser's worker hand them
//! over: read when the loader reaches it, in 4 MB chunks (here from memory), so an
//! indented file is compacted as it arrives.
//!
//! The floors and both end-to-end runs are measured alternately, round after round, so a
//! noisy machine slows them alike; each figure is the median of its rounds. Peak memory
//! is the process's high-water mark (VmHWM) over one end-to-end run, reset just before it
//! (`/proc/self/clear_refs`), with the input files held as the CLI holds them; its ratio
//! is to the input's bytes. Each size runs in its own child process.
//!
//! `cargo bench -p birlink-core --bench pipeline` runs every size;
//! `… -- 8x100000` runs one; `… -- --quick` stops at 8 × 10k.
//!
//! `… -- --shapes [8x100000]` runs one size written eight ways ([`VARIANTS`]): the
//! generator's own shape, and real-shaped instructions compact or indented, keys sorted
//! or in a producer's order — the same modules each time, so the rows compare layouts
//! and key orders, each against the tight floor over its own bytes. The naive floor is
//! left out there (it is the slowest column and says nothing new).

// Tests and benchmarks may panic on a broken fixture: that is their failure report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a benchmark stops on a broken fixture")]

use std::process::Command;
use std::time::{Duration, Instant};

use birlink_core::gen::{self, GenConfig, Layout, Shape};
use birlink_core::passes::{bir_linker, verify, vnc_link, vnc_remote_addr_map};
use birlink_core::read::input::{self, SourceFile};
use birlink_core::read::load::{self, LoadOptions};
use birlink_core::Role;
use birlink_core::{output, Flow, LinkOptions};

/// One way of writing the same modules: name, shape, compact, keys sorted.
type Variant = (&'static str, Shape, bool, bool);

/// The layouts and key orders of `--shapes`.
const VARIANTS: [Variant; 8] = [
    ("gen-compact", Shape::Gen, true, true),
    ("real-compact-sorted", Shape::Real, true, true),
    ("real-compact-producer", Shape::Real, true, false),
    ("real-indented-sorted", Shape::Real, false, true),
    ("real-indented-producer", Shape::Real, false, false),
    ("short-compact-sorted", Shape::Short, true, true),
    ("short-compact-producer", Shape::Short, true, false),
    ("short-indented-sorted", Shape::Short, false, true),
];

const SIZES: [(u64, usize); 7] =
    [(2, 1_000), (2, 10_000), (8, 10_000), (2, 100_000), (8, 50_000), (8, 100_000), (8, 300_000)];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let Some(at) = args.iter().position(|a| a == "--peak") {
        peak_child(std::path::Path::new(&args[at + 1]));
        return;
    }
    if let Some(at) = args.iter().position(|a| a == "--variant") {
        let variant = VARIANTS.iter().find(|v| v.0 == args[at + 1]).expect("a variant");
        let (cores, insts) = parse_size(&args[at + 2]);
        child(cores, insts, *variant);
        return;
    }
    let exe = std::env::current_exe().expect("current exe");
    if args.iter().any(|a| a == "--shapes") {
        let size = args.iter().find(|a| a.contains('x')).map_or("8x100000", String::as_str);
        header("layout");
        for variant in VARIANTS {
            let status = Command::new(&exe).args(["--variant", variant.0, size]).status().expect("run child");
            if !status.success() {
                eprintln!("{} at {size} failed: {status}", variant.0);
            }
        }
        return;
    }
    if let Some(size) = args.iter().find(|a| a.contains('x')) {
        let (cores, insts) = parse_size(size);
        child(cores, insts, VARIANTS[0]);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    header("size");
    for (cores, insts) in SIZES {
        if quick && cores * insts as u64 > 80_000 {
            continue;
        }
        let status = Command::new(&exe).arg(format!("{cores}x{insts}")).status().expect("run child");
        if !status.success() {
            eprintln!("size {cores}x{insts} failed: {status}");
        }
    }
}

fn header(first: &str) {
    println!(
        "{:>22} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8} {:>6} {:>6} {:>7} {:>8} {:>5} {:>5}",
        first,
        "input",
        "tight",
        "naive",
        "read",
        "verify",
        "link",
        "addrmap",
        "vnclink",
        "write",
        "e2e 1t",
        format!("e2e {}t", threads()),
        "1t/fl",
        "Nt/fl",
        "ns/inst",
        "peak",
        "×in",
        "ns/B"
    );
}

fn parse_size(text: &str) -> (u64, usize) {
    let (cores, insts) = text.split_once('x').expect("CORESxINSTS");
    (cores.parse().expect("cores"), insts.parse().expect("insts"))
}

/// The set's files as the pipeline takes them, with their bytes (for the floors).
fn files(cores: u64, insts: usize, (_, shape, compact, sorted): Variant) -> Vec<(SourceFile, std::sync::Arc<Vec<u8>>)> {
    let config = GenConfig {
        cores,
        insts,
        handoffs: 16,
        remote_dma: 64,
        barriers: 32,
        loop_depth: 3,
        unknown_keys: false,
        compact,
        sorted,
        shape,
        ..GenConfig::default()
    };
    gen::generate(&config, Layout::Files)
        .into_iter()
        .map(|file| {
            // As the CLI and the browser's worker hand files over: read when the loader
            // reaches them, in 4 MB chunks (an indented file compacted as it arrives).
            let bytes = std::sync::Arc::new(file.bytes);
            let len = bytes.len() as u64;
            let chunks = std::sync::Arc::clone(&bytes);
            let reader = birlink_core::Reader::chunked(move |each| {
                chunks.chunks(4 << 20).for_each(&mut *each);
                Ok(())
            });
            (
                SourceFile { path: file.path, content: birlink_core::Content::Later { len, reader }, role: Role::Auto },
                bytes,
            )
        })
        .collect()
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(repeat: usize, mut f: impl FnMut() -> T) -> Duration {
    time_with(repeat, || (), |()| f())
}

/// Times `f` on a fresh input from `setup` each run; `setup` is not timed.
fn time_with<I, T>(repeat: usize, mut setup: impl FnMut() -> I, mut f: impl FnMut(I) -> T) -> Duration {
    let runs = (0..repeat)
        .map(|_| {
            let input = setup();
            let start = Instant::now();
            let output = f(input);
            let elapsed = start.elapsed();
            drop(std::hint::black_box(output));
            elapsed
        })
        .collect();
    median(runs)
}

fn child(cores: u64, insts: usize, variant: Variant) {
    let (sources, contents): (Vec<SourceFile>, Vec<_>) = files(cores, insts, variant).into_iter().unzip();
    // The default sizes are the generator's compact shape (the table the scale issue
    // started); `--shapes` names its rows by layout and skips the naive floor.
    let shapes = std::env::args().any(|a| a == "--variant");
    let bytes: usize = contents.iter().map(|c| c.len()).sum();
    let total_insts = cores as f64 * insts as f64;
    let repeat = if cores as usize * insts >= 2_000_000 {
        1
    } else if cores as usize * insts >= 400_000 {
        3
    } else if cores as usize * insts >= 40_000 {
        5
    } else {
        15
    };

    let tight = || {
        let mut written = 0usize;
        for bytes in &contents {
            let bytes = bytes.as_slice();
            let _: serde::de::IgnoredAny = serde_json::from_slice(bytes).expect("json");
            let out = std::hint::black_box(bytes.to_vec());
            written += out.len();
        }
        written
    };
    let naive = || {
        let mut written = 0usize;
        for bytes in &contents {
            let value: serde_json::Value = serde_json::from_slice(bytes).expect("json");
            let mut out = Vec::new();
            serde_json::to_writer_pretty(&mut out, &value).expect("write");
            written += out.len();
        }
        written
    };
    let end_to_end = |threads: usize| {
        let sources = sources.clone();
        let start = Instant::now();
        // Everything is dropped inside the timed run, as the floors drop theirs.
        let outcome =
            birlink_core::run(sources, &LinkOptions { threads, flow: Some(Flow::Seeds), ..LinkOptions::default() });
        let linked = outcome.linked.as_ref().map(|linked| write_linked(linked, bytes));
        let report = birlink_core::report_json(&outcome).len();
        drop(std::hint::black_box((linked, report, outcome)));
        start.elapsed()
    };
    // Alternately: tight, naive, one thread, every core; then the next round.
    let mut rounds: [Vec<Duration>; 4] = Default::default();
    for _ in 0..repeat {
        let start = Instant::now();
        std::hint::black_box(tight());
        rounds[0].push(start.elapsed());
        let start = Instant::now();
        if !shapes {
            std::hint::black_box(naive());
        }
        rounds[1].push(start.elapsed());
        rounds[2].push(end_to_end(1));
        rounds[3].push(end_to_end(threads()));
    }
    let [tight_floor, naive_floor, e2e_one, e2e_all] = rounds.map(median);

    let read =
        time_with(repeat, || sources.clone(), |sources| load::load(sources, &LoadOptions::default(), &mut Vec::new()));
    let mut diags = Vec::new();
    let set = load::load(sources.clone(), &LoadOptions::default(), &mut diags);
    let verify_time = time(repeat, || verify::run(&set, Flow::Seeds, &mut Vec::new()));

    let link_time = time_with(
        repeat,
        || set.modules.iter().map(|m| (m.core.unwrap_or(0), m.clone())).collect::<Vec<_>>(),
        |modules| bir_linker::seeds::run(modules, None, None, &mut Vec::new(), &mut Vec::new()),
    );

    let modules: Vec<(u64, input::CoreModule)> = set.modules.iter().map(|m| (m.core.unwrap_or(0), m.clone())).collect();
    let linked = bir_linker::seeds::run(modules, None, None, &mut Vec::new(), &mut Vec::new()).module.expect("linked");
    let addrmap = time_with(
        repeat,
        || birlink_core::LinkedSet::one(linked.clone()),
        |mut set| {
            vnc_remote_addr_map::run(&mut set, cores, &mut Vec::new());
            set
        },
    );
    let vnclink = time_with(
        repeat,
        || birlink_core::LinkedSet::one(linked.clone()),
        |mut set| {
            vnc_link::run(&mut set, cores, &mut Vec::new());
            set
        },
    );

    let outcome =
        birlink_core::run(sources.clone(), &LinkOptions { flow: Some(Flow::Seeds), ..LinkOptions::default() });
    assert!(!birlink_core::diag::has_errors(&outcome.report.diagnostics), "generated set failed to link");
    let write = time(repeat, || {
        (write_linked(outcome.linked.as_ref().expect("linked"), bytes), birlink_core::report_json(&outcome).len())
    });

    drop(outcome);
    drop(linked);
    drop(set);

    // Peak memory as `birlink link` has it: a fresh process that reads the files from
    // disk and runs the pipeline on every core, nothing else in its heap.
    let dir = std::env::temp_dir().join(format!("birlink-bench-{}-{cores}x{insts}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (source, bytes) in sources.iter().zip(&contents) {
        std::fs::write(dir.join(&source.path), bytes.as_slice()).expect("write");
    }
    drop(sources);
    drop(contents);
    let exe = std::env::current_exe().expect("current exe");
    let out = Command::new(&exe).arg("--peak").arg(&dir).output().expect("run the peak child");
    let _ = std::fs::remove_dir_all(&dir);
    let peak: u64 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap_or(0);

    let ms = |d: Duration| format!("{:.0}", d.as_secs_f64() * 1000.0);
    println!(
        "{:>22} {:>9} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8} {:>8} {:>6.2} {:>6.2} {:>7.0} {:>8} {:>5.2} {:>5.2}",
        if shapes { variant.0.to_string() } else { format!("{cores}x{insts}") },
        birlink_core::english::human_bytes(bytes as u64),
        ms(tight_floor),
        if shapes { "-".to_string() } else { ms(naive_floor) },
        ms(read),
        ms(verify_time),
        ms(link_time),
        ms(addrmap),
        ms(vnclink),
        ms(write),
        ms(e2e_one),
        ms(e2e_all),
        e2e_one.as_secs_f64() / tight_floor.as_secs_f64(),
        e2e_all.as_secs_f64() / tight_floor.as_secs_f64(),
        e2e_one.as_secs_f64() * 1e9 / total_insts,
        birlink_core::english::human_bytes(peak),
        peak as f64 / bytes as f64,
        e2e_one.as_secs_f64() * 1e9 / bytes as f64,
    );
}

/// Writes `linked.json` as the CLI does, streamed, into one buffer sized once (as a file
/// would be), not a string grown by doubling: at 8 × 300k that string's copies were most
/// of the write's time. Returns its length.
fn write_linked(linked: &birlink_core::LinkedSet, input_bytes: usize) -> usize {
    let mut out = Vec::with_capacity(input_bytes + input_bytes / 8);
    output::json::write_set(linked, &mut out).expect("write");
    std::hint::black_box(out).len()
}

/// Reads the files of `dir` and links them as `birlink link` does, then prints the
/// process's peak resident memory in bytes.
fn peak_child(dir: &std::path::Path) {
    let mut paths: Vec<_> = std::fs::read_dir(dir).expect("dir").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    // Read as `birlink link` reads them: each file when the loader reaches it, in
    // chunks (an indented one compacted as it arrives).
    let sources: Vec<SourceFile> = paths
        .iter()
        .map(|p| {
            let path = p.clone();
            let reader = birlink_core::Reader::chunked(move |each| {
                use std::io::Read as _;
                let mut file = std::fs::File::open(&path).map_err(|e| e.to_string())?;
                let mut buffer = vec![0u8; 4 << 20];
                loop {
                    match file.read(&mut buffer).map_err(|e| e.to_string())? {
                        0 => return Ok(()),
                        n => each(&buffer[..n]),
                    }
                }
            });
            let len = std::fs::metadata(p).expect("metadata").len();
            SourceFile {
                path: p.to_string_lossy().into_owned(),
                content: birlink_core::Content::Later { len, reader },
                role: birlink_core::Role::Auto,
            }
        })
        .collect();
    let outcome = birlink_core::run(
        sources,
        &LinkOptions { threads: threads(), flow: Some(Flow::Seeds), ..LinkOptions::default() },
    );
    // Written as the CLI writes it: streamed out, never one string.
    if let Some(linked) = outcome.linked.as_ref() {
        output::json::write_set(linked, &mut std::io::sink()).expect("write");
    }
    drop(std::hint::black_box((birlink_core::report_json(&outcome).len(), outcome)));
    println!("{}", peak_rss_bytes());
}

/// Threads `birlink link` reads on: one per core.
fn threads() -> usize {
    std::thread::available_parallelism().map(usize::from).unwrap_or(1)
}

/// Peak resident memory of this process since the last reset (Linux `VmHWM`), in bytes.
fn peak_rss_bytes() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .unwrap_or(0)
}
