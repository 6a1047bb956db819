//! The core crate's import graph, file by file, as rustc would resolve it: each file's
//! `use` trees (groups, renames, `self`, globs) and every `crate::`, `super::` and
//! `self::` path in its code and its macros' tokens, read with `syn`. A path is followed
//! through what a module re-exports or imports (a root re-export such as `crate::run`
//! reaches `passes`), so an edge points at the file that defines the item. Test code is
//! left out only where it is a module: `#[cfg(test)] mod … { … }` and `#[cfg(test)] mod
//! …;` (a test may reach up; code may not).
//!
//! The tidy checks (`tidy.rs`) ask four things of it: no edge runs up the core's
//! layers; no set of files imports itself round (a cycle, petgraph's Tarjan); no file
//! imports a folder above it (its `mod.rs` is the face the folder shows the rest of the
//! crate); and what each file names of the standard library and the macros it calls
//! (the core's purity).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// The mark of a path relative to its module, until the graph knows whether that module
/// has the child it starts with: `[RELATIVE, module…, "", path…]`.
const RELATIVE: &str = "<relative>";

/// A relative path made absolute when it starts with a child of its module, else `None`.
fn settle(path: &ModPath, modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    if path.first().map(String::as_str) != Some(RELATIVE) {
        return Some(path.clone());
    }
    let split = path.iter().position(String::is_empty)?;
    let mut absolute: ModPath = path[1..split].to_vec();
    absolute.extend(path[split + 1..].iter().cloned());
    // The module (`split - 1` segments) and the child the path starts with.
    let child = split.min(absolute.len());
    modules.contains(&absolute[..child]).then_some(absolute)
}

/// A module path inside the crate (`["read", "json", "stream"]`; the root is empty).
pub type ModPath = Vec<String>;

/// One file of the crate: its module path and its text.
pub struct Source {
    /// The module it is (`read/json/mod.rs` is `["read", "json"]`).
    pub module: ModPath,
    /// Its text.
    pub text: String,
}

/// What one file names and defines.
#[derive(Default)]
struct Scanned {
    /// Absolute paths it refers to (a `use` leaf, or a path in code).
    refs: Vec<ModPath>,
    /// Names it brings into scope with `use`: the name → the absolute path.
    imports: BTreeMap<String, ModPath>,
    /// Modules it glob-imports (`use x::*`).
    globs: Vec<ModPath>,
    /// Items it defines at its top level.
    defines: BTreeSet<String>,
    /// Modules it declares under `#[cfg(test)]` (`mod tests;`): test files.
    test_modules: Vec<String>,
    /// Paths into the standard library it names (`std::fs`, `std::time::Instant`).
    externals: BTreeSet<ModPath>,
    /// Macros it calls, by their last segment (`println`).
    macros: BTreeSet<String>,
}

/// The import graph: each file's module, and the modules each file's code reaches.
pub struct Graph {
    /// Edges, module → modules it imports (each a file of the crate).
    pub edges: BTreeMap<ModPath, BTreeSet<ModPath>>,
    /// What each file names of the standard library (`std`, `core`, `alloc` paths).
    pub externals: BTreeMap<ModPath, BTreeSet<ModPath>>,
    /// The macros each file calls.
    pub macros: BTreeMap<ModPath, BTreeSet<String>>,
}

/// The standard library's crates: a path starting with one is external.
const STD: [&str; 3] = ["std", "core", "alloc"];

/// Why a file could not be read.
#[derive(Debug)]
pub struct Unreadable {
    /// The module.
    pub module: ModPath,
    /// What syn said.
    pub error: String,
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|attr| attr.path().is_ident("cfg") && attr.parse_args::<syn::Ident>().is_ok_and(|ident| ident == "test"))
}

/// Resolves a path's leading `crate`, `self` and `super`s against `module`: the absolute
/// path. Any other start is taken as relative to `module` (a child module, as
/// `use codes::Code` in `diag/mod.rs`); such a path is kept only when that child exists
/// (see [`Graph::of`]), so a dependency or a local name is no edge.
fn absolute(module: &[String], segments: &[String]) -> Option<ModPath> {
    let first = segments.first()?;
    let (mut base, rest): (ModPath, &[String]) = match first.as_str() {
        "crate" => (Vec::new(), &segments[1..]),
        "self" => (module.to_vec(), &segments[1..]),
        "super" => (module.to_vec(), segments),
        _ => {
            // Marked relative: `RELATIVE` then the path from `module`.
            let mut path = vec![RELATIVE.to_owned()];
            path.extend(module.iter().cloned());
            path.push(String::new());
            path.extend(segments.iter().cloned());
            return Some(path);
        }
    };
    let mut rest = rest;
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

struct Scanner {
    /// The module the code being read is in (an inline module's, inside one).
    module: ModPath,
    scanned: Scanned,
    /// How deep in inline modules.
    depth: usize,
}

impl Scanner {
    /// A path into the standard library, kept as it is written.
    fn external(&mut self, segments: &[String]) {
        if segments.first().is_some_and(|first| STD.contains(&first.as_str())) {
            self.scanned.externals.insert(segments.to_vec());
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.to_string());
                self.use_tree(prefix, &path.tree);
                prefix.pop();
            }
            syn::UseTree::Name(name) => self.use_leaf(prefix, &name.ident.to_string(), None),
            syn::UseTree::Rename(rename) => {
                self.use_leaf(prefix, &rename.ident.to_string(), Some(rename.rename.to_string()))
            }
            syn::UseTree::Glob(_) => {
                self.external(prefix);
                if let Some(path) = absolute(&self.module, prefix) {
                    self.scanned.refs.push(path.clone());
                    self.scanned.globs.push(path);
                }
            }
            syn::UseTree::Group(group) => {
                for tree in &group.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    fn use_leaf(&mut self, prefix: &[String], name: &str, rename: Option<String>) {
        let mut segments = prefix.to_vec();
        // `use x::{self}` names `x` itself.
        let bound = match name {
            "self" => rename.or_else(|| prefix.last().cloned()),
            _ => {
                segments.push(name.to_owned());
                Some(rename.unwrap_or_else(|| name.to_owned()))
            }
        };
        self.external(&segments);
        if let Some(path) = absolute(&self.module, &segments) {
            self.scanned.refs.push(path.clone());
            if let Some(bound) = bound.filter(|b| b != "_") {
                if self.depth == 0 {
                    self.scanned.imports.insert(bound, path);
                }
            }
        }
    }

    fn path(&mut self, segments: Vec<String>) {
        self.external(&segments);
        if let Some(path) = absolute(&self.module, &segments) {
            self.scanned.refs.push(path);
        }
    }

    /// Paths in a macro's tokens: `crate :: a :: b`, `super :: x`, `self :: y`.
    fn tokens(&mut self, tokens: TokenStream) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(group) => self.tokens(group.stream()),
                TokenTree::Ident(ident) if matches!(ident.to_string().as_str(), "crate" | "super" | "self") => {
                    let mut segments = vec![ident.to_string()];
                    let mut j = i + 1;
                    while let (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)), Some(TokenTree::Ident(next))) =
                        (trees.get(j), trees.get(j + 1), trees.get(j + 2))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(next.to_string());
                        j += 3;
                    }
                    if segments.len() > 1 {
                        self.path(segments);
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Scanner {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if self.depth == 0 {
            let name = match item {
                syn::Item::Const(i) => Some(&i.ident),
                syn::Item::Enum(i) => Some(&i.ident),
                syn::Item::Fn(i) => Some(&i.sig.ident),
                syn::Item::Mod(i) => Some(&i.ident),
                syn::Item::Static(i) => Some(&i.ident),
                syn::Item::Struct(i) => Some(&i.ident),
                syn::Item::Trait(i) => Some(&i.ident),
                syn::Item::Type(i) => Some(&i.ident),
                syn::Item::Union(i) => Some(&i.ident),
                syn::Item::Macro(i) => i.ident.as_ref(),
                _ => None,
            };
            if let Some(name) = name {
                self.scanned.defines.insert(name.to_string());
            }
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        if is_cfg_test(&module.attrs) {
            if module.content.is_none() {
                self.scanned.test_modules.push(module.ident.to_string());
            }
            return;
        }
        // An inline module's paths are its own: `super` there is this file's module.
        self.depth += 1;
        self.module.push(module.ident.to_string());
        syn::visit::visit_item_mod(self, module);
        self.module.pop();
        self.depth -= 1;
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.use_tree(&mut Vec::new(), &item.tree);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.path(segments);
        syn::visit::visit_path(self, path);
    }

    /// `pub(crate)`, `pub(super)`: who may see an item, not what it uses.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Some(last) = mac.path.segments.last() {
            self.scanned.macros.insert(last.ident.to_string());
        }
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }
}

fn scan(module: &[String], text: &str) -> Result<Scanned, String> {
    let file = syn::parse_file(text).map_err(|e| e.to_string())?;
    let mut scanner = Scanner { module: module.to_vec(), scanned: Scanned::default(), depth: 0 };
    scanner.visit_file(&file);
    Ok(scanner.scanned)
}

impl Graph {
    /// The graph of a crate's files.
    pub fn of(sources: &[Source]) -> Result<Graph, Unreadable> {
        let mut scanned: BTreeMap<ModPath, Scanned> = BTreeMap::new();
        for source in sources {
            let found = scan(&source.module, &source.text)
                .map_err(|error| Unreadable { module: source.module.clone(), error })?;
            scanned.insert(source.module.clone(), found);
        }
        // Files a `#[cfg(test)] mod x;` declares are tests: not in the graph.
        let tests: BTreeSet<ModPath> = scanned
            .iter()
            .flat_map(|(module, s)| {
                s.test_modules.iter().map(move |name| {
                    let mut path = module.clone();
                    path.push(name.clone());
                    path
                })
            })
            .collect();
        // A path relative to a module names one of its children, or nothing of the crate.
        let modules: BTreeSet<ModPath> = scanned.keys().cloned().collect();
        for found in scanned.values_mut() {
            found.refs = found.refs.iter().filter_map(|p| settle(p, &modules)).collect();
            found.imports = std::mem::take(&mut found.imports)
                .into_iter()
                .filter_map(|(name, p)| Some((name, settle(&p, &modules)?)))
                .collect();
            found.globs = found.globs.iter().filter_map(|p| settle(p, &modules)).collect();
        }
        let mut edges: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        let mut externals = BTreeMap::new();
        let mut macros = BTreeMap::new();
        for (module, found) in scanned.iter().filter(|(m, _)| !tests.iter().any(|t| m.starts_with(t))) {
            externals.insert(module.clone(), found.externals.clone());
            macros.insert(module.clone(), found.macros.clone());
            let targets = edges.entry(module.clone()).or_default();
            for reference in &found.refs {
                if let Some(target) = resolve(&scanned, reference, 0) {
                    if target != *module && !tests.contains(&target) {
                        targets.insert(target);
                    }
                }
            }
        }
        Ok(Graph { edges, externals, macros })
    }

    /// Every edge from a file to a folder above it (its own folder's `mod.rs`, or an
    /// ancestor's): what that folder shows the rest of the crate is taken from inside.
    pub fn imports_of_enclosing_folders(&self) -> Vec<(ModPath, ModPath)> {
        let mut found = Vec::new();
        for (from, targets) in &self.edges {
            for to in targets.iter().filter(|to| to.len() < from.len() && from.starts_with(to)) {
                found.push((from.clone(), to.clone()));
            }
        }
        found
    }

    /// Every set of files that import each other round (strongly connected components
    /// of more than one file), each with one cycle through it, in order.
    pub fn cycles(&self) -> Vec<Vec<ModPath>> {
        let components = strongly_connected(&self.edges);
        components
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|component| {
                let within: BTreeSet<&ModPath> = component.iter().collect();
                one_cycle(&self.edges, &component[0], &within)
            })
            .collect()
    }
}

/// The file a path reaches: its longest prefix that is a file of the crate, followed
/// through what that file imports under the next segment's name (a re-export, or a
/// name a child takes from its parent), unless the file defines it.
fn resolve(scanned: &BTreeMap<ModPath, Scanned>, path: &[String], depth: usize) -> Option<ModPath> {
    if depth > 16 {
        return None;
    }
    let prefix = (0..=path.len()).rev().find(|&n| scanned.contains_key(&path[..n]))?;
    let module = &path[..prefix];
    let Some(next) = path.get(prefix) else { return Some(module.to_vec()) };
    let file = &scanned[module];
    if file.defines.contains(next) {
        return Some(module.to_vec());
    }
    if let Some(source) = file.imports.get(next) {
        let mut followed = source.clone();
        followed.extend(path[prefix + 1..].iter().cloned());
        return resolve(scanned, &followed, depth + 1).or_else(|| Some(module.to_vec()));
    }
    for glob in &file.globs {
        let mut followed = glob.clone();
        followed.extend(path[prefix..].iter().cloned());
        if let Some(found) = resolve(scanned, &followed, depth + 1) {
            if found != *glob || scanned[glob].defines.contains(next) {
                return Some(found);
            }
        }
    }
    Some(module.to_vec())
}

/// The strongly connected components (petgraph's Tarjan), each sorted.
fn strongly_connected(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    let mut graph: petgraph::graph::DiGraph<&ModPath, ()> = petgraph::graph::DiGraph::new();
    let mut node: BTreeMap<&ModPath, petgraph::graph::NodeIndex> = BTreeMap::new();
    for module in edges.keys().chain(edges.values().flatten()) {
        node.entry(module).or_insert_with(|| graph.add_node(module));
    }
    for (from, targets) in edges {
        for to in targets {
            graph.add_edge(node[from], node[to], ());
        }
    }
    petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .map(|component| {
            let mut modules: Vec<ModPath> = component.into_iter().map(|n| graph[n].clone()).collect();
            modules.sort();
            modules
        })
        .collect()
}

/// One cycle from `start` back to it, inside a component (breadth first: the shortest).
fn one_cycle(
    edges: &BTreeMap<ModPath, BTreeSet<ModPath>>,
    start: &ModPath,
    within: &BTreeSet<&ModPath>,
) -> Vec<ModPath> {
    let mut came_from: BTreeMap<&ModPath, &ModPath> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for target in edges.get(node).into_iter().flatten().filter(|t| within.contains(t)) {
            if target == start {
                let mut cycle = vec![node.clone()];
                let mut at = node;
                while let Some(&before) = came_from.get(at) {
                    cycle.push(before.clone());
                    at = before;
                }
                cycle.reverse();
                cycle.push(start.clone());
                return cycle;
            }
            if !came_from.contains_key(target) && target != start {
                came_from.insert(target, node);
                queue.push_back(target);
            }
        }
    }
    vec![start.clone()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(path: &str) -> ModPath {
        path.split('/').filter(|s| !s.is_empty()).map(str::to_owned).collect()
    }

    fn graph(files: &[(&str, &str)]) -> Graph {
        let sources: Vec<Source> =
            files.iter().map(|(path, text)| Source { module: module(path), text: (*text).to_owned() }).collect();
        Graph::of(&sources).expect("readable")
    }

    fn edges(g: &Graph, from: &str) -> Vec<String> {
        g.edges.get(&module(from)).into_iter().flatten().map(|m| m.join("/")).collect()
    }

    #[test]
    fn groups_renames_super_and_paths_in_code_and_macros_are_edges() {
        let g = graph(&[
            ("", "pub mod a; pub mod b; pub mod c; pub mod d; pub use d::Run;"),
            ("a", "use crate::{b::{self, X as Y}, c};\nfn f() { super::d::g(); }"),
            ("b", "pub struct X;"),
            ("c", "fn f() { let _ = format!(\"{}\", crate::Run); }"),
            ("d", "pub fn g() {} pub struct Run;"),
        ]);
        assert_eq!(edges(&g, "a"), ["b", "c", "d"]);
        assert_eq!(edges(&g, "c"), ["d"], "a root re-export reaches the file that defines it");
    }

    #[test]
    fn only_test_modules_are_left_out() {
        let g = graph(&[
            ("", "pub mod a; pub mod b; pub mod c;"),
            (
                "a",
                "#[cfg(test)] fn helper() { crate::b::x(); }\n#[cfg(test)] mod tests { use crate::c::y; }\n#[cfg(test)] mod more;",
            ),
            ("a/more", "use crate::c::z;"),
            ("b", "pub fn x() {}"),
            ("c", "pub fn y() {} pub fn z() {}"),
        ]);
        assert_eq!(edges(&g, "a"), ["b"], "a test-only function is code; a test module is not");
        assert!(!g.edges.contains_key(&module("a/more")), "a `#[cfg(test)] mod x;` file is a test");
    }

    #[test]
    fn a_name_a_parent_imports_is_followed_to_where_it_is_defined() {
        let g = graph(&[
            ("", "pub mod r;"),
            ("r", "mod x; mod y; use x::Thing; pub use y::Other;"),
            ("r/x", "pub struct Thing;"),
            ("r/y", "pub struct Other; fn f() { let _: super::Thing; }"),
        ]);
        assert_eq!(edges(&g, "r/y"), ["r/x"], "through the parent's import, not to the parent");
        assert!(g.cycles().is_empty());
    }

    #[test]
    fn a_cycle_is_found_and_named_in_order() {
        let g = graph(&[
            ("", "pub mod j;"),
            ("j", "pub mod direct; pub mod stream;"),
            ("j/direct", "use super::stream::Document; pub fn read() {}"),
            ("j/stream", "pub struct Document; fn entry() { super::direct::read(); }"),
        ]);
        let cycles: Vec<Vec<String>> =
            g.cycles().into_iter().map(|c| c.into_iter().map(|m| m.join("/")).collect()).collect();
        assert_eq!(cycles, vec![vec!["j/direct", "j/stream", "j/direct"]]);
    }
}
