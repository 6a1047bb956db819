//! Step 10, `link_dir`: the link directory `sgLnk/` (`setupLinkDir`, seed §8), planned
//! from the work directory's file list alone (docs/spec/link.md §3.10).
//!
//! Every file of the linked subgraph of each core is placed by its kind
//! ([`workdir::artifact_kind`]): weights, debug info and custom-op files are symlinked
//! into `sgLnk/` under their path below the subgraph folder, CPU-node files copied, the
//! cores' tensor maps merged into one `tensor-map.json` (step 11); the rest (the dumps,
//! the core's programs) stays where it is. One name offered by several cores is one
//! entry when their bytes agree, and BL0315 when they do not. Nothing is written: the
//! CLI's `--link-dir` makes the folder from this plan.
//!
//! In the modular flow ([`plan_core`]) the link directory is each core's
//! `ncCC/sgLnk/`, as the compiler's log says (`Symlinking npy files to WORK/nc00/sgLnk/sg00`,
//! `Symlinking debug_info files from WORK/nc00 to WORK/nc00/sgLnk`, `Symlinking .so files
//! from …`): every linked subgraph's `.npy` files into `sg00/`, the core folder's
//! debug-info and `.so` files into `sgLnk/`, the merged map written as
//! `sg00/tensor_map.json`. CPU-node files, which the modular log never mentions, stay in
//! their subgraph folders (birlink's reading). One name offered by two subgraphs of a
//! core is one entry when their bytes agree, BL0315 when not.

use crate::model::place::{CoreId, Place};
use std::collections::BTreeMap;

use crate::diag::codes::Code;
use crate::diag::{Diagnostic, Location};
use crate::model::pass::Pass;
use crate::output::report::{ArtifactKind, InPlaceRow, LinkDir, LinkDirEntry, Placement, StepRow};
use crate::read::workdir::{self, Artifact, Plan, WorkFile, WorkdirInput};

/// The name of the merged tensor map in the link directory (rodata "tensor-map").
pub const TENSOR_MAP_NAME: &str = "tensor-map.json";

/// Where the modular flow writes a core's merged map, below its `ncCC/sgLnk/` (the
/// compiler's `Writing updated tensor_map WORK/nc00/sgLnk/sg00/tensor_map.json`).
pub const CORE_TENSOR_MAP: &str = "sg00/tensor_map.json";

/// Whether two offers of one name are the same bytes (not read: the sizes agree).
fn same_bytes(a: &WorkFile, b: &WorkFile) -> bool {
    a.size == b.size
        && match (&a.content, &b.content) {
            (Some(a), Some(b)) => a == b,
            // Not read (too large to compare in this build): the sizes agree.
            _ => true,
        }
}

/// Settles the other offers of one name against the entry (the first offer's file): the
/// same bytes join `same_on`, other bytes `differs_on` and get BL0315 at their file.
/// `who` gives an offer's id in those lists (its core, or its subgraph) and its name in
/// words; `said` the collision's message from the first's and the other's names.
fn settle(
    input: &WorkdirInput,
    entry: &mut LinkDirEntry,
    first: &Artifact,
    others: &[&Artifact],
    who: impl Fn(&Artifact) -> (u64, String),
    said: impl Fn(&str, &str) -> String,
    diags: &mut Vec<Diagnostic>,
) {
    let file = &input.files[first.index];
    let (_, mine) = who(first);
    for other in others {
        let theirs = &input.files[other.index];
        let (id, name) = who(other);
        if same_bytes(theirs, file) {
            entry.same_on.push(id);
            continue;
        }
        entry.differs_on.push(id);
        let mut diagnostic = Diagnostic::new(Code::ArtifactCollision, Pass::BirLinker, said(&mine, &name))
            .core(other.core)
            .note(format!("{mine}: `{}`, {} bytes", file.path, file.size))
            .note(format!("{name}: `{}`, {} bytes", theirs.path, theirs.size));
        diagnostic.location =
            Some(Location { file: theirs.path.clone(), pointer: String::new(), line: None, column: None });
        diags.push(diagnostic);
    }
}

/// The entry of a file the link writes (the merged tensor map): `core`'s in the modular
/// flow, every core's in the seeds' reading.
fn written(name: String, core: Option<u64>) -> LinkDirEntry {
    LinkDirEntry {
        name,
        placement: Placement::Write,
        kind: ArtifactKind::TensorMap,
        core,
        subgraph: None,
        source: None,
        bytes: None,
        same_on: Vec::new(),
        differs_on: Vec::new(),
    }
}

/// One core's part of the modular flow's link directory.
pub struct CorePlan {
    /// Its entries, named from the work directory (`nc00/sgLnk/…`), by name.
    pub entries: Vec<LinkDirEntry>,
    /// The core's other files, which stay where they are.
    pub in_place: Vec<InPlaceRow>,
    /// The core's folder as the inputs name it (`WORK/nc00`), for the log.
    pub core_dir: String,
    /// Whether a subgraph of the core has a tensor map (the link writes the merged one).
    pub has_maps: bool,
}

/// Plans core `core`'s `ncCC/sgLnk/` in the modular flow, from the files of the
/// subgraphs linked (`plan.subgraphs`) and of the core's own folder.
pub fn plan_core(input: &WorkdirInput, plan: &Plan, core: u64, diags: &mut Vec<Diagnostic>) -> CorePlan {
    let paths = input.paths();
    let ours = |a: &Artifact| a.core == core && a.subgraph.is_none_or(|s| plan.subgraphs.contains(&s));
    let found: Vec<Artifact> = workdir::all_artifacts(&paths).into_iter().filter(ours).collect();
    let core_dir = found
        .first()
        .map(|a| {
            let path = paths[a.index];
            let depth = path.split('/').count() - a.name.split('/').count() - usize::from(a.subgraph.is_some());
            path.split('/').take(depth).collect::<Vec<_>>().join("/")
        })
        .unwrap_or_else(|| CoreId(core).to_string());
    let mut by_name: BTreeMap<String, Vec<&Artifact>> = BTreeMap::new();
    let mut in_place = Vec::new();
    let mut has_maps = false;
    for artifact in &found {
        if let Some(name) = workdir::modular_place(artifact) {
            by_name.entry(name).or_default().push(artifact);
        } else if artifact.kind == ArtifactKind::TensorMap {
            has_maps |= artifact.subgraph.is_some();
        } else {
            in_place.push(InPlaceRow { core, path: paths[artifact.index].to_owned(), kind: artifact.kind });
        }
    }
    let mut entries = Vec::new();
    for (name, mut offers) in by_name {
        offers.sort_by_key(|a| (a.subgraph, a.index));
        let first = offers[0];
        let file = &input.files[first.index];
        let folder = |a: &Artifact| match a.subgraph {
            Some(s) => Place::subgraph(core, s).to_string(),
            None => CoreId(core).to_string(),
        };
        let mut entry = LinkDirEntry {
            name: name.clone(),
            placement: Placement::Symlink,
            kind: first.kind,
            core: Some(core),
            subgraph: first.subgraph.map(u64::from),
            source: Some(file.path.clone()),
            bytes: Some(file.size),
            same_on: Vec::new(),
            differs_on: Vec::new(),
        };
        let who = |a: &Artifact| (u64::from(a.subgraph.unwrap_or(0)), folder(a));
        let said = |a: &str, b: &str| {
            format!("`{}` is offered by {a} and {b} with different content; `{name}` is {a}'s", first.name)
        };
        settle(input, &mut entry, first, &offers[1..], who, said, diags);
        entries.push(entry);
    }
    if has_maps {
        entries.push(written(format!("{}/{CORE_TENSOR_MAP}", Place::linked(core)), Some(core)));
        entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
    in_place.sort_by(|a, b| a.path.cmp(&b.path));
    CorePlan { entries, in_place, core_dir, has_maps }
}

/// Plans the link directory of a work directory whose modules were linked.
pub fn plan(input: &WorkdirInput, plan: &Plan, diags: &mut Vec<Diagnostic>) -> (LinkDir, StepRow) {
    let paths = input.paths();
    let found = workdir::artifacts(&paths, plan);
    let mut by_name: BTreeMap<&str, Vec<&Artifact>> = BTreeMap::new();
    let mut in_place = Vec::new();
    let mut tensor_maps = 0;
    for artifact in &found {
        if workdir::is_linked(artifact.kind) {
            by_name.entry(artifact.name.as_str()).or_default().push(artifact);
        } else if artifact.kind == ArtifactKind::TensorMap {
            tensor_maps += 1;
        } else {
            in_place.push(InPlaceRow {
                core: artifact.core,
                path: paths[artifact.index].to_owned(),
                kind: artifact.kind,
            });
        }
    }
    let mut entries = Vec::new();
    for (name, mut offers) in by_name {
        offers.sort_by_key(|a| (a.core, a.index));
        let first = offers[0];
        let file = &input.files[first.index];
        let mut entry = LinkDirEntry {
            name: name.to_owned(),
            placement: if first.kind == ArtifactKind::CpuNode { Placement::Copy } else { Placement::Symlink },
            kind: first.kind,
            core: Some(first.core),
            subgraph: None,
            source: Some(file.path.clone()),
            bytes: Some(file.size),
            same_on: Vec::new(),
            differs_on: Vec::new(),
        };
        let who = |a: &Artifact| (a.core, format!("core {}", a.core));
        let said = |a: &str, b: &str| {
            format!("`{name}` is offered by {a} and {b} with different content; `sgLnk/{name}` is {a}'s")
        };
        settle(input, &mut entry, first, &offers[1..], who, said, diags);
        entries.push(entry);
    }
    if tensor_maps > 0 {
        entries.push(written(TENSOR_MAP_NAME.to_owned(), None));
        entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
    // The order files were given in is not the plan's: the same directory listed
    // otherwise (a browser's folder, a sample's index) gives the same report.
    in_place.sort_by(|a, b| (a.core, &a.path).cmp(&(b.core, &b.path)));
    let step = StepRow { name: "link_dir".to_owned(), changes: entries.len() as u64, edits: Vec::new() };
    (LinkDir { root: "sgLnk".to_owned(), entries, in_place }, step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::workdir::WorkFile;

    fn input(files: &[(&str, &[u8])]) -> WorkdirInput {
        let paths: Vec<&str> = files.iter().map(|(p, _)| *p).collect();
        let probe = WorkdirInput {
            after: None,
            files: files
                .iter()
                .map(|(p, b)| WorkFile { path: (*p).to_owned(), size: b.len() as u64, content: None })
                .collect(),
        };
        let plan = workdir::pick(&paths, None).unwrap();
        let wanted = workdir::wanted(&paths, &plan);
        WorkdirInput {
            files: probe
                .files
                .into_iter()
                .enumerate()
                .map(|(i, f)| WorkFile { content: wanted.contains(&i).then(|| files[i].1.to_vec()), ..f })
                .collect(),
            ..probe
        }
    }

    const DUMP: &str = "bir_debug.12.after-lower_sync.before-x.json";

    #[test]
    fn weights_debug_info_and_custom_ops_are_linked_cpu_files_copied() {
        let files: Vec<(String, &[u8])> = vec![
            (format!("w/nc00/sg00/{DUMP}"), b"{}"),
            ("w/nc00/sg00/w0.npy".to_owned(), b"0000"),
            ("w/nc00/sg00/shared.npy".to_owned(), b"same"),
            ("w/nc00/sg00/debug_info.json".to_owned(), b"{}"),
            ("w/nc00/sg00/custom_op/topk.so".to_owned(), b"elf"),
            ("w/nc00/sg00/cpu_node_0/graph.pb".to_owned(), b"pb"),
            ("w/nc00/sg00/tensor_map.json".to_owned(), b"{}"),
            ("w/nc00/sg00/PE.bin".to_owned(), b"pe"),
            (format!("w/nc01/sg00/{DUMP}"), b"{}"),
            ("w/nc01/sg00/w1.npy".to_owned(), b"1111"),
            ("w/nc01/sg00/shared.npy".to_owned(), b"same"),
            ("w/nc01/sg00/tensor_map.json".to_owned(), b"{}"),
        ];
        let refs: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), *b)).collect();
        let input = input(&refs);
        let mut diags = Vec::new();
        let (dir, step) = plan(&input, &input.plan().unwrap(), &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        let rows: Vec<(&str, Placement, Option<u64>, Vec<u64>)> =
            dir.entries.iter().map(|e| (e.name.as_str(), e.placement, e.core, e.same_on.clone())).collect();
        assert_eq!(
            rows,
            [
                ("cpu_node_0/graph.pb", Placement::Copy, Some(0), vec![]),
                ("custom_op/topk.so", Placement::Symlink, Some(0), vec![]),
                ("debug_info.json", Placement::Symlink, Some(0), vec![]),
                ("shared.npy", Placement::Symlink, Some(0), vec![1]),
                ("tensor-map.json", Placement::Write, None, vec![]),
                ("w0.npy", Placement::Symlink, Some(0), vec![]),
                ("w1.npy", Placement::Symlink, Some(1), vec![]),
            ]
        );
        assert_eq!(dir.entries[5].source.as_deref(), Some("w/nc00/sg00/w0.npy"));
        assert_eq!(step.changes, 7);
        let in_place: Vec<(u64, &str)> = dir.in_place.iter().map(|r| (r.core, r.path.as_str())).collect();
        assert_eq!(in_place, [(0, "w/nc00/sg00/PE.bin"), (0, files[0].0.as_str()), (1, files[8].0.as_str())]);
    }

    #[test]
    fn one_name_with_two_contents_is_a_collision() {
        let dump0 = format!("nc00/sg00/{DUMP}");
        let dump1 = format!("nc01/sg00/{DUMP}");
        for (theirs, why) in [(&b"abcd"[..], "same size"), (&b"abcdef"[..], "another size")] {
            let input =
                input(&[(&dump0, b"{}"), ("nc00/sg00/w.npy", b"wxyz"), (&dump1, b"{}"), ("nc01/sg00/w.npy", theirs)]);
            let mut diags = Vec::new();
            let (dir, _) = plan(&input, &input.plan().unwrap(), &mut diags);
            assert_eq!(dir.entries.len(), 1, "{why}");
            assert_eq!(dir.entries[0].differs_on, [1], "{why}");
            assert_eq!(diags.len(), 1, "{why}");
            let d = &diags[0];
            assert_eq!(d.code, Code::ArtifactCollision);
            assert!(d.message.contains("`w.npy` is offered by core 0 and core 1"), "{}", d.message);
            assert_eq!(d.location.as_ref().map(|l| l.file.as_str()), Some("nc01/sg00/w.npy"));
        }
    }
}
