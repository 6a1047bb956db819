//! The link's last step, for a compiler work directory: the link directory `sgLnk/`
//! as a tree (each entry symlinked, copied or written, from which core's file), the
//! files left in the core folders, and the cores' tensor maps merged, each entry with
//! what the merge found; the merged `tensor-map.json` to download.

use birlink_core::english::counted_as;
use birlink_core::model::place::Place;
use std::collections::BTreeMap;

use yew::prelude::*;

use birlink_core::english::human_bytes;
use birlink_core::output::report::{
    EntryStatus, InPlaceRow, LinkDir as LinkDirReport, LinkDirEntry, Placement, TensorMap as TensorMapReport,
};
use birlink_core::EntityKind;

use super::table::{columns, DataTable};
use super::EntityLink;
use crate::context::use_app;
use crate::services::download;

/// The view.
#[function_component(LinkDir)]
pub fn link_dir() -> Html {
    let context = use_app();
    let Some(result) = context.state.result() else { return html! {} };
    let report = &result.report;
    let Some(dir) = &report.link_dir else {
        if report.options.flow == birlink_core::Flow::Flat {
            return html! {
                <div class="empty-state" id="link-dir-view">
                    <p>{ "The flat flow: the compiler runs no bir_linker, so it makes no sgLnk/ link directory; each core's module stays in its own folder." }</p>
                </div>
            };
        }
        return html! {
            <div class="empty-state" id="link-dir-view">
                <p>{ "This link set is not a compiler work directory, so there is no link directory to plan." }</p>
                <p class="muted">{ "Open the folder neuronx-cc worked in (nc00/sg00/bir_debug.*.json, tensor_map.json, weights…) to see what bir_linker puts into sgLnk/ and the cores' tensor maps merged." }</p>
            </div>
        };
    };
    html! {
        <div class="link-dir" id="link-dir-view">
            <Tree dir={dir.clone()} />
            if let Some(map) = &report.tensor_map {
                <TensorMapTable map={map.clone()} per_core={dir.root == "."} />
            } else {
                <p class="muted" id="tensor-map-none">{ "No core of the work directory has a tensor_map.json: there is nothing to merge." }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct TreeProps {
    dir: LinkDirReport,
}

/// One folder of the tree: its files and its sub-folders, by name.
#[derive(Default)]
struct Folder<'e> {
    files: Vec<&'e LinkDirEntry>,
    folders: BTreeMap<&'e str, Folder<'e>>,
}

impl<'e> Folder<'e> {
    fn insert(&mut self, segments: &[&'e str], entry: &'e LinkDirEntry) {
        match segments {
            [] | [_] => self.files.push(entry),
            [first, rest @ ..] => self.folders.entry(first).or_default().insert(rest, entry),
        }
    }

    fn html(&self) -> Html {
        html! {
            <ul>
                { for self.folders.iter().map(|(name, folder)| html! {
                    <li class="folder"><span class="name">{ format!("{name}/") }</span>{ folder.html() }</li>
                }) }
                { for self.files.iter().map(|entry| entry_html(entry)) }
            </ul>
        }
    }
}

fn entry_html(entry: &LinkDirEntry) -> Html {
    let base = entry.name.rsplit('/').next().unwrap_or(&entry.name).to_owned();
    let (mark, how) = match entry.placement {
        Placement::Symlink => ("→", "symbolic link to"),
        Placement::Copy => ("=", "copy of"),
        Placement::Write => ("✎", "written by the link:"),
    };
    let source = match (&entry.source, entry.core, entry.subgraph) {
        (Some(source), _, Some(_)) | (Some(source), None, None) => format!("{how} {source}"),
        (Some(source), Some(core), None) => format!("{how} core {core}'s {source}"),
        (None, Some(core), _) => format!("{how} core {core}'s subgraphs' tensor maps, merged"),
        (None, None, _) => format!("{how} the cores' tensor maps, merged"),
    };
    // The modular flow's offers are a core's subgraphs; the seeds' are the cores.
    let (others, same_place) = if entry.subgraph.is_some() { ("subgraph", "in subgraph") } else { ("core", "on core") };
    let collision = !entry.differs_on.is_empty();
    html! {
        <li class={classes!("entry", collision.then_some("collision"))} data-name={entry.name.clone()}>
            <span class="mark" aria-hidden="true">{ mark }</span>
            <span class="name">{ base }</span>
            <span class="kind">{ entry.kind.describe() }</span>
            <span class="size">{ entry.bytes.map(human_bytes).unwrap_or_default() }</span>
            <span class="source">{ source }</span>
            if !entry.same_on.is_empty() {
                <span class="same">{ format!("the same bytes {same_place} {}", cores(&entry.same_on)) }</span>
            }
            if collision {
                <span class="differs">{ format!("BL0315: {others} {} offers other bytes under this name", cores(&entry.differs_on)) }</span>
            }
        </li>
    }
}

fn cores(list: &[u64]) -> String {
    list.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")
}

#[function_component(Tree)]
fn tree(props: &TreeProps) -> Html {
    let dir = &props.dir;
    let mut root = Folder::default();
    for entry in &dir.entries {
        let segments: Vec<&str> = entry.name.split('/').collect();
        root.insert(&segments, entry);
    }
    let count = |p: Placement| dir.entries.iter().filter(|e| e.placement == p).count();
    let mut in_place: BTreeMap<&str, Vec<&InPlaceRow>> = BTreeMap::new();
    for row in &dir.in_place {
        in_place.entry(row.kind.describe()).or_default().push(row);
    }
    // The modular flow names its entries from the work directory: each core's sgLnk/.
    let per_core = dir.root == ".";
    let (title, root_label) = if per_core {
        ("Each core's ncCC/sgLnk/, as bir_linker makes it (setupLinkDir)".to_owned(), "WORK/".to_owned())
    } else {
        (format!("{}/, as bir_linker makes it (setupLinkDir)", dir.root), format!("{}/", dir.root))
    };
    html! {
        <section class="link-dir-tree" aria-labelledby="link-dir-title">
            <h3 id="link-dir-title">{ title }</h3>
            <p class="summary" id="link-dir-summary">
                { format!(
                    "{}: {}, {}, {} written by the link; {} stay in their core's folder.",
                    counted_as(dir.entries.len(), "entry", "entries"),
                    counted_as(count(Placement::Symlink), "symbolic link", "symbolic links"),
                    counted_as(count(Placement::Copy), "copy", "copies"),
                    count(Placement::Write),
                    counted_as(dir.in_place.len(), "file", "files")
                ) }
                <span class="muted">{ if per_core { " `birlink link WORKDIR --link-dir DIR` makes DIR/ncCC/sgLnk/ (DIR can be WORKDIR itself)." } else { " `birlink link WORKDIR --link-dir DIR` makes this folder." } }</span>
            </p>
            <div class="tree" id="link-dir-tree" role="tree" aria-label={root_label.clone()}>
                <span class="name root">{ root_label }</span>
                { root.html() }
            </div>
            if !dir.in_place.is_empty() {
                <details class="in-place" id="link-dir-in-place">
                    <summary>{ format!("{} files stay in the core folders", dir.in_place.len()) }</summary>
                    <ul>
                        { for in_place.iter().map(|(kind, rows)| html! {
                            <li><span class="kind">{ format!("{kind} ({})", rows.len()) }</span>
                                <ul>{ for rows.iter().map(|r| html! { <li>{ format!("core {}: {}", r.core, r.path) }</li> }) }</ul>
                            </li>
                        }) }
                    </ul>
                </details>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct TensorMapProps {
    map: TensorMapReport,
    /// The modular flow's maps: one per core, of its subgraphs.
    per_core: bool,
}

fn status_text(status: EntryStatus) -> (&'static str, &'static str) {
    match status {
        EntryStatus::Bound => ("bound", "ok"),
        EntryStatus::Stale => ("no such tensor (BL0310)", "warning"),
        EntryStatus::Demoted => ("internal after the link: left out (BL0311)", "note"),
        EntryStatus::Conflict => ("laid out otherwise by another core (BL0312)", "warning"),
    }
}

#[function_component(TensorMapTable)]
fn tensor_map_table(props: &TensorMapProps) -> Html {
    let map = props.map.clone();
    // The modular flow: each core's map is its own file, entries by core and function.
    let per_core = props.per_core;
    let cores: Vec<u64> = {
        let set: std::collections::BTreeSet<u64> = map.entries.iter().map(|e| e.core).collect();
        set.into_iter().collect()
    };
    let download_for = |core: Option<u64>| {
        let map = map.clone();
        Callback::from(move |_| match core {
            Some(core) => {
                let text = birlink_core::output::tensor_map::core_to_string(&map, core);
                download::text(&text, &birlink_core::output::tensor_map::core_file_name(core), "application/json");
            }
            None => {
                let text = birlink_core::output::tensor_map::to_string(&map);
                download::text(&text, "tensor-map.json", "application/json");
            }
        })
    };
    let count = |s: EntryStatus| map.entries.iter().filter(|e| e.status == s).count();
    let row = {
        let map = map.clone();
        Callback::from(move |i: usize| -> Vec<Html> {
            let e = &map.entries[i];
            let (status, class) = status_text(e.status);
            let fields = serde_json::Value::Object(e.fields.clone()).to_string();
            let same: Vec<String> = e
                .same_memory
                .iter()
                .map(|r| match &r.function {
                    Some(function) => format!("{function}: {}", r.name),
                    None => format!("core {}: {}", r.core, r.name),
                })
                .collect();
            vec![
                html! { { e.core } },
                html! { <span class="name">{ e.name.clone() }</span> },
                match &e.linked {
                    Some(t) => {
                        html! { <><EntityLink kind={EntityKind::Set} name={t.set.clone()} parent={Some(AttrValue::from(t.function.clone()))} core={per_core.then_some(e.core)} />{ format!(" {}", t.kind) }</> }
                    }
                    None => html! { <span class="muted">{ "—" }</span> },
                },
                html! { <span class={classes!("status", class)}>{ status }</span> },
                html! { <span class="muted">{ same.join("; ") }</span> },
                html! { <code class="fields" title={fields.clone()}>{ fields }</code> },
            ]
        })
    };
    let row_class = {
        let map = map.clone();
        Callback::from(move |i: usize| classes!(status_text(map.entries[i].status).1))
    };
    html! {
        <section class="tensor-map" aria-labelledby="tensor-map-title" id="tensor-map">
            <h3 id="tensor-map-title">{ if per_core { "Each core's subgraphs' tensor maps, merged (copyTensorMapForFunc2)" } else { "The cores' tensor maps, merged (buildMainTensorMap)" } }</h3>
            <p class="summary" id="tensor-map-summary">
                { format!(
                    "{} from {}: {} bound, {} naming no tensor, {} left out as internal, {} in conflict.",
                    counted_as(map.entries.len(), "entry", "entries"),
                    if per_core { counted_as(map.files.len(), "subgraph", "subgraphs") } else { counted_as(map.files.len(), "core", "cores") },
                    count(EntryStatus::Bound), count(EntryStatus::Stale),
                    count(EntryStatus::Demoted), count(EntryStatus::Conflict)
                ) }
                if per_core {
                    { for cores.iter().map(|&core| html! {
                        <button type="button" class="export-tensor-map" id={format!("export-tensor-map-{core}")} onclick={download_for(Some(core))}>
                            { format!("{}/sg00/tensor_map.json", Place::linked(core)) }
                        </button>
                    }) }
                } else {
                    <button type="button" id="export-tensor-map" onclick={download_for(None)}>{ "tensor-map.json" }</button>
                }
            </p>
            <ul class="muted files">
                { for map.files.iter().map(|f| html! { <li>{ format!("core {}: {} — {}, {} entries", f.core, f.path, f.shape, f.entries) }</li> }) }
            </ul>
            <p class="muted">{ "The tensor map's structure and verifyTensorMap's checks are not public: what birlink finds here is its reading (docs/spec/link.md §3.11), said as warnings, never as the compiler's errors." }</p>
            <DataTable caption={if per_core { "Each subgraph's tensor-map entries, carried to its function of the core's linked module" } else { "Each core's tensor-map entries, carried to the linked module" }}
                       columns={columns(&["core", "tensor", "linked as", "merge", "same memory", "fields"])}
                       rows={map.entries.len()} {row} row_class={Some(row_class)} id="tensor-map-entries" />
        </section>
    }
}
