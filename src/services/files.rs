//! Files the user picked or dropped, as [`PickedFile`]s — never read here.
//!
//! A folder (picked with the folder button, or dropped) contributes every `*.json`
//! below it (and a `command.txt`) in sorted path order, as the CLI does — and every
//! file, when it is a compiler work directory (the link's last step places its weights,
//! custom ops, …: their names and sizes, never their bytes unless it compares them);
//! `nc*/sg*/…json` layouts keep their relative paths so modules are named from them,
//! and the reducer reads a compiler work directory from them (`state::run`).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::side::Side;
use crate::state::{Action, FileBlob, LinkAction, LinkOp, PickedFile};

fn picked(file: &web_sys::File, path: String) -> PickedFile {
    PickedFile { path, size: file.size() as u64, blob: FileBlob(Some(file.clone().into())) }
}

/// The path a file was picked under: its folder-relative path, else its name.
fn relative_path(file: &web_sys::File) -> String {
    js_sys::Reflect::get(file, &JsValue::from_str("webkitRelativePath"))
        .ok()
        .and_then(|v| v.as_string())
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| file.name())
}

/// What a folder contributes: its `*.json`, a work directory's `command.txt`
/// (provenance: the reducer never links it) and a compiler log (read as a log).
fn is_json(path: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".json")
        || path.ends_with("/command.txt")
        || birlink_core::read::workdir::is_log(path)
}

/// What a folder keeps of its files, sorted by path: all of them for a work
/// directory, else its `*.json` and `command.txt`.
fn folder_files(files: &mut Vec<PickedFile>) {
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let paths: Vec<&str> = files.iter().map(|f| f.path.as_str()).collect();
    if birlink_core::read::workdir::pick(&paths, None).is_none() {
        files.retain(|f| is_json(&f.path));
    }
}

/// The files of a file input (files, or a whole folder).
pub fn from_input(input: &web_sys::HtmlInputElement) -> Vec<PickedFile> {
    let Some(list) = input.files() else { return Vec::new() };
    let mut files = Vec::new();
    let mut folder = false;
    for i in 0..list.length() {
        if let Some(file) = list.item(i) {
            let path = relative_path(&file);
            folder |= path.contains('/');
            files.push(picked(&file, path));
        }
    }
    if folder {
        folder_files(&mut files);
    }
    files
}

/// What a drop on the page (or on B's panel) opens: its files join `side`'s link set;
/// a drop with nothing to open says so. Read in a task of its own.
pub fn take_drop(transfer: web_sys::DataTransfer, side: Side, dispatch: impl Fn(Action) + 'static) {
    wasm_bindgen_futures::spawn_local(async move {
        let picked = from_drop(transfer).await;
        if picked.is_empty() {
            dispatch(Action::Notice(Some("nothing to open: drop `.json` files or folders".to_owned())));
        } else {
            dispatch(Action::Link(LinkAction { side, op: LinkOp::AddFiles(picked) }));
        }
    });
}

/// Everything dropped: files as they are, folders walked for `*.json`.
pub async fn from_drop(transfer: web_sys::DataTransfer) -> Vec<PickedFile> {
    let items = transfer.items();
    let mut entries = Vec::new();
    let mut loose = Vec::new();
    for i in 0..items.length() {
        let Some(item) = items.get(i) else { continue };
        if item.kind() != "file" {
            continue;
        }
        match item.webkit_get_as_entry() {
            Ok(Some(entry)) => entries.push(entry),
            _ => {
                if let Ok(Some(file)) = item.get_as_file() {
                    loose.push(file);
                }
            }
        }
    }
    let mut files: Vec<PickedFile> = loose.iter().map(|f| picked(f, f.name())).collect();
    let mut from_folders = Vec::new();
    for entry in entries {
        walk(entry, &mut files, &mut from_folders).await;
    }
    folder_files(&mut from_folders);
    files.extend(from_folders);
    files
}

/// Walks one dropped entry: a file goes to `files`, a folder's files to `folders`.
async fn walk(entry: web_sys::FileSystemEntry, files: &mut Vec<PickedFile>, folders: &mut Vec<PickedFile>) {
    let mut stack = vec![(entry, false)];
    while let Some((entry, in_folder)) = stack.pop() {
        if entry.is_file() {
            let file_entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            if let Some(file) = entry_file(&file_entry).await {
                let path = file_entry.full_path().trim_start_matches('/').to_owned();
                let target = if in_folder { &mut *folders } else { &mut *files };
                target.push(picked(&file, if in_folder { path } else { file.name() }));
            }
        } else if entry.is_directory() {
            let directory: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            for child in read_all(&directory.create_reader()).await {
                stack.push((child, true));
            }
        }
    }
}

/// The `File` of a file entry.
async fn entry_file(entry: &web_sys::FileSystemFileEntry) -> Option<web_sys::File> {
    let promise = js_sys::Promise::new(&mut |resolve, reject| {
        let error = Closure::once_into_js(move |e: JsValue| {
            let _ = reject.call1(&JsValue::NULL, &e);
        });
        entry.file_with_callback_and_callback(&resolve, error.unchecked_ref());
    });
    JsFuture::from(promise).await.ok()?.dyn_into().ok()
}

/// Every entry of a folder (`readEntries` returns them in batches until an empty one).
async fn read_all(reader: &web_sys::FileSystemDirectoryReader) -> Vec<web_sys::FileSystemEntry> {
    let mut all = Vec::new();
    loop {
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            let error = Closure::once_into_js(move |e: JsValue| {
                let _ = reject.call1(&JsValue::NULL, &e);
            });
            let _ = reader.read_entries_with_callback_and_callback(&resolve, error.unchecked_ref());
        });
        let Ok(batch) = JsFuture::from(promise).await else { break };
        let batch: js_sys::Array = batch.unchecked_into();
        if batch.length() == 0 {
            break;
        }
        all.extend(batch.iter().map(|e| e.unchecked_into::<web_sys::FileSystemEntry>()));
    }
    all
}

/// Bytes the page was handed (a link's data, a host's message) as a file of the link set.
pub fn from_bytes(name: &str, bytes: &[u8]) -> PickedFile {
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts).ok();
    PickedFile { path: name.to_owned(), size: bytes.len() as u64, blob: FileBlob(blob) }
}

/// A value a host sent as a file's data (a `Blob`, `ArrayBuffer` or typed array), as a
/// file of the link set.
pub fn from_host_data(name: &str, value: &JsValue) -> Option<PickedFile> {
    let blob: web_sys::Blob = if let Some(blob) = value.dyn_ref::<web_sys::Blob>() {
        blob.clone()
    } else {
        let array = if let Some(buffer) = value.dyn_ref::<js_sys::ArrayBuffer>() {
            js_sys::Uint8Array::new(buffer)
        } else {
            let view = value.dyn_ref::<js_sys::Object>()?;
            let buffer = js_sys::Reflect::get(view, &JsValue::from_str("buffer"))
                .ok()?
                .dyn_into::<js_sys::ArrayBuffer>()
                .ok()?;
            let offset = js_sys::Reflect::get(view, &JsValue::from_str("byteOffset")).ok()?.as_f64()? as u32;
            let length = js_sys::Reflect::get(view, &JsValue::from_str("byteLength")).ok()?.as_f64()? as u32;
            js_sys::Uint8Array::new_with_byte_offset_and_length(&buffer, offset, length)
        };
        // A copy: the host keeps its buffer, the page its own.
        let copy = js_sys::Uint8Array::new_with_length(array.length());
        copy.set(&array, 0);
        web_sys::Blob::new_with_u8_array_sequence(&js_sys::Array::of1(&copy)).ok()?
    };
    Some(PickedFile { path: name.to_owned(), size: blob.size() as u64, blob: FileBlob(Some(blob)) })
}
