//! Two link sets compared (`tools::compare`): one generated pair per kind of
//! difference, each linked by the real pipeline, and the JSON of one pair snapshotted.

use crate::support::seeds;
use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::tools::compare::{compare, CompareOptions, Comparison, Normalize};
use birlink_core::{Outcome, SourceFile};

fn bundle(config: &GenConfig) -> String {
    let files = gen::generate(config, Layout::Bundle);
    String::from_utf8(files[0].bytes.clone()).unwrap()
}

fn link(text: &str) -> Outcome {
    birlink_core::run(vec![SourceFile::text("linkset.json", text)], &seeds())
}

fn pairs(c: &Comparison) -> Vec<(u64, u64)> {
    c.core_map.iter().map(|p| (p.a, p.b)).collect()
}

fn base() -> GenConfig {
    gen::samples::fault_config()
}

fn diff(a: &str, b: &str, options: &CompareOptions) -> Comparison {
    compare(&link(a), &link(b), options)
}

#[test]
fn identical_sets_agree() {
    let text = bundle(&base());
    let c = diff(&text, &text, &CompareOptions::default());
    assert!(c.equal, "{c:#?}");
    assert!(c.entities.is_empty() && c.first_divergence.is_empty() && c.barriers.is_empty());
    assert_eq!(c.diagnostics.both.len(), 0);
    assert_eq!(pairs(&c), [(0, 0), (1, 1)]);
    assert_eq!(c.sides[0], c.sides[1]);
    assert_eq!(c.explanation(), None);
}

#[test]
fn a_renamed_memory_location_is_a_changed_and_an_added_and_removed_entity() {
    let a = bundle(&base());
    // Core 1's module only: the second occurrence onwards is core 1's in the bundle.
    let at = a.find("\"neuron_core_id\": 1").unwrap();
    let b = format!("{}{}", &a[..at], a[at..].replace("sb_tile_1", "sb_tile_one"));
    let c = diff(&a, &b, &CompareOptions::default());
    assert!(!c.equal);
    assert!(c.entities.removed.iter().any(|k| k == "memloc:1:nc01/sb_tile_1"), "{:?}", c.entities.removed);
    assert!(c.entities.added.iter().any(|k| k == "memloc:1:nc01/sb_tile_one"), "{:?}", c.entities.added);
    assert!(c.entities.changed.iter().any(|e| e.b.contains("sb_tile_one")));
    // Core 0 is untouched: only core 1 diverges, and where it does the names say why.
    assert_eq!(c.first_divergence.len(), 1);
    let d = &c.first_divergence[0];
    assert_eq!(d.core, 1);
    assert!(d.b.as_ref().unwrap().text.contains("sb_tile_one"), "{d:?}");
    // Both link: what explains the rest is a diagnostic of one side, or where core 1 parts.
    let told = c.explanation().unwrap();
    assert!(told.contains("reports") || told.starts_with("core 1 first parts"), "{told}");
}

#[test]
fn an_extra_barrier_is_one_position_one_side_has_not() {
    let a = bundle(&base());
    let b = bundle(&GenConfig { barriers: base().barriers + 1, ..base() });
    let c = diff(&a, &b, &CompareOptions::default());
    assert!(!c.equal);
    assert!(c.barriers.iter().any(|r| r.a.is_none() && r.b.is_some()), "{:?}", c.barriers);
    assert!(c.cores.iter().all(|row| row.differs.contains(&"barriers".to_owned())), "{:?}", c.cores);
}

#[test]
fn a_renamed_barrier_differs_by_name_and_numbering_alone_can_be_masked() {
    let a = bundle(&GenConfig { barriers: 6, scenario: Some(gen::Scenario::SendrecvCalledTwice), ..base() });
    // Every barrier renumbered on both cores: only the numbers in names differ.
    let b = a.replace("CoreBarrier-0_", "CoreBarrier-1_");
    let plain = diff(&a, &b, &CompareOptions::default());
    assert!(!plain.equal);
    assert!(!plain.barriers.is_empty() && plain.barriers.iter().all(|r| r.a.is_some() && r.b.is_some()));
    let first = &plain.barriers[0];
    assert_ne!(first.a.as_ref().unwrap().name, first.b.as_ref().unwrap().name);
    let masked = diff(&a, &b, &CompareOptions { normalize: Normalize { numbers: true }, ..Default::default() });
    assert!(masked.equal, "{:#?}", masked.entities);
    assert_eq!(masked.normalization.applied, ["numbers"]);
    assert!(masked.normalization.keys_changed > 0);
    let examples = &masked.normalization.examples;
    assert!(
        !examples.is_empty() && examples.iter().all(|m| m.compared == Normalize { numbers: true }.apply(&m.written))
    );
}

#[test]
fn a_missing_remote_dma_block_is_a_position_of_one_side() {
    let a = bundle(&base());
    let b = bundle(&GenConfig { remote_dma: base().remote_dma - 1, ..base() });
    let c = diff(&a, &b, &CompareOptions::default());
    assert!(!c.equal);
    assert!(c.blocks.iter().any(|r| r.a.is_some() && r.b.is_none()), "{:?}", c.blocks);
    assert!(c.cores.iter().any(|row| row.differs.contains(&"remote_dma_blocks".to_owned())));
}

#[test]
fn lnc_1_against_lnc_2_compares_core_0_and_lists_core_1_as_b_s_only() {
    let a = bundle(&GenConfig { cores: 1, ..base() });
    let b = bundle(&base());
    let c = diff(&a, &b, &CompareOptions::default());
    assert!(!c.equal);
    assert_eq!((c.sides[0].lnc, c.sides[1].lnc), (1, 2));
    assert_eq!(pairs(&c), [(0, 0), (1, 1)]);
    let only_b = c.cores.iter().find(|row| row.core == 1).unwrap();
    assert!(only_b.a.is_none() && only_b.b.is_some());
    assert!(c.entities.added.iter().any(|k| k.starts_with("function:1:")), "{:?}", c.entities.added);
    // LNC 1 has nothing to relink: BL0403 on A's side only.
    assert!(c.diagnostics.only_a.iter().any(|k| k.code == "BL0403"));
}

#[test]
fn a_failing_side_says_where_and_with_what() {
    let a = bundle(&base());
    let b = bundle(&GenConfig { fault: Some(birlink_core::Code::RemoteMemlocMissing), ..base() });
    let c = diff(&a, &b, &CompareOptions::default());
    assert!(!c.equal);
    assert!(c.sides[0].ok && !c.sides[1].ok);
    assert_eq!(c.sides[1].failed_pass, Some(birlink_core::Pass::VncRemoteAddrMap));
    // 1514 is vnc_remote_addr_map's: the compiler's NCC_ILLC059 is lower_local_collectives'.
    assert!(c.sides[1].errors.iter().any(|e| e.code == "1514" && e.ncc.is_none()));
    assert!(c.diagnostics.only_b.iter().any(|k| k.code == "1514"));
}

#[test]
fn a_core_map_pairs_swapped_cores() {
    let a = bundle(&base());
    let c = diff(&a, &a, &CompareOptions { core_map: [(0, 1), (1, 0)].into_iter().collect(), ..Default::default() });
    assert_eq!(pairs(&c), [(0, 1), (1, 0)]);
    // The two cores' programs are not the same program: they differ, and are compared.
    assert!(!c.equal);
    assert_eq!(c.cores.len(), 2);
}

#[test]
fn the_comparison_json() {
    let a = bundle(&base());
    let b = bundle(&GenConfig { barriers: base().barriers + 1, ..base() });
    let c = diff(&a, &b, &CompareOptions::default());
    insta::assert_snapshot!("compare-extra-barrier.json", birlink_core::output::json::to_pretty_string(&c));
    // Same inputs, same bytes.
    assert_eq!(c, diff(&a, &b, &CompareOptions::default()));
}

/// Every instruction of every module given a `debug` object naming its kernel line,
/// as real dumps carry them.
fn with_debug(config: &GenConfig, line_of: &dyn Fn(usize, &str) -> u64) -> String {
    let mut set = gen::generate_set(config);
    for (core, module) in set.modules.iter_mut().enumerate() {
        let mut stack: Vec<&mut serde_json::Value> = vec![module];
        while let Some(value) = stack.pop() {
            match value {
                serde_json::Value::Object(map) => {
                    if map.contains_key("opcode") {
                        let name = map.get("name").and_then(|n| n.as_str()).unwrap_or("").to_owned();
                        map.insert(
                            "debug".into(),
                            serde_json::json!({"filename": "ring_attention.py", "lineno": line_of(core, &name)}),
                        );
                    }
                    stack.extend(map.values_mut());
                }
                serde_json::Value::Array(list) => stack.extend(list.iter_mut()),
                _ => {}
            }
        }
    }
    serde_json::json!({"modules": set.modules}).to_string()
}

#[test]
fn the_kernel_line_behind_a_diagnostic_an_entity_and_a_divergence() {
    let config = GenConfig { fault: Some(birlink_core::Code::UnknownQueue), ..base() };
    let a = with_debug(&config, &|_, _| 142);
    let outcome = link(&a);
    let d = outcome.report.diagnostics.iter().find(|d| d.code == birlink_core::Code::UnknownQueue).expect("BL0201");
    assert_eq!(d.source.as_deref(), Some("ring_attention.py:142"), "{:?}", d.location);
    let module = outcome.linked.as_ref().unwrap();
    let (_, key) = birlink_core::tools::query::all_keys(module)
        .into_iter()
        .find(|(_, k)| {
            k.kind() == birlink_core::EntityKind::Instruction && k.core == Some(1) && k.name().ends_with(":mm")
        })
        .unwrap();
    let view = birlink_core::tools::query::entity_view_by_key(module, &outcome.files, &key).unwrap();
    assert_eq!(view.source.as_deref(), Some("ring_attention.py:142"));
    // The debug line is not the program: alone it is no divergence.
    let moved = with_debug(&config, &|core, _| if core == 1 { 150 } else { 142 });
    assert!(diff(&a, &moved, &CompareOptions::default()).first_divergence.is_empty());
    // Core 1 changed, and on other lines: the divergence says both sides' lines.
    let at = moved.find("\"neuron_core_id\":1").expect("core 1's module");
    let b = format!("{}{}", &moved[..at], moved[at..].replace("sb_tile_1", "sb_tile_one"));
    let c = diff(&a, &b, &CompareOptions::default());
    let first = c.first_divergence.iter().find(|d| d.core == 1).expect("core 1 parts");
    assert_eq!(first.a.as_ref().and_then(|p| p.source.as_deref()), Some("ring_attention.py:142"));
    assert_eq!(first.b.as_ref().and_then(|p| p.source.as_deref()), Some("ring_attention.py:150"));
    assert!(c.first_divergence.iter().all(|d| d.core == 1));
}

fn sample(file: &str) -> Outcome {
    let (_, bytes) = gen::samples::all().into_iter().find(|(info, _)| info.file == file).expect("a sample");
    birlink_core::run(
        vec![SourceFile {
            path: file.to_owned(),
            content: birlink_core::Content::Bytes(bytes),
            role: birlink_core::Role::Auto,
        }],
        &seeds(),
    )
}

#[test]
fn each_public_report_s_pair_differs_where_its_story_says() {
    let index = gen::samples::index();
    for (a, b) in gen::samples::PAIRS {
        let info = index.iter().find(|s| s.file == *a).expect("in the index");
        assert_eq!(info.against.as_deref(), Some(*b), "{a} names its other half");
        let c = compare(&sample(a), &sample(b), &CompareOptions::default());
        assert!(!c.equal, "{a} against {b}");
        match *a {
            // Rank 0 links; rank 1's linked dumps fail with 1514 (the compiler stopped
            // earlier, at lower_local_collectives' NCC_ILLC059).
            "ring-attention-with-grid.json" => {
                assert!(c.sides[0].ok && !c.sides[1].ok);
                assert!(c.sides[1].errors.iter().any(|e| e.code == "1514"));
                assert!(c.diagnostics.only_b.iter().any(|k| k.code == "1514" && k.entity.contains("send_k_buf")));
                // What a viewer selects: the entity as B names it.
                let named = c.diagnostics.only_b.iter().find(|k| k.code == "1514").and_then(|k| k.at.clone());
                assert!(
                    named.is_some_and(|e| e.kind == birlink_core::EntityKind::Memloc && e.name.contains("send_k_buf"))
                );
                let told = c.explanation().unwrap_or_default();
                assert!(told.starts_with("A links; B fails in") && told.ends_with("with 1514"), "{told}");
            }
            // LNC 1 against LNC 2: core 0 against core 0, core 1 B's only.
            "matmul-1core.json" => {
                assert_eq!((c.sides[0].lnc, c.sides[1].lnc), (1, 2));
                assert!(c.cores.iter().any(|row| row.core == 1 && row.a.is_none()));
                let told = c.explanation().unwrap_or_default();
                assert!(told.contains("(LNC 1,") && told.contains("(LNC 2,"), "{told}");
            }
            // Called once against twice: core 1's sixth barrier, and only that.
            "sendrecv-called-once.json" => {
                assert_eq!(c.barriers.len(), 1, "{:?}", c.barriers);
                let row = &c.barriers[0];
                assert_eq!((row.core, row.index), (1, 5));
                assert_eq!(row.a.as_ref().map(|e| e.name.as_str()), Some("CoreBarrier-0_480"));
                assert_eq!(row.b.as_ref().map(|e| e.name.as_str()), Some("CoreBarrier-0_180"));
                assert_eq!(c.first_divergence.len(), 1);
                assert_eq!(c.first_divergence[0].core, 1);
                assert_eq!(c.diagnostics.only_b.iter().map(|k| k.code.as_str()).collect::<Vec<_>>(), ["1189"]);
                let told = c.explanation().unwrap_or_default();
                assert_eq!(told, "only B reports 1189 (NCC_IXLV002) about `instruction:1:CoreBarrier-0_180`");
            }
            other => panic!("no story for {other}"),
        }
    }
}

#[test]
fn search_finds_the_instructions_of_a_kernel_file() {
    let text = with_debug(&base(), &|core, _| 100 + core as u64);
    let outcome = link(&text);
    let module = outcome.linked.as_ref().unwrap();
    let hits = birlink_core::tools::query::search(module, "source:ring_attention", 1000);
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.entity.kind == birlink_core::EntityKind::Instruction));
    assert!(birlink_core::tools::query::search(module, "file:other_kernel.py", 1000).is_empty());
    // The linker's own instructions have no kernel line.
    assert!(hits.iter().all(|h| !h.entity.name.starts_with("I-SQI-") && !h.entity.name.starts_with("call_def_")));
}

#[test]
fn the_same_set_in_any_layout_compares_equal() {
    use birlink_core::output::layout::{relayout, Layout};
    let a = bundle(&GenConfig { barriers: 6, scenario: Some(gen::Scenario::SendrecvCalledTwice), ..base() });
    for layout in Layout::ALL {
        let b = relayout(&a, layout).expect("a document");
        let c = diff(&a, &b, &CompareOptions::default());
        assert!(c.equal, "{}: {:#?}", layout.name(), c.entities);
    }
}
