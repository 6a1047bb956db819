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
