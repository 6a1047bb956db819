//! Reading inputs from disk: files, and folders of `*.json` in sorted path order — or,
//! when a folder is a compiler work directory (`nc00/sg00/bir_debug.*after-*.json`…),
//! the one dump per core the link reads (`birlink_core::read::workdir`).
//!
//! A path that cannot be read is passed on as an unreadable source, so the core turns
//! it into a coded diagnostic (BL0001) like any other bad input.

use std::path::{Path, PathBuf};

use birlink_core::read::workdir::{self, Aside, Plan, WorkFile, WorkdirInput};
use birlink_core::{Role, SourceFile};

/// A folder read as a compiler work directory: what was taken and what set aside.
pub struct Workdir {
    /// The folder as given.
    pub folder: String,
    /// The folder's path.
    pub root: PathBuf,
    /// Its files, relative to it, sorted.
    pub paths: Vec<String>,
    /// What [`workdir::pick`] chose among them.
    pub plan: Plan,
    /// The pass asked for, if any.
    pub after: Option<String>,
}

impl Workdir {
    /// The directory as the link's last step reads it: every file's path (as the
    /// link's inputs are named) and size, and the bytes of the files it reads (the
    /// tensor maps, a name several cores offer). A file that cannot be read has size 0
    /// and no bytes: the step then says so.
    pub fn input(&self) -> WorkdirInput {
        let names: Vec<&str> = self.paths.iter().map(String::as_str).collect();
        let wanted = workdir::wanted(&names, &self.plan);
        let files = self
            .paths
            .iter()
            .enumerate()
            .map(|(i, relative)| {
                let path = self.root.join(relative);
                let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                let content = wanted.binary_search(&i).is_ok().then(|| std::fs::read(&path).ok()).flatten();
                WorkFile { path: display(&path), size, content }
            })
            .collect();
        WorkdirInput { after: self.after.clone(), files }
    }

    /// The one work directory among the inputs, as the link's last step reads it
    /// (`None` with none or several: the link directory is one folder's).
    pub fn single_input(workdirs: &[Workdir]) -> Option<WorkdirInput> {
        match workdirs {
            [one] => Some(one.input()),
            _ => None,
        }
    }

    /// What the CLI says of it, a line each, for stderr.
    pub fn summary(&self) -> Vec<String> {
        let plan = &self.plan;
        let mut lines = vec![format!(
            "work directory `{}`: {}, {} (dumped: {})",
            self.folder,
            workdir::subgraphs_text(&plan.subgraphs),
            match &self.after {
                Some(pass) => format!("the dumps after `{pass}`"),
                None if plan.modular() => "bir_linker's input (each subgraph's latest dump before the link)".to_owned(),
                None => format!("the link's input (after `{}`)", workdir::DEFAULT_AFTER),
            },
            plan.passes.join(", ")
        )];
        for (i, dump, reason) in &plan.picked {
            lines.push(format!("  core {}: `{}` ({})", dump.core(), self.paths[*i], reason.describe(dump)));
        }
        for (i, dump) in &plan.vnc_input {
            lines.push(format!(
                "  core {}: `{}` (after `{}`, the compiler's linked module: the VNC passes' input)",
                dump.core(),
                self.paths[*i],
                dump.after
            ));
        }
        let after = self.after.as_deref().unwrap_or(plan.default_after());
        for core in &plan.missing {
            let how = match plan.command {
                Some(i) => format!("re-run the compile command in `{}` with", self.paths[i]),
                None => "re-run the compile with".to_owned(),
            };
            lines.push(format!("  core {core}: no dump after `{after}`: {how} `{}`", workdir::dump_flags(after)));
        }
        let count = |f: &dyn Fn(&Aside) -> bool| plan.set_aside.iter().filter(|(_, a)| f(a)).count();
        let kinds = [
            (count(&|a| matches!(a, Aside::OtherPass(_))), "dump of another pass", "dumps of other passes"),
            (
                count(&|a| matches!(a, Aside::AfterTheLink(_))),
                "of the compiler's own results (held against birlink's)",
                "of the compiler's own results (held against birlink's)",
            ),
            (
                count(&|a| matches!(a, Aside::LinkedModule(_))),
                "dump of the compiler's linked module (`ncCC/sgLnk/`)",
                "dumps of the compiler's linked modules (`ncCC/sgLnk/`)",
            ),
            (count(&|a| matches!(a, Aside::PastTheLink(_))), "dump after the link", "dumps after the link"),
            (count(&|a| matches!(a, Aside::TensorMap)), "tensor map", "tensor maps"),
            (count(&|a| matches!(a, Aside::Artifact)), "backend artifact", "backend artifacts"),
            (
                count(&|a| matches!(a, Aside::LinkOutput)),
                "file of an earlier link (`sgLnk/`)",
                "files of an earlier link (`sgLnk/`)",
            ),
            (count(&|a| matches!(a, Aside::Command)), "compile command", "compile commands"),
            (count(&|a| matches!(a, Aside::Log)), "compiler log (`birlink explain --log` reads it)", "compiler logs"),
        ];
        let parts: Vec<String> = kinds
            .iter()
            .filter(|(n, _, _)| *n > 0)
            .map(|(n, one, many)| format!("{n} {}", if *n == 1 { one } else { many }))
            .collect();
        if !parts.is_empty() {
            lines.push(format!(
                "  set aside {}: {}",
                birlink_core::english::counted(plan.set_aside.len(), "file"),
                parts.join(", ")
            ));
        }
        lines
    }
}

/// A file to read, or a folder that could not be listed and why.
type Listed = Result<PathBuf, (PathBuf, String)>;

/// Files under the names the browser gives them ([`named_paths`]).
pub type Named = Vec<(String, PathBuf)>;

/// The files of the inputs, in order, folders expanded: a work directory's picked
/// dumps (by core), any other folder's `*.json` (recursively, sorted by path); with
/// the work directories found. A folder that cannot be listed is `Err` in its place.
fn expand(inputs: &[PathBuf], after: Option<&str>) -> (Vec<Listed>, Vec<Workdir>) {
    let mut files = Vec::new();
    let mut workdirs = Vec::new();
    for input in inputs {
        if !input.is_dir() {
            files.push(Ok(input.clone()));
            continue;
        }
        let mut found = Vec::new();
        if let Err(error) = walk(input, &mut found) {
            files.push(Err((input.clone(), error.to_string())));
            continue;
        }
        found.sort();
        let relative: Vec<String> = found.iter().map(|p| display(p.strip_prefix(input).unwrap_or(p))).collect();
        let names: Vec<&str> = relative.iter().map(String::as_str).collect();
        if let Some(plan) = workdir::pick(&names, after) {
            files.extend(plan.inputs().into_iter().map(|i| Ok(found[i].clone())));
            workdirs.push(Workdir {
                folder: display(input),
                root: input.clone(),
                paths: relative,
                plan,
                after: after.map(str::to_owned),
            });
            continue;
        }
        let json: Vec<PathBuf> = found.into_iter().filter(|p| p.extension().is_some_and(|e| e == "json")).collect();
        if json.is_empty() {
            files.push(Err((input.clone(), "the folder holds no *.json file".to_owned())));
        }
        files.extend(json.into_iter().map(Ok));
    }
    (files, workdirs)
}

/// Every input file, folders expanded (recursively, sorted by path; a work directory
/// to its dumps after `lower_sync`).
pub fn gather(inputs: &[PathBuf]) -> Vec<SourceFile> {
    gather_after(inputs, None).0
}

/// [`gather`], a work directory's dumps after `after` when given, with the work
/// directories found.
pub fn gather_after(inputs: &[PathBuf], after: Option<&str>) -> (Vec<SourceFile>, Vec<Workdir>) {
    let (files, workdirs) = expand(inputs, after);
    let sources = files
        .into_iter()
        .map(|file| match file {
            Ok(path) => read(&path, Role::Auto),
            Err((path, reason)) => unreadable(&path, &reason),
        })
        .collect();
    (sources, workdirs)
}

/// Every input file under the name the browser gives it: a file its file name, a
/// folder's files their path from the folder, the folder's own name first
/// (`webkitRelativePath`), in sorted order. `birlink share` names files this way so its
/// link is the page's, byte for byte, and `birlink open` so the page shows them as if
/// the folder had been dropped.
pub fn named_paths(inputs: &[PathBuf]) -> Result<Named, String> {
    named_paths_after(inputs, None).map(|(files, _)| files)
}

/// [`named_paths`], a work directory's dumps after `after` when given, with the work
/// directories found.
pub fn named_paths_after(inputs: &[PathBuf], after: Option<&str>) -> Result<(Named, Vec<Workdir>), String> {
    let mut files = Vec::new();
    let mut workdirs = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let (expanded, mut found_workdirs) = expand(std::slice::from_ref(input), after);
            let found = expanded
                .into_iter()
                .map(|f| f.map_err(|(p, e)| format!("cannot read `{}`: {e}", display(&p))))
                .collect::<Result<Vec<_>, _>>()?;
            let in_core_order = !found_workdirs.is_empty();
            workdirs.append(&mut found_workdirs);
            let parent = input.canonicalize().ok().and_then(|p| p.parent().map(Path::to_path_buf));
            let mut named = Vec::new();
            for path in found {
                let full = path.canonicalize().unwrap_or_else(|_| path.clone());
                let name = parent
                    .as_ref()
                    .and_then(|p| full.strip_prefix(p).ok())
                    .map(display)
                    .unwrap_or_else(|| display(&path));
                named.push((name, path));
            }
            if !in_core_order {
                named.sort_by(|a, b| a.0.cmp(&b.0));
            }
            files.extend(named);
        } else if input.is_file() {
            let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| display(input));
            files.push((name, input.clone()));
        } else {
            return Err(format!("cannot read `{}`: {}", display(input), "no such file or directory"));
        }
    }
    Ok((files, workdirs))
}

/// Every input file's bytes under the name the browser gives it ([`named_paths`]).
pub fn gather_as_browser(inputs: &[PathBuf]) -> Result<Vec<(String, Vec<u8>)>, String> {
    named_paths(inputs)?
        .into_iter()
        .map(|(name, path)| {
            let bytes =
                std::fs::read(&path).map_err(|e| format!("cannot read `{}`: {}", display(&path), describe(&e)))?;
            Ok((name, bytes))
        })
        .collect()
}

/// A file's content, read when the loader reaches it, in chunks (`birlink history`'s
/// dumps: one held at a time, never twice).
pub fn content(path: &Path) -> birlink_core::Content {
    read(path, Role::Auto).content
}

/// The `--netlist` file.
pub fn read_netlist(path: &Path) -> SourceFile {
    read(path, Role::Netlist)
}

/// A file read when the loader reaches it (and again for a location, when its text was
/// dropped): the loader then holds one file per thread at a time, not the whole set.
fn read(path: &Path, role: Role) -> SourceFile {
    let content = match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            let owned = path.to_path_buf();
            let reader = birlink_core::Reader::filling(move |sink| fill(&owned, sink).map_err(|e| describe(&e)));
            birlink_core::Content::Later { len: meta.len(), reader }
        }
        _ => birlink_core::Content::from(std::fs::read(path).map_err(|e| describe(&e))),
    };
    SourceFile { path: display(path), content, role }
}

/// Gives the file to `sink` in chunks (an indented dump is compacted as it arrives,
/// never held whole); once the sink takes the rest as it is (a compact dump, after its
/// first chunk), the rest is read straight into it, with no copy between.
fn fill(path: &Path, sink: &mut dyn birlink_core::Sink) -> std::io::Result<()> {
    use std::io::Read as _;
    let mut file = std::fs::File::open(path)?;
    // A first chunk the size of the loader's look at a file, then larger ones.
    let mut buffer = vec![0u8; 64 << 10];
    loop {
        if let Some(rest) = sink.rest() {
            file.read_to_end(rest)?;
            return Ok(());
        }
        match file.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(n) => sink.chunk(&buffer[..n]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
        if buffer.len() < 4 << 20 {
            buffer.resize(4 << 20, 0);
        }
    }
}

fn unreadable(path: &Path, reason: &str) -> SourceFile {
    SourceFile { path: display(path), content: birlink_core::Content::Unreadable(reason.to_owned()), role: Role::Auto }
}

/// Every file below `dir`, sorted by the caller. A symbolic
/// link to a file is read; one to a folder is not entered (a work directory's `sgLnk/`
/// links back into the cores' folders, and a link to a parent would never end).
fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in walkdir::WalkDir::new(dir).follow_links(false).min_depth(1) {
        let entry = entry.map_err(std::io::Error::other)?;
        // Every file: a work directory is told by all of its names; any other folder
        // keeps its `*.json` (`expand`).
        let is_file = entry.file_type().is_file() || (entry.path_is_symlink() && entry.path().is_file());
        if is_file {
            found.push(entry.into_path());
        }
    }
    Ok(())
}

fn display(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn describe(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        _ => error.to_string().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use birlink_core::read::compact::Compactor;

    /// What the loader makes of a file read by [`super::fill`]: the compactor's bytes,
    /// whether any were dropped, and how many it saw.
    fn filled(bytes: &[u8]) -> std::io::Result<(Vec<u8>, bool, u64)> {
        let dir = std::env::temp_dir().join(format!("birlink-fill-{}-{}", std::process::id(), bytes.len()));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join("f.json");
        std::fs::write(&path, bytes)?;
        let mut compactor = Compactor::new(bytes.len() as u64);
        super::fill(&path, &mut compactor)?;
        let seen = compactor.seen();
        let (out, compacted) = compactor.finish();
        std::fs::remove_dir_all(&dir)?;
        Ok((out, compacted, seen))
    }

    /// A compact file's rest is read straight into the loader's bytes once it has looked
    /// at the start; an indented one is compacted chunk by chunk. Either way every byte
    /// arrives once, in order, and is counted.
    #[test]
    fn a_file_is_filled_whole_in_either_way() -> std::io::Result<()> {
        let item = |i: usize| format!("{{\"name\":\"i{i}\",\"opcode\":\"Matmult\",\"n\":{i}}}");
        for count in [0usize, 1, 1_000, 1_700, 40_000] {
            let compact = format!("[{}]", (0..count).map(item).collect::<Vec<_>>().join(","));
            assert_eq!(
                filled(compact.as_bytes())?,
                (compact.clone().into_bytes(), false, compact.len() as u64),
                "{count}"
            );
            let indented = compact.replace(",\"", ",\n    \"");
            assert_eq!(
                filled(indented.as_bytes())?,
                (compact.clone().into_bytes(), count > 0, indented.len() as u64),
                "{count}"
            );
        }
        Ok(())
    }
}
