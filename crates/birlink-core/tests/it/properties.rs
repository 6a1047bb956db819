//! Property tests over generated link sets (any number of cores, instructions,
//! handoffs, remote DMA blocks, barriers, loop depth, unknown keys, ring or not, either
//! layout). For every set the link must succeed cleanly and the linked module must show
//! the invariants of spec §3–§5:
//!
//! * renumbered barrier ids are unique and dense in walk order;
//! * every remote update carries its peer's first local id;
//! * alias edges are symmetric;
//! * every remote view carries its owner's physical tuple and address space;
//! * no input key is lost (every unknown key's value reappears in `linked.json`), and
//!   random keys holding random JSON, put into every object of every module, come out
//!   under the same name with the same value;
//! * two runs give the same bytes, module order does not matter, and re-running the
//!   VNC passes on `linked.json` changes nothing.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::Value;

use crate::support::seeds;
use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::model::ir::{opcode, Allocation, Module, UpdateView};
use birlink_core::passes::partition::{memlocs, MemlocIndex, Partitions};
use birlink_core::{Flow, LinkOptions, Severity, SourceFile};

fn config_strategy() -> impl Strategy<Value = (GenConfig, bool)> {
    (
        1u64..=5,
        0usize..300,
        0usize..4,
        0usize..4,
        0usize..5,
        0usize..3,
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(cores, insts, handoffs, remote_dma, barriers, loop_depth, unknown_keys, ring, seed, files)| {
            let config = GenConfig {
                cores,
                insts,
                handoffs,
                remote_dma,
                barriers,
                loop_depth,
                unknown_keys,
                netlist: seed % 3 == 0,
                ring,
                compact: seed % 2 == 0,
                sorted: seed % 4 != 1,
                shape: if seed % 3 == 1 { gen::Shape::Real } else { gen::Shape::Gen },
                seed,
                fault: None,
                scenario: None,
                ..GenConfig::default()
            };
            (config, files)
        })
}

fn sources(config: &GenConfig, files: bool) -> Vec<SourceFile> {
    let layout = if files { Layout::Files } else { Layout::Bundle };
    gen::generate(config, layout).iter().map(gen::GenFile::source).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn generated_sets_link_with_every_invariant((config, files) in config_strategy()) {
        let outcome = birlink_core::run(sources(&config, files), &seeds());
        let problems: Vec<String> = outcome
            .report
            .diagnostics
            .iter()
            .filter(|d| d.severity > Severity::Note)
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        prop_assert!(problems.is_empty(), "{problems:?}");
        let linked = outcome.linked.as_ref().and_then(birlink_core::LinkedSet::single).expect("linked");

        barriers_dense(linked, &outcome.report)?;
        remote_updates_relinked(linked)?;
        aliases_symmetric(linked)?;
        views_carry_owner_tuples(linked)?;
        if config.unknown_keys {
            no_key_lost(&sources(&config, files), linked)?;
        }

        // Same input, same bytes; module order does not matter.
        let again = birlink_core::run(sources(&config, files), &seeds());
        prop_assert_eq!(birlink_core::report_json(&outcome), birlink_core::report_json(&again));
        let linked_json = birlink_core::linked_json(&outcome).expect("linked");
        prop_assert_eq!(&linked_json, &birlink_core::linked_json(&again).expect("linked"));
        if files {
            let mut reversed = sources(&config, files);
            reversed.reverse();
            let shuffled = birlink_core::run(reversed, &seeds());
            prop_assert_eq!(&linked_json, &birlink_core::linked_json(&shuffled).expect("linked"));
        }

        // The VNC passes are idempotent on their own output.
        let rerun = birlink_core::run(
            vec![SourceFile::text("linked.json", linked_json.clone())],
            &LinkOptions { passes: Some(vec!["vnc_remote_addr_map".into(), "vnc_link".into()]), ..seeds() },
        );
        prop_assert!(!birlink_core::diag::has_errors(&rerun.report.diagnostics), "{:?}", rerun.report.diagnostics);
        prop_assert_eq!(&linked_json, &birlink_core::linked_json(&rerun).expect("relinked"));
    }
}

fn barriers_dense(linked: &Module, report: &birlink_core::output::report::Report) -> Result<(), TestCaseError> {
    let mut ids = Vec::new();
    for &function in &linked.functions {
        linked.walk_function(function, &mut |inst| {
            let inst = &linked.store.insts[inst];
            if inst.opcode() == opcode::CORE_BARRIER {
                if let Some(id) = inst.fields().get("id").and_then(Value::as_u64) {
                    ids.push(id);
                }
            }
        });
    }
    let expected: Vec<u64> = (0..ids.len() as u64).collect();
    prop_assert_eq!(&ids, &expected, "barrier ids in walk order");
    let reported: Vec<u64> = report.barriers.iter().map(|b| b.new_id).collect();
    prop_assert_eq!(reported, expected);
    Ok(())
}

fn remote_blocks(
    linked: &Module,
) -> BTreeMap<u64, Vec<birlink_core::model::arena::Handle<birlink_core::model::ir::Inst>>> {
    let partitions = Partitions::of(linked);
    let mut out = BTreeMap::new();
    for partition in partitions.iter() {
        let mut blocks = Vec::new();
        for &function in &partition.functions {
            linked.walk_function(function, &mut |inst| {
                if linked.store.insts[inst].is_remote_dma_block() {
                    blocks.push(inst);
                }
            });
        }
        for &instance in &partition.instances {
            for &inst in &linked.store.instances[instance].insts {
                if linked.store.insts[inst].is_remote_dma_block() {
                    blocks.push(inst);
                }
            }
        }
        out.insert(partition.core, blocks);
    }
    out
}

fn remote_updates_relinked(linked: &Module) -> Result<(), TestCaseError> {
    let blocks = remote_blocks(linked);
    for per_core in blocks.values() {
        for (k, &block) in per_core.iter().enumerate() {
            for update in &linked.store.insts[block].updates() {
                let view = UpdateView::of(update);
                let Some(target) = view.target_core.and_then(Value::as_u64) else {
                    continue;
                };
                let peer = blocks[&target][k];
                let peer_updates = linked.store.insts[peer].updates();
                let local = peer_updates.iter().find(|u| !UpdateView::of(u).is_remote());
                prop_assert_eq!(view.id, local.and_then(|u| u.get("id")), "update of block {} relinked", k);
            }
        }
    }
    Ok(())
}

fn aliases_symmetric(linked: &Module) -> Result<(), TestCaseError> {
    // (function, set, memloc) → its cross-function alias entries.
    type Key = (String, String, String);
    let mut edges: BTreeMap<Key, Vec<(String, String, String, u64)>> = BTreeMap::new();
    for &function in &linked.functions {
        let f = &linked.store.functions[function];
        for allocation in &f.allocations {
            let Allocation::Set(set) = allocation else {
                continue;
            };
            let set_name = linked.store.sets[*set].name(&linked.store);
            for &memloc in &linked.store.sets[*set].memlocs {
                let m = &linked.store.memlocs[memloc];
                for alias in m.aliases() {
                    if let Some(target_function) = alias.function {
                        edges.entry((f.name().to_owned(), set_name.clone(), m.name().to_owned())).or_default().push((
                            target_function,
                            alias.set,
                            alias.memloc,
                            alias.kind,
                        ));
                    }
                }
            }
        }
    }
    for ((function, set, memloc), targets) in &edges {
        for (tf, ts, tm, kind) in targets {
            let back = edges.get(&(tf.clone(), ts.clone(), tm.clone()));
            let found = back
                .is_some_and(|b| b.iter().any(|(f, s, m, k)| f == function && s == set && m == memloc && k == kind));
            prop_assert!(found, "edge {}/{}/{} → {}/{}/{} has no way back", function, set, memloc, tf, ts, tm);
        }
    }
    Ok(())
}

fn views_carry_owner_tuples(linked: &Module) -> Result<(), TestCaseError> {
    let partitions = Partitions::of(linked);
    for partition in partitions.iter() {
        for at in memlocs(linked, partition) {
            let view = &linked.store.memlocs[at.memloc];
            let Some(target) = view.remote_target() else {
                continue;
            };
            let owner = partitions.get(target.core).expect("owner partition");
            let found = MemlocIndex::build(linked, owner).find(&target.name, None).expect("owner memloc");
            let owner_space = linked.store.sets[found.set].addr_space().to_owned();
            let view_space = linked.store.sets[at.set].addr_space().to_owned();
            prop_assert_eq!(view.phys_tuple(&view_space), linked.store.memlocs[found.memloc].phys_tuple(&owner_space));
            for key in ["type", "addr", "bank", "base", "allocated"] {
                prop_assert!(view.fields.contains_key(key), "view `{}` lacks explicit `{}`", view.name(), key);
            }
        }
    }
    Ok(())
}

/// Every `x_birlink_probe` value of the inputs is somewhere in `linked.json`.
fn no_key_lost(sources: &[SourceFile], linked: &Module) -> Result<(), TestCaseError> {
    fn probes(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    if key == "x_birlink_probe" {
                        out.push(child.to_string());
                    } else {
                        probes(child, out);
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| probes(i, out)),
            _ => {}
        }
    }
    let mut expected = Vec::new();
    for source in sources {
        let text = std::str::from_utf8(source.content.bytes().expect("bytes")).expect("utf8");
        probes(&serde_json::from_str(text).expect("json"), &mut expected);
    }
    let mut found = Vec::new();
    probes(&birlink_core::output::json::module_to_value(linked), &mut found);
    // Every input value is found at least as often as it was given (a queue's keys can
    // appear more often: each instance of a differing queue keeps them as `source_queue`).
    let mut available: BTreeMap<String, usize> = BTreeMap::new();
    for probe in found {
        *available.entry(probe).or_default() += 1;
    }
    for probe in expected {
        let left = available.entry(probe.clone()).or_default();
        prop_assert!(*left > 0, "unknown key value {} was lost", probe);
        *left -= 1;
    }
    Ok(())
}

/// Any JSON value: the scalars at their extremes, unicode text, nesting.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e300f64..1e300).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        Just(Value::from("<img src=x onerror=alert(1)> \\ \" \u{1F600}")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

/// Puts `probes` round-robin into every object of `value` (depth first, the object's
/// own children first), each under its own name `x_<name>_<n>`; returns the pairs put.
fn put_probes(value: &mut Value, probes: &[(String, Value)], next: &mut usize, put: &mut Vec<(String, Value)>) {
    match value {
        Value::Object(map) => {
            for child in map.values_mut() {
                put_probes(child, probes, next, put);
            }
            let (name, probe) = &probes[*next % probes.len()];
            let key = format!("x_{name}_{next}");
            *next += 1;
            map.insert(key.clone(), probe.clone());
            put.push((key, probe.clone()));
        }
        Value::Array(items) => items.iter_mut().for_each(|item| put_probes(item, probes, next, put)),
        _ => {}
    }
}

/// Every `(key, value)` pair of `value`, at any depth.
fn pairs(value: &Value, out: &mut BTreeMap<(String, String), usize>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                if key.starts_with("x_") {
                    *out.entry((key.clone(), child.to_string())).or_default() += 1;
                }
                pairs(child, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| pairs(item, out)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_unknown_keys_survive_verbatim(
        cores in 1u64..=4,
        insts in 0usize..40,
        handoffs in 0usize..3,
        remote_dma in 0usize..3,
        barriers in 0usize..3,
        loop_depth in 0usize..3,
        seed in any::<u64>(),
        probes in prop::collection::vec(("[a-z]{1,6}", json_value()), 1..16),
        layout in 0usize..4,
    ) {
        let layout = birlink_core::output::layout::Layout::ALL[layout];
        let config = GenConfig {
            cores, insts, handoffs, remote_dma, barriers, loop_depth, seed,
            ring: seed % 2 == 0,
            ..GenConfig::default()
        };
        let mut next = 0;
        let mut put = Vec::new();
        let sources: Vec<SourceFile> = gen::generate(&config, Layout::Files)
            .iter()
            .map(|file| {
                let mut value: Value = serde_json::from_slice(&file.bytes).expect("generated json");
                put_probes(&mut value, &probes, &mut next, &mut put);
                SourceFile::text(file.path.clone(), birlink_core::output::layout::print(&value, layout))
            })
            .collect();
        let oracle = birlink_core::tools::selfcheck::check_layouts(&sources, &seeds());
        prop_assert!(oracle.is_ok(), "{}: {:?}", layout.name(), oracle);
        let outcome = birlink_core::run(sources, &seeds());
        let errors: Vec<String> = outcome
            .report
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        prop_assert!(errors.is_empty(), "{errors:?}");
        let text = birlink_core::linked_json(&outcome).expect("linked");
        let mut found = BTreeMap::new();
        pairs(&serde_json::from_str(&text).expect("linked.json parses"), &mut found);
        for (key, value) in put {
            let left = found.entry((key.clone(), value.to_string())).or_default();
            prop_assert!(*left > 0, "`{key}`: {value} did not come out unchanged");
            *left -= 1;
        }
    }
}

/// The compiler's flows: any cores, subgraphs, partitions, instructions, shapes and
/// netlist layout, in files or a bundle.
fn grid_strategy() -> impl Strategy<Value = (GenConfig, bool)> {
    (
        any::<bool>(),
        1u64..=4,
        1u32..=4,
        1usize..=12,
        0usize..120,
        (0usize..3, 0usize..3, 0usize..4),
        0usize..4,
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(
            |(modular, cores, subgraphs, partitions, insts, (handoffs, remote_dma, barriers), io, seed, files)| {
                let config = GenConfig {
                    flow: if modular { Flow::Modular } else { Flow::Flat },
                    cores,
                    subgraphs,
                    // Every subgraph is a definition some partition calls, as in a compile.
                    partitions: partitions.max(subgraphs as usize),
                    insts,
                    handoffs,
                    remote_dma,
                    barriers,
                    io_shape: gen::IoShape::ALL[io],
                    compact: seed % 2 == 0,
                    sorted: seed % 3 != 1,
                    shape: if seed % 5 == 1 { gen::Shape::Real } else { gen::Shape::Gen },
                    seed,
                    ..GenConfig::default()
                };
                (config, files)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Every generated set of the compiler's flows links cleanly, as the compiler links
    /// it: the flow it is, a `bir_linker` per core in the modular flow (none in the flat
    /// one), one dispatcher call per partition on every core, each core's module at its
    /// place, every core's log block ending in one module, barrier ids dense within each
    /// core's module; the same bytes twice, and the VNC passes a fixed point of their
    /// own output.
    #[test]
    fn grid_sets_link_as_the_compiler_links_them((config, files) in grid_strategy()) {
        let outcome = birlink_core::run(sources(&config, files), &Default::default());
        let problems: Vec<String> = outcome
            .report
            .diagnostics
            .iter()
            .filter(|d| d.severity > Severity::Note)
            .map(|d| format!("{} {}", d.code, d.message))
            .collect();
        prop_assert!(problems.is_empty(), "{problems:?}");
        let report = &outcome.report;
        prop_assert_eq!(report.options.flow, config.flow);
        prop_assert_eq!(report.options.lnc, config.cores);
        let linked = outcome.linked.as_ref().expect("linked");
        prop_assert_eq!(linked.modules.len() as u64, config.cores);
        let linker_rows = report.passes.iter().filter(|p| p.name == birlink_core::Pass::BirLinker).count() as u64;
        let log = birlink_core::bir_linker_log(&outcome).unwrap_or_default();
        match config.flow {
            Flow::Modular => {
                prop_assert_eq!(linker_rows, config.cores);
                prop_assert_eq!(report.dispatcher.len() as u64, config.partitions as u64 * config.cores);
                prop_assert_eq!(report.partitions.len(), config.partitions);
                for (core, module) in linked.modules.iter().enumerate() {
                    prop_assert_eq!(&module.name, &birlink_core::model::place::Place::linked(core as u64).to_string());
                }
                prop_assert_eq!(log.matches("[CoreForkPass]: Output has 1 module(s)").count() as u64, config.cores);
            }
            _ => {
                prop_assert_eq!(linker_rows, 0);
                prop_assert!(report.dispatcher.is_empty());
                prop_assert!(!log.contains("[BirLinker]"));
            }
        }
        for module in &linked.modules {
            let mut ids = Vec::new();
            for &function in &module.module.functions {
                module.module.walk_function(function, &mut |inst| {
                    let inst = &module.module.store.insts[inst];
                    if inst.opcode() == opcode::CORE_BARRIER {
                        ids.extend(inst.fields().get("id").and_then(Value::as_u64));
                    }
                });
            }
            if config.flow == Flow::Modular {
                let expected: Vec<u64> = (0..ids.len() as u64).collect();
                prop_assert_eq!(ids, expected, "barrier ids of {} dense in walk order", module.name);
            }
        }
        // Same input, same bytes.
        let again = birlink_core::run(sources(&config, files), &Default::default());
        prop_assert_eq!(birlink_core::report_json(&outcome), birlink_core::report_json(&again));
        prop_assert_eq!(&log, &birlink_core::bir_linker_log(&again).unwrap_or_default());
        // The VNC passes are a fixed point of their own output.
        let linked_json = birlink_core::linked_json(&outcome).expect("linked");
        let rerun = birlink_core::run(
            vec![SourceFile::text("linked.json", linked_json.clone())],
            &LinkOptions { passes: Some(vec!["vnc_remote_addr_map".into(), "vnc_link".into()]), ..Default::default() },
        );
        prop_assert!(!birlink_core::diag::has_errors(&rerun.report.diagnostics), "{:?}", rerun.report.diagnostics);
        prop_assert_eq!(&linked_json, &birlink_core::linked_json(&rerun).expect("relinked"));
    }
}
