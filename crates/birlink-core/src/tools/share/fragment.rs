//! The view state a link carries in its fragment (embed spec §2): `view=`, `select=`,
//! `step=`, `diag=`, `data=`, and for a comparison (`view=compare`) `normalize=`,
//! `core-map=` and the other link set's `against-data=`, written in that canonical order
//! so that one state is one string.
//!
//! Reading is forgiving part by part: an unknown key or a value that does not parse is
//! dropped with the reason (the page shows it as a notice) and the rest still applies.
//! Whether a step, diagnostic or entity *exists* is for whoever holds the run to say;
//! this module only reads and writes the text.
//!
//! Values are percent-encoded like `encodeURIComponent` does, except that `:`, `/`, `@`
//! and `~` stay as they are, so entity keys stay readable.

use std::fmt;

use crate::model::entity::EntityKey;
use crate::model::pass::Pass;

/// The views of the page, by their names in links.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum View {
    /// `pipeline`.
    Pipeline,
    /// `callgraph`.
    CallGraph,
    /// `barriers`.
    Barriers,
    /// `semaphores`.
    Semaphores,
    /// `addresses`.
    Addresses,
    /// `diagnostics`.
    Diagnostics,
    /// `sync`: will the linked cores hang or race? (docs/spec/sync.md §9)
    Sync,
    /// `linkdir`: a work directory's link directory and merged tensor map.
    LinkDir,
    /// `compare`: the link set against another one (`tools::compare`).
    Compare,
    /// `passes`: a work directory's dumps after every pass, where the cores part
    /// (`tools::history`).
    Passes,
}

impl View {
    /// Every view, in tab order.
    pub const ALL: [View; 10] = [
        View::Pipeline,
        View::CallGraph,
        View::Barriers,
        View::Semaphores,
        View::Addresses,
        View::Diagnostics,
        View::Sync,
        View::LinkDir,
        View::Compare,
        View::Passes,
    ];

    /// Its name in links.
    pub fn as_str(self) -> &'static str {
        match self {
            View::Pipeline => "pipeline",
            View::CallGraph => "callgraph",
            View::Barriers => "barriers",
            View::Semaphores => "semaphores",
            View::Addresses => "addresses",
            View::Diagnostics => "diagnostics",
            View::Sync => "sync",
            View::LinkDir => "linkdir",
            View::Compare => "compare",
            View::Passes => "passes",
        }
    }

    /// A view by its name in links.
    pub fn parse(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.as_str() == name)
    }

    /// Every name, for messages: `pipeline, callgraph, …`.
    pub fn names() -> String {
        View::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for View {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// A pipeline step named in a link: `step=bir_linker/renumber_barriers`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRef {
    /// The pass.
    pub pass: Pass,
    /// The step's name.
    pub step: String,
}

/// What a link's fragment says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewState {
    /// The view shown.
    pub view: Option<View>,
    /// The entity selected.
    pub select: Option<EntityKey>,
    /// The pipeline step shown.
    pub step: Option<StepRef>,
    /// The diagnostic in focus, by its index in the report.
    pub diag: Option<usize>,
    /// The link set itself (`share::data`), as written.
    pub data: Option<String>,
    /// How the comparison is made (`normalize=`, `core-map=`).
    pub compare: CompareState,
    /// The link set compared against (`share::data`), as written.
    pub against_data: Option<String>,
}

/// How a link asks two link sets to be compared (`tools::compare::CompareOptions`, as
/// text): `normalize=numbers`, `core-map=0:1,1:0`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompareState {
    /// Numbers in names masked.
    pub numbers: bool,
    /// A's core → B's core, as written (a core not listed pairs with itself).
    pub core_map: Vec<(u64, u64)>,
}

impl CompareState {
    /// `0:1,1:0` read; `None` when it is not that.
    pub fn parse_core_map(text: &str) -> Option<Vec<(u64, u64)>> {
        let mut map: Vec<(u64, u64)> = Vec::new();
        for pair in text.split(',').filter(|p| !p.is_empty()) {
            let (a, b) = pair.split_once(':')?;
            let (a, b) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
            if map.iter().any(|&(x, _)| x == a) {
                return None;
            }
            map.push((a, b));
        }
        Some(map)
    }

    /// The core map as a link writes it.
    pub fn core_map_text(&self) -> String {
        self.core_map.iter().map(|(a, b)| format!("{a}:{b}")).collect::<Vec<_>>().join(",")
    }
}

/// A part of a fragment that was dropped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// The part as it was written (`view=graph`).
    pub part: String,
    /// Why it was dropped.
    pub why: String,
}

impl ViewState {
    /// Reads a fragment (with or without its `#`): what applies, and what was dropped.
    pub fn parse(fragment: &str) -> (ViewState, Vec<Dropped>) {
        let mut state = ViewState::default();
        let mut dropped = Vec::new();
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        for part in fragment.split('&').filter(|p| !p.is_empty()) {
            let (key, raw) = part.split_once('=').unwrap_or((part, ""));
            let mut drop = |why: String| dropped.push(Dropped { part: part.to_owned(), why });
            let value = match decode(raw) {
                Ok(value) => value,
                Err(why) => {
                    drop(why);
                    continue;
                }
            };
            match key {
                "view" => match View::parse(&value) {
                    Some(view) => state.view = Some(view),
                    None => drop(format!("`{value}` is not a view ({})", View::names())),
                },
                "select" => match value.parse::<EntityKey>() {
                    Ok(key) => state.select = Some(key),
                    Err(error) => drop(error.0),
                },
                "step" => match value.split_once('/').map(|(p, s)| (Pass::parse(p), s)) {
                    Some((Some(pass), step)) if !step.is_empty() => {
                        state.step = Some(StepRef { pass, step: step.to_owned() })
                    }
                    _ => drop(format!("`{value}` is not `pass/step` (`bir_linker/renumber_barriers`)")),
                },
                "diag" => match value.parse::<usize>() {
                    Ok(n) => state.diag = Some(n),
                    Err(_) => drop(format!("`{value}` is not a diagnostic's number")),
                },
                "data" => state.data = Some(value),
                "against-data" => state.against_data = Some(value),
                "normalize" => match value.as_str() {
                    "numbers" => state.compare.numbers = true,
                    "none" | "" => state.compare.numbers = false,
                    _ => drop(format!("`{value}` is not a normalization (numbers, none)")),
                },
                "core-map" => match CompareState::parse_core_map(&value) {
                    Some(map) => state.compare.core_map = map,
                    None => drop(format!("`{value}` is not a core map (`0:1,1:0`: each core of A once)")),
                },
                other => drop(format!(
                    "`{other}` is not a part of a birlink link (view, select, step, diag, data, normalize, core-map, against-data)"
                )),
            }
        }
        (state, dropped)
    }

    /// Whether it says nothing.
    pub fn is_empty(&self) -> bool {
        *self == ViewState::default()
    }
}

impl fmt::Display for ViewState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(view) = self.view {
            parts.push(format!("view={}", view.as_str()));
        }
        if let Some(step) = &self.step {
            parts.push(format!("step={}", encode(&format!("{}/{}", step.pass, step.step))));
        }
        if let Some(diag) = self.diag {
            parts.push(format!("diag={diag}"));
        }
        if let Some(select) = &self.select {
            parts.push(format!("select={}", encode(&select.to_string())));
        }
        if self.compare.numbers {
            parts.push("normalize=numbers".to_owned());
        }
        if !self.compare.core_map.is_empty() {
            parts.push(format!("core-map={}", encode(&self.compare.core_map_text())));
        }
        if let Some(data) = &self.data {
            parts.push(format!("data={}", encode(data)));
        }
        if let Some(data) = &self.against_data {
            parts.push(format!("against-data={}", encode(data)));
        }
        f.write_str(&parts.join("&"))
    }
}

/// Percent-encodes a value for a fragment.
fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => out.push(byte as char),
            b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')' | b':' | b'/' | b'@' | b',' | b';' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

/// Reads a percent-encoded value.
fn decode(value: &str) -> Result<String, String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = value.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(byte) => out.push(byte),
                None => return Err(format!("`{}` is not a percent escape", value.get(i..i + 3).unwrap_or("%"))),
            }
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the value is not UTF-8 once unescaped".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_one_string_and_reads_back() {
        let key: EntityKey = "instruction:1:@q A&B/i=0/dma~3x#2".parse().unwrap_or_else(|e| panic!("{e}"));
        let state = ViewState {
            view: Some(View::CallGraph),
            select: Some(key),
            step: Some(StepRef { pass: Pass::BirLinker, step: "renumber_barriers".into() }),
            diag: Some(3),
            data: Some("v1.abc-_".into()),
            ..ViewState::default()
        };
        let text = state.to_string();
        assert_eq!(
            text,
            "view=callgraph&step=bir_linker/renumber_barriers&diag=3&select=instruction:1:@q%20A%26B/i%3D0/dma~3x%232&data=v1.abc-_"
        );
        assert_eq!(ViewState::parse(&text), (state.clone(), vec![]));
        assert_eq!(ViewState::parse(&format!("#{text}")).0, state);
    }

    #[test]
    fn a_comparison_reads_back() {
        let state = ViewState {
            view: Some(View::Compare),
            compare: CompareState { numbers: true, core_map: vec![(0, 1), (1, 0)] },
            data: Some("v1.a".into()),
            against_data: Some("v1.b".into()),
            ..ViewState::default()
        };
        let text = state.to_string();
        assert_eq!(text, "view=compare&normalize=numbers&core-map=0:1,1:0&data=v1.a&against-data=v1.b");
        assert_eq!(ViewState::parse(&text), (state, vec![]));
        let (state, dropped) = ViewState::parse("view=compare&core-map=0:1,0:2&normalize=letters&core-map=x");
        assert_eq!(state, ViewState { view: Some(View::Compare), ..ViewState::default() });
        assert_eq!(dropped.len(), 3, "{dropped:?}");
        assert_eq!(CompareState::parse_core_map(""), Some(vec![]));
    }

    #[test]
    fn bad_parts_are_dropped_one_by_one() {
        let (state, dropped) =
            ViewState::parse("view=graph&diag=2&select=widget:0:x&step=linker/x&zoom=3&select=function:0:nc00%zz");
        assert_eq!(state, ViewState { diag: Some(2), ..ViewState::default() });
        let parts: Vec<&str> = dropped.iter().map(|d| d.part.as_str()).collect();
        assert_eq!(parts, ["view=graph", "select=widget:0:x", "step=linker/x", "zoom=3", "select=function:0:nc00%zz"]);
        assert!(dropped[0].why.contains("not a view"));
        assert!(dropped[3].why.contains("not a part of a birlink link"));
        assert!(dropped[4].why.contains("percent escape"));
    }
}
