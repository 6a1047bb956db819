//! The sync check (docs/spec/sync.md) as properties of the generator's sets: a
//! symmetric set — any flow of the compiler's, any shape, cores, barriers, handoffs,
//! loops — completes, exactly, with no finding; take one barrier off one core's engine
//! and the lockstep check says where the cores part (BL0701) and the execution hangs at
//! a lane of that engine, on a core that kept it (BL0706, exact), whether the cores'
//! programs are read on one thread or several, alone or beside other work; the replay
//! of the execution to its end is the check's own execution.

use proptest::prelude::*;
use serde_json::{json, Value};

use birlink_core::diag::codes::Code;
use birlink_core::gen::{self, GenConfig, Shape};
use birlink_core::output::sync::{BlockedKind, SyncStatus, Verdict};
use birlink_core::{Flow, LinkOptions, SourceFile};

/// Any symmetric set of the compiler's flows.
fn symmetric() -> impl Strategy<Value = GenConfig> {
    (
        any::<bool>(),
        1u64..=4,
        (1u32..=3, 1usize..=8),
        8usize..160,
        (0usize..3, 0usize..3, 0usize..5),
        (0usize..3, any::<bool>()),
        0usize..3,
        any::<u64>(),
    )
        .prop_map(
            |(
                modular,
                cores,
                (subgraphs, partitions),
                insts,
                (handoffs, remote_dma, barriers),
                (loops, ring),
                shape,
                seed,
            )| {
                GenConfig {
                    flow: if modular { Flow::Modular } else { Flow::Flat },
                    cores,
                    subgraphs,
                    partitions: partitions.max(subgraphs as usize),
                    insts,
                    handoffs,
                    remote_dma,
                    barriers,
                    loop_depth: loops,
                    ring: ring && cores > 1,
                    shape: [Shape::Gen, Shape::Real, Shape::Short][shape],
                    compact: seed % 2 == 0,
                    seed,
                    ..GenConfig::default()
                }
            },
        )
}

/// A generated set (its documents, edited or not) as one bundle.
fn bundle(set: &gen::GenSet) -> Vec<SourceFile> {
    let mut bundle = json!({"modules": set.modules});
    if let Some(netlist) = &set.netlist {
        bundle["netlist"] = netlist.clone();
    }
    vec![SourceFile::text("linkset.json", bundle.to_string())]
}

/// Removes the `k`-th `CoreBarrier` (walk order, loop bodies included) of module `i`;
/// its engine, when there was one.
fn remove_barrier(set: &mut gen::GenSet, i: usize, k: usize) -> Option<String> {
    fn walk(blocks: &mut Vec<Value>, k: &mut usize) -> Option<String> {
        for block in blocks {
            let Some(insts) = block.get_mut("instructions").and_then(Value::as_array_mut) else { continue };
            let mut at = 0;
            while at < insts.len() {
                if insts[at]["opcode"] == "CoreBarrier" {
                    if *k == 0 {
                        let engine = insts[at]["engine"].as_str().unwrap_or("Unassigned").to_owned();
                        insts.remove(at);
                        return Some(engine);
                    }
                    *k -= 1;
                }
                if let Some(body) = insts[at].get_mut("blocks").and_then(Value::as_array_mut) {
                    if let Some(engine) = walk(body, k) {
                        return Some(engine);
                    }
                }
                at += 1;
            }
        }
        None
    }
    let mut k = k;
    let functions = set.modules.get_mut(i)?.get_mut("functions")?.as_array_mut()?;
    functions.iter_mut().find_map(|f| walk(f.get_mut("blocks")?.as_array_mut()?, &mut k))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// A symmetric set completes, exactly, with no finding (notes included), and the
    /// replay to its end is its execution.
    #[test]
    fn a_symmetric_set_completes_exactly_with_no_finding(config in symmetric()) {
        let set = gen::generate_set(&config);
        let outcome = birlink_core::run(bundle(&set), &LinkOptions::default());
        let sync = &outcome.report.sync;
        prop_assert_eq!(sync.status, SyncStatus::Ran, "{:?}", sync.why);
        let execution = sync.execution.as_ref().expect("an execution");
        prop_assert_eq!(execution.verdict, Verdict::Completes, "{}", sync.headline());
        prop_assert!(execution.exact, "{:?}", execution.not_exact);
        prop_assert!(sync.findings.is_empty(), "{:?}", sync.findings.iter().map(|f| &f.message).collect::<Vec<_>>());
        let linked = outcome.linked.as_ref().expect("linked");
        let replay = birlink_core::passes::sync::replay(linked, execution.steps, 50);
        prop_assert_eq!(replay.upto, execution.steps);
        prop_assert!(replay.at.iter().all(Option::is_none), "every lane done at the end");
    }

    /// The check with the linked set handed meanwhile to other work (the CLI writes it),
    /// on two threads — a modular set's programs read first on both, a flat set's beside
    /// that work — reports what the check on one thread alone does, and the work is
    /// given the set once.
    #[test]
    fn the_check_beside_other_work_reports_what_it_reports_alone(config in symmetric()) {
        let set = gen::generate_set(&config);
        let alone = birlink_core::run(bundle(&set), &LinkOptions { threads: 1, ..LinkOptions::default() });
        let mut given = Vec::new();
        let mut beside = |linked: &birlink_core::model::linked::LinkedSet| given.push(linked.modules.len());
        let options = LinkOptions { threads: 2, ..LinkOptions::default() };
        let with = birlink_core::passes::run_beside(bundle(&set), &options, &mut |_| {}, Some(&mut beside));
        prop_assert_eq!(given, vec![alone.linked.as_ref().map_or(0, |l| l.modules.len())]);
        let bytes = |outcome: &birlink_core::Outcome| serde_json::to_string(&outcome.report.sync).expect("serialises");
        prop_assert_eq!(bytes(&with), bytes(&alone));
        let diagnostics = |outcome: &birlink_core::Outcome| serde_json::to_string(&outcome.report.diagnostics).expect("serialises");
        prop_assert_eq!(diagnostics(&with), diagnostics(&alone));
    }

    /// One barrier off one core's engine: BL0701 where the cores part, and a hang at a
    /// lane of that engine on a core that kept it, exactly.
    #[test]
    fn a_barrier_off_one_cores_engine_is_bl0701_and_the_hang_it_makes(
        config in symmetric().prop_filter("two cores or more, with barriers", |c| c.cores > 1 && c.barriers > 0),
        which in any::<(u64, usize)>(),
    ) {
        let mut set = gen::generate_set(&config);
        // A module of a core other than 0 (every module of the grid is one core's).
        let modules = set.modules.len();
        let i = 1 + (which.0 as usize) % (modules - 1);
        let core = set.modules[i]["attributes"]["neuron_core_id"].as_u64().expect("a core");
        prop_assume!(core != 0);
        let Some(engine) = remove_barrier(&mut set, i, which.1 % (config.barriers.max(2))) else {
            return Ok(());
        };
        let outcome = birlink_core::run(bundle(&set), &LinkOptions::default());
        let sync = &outcome.report.sync;
        prop_assert_eq!(sync.status, SyncStatus::Ran, "{:?}", sync.why);
        let parted = sync.findings.iter().find(|f| f.code == Code::SyncBarrierCount);
        prop_assert!(parted.is_some_and(|f| f.core == Some(core) && f.engine.as_deref() == Some(engine.as_str())),
            "{:?}", sync.findings.iter().map(|f| (&f.code, f.core, &f.engine)).collect::<Vec<_>>());
        let execution = sync.execution.as_ref().expect("an execution");
        // The engine's barriers are a rendezvous of every core: a core that kept the
        // barrier waits there for the one that lost it.
        prop_assert_eq!(execution.verdict, Verdict::Deadlock, "{}", sync.headline());
        prop_assert!(execution.exact, "{:?}", execution.not_exact);
        let stuck = execution.blocked.iter().find(|b| b.engine == engine && b.kind == BlockedKind::Rendezvous && b.core != core);
        prop_assert!(stuck.is_some(), "{:?}", execution.blocked.iter().map(|b| (b.core, &b.engine, &b.instruction)).collect::<Vec<_>>());
        prop_assert!(execution.blocked.iter().any(|b| b.root), "a root lane");
        prop_assert!(sync.findings.iter().any(|f| f.code == Code::SyncDeadlock && f.engine.as_deref() == Some(engine.as_str())));
        // The cores' programs read on threads of their own: the same report.
        let threaded = birlink_core::run(bundle(&set), &LinkOptions { threads: 2, ..LinkOptions::default() });
        let bytes = |sync: &birlink_core::output::sync::Sync| serde_json::to_string(sync).expect("serialises");
        prop_assert_eq!(bytes(&threaded.report.sync), bytes(sync));
    }
}
