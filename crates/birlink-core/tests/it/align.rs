//! `align::of`: barriers and remote DMA blocks of every core lined up by position, on
//! the samples shaped like the public failures.

use birlink_core::gen::samples;
use birlink_core::tools::align;
use birlink_core::SourceFile;

use crate::support::link;

fn sample(file: &str) -> birlink_core::Outcome {
    let (_, bytes) = samples::all().into_iter().find(|(info, _)| info.file == file).expect("sample");
    link(vec![SourceFile {
        path: file.to_owned(),
        content: birlink_core::Content::Bytes(bytes),
        role: birlink_core::Role::Auto,
    }])
}

#[test]
fn a_clean_link_aligns_every_barrier_and_pairs_every_block() {
    let alignment = align::of(&sample("matmul-2core.json"));
    assert_eq!(alignment.cores, vec![0, 1]);
    // Three barriers per core, then the completion barrier bir_linker adds (named after
    // its core, so not compared).
    assert_eq!(alignment.barriers.len(), 4);
    assert!(alignment.barriers.iter().all(|r| !r.mismatch && r.cells.iter().all(Option::is_some)));
    let last = &alignment.barriers[3];
    assert!(last.cells.iter().flatten().all(|c| c.added && c.name.starts_with("cb_return_")), "{last:?}");
    // Renumbered: core 0 keeps 0..3 (its completion barrier gets 3), core 1's 0..3
    // become 4..7.
    let core1: Vec<(Option<u64>, Option<u64>)> =
        alignment.barriers.iter().map(|r| r.cells[1].as_ref().map(|c| (c.old_id, c.new_id)).unwrap()).collect();
    assert_eq!(core1, vec![(Some(0), Some(4)), (Some(1), Some(5)), (Some(2), Some(6)), (Some(0), Some(7))]);
    assert_eq!(alignment.blocks.len(), 2);
    assert!(alignment.blocks.iter().all(|r| !r.mismatch));
    let first = alignment.blocks[0].cells[0].as_ref().unwrap();
    assert_eq!(first.targets, vec![1]);
    assert_eq!(first.relinked.len(), 1, "vnc_link relinked its remote update: {first:?}");
}

#[test]
fn sendrecv_called_twice_shows_the_sixth_barrier_differing() {
    let alignment = align::of(&sample("sendrecv-called-twice.json"));
    let mismatched: Vec<usize> = alignment.barriers.iter().filter(|r| r.mismatch).map(|r| r.index).collect();
    assert_eq!(mismatched, vec![5]);
    let row = &alignment.barriers[5];
    assert_eq!(row.cells[0].as_ref().unwrap().name, "CoreBarrier-0_480");
    assert_eq!(row.cells[1].as_ref().unwrap().name, "CoreBarrier-0_180");
}

#[test]
fn a_1512_failure_leaves_blocks_unpaired() {
    let alignment = align::of(&sample("error-1512.json"));
    let unpaired: Vec<&align::Row<align::BlockCell>> = alignment.blocks.iter().filter(|r| r.mismatch).collect();
    assert!(!unpaired.is_empty(), "{alignment:?}");
    assert!(unpaired.iter().all(|r| r.cells.iter().any(Option::is_none)));
    // Nothing was relinked: the pass stopped at the check.
    assert!(alignment.blocks.iter().flat_map(|r| r.cells.iter().flatten()).all(|c| c.relinked.is_empty()));
}

#[test]
fn no_linked_module_no_alignment() {
    let alignment = align::of(&sample("error-1203.json"));
    assert_eq!(alignment, align::Alignment::default());
}
