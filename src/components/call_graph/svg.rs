//! The call graph as a standalone SVG document: made from the layout and the report
//! alone (never from what the page happens to have drawn so far), every node and edge
//! included, its text escaped as XML, its colours inlined (the page's stylesheet does
//! not travel with the file). Pure: tested natively, and in Chromium as XML.

use std::fmt::Write as _;

use birlink_core::diag::counted;
use birlink_core::output::report::Report;

use super::layout::{alias_path, call_label_at, call_path, text_fit, Layout, LANE_X};

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
    )
}

/// The SVG document of a report's call graph at its natural size: lanes, `main` and its
/// calls, every function and memory-location node drawn, and (with `aliases`) every
/// alias edge, in the light or `dark` theme.
pub fn document(report: &Report, graph: &Layout, aliases: bool, dark: bool) -> String {
    let (w, h) = (graph.width, graph.height);
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" role="img" aria-label="{}">"#,
        escape(&format!(
            "Call graph: main calls {}; {}",
            counted(report.dispatcher.len(), "core function"),
            counted(report.aliases.len(), "alias edge")
        ))
    );
    let _ = writeln!(out, "<style>{}</style>", stylesheet(if dark { &DARK } else { &LIGHT }));
    out.push_str(
        r#"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead"/></marker></defs>"#,
    );
    out.push('\n');
    for lane in &graph.lanes {
        let _ = writeln!(
            out,
            r#"<g class="lane-group" data-core="{}"><rect class="lane" x="{LANE_X:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="6"/><text class="lane-label" x="{:.0}" y="{:.0}">core {}</text></g>"#,
            lane.core,
            lane.y,
            w - LANE_X - 6.0,
            lane.height,
            LANE_X + 8.0,
            lane.y + 15.0,
            lane.core
        );
    }
    for lane in &graph.lanes {
        let label = report.dispatcher.iter().find(|d| d.core == lane.core).map(|d| d.call.as_str()).unwrap_or("");
        let (lx, ly) = call_label_at(lane.function.1);
        let _ = writeln!(
            out,
            r#"<g class="call"><path d="{}" marker-end="url(#arrow)"/><text class="call-label" x="{lx:.1}" y="{ly:.1}" text-anchor="end">{}</text></g>"#,
            call_path(graph.main, lane.function.1),
            escape(label)
        );
    }
    let m = graph.main;
    let _ = writeln!(
        out,
        r#"<g class="node main" data-function="main"><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="8"/><text x="{:.0}" y="{:.0}" class="node-title">main · dispatcher</text><text x="{:.0}" y="{:.0}">{}</text></g>"#,
        m.x,
        m.y,
        m.w,
        m.h,
        m.x + 12.0,
        m.y + 30.0,
        m.x + 12.0,
        m.y + 52.0,
        escape(&counted(report.dispatcher.len(), "call"))
    );
    for lane in &graph.lanes {
        for (other, r) in lane.others.iter().rev() {
            let _ = writeln!(
                out,
                r#"<g class="node other" data-function="{}"><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="4"/><title>{}</title></g>"#,
                escape(other),
                r.x,
                r.y,
                r.w,
                r.h,
                escape(&format!("{other}: a function of core {} not called by the dispatcher", lane.core))
            );
        }
        let (name, r) = &lane.function;
        let _ = writeln!(
            out,
            r#"<g class="node core-fn" data-function="{}"><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="6"/><text x="{:.0}" y="{:.0}" class="node-title">{}</text><title>{}</title></g>"#,
            escape(name),
            r.x,
            r.y,
            r.w,
            r.h,
            r.x + 10.0,
            r.y + 21.0,
            escape(&text_fit(name, r.w - 16.0)),
            escape(&format!("{name}: core {}'s function", lane.core))
        );
        if lane.other_count > 0 {
            let _ = writeln!(
                out,
                r#"<text x="{:.0}" y="{:.0}" class="muted-text">+ {}</text>"#,
                r.x,
                r.y + r.h + 14.0,
                escape(&counted(lane.other_count, "other function"))
            );
        }
        for node in &lane.memlocs {
            let r = node.rect;
            let label =
                text_fit(&format!("{}{}", if node.failure.is_some() { "✕ " } else { "" }, node.memloc), r.w - 14.0);
            let title = node
                .failure
                .clone()
                .unwrap_or_else(|| format!("{} in {} (core {})", node.memloc, node.function, lane.core));
            let _ = writeln!(
                out,
                r#"<g class="node memloc{}" data-memloc="{}" data-function="{}" data-core="{}"><rect x="{:.0}" y="{:.0}" width="{:.0}" height="{:.0}" rx="13"/><text x="{:.0}" y="{:.0}">{}</text><title>{}</title></g>"#,
                if node.failure.is_some() { " failing" } else { "" },
                escape(&node.memloc),
                escape(&node.function),
                lane.core,
                r.x,
                r.y,
                r.w,
                r.h,
                r.x + 10.0,
                r.y + 17.0,
                escape(&label),
                escape(&title)
            );
        }
    }
    if aliases {
        out.push_str("<g class=\"alias\">\n");
        for alias in &report.aliases {
            let (c, p) = (&alias.consumer, &alias.producer);
            let (Some(from), Some(to)) =
                (graph.memloc(c.core, &c.function, &c.memloc), graph.memloc(p.core, &p.function, &p.memloc))
            else {
                continue;
            };
            let _ = writeln!(
                out,
                r#"<path d="{}" marker-end="url(#arrow)" data-consumer="{}" data-producer="{}"><title>{}</title></path>"#,
                alias_path(from, to, c.core),
                escape(&c.memloc),
                escape(&p.memloc),
                escape(&format!(
                    "{} (core {}) aliases {} (core {}), kind {} from {}",
                    c.memloc, c.core, p.memloc, p.core, alias.kind, alias.source
                ))
            );
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

    #[test]
    fn the_document_is_xml_with_every_node_and_edge() {
        for file in ["ring-4core.json", "error-1514.json", "matmul-2core.json"] {
            let report = report(file);
            let graph = layout(&report);
            let text = document(&report, &graph, true, false);
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
        let text = document(&report, &layout(&report), true, true);
        assert!(text.contains(" failing\""), "the failing view is marked");
        assert!(text.contains(DARK.bg));
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(escape(r#"<a href="x">&'"#), "&lt;a href=&quot;x&quot;&gt;&amp;&apos;");
        assert_eq!(escape("a\u{1}b\tc"), "ab\tc");
    }
}
