//! The sample link sets shipped in `www/samples/`: what the UI opens by default, what
//! the docs show, and one link set per diagnostic code.
//!
//! Samples are generated, never hand-edited: `cargo xtask codegen` writes
//! them, and a test checks that the committed files are exactly what this module
//! produces, so a sample can never drift from the code that explains it.

use crate::model::place::Place;
use serde::{Deserialize, Serialize};

use super::config::{GenConfig, Layout, Scenario};
use super::files::{fault_codes, generate};
use super::set::GenFile;
use super::{faults, log, modular_workdir, workdir};
use crate::diag::codes::Code;
use crate::model::flow::Flow;

/// One entry of `www/samples/index.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SampleInfo {
    /// File name in `www/samples/`.
    pub file: String,
    /// Short title for menus.
    pub title: String,
    /// One sentence on what it shows.
    pub description: String,
    /// The diagnostic code it demonstrates, for fault samples.
    pub code: Option<Code>,
    /// `ok`, or the severity of the code it demonstrates.
    pub expect: String,
    /// Whether linking it reports an error (`birlink link` exits 1).
    pub fails: bool,
    /// The sample this one is compared with in a public failure report's story
    /// (`birlink diff THIS --against OTHER`, docs/compare.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<String>,
    /// A work-directory sample's files, relative to `samples/` (`file` is its folder);
    /// empty for a one-file sample.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// The flow it links in: the compiler's (`modular`, `flat`) or the seeds' reading
    /// (`seeds`, which its bundle asks for).
    #[serde(default)]
    pub flow: Flow,
}

/// The file opened at start: a modular link set shaped like the public MoE compile (2
/// cores, 3 subgraphs, 48 partitions), linked as the compiler links it.
pub const DEFAULT_SAMPLE: &str = "moe-2core.json";

/// The sharded matmul in the seeds' reading (the cores merged into one module), the base
/// of every fault sample.
pub const MATMUL_SAMPLE: &str = "matmul-2core.json";

/// The configuration of the matmul sample (also the base of every fault sample).
pub fn matmul_config() -> GenConfig {
    GenConfig {
        cores: 2,
        insts: 24,
        handoffs: 2,
        remote_dma: 2,
        barriers: 3,
        loop_depth: 1,
        seed: 7,
        ..GenConfig::default()
    }
}

/// The base of every fault sample: the default program, smaller, so that the fault is
/// what stands out.
pub fn fault_config() -> GenConfig {
    GenConfig { insts: 8, ..matmul_config() }
}

/// The base of a code's fault sample: the default program, or, for a code only the
/// compiler's modular flow reports, a small modular set (2 cores × 3 subgraphs, 6
/// partitions).
pub fn fault_config_for(code: Code) -> GenConfig {
    let base = GenConfig { fault: Some(code), ..fault_config() };
    if faults::modular_only(code) {
        GenConfig { flow: crate::model::flow::Flow::Modular, subgraphs: 3, partitions: 6, insts: 24, ..base }
    } else if code.info().pass == crate::model::pass::Pass::Sync {
        // The sync check reads the compiler's per-core modules: the flat flow's.
        GenConfig { flow: Flow::Flat, ..base }
    } else {
        base
    }
}

/// The modular sample's configuration: shaped like the public MoE compile (2 cores, 3
/// subgraphs, 48 partitions: an embedding, 46 layers of one definition, a head).
pub fn moe_config() -> GenConfig {
    GenConfig { flow: Flow::Modular, subgraphs: 3, partitions: 48, insts: 72, ..matmul_config() }
}

/// Every sample: its index entry and its bytes.
pub fn all() -> Vec<(SampleInfo, Vec<u8>)> {
    let mut out = Vec::new();
    let mut push = |file: &str, title: &str, description: &str, code: Option<Code>, config: GenConfig| {
        let files = generate(&config, Layout::Bundle);
        let Some(bundle) = files.into_iter().next() else {
            return;
        };
        let expect = code.map(|c| c.severity().as_str().to_owned()).unwrap_or_else(|| "ok".to_owned());
        let outcome = crate::passes::run(vec![bundle.source()], &crate::passes::LinkOptions::default());
        let fails = crate::diag::has_errors(&outcome.report.diagnostics);
        let flow = outcome.report.options.flow;
        out.push((
            SampleInfo {
                file: file.to_owned(),
                title: title.to_owned(),
                description: description.to_owned(),
                code,
                expect,
                fails,
                against: None,
                files: Vec::new(),
                flow,
            },
            bundle.bytes,
        ));
    };
    push(
        "moe-2core.json",
        "MoE, 2 cores × 3 subgraphs, 48 partitions",
        "Shaped like the public MoE compile at LNC 2 (`DefMap: 0 1 1 … 1 47`): each core's three subgraphs — an embedding, one transformer layer called 46 times, a head — linked by bir_linker once per core into `ncCC/sgLnk` through the netlist, then the VNC passes across the two cores.",
        None,
        moe_config(),
    );
    push(
        "flat-2core.json",
        "Flat flow, 2 cores",
        "One subgraph per core and no netlist: the compiler runs no bir_linker; the VNC passes resolve core 1's remote views and semaphores straight across the two per-core modules.",
        None,
        GenConfig { flow: Flow::Flat, ..matmul_config() },
    );
    push(
        "moe-1514.json",
        "Modular: 1514 across cores",
        "The MoE link set with core 1's remote view of `c_partial_0` renamed: each core links, then vnc_remote_addr_map cannot find the owner's memory location in `nc00/sgLnk` (1514).",
        Some(Code::RemoteMemlocMissing),
        GenConfig { fault: Some(Code::RemoteMemlocMissing), ..moe_config() },
    );
    push(
        "moe-1512.json",
        "Modular: 1512, one remote DMA block fewer",
        "The MoE link set with one remote-notifying DMA block dropped on core 1: vnc_link pairs the cores' blocks by position across `nc00/sgLnk` and `nc01/sgLnk`, and the counts differ (1512).",
        Some(Code::RemoteBlockCountMismatch),
        GenConfig { fault: Some(Code::RemoteBlockCountMismatch), ..moe_config() },
    );
    push(
        "moe-subgraph-missing.json",
        "Modular: a definition missing on one core",
        "Core 1 has no dump of subgraph sg01 (the layer): the compiler compiles every subgraph for every core, so nothing is linked (BL0107).",
        Some(Code::SubgraphMissing),
        GenConfig { fault: Some(Code::SubgraphMissing), ..moe_config() },
    );
    push(
        "moe-netlist-extra-definition.json",
        "Modular: the netlist names a subgraph that is not there",
        "The netlist's DefMap names three definitions, but only sg00 and sg01 were given on each core: `numDefs != modules.size()` (BL0108).",
        Some(Code::DefinitionsMismatch),
        GenConfig { fault: Some(Code::DefinitionsMismatch), ..moe_config() },
    );
    push(
        "moe-intermediate-never-produced.json",
        "Modular: an intermediate nobody produces",
        "The last partition reads `intermediate999`, which no partition writes before it: the handoff has no producer (BL0318).",
        Some(Code::IntermediateNeverProduced),
        GenConfig { fault: Some(Code::IntermediateNeverProduced), ..moe_config() },
    );
    push(
        MATMUL_SAMPLE,
        "Sharded matmul, 2 cores",
        "Each core computes half of C; core 0's result tiles cross to core 1 through shared HBM. DMA queues, remote semaphore updates and CoreBarriers on both cores.",
        None,
        matmul_config(),
    );
    push(
        "ring-4core.json",
        "Ring, 4 cores",
        "Each core sends a tile to the next through collective staging buffers, and signals it with a remote DMA semaphore.",
        None,
        GenConfig { cores: 4, insts: 24, handoffs: 1, remote_dma: 2, barriers: 2, loop_depth: 0, ring: true, seed: 11, ..GenConfig::default() },
    );
    push(
        "single-core.json",
        "One core (lnc = 1)",
        "A one-module link set: a dispatcher with one call, and nothing for the VNC passes to relink.",
        None,
        GenConfig { cores: 1, insts: 16, seed: 3, ..GenConfig::default() },
    );
    push(
        "unknown-keys-2core.json",
        "Unknown keys everywhere",
        "Every object carries a key the passes do not know; all of them survive into linked.json.",
        None,
        GenConfig { unknown_keys: true, netlist: true, ..matmul_config() },
    );
    push(
        "ring-attention-send-k-buf.json",
        "1514: send_k_buf not on core 1",
        "A ring-attention kernel launched without its LNC grid: core 0 holds a remote view of `inst__I-5-0:send_k_buf` on core 1, but core 1 never materialised the kernel's buffers, so vnc_remote_addr_map cannot find it (1514). The compiler stops earlier, at lower_local_collectives' look-up (NCC_ILLC059; BL0207 on dumps from before that pass): these are the per-core dumps as the VNC passes would see them.",
        Some(Code::RemoteMemlocMissing),
        GenConfig {
            handoffs: 1,
            ring: true,
            scenario: Some(Scenario::RingAttentionWithoutGrid),
            ..fault_config()
        },
    );
    push(
        "sendrecv-called-twice.json",
        "NCC_IXLV002: barrier names differ",
        "A sendrecv called twice: core 1 names its sixth CoreBarrier `CoreBarrier-0_180` after the first call, where core 0 has `CoreBarrier-0_480`. The compiler stops (NCC_IXLV002); birlink warns (1189), links, and the Barriers view aligns them.",
        Some(Code::BarrierNameMismatch),
        GenConfig { barriers: 6, scenario: Some(Scenario::SendrecvCalledTwice), ..fault_config() },
    );
    // The other side of each public report's comparison.
    push(
        "ring-attention-with-grid.json",
        "Ring attention, launched with its grid",
        "Rank 0 of the NCC_ILLC059 story: the same ring-attention kernel launched with its LNC grid, so both cores materialise `send_k_buf`; it links. Compare it with `ring-attention-send-k-buf.json`.",
        None,
        GenConfig { handoffs: 1, ring: true, ..fault_config() },
    );
    push(
        "matmul-1core.json",
        "Sharded matmul, 1 core (lnc = 1)",
        "The default sample's program at LNC 1: it links, with nothing to relink. Compare it with `matmul-2core.json`, the LNC 2 build.",
        None,
        GenConfig { cores: 1, ..matmul_config() },
    );
    push(
        "sendrecv-called-once.json",
        "A sendrecv called once",
        "The NCC_IXLV002 story's working half: the kernel's sendrecv called once, every core's barriers named alike. Compare it with `sendrecv-called-twice.json`: core 1's sixth barrier is the one that differs.",
        None,
        GenConfig { barriers: 6, scenario: Some(Scenario::SendrecvCalledOnce), ..fault_config() },
    );
    // The sync check's stories, each in the compiler's flat flow (docs/sync.md).
    let flat = |scenario| GenConfig { flow: Flow::Flat, scenario: Some(scenario), ..fault_config() };
    push(
        "sync-barrier-on-one-path.json",
        "Sync: a barrier on one core's path only",
        "The public NRT status 5 hang: a core barrier switched off on one path. Core 1 has one CoreBarrier fewer on SP; it links, and the sync check finds core 0's SP waiting at Block2-cb-2 for core 1's SP, which finished (BL0701, BL0706: the root lane).",
        Some(Code::SyncBarrierCount),
        flat(Scenario::BarrierOnOnePath),
    );
    push(
        "sync-signal-to-another-semaphore.json",
        "Sync: a signal that went to another semaphore",
        "Core 0's remote DMA block signals core 1's semaphore 177 (vnc_link relinked it to the id core 1's own block updates); core 1 waits for semaphore 178, which nothing updates: BL0707, and core 1's SP never gets past wait_for_tile_0 (BL0706).",
        Some(Code::SyncUnknownSemaphore),
        flat(Scenario::SignalToAnotherSemaphore),
    );
    push(
        "sync-trip-count-differs.json",
        "Sync: a loop's trip count differs per core",
        "A loop holding a barrier on DVE runs 4 times on core 0 and twice on core 1 (BL0704): core 0's DVE waits at the third iteration's barrier for core 1's DVE, which finished (BL0706).",
        Some(Code::SyncTripCount),
        flat(Scenario::TripCountDiffers),
    );
    push(
        "sync-race.json",
        "Sync: a handoff read before its barrier",
        "Core 1 reads core 0's tile c_partial_0 before the barrier that orders core 0's store of it: nothing orders the two, a cross-core race (BL0708, what the compiler's lnc_barriercheck looks for).",
        Some(Code::SyncRace),
        flat(Scenario::HandoffRace),
    );
    // BL0011 needs two netlist files, which one bundle cannot hold; its test uses files.
    for code in fault_codes().into_iter().filter(|c| *c != Code::ExtraNetlist) {
        let info = code.info();
        let file = format!("{}-{}.json", info.severity.as_str(), info.code);
        let title = format!("{} {}", info.code, info.title);
        let description = format!("The matmul with one fault: {}.", first_sentence(info.explanation));
        let config = fault_config_for(code);
        let description = if config.flow == Flow::Modular {
            format!("A small modular link set with one fault: {}.", first_sentence(info.explanation))
        } else {
            description
        };
        push(&file, &title, &description, Some(code), config);
    }
    for (file, against) in PAIRS {
        if let Some((info, _)) = out.iter_mut().find(|(info, _)| info.file == *file) {
            info.against = Some((*against).to_owned());
        }
    }
    out
}

/// The pairs of the public failure reports: (A, B) for `birlink diff A --against B`.
pub const PAIRS: &[(&str, &str)] = &[
    ("ring-attention-with-grid.json", "ring-attention-send-k-buf.json"),
    ("matmul-1core.json", MATMUL_SAMPLE),
    ("sendrecv-called-once.json", "sendrecv-called-twice.json"),
];

/// The work-directory samples (`samples/<folder>/nc00/sg00/…`): each index entry and
/// its files, paths relative to `samples/`.
pub fn workdirs() -> Vec<(SampleInfo, Vec<GenFile>)> {
    let base = GenConfig { insts: 12, ..matmul_config() };
    let cases: [(&str, &str, &str, Option<Code>); 3] = [
        (
            "workdir-2core",
            "Work directory, 2 cores",
            "What neuronx-cc leaves behind at LNC=2, three passes dumped: the link takes each core's dump after lower_sync, plans sgLnk/ (weights, debug info and a custom op linked, a CPU-node file copied) and merges the two tensor maps.",
            None,
        ),
        (
            "workdir-collision",
            "Work directory: one name, two files",
            "Both cores offer `shared_constants.npy` for sgLnk/, with different bytes: one folder cannot hold both (BL0315).",
            Some(Code::ArtifactCollision),
        ),
        (
            "workdir-ilnk020",
            "NCC_ILNK020: a tensor map that does not merge",
            "Core 1's tensor map binds `layer_13_attn_out`, a tensor its module no longer has: birlink's reading of the compiler's `tensor_map verification failed after linking` (BL0310).",
            Some(Code::TensorMapStale),
        ),
    ];
    let mut out = Vec::new();
    // The seeds' work directories show the seeds' link directory and merged tensor map:
    // they open in the seeds' reading (the index says so, and the page asks for it).
    type Made<'a> = (&'a str, &'a str, &'a str, Option<Code>, Flow, Vec<GenFile>);
    let mut made: Vec<Made<'_>> = cases
        .into_iter()
        .map(|(folder, title, description, code)| {
            (folder, title, description, code, Flow::Seeds, workdir::generate(&base, folder, code))
        })
        .collect();
    made.push((
        "workdir-moe",
        "Work directory, the modular flow",
        "What neuronx-cc leaves behind for a MoE model at LNC=2: 3 subgraphs per core dumped after dep_reduction, the frontend's netlist of 48 partitions, weights and a tensor map per subgraph. bir_linker links each core's subgraphs into ncCC/sgLnk and plans its link directory; then the VNC passes run across the two cores.",
        None,
        Flow::Modular,
        modular_workdir::generate(&GenConfig { insts: 24, ..moe_config() }, "workdir-moe", None),
    ));
    made.push((
        "workdir-moe-fidelity",
        "Work directory: the compiler's own result beside birlink's",
        "One run of the modular flow dumped every pass: the subgraphs before bir_linker (its input), the linked modules after coloring_allocator_reg (the VNC passes' input) and the compiler's results after bir_linker and vnc_link (ncCC/sgLnk/), held against birlink's for the same input. Three agree; core 1's dump after vnc_link has one address birlink did not write, the first difference.",
        None,
        Flow::Modular,
        with_compilers_result("workdir-moe-fidelity"),
    ));
    made.push((
        "workdir-illc059",
        "NCC_ILLC059 at lower_local_collectives, with its log",
        "A flat-flow compile at LNC=2 failed in lower_local_collectives: core 0's local all-reduce names `…sbuf_in.31`, core 1's module has `…sbuf_in.72`. The work directory holds each core's dump after coloring_allocator_dram (the pass before) and the compile's log-neuron-cc.txt: the page reads the log as a timeline and finds the name where the compiler did (BL0207).",
        Some(Code::LocalCollectiveNameMissing),
        Flow::Flat,
        workdir::early_failure(&GenConfig { insts: 12, ..matmul_config() }, "workdir-illc059"),
    ));
    for (folder, title, description, code, flow, mut files) in made {
        // As a folder lists them: by path.
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let held: Vec<(String, Vec<u8>)> = files.iter().map(|f| (f.path.clone(), f.bytes.clone())).collect();
        let outcome = crate::read::workdir::split(held, None).map(|(sources, input)| {
            let flow = (flow == Flow::Seeds).then_some(Flow::Seeds);
            let options = crate::passes::LinkOptions { workdir: Some(input), flow, ..Default::default() };
            crate::passes::run(sources, &options)
        });
        let fails = outcome.as_ref().is_none_or(|o| crate::diag::has_errors(&o.report.diagnostics));
        // The modular work directory comes with the log of the compile that made it:
        // its BirLinker blocks are birlink's own for the same dumps.
        if folder == "workdir-moe" {
            if let Some(outcome) = &outcome {
                let text = log::modular(folder, 2, &[0, 1, 2], &outcome.log, &barriers_per_core(outcome));
                files.push(GenFile { path: format!("{folder}/log-neuron-cc.txt"), bytes: text.into_bytes() });
                files.sort_by(|a, b| a.path.cmp(&b.path));
            }
        }
        let expect = code.map(|c| c.severity().as_str().to_owned()).unwrap_or_else(|| "ok".to_owned());
        let info = SampleInfo {
            file: folder.to_owned(),
            title: title.to_owned(),
            description: description.to_owned(),
            code,
            expect,
            fails,
            against: None,
            files: files.iter().map(|f| f.path.clone()).collect(),
            flow,
        };
        out.push((info, files));
    }
    out
}

/// Each core's `CoreBarrier`s in its linked module (what codegen's opcode table counts).
fn barriers_per_core(outcome: &crate::passes::Outcome) -> Vec<u64> {
    let count = |module: &crate::model::ir::Module| {
        let mut n = 0u64;
        for &f in &module.functions {
            module.walk_function_in_blocks(f, &mut |_, inst| {
                n += u64::from(module.store.insts[inst].op == crate::model::ir::Op::CoreBarrier)
            });
        }
        n
    };
    outcome.linked.iter().flat_map(|set| &set.modules).map(|m| count(&m.module)).collect()
}

/// A small modular work directory as one run dumps it, with the compiler's own result:
/// birlink's link of it written back as each core's linked module after `bir_linker`,
/// after `coloring_allocator_reg` (the VNC passes' input) and after `vnc_link`, one
/// address of core 1's after `vnc_link` changed (the fidelity check's first difference,
/// docs/spec/link.md §0.8).
fn with_compilers_result(name: &str) -> Vec<GenFile> {
    let config = GenConfig { subgraphs: 3, partitions: 6, insts: 24, ..matmul_config() };
    let mut files = modular_workdir::generate(&config, name, None);
    let link = |files: &[GenFile], passes: Option<Vec<String>>| {
        let held: Vec<(String, Vec<u8>)> = files.iter().map(|f| (f.path.clone(), f.bytes.clone())).collect();
        let (sources, input) = crate::read::workdir::split(held, None)?;
        let options = crate::passes::LinkOptions { workdir: Some(input), passes, ..Default::default() };
        crate::passes::run(sources, &options).linked
    };
    let after_link = link(&files, Some(vec!["verify".to_owned(), "bir_linker".to_owned()]));
    let after_all = link(&files, None);
    for (set, dump) in [
        (after_link.clone(), "bir_debug.60.after-bir_linker.before-postlnk_dma_report.json"),
        // The same run's linked modules before the VNC passes: their input.
        (after_link, "bir_debug.88.after-coloring_allocator_reg.before-vnc_remote_addr_map.json"),
        (after_all, "bir_debug.99.after-vnc_link.before-branch_hint.json"),
    ] {
        for linked in set.iter().flat_map(|s| &s.modules) {
            let core = linked.core.unwrap_or(0);
            let mut text = crate::output::json::module_to_string(&linked.module);
            if core == 1 && dump.contains("vnc_link") {
                text = text.replacen("\"addr\": 2097152", "\"addr\": 2097153", 1);
            }
            files.push(GenFile { path: format!("{name}/{}/{dump}", Place::linked(core)), bytes: text.into_bytes() });
        }
    }
    files
}

/// `www/samples/index.json`.
pub fn index() -> Vec<SampleInfo> {
    all().into_iter().map(|(info, _)| info).chain(workdirs().into_iter().map(|(info, _)| info)).collect()
}

fn first_sentence(text: &str) -> String {
    let sentence = text.split(". ").next().unwrap_or(text).trim_end_matches('.');
    let mut chars = sentence.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}
