//! Two link sets compared (`tools::compare`): one generated pair per kind of
//! difference, each linked by the real pipeline, and the JSON of one pair snapshotted.

use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::tools::compare::{compare, CompareOptions, Comparison, Normalize};
use birlink_core::{LinkOptions, Outcome, SourceFile};

fn bundle(config: &GenConfig) -> String {
    let files = gen::generate(config, Layout::Bundle);
    String::from_utf8(files[0].bytes.clone()).unwrap()
}

fn link(text: &str) -> Outcome {
    birlink_core::run(vec![SourceFile::text("linkset.json", text)], &LinkOptions::default())
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
    assert!(c.sides[1].errors.iter().any(|e| e.code == "1514" && e.ncc.as_deref() == Some("NCC_ILLC059")));
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
