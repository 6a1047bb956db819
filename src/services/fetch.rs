//! Fetching samples and `?src=` URLs as blobs (their bytes never enter the page's wasm).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use birlink_core::gen::samples::SampleInfo;

use crate::state::{FileBlob, PickedFile};

async fn response(url: &str) -> Result<web_sys::Response, String> {
    let window = web_sys::window().ok_or("no window")?;
    let fetched = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| format!("could not fetch `{url}` (the network refused it, or the page's security policy does)"))?;
    let response: web_sys::Response = fetched.dyn_into().map_err(|_| "not a response".to_owned())?;
    if !response.ok() {
        return Err(format!("could not fetch `{url}`: HTTP {}", response.status()));
    }
    Ok(response)
}

/// A URL's body as a file of the link set.
pub async fn blob(url: &str) -> Result<PickedFile, String> {
    let response = response(url).await?;
    let promise = response.blob().map_err(|_| format!("could not read `{url}`"))?;
    let blob: web_sys::Blob =
        JsFuture::from(promise).await.map_err(|_| format!("could not read `{url}`"))?.unchecked_into();
    Ok(PickedFile { path: file_name(url), size: blob.size() as u64, blob: FileBlob(Some(blob)) })
}

/// The name a fetched file gets: its URL's last path segment, percent-decoded, so a
/// segment that encodes a relative path (`nc00%2Fsg00%2Fbir_debug.json`, as `birlink
/// open` writes them) names the file as a dropped folder would.
fn file_name(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let last = path.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(path);
    js_sys::decode_uri_component(last).ok().and_then(|n| n.as_string()).unwrap_or_else(|| last.to_owned())
}

/// The samples index (`samples/index.json`).
pub async fn samples_index() -> Result<Vec<SampleInfo>, String> {
    let response = response("samples/index.json").await?;
    let promise = response.text().map_err(|_| "could not read the samples index".to_owned())?;
    let text = JsFuture::from(promise).await.map_err(|_| "could not read the samples index".to_owned())?;
    serde_json::from_str(&text.as_string().unwrap_or_default()).map_err(|e| format!("bad samples index: {e}"))
}

/// A shipped sample's files: the one file, or a work-directory sample's every file
/// under its path (`workdir-2core/nc00/sg00/…`, as a dropped folder names them). `name`
/// is the index's `file`, or that with `.json` added (as `sample=` gives it). With the
/// files, the sample's name as the index has it (the samples menu marks it).
pub async fn sample(name: &str) -> Result<(Vec<PickedFile>, String), String> {
    let folder = name.strip_suffix(".json").unwrap_or(name);
    let index = samples_index().await.unwrap_or_default();
    let files = index.into_iter().find(|s| s.file == folder && !s.files.is_empty()).map(|s| s.files);
    match files {
        Some(files) => {
            let mut picked = Vec::with_capacity(files.len());
            for path in files {
                let mut file = blob(&format!("samples/{path}")).await?;
                file.path = path;
                picked.push(file);
            }
            Ok((picked, folder.to_owned()))
        }
        None => Ok((vec![blob(&format!("samples/{name}")).await?], name.to_owned())),
    }
}
