//! `birlink open`: the inspector on these files, in the default browser, served from
//! this machine only.
//!
//! A small HTTP server (`tiny_http`) on `127.0.0.1` (a free port unless `--port`) serves
//! the web app (built into this binary, see `crate::web`) and exactly the files named —
//! nothing else on disk, no directory listing, no `..` — under a path made of 128 random
//! bits, with no CORS header, until Ctrl-C. The page is opened with `?src=` naming those
//! files, so it links them as if they had been dropped on it (folders keep their
//! relative paths). Nothing leaves the machine: the page requests only its own origin.

use std::path::PathBuf;

use birlink_core::tools::share::View;
use clap::Args;

use super::{Error, Outcome, Status};
use crate::files;
use crate::out::outln;
use crate::web::{content_type, WebApp, MISSING};

/// Arguments of `birlink open`.
#[derive(Args, Debug)]
pub struct OpenArgs {
    /// Per-core module files, bundles, or folders of them (as `birlink link` reads them).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Expected number of cores (vnc_nc_count); default: bundle, netlist, or the number of modules.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=birlink_core::limits::MAX_LNC))]
    lnc: Option<u64>,
    /// The view to open on (pipeline, callgraph, barriers, semaphores, addresses, diagnostics).
    #[arg(long, value_parser = parse_view)]
    view: Option<View>,
    /// The port (default: a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on: this machine only unless told otherwise.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Print the URL; do not open a browser.
    #[arg(long)]
    no_browser: bool,
    /// Serve this built web app (a `dist/` folder) instead of the one built in.
    #[arg(long, value_name = "DIR")]
    web: Option<PathBuf>,
    /// In a compiler work directory, open the dumps printed after this pass (default:
    /// `lower_sync`, else the latest dumped).
    #[arg(long, value_name = "PASS")]
    after: Option<String>,
}

fn parse_view(text: &str) -> Result<View, String> {
    View::parse(text).ok_or_else(|| format!("no view `{text}`: one of {}", View::names()))
}

/// A file the page may fetch: its name in the page, and where it is.
struct Served {
    name: String,
    path: PathBuf,
}

impl OpenArgs {
    /// Serves until interrupted.
    pub fn run(self) -> Outcome {
        let app = WebApp::find(self.web.as_deref()).ok_or_else(|| Error(MISSING.to_owned()))?;
        if app.file("index.html").is_none() {
            return Err(Error(format!("{MISSING} (no index.html in the web app given)")));
        }
        let (named, workdirs) = files::named_paths_after(&self.inputs, self.after.as_deref()).map_err(Error)?;
        for line in workdirs.iter().flat_map(files::Workdir::summary) {
            eprintln!("{line}");
        }
        let files: Vec<Served> = named.into_iter().map(|(name, path)| Served { name, path }).collect();
        if files.is_empty() {
            return Err(Error("no file to open: the folders hold no *.json".to_owned()));
        }
        let loopback = matches!(self.host.as_str(), "127.0.0.1" | "localhost" | "::1");
        let server = tiny_http::Server::http((self.host.as_str(), self.port))
            .map_err(|e| Error(format!("cannot listen on {}:{}: {e}", self.host, self.port)))?;
        let port = server.server_addr().to_ip().map(|a| a.port()).unwrap_or(self.port);
        let token = token().map_err(Error)?;
        let shown_host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        let url = format!("http://{shown_host}:{port}/{token}/{}", page_query(&files, self.lnc, self.view));
        if !loopback {
            eprintln!(
                "warning: serving on {} — anyone who can reach this machine and has the URL can read these files",
                self.host
            );
        }
        eprintln!(
            "birlink: serving {} on this machine (Ctrl-C stops it); from another machine: `ssh -L {port}:127.0.0.1:{port} <this host>`, then open the URL there",
            birlink_core::english::counted(files.len(), "file")
        );
        outln!("{url}");
        if !self.no_browser {
            if let Err(why) = open_browser(&url) {
                eprintln!("birlink: could not open a browser ({why}): open the URL above");
            }
        }
        let prefix = format!("/{token}/");
        for request in server.incoming_requests() {
            let response = respond(&request, &prefix, &app, &files);
            let _ = request.respond(response);
        }
        Ok(Status::OK)
    }
}

/// 128 random bits, as hex: the path no one can guess.
fn token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    getrandom::getrandom(&mut bytes).map_err(|e| format!("no randomness for the server's path: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// `?src=…&lnc=…#view=…` for the page: each file as `files/<i>/<its name>`, the name
/// percent-encoded whole (slashes too), so the page names the file as a dropped folder
/// would (`nc00/sg00/bir_debug….json`).
fn page_query(files: &[Served], lnc: Option<u64>, view: Option<View>) -> String {
    let mut parts: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, f)| format!("src={}", encode(&format!("files/{i}/{}", encode(&f.name)))))
        .collect();
    if let Some(lnc) = lnc {
        parts.push(format!("lnc={lnc}"));
    }
    let mut query = format!("?{}", parts.join("&"));
    if let Some(view) = view {
        query.push_str(&format!("#view={}", view.as_str()));
    }
    query
}

/// Percent-encodes all but RFC 3986's unreserved characters.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

type Response = tiny_http::Response<Box<dyn std::io::Read + Send>>;

fn response(status: u16, body: Vec<u8>, kind: &str) -> Response {
    let length = body.len();
    let mut response = tiny_http::Response::new(
        status.into(),
        Vec::new(),
        Box::new(std::io::Cursor::new(body)) as Box<_>,
        Some(length),
        None,
    );
    for (name, value) in [
        ("Content-Type", kind),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "no-store"),
    ] {
        if let Ok(header) = tiny_http::Header::from_bytes(name, value) {
            response.add_header(header);
        }
    }
    response
}

fn not_found() -> Response {
    response(404, b"not found\n".to_vec(), "text/plain; charset=utf-8")
}

/// What a request asks for, decided from its method and path alone.
#[derive(Debug, PartialEq, Eq)]
enum Route<'a> {
    /// One of the app's files (`index.html` for the per-run path itself).
    App(&'a str),
    /// The `i`-th named file (`files/<i>/<its name>`; the name is for the page).
    File(usize),
    /// Anything else: outside the per-run path, a file not named, a listing.
    NotFound,
    /// Not `GET` or `HEAD`.
    Method,
}

fn route<'a>(get: bool, url: &'a str, prefix: &str, files: usize) -> Route<'a> {
    if !get {
        return Route::Method;
    }
    let path = url.split(['?', '#']).next().unwrap_or("");
    let Some(rest) = path.strip_prefix(prefix) else { return Route::NotFound };
    if let Some(file) = rest.strip_prefix("files/") {
        let mut parts = file.splitn(2, '/');
        let index = parts.next().and_then(|i| i.parse::<usize>().ok());
        let named = parts.next().is_some_and(|name| !name.is_empty());
        return match index {
            Some(i) if i < files && named => Route::File(i),
            _ => Route::NotFound,
        };
    }
    Route::App(if rest.is_empty() { "index.html" } else { rest })
}

/// One request: the app's files and the named ones, under the per-run path; anything
/// else is 404 (the path, too, is not said).
fn respond(request: &tiny_http::Request, prefix: &str, app: &WebApp, files: &[Served]) -> Response {
    let get = matches!(request.method(), tiny_http::Method::Get | tiny_http::Method::Head);
    match route(get, request.url(), prefix, files.len()) {
        Route::Method => response(405, b"method not allowed\n".to_vec(), "text/plain; charset=utf-8"),
        Route::NotFound => not_found(),
        Route::File(i) => match std::fs::read(&files[i].path) {
            Ok(bytes) => response(200, bytes, "application/json"),
            Err(_) => not_found(),
        },
        Route::App(name) => match app.file(name) {
            Some(bytes) => response(200, bytes, content_type(name)),
            None => not_found(),
        },
    }
}

/// Opens `url` in the default browser.
fn open_browser(url: &str) -> Result<(), String> {
    let mut command = if cfg!(target_os = "macos") {
        let mut command = std::process::Command::new("open");
        command.arg(url);
        command
    } else if cfg!(target_os = "windows") {
        let mut command = std::process::Command::new("cmd");
        command.args(["/C", "start", "", url]);
        command
    } else {
        let mut command = std::process::Command::new("xdg-open");
        command.arg(url);
        command
    };
    command
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(drop)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PREFIX: &str = "/0123456789abcdef0123456789abcdef/";

    #[test]
    fn only_the_app_and_the_named_files_below_the_per_run_path() {
        let at = |url: &str| format!("{:?}", route(true, &format!("{PREFIX}{url}"), PREFIX, 2));
        assert_eq!(at(""), r#"App("index.html")"#);
        assert_eq!(at("app_bg.wasm?x=1#y"), r#"App("app_bg.wasm")"#);
        assert_eq!(at("files/0/nc00.json"), "File(0)");
        assert_eq!(at("files/1/dump%2Fnc01%2Fsg00%2Fx.json"), "File(1)");
        for refused in ["files/2/x.json", "files/", "files/0", "files/0/", "files/-1/x", "files/x/y.json"] {
            assert_eq!(at(refused), "NotFound", "{refused}");
        }
        for outside in ["/", "/index.html", "/0123456789abcdef0123456789abcdee/", "/0123456789abcdef0123456789abcdef"] {
            assert_eq!(route(true, outside, PREFIX, 2), Route::NotFound, "{outside}");
        }
        assert_eq!(route(false, PREFIX, PREFIX, 2), Route::Method);
    }

    #[test]
    fn the_app_never_serves_a_path_out_of_its_files() {
        let dir = std::env::temp_dir().join(format!("birlink-open-test-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("app/samples")).unwrap();
        std::fs::write(dir.join("app/index.html"), "<!doctype html>").unwrap();
        std::fs::write(dir.join("app/samples/a.json"), "{}").unwrap();
        std::fs::write(dir.join("secret.json"), "{}").unwrap();
        let app = WebApp::Folder(dir.join("app"));
        assert!(app.file("index.html").is_some());
        assert!(app.file("samples/a.json").is_some());
        for refused in
            ["../secret.json", "samples/../../secret.json", "samples", "samples/", "", "./index.html", "/etc/passwd"]
        {
            assert_eq!(app.file(refused), None, "{refused}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_page_is_told_each_file_by_its_name() {
        let files = [
            Served { name: "nc00/sg00/bir debug.json".to_owned(), path: "a".into() },
            Served { name: "b.json".to_owned(), path: "b".into() },
        ];
        assert_eq!(
            page_query(&files, Some(2), Some(View::Diagnostics)),
            "?src=files%2F0%2Fnc00%252Fsg00%252Fbir%2520debug.json&src=files%2F1%2Fb.json&lnc=2#view=diagnostics"
        );
        assert!(token().unwrap().chars().all(|c| c.is_ascii_hexdigit()) && token().unwrap().len() == 32);
        assert_ne!(token().unwrap(), token().unwrap());
    }
}
