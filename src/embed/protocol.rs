//! The message protocol, version 1 (embed spec §4), as data: what a host may send, how
//! each request is checked, and what the page answers. No DOM here: the listener
//! (`hooks::use_messages`) turns a message into a JSON tree — binary data (`Blob`,
//! `ArrayBuffer`, typed arrays) stands in as `{"$bytes": index, "size": n}` — and
//! [`parse`] judges it; native tests cover every rule.
//!
//! Strict: an unknown type, a missing or ill-typed field and an unknown field (named)
//! are errors with the spec's codes; a view that does not exist is `not-found`; files
//! above what the page can hold are `too-large`.

use serde_json::{json, Map, Value};

use birlink_core::limits::MAX_LNC;
use birlink_core::model::entity::EntityKey;
use birlink_core::tools::share::View;
use birlink_core::tools::share::ViewState;

use crate::side::Side;

/// The protocol's version.
pub const VERSION: u64 = 1;

/// What the page can do, as `ready` lists it.
pub const CAPABILITIES: [&str; 6] = ["load", "show", "getState", "ping", "resize", "selected"];

/// The error codes of the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Not an object, a missing or ill-typed field.
    BadRequest,
    /// A type the page does not know.
    UnknownType,
    /// A field the type does not have.
    UnknownField,
    /// A view or entity that does not exist.
    NotFound,
    /// More data than the page can hold.
    TooLarge,
    /// A later request took its place before it was done (a `show` whose entity was
    /// still being looked for when another came).
    Superseded,
}

impl ErrorCode {
    /// The code as sent.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "bad-request",
            ErrorCode::UnknownType => "unknown-type",
            ErrorCode::UnknownField => "unknown-field",
            ErrorCode::NotFound => "not-found",
            ErrorCode::TooLarge => "too-large",
            ErrorCode::Superseded => "superseded",
        }
    }
}

/// A request that cannot be taken, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostError {
    /// Which.
    pub code: ErrorCode,
    /// Why, naming the field.
    pub message: String,
}

fn error(code: ErrorCode, message: impl Into<String>) -> HostError {
    HostError { code, message: message.into() }
}

/// A file's content in a `load`: text, or bytes the listener holds (by index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileData {
    /// A string.
    Text(String),
    /// Binary data: the listener's `index`-th stand-in, `size` bytes.
    Bytes {
        /// Which stand-in.
        index: usize,
        /// Its size.
        size: u64,
    },
}

/// One file of a `load`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostFile {
    /// Its name.
    pub name: String,
    /// Its content.
    pub data: FileData,
}

impl HostFile {
    fn size(&self) -> u64 {
        match &self.data {
            FileData::Text(text) => text.len() as u64,
            FileData::Bytes { size, .. } => *size,
        }
    }
}

/// A request a host may make.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostRequest {
    /// Link these files, replacing the current link set.
    Load {
        /// The files, in order.
        files: Vec<HostFile>,
        /// The netlist, as a file.
        netlist: Option<HostFile>,
        /// The LNC.
        lnc: Option<u64>,
        /// The view to open, the entity to select, once linked.
        state: ViewState,
        /// A link set to compare this one against (the Compare view): `None` leaves the
        /// one open (if any) as it is, an empty list closes it.
        against: Option<Vec<HostFile>>,
        /// Its LNC.
        against_lnc: Option<u64>,
    },
    /// Change the view (and selection, step, diagnostic).
    Show(ViewState),
    /// Answer `state`.
    GetState,
    /// Answer `ack`.
    Ping,
}

/// A message with a `birlink` key: its `id`, and the request or why it cannot be taken.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The host's `id` (`null` when it gave none).
    pub id: Value,
    /// The request.
    pub request: Result<HostRequest, HostError>,
}

fn allowed(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "load" => &["birlink", "id", "files", "lnc", "netlist", "view", "select", "against", "against_lnc"],
        "show" => &["birlink", "id", "view", "select", "step", "diag"],
        "getState" | "ping" => &["birlink", "id"],
        _ => return None,
    })
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(map) if map.contains_key("$bytes") => "binary data",
        Value::Object(map) if map.contains_key("$unsupported") => "a value that cannot be read",
        Value::Object(_) => "an object",
    }
}

/// Reads a message. `None` when it is not birlink's (no `birlink` key): other traffic on
/// the channel is left alone. `max_bytes` bounds a `load`'s files.
pub fn parse(message: &Value, max_bytes: u64) -> Option<Parsed> {
    let map = message.as_object()?;
    let kind = map.get("birlink")?;
    let id = map.get("id").cloned().unwrap_or(Value::Null);
    Some(Parsed { request: request(map, kind, &id, max_bytes), id })
}

fn request(map: &Map<String, Value>, kind: &Value, id: &Value, max_bytes: u64) -> Result<HostRequest, HostError> {
    let Some(kind) = kind.as_str() else {
        return Err(error(
            ErrorCode::BadRequest,
            format!("`birlink` must be a string naming the type, found {}", describe(kind)),
        ));
    };
    let Some(fields) = allowed(kind) else {
        return Err(error(ErrorCode::UnknownType, format!("`{kind}` is not a request (load, show, getState, ping)")));
    };
    match id {
        Value::String(_) | Value::Number(_) => {}
        Value::Null => {
            return Err(error(ErrorCode::BadRequest, format!("`{kind}` needs an `id` (a string or a number)")))
        }
        other => {
            return Err(error(
                ErrorCode::BadRequest,
                format!("`id` must be a string or a number, found {}", describe(other)),
            ))
        }
    }
    if let Some(unknown) = map.keys().find(|k| !fields.contains(&k.as_str())) {
        return Err(error(
            ErrorCode::UnknownField,
            format!("`{kind}` has no field `{unknown}` (it has {})", fields[2..].join(", ")),
        ));
    }
    match kind {
        "load" => {
            let files = match map.get("files") {
                Some(Value::Array(items)) if !items.is_empty() => items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| file(item, &format!("files[{i}]")))
                    .collect::<Result<Vec<_>, _>>()?,
                Some(Value::Array(_)) => {
                    return Err(error(ErrorCode::BadRequest, "`files` is empty: give at least one file"))
                }
                Some(other) => {
                    return Err(error(
                        ErrorCode::BadRequest,
                        format!("`files` must be an array of `{{name, data}}`, found {}", describe(other)),
                    ))
                }
                None => return Err(error(ErrorCode::BadRequest, "`load` needs `files`: an array of `{name, data}`")),
            };
            let netlist = map.get("netlist").map(|n| file(n, "netlist")).transpose()?;
            let lnc_of = |key: &str| match map.get(key) {
                None => Ok(None),
                Some(value) => value.as_u64().filter(|n| (1..=MAX_LNC).contains(n)).map(Some).ok_or_else(|| {
                    error(
                        ErrorCode::BadRequest,
                        format!("`{key}` must be an integer from 1 to {MAX_LNC}, found {}", describe(value)),
                    )
                }),
            };
            let lnc = lnc_of("lnc")?;
            let against_lnc = lnc_of("against_lnc")?;
            let against = match map.get("against") {
                None => None,
                Some(Value::Array(items)) => Some(
                    items
                        .iter()
                        .enumerate()
                        .map(|(i, item)| file(item, &format!("against[{i}]")))
                        .collect::<Result<Vec<_>, _>>()?,
                ),
                Some(other) => {
                    return Err(error(
                        ErrorCode::BadRequest,
                        format!("`against` must be an array of `{{name, data}}`, found {}", describe(other)),
                    ))
                }
            };
            let total: u64 =
                files.iter().chain(netlist.as_ref()).chain(against.iter().flatten()).map(HostFile::size).sum();
            if total > max_bytes {
                return Err(error(
                    ErrorCode::TooLarge,
                    format!("the files are {total} bytes; the page holds at most {max_bytes}"),
                ));
            }
            let state = ViewState { view: view(map)?, select: select(map)?, ..ViewState::default() };
            Ok(HostRequest::Load { files, netlist, lnc, state, against, against_lnc })
        }
        "show" => {
            let view = view(map)?
                .ok_or_else(|| error(ErrorCode::BadRequest, format!("`show` needs a `view` ({})", View::names())))?;
            let step = match map.get("step") {
                None => None,
                Some(Value::String(step)) => {
                    let (parsed, dropped) = ViewState::parse(&format!("step={}", step.replace('&', "%26")));
                    match (parsed.step, dropped.first()) {
                        (Some(step), _) => Some(step),
                        (None, Some(dropped)) => {
                            return Err(error(ErrorCode::BadRequest, format!("`step`: {}", dropped.why)))
                        }
                        (None, None) => None,
                    }
                }
                Some(other) => {
                    return Err(error(
                        ErrorCode::BadRequest,
                        format!("`step` must be a string `pass/step`, found {}", describe(other)),
                    ))
                }
            };
            let diag = match map.get("diag") {
                None => None,
                Some(value) => Some(value.as_u64().map(|n| n as usize).ok_or_else(|| {
                    error(
                        ErrorCode::BadRequest,
                        format!("`diag` must be a diagnostic's number, found {}", describe(value)),
                    )
                })?),
            };
            Ok(HostRequest::Show(ViewState {
                view: Some(view),
                select: select(map)?,
                step,
                diag,
                ..ViewState::default()
            }))
        }
        "getState" => Ok(HostRequest::GetState),
        _ => Ok(HostRequest::Ping),
    }
}

fn view(map: &Map<String, Value>) -> Result<Option<View>, HostError> {
    match map.get("view") {
        None => Ok(None),
        Some(Value::String(name)) => View::parse(name)
            .map(Some)
            .ok_or_else(|| error(ErrorCode::NotFound, format!("no view `{name}` (views: {})", View::names()))),
        Some(other) => Err(error(ErrorCode::BadRequest, format!("`view` must be a string, found {}", describe(other)))),
    }
}

fn select(map: &Map<String, Value>) -> Result<Option<EntityKey>, HostError> {
    match map.get("select") {
        None => Ok(None),
        Some(Value::String(key)) => key
            .parse()
            .map(Some)
            .map_err(|e: birlink_core::model::entity::KeyError| error(ErrorCode::BadRequest, format!("`select`: {e}"))),
        Some(other) => {
            Err(error(ErrorCode::BadRequest, format!("`select` must be an entity key, found {}", describe(other))))
        }
    }
}

fn file(value: &Value, at: &str) -> Result<HostFile, HostError> {
    let Value::Object(map) = value else {
        return Err(error(
            ErrorCode::BadRequest,
            format!("`{at}` must be `{{name, data}}`, found {}", describe(value)),
        ));
    };
    if let Some(unknown) = map.keys().find(|k| !["name", "data"].contains(&k.as_str())) {
        return Err(error(ErrorCode::UnknownField, format!("`{at}` has no field `{unknown}` (it has name, data)")));
    }
    let name = match map.get("name") {
        Some(Value::String(name)) if !name.is_empty() => name.clone(),
        Some(other) => {
            return Err(error(
                ErrorCode::BadRequest,
                format!("`{at}.name` must be a non-empty string, found {}", describe(other)),
            ))
        }
        None => return Err(error(ErrorCode::BadRequest, format!("`{at}` needs a `name`"))),
    };
    let data = match map.get("data") {
        Some(Value::String(text)) => FileData::Text(text.clone()),
        Some(Value::Object(stand_in)) if stand_in.contains_key("$bytes") => {
            let index = stand_in.get("$bytes").and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
            let size = stand_in.get("size").and_then(Value::as_u64);
            match (index, size) {
                (Some(index), Some(size)) => FileData::Bytes { index, size },
                _ => return Err(error(ErrorCode::BadRequest, format!("`{at}.data` could not be read"))),
            }
        }
        Some(other) => {
            return Err(error(
                ErrorCode::BadRequest,
                format!(
                    "`{at}.data` must be a string, an ArrayBuffer, a Uint8Array or a Blob, found {}",
                    describe(other)
                ),
            ))
        }
        None => return Err(error(ErrorCode::BadRequest, format!("`{at}` needs `data`"))),
    };
    Ok(HostFile { name, data })
}

/// A message the page sends a host.
#[derive(Clone, Debug, PartialEq)]
pub enum PageMessage {
    /// The page takes requests.
    Ready,
    /// A request was taken.
    Ack {
        /// Its id.
        id: Value,
    },
    /// A request was not taken.
    Error {
        /// Its id.
        id: Value,
        /// Why.
        error: HostError,
    },
    /// A run finished linking: a host's `load` (with its id), or, embedded, any run the
    /// frame shows (`sample=`, `src=`, a link's data: id `null`).
    Linked {
        /// The `load`'s id, `null` for a run no `load` asked for.
        id: Value,
        /// Every pass ran clean.
        ok: bool,
        /// The pass that failed.
        failed_pass: Option<String>,
        /// How many errors.
        errors: usize,
        /// How many warnings.
        warnings: usize,
        /// The diagnostic codes, in report order.
        codes: Vec<String>,
    },
    /// The page's state.
    State {
        /// The `getState`'s id.
        id: Value,
        /// A full-mode URL showing the same.
        url: String,
        /// The view.
        view: View,
        /// The entity selected.
        select: Option<EntityKey>,
    },
    /// The content's height changed (embed mode).
    Resize {
        /// In CSS pixels.
        height: u32,
    },
    /// The user selected an entity (embed mode).
    Selected {
        /// Its key.
        select: EntityKey,
    },
    /// "Open in editor" (an editor's webview only, `services::editor`): a file of the
    /// link set at a line and column (1-based), or the kernel line behind an entity.
    Open {
        /// The file, as the link set names it.
        file: Option<String>,
        /// Its line.
        line: u64,
        /// Its column.
        column: u64,
        /// `debug.filename:lineno`.
        source: Option<String>,
    },
    /// "Open files" / "Open folder" (an editor's webview only, `services::editor`): the
    /// editor's own dialog chooses, on the machine the files are on (under Remote-SSH,
    /// the remote one), for the link set shown or the one compared against.
    Pick {
        /// A folder (else files).
        folder: bool,
        /// For which link set.
        side: Side,
    },
}

impl PageMessage {
    /// The message as the object posted.
    pub fn to_value(&self) -> Value {
        match self {
            PageMessage::Ready => json!({"birlink": "ready", "version": VERSION, "capabilities": CAPABILITIES}),
            PageMessage::Ack { id } => json!({"birlink": "ack", "id": id}),
            PageMessage::Error { id, error } => {
                json!({"birlink": "error", "id": id, "code": error.code.as_str(), "message": error.message})
            }
            PageMessage::Linked { id, ok, failed_pass, errors, warnings, codes } => json!({
                "birlink": "linked", "id": id, "ok": ok, "failed_pass": failed_pass,
                "errors": errors, "warnings": warnings, "codes": codes,
            }),
            PageMessage::State { id, url, view, select } => json!({
                "birlink": "state", "id": id, "url": url, "view": view.as_str(),
                "select": select.as_ref().map(ToString::to_string),
            }),
            PageMessage::Resize { height } => json!({"birlink": "resize", "height": height}),
            PageMessage::Selected { select } => json!({"birlink": "selected", "select": select.to_string()}),
            PageMessage::Open { file: Some(file), line, column, .. } => {
                json!({"birlink": "open", "file": file, "line": line, "column": column})
            }
            PageMessage::Open { source, .. } => json!({"birlink": "open", "source": source}),
            PageMessage::Pick { folder, side } => json!({"birlink": "pick", "folder": folder, "side": side.as_str()}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(message: Value) -> Result<HostRequest, HostError> {
        parse(&message, 1000).expect("a birlink message").request
    }

    fn code(message: Value) -> (&'static str, String) {
        match judge(message) {
            Ok(request) => panic!("taken: {request:?}"),
            Err(e) => (e.code.as_str(), e.message),
        }
    }

    #[test]
    fn an_editors_messages_are_what_its_extension_reads() {
        let open = PageMessage::Open { file: Some("w/nc01/sg00/bir.json".into()), line: 283, column: 38, source: None };
        assert_eq!(
            open.to_value(),
            json!({"birlink": "open", "file": "w/nc01/sg00/bir.json", "line": 283, "column": 38})
        );
        let kernel = PageMessage::Open { file: None, line: 0, column: 0, source: Some("tiling.py:12".into()) };
        assert_eq!(kernel.to_value(), json!({"birlink": "open", "source": "tiling.py:12"}));
        let pick = PageMessage::Pick { folder: true, side: Side::Shown };
        assert_eq!(pick.to_value(), json!({"birlink": "pick", "folder": true, "side": "shown"}));
        let pick = PageMessage::Pick { folder: false, side: Side::Against };
        assert_eq!(pick.to_value(), json!({"birlink": "pick", "folder": false, "side": "against"}));
    }

    #[test]
    fn other_traffic_is_left_alone() {
        assert_eq!(parse(&json!("PING"), 1000), None);
        assert_eq!(parse(&json!({"perfetto": {}}), 1000), None);
    }

    #[test]
    fn requests_are_read() {
        assert_eq!(judge(json!({"birlink": "ping", "id": 1})), Ok(HostRequest::Ping));
        assert_eq!(judge(json!({"birlink": "getState", "id": "a"})), Ok(HostRequest::GetState));
        let load = judge(json!({"birlink": "load", "id": 2, "lnc": 2, "view": "barriers",
            "files": [{"name": "nc00.json", "data": "{}"}, {"name": "nc01.json", "data": {"$bytes": 0, "size": 10}}]}));
        let Ok(HostRequest::Load { files, lnc, state, netlist, against, against_lnc }) = load else {
            panic!("{load:?}")
        };
        assert_eq!((files.len(), lnc, state.view, netlist), (2, Some(2), Some(View::Barriers), None));
        assert_eq!(files[1].data, FileData::Bytes { index: 0, size: 10 });
        assert!(against.is_none() && against_lnc.is_none());
        // A second link set to compare against, with its own LNC.
        let load = judge(json!({"birlink": "load", "id": 4, "view": "compare", "against_lnc": 2,
            "files": [{"name": "rank0.json", "data": "{}"}], "against": [{"name": "rank1.json", "data": "{}"}]}));
        let Ok(HostRequest::Load { against: Some(against), against_lnc, state, .. }) = load else { panic!("{load:?}") };
        assert_eq!(
            (against.len(), against[0].name.as_str(), against_lnc, state.view),
            (1, "rank1.json", Some(2), Some(View::Compare))
        );
        let (c, m) = code(json!({"birlink": "load", "id": 5, "files": [{"name": "a", "data": "x"}], "against": "b"}));
        assert_eq!(c, "bad-request");
        assert!(m.contains("`against`"), "{m}");
        let (c, _) =
            code(json!({"birlink": "load", "id": 5, "files": [{"name": "a", "data": "x"}], "against_lnc": 65}));
        assert_eq!(c, "bad-request");
        let show = judge(
            json!({"birlink": "show", "id": 3, "view": "pipeline", "step": "bir_linker/aliases", "diag": 0, "select": "function:0:nc00"}),
        );
        let Ok(HostRequest::Show(state)) = show else { panic!("{show:?}") };
        assert_eq!(state.to_string(), "view=pipeline&step=bir_linker/aliases&diag=0&select=function:0:nc00");
    }

    #[test]
    fn each_error_code_names_what_is_wrong() {
        assert_eq!(code(json!({"birlink": "zoom", "id": 1})).0, "unknown-type");
        assert_eq!(code(json!({"birlink": 7, "id": 1})).0, "bad-request");
        assert_eq!(code(json!({"birlink": "ping"})).0, "bad-request");
        let (c, m) = code(json!({"birlink": "show", "id": 1, "view": "pipeline", "vew": "x"}));
        assert_eq!(c, "unknown-field");
        assert!(m.contains("`vew`"), "{m}");
        let (c, m) = code(json!({"birlink": "load", "id": 1, "files": [{"name": "a", "data": "x", "size": 1}]}));
        assert_eq!(c, "unknown-field");
        assert!(m.contains("`files[0]` has no field `size`"), "{m}");
        assert_eq!(code(json!({"birlink": "show", "id": 1, "view": "graph"})).0, "not-found");
        assert_eq!(code(json!({"birlink": "show", "id": 1})).0, "bad-request");
        assert_eq!(code(json!({"birlink": "show", "id": 1, "view": "pipeline", "select": "nope"})).0, "bad-request");
        assert_eq!(code(json!({"birlink": "show", "id": 1, "view": "pipeline", "diag": -1})).0, "bad-request");
        assert_eq!(code(json!({"birlink": "load", "id": 1, "files": []})).0, "bad-request");
        assert_eq!(code(json!({"birlink": "load", "id": 1, "files": [{"name": "a", "data": 5}]})).0, "bad-request");
        assert_eq!(
            code(json!({"birlink": "load", "id": 1, "files": [{"name": "a", "data": "x"}], "lnc": 0})).0,
            "bad-request"
        );
        let (c, m) =
            code(json!({"birlink": "load", "id": 1, "files": [{"name": "a", "data": {"$bytes": 0, "size": 2000}}]}));
        assert_eq!(c, "too-large");
        assert!(m.contains("2000"), "{m}");
    }

    #[test]
    fn answers_read_as_the_spec_writes_them() {
        let linked = PageMessage::Linked {
            id: json!(4),
            ok: false,
            failed_pass: Some("vnc_link".into()),
            errors: 1,
            warnings: 0,
            codes: vec!["1512".into()],
        };
        assert_eq!(
            linked.to_value(),
            json!({"birlink": "linked", "id": 4, "ok": false, "failed_pass": "vnc_link", "errors": 1, "warnings": 0, "codes": ["1512"]})
        );
        assert_eq!(PageMessage::Ready.to_value()["version"], json!(1));
        let error = PageMessage::Error { id: json!("x"), error: error(ErrorCode::NotFound, "no") };
        assert_eq!(error.to_value(), json!({"birlink": "error", "id": "x", "code": "not-found", "message": "no"}));
    }
}
