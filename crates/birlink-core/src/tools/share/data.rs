//! The `data=` part of a link: a link set's input files, as they are, so that opening
//! the link runs the same link on the same bytes (same names, same lines and columns).
//!
//! Wire form: `v1.` then the base64url (no padding) of the raw-deflated (level 10,
//! miniz_oxide) JSON document `{"files": [{"name", "text"}…], "flow"?, "lnc"?, "v": 1}`; a file
//! that is not UTF-8 carries `"base64"` instead of `"text"`. Keys sorted, so the same
//! files always give the same characters. Decoding is bounded ([`MAX_INFLATED`]): a
//! link cannot make the page inflate gigabytes.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use serde_json::{json, Map, Value};

/// The version prefix of the current wire form.
const PREFIX: &str = "v1.";

/// The most a `data=` may inflate to (64 MiB).
pub const MAX_INFLATED: usize = 64 << 20;

/// One input file of a shared link set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedFile {
    /// Its name (as the page shows it: an upload's name, a folder-relative path).
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// A link set as a link carries it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkSetData {
    /// The files, in order.
    pub files: Vec<SharedFile>,
    /// The LNC the user set, if any.
    pub lnc: Option<u64>,
    /// The flow the user chose, if any (the seeds' reading is only ever chosen).
    pub flow: Option<crate::model::flow::Flow>,
}

/// Why a `data=` cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError(pub String);

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The link set as the text of `data=`.
pub fn encode(set: &LinkSetData) -> String {
    let files: Vec<Value> = set
        .files
        .iter()
        .map(|file| match std::str::from_utf8(&file.bytes) {
            Ok(text) => json!({"name": file.name, "text": text}),
            Err(_) => json!({"name": file.name, "base64": STANDARD.encode(&file.bytes)}),
        })
        .collect();
    let mut document = Map::new();
    document.insert("files".to_owned(), Value::Array(files));
    if let Some(lnc) = set.lnc {
        document.insert("lnc".to_owned(), Value::from(lnc));
    }
    if let Some(flow) = set.flow {
        document.insert("flow".to_owned(), Value::from(flow.as_str()));
    }
    document.insert("v".to_owned(), Value::from(1));
    let text = Value::Object(document).to_string();
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 10);
    format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// Reads the text of `data=` back.
pub fn decode(text: &str) -> Result<LinkSetData, DataError> {
    let Some(body) = text.strip_prefix(PREFIX) else {
        let version = text.split('.').next().unwrap_or("");
        return Err(DataError(format!(
            "the link's data is of version `{version}`, which this birlink does not read (it reads `v1`)"
        )));
    };
    let deflated = URL_SAFE_NO_PAD
        .decode(body.trim_end_matches('='))
        .map_err(|e| DataError(format!("the link's data is not base64url: {e} (was the link cut short?)")))?;
    let inflated = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED).map_err(|e| {
        DataError(match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("the link's data inflates to more than {} MiB", MAX_INFLATED >> 20)
            }
            _ => "the link's data does not inflate (was the link cut short?)".to_owned(),
        })
    })?;
    let document: Value = serde_json::from_slice(&inflated)
        .map_err(|e| DataError(format!("the link's data is not the JSON birlink writes: {e}")))?;
    if document.get("v").and_then(Value::as_u64) != Some(1) {
        return Err(DataError("the link's data has no version 1".to_owned()));
    }
    let lnc = match document.get("lnc") {
        None => None,
        Some(lnc) => Some(lnc.as_u64().filter(|n| (1..=crate::limits::MAX_LNC).contains(n)).ok_or_else(|| {
            DataError(format!("the link's `lnc` is not an integer from 1 to {}", crate::limits::MAX_LNC))
        })?),
    };
    let flow = match document.get("flow") {
        None => None,
        Some(flow) => Some(
            flow.as_str()
                .and_then(crate::model::flow::Flow::parse)
                .ok_or_else(|| DataError("the link's `flow` is not `modular`, `flat` or `seeds`".to_owned()))?,
        ),
    };
    let mut files = Vec::new();
    for (i, file) in document.get("files").and_then(Value::as_array).into_iter().flatten().enumerate() {
        let name =
            file.get("name").and_then(Value::as_str).ok_or_else(|| DataError(format!("file {i} has no name")))?;
        let bytes = match (file.get("text").and_then(Value::as_str), file.get("base64").and_then(Value::as_str)) {
            (Some(text), _) => text.as_bytes().to_vec(),
            (None, Some(encoded)) => {
                STANDARD.decode(encoded).map_err(|e| DataError(format!("file `{name}` is not base64: {e}")))?
            }
            (None, None) => return Err(DataError(format!("file `{name}` has no content"))),
        };
        files.push(SharedFile { name: name.to_owned(), bytes });
    }
    if files.is_empty() {
        return Err(DataError("the link's data holds no file".to_owned()));
    }
    Ok(LinkSetData { files, lnc, flow })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set() -> LinkSetData {
        LinkSetData {
            files: vec![
                SharedFile { name: "nc00.json".into(), bytes: br#"{"functions": []}"#.to_vec() },
                SharedFile { name: "dump/nc01/sg00/x.json".into(), bytes: vec![0xff, 0x00, b'{'] },
            ],
            lnc: Some(2),
            flow: Some(crate::model::flow::Flow::Seeds),
        }
    }

    #[test]
    fn files_round_trip_byte_for_byte_and_always_encode_the_same() {
        let text = encode(&set());
        assert!(text.starts_with("v1."));
        assert!(text[3..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{text}");
        assert_eq!(encode(&set()), text);
        assert_eq!(decode(&text), Ok(set()));
    }

    #[test]
    fn bad_data_says_what_is_wrong() {
        let good = encode(&set());
        for (text, says) in [
            ("v2.abc", "version `v2`"),
            ("v1.***", "not base64url"),
            ("v1.AAAA", "does not inflate"),
            (&good[..good.len() / 2], "cut short"),
        ] {
            match decode(text) {
                Ok(_) => panic!("{text} decoded"),
                Err(error) => assert!(error.0.contains(says), "{text}: {error}"),
            }
        }
        let bomb = format!(
            "v1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&vec![b' '; MAX_INFLATED + 1], 6))
        );
        assert!(decode(&bomb).is_err_and(|e| e.0.contains("more than 64 MiB")));
    }
}
