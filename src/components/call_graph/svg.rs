//! The call graph as a standalone SVG document: the display list (`scene`) mapped to
//! markup — never what the page happens to have drawn so far — every node and edge
//! included, its text escaped as XML, its colours inlined (the page's stylesheet does
//! not travel with the file). Pure: tested natively, and in Chromium as XML.

use std::fmt::Write as _;

use super::scene::{Edge, Label, Node, Scene};

/// The colours of the page's light or dark theme (`www/style.css`).
struct Palette {
    bg: &'static str,
    bg2: &'static str,
    bg3: &'static str,
    fg: &'static str,
    muted: &'static str,
    border: &'static str,
    accent: &'static str,
    alias: &'static str,
    err: &'static str,
    err_bg: &'static str,
    accent_bg: &'static str,
}

const LIGHT: Palette = Palette {
    bg: "#ffffff",
    bg2: "#f6f8fa",
    bg3: "#eaeef2",
    fg: "#1f2328",
    muted: "#59636e",
    border: "#d0d7de",
    accent: "#0969da",
    alias: "#bf3989",
    err: "#cf222e",
    err_bg: "#ffebe9",
    accent_bg: "#ddf4ff",
};

const DARK: Palette = Palette {
    bg: "#0d1117",
    bg2: "#161b22",
    bg3: "#21262d",
    fg: "#e6edf3",
    muted: "#9198a1",
    border: "#3d444d",
    accent: "#4493f8",
    alias: "#ff7bc5",
    err: "#f85149",
    err_bg: "#3c1214",
    accent_bg: "#0c2d6b",
};

/// Text as XML character data or an attribute value.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot hold at all are left out.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

fn stylesheet(p: &Palette) -> String {
    format!(
        "svg{{background:{bg}}}text{{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:{fg}}}\
         .lane{{fill:{bg2};stroke:{border}}}.lane-label{{font:600 12px sans-serif;fill:{muted}}}\
         .node rect{{fill:{bg};stroke:{muted};stroke-width:1.2}}.node-title{{font-weight:600}}\
         .main rect{{stroke:{accent};stroke-width:1.8}}.core-fn rect{{stroke:{accent}}}.other rect{{fill:{bg3}}}\
         .memloc rect{{stroke:{alias}}}.failing rect{{stroke:{err};stroke-width:2.2;stroke-dasharray:5 3;fill:{err_bg}}}\
         .call path{{stroke:{accent};stroke-width:1.5;fill:none}}.call-label{{font-size:11px;fill:{accent}}}\
         .alias path{{stroke:{alias};stroke-width:1.5;fill:none;stroke-dasharray:5 3}}.arrowhead{{fill:{muted}}}\
         .handoff path{{stroke:{muted};stroke-width:1;fill:none;opacity:.55}}.call-node rect{{stroke:{accent}}}\
         .shade-0 rect{{fill:{bg2}}}.shade-1 rect{{fill:{bg3}}}.shade-2 rect{{fill:{accent_bg}}}.shade-3 rect{{fill:{err_bg}}}\
         .muted-text{{fill:{muted}}}",
        bg = p.bg,
        bg2 = p.bg2,
        bg3 = p.bg3,
        fg = p.fg,
        muted = p.muted,
        border = p.border,
        accent = p.accent,
        alias = p.alias,
        err = p.err,
        err_bg = p.err_bg,
        accent_bg = p.accent_bg,
    )
}

/// A box and what is in it, as SVG.
fn node(out: &mut String, node: &Node) {
    let r = node.rect;
    let failing = if node.failing { " failing" } else { "" };
    let _ = write!(out, r#"<g class="node {}{failing}""#, node.kind.class());
    for (key, value) in node.data() {
        let _ = write!(out, r#" {key}="{}""#, escape(&value));
    }
    let _ = write!(
        out,
        r#"><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="{:.0}"/>"#,
        r.x, r.y, r.w, r.h, node.rx
    );
    for text in &node.labels {
        label(out, text);
    }
    if let Some(title) = &node.title {
        let _ = write!(out, "<title>{}</title>", escape(title));
    }
    out.push_str("</g>\n");
}

/// A text, as SVG.
fn label(out: &mut String, label: &Label) {
    let class = label.class.map(|c| format!(r#" class="{c}""#)).unwrap_or_default();
    let anchor = if label.end { r#" text-anchor="end""# } else { "" };
    let _ = write!(out, r#"<text x="{:.1}" y="{:.1}"{class}{anchor}>{}</text>"#, label.x, label.y, escape(&label.text));
}

/// An edge, as SVG.
fn edge(out: &mut String, edge: &Edge) {
    let ends = match &edge.ends {
        Some((consumer, producer)) => {
            format!(r#" data-consumer="{}" data-producer="{}""#, escape(consumer), escape(producer))
        }
        None => String::new(),
    };
    let _ = write!(out, r#"<path d="{}" marker-end="url(#arrow)"{ends}>"#, edge.d);
    if let Some(title) = &edge.title {
        let _ = write!(out, "<title>{}</title>", escape(title));
    }
    out.push_str("</path>");
}

/// The SVG document of a call graph's display list at its natural size: lanes, `main`
/// and its calls, every function and memory-location node, and (with `aliases`) every
/// alias edge, in the light or `dark` theme.
pub fn document(scene: &Scene, aliases: bool, dark: bool) -> String {
    let (w, h) = (scene.width, scene.height);
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" role="img" aria-label="{}">"#,
        escape(&scene.description)
    );
    let _ = writeln!(out, "<style>{}</style>", stylesheet(if dark { &DARK } else { &LIGHT }));
    out.push_str(
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead"/></marker></defs>"#,
    );
    out.push('\n');
    for lane in &scene.lanes {
        let r = lane.rect;
        let _ = write!(
            out,
            r#"<g class="lane-group" data-core="{}"><rect class="lane" x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="6"/>"#,
            lane.core, r.x, r.y, r.w, r.h
        );
        label(&mut out, &lane.label);
        out.push_str("</g>\n");
    }
    for call in &scene.calls {
        out.push_str(r#"<g class="call">"#);
        edge(&mut out, call);
        if let Some(text) = &call.label {
            label(&mut out, text);
        }
        out.push_str("</g>\n");
    }
    for function in &scene.functions {
        node(&mut out, function);
    }
    for call in &scene.call_nodes {
        node(&mut out, call);
    }
    for note in &scene.notes {
        label(&mut out, note);
        out.push('\n');
    }
    for memloc in &scene.memlocs {
        node(&mut out, memloc);
    }
    out.push_str("<g class=\"handoff\">\n");
    for handoff in &scene.handoffs {
        edge(&mut out, handoff);
        out.push('\n');
    }
    out.push_str("</g>\n");
    if aliases {
        out.push_str("<g class=\"alias\">\n");
        for alias in &scene.aliases {
            edge(&mut out, alias);
            out.push('\n');
        }
        out.push_str("</g>\n");
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::components::call_graph::layout::{layout, sample_report as report};
    use crate::components::call_graph::scene::scene;

    #[test]
    fn the_document_is_xml_with_every_node_and_edge() {
        for file in ["ring-4core.json", "error-1514.json", "matmul-2core.json"] {
            let report = report(file);
            let graph = layout(&report);
            let text = document(&scene(&report, &graph), true, false);
            let xml = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{file}: not XML: {e}"));
            let count = |class: &str| {
                xml.descendants()
                    .filter(|n| n.attribute("class").is_some_and(|c| c.split(' ').any(|c| c == class)))
                    .count()
            };
            let memlocs: usize = graph.lanes.iter().map(|l| l.memlocs.len()).sum();
            assert_eq!(count("memloc"), memlocs, "{file}: every memory location");
            assert_eq!(count("core-fn"), graph.lanes.len(), "{file}: every core function");
            let edges = xml
                .descendants()
                .filter(|n| n.has_tag_name("path") && n.parent().and_then(|p| p.attribute("class")) == Some("alias"))
                .count();
            assert_eq!(edges, report.aliases.len(), "{file}: every alias edge");
            assert!(!text.contains("&nbsp;"), "{file}");
        }
        let report = report("error-1514.json");
        let text = document(&scene(&report, &layout(&report)), true, true);
        assert!(text.contains(" failing\""), "the failing view is marked");
        assert!(text.contains(DARK.bg));
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
        assert_eq!(escape("a\u{1}b\tc"), "ab\tc");
    }
}
