//! Reading inputs from disk: files, and folders of `*.json` in sorted path order.
//!
//! A path that cannot be read is passed on as an unreadable source, so the core turns
//! it into a coded diagnostic (BL0001) like any other bad input.

use std::path::{Path, PathBuf};

use birlink_core::{Role, SourceFile};

/// Every input file, folders expanded (recursively, sorted by path).
pub fn gather(inputs: &[PathBuf]) -> Vec<SourceFile> {
    let mut sources = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            if let Err(error) = walk(input, &mut found) {
                sources.push(unreadable(input, &error.to_string()));
                continue;
            }
            found.sort();
            if found.is_empty() {
                sources.push(unreadable(input, "the folder holds no *.json file"));
            }
            for path in found {
                sources.push(read(&path, Role::Auto));
            }
        } else {
            sources.push(read(input, Role::Auto));
        }
    }
    sources
}

/// Every input file under the name the browser gives it: a file its file name, a
/// folder's files their path from the folder, the folder's own name first
/// (`webkitRelativePath`), in sorted order. `birlink share` names files this way so its
/// link is the page's, byte for byte, and `birlink open` so the page shows them as if
/// the folder had been dropped.
pub fn named_paths(inputs: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            walk(input, &mut found).map_err(|e| format!("cannot read `{}`: {}", display(input), describe(&e)))?;
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
            named.sort_by(|a, b| a.0.cmp(&b.0));
            files.extend(named);
        } else if input.is_file() {
            let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| display(input));
            files.push((name, input.clone()));
        } else {
            return Err(format!("cannot read `{}`: {}", display(input), "no such file or directory"));
        }
    }
    Ok(files)
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

/// The `--netlist` file.
pub fn read_netlist(path: &Path) -> SourceFile {
    read(path, Role::Netlist)
}

fn read(path: &Path, role: Role) -> SourceFile {
    SourceFile { path: display(path), content: std::fs::read(path).map_err(|e| describe(&e)), role }
}

fn unreadable(path: &Path, reason: &str) -> SourceFile {
    SourceFile { path: display(path), content: Err(reason.to_owned()), role: Role::Auto }
}

/// Every `*.json` file below `dir`. A symbolic link to a file is read; one to a folder
/// is not entered (a work directory's `sgLnk/` links back into the cores' folders, and
/// a link to a parent would never end).
fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in walkdir::WalkDir::new(dir).follow_links(false).min_depth(1) {
        let entry = entry.map_err(std::io::Error::other)?;
        let is_file = entry.file_type().is_file() || (entry.path_is_symlink() && entry.path().is_file());
        if is_file && entry.path().extension().is_some_and(|e| e == "json") {
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
