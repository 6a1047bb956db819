//! Saving a blob or a text as a file (an object URL and a click on a temporary link).

use wasm_bindgen::JsCast;

/// Offers `blob` as a download named `name`.
pub fn blob(blob: &web_sys::Blob, name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else { return };
    if let Ok(element) = document.create_element("a") {
        if let Ok(anchor) = element.dyn_into::<web_sys::HtmlAnchorElement>() {
            anchor.set_href(&url);
            anchor.set_download(name);
            anchor.set_rel("noopener");
            if let Some(body) = document.body() {
                let _ = body.append_child(&anchor);
                anchor.click();
                let _ = body.remove_child(&anchor);
            }
        }
    }
    // Revoking at once would cancel the download: the browser reads the URL later.
    gloo::timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}

/// Offers `text` as a download named `name`.
pub fn text(text: &str, name: &str, mime: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(b) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) {
        blob(&b, name);
    }
}

/// A standalone SVG document of a drawn call graph at its natural size (no pan or
/// zoom), with the colours the page uses now (light or dark) inlined as a stylesheet.
pub fn svg_document(svg: &web_sys::Element) -> String {
    let copy = svg.clone_node_with_deep(true).ok().and_then(|n| n.dyn_into::<web_sys::Element>().ok());
    let body = match copy {
        Some(copy) => {
            let width = svg.get_attribute("data-width").unwrap_or_else(|| "1000".to_owned());
            let height = svg.get_attribute("data-height").unwrap_or_else(|| "600".to_owned());
            let _ = copy.set_attribute("width", &width);
            let _ = copy.set_attribute("height", &height);
            let _ = copy.set_attribute("viewBox", &format!("0 0 {width} {height}"));
            if let Ok(Some(viewport)) = copy.query_selector("g.viewport") {
                let _ = viewport.remove_attribute("transform");
            }
            copy.outer_html()
        }
        None => svg.outer_html(),
    };
    let style = format!("<style>{}</style>", svg_styles(svg));
    let body = body.replacen('>', &format!(">{style}"), 1);
    format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{body}\n")
}

/// The stylesheet of an exported graph: each rule's colours read from the live graph's
/// computed style, so the file looks as the page did (the page's CSS variables are not
/// in the file).
fn svg_styles(svg: &web_sys::Element) -> String {
    const RULES: [(&str, &str, &[&str]); 5] = [
        ("text", "text", &["fill"]),
        (".lane", "rect.lane", &["fill", "stroke"]),
        (".node rect", ".node rect", &["fill", "stroke"]),
        (".call path", ".call path", &["stroke"]),
        (".alias path", ".alias path", &["stroke"]),
    ];
    let window = web_sys::window();
    let mut css = String::from(
        "text{font:12px ui-monospace,monospace}.call path,.alias path{fill:none}.alias path{stroke-dasharray:4 3}",
    );
    for (rule, selector, properties) in RULES {
        let style = svg
            .query_selector(selector)
            .ok()
            .flatten()
            .and_then(|element| window.as_ref()?.get_computed_style(&element).ok().flatten());
        let Some(style) = style else { continue };
        let declarations: Vec<String> = properties
            .iter()
            .filter_map(|property| {
                let value = style.get_property_value(property).ok()?;
                (!value.is_empty()).then(|| format!("{property}:{value}"))
            })
            .collect();
        if !declarations.is_empty() {
            css.push_str(&format!("{rule}{{{}}}", declarations.join(";")));
        }
    }
    css
}
