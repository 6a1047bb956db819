//! The inspector's files, for `birlink open`: embedded in this binary when it was built
//! with `BIRLINK_WEB_DIST` (see `build.rs`; `cargo xtask dist` and the Python wheel do),
//! else read from a `dist/` folder named by `--web` or `BIRLINK_WEB_DIR`.

use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// Where the inspector's files come from.
#[derive(Clone, Debug)]
pub enum WebApp {
    /// Built into this binary.
    Embedded,
    /// A `dist/` folder on disk.
    Folder(PathBuf),
}

impl WebApp {
    /// The web app to serve: `folder` when given, else `BIRLINK_WEB_DIR`, else the one
    /// built in; `None` when there is none.
    pub fn find(folder: Option<&Path>) -> Option<WebApp> {
        let folder = folder
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("BIRLINK_WEB_DIR").filter(|d| !d.is_empty()).map(PathBuf::from));
        match folder {
            Some(folder) => Some(WebApp::Folder(folder)),
            None => (!ASSETS.is_empty()).then_some(WebApp::Embedded),
        }
    }

    /// The bytes of one file (`index.html`, `samples/index.json`, …); `None` for any
    /// path that is not one of the app's files (nothing outside the folder, no listing).
    pub fn file(&self, path: &str) -> Option<Vec<u8>> {
        if path.is_empty() || path.split('/').any(|part| part.is_empty() || part == "." || part == "..") {
            return None;
        }
        match self {
            WebApp::Embedded => ASSETS.iter().find(|(name, _)| *name == path).map(|(_, bytes)| bytes.to_vec()),
            WebApp::Folder(folder) => {
                let file = folder.join(path);
                // Only regular files below the folder, whatever links it holds.
                let real = file.canonicalize().ok()?;
                let root = folder.canonicalize().ok()?;
                (real.starts_with(&root) && real.is_file()).then(|| std::fs::read(real).ok()).flatten()
            }
        }
    }
}

/// A `Content-Type` for a file's name.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// What to say when there is no web app: how to get one.
pub const MISSING: &str = "this birlink was built without the web app: install one that has it (`pip install birlink`, or a release binary), build one (`cargo xtask dist`), or name a built `dist/` with `--web DIR` (`trunk build --release` makes it)";
