//! Repository hygiene the tests enforce, across every crate and the docs:
//!
//! * generated files are current (`docs/diagnostics.md`);
//! * every Rust file opens with a `//!` comment saying what it is;
//! * the core crate stays pure (no IO, no printing, no clock, no web or CLI crate: read
//!   from its import graph), its imports run down its layers, no files of it import each
//!   other round, and no file imports its own folder's `mod.rs`;
//! * the page builds no markup from text;
//! * docs and code cite the spec in `docs/spec/`, never a path outside the
//!   repository, and every section they cite exists;
//! * every `#[allow]` says why.

use std::path::{Path, PathBuf};

use super::root;

/// The repository's files with one of these extensions, in path order, leaving out
/// what is built, fetched or generated data.
fn files(extensions: &[&str]) -> Vec<PathBuf> {
    const SKIP: &[&str] =
        &["target", "node_modules", "dist", "dist-debug", ".git", "snapshots", "corpus", "artifacts", "samples"];
    let mut found = Vec::new();
    let mut stack = vec![root()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() {
                if !SKIP.contains(&name) {
                    stack.push(path);
                }
            } else if extensions.iter().any(|e| name.ends_with(&format!(".{e}"))) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

#[test]
fn diagnostics_reference_is_current() {
    let committed = read(&root().join("docs/diagnostics.md"));
    assert!(committed == super::diagnostics_reference(), "docs/diagnostics.md is stale: run `cargo xtask codegen`");
}

#[test]
fn every_rust_file_starts_with_a_module_comment() {
    let sources = files(&["rs"]);
    assert!(sources.len() > 40, "found only {} Rust files", sources.len());
    for file in sources {
        assert!(read(&file).starts_with("//!"), "{} does not start with a `//!` comment", relative(&file));
    }
}

/// What the core may not name of the standard library: the file system, the network,
/// the clock, the environment, other processes, the terminal (paths, as written).
const IMPURE: [&[&str]; 7] = [
    &["std", "fs"],
    &["std", "net"],
    &["std", "time"],
    &["std", "env"],
    &["std", "process"],
    &["std", "io", "stdout"],
    &["std", "io", "stderr"],
];

/// The macros that print.
const PRINTING: [&str; 5] = ["println", "print", "eprintln", "eprint", "dbg"];

/// Every impure name a file of a graph uses: `module: std::fs`, `module: println!`.
fn impurities(graph: &crate::imports::Graph) -> Vec<String> {
    let mut found = Vec::new();
    for (module, paths) in &graph.externals {
        for path in paths {
            if IMPURE.iter().any(|bad| path.len() >= bad.len() && path[..bad.len()].iter().eq(bad.iter())) {
                found.push(format!("{}: {}", module.join("/"), path.join("::")));
            }
        }
    }
    for (module, macros) in &graph.macros {
        for name in macros.iter().filter(|m| PRINTING.contains(&m.as_str())) {
            found.push(format!("{}: {name}!", module.join("/")));
        }
    }
    found
}

#[test]
fn the_core_crate_is_pure() {
    let core = root().join("crates/birlink-core");
    let manifest = read(&core.join("Cargo.toml"));
    let dependencies = manifest.split("[dev-dependencies]").next().unwrap_or("");
    for forbidden in ["wasm-bindgen", "web-sys", "js-sys", "yew", "gloo", "clap", "anyhow"] {
        assert!(!dependencies.contains(forbidden), "birlink-core depends on `{forbidden}`");
    }
    let graph = core_graph();
    let named: usize = graph.externals.values().map(|paths| paths.len()).sum();
    assert!(named > 50, "only {named} standard-library paths found in the core");
    let found = impurities(&graph);
    assert!(found.is_empty(), "the core does IO, reads a clock or prints:\n{}", found.join("\n"));
}

#[test]
fn the_purity_check_sees_a_path_a_group_and_a_macro() {
    let graph = crate::imports::Graph::of(&[crate::imports::Source {
        module: vec!["read".to_owned()],
        text: "//! x\nuse std::{collections::BTreeMap, fs::{self, File}};\nfn f() { let _ = std::time::Instant::now(); println!(\"x\"); }\n#[cfg(test)]\nmod tests { fn g() { std::env::var(\"A\"); } }".to_owned(),
    }])
    .expect("readable");
    let found = impurities(&graph);
    assert_eq!(found, ["read: std::fs", "read: std::fs::File", "read: std::time::Instant::now", "read: println!"]);
}

/// The core's layers, bottom first: each imports only from layers before it in this list
/// (ARCHITECTURE.md, "The core is layered"). `limits` is usable from any.
const CORE_LAYERS: [&str; 7] = ["model", "diag", "output", "read", "passes", "tools", "gen"];

/// The core crate's import graph, file by file (`imports.rs`).
fn core_graph() -> crate::imports::Graph {
    let src = root().join("crates/birlink-core/src");
    let sources: Vec<crate::imports::Source> = files(&["rs"])
        .into_iter()
        .filter(|f| f.starts_with(&src))
        .map(|file| {
            let relative_path = file.strip_prefix(&src).unwrap_or(&file).with_extension("");
            let mut module: Vec<String> =
                relative_path.components().filter_map(|c| c.as_os_str().to_str()).map(str::to_owned).collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            crate::imports::Source { module, text: read(&file) }
        })
        .collect();
    assert!(sources.len() > 40, "found only {} core files", sources.len());
    crate::imports::Graph::of(&sources)
        .unwrap_or_else(|e| panic!("crates/birlink-core/src/{}: syn cannot read it: {}", e.module.join("/"), e.error))
}

#[test]
fn the_core_is_layered() {
    let graph = core_graph();
    let layer = |module: &[String]| module.first().and_then(|top| CORE_LAYERS.iter().position(|l| l == top));
    let mut upward = Vec::new();
    let mut checked = 0;
    for (from, targets) in &graph.edges {
        let Some(own) = layer(from) else { continue };
        for to in targets {
            checked += 1;
            if layer(to).is_some_and(|theirs| theirs > own) {
                upward.push(format!("{} imports {}", from.join("/"), to.join("/")));
            }
        }
    }
    assert!(checked > 200, "only {checked} imports found in the core");
    assert!(upward.is_empty(), "the core's layers are {CORE_LAYERS:?}, bottom first:\n{}", upward.join("\n"));
}

#[test]
fn architecture_stays_a_map() {
    let text = read(&root().join("docs/ARCHITECTURE.md"));
    let words = text.split_whitespace().count();
    assert!(
        words <= 2000,
        "docs/ARCHITECTURE.md is {words} words: a map, not an atlas (2,000 at most); mechanics go in the files' `//!`"
    );
    let first = text.lines().find(|l| l.starts_with("## ")).unwrap_or("");
    assert_eq!(first, "## The flows come first", "the map's first fact is how the compiler links");
}

#[test]
fn a_folders_files_never_import_its_mod_rs() {
    let found: Vec<String> = core_graph()
        .imports_of_enclosing_folders()
        .into_iter()
        .map(|(from, to)| {
            let folder = if to.is_empty() { "lib.rs".to_owned() } else { format!("{}/mod.rs", to.join("/")) };
            format!("{} imports {folder}", from.join("/"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "a folder's mod.rs is the face it shows the rest of the crate; its files take what they share from a sibling:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_core_has_no_import_cycle() {
    let cycles: Vec<String> = core_graph()
        .cycles()
        .into_iter()
        .map(|cycle| {
            cycle
                .iter()
                .map(|m| if m.is_empty() { "lib".to_owned() } else { m.join("/") })
                .collect::<Vec<_>>()
                .join(" → ")
        })
        .collect();
    assert!(cycles.is_empty(), "files of the core import each other round:\n{}", cycles.join("\n"));
}

#[test]
fn the_page_never_builds_markup_from_text() {
    // Uploaded names reach the DOM as text nodes and attributes only (ARCHITECTURE.md).
    let page = root().join("src");
    let sources: Vec<PathBuf> = files(&["rs"]).into_iter().filter(|f| f.starts_with(&page)).collect();
    assert!(sources.len() > 20, "found only {} web sources", sources.len());
    for source in sources {
        let text = read(&source);
        for forbidden in
            ["inner_html", "from_html_unchecked", "insert_adjacent_html", "set_outer_html", "document.write"]
        {
            assert!(!text.contains(forbidden), "{} uses `{forbidden}`", relative(&source));
        }
    }
}

#[test]
fn docs_and_code_cite_the_spec_inside_the_repository() {
    let outside = ["../shared", "shared/spec", "shared/seeds", "shared/reference", "LINK-CONTRACT", "EMBED-CONTRACT"];
    let checked = files(&["rs", "md", "mjs", "js", "sh", "toml", "html"]);
    assert!(checked.len() > 60, "found only {} files", checked.len());
    for file in checked {
        // This file names what it forbids.
        if file.ends_with("xtask/src/tidy.rs") {
            continue;
        }
        let text = read(&file);
        for path in outside {
            assert!(
                !text.contains(path),
                "{} cites `{path}`, outside the repository: cite docs/spec/",
                relative(&file)
            );
        }
    }
}

/// The numbered sections (`## 3. …`) of a spec page.
fn sections(page: &str) -> Vec<u32> {
    read(&root().join("docs/spec").join(page))
        .lines()
        .filter_map(|line| line.strip_prefix("## ")?.split('.').next()?.parse().ok())
        .collect()
}

/// The section numbers cited after `marker` (`spec §3.6`, `§2, §7`, `§3–§5`).
fn cited(text: &str, marker: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices(marker) {
        let rest = &text[at + marker.len()..];
        // The citation runs to the end of its parenthesis, sentence or line.
        let end = rest.find([')', '.', '\n', ';']).unwrap_or(rest.len());
        for part in rest[..end.max(1)].split('§').skip(1) {
            let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse() {
                found.push(n);
            }
        }
        let own: String = rest.trim_start_matches('§').chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = own.parse() {
            found.push(n);
        }
    }
    found
}

#[test]
fn every_cited_section_of_the_spec_exists() {
    let link = sections("link.md");
    let embed = sections("embed.md");
    assert_eq!(link, (0..=9).collect::<Vec<_>>(), "docs/spec/link.md numbers its sections 0 to 9");
    assert_eq!(embed, (1..=8).collect::<Vec<_>>(), "docs/spec/embed.md numbers its sections 1 to 8");
    let mut citations = 0;
    for file in files(&["rs", "md", "mjs"]) {
        let text = read(&file);
        let embed_cited = cited(&text, "embed spec §");
        let without_embed = text.replace("embed spec §", "");
        for n in cited(&without_embed, "spec §") {
            assert!(link.contains(&n), "{} cites spec §{n}, which docs/spec/link.md does not have", relative(&file));
            citations += 1;
        }
        for n in embed_cited {
            assert!(embed.contains(&n), "{} cites embed spec §{n}, which docs/spec/embed.md lacks", relative(&file));
            citations += 1;
        }
    }
    assert!(citations > 20, "found only {citations} citations of the spec");
}

#[test]
fn every_allow_says_why() {
    for file in files(&["rs"]) {
        // This file names what it looks for.
        if file.ends_with("xtask/src/tidy.rs") {
            continue;
        }
        let text = read(&file);
        for marker in ["#[allow(", "#![allow("] {
            for (at, _) in text.match_indices(marker) {
                // The whole attribute, however rustfmt wrapped it.
                let attribute = &text[at..text[at..].find(")]").map_or(text.len(), |end| at + end)];
                let line = text[..at].lines().count() + 1;
                assert!(
                    attribute.contains("reason ="),
                    "{}:{line}: an `allow` without `reason = \"…\"`: {attribute}",
                    relative(&file)
                );
            }
        }
    }
}

/// The `version = "…"` (TOML) or `"version": "…"` (JSON) first found after `section`.
fn version_in(path: &str, section: &str) -> String {
    let text = read(&root().join(path));
    let after = text.find(section).map(|at| &text[at..]).unwrap_or_else(|| panic!("{path} has no `{section}`"));
    after
        .lines()
        .find_map(|line| {
            let line = line.trim();
            let rest = line.strip_prefix("version = ").or_else(|| line.strip_prefix("\"version\": "))?;
            Some(rest.trim_end_matches(',').trim_matches('"').to_owned())
        })
        .unwrap_or_else(|| panic!("{path} has no version after `{section}`"))
}

#[test]
fn versions_agree() {
    // The workspace's is the one `cargo xtask dist` releases (`birlink --version`, the
    // report's `tool.version`, the help dialog); the wheel and the npm package say the same.
    let workspace = version_in("Cargo.toml", "[workspace.package]");
    assert_eq!(workspace, crate::dist::VERSION);
    for (path, section) in [
        ("crates/birlink-py/Cargo.toml", "[package]"),
        ("pyproject.toml", "[project]"),
        ("npm/package.json", "{"),
        ("vscode/package.json", "{"),
    ] {
        assert_eq!(version_in(path, section), workspace, "{path}'s version is not the workspace's");
    }
}
