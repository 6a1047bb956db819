//! A link set as one bundle document (spec §1.4): what Share offers to download when a
//! link would be too long, and what `birlink reduce` writes.
//!
//! Each module file becomes one of `modules`, a bundle's modules and netlist are taken
//! as they are, a netlist file becomes `netlist` (the first one, as a link would use
//! it), and the LNC goes into `options`. Modules inside a bundle never take a name from
//! a path, so a module whose file gave it a name (`dump/nc01/sg00/x.json` → `nc01`) that
//! its core id would not give it gets that name as its `name` key: the bundle links as
//! the files did.

use crate::model::place::CoreId;
use serde_json::{Map, Value};

use super::data::LinkSetData;
use crate::read::input::name_from_path;

/// Why files cannot make a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleError(pub String);

impl std::fmt::Display for BundleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The bundle of a link set, as pretty JSON with a final newline.
pub fn to_bundle(set: &LinkSetData) -> Result<String, BundleError> {
    let mut modules = Vec::new();
    let mut netlist: Option<Value> = None;
    let mut options = Map::new();
    for file in &set.files {
        let value: Value = serde_json::from_slice(&file.bytes)
            .map_err(|e| BundleError(format!("`{}` is not valid JSON ({e}): share the files themselves", file.name)))?;
        let is_netlist_name = file.name.rsplit(['/', '\\']).next() == Some("hlo_netlist.json");
        match value {
            Value::Object(mut map) if !is_netlist_name && map.contains_key("functions") => {
                if !map.contains_key("name") {
                    let core = map.get("attributes").and_then(|a| a.get("neuron_core_id")).and_then(Value::as_u64);
                    let by_core = CoreId(core.unwrap_or(0)).to_string();
                    if let Some(name) = name_from_path(&file.name).filter(|n| *n != by_core) {
                        map.insert("name".to_owned(), Value::from(name));
                    }
                }
                modules.push(Value::Object(map));
            }
            Value::Object(mut map) if !is_netlist_name && map.contains_key("modules") => {
                if let Some(Value::Array(inner)) = map.remove("modules") {
                    modules.extend(inner);
                }
                if let Some(inner) = map.remove("netlist") {
                    netlist.get_or_insert(inner);
                }
                if let Some(Value::Object(inner)) = map.remove("options") {
                    for (key, value) in inner {
                        options.entry(key).or_insert(value);
                    }
                }
            }
            other => {
                netlist.get_or_insert(other);
            }
        }
    }
    if let Some(lnc) = set.lnc {
        options.insert("lnc".to_owned(), Value::from(lnc));
    }
    if let Some(flow) = set.flow {
        options.insert("flow".to_owned(), Value::from(flow.as_str()));
    }
    let mut bundle = Map::new();
    bundle.insert("modules".to_owned(), Value::Array(modules));
    if let Some(netlist) = netlist {
        bundle.insert("netlist".to_owned(), netlist);
    }
    if !options.is_empty() {
        bundle.insert("options".to_owned(), Value::Object(options));
    }
    Ok(crate::output::json::to_pretty_string(&Value::Object(bundle)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::share::SharedFile;
    use crate::{LinkOptions, SourceFile};

    #[test]
    fn a_bundle_of_files_links_as_the_files_did() {
        let config = crate::gen::samples::matmul_config();
        let files: Vec<SharedFile> = crate::gen::generate(&config, crate::gen::Layout::Files)
            .into_iter()
            .map(|f| SharedFile {
                name: format!("dump/{}/sg00/bir.json", f.path.trim_end_matches(".json")),
                bytes: f.bytes,
            })
            .collect();
        let set = LinkSetData { files, lnc: Some(2), flow: None };
        let sources: Vec<SourceFile> =
            set.files.iter().map(|f| SourceFile::text(f.name.clone(), String::from_utf8_lossy(&f.bytes))).collect();
        let direct = crate::run(sources, &LinkOptions { lnc: Some(2), ..LinkOptions::default() });
        let bundle = to_bundle(&set).unwrap_or_default();
        let bundled = crate::run(vec![SourceFile::text("linkset.json", bundle)], &LinkOptions::default());
        assert_eq!(crate::linked_json(&bundled), crate::linked_json(&direct));
        assert_eq!(bundled.report.options.lnc, 2);
    }

    #[test]
    fn a_file_that_is_not_json_cannot_be_bundled() {
        let set = LinkSetData {
            files: vec![SharedFile { name: "nc00.json".into(), bytes: b"{".to_vec() }],
            lnc: None,
            flow: None,
        };
        assert!(to_bundle(&set).is_err_and(|e| e.0.contains("`nc00.json` is not valid JSON")));
    }
}
