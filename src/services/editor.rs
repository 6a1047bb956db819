//! The editor the page may run in (VS Code's webview, embed spec §5): its host document
//! sets `birlinkPage.post`, a function that hands a message to the extension (a webview
//! hears its host only through `acquireVsCodeApi().postMessage`), and
//! `birlinkPage.editor: true`, and `birlinkPage.host`, the window the extension's
//! messages come from. Then every message the page has for its host goes there,
//! and "Open in editor" asks the editor to open a file of the link set at a JSON
//! location, or the kernel line behind an entity (the protocol's `open`); "Open files"
//! and "Open folder" ask the editor's own dialog (`pick`), which browses the machine the
//! files are on.

use wasm_bindgen::{JsCast, JsValue};

use birlink_core::tools::share::ViewState;

use crate::embed::protocol::PageMessage;
use crate::side::Side;

/// The host document's `birlinkPage` member `key`.
fn member(key: &str) -> Option<JsValue> {
    let page = js_sys::Reflect::get(&js_sys::global(), &"birlinkPage".into()).ok().filter(JsValue::is_object)?;
    js_sys::Reflect::get(&page, &key.into()).ok()
}

/// Hands a message to the host document's `birlinkPage.post`; false when it has none.
pub fn post(message: &JsValue) -> bool {
    let Some(post) = member("post").and_then(|p| p.dyn_into::<js_sys::Function>().ok()) else { return false };
    post.call1(&JsValue::NULL, message).is_ok()
}

/// The window the editor's messages come from, as the host document names it
/// (`birlinkPage.host`: VS Code's webview hides `window.parent` from the page; its
/// bridge names the host frame the extension's first message came from).
pub fn host() -> Option<web_sys::Window> {
    // Another frame's window: not an instance of this realm's `Window`.
    let host = member("host").filter(JsValue::is_object)?;
    Some(host.unchecked_into::<web_sys::Window>())
}

/// Whether the page runs in an editor that opens files.
pub fn available() -> bool {
    member("editor").and_then(|e| e.as_bool()) == Some(true)
        && member("post").is_some_and(|p| p.is_instance_of::<js_sys::Function>())
}

fn send(message: &PageMessage) {
    let value = serde_wasm_bindgen::Serializer::json_compatible();
    if let Ok(object) = serde::Serialize::serialize(&message.to_value(), &value) {
        post(&object);
    }
}

/// Tells the editor where the page is, unprompted: the view and selection its address
/// now shows (`fragment`), as the protocol's `state` with no `id` — what a hidden tab
/// comes back to (embed spec §4.1). Nothing outside an editor.
pub fn state_changed(fragment: &str) {
    if !available() {
        return;
    }
    let (state, _) = ViewState::parse(fragment);
    let Some(view) = state.view else { return };
    send(&PageMessage::State { id: serde_json::Value::Null, url: format!("#{fragment}"), view, select: state.select });
}

/// Asks the editor to open `file` (as the link set names it) at a line and column.
pub fn open_file(file: &str, line: u64, column: u64) {
    send(&PageMessage::Open { file: Some(file.to_owned()), line, column, source: None });
}

/// Asks the editor to choose files (or a folder) with its own dialog, for a side: it
/// answers with a `load` of what was chosen.
pub fn pick(folder: bool, side: Side) {
    send(&PageMessage::Pick { folder, side });
}

/// Asks the editor to open the kernel line behind an entity (`debug.filename:lineno`).
pub fn open_source(source: &str) {
    send(&PageMessage::Open { file: None, line: 0, column: 0, source: Some(source.to_owned()) });
}
