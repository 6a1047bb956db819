//! Pipeline benchmark: generated link sets from 2 × 1k to 8 × 100k instructions.
//!
//! For each size it times, on the same in-memory files: the floor (a bare `serde_json`
//! parse of every file into a `Value` and a pretty write of it), reading (parse and
//! lower), each pass, writing (`linked.json` + `report.json`), and the whole pipeline end
//! to end. Each size runs in its own child process so its peak memory (VmHWM) is its own.
//!
//! `cargo bench -p birlink-core --bench pipeline` runs every size;
//! `… -- 8x100000` runs one; `… -- --quick` stops at 8 × 10k.
//! Timings are the median of several runs (fewer for the big sizes).

// Tests and benchmarks may panic on a broken fixture: that is their failure report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "a benchmark stops on a broken fixture")]

use std::process::Command;
use std::time::{Duration, Instant};

use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::input::{self, SourceFile};
use birlink_core::passes::{bir_linker, verify, vnc_link, vnc_remote_addr_map};
use birlink_core::{json, LinkOptions};

const SIZES: [(u64, usize); 6] = [(2, 1_000), (2, 10_000), (8, 10_000), (2, 100_000), (8, 50_000), (8, 100_000)];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let Some(size) = args.iter().find(|a| a.contains('x')) {
        let (cores, insts) = parse_size(size);
        child(cores, insts);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    println!(
        "{:>10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>8} {:>7}",
        "size",
        "input",
        "floor",
        "(write)",
        "read",
        "verify",
        "link",
        "addrmap",
        "vnclink",
        "write",
        "e2e",
        "ratio",
        "ns/inst",
        "peak"
    );
    let exe = std::env::current_exe().expect("current exe");
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

fn parse_size(text: &str) -> (u64, usize) {
    let (cores, insts) = text.split_once('x').expect("CORESxINSTS");
    (cores.parse().expect("cores"), insts.parse().expect("insts"))
}

fn files(cores: u64, insts: usize) -> Vec<SourceFile> {
    let config = GenConfig {
        cores,
        insts,
        handoffs: 16,
        remote_dma: 64,
        barriers: 32,
        loop_depth: 3,
        unknown_keys: false,
        compact: true,
        ..GenConfig::default()
    };
    gen::generate(&config, Layout::Files).iter().map(gen::GenFile::source).collect()
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

fn child(cores: u64, insts: usize) {
    let sources = files(cores, insts);
    let bytes: usize = sources.iter().map(|s| s.content.as_ref().map(Vec::len).unwrap_or(0)).sum();
    let total_insts = cores as f64 * insts as f64;
    let repeat = if cores as usize * insts >= 400_000 {
        3
    } else if cores as usize * insts >= 40_000 {
        5
    } else {
        15
    };

    let floor = time(repeat, || {
        let mut written = 0usize;
        for source in &sources {
            let value: serde_json::Value =
                serde_json::from_slice(source.content.as_ref().expect("bytes")).expect("json");
            let mut out = Vec::new();
            serde_json::to_writer_pretty(&mut out, &value).expect("write");
            written += out.len();
        }
        written
    });

    let values: Vec<serde_json::Value> =
        sources.iter().map(|s| serde_json::from_slice(s.content.as_ref().expect("bytes")).expect("json")).collect();
    let floor_write = time(repeat, || {
        values
            .iter()
            .map(|value| {
                let mut out = Vec::new();
                serde_json::to_writer_pretty(&mut out, value).expect("write");
                out.len()
            })
            .sum::<usize>()
    });
    drop(values);

    let read = time_with(
        repeat,
        || sources.clone(),
        |sources| input::load(sources, None, None, &mut Vec::new(), &mut |_, _| {}),
    );
    let mut diags = Vec::new();
    let set = input::load(sources.clone(), None, None, &mut diags, &mut |_, _| {});
    let verify_time = time(repeat, || verify::run(&set, &mut Vec::new()));

    let link_time = time_with(
        repeat,
        || set.modules.iter().map(|m| (m.core.unwrap_or(0), m.clone())).collect::<Vec<_>>(),
        |modules| bir_linker::run(modules, None, &mut Vec::new()),
    );

    let modules: Vec<(u64, input::CoreModule)> = set.modules.iter().map(|m| (m.core.unwrap_or(0), m.clone())).collect();
    let linked = bir_linker::run(modules, None, &mut Vec::new()).module.expect("linked");
    let addrmap = time_with(
        repeat,
        || linked.clone(),
        |mut module| {
            vnc_remote_addr_map::run(&mut module, cores, &mut Vec::new());
            module
        },
    );
    let vnclink = time_with(
        repeat,
        || linked.clone(),
        |mut module| {
            vnc_link::run(&mut module, cores, &mut Vec::new());
            module
        },
    );

    let outcome = birlink_core::run(sources.clone(), &LinkOptions::default());
    assert!(!birlink_core::diag::has_errors(&outcome.report.diagnostics), "generated set failed to link");
    let write = time(repeat, || {
        let mut out = Vec::new();
        json::write::write_module(outcome.linked.as_ref().expect("linked"), &mut out).expect("write");
        (out.len(), birlink_core::report_json(&outcome).len())
    });

    let e2e = time_with(
        repeat,
        || sources.clone(),
        |sources| {
            // Everything is dropped inside the timed run, as the floor drops its values.
            let outcome = birlink_core::run(sources, &LinkOptions::default());
            let linked = birlink_core::linked_json(&outcome).map(|t| t.len());
            (linked, birlink_core::report_json(&outcome).len())
        },
    );

    let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
    println!(
        "{:>10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6.2} {:>8.0} {:>7}",
        format!("{cores}x{insts}"),
        input::human_bytes(bytes as u64),
        ms(floor),
        ms(floor_write),
        ms(read),
        ms(verify_time),
        ms(link_time),
        ms(addrmap),
        ms(vnclink),
        ms(write),
        ms(e2e),
        e2e.as_secs_f64() / floor.as_secs_f64(),
        e2e.as_secs_f64() * 1e9 / total_insts,
        peak_rss(),
    );
}

/// Peak resident memory of this process (Linux), for the memory ratio.
fn peak_rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| input::human_bytes(kb * 1024))
        .unwrap_or_else(|| "?".to_owned())
}
