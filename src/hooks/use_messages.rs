//! The message protocol's listener (embed spec §4): installed once for the page's life.
//!
//! A message is obeyed only when [`Trust`] allows its sender (the parent or opener, of
//! the page's own origin or one its link lists); any other is ignored with a console
//! notice and no reply. An obeyed message becomes a JSON tree (binary data as
//! stand-ins), [`protocol::parse`] judges it, its files become blobs, and the reducer
//! takes it from there (`Action::Host`). What the reducer posts for the host
//! (`State::host_out`), and `ready` at start and `resize` whenever the content's height
//! changes (embed mode), go to the parent or opener at the allowed origin.

use std::cell::RefCell;
use std::rc::Rc;

use gloo::events::EventListener;
use serde_json::{Map, Value};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::embed::protocol::{self, FileData, HostError, HostRequest, PageMessage};
use crate::embed::trust::Trust;
use crate::services::files;
use crate::state::{Action, HostCall, Mode, State};

/// The window that may drive this page: the one an editor's webview names (VS Code
/// hides a webview's parent: `services::editor`), else its parent when framed, else
/// its opener.
fn host_window() -> Option<web_sys::Window> {
    if let Some(host) = crate::services::editor::host() {
        return Some(host);
    }
    let window = web_sys::window()?;
    let parent =
        window.parent().ok().flatten().filter(|p| !JsValue::from(p.clone()).loose_eq(&JsValue::from(window.clone())));
    parent.or_else(|| window.opener().ok().and_then(|o| o.dyn_into::<web_sys::Window>().ok()))
}

/// Whether `source` is the parent or the opener.
fn is_host(source: &JsValue) -> bool {
    host_window().is_some_and(|host| source.loose_eq(&JsValue::from(host)))
}

/// A message as a JSON tree; binary values become `{"$bytes": i, "size": n}` and are
/// kept in `binaries`. Anything else JSON cannot hold becomes `{"$unsupported": …}`.
fn to_tree(value: &JsValue, binaries: &mut Vec<JsValue>, depth: usize) -> Value {
    if depth > 8 {
        return serde_json::json!({"$unsupported": "too deep"});
    }
    if value.is_null() || value.is_undefined() {
        return Value::Null;
    }
    if let Some(text) = value.as_string() {
        return Value::String(text);
    }
    if let Some(flag) = value.as_bool() {
        return Value::Bool(flag);
    }
    if let Some(number) = value.as_f64() {
        // JavaScript has one number type: a whole number is an integer here.
        if number.fract() == 0.0 && number.abs() < 9_007_199_254_740_992.0 {
            return Value::from(number as i64);
        }
        return serde_json::Number::from_f64(number).map(Value::Number).unwrap_or(Value::Null);
    }
    let size = if let Some(blob) = value.dyn_ref::<web_sys::Blob>() {
        Some(blob.size() as u64)
    } else if let Some(buffer) = value.dyn_ref::<js_sys::ArrayBuffer>() {
        Some(u64::from(buffer.byte_length()))
    } else if js_sys::ArrayBuffer::is_view(value) {
        js_sys::Reflect::get(value, &JsValue::from_str("byteLength")).ok().and_then(|n| n.as_f64()).map(|n| n as u64)
    } else {
        None
    };
    if let Some(size) = size {
        binaries.push(value.clone());
        return serde_json::json!({"$bytes": binaries.len() - 1, "size": size});
    }
    if js_sys::Array::is_array(value) {
        let array: &js_sys::Array = value.unchecked_ref();
        return Value::Array(array.iter().map(|item| to_tree(&item, binaries, depth + 1)).collect());
    }
    if value.is_object() && !value.is_function() {
        let mut map = Map::new();
        let object: &js_sys::Object = value.unchecked_ref();
        for key in js_sys::Object::keys(object).iter() {
            let Some(name) = key.as_string() else { continue };
            // A host's own object must not pass for a stand-in the page made (it could
            // point at another file's data and say it is small).
            if name.starts_with('$') && matches!(name.as_str(), "$bytes" | "$unsupported") {
                return serde_json::json!({"$unsupported": "an object with a key the page reserves for binary data"});
            }
            let item = js_sys::Reflect::get(value, &key).unwrap_or(JsValue::UNDEFINED);
            map.insert(name, to_tree(&item, binaries, depth + 1));
        }
        return Value::Object(map);
    }
    serde_json::json!({"$unsupported": value.js_typeof().as_string().unwrap_or_default()})
}

/// A checked request with its files in hand.
fn call(request: HostRequest, binaries: &[JsValue]) -> Result<HostCall, HostError> {
    let picked = |file: &protocol::HostFile| match &file.data {
        FileData::Text(text) => Some(files::from_bytes(&file.name, text.as_bytes())),
        FileData::Bytes { index, .. } => files::from_host_data(&file.name, binaries.get(*index)?),
    };
    let unreadable = |name: &str| HostError {
        code: protocol::ErrorCode::BadRequest,
        message: format!("the data of `{name}` could not be read"),
    };
    Ok(match request {
        HostRequest::Load { files, netlist, lnc, state, against, against_lnc } => {
            let mut picked_files = Vec::with_capacity(files.len() + 1);
            for file in files.iter().chain(netlist.iter()) {
                picked_files.push(picked(file).ok_or_else(|| unreadable(&file.name))?);
            }
            let picked_against = match against {
                Some(against) => Some(
                    against
                        .iter()
                        .map(|file| picked(file).ok_or_else(|| unreadable(&file.name)))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                None => None,
            };
            // The netlist is read as one by its name.
            if let (Some(netlist), Some(last)) = (&netlist, picked_files.last_mut()) {
                if !netlist.name.ends_with("hlo_netlist.json") {
                    last.path = format!("{}/hlo_netlist.json", netlist.name.trim_end_matches(".json"));
                }
            }
            HostCall::Load { files: picked_files, lnc, state, against: picked_against, against_lnc }
        }
        HostRequest::Show(state) => HostCall::Show(state),
        HostRequest::GetState => HostCall::GetState,
        HostRequest::Ping => HostCall::Ping,
    })
}

/// Posts a message to the host at the origin it is known to have; to the host
/// document's own `birlinkPage.post` when it gives one (an editor's webview, whose
/// host hears only through its API: `services::editor`).
fn post(message: &PageMessage, origin: &str) {
    let value = serde_wasm_bindgen::Serializer::json_compatible();
    let Ok(object) = serde::Serialize::serialize(&message.to_value(), &value) else { return };
    if crate::services::editor::post(&object) {
        return;
    }
    let Some(host) = host_window() else { return };
    let _ = host.post_message(&object, origin);
}

/// The parent's origin, where browsers give it (`location.ancestorOrigins`).
fn parent_origin() -> Option<String> {
    let ancestors =
        js_sys::Reflect::get(&gloo::utils::window().location(), &JsValue::from_str("ancestorOrigins")).ok()?;
    js_sys::Reflect::get(&ancestors, &JsValue::from_f64(0.0)).ok()?.as_string()
}

/// Listens to hosts for the page's life; posts what the reducer has for them.
#[hook]
pub fn use_messages(state: &UseReducerHandle<State>, trust: &Trust) {
    // The origin replies go to: the parent's when known, then whoever was obeyed last.
    let host_origin: Rc<RefCell<Option<String>>> = (*use_memo((), {
        let trust = trust.clone();
        move |_| Rc::new(RefCell::new(parent_origin().filter(|origin| trust.allows(origin, true))))
    }))
    .clone();
    {
        let dispatcher = state.dispatcher();
        let trust = trust.clone();
        let host_origin = host_origin.clone();
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "message", move |event| {
                let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else { return };
                let data = event.data();
                let is_ours =
                    data.is_object() && js_sys::Reflect::has(&data, &JsValue::from_str("birlink")).unwrap_or(false);
                if !is_ours {
                    return;
                }
                let origin = event.origin();
                let related = event.source().is_some_and(|s| is_host(&s.into()));
                if !trust.allows(&origin, related) {
                    web_sys::console::warn_1(&JsValue::from_str(&format!(
                        "birlink: a message from `{origin}` is ignored: only the parent or opener of this page may drive it, from this page's origin or one its link lists with `origin=`"
                    )));
                    return;
                }
                *host_origin.borrow_mut() = Some(origin);
                let mut binaries = Vec::new();
                let tree = to_tree(&data, &mut binaries, 0);
                let Some(parsed) = protocol::parse(&tree, birlink_core::limits::WASM_MAX_INPUT_BYTES) else { return };
                let call = parsed.request.and_then(|request| call(request, &binaries));
                dispatcher.dispatch(Action::Host { id: parsed.id, call });
            });
            move || drop(listener)
        });
    }
    // `ready`, once, to a host that can be told.
    {
        let trust = trust.clone();
        let host_origin = host_origin.clone();
        use_effect_with((), move |_| {
            // In an editor's webview, the editor hears every message, whatever its origin.
            if crate::services::editor::available() {
                post(&PageMessage::Ready, "*");
            } else if host_window().is_some() {
                // The parent's origin known: tell it when allowed, else nobody. Unknown
                // (an opener, a browser without `ancestorOrigins`): every allowed origin,
                // of which the browser delivers to the one the host has.
                let targets = match (host_origin.borrow().clone(), parent_origin()) {
                    (Some(origin), _) => vec![origin],
                    (None, Some(_)) => Vec::new(),
                    (None, None) => trust.targets().to_vec(),
                };
                for origin in targets {
                    post(&PageMessage::Ready, &origin);
                }
            }
        });
    }
    // What the reducer has for the host, each message once.
    {
        let sent = use_mut_ref(|| 0u64);
        let messages = state.host.out.messages.clone();
        let host_origin = host_origin.clone();
        let trust = trust.clone();
        use_effect_with(state.host.out.seq, move |_| {
            // The host's origin, else (no request yet, a browser without
            // `ancestorOrigins`) every allowed one, as for `ready`: the browser delivers
            // to the one the host has. A `linked` for a `sample=` frame goes out before
            // the host has said anything.
            let targets = match (host_origin.borrow().clone(), host_window().is_some(), parent_origin()) {
                (Some(origin), _, _) => vec![origin],
                (None, true, None) => trust.targets().to_vec(),
                (None, _, _) => Vec::new(),
            };
            for (seq, message) in messages.iter().filter(|(seq, _)| *seq > *sent.borrow()) {
                for origin in &targets {
                    post(message, origin);
                }
                *sent.borrow_mut() = *seq;
            }
        });
    }
    // The content's height, whenever it changes (embed mode).
    {
        let embed = state.mode == Mode::Embed;
        use_effect_with(embed, move |&embed| {
            let mut observer = None;
            if embed {
                let last = Rc::new(RefCell::new(0u32));
                let callback = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
                    // The body's own height: the root's is never less than the frame's.
                    let Some(body) = gloo::utils::document().body() else { return };
                    let height = body.get_bounding_client_rect().height().ceil().max(0.0) as u32;
                    if height != *last.borrow() {
                        *last.borrow_mut() = height;
                        if let Some(origin) = host_origin.borrow().clone() {
                            post(&PageMessage::Resize { height }, &origin);
                        }
                    }
                });
                if let Ok(resize) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
                    if let Some(body) = gloo::utils::document().body() {
                        resize.observe(&body);
                    }
                    observer = Some((resize, callback));
                }
            }
            move || {
                if let Some((resize, _callback)) = observer {
                    resize.disconnect();
                }
            }
        });
    }
}
