//! A compiler work directory, told apart by its file names alone: which per-core dump
//! the link reads, and what is set aside (docs/spec/link.md §1).
//!
//! neuronx-cc's work directory for LNC=N holds one folder per core (`nc00/`, `nc01/`, …)
//! and in it one per subgraph (`sg00/`); there, one dump per pass it was told to print,
//! `bir_debug.<n>.after-<pass>.before-<next>.<…>.json`, beside everything else the
//! backend writes (`def.json`, `tensor_map.json`, engine programs `PE.json`…,
//! `kelf-<i>.json`, weights, `command.txt`) and the link's own output (`sgLnk/`).
//! [`pick`] chooses one pass for the whole directory — the one asked for, else
//! `lower_sync` when any core has it, else the latest dumped pass that is not one of
//! the link's own — and each core's dump after it; says why, which cores have none, and
//! what it left out and why, without reading a byte.
//! Paths that are not in that layout are not its business: [`pick`] returns `None`
//! and the files are read as they are.

use std::collections::BTreeMap;

use crate::model::place::{CoreId, Place, SubgraphId};
use crate::output::report::ArtifactKind;
use crate::read::input::{Role, SourceFile};

/// The pass whose dump a link reads unless told otherwise.
pub const DEFAULT_AFTER: &str = "lower_sync";

/// The pass before `bir_linker` in the modular flow, as neuronx-cc 2.24.5133's log runs
/// them: the dumps that give bir_linker its input (docs/spec/link.md §1.5).
pub const PASS_BEFORE_LINK: &str = "dep_reduction";

/// The passes of the link itself: a dump after one of them is not a link's input.
const LINK_PASSES: &[&str] = &["bir_linker", "vnc_remote_addr_map", "vnc_link"];

/// The passes neuronx-cc 2.24.5133 runs after the VNC passes (`compiler-logs.md`: the
/// module's `branch_hint`, the core's `expand_all_engine_final_pre_codegen`, then
/// `birverifier`, `codegen`, `hbm_usage`, `neff_packager`): a dump after one of them is
/// past the link, never its input unless asked for.
pub const AFTER_THE_VNC_PASSES: &[&str] =
    &["branch_hint", "expand_all_engine_final_pre_codegen", "birverifier", "codegen", "hbm_usage", "neff_packager"];

/// One per-core dump's name, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dump {
    /// Its module's place: its core folder, and its subgraph folder (`sg00` when it sits
    /// in the core's folder) or `sgLnk` for a dump of the core's linked module, printed
    /// after the link.
    pub place: Place,
    /// The dump's position among the printed passes (`bir_debug.<n>.`), when it has one.
    pub ordinal: Option<u64>,
    /// The pass it was printed after (`after-<pass>`).
    pub after: String,
}

impl Dump {
    /// Its core.
    pub fn core(&self) -> u64 {
        self.place.core.0
    }

    /// Its subgraph (0 for a linked module's dump).
    pub fn subgraph(&self) -> u32 {
        self.place.slot.subgraph().map_or(0, |s| s.0)
    }

    /// Whether it is a dump of the core's linked module.
    pub fn is_linked(&self) -> bool {
        self.place.is_linked()
    }

    /// Its module's place, as the compiler's logs name it: `nc01/sg02` in the modular flow
    /// (`modular`), `nc01/sgLnk` for a linked module's dump, else `core 1`.
    pub fn module_name(&self, modular: bool) -> String {
        if modular || self.is_linked() {
            self.place.to_string()
        } else {
            format!("core {}", self.core())
        }
    }
}

/// Why a dump was taken for its core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The pass asked for (`--after PASS`, the page's pass chooser).
    Asked,
    /// `after-lower_sync`, the default.
    Default,
    /// No core has an `after-lower_sync` dump: the latest pass dumped before the link.
    Latest,
    /// The compiler's modular flow (a netlist, or several subgraphs): each subgraph's
    /// latest dump, all of them before `bir_linker` (in 2.24.5133 the pass before it is
    /// `dep_reduction`), bir_linker's input.
    BeforeLink,
    /// Only the linked modules were dumped (`ncCC/sgLnk/`): their latest dump, the VNC
    /// passes' input (after `coloring_allocator_reg` in 2.24.5133).
    BeforeVnc,
    /// A flat directory printed after every pass: the dump printed just before
    /// `vnc_remote_addr_map` (its name says `before-vnc_remote_addr_map`; after
    /// `coloring_allocator_reg` in 2.24 and 2.25), the VNC passes' own input.
    LastBeforeVnc,
}

/// Why a file was left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Aside {
    /// A dump of its core after another pass than the one taken.
    OtherPass(String),
    /// Under `sgLnk/`: what a previous link wrote.
    LinkOutput,
    /// A dump after one of the link's own passes.
    AfterTheLink(String),
    /// A dump after a pass that runs after the VNC passes (`codegen`, …): past the link.
    PastTheLink(String),
    /// A dump of the core's linked module (`ncCC/sgLnk/`) after a pass between
    /// `bir_linker` and the VNC passes, beside the subgraphs' dumps, that is not the
    /// latest before the VNC passes (that one is their input, [`Plan::vnc_input`]).
    LinkedModule(String),
    /// The compile command (`command.txt`): provenance, shown, not linked.
    Command,
    /// The compiler's log (`log-neuron-cc.txt`, [`is_log`]): read as a log
    /// (`birlink explain --log`, the page's timeline), not linked.
    Log,
    /// A per-core tensor map (`tensor_map.json`).
    TensorMap,
    /// Another artifact of the backend: `def.json`, an engine program, a `kelf`, …
    Artifact,
}

impl Aside {
    /// What the load panel and the CLI say of it.
    pub fn describe(&self) -> String {
        match self {
            Aside::OtherPass(pass) => format!("a dump after `{pass}`, another pass"),
            Aside::LinkOutput => "the output of an earlier link (`sgLnk/`)".to_owned(),
            Aside::AfterTheLink(pass) => {
                format!("the compiler's own result after `{pass}`, a pass of the link itself: held against birlink's")
            }
            Aside::PastTheLink(pass) => format!("a dump after `{pass}`, a pass after the link's last"),
            Aside::LinkedModule(pass) => {
                format!("the compiler's linked module after `{pass}`, a pass before the VNC passes' input")
            }
            Aside::Command => "the compile command: provenance".to_owned(),
            Aside::Log => "the compiler's log: read as a log (`birlink explain --log`), not linked".to_owned(),
            Aside::TensorMap => "a tensor map, not a BIR module".to_owned(),
            Aside::Artifact => "a backend artifact, not a BIR module".to_owned(),
        }
    }
}

/// What [`pick`] chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The file each core links from, by core: its index in the list given, its dump, why.
    pub picked: Vec<(usize, Dump, Reason)>,
    /// Every other file, by index in the list given, and why it was left out.
    pub set_aside: Vec<(usize, Aside)>,
    /// The passes dumped, in the order printed (by ordinal, then name), each once.
    pub passes: Vec<String>,
    /// The lowest subgraph linked: the one whose files the seeds' link directory is made
    /// from.
    pub subgraph: u32,
    /// Every subgraph linked: each core's subgraphs are one link set in the compiler's
    /// modular flow (`nc00/sg00` … `nc01/sg02`).
    pub subgraphs: Vec<u32>,
    /// `command.txt`, by index, when present.
    pub command: Option<usize>,
    /// The compiler's own results: dumps after a pass of the link (`bir_linker`,
    /// `vnc_remote_addr_map`, `vnc_link`) that are not the link's input, by index — what
    /// birlink's result for the same input is held against (`report.fidelity`).
    pub compiler: Vec<(usize, Dump)>,
    /// The netlist the frontend wrote (`hlo_netlist.json`, outside the core folders), by
    /// index, when present: linked with the dumps (the modular flow's partitions).
    pub netlist: Option<usize>,
    /// Cores that have a folder but no dump of the pass taken (the page says what would
    /// dump them).
    pub missing: Vec<u64>,
    /// The VNC passes' own input, by index: each core's linked module (`ncCC/sgLnk/`)
    /// dumped before them in the same run as the subgraphs (after
    /// `coloring_allocator_reg`), which they link instead of birlink's bir_linker output.
    pub vnc_input: Vec<(usize, Dump)>,
}

impl Plan {
    /// Whether the directory is laid out as the compiler's modular flow leaves it (a
    /// netlist at the root, or several subgraphs).
    pub fn modular(&self) -> bool {
        self.netlist.is_some() || self.subgraphs.len() > 1
    }

    /// The pass whose dumps the link wants by default: `lower_sync` (the seeds' reading,
    /// the flat flow), or in the modular flow the pass before `bir_linker`
    /// ([`PASS_BEFORE_LINK`]).
    pub fn default_after(&self) -> &'static str {
        if self.modular() {
            PASS_BEFORE_LINK
        } else {
            DEFAULT_AFTER
        }
    }

    /// What the link reads, by index: the picked dumps, then the netlist, then the VNC
    /// passes' own input.
    pub fn inputs(&self) -> Vec<usize> {
        self.picked
            .iter()
            .map(|(i, _, _)| *i)
            .chain(self.netlist)
            .chain(self.vnc_input.iter().map(|(i, _)| *i))
            .collect()
    }
}

impl Reason {
    /// What the load panel and the CLI say of it.
    pub fn describe(&self, dump: &Dump) -> String {
        match self {
            Reason::Asked => format!("after `{}`, as asked", dump.after),
            Reason::Default => format!("after `{}`, the link's input", dump.after),
            Reason::Latest => {
                format!("after `{}`: no `after-{DEFAULT_AFTER}` dump, the latest pass dumped", dump.after)
            }
            Reason::BeforeLink => {
                format!("after `{}`, the latest pass dumped before bir_linker: its input", dump.after)
            }
            Reason::BeforeVnc => {
                format!("after `{}`, the linked module's latest dump: the VNC passes' input", dump.after)
            }
            Reason::LastBeforeVnc => {
                format!("after `{}`, the last pass printed before vnc_remote_addr_map: its input", dump.after)
            }
        }
    }
}

/// `subgraph sg00`, or `subgraphs sg00, sg01, sg02`.
pub fn subgraphs_text(subgraphs: &[u32]) -> String {
    let names: Vec<String> = subgraphs.iter().map(|&s| SubgraphId(s).to_string()).collect();
    match names.as_slice() {
        [one] => format!("subgraph {one}"),
        _ => format!("subgraphs {}", names.join(", ")),
    }
}

/// The core, the subgraph and what is below them, of a path in the layout; `None`
/// when no segment is a core folder.
fn place(path: &str) -> Option<(u64, Option<u32>, Vec<&str>)> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let at = segments.iter().rposition(|s| CoreId::parse(s).is_some())?;
    let core = CoreId::parse(segments[at])?.0;
    let rest = &segments[at + 1..];
    match rest.first().and_then(|s| SubgraphId::parse(s)) {
        Some(sg) => Some((core, Some(sg.0), rest[1..].to_vec())),
        None => Some((core, None, rest.to_vec())),
    }
}

/// `bir_debug.<n>.after-<pass>.before-<next>.<…>.json` → (n, pass).
pub fn dump_name(file: &str) -> Option<(Option<u64>, String)> {
    let stem = file.strip_suffix(".json")?.strip_prefix("bir_debug")?;
    let mut parts = stem.split('.').filter(|p| !p.is_empty()).peekable();
    let ordinal = parts.peek().and_then(|p| p.parse::<u64>().ok());
    if ordinal.is_some() {
        parts.next();
    }
    let after = parts.find_map(|p| p.strip_prefix("after-"))?;
    (!after.is_empty()).then(|| (ordinal, after.to_owned()))
}

/// Whether a file is a compiler log by its name: neuronx-cc's `log-neuron-cc.txt`
/// (`--logfile` names it anything; birlink takes `log-neuron-cc*.txt` and `*.log`).
pub fn is_log(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    (file.starts_with("log-neuron-cc") && file.ends_with(".txt")) || file.ends_with(".log")
}

/// A path's dump, when it is one in the layout: a subgraph's
/// (`ncCC/sgKK/bir_debug.*after-PASS*.json`, or directly in the core folder as the seeds
/// put it) or a linked module's (`ncCC/sgLnk/bir_debug.*`).
pub fn dump_of(path: &str) -> Option<Dump> {
    let (core, subgraph, below) = place(path)?;
    let file = path.rsplit('/').next().unwrap_or(path);
    let (ordinal, after) = dump_name(file)?;
    match (subgraph, below.as_slice()) {
        (None, ["sgLnk", _]) => Some(Dump { place: Place::linked(core), ordinal, after }),
        (_, [_]) => Some(Dump { place: Place::subgraph(core, subgraph.unwrap_or(0)), ordinal, after }),
        _ => None,
    }
}

/// Chooses the link's input among the paths of a work directory (relative,
/// `/`-separated), the dump after `after` (or the default rule) for each core; `None`
/// when the paths are not a work directory (no `nc<k>/…/bir_debug.*after-*.json`).
pub fn pick(paths: &[&str], after: Option<&str>) -> Option<Plan> {
    let mut dumps: Vec<(usize, Dump)> = Vec::new();
    let mut set_aside: Vec<(usize, Aside)> = Vec::new();
    let mut command = None;
    let mut netlist = None;
    let mut linked_dumps: Vec<(usize, Dump)> = Vec::new();
    let mut cores_seen: Vec<u64> = Vec::new();
    // The pass printed just before vnc_remote_addr_map, when a dump says so.
    let mut before_vnc: Option<String> = None;
    for (i, path) in paths.iter().enumerate() {
        let file = path.rsplit('/').next().unwrap_or(path);
        if file == "command.txt" {
            command = Some(i);
            set_aside.push((i, Aside::Command));
            continue;
        }
        if file == "hlo_netlist.json" && place(path).is_none() && netlist.is_none() {
            netlist = Some(i);
            continue;
        }
        let Some((core, subgraph, below)) = place(path) else {
            // A work directory's own `sgLnk/`, beside the core folders.
            let aside = if path.split('/').any(|s| s == "sgLnk") { Aside::LinkOutput } else { classify_other(file) };
            set_aside.push((i, aside));
            continue;
        };
        cores_seen.push(core);
        if below.contains(&"sgLnk") {
            // A dump of the core's linked module, directly in `ncCC/sgLnk/` (where the
            // compiler's scope puts it; inferred, no dump path is in the public logs).
            match dump_name(file) {
                Some((ordinal, pass)) if below.len() == 2 && below[0] == "sgLnk" && subgraph.is_none() => {
                    linked_dumps.push((i, Dump { place: Place::linked(core), ordinal, after: pass }));
                }
                _ => set_aside.push((i, Aside::LinkOutput)),
            }
            continue;
        }
        match dump_name(file) {
            Some((ordinal, pass)) if below.len() == 1 => {
                if file.contains(".before-vnc_remote_addr_map") {
                    before_vnc.get_or_insert_with(|| pass.clone());
                }
                dumps.push((i, Dump { place: Place::subgraph(core, subgraph.unwrap_or(0)), ordinal, after: pass }));
            }
            _ => set_aside.push((i, classify_other(file))),
        }
    }
    // The linked module's dumps after passes before the VNC passes are their input when
    // no subgraph was dumped before the link (the second entry point); after a pass of
    // the link, they are the compiler's result.
    let subgraph_input = dumps.iter().any(|(_, d)| !LINK_PASSES.contains(&d.after.as_str()));
    let mut later_linked: Vec<(usize, Dump)> = Vec::new();
    for (i, dump) in linked_dumps {
        let link_pass = LINK_PASSES.contains(&dump.after.as_str());
        if subgraph_input && !link_pass && after != Some(dump.after.as_str()) {
            later_linked.push((i, dump));
        } else {
            dumps.push((i, dump));
        }
    }
    // One run of the modular flow dumped the linked modules too: each core's latest
    // dump before the VNC passes (`coloring_allocator_reg` in 2.24.5133) is their input,
    // after birlink's own bir_linker (docs/spec/link.md §0.8), when every core that has
    // subgraphs has one; the others are set aside as the compiler's linked modules.
    let vnc_input = vnc_entry(&dumps, &later_linked, after);
    for (i, dump) in later_linked {
        if !vnc_input.iter().any(|(j, _)| *j == i) {
            set_aside.push((i, Aside::LinkedModule(dump.after)));
        }
    }
    if dumps.is_empty() {
        return None;
    }
    // Dumps after the passes that follow the VNC passes are past the link: never the
    // default's input (a print-after-all directory has them), unless asked for.
    let past = |d: &Dump| AFTER_THE_VNC_PASSES.contains(&d.after.as_str()) && after != Some(d.after.as_str());
    if dumps.iter().any(|(_, d)| !past(d)) {
        let (kept, gone): (Vec<_>, Vec<_>) = dumps.into_iter().partition(|(_, d)| !past(d));
        set_aside.extend(gone.into_iter().map(|(i, d)| (i, Aside::PastTheLink(d.after))));
        dumps = kept;
    }
    let subgraph = if dumps.iter().any(|(_, d)| d.subgraph() == 0) {
        0
    } else {
        dumps.iter().map(|(_, d)| d.subgraph()).min().unwrap_or(0)
    };
    let mut passes: Vec<(Option<u64>, String)> = dumps.iter().map(|(_, d)| (d.ordinal, d.after.clone())).collect();
    passes.sort_by(|a, b| (a.0.unwrap_or(u64::MAX), &a.1).cmp(&(b.0.unwrap_or(u64::MAX), &b.1)));
    let mut ordered: Vec<String> = Vec::new();
    for (_, pass) in passes {
        if !ordered.contains(&pass) {
            ordered.push(pass);
        }
    }

    // Every subgraph dumped is linked: the compiler links all of a core's subgraphs (a
    // core without one of them is the link's to say, BL0107); a linked module's dumps
    // count as one more place of the core (`u32::MAX` below).
    let mut by_core: BTreeMap<(u64, u32), Vec<(usize, Dump)>> = BTreeMap::new();
    let mut compiler = Vec::new();
    // The VNC passes' own input: the linked dumps before them, when nothing else is.
    let linked_entry = !subgraph_input;
    for (i, dump) in dumps {
        if LINK_PASSES.contains(&dump.after.as_str()) && after != Some(dump.after.as_str()) {
            // bir_linker's own output is the VNC passes' input when that is all there is.
            let input = linked_entry && dump.is_linked() && dump.after == "bir_linker";
            if !input {
                set_aside.push((i, Aside::AfterTheLink(dump.after.clone())));
                compiler.push((i, dump));
                continue;
            }
        }
        let sg = if dump.is_linked() { u32::MAX } else { dump.subgraph() };
        by_core.entry((dump.core(), sg)).or_default().push((i, dump));
    }
    let subgraphs: Vec<u32> = {
        let all: std::collections::BTreeSet<u32> =
            by_core.keys().map(|(_, sg)| *sg).filter(|sg| *sg != u32::MAX).collect();
        let mut list: Vec<u32> = all.into_iter().collect();
        if by_core.keys().any(|(_, sg)| *sg == u32::MAX) {
            list.push(u32::MAX);
        }
        list
    };
    cores_seen.sort_unstable();
    cores_seen.dedup();

    // One pass for the whole directory: modules dumped after different passes do not
    // make one link set.
    let all: Vec<(usize, Dump)> = by_core.values().flatten().cloned().collect();
    // The compiler's modular flow: the subgraphs' dumps are all before the link, and
    // the latest of them is its input (the seeds' `lower_sync` comes after it there).
    let modular = netlist.is_some() || subgraphs.iter().filter(|sg| **sg != u32::MAX).count() > 1;
    let chosen: Option<(String, Reason)> = match after {
        Some(pass) => Some((pass.to_owned(), Reason::Asked)),
        None if !subgraph_input => latest(&all).map(|at| (all[at].1.after.clone(), Reason::BeforeVnc)),
        None if modular => latest(&all).map(|at| (all[at].1.after.clone(), Reason::BeforeLink)),
        None if before_vnc.is_some() => before_vnc.clone().map(|pass| (pass, Reason::LastBeforeVnc)),
        None if all.iter().any(|(_, d)| d.after == DEFAULT_AFTER) => Some((DEFAULT_AFTER.to_owned(), Reason::Default)),
        None => latest(&all).map(|at| (all[at].1.after.clone(), Reason::Latest)),
    };
    let mut picked = Vec::new();
    let mut missing = Vec::new();
    for core in &cores_seen {
        let mut found = false;
        let mut lacking = false;
        for &sg in &subgraphs {
            let Some(candidates) = by_core.remove(&(*core, sg)) else { continue };
            let at = chosen.as_ref().and_then(|(pass, _)| candidates.iter().position(|(_, d)| &d.after == pass));
            found |= at.is_some();
            lacking |= at.is_none();
            for (k, (i, dump)) in candidates.into_iter().enumerate() {
                match (&chosen, Some(k) == at) {
                    (Some((_, reason)), true) => picked.push((i, dump, reason.clone())),
                    _ => set_aside.push((i, Aside::OtherPass(dump.after))),
                }
            }
        }
        if lacking || !found {
            missing.push(*core);
        }
    }
    set_aside.sort_by_key(|(i, _)| *i);
    let subgraphs = subgraphs.into_iter().filter(|sg| *sg != u32::MAX).collect();
    Some(Plan {
        picked,
        set_aside,
        passes: ordered,
        subgraph,
        subgraphs,
        command,
        netlist,
        compiler,
        missing,
        vnc_input,
    })
}

/// The VNC passes' own input in a one-run directory: each core's latest linked-module
/// dump that is before the VNC passes (not past the link), when every core with
/// subgraph dumps has one and no pass was asked for; else none.
fn vnc_entry(dumps: &[(usize, Dump)], linked: &[(usize, Dump)], after: Option<&str>) -> Vec<(usize, Dump)> {
    if after.is_some() || linked.is_empty() {
        return Vec::new();
    }
    let mut cores: Vec<u64> = dumps.iter().filter(|(_, d)| !d.is_linked()).map(|(_, d)| d.core()).collect();
    cores.sort_unstable();
    cores.dedup();
    let mut chosen = Vec::new();
    for core in cores {
        let candidates: Vec<(usize, Dump)> = linked
            .iter()
            .filter(|(_, d)| d.core() == core && !AFTER_THE_VNC_PASSES.contains(&d.after.as_str()))
            .cloned()
            .collect();
        let Some(at) = latest(&candidates) else { return Vec::new() };
        chosen.push(candidates[at].clone());
    }
    chosen
}

/// The latest dump among these: the highest ordinal (a dump without one counts as
/// earliest), then the first name.
fn latest(candidates: &[(usize, Dump)]) -> Option<usize> {
    (0..candidates.len()).max_by(|&a, &b| {
        let (da, db) = (&candidates[a].1, &candidates[b].1);
        da.ordinal.cmp(&db.ordinal).then_with(|| db.after.cmp(&da.after))
    })
}

fn classify_other(file: &str) -> Aside {
    if file == "tensor_map.json" || file == "tensor-map.json" {
        Aside::TensorMap
    } else if is_log(file) {
        Aside::Log
    } else {
        Aside::Artifact
    }
}

/// A work directory as the link's last step is given it: every file by name and size,
/// with the bytes of those it reads ([`wanted`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkdirInput {
    /// The pass whose dumps are linked (`None`: the default rule).
    pub after: Option<String>,
    /// Every file of the directory, as the inputs name them (a prefix before the core
    /// folders is kept, as [`pick`] reads it).
    pub files: Vec<WorkFile>,
}

/// Splits a work directory's files, all in memory, into the dumps the link reads and
/// the rest as [`WorkdirInput`] (with the bytes of the files [`wanted`]); `None` when
/// the files are not a work directory. For callers holding every file (tests, samples,
/// Python); the CLI and the page read only what [`wanted`] names.
pub fn split(files: Vec<(String, Vec<u8>)>, after: Option<&str>) -> Option<(Vec<SourceFile>, WorkdirInput)> {
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    let plan = pick(&paths, after)?;
    let wanted = wanted(&paths, &plan);
    let picked = plan.inputs();
    let sources = picked
        .iter()
        .map(|&i| SourceFile {
            path: files[i].0.clone(),
            content: crate::read::input::Content::Bytes(files[i].1.clone()),
            role: Role::Auto,
        })
        .collect();
    let files = files
        .into_iter()
        .enumerate()
        .map(|(i, (path, bytes))| WorkFile {
            path,
            size: bytes.len() as u64,
            content: wanted.binary_search(&i).is_ok().then_some(bytes),
        })
        .collect();
    Some((sources, WorkdirInput { after: after.map(str::to_owned), files }))
}

/// One file of a work directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkFile {
    /// Its path, `/`-separated.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its bytes, when the step reads them (a tensor map, a name two cores offer).
    pub content: Option<Vec<u8>>,
}

/// The LNC work directories imply: when a core folder of any has no dump of the pass,
/// the number of core folders of all (so the link says a core is missing instead of
/// linking fewer); otherwise none (the modules say). The pipeline asks it of one
/// directory, `birlink link` of several.
pub fn implied_lnc<'p>(plans: impl IntoIterator<Item = &'p Plan>) -> Option<u64> {
    let (mut folders, mut missing) = (0, false);
    for plan in plans {
        // Cores, not dumps: a core of the modular flow has several subgraphs.
        let mut cores: Vec<u64> =
            plan.picked.iter().map(|(_, d, _)| d.core()).chain(plan.missing.iter().copied()).collect();
        cores.sort_unstable();
        cores.dedup();
        folders += cores.len();
        missing |= !plan.missing.is_empty();
    }
    missing.then_some(folders as u64)
}

impl WorkdirInput {
    /// The files' paths.
    pub fn paths(&self) -> Vec<&str> {
        self.files.iter().map(|f| f.path.as_str()).collect()
    }

    /// What [`pick`] makes of it.
    pub fn plan(&self) -> Option<Plan> {
        pick(&self.paths(), self.after.as_deref())
    }
}

/// One file of the linked subgraph, as the link directory sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// Its index in the list given to [`pick`].
    pub index: usize,
    /// The core whose folder holds it.
    pub core: u64,
    /// The subgraph folder holding it (`None`: the core's own folder, `ncCC/`).
    pub subgraph: Option<u32>,
    /// Its path below the subgraph folder (or the core's): its name in `sgLnk/`.
    pub name: String,
    /// What it is.
    pub kind: ArtifactKind,
}

/// The engine programs the backend writes per core (`{PE,Pool,Activation,SP,DVE}.{bin,json}`).
const ENGINES: &[&str] = &["PE", "Pool", "Activation", "SP", "DVE"];

/// What a file below a subgraph folder is, by its path there (birlink's reading of the
/// predicates of `symlinkNpyFiles`, `symLinkDebugInfoFiles`, `symLinkCustomOpFiles` and
/// `copyCpuNodeFiles`, whose exact patterns are not public: docs/spec/link.md §3.10).
pub fn artifact_kind(below: &[&str]) -> ArtifactKind {
    let file = below.last().copied().unwrap_or("");
    let lower = file.to_ascii_lowercase();
    let folders: Vec<String> = below[..below.len().saturating_sub(1)].iter().map(|s| s.to_ascii_lowercase()).collect();
    let in_folder = |prefixes: &[&str]| folders.iter().any(|f| prefixes.iter().any(|p| f.starts_with(p)));
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    if file.starts_with("bir_debug") && lower.ends_with(".json") {
        ArtifactKind::Dump
    } else if file == "tensor_map.json" || file == "tensor-map.json" {
        ArtifactKind::TensorMap
    } else if lower.ends_with(".npy") {
        ArtifactKind::Weight
    } else if in_folder(&["cpu_node", "cpunode", "cpu-node"]) || lower.contains("cpu_node") || lower.contains("cpunode")
    {
        ArtifactKind::CpuNode
    } else if in_folder(&["custom_op", "customop", "custom-op"])
        || lower.ends_with(".so")
        || lower.contains(".so.")
        || lower.contains("custom_op")
    {
        ArtifactKind::CustomOp
    } else if in_folder(&["debug_info", "debuginfo", "debug-info"])
        || lower.contains("debug_info")
        || lower.contains("debuginfo")
        || lower.ends_with(".dbg")
    {
        ArtifactKind::DebugInfo
    } else if folders.is_empty()
        && (file == "def.json"
            || (ENGINES.contains(&stem) && (lower.ends_with(".bin") || lower.ends_with(".json")))
            || (lower.starts_with("kelf-") && lower.ends_with(".json")))
    {
        ArtifactKind::Program
    } else {
        ArtifactKind::Other
    }
}

/// Every file below a core folder, subgraph folders and the core's own, in the order
/// given; nothing under `sgLnk/`. A file directly in a core folder named like a dump
/// stays a dump (the seeds' layout puts them there).
pub fn all_artifacts(paths: &[&str]) -> Vec<Artifact> {
    let mut found = Vec::new();
    for (index, path) in paths.iter().enumerate() {
        let Some((core, subgraph, below)) = place(path) else { continue };
        if below.is_empty() || below.contains(&"sgLnk") {
            continue;
        }
        found.push(Artifact { index, core, subgraph, name: below.join("/"), kind: artifact_kind(&below) });
    }
    found
}

/// The files of the linked subgraph of every core that has a folder, in the order
/// given: what the seeds' link directory is made from. Nothing under `sgLnk/`.
pub fn artifacts(paths: &[&str], plan: &Plan) -> Vec<Artifact> {
    all_artifacts(paths).into_iter().filter(|a| a.subgraph.unwrap_or(0) == plan.subgraph).collect()
}

/// Where the modular flow's link directory puts a file, relative to the work
/// directory (docs/spec/link.md §3.6): a subgraph's `.npy` files into
/// `ncCC/sgLnk/sg00/`, the core folder's debug-info and `.so` files into `ncCC/sgLnk/`;
/// `None` for a file that stays where it is.
pub fn modular_place(artifact: &Artifact) -> Option<String> {
    let core = artifact.core;
    match (artifact.subgraph, artifact.kind) {
        (Some(_), ArtifactKind::Weight) => Some(format!("{}/sg00/{}", Place::linked(core), artifact.name)),
        (None, ArtifactKind::DebugInfo | ArtifactKind::CustomOp) => {
            Some(format!("{}/{}", Place::linked(core), artifact.name))
        }
        _ => None,
    }
}

/// Whether the link directory takes a file of this kind (symlinked or copied).
pub fn is_linked(kind: ArtifactKind) -> bool {
    matches!(kind, ArtifactKind::Weight | ArtifactKind::DebugInfo | ArtifactKind::CustomOp | ArtifactKind::CpuNode)
}

/// The files whose bytes the link's last step reads, by index: each core's tensor map,
/// and every file the link directory takes under a name another core offers too (to
/// tell one shared file from a collision). Everything else is known by name and size.
pub fn wanted(paths: &[&str], plan: &Plan) -> Vec<usize> {
    let all = all_artifacts(paths);
    // The seeds' reading: the linked subgraph's files, one name across the cores.
    let mut cores_of: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
    let seeds = |a: &&Artifact| a.subgraph.unwrap_or(0) == plan.subgraph;
    for a in all.iter().filter(seeds).filter(|a| is_linked(a.kind)) {
        cores_of.entry(a.name.as_str()).or_default().push(a.core);
    }
    // The modular flow: each core's files, one name across its subgraphs.
    let mut offers: BTreeMap<String, usize> = BTreeMap::new();
    for a in &all {
        if let Some(name) = modular_place(a) {
            *offers.entry(name).or_default() += 1;
        }
    }
    let in_subgraph = |a: &Artifact| a.subgraph.is_some_and(|s| plan.subgraphs.contains(&s));
    let mut wanted: Vec<usize> = all
        .iter()
        .filter(|a| {
            (a.kind == ArtifactKind::TensorMap && (seeds(a) || in_subgraph(a)))
                || (seeds(a) && is_linked(a.kind) && cores_of.get(a.name.as_str()).is_some_and(|cores| cores.len() > 1))
                || modular_place(a).is_some_and(|name| offers.get(&name).is_some_and(|n| *n > 1))
        })
        .map(|a| a.index)
        .collect();
    // The compiler's own results, held against birlink's.
    wanted.extend(plan.compiler.iter().map(|(i, _)| *i));
    wanted.sort_unstable();
    wanted.dedup();
    wanted
}

/// The flags that make neuronx-cc dump the link's input (docs/spec/sources.md).
pub fn dump_flags(after: &str) -> String {
    format!("--internal-print-after={after} --internal-compiler-debug-mode=all --internal-backend-options=--print-after-all=false")
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORKDIR: &[&str] = &[
        "work/command.txt",
        "work/nc00/sg00/PE.json",
        "work/nc00/sg00/bir_debug.11.after-lower_dma.before-lower_sync.penguin.json",
        "work/nc00/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json",
        "work/nc00/sg00/def.json",
        "work/nc00/sg00/kelf-0.json",
        "work/nc00/sg00/sgLnk/def.json",
        "work/nc00/sg00/tensor_map.json",
        "work/nc01/sg00/bir_debug.11.after-lower_dma.before-lower_sync.penguin.json",
        "work/nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.penguin.json",
        "work/nc01/sg00/def.json",
        "work/nc01/sg00/tensor_map.json",
    ];

    fn picked(plan: &Plan) -> Vec<(u64, &'static str, Reason)> {
        plan.picked.iter().map(|(i, d, r)| (d.core(), WORKDIR[*i], r.clone())).collect()
    }

    #[test]
    fn a_flat_print_after_all_directory_links_the_dump_printed_before_vnc_remote_addr_map() {
        let paths = [
            "w/nc00/sg00/bir_debug.40.after-lower_sync.before-lower_act.json",
            "w/nc00/sg00/bir_debug.44.after-coloring_allocator_reg.before-vnc_remote_addr_map.json",
            "w/nc00/sg00/bir_debug.47.after-codegen.before-neff_packager.json",
            "w/nc01/sg00/bir_debug.40.after-lower_sync.before-lower_act.json",
            "w/nc01/sg00/bir_debug.44.after-coloring_allocator_reg.before-vnc_remote_addr_map.json",
            "w/nc01/sg00/bir_debug.47.after-codegen.before-neff_packager.json",
        ];
        let plan = pick(&paths, None).unwrap();
        let chosen: Vec<(usize, Reason)> = plan.picked.iter().map(|(i, _, r)| (*i, r.clone())).collect();
        assert_eq!(chosen, [(1, Reason::LastBeforeVnc), (4, Reason::LastBeforeVnc)]);
        // Asked for another pass, that one.
        let asked = pick(&paths, Some("lower_sync")).unwrap();
        assert!(asked.picked.iter().all(|(i, _, _)| *i == 0 || *i == 3));
    }

    #[test]
    fn a_dump_is_named_by_its_modules_place() {
        let dump = Dump { place: Place::subgraph(1, 2), ordinal: None, after: "dep_reduction".to_owned() };
        assert_eq!(dump.module_name(true), "nc01/sg02");
        assert_eq!(dump.module_name(false), "core 1");
        assert_eq!(Dump { place: Place::linked(1), ..dump }.module_name(true), "nc01/sgLnk");
    }

    #[test]
    fn a_dump_name_is_its_ordinal_and_pass() {
        assert_eq!(
            dump_name("bir_debug.12.after-lower_sync.before-lower_act.penguin.json"),
            Some((Some(12), "lower_sync".to_owned()))
        );
        assert_eq!(dump_name("bir_debug.after-lower_sync.json"), Some((None, "lower_sync".to_owned())));
        assert_eq!(dump_name("bir_debug.json"), None);
        assert_eq!(dump_name("bir_debug.3.after-.json"), None);
        assert_eq!(dump_name("def.json"), None);
        assert_eq!(dump_name("bir_debug.12.after-lower_sync.txt"), None);
    }

    #[test]
    fn the_lower_sync_dump_of_each_core_and_nothing_else() {
        let plan = pick(WORKDIR, None).unwrap();
        assert_eq!(picked(&plan), [(0, WORKDIR[3], Reason::Default), (1, WORKDIR[9], Reason::Default)], "{plan:#?}");
        assert_eq!(plan.passes, ["lower_dma", "lower_sync"]);
        assert_eq!(plan.command, Some(0));
        assert!(plan.missing.is_empty());
        let aside: Vec<(usize, Aside)> = plan.set_aside.clone();
        assert_eq!(
            aside,
            [
                (0, Aside::Command),
                (1, Aside::Artifact),
                (2, Aside::OtherPass("lower_dma".to_owned())),
                (4, Aside::Artifact),
                (5, Aside::Artifact),
                (6, Aside::LinkOutput),
                (7, Aside::TensorMap),
                (8, Aside::OtherPass("lower_dma".to_owned())),
                (10, Aside::Artifact),
                (11, Aside::TensorMap),
            ]
        );
        // Every file is accounted for, once.
        assert_eq!(plan.picked.len() + plan.set_aside.len(), WORKDIR.len());
    }

    #[test]
    fn another_pass_when_asked_and_the_latest_when_lower_sync_is_missing() {
        let plan = pick(WORKDIR, Some("lower_dma")).unwrap();
        assert_eq!(picked(&plan), [(0, WORKDIR[2], Reason::Asked), (1, WORKDIR[8], Reason::Asked)]);
        let without: Vec<&str> = WORKDIR.iter().copied().filter(|p| !p.contains("after-lower_sync")).collect();
        let plan = pick(&without, None).unwrap();
        let names: Vec<(u64, &str, Reason)> =
            plan.picked.iter().map(|(i, d, r)| (d.core(), without[*i], r.clone())).collect();
        assert_eq!(names[0].2, Reason::Latest);
        assert!(names.iter().all(|(_, p, _)| p.contains("after-lower_dma")));
        assert!(Reason::Latest.describe(&plan.picked[0].1).contains("no `after-lower_sync` dump"));
    }

    /// A print-after-all directory: the dumps after the passes that follow the VNC
    /// passes are past the link, never the default's "latest" (it is the latest before
    /// them); asked for, they are taken.
    #[test]
    fn dumps_past_the_link_are_not_its_latest_input() {
        let mut paths = Vec::new();
        for core in ["nc00", "nc01"] {
            for (n, pass) in [(13, "lower_act"), (20, "coloring_allocator_reg"), (30, "branch_hint"), (40, "codegen")] {
                paths.push(format!("{core}/sg00/bir_debug.{n}.after-{pass}.before-x.json"));
            }
        }
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let plan = pick(&paths, None).unwrap();
        let taken: Vec<(u64, &str, Reason)> =
            plan.picked.iter().map(|(_, d, r)| (d.core(), d.after.as_str(), r.clone())).collect();
        assert_eq!(
            taken,
            [(0, "coloring_allocator_reg", Reason::Latest), (1, "coloring_allocator_reg", Reason::Latest)]
        );
        let past: Vec<&Aside> =
            plan.set_aside.iter().map(|(_, a)| a).filter(|a| matches!(a, Aside::PastTheLink(_))).collect();
        assert_eq!(past.len(), 4, "{:?}", plan.set_aside);
        assert_eq!(plan.passes, ["lower_act", "coloring_allocator_reg"]);
        let asked = pick(&paths, Some("codegen")).unwrap();
        assert!(asked.picked.iter().all(|(_, d, r)| d.after == "codegen" && *r == Reason::Asked));
    }

    /// One run of the modular flow dumped every pass: the subgraphs before the link are
    /// bir_linker's input, the linked module's latest dump before the VNC passes is
    /// theirs, and its other dumps are said as the compiler's linked modules, not as an
    /// earlier link's output.
    #[test]
    fn the_linked_modules_later_dumps_beside_the_subgraphs_are_named_as_such() {
        let paths = [
            "hlo_netlist.json",
            "nc00/sg00/bir_debug.31.after-dep_reduction.before-bir_linker.json",
            "nc00/sg01/bir_debug.31.after-dep_reduction.before-bir_linker.json",
            "nc00/sgLnk/bir_debug.50.after-lower_sync.before-lower_act.json",
            "nc00/sgLnk/bir_debug.60.after-coloring_allocator_reg.before-vnc_remote_addr_map.json",
        ];
        let plan = pick(&paths, None).unwrap();
        let taken: Vec<(u32, &str, Reason)> =
            plan.picked.iter().map(|(_, d, r)| (d.subgraph(), d.after.as_str(), r.clone())).collect();
        assert_eq!(taken, [(0, "dep_reduction", Reason::BeforeLink), (1, "dep_reduction", Reason::BeforeLink)]);
        // The latest before the VNC passes is theirs; the earlier one is set aside.
        assert_eq!(plan.set_aside, [(3, Aside::LinkedModule("lower_sync".to_owned()))]);
        let vnc: Vec<(usize, &str)> = plan.vnc_input.iter().map(|(i, d)| (*i, d.after.as_str())).collect();
        assert_eq!(vnc, [(4, "coloring_allocator_reg")]);
        assert!(plan.inputs().contains(&4));
        // Asked for a pass, the run links that pass's dumps only.
        assert!(pick(&paths, Some("dep_reduction")).unwrap().vnc_input.is_empty());
        assert!(Aside::LinkedModule("lower_sync".to_owned()).describe().contains("the compiler's linked module"));
        assert_eq!(plan.default_after(), PASS_BEFORE_LINK);
    }

    #[test]
    fn a_core_without_the_pass_is_missing_and_said() {
        let paths = [
            "nc00/sg00/bir_debug.12.after-lower_sync.before-x.json",
            "nc01/sg00/bir_debug.11.after-lower_dma.before-x.json",
            "nc01/sg00/def.json",
        ];
        for asked in [Some("lower_sync"), None] {
            // Not core 1's `lower_dma` beside core 0's `lower_sync`: one pass for all.
            let plan = pick(&paths, asked).unwrap();
            assert_eq!(plan.picked.len(), 1);
            assert_eq!(plan.picked[0].1.core(), 0);
            assert_eq!(plan.missing, [1]);
            assert_eq!(plan.set_aside, [(1, Aside::OtherPass("lower_dma".to_owned())), (2, Aside::Artifact)]);
        }
        assert!(dump_flags("lower_sync").starts_with("--internal-print-after=lower_sync "));
    }

    #[test]
    fn the_link_passes_are_set_aside_and_every_subgraph_is_linked() {
        let paths = [
            "nc00/sg00/bir_debug.12.after-lower_sync.before-x.json",
            "nc00/sg00/bir_debug.40.after-vnc_link.before-y.json",
            "nc00/sg01/bir_debug.12.after-lower_sync.before-x.json",
            "nc01/bir_debug.12.after-lower_sync.before-x.json",
        ];
        let plan = pick(&paths, None).unwrap();
        assert_eq!((plan.subgraph, plan.subgraphs.as_slice()), (0, &[0, 1][..]));
        // Core 1 has no sg01 at all: the link says so (BL0107), not the plan.
        assert_eq!(plan.picked.iter().map(|(i, _, _)| *i).collect::<Vec<_>>(), [0, 2, 3]);
        assert_eq!(plan.set_aside, [(1, Aside::AfterTheLink("vnc_link".to_owned()))]);
        assert!(plan.missing.is_empty());
        // Asked for, a link pass is taken (re-running the VNC passes on their input).
        let plan = pick(&paths, Some("vnc_link")).unwrap();
        assert_eq!(plan.picked.iter().map(|(i, _, _)| *i).collect::<Vec<_>>(), [1]);
    }

    #[test]
    fn artifacts_are_told_apart_by_name() {
        let kind = |path: &str| artifact_kind(&path.split('/').collect::<Vec<_>>());
        assert_eq!(kind("w_0.npy"), ArtifactKind::Weight);
        assert_eq!(kind("consts/W.NPY"), ArtifactKind::Weight);
        assert_eq!(kind("tensor_map.json"), ArtifactKind::TensorMap);
        assert_eq!(kind("bir_debug.12.after-lower_sync.before-x.json"), ArtifactKind::Dump);
        assert_eq!(kind("custom_op/kernel.bin"), ArtifactKind::CustomOp);
        assert_eq!(kind("libtopk.so"), ArtifactKind::CustomOp);
        assert_eq!(kind("libtopk.so.1"), ArtifactKind::CustomOp);
        assert_eq!(kind("cpu_node_0/graph.pb"), ArtifactKind::CpuNode);
        assert_eq!(kind("debug_info.json"), ArtifactKind::DebugInfo);
        assert_eq!(kind("debug_info/line_table.bin"), ArtifactKind::DebugInfo);
        for program in ["def.json", "PE.bin", "Pool.json", "Activation.bin", "SP.json", "DVE.bin", "kelf-0.json"] {
            assert_eq!(kind(program), ArtifactKind::Program, "{program}");
        }
        assert_eq!(kind("notes.txt"), ArtifactKind::Other);
        // An engine program's name in a folder of its own is not the core's program.
        assert_eq!(kind("extra/PE.bin"), ArtifactKind::Other);
    }

    #[test]
    fn the_linked_subgraph_s_files_and_which_are_read() {
        let paths = [
            "w/command.txt",
            "w/nc00/sg00/bir_debug.12.after-lower_sync.before-x.json",
            "w/nc00/sg00/w_shared.npy",
            "w/nc00/sg00/w_0.npy",
            "w/nc00/sg00/tensor_map.json",
            "w/nc00/sg00/sgLnk/w_0.npy",
            "w/nc00/sg01/w_9.npy",
            "w/nc01/sg00/bir_debug.12.after-lower_sync.before-x.json",
            "w/nc01/sg00/w_shared.npy",
            "w/nc01/sg00/PE.bin",
            "w/sgLnk/tensor-map.json",
        ];
        let plan = pick(&paths, None).unwrap();
        let found: Vec<(usize, u64, &str, ArtifactKind)> =
            artifacts(&paths, &plan).iter().map(|a| (a.index, a.core, paths[a.index], a.kind)).collect();
        assert_eq!(
            found.iter().map(|(i, c, _, k)| (*i, *c, *k)).collect::<Vec<_>>(),
            [
                (1, 0, ArtifactKind::Dump),
                (2, 0, ArtifactKind::Weight),
                (3, 0, ArtifactKind::Weight),
                (4, 0, ArtifactKind::TensorMap),
                (7, 1, ArtifactKind::Dump),
                (8, 1, ArtifactKind::Weight),
                (9, 1, ArtifactKind::Program),
            ]
        );
        assert_eq!(artifacts(&paths, &plan)[1].name, "w_shared.npy");
        // The tensor map, and the one name two cores offer; never a file of an earlier link.
        assert_eq!(wanted(&paths, &plan), [2, 4, 8]);
        assert!(plan.set_aside.contains(&(10, Aside::LinkOutput)), "{:?}", plan.set_aside);
    }

    #[test]
    fn not_a_work_directory() {
        assert_eq!(pick(&["ring/nc00.json", "ring/nc01.json"], None), None);
        assert_eq!(pick(&["nc00/sg00/def.json", "nc01/sg00/def.json"], None), None);
        assert_eq!(pick(&[], None), None);
    }
}
