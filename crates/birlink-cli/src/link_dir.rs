//! `birlink link --link-dir DIR`: the link directory made for real, from the plan in
//! `report.link_dir` (docs/spec/link.md §3.10): a symbolic link to each core's weights,
//! debug-info and custom-op file, a copy of each CPU-node file, the merged
//! `tensor-map.json` (the seeds' reading: `DIR` is `sgLnk/`); in the compiler's modular
//! flow `DIR` stands for the work directory and gets each core's `ncCC/sgLnk/`: its
//! subgraphs' weights in `sg00/`, the core folder's debug info and `.so` files, the
//! core's merged `sg00/tensor_map.json`.
//!
//! Nothing is ever written outside `DIR`: an entry's name is a relative path of plain
//! segments, a folder inside `DIR` that is a symbolic link is refused rather than
//! entered, and a copy or the tensor map replaces a symbolic link in its place instead
//! of writing through it. A second run finds every entry as it would make it and
//! changes nothing.

use birlink_core::english::counted_as;
use std::path::{Component, Path, PathBuf};

use birlink_core::output::report::{LinkDir, LinkDirEntry, Placement};

/// What making the folder did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Made {
    /// Entries made or replaced.
    pub made: usize,
    /// Entries found as they would be made.
    pub unchanged: usize,
    /// Symbolic links made among the entries.
    pub symlinks: usize,
    /// Copies.
    pub copies: usize,
    /// Written files.
    pub written: usize,
}

impl Made {
    /// One line for stderr.
    pub fn describe(&self, dir: &Path) -> String {
        format!(
            "link directory `{}`: {}, {}, {} written; {} made, {} already there",
            dir.display(),
            counted_as(self.symlinks, "symbolic link", "symbolic links"),
            counted_as(self.copies, "copy", "copies"),
            self.written,
            self.made,
            self.unchanged
        )
    }
}

/// Makes `dir` from the plan; `text` gives a written entry's text (the merged map).
pub fn make(dir: &Path, plan: &LinkDir, text: impl Fn(&LinkDirEntry) -> Option<String>) -> Result<Made, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let mut made = Made::default();
    for entry in &plan.entries {
        let dest = inside(dir, &entry.name)?;
        let changed = match entry.placement {
            Placement::Symlink => {
                made.symlinks += 1;
                let source = source_of(entry.source.as_deref(), &entry.name)?;
                symlink(&source, &dest)?
            }
            Placement::Copy => {
                made.copies += 1;
                let source = source_of(entry.source.as_deref(), &entry.name)?;
                let bytes = std::fs::read(&source).map_err(|e| format!("cannot read `{}`: {e}", source.display()))?;
                write_file(&dest, &bytes)?
            }
            Placement::Write => {
                made.written += 1;
                let Some(text) = text(entry) else {
                    return Err(format!("no merged tensor map to write as `{}`", entry.name));
                };
                write_file(&dest, text.as_bytes())?
            }
        };
        if changed {
            made.made += 1;
        } else {
            made.unchanged += 1;
        }
    }
    Ok(made)
}

/// `dir/name`, its folders made, when `name` is a relative path of plain segments and
/// no folder on the way is a symbolic link.
fn inside(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let relative = Path::new(name);
    let plain = !name.is_empty()
        && !name.contains('\\')
        && relative.components().all(|c| matches!(c, Component::Normal(_)))
        && name.split('/').all(|s| !s.is_empty() && s != "." && s != "..");
    if !plain {
        return Err(format!("refusing `{name}`: not a plain relative name inside the link directory"));
    }
    let mut at = dir.to_path_buf();
    let segments: Vec<&str> = name.split('/').collect();
    for folder in &segments[..segments.len() - 1] {
        at.push(folder);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_dir() => {}
            Ok(_) => {
                return Err(format!("refusing `{}`: it is in the way of `{name}` and not a folder", at.display()));
            }
            Err(_) => std::fs::create_dir(&at).map_err(|e| format!("cannot create `{}`: {e}", at.display()))?,
        }
    }
    at.push(segments[segments.len() - 1]);
    Ok(at)
}

fn source_of(source: Option<&str>, name: &str) -> Result<PathBuf, String> {
    let source = source.ok_or_else(|| format!("`{name}` has no source file"))?;
    std::fs::canonicalize(source).map_err(|e| format!("cannot find `{source}`: {e}"))
}

/// Whatever is at `dest` that is not a folder, removed (a symbolic link itself, never
/// what it points to).
fn clear(dest: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(dest) {
        Ok(meta) if meta.file_type().is_dir() => Err(format!("refusing to replace the folder `{}`", dest.display())),
        Ok(_) => std::fs::remove_file(dest).map_err(|e| format!("cannot replace `{}`: {e}", dest.display())),
        Err(_) => Ok(()),
    }
}

/// A symbolic link at `dest` to `target`; false when one is there already.
fn symlink(target: &Path, dest: &Path) -> Result<bool, String> {
    if std::fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_symlink())
        && std::fs::read_link(dest).is_ok_and(|t| t == target)
    {
        return Ok(false);
    }
    clear(dest)?;
    #[cfg(unix)]
    let made = std::os::unix::fs::symlink(target, dest);
    #[cfg(windows)]
    let made = std::os::windows::fs::symlink_file(target, dest);
    made.map_err(|e| format!("cannot link `{}` to `{}`: {e}", dest.display(), target.display()))?;
    Ok(true)
}

/// `bytes` at `dest` as a file of its own; false when such a file is there already.
fn write_file(dest: &Path, bytes: &[u8]) -> Result<bool, String> {
    let meta = std::fs::symlink_metadata(dest);
    if meta.as_ref().is_ok_and(|m| m.file_type().is_file()) && std::fs::read(dest).is_ok_and(|b| b == bytes) {
        return Ok(false);
    }
    clear(dest)?;
    let mut temp = dest.as_os_str().to_owned();
    temp.push(".birlink-tmp");
    let temp = PathBuf::from(temp);
    clear(&temp)?;
    std::fs::write(&temp, bytes).map_err(|e| format!("cannot write `{}`: {e}", temp.display()))?;
    std::fs::rename(&temp, dest).map_err(|e| format!("cannot write `{}`: {e}", dest.display()))?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_leave_the_folder_are_refused() {
        let dir = std::env::temp_dir().join(format!("birlink-linkdir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["../x.npy", "/etc/x", "a/../../x", "", "a//b", "./x", "a\\..\\x"] {
            assert!(inside(&dir, name).is_err(), "{name}");
        }
        assert_eq!(inside(&dir, "custom_op/libtopk.so").unwrap(), dir.join("custom_op/libtopk.so"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
