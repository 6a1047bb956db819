//! The link metadata, `hlo_netlist.json` (docs/spec/link.md §1.3): what the frontend
//! writes in the modular flow, read with the compiler's keys, and birlink's own older
//! keys (the seeds' reading).
//!
//! The compiler's (`docs/spec/sources.md`, "The netlist"): `PartMap`, the partitions —
//! an array, or an object keyed by partition index — each with `PartIOs.Inputs` and
//! `PartIOs.IntermediateIOs` (tensor names); a root `IntermediateIOs`. **birlink's
//! reading** where the compiler's keys are not public: a partition's definition is its
//! `DefID` (also `DefId`, `def_id`, `def`), else the root `DefMap` (partition →
//! definition, as the frontend logs it), else the partition's own index; its outputs are
//! `PartIOs.Outputs` when present.
//!
//! birlink's own: `{"lnc": N, "name": "base", "aliases": [{"producer": {"core",
//! "memloc"}, "consumer": {"core", "memloc"}, "kind": 3}], "outputs": ["memloc names
//! that stay external outputs"]}`. Every key is optional; other keys are ignored.

use serde_json::Value;

use crate::diag::codes::Code;
use crate::diag::describe::compact;
use crate::diag::Diagnostic;
use crate::model::ir::{FileId, Src};
use crate::model::pass::Pass;

/// One end of a netlist alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The core.
    pub core: u64,
    /// The memory location's name on that core.
    pub memloc: String,
}

/// A producer-out ↔ consumer-in handoff declared in the netlist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetAlias {
    /// The core that writes the tensor.
    pub producer: Endpoint,
    /// The core that reads it.
    pub consumer: Endpoint,
    /// Alias kind (default 3, MustAlias).
    pub kind: u64,
    /// The alias's object in the netlist file.
    pub src: Src,
}

/// One partition of the netlist: one call of a definition (the HLO partitioner's word;
/// the linker's "instance").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetPartition {
    /// Its index, in netlist order.
    pub index: usize,
    /// Its definition's id (the index of the definition's first partition, as the
    /// compiler's `DefMap` numbers them).
    pub def: u64,
    /// `PartIOs.Inputs`: the model inputs it reads (or every input, intermediates
    /// included, when it lists them too).
    pub inputs: Vec<String>,
    /// `PartIOs.IntermediateIOs`: the intermediates it produces or consumes.
    pub intermediates: Vec<String>,
    /// `PartIOs.Outputs`, when the netlist has them.
    pub outputs: Option<Vec<String>>,
    /// The partition's object in the netlist file.
    pub src: Src,
}

/// Where partitions' definition ids came from (birlink's reading, said in the report).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DefSource {
    /// Each partition's own `DefID` (or `DefId`, `def_id`, `def`).
    #[default]
    Partition,
    /// The root `DefMap`.
    DefMap,
    /// Neither: each partition is its own definition.
    Index,
}

/// The parsed netlist.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Netlist {
    /// The partitions (`PartMap`), in netlist order; empty for birlink's own format.
    pub partitions: Vec<NetPartition>,
    /// Root `IntermediateIOs`: every intermediate of the program.
    pub intermediates: Vec<String>,
    /// Where the partitions' definitions came from.
    pub def_source: DefSource,
    /// Expected number of cores.
    pub lnc: Option<u64>,
    /// Base name of the linked module.
    pub name: Option<String>,
    /// Declared handoffs.
    pub aliases: Vec<NetAlias>,
    /// Memory locations whose sets stay external outputs.
    pub outputs: Vec<String>,
    /// The netlist's object.
    pub src: Option<Src>,
}

/// The keys a netlist may have; a document with only these is read as a netlist.
pub const NETLIST_KEYS: &[&str] = &["lnc", "name", "aliases", "outputs", "PartMap", "IntermediateIOs", "DefMap"];

/// The keys a partition's definition id may have (birlink's reading: the compiler's
/// spelling is not public).
const DEF_KEYS: [&str; 4] = ["DefID", "DefId", "def_id", "def"];

impl Netlist {
    /// The distinct definition ids, ascending: the k-th is subgraph `sg%02d` of k.
    pub fn definitions(&self) -> Vec<u64> {
        let mut defs: Vec<u64> = self.partitions.iter().map(|p| p.def).collect();
        defs.sort_unstable();
        defs.dedup();
        defs
    }

    /// Whether it describes partitions (the compiler's modular-flow netlist).
    pub fn has_partitions(&self) -> bool {
        !self.partitions.is_empty()
    }
}

/// Reads a netlist object; shape problems are `BL0003`/`BL0008` errors.
pub fn parse(value: &Value, file: FileId, pointer: &str, diags: &mut Vec<Diagnostic>) -> Netlist {
    let mut netlist = Netlist { src: Some(Src::new(file, pointer)), ..Netlist::default() };
    let Some(map) = value.as_object() else {
        diags.push(
            Diagnostic::new(
                Code::WrongType,
                Pass::Read,
                format!("the netlist must be an object, found {}", compact(value)),
            )
            .at_pointer(file, pointer),
        );
        return netlist;
    };
    let mut bad = |key: &str, expected: &str, found: &Value, at: String| {
        let code = if found.is_number() { Code::NumberOutOfRange } else { Code::WrongType };
        diags.push(
            Diagnostic::new(code, Pass::Read, format!("netlist `{key}` must be {expected}, found {}", compact(found)))
                .at_pointer(file, at),
        );
    };
    if let Some(lnc) = map.get("lnc") {
        match lnc.as_u64() {
            Some(n) if (1..=crate::limits::MAX_LNC).contains(&n) => netlist.lnc = Some(n),
            _ => bad("lnc", "an integer from 1 to 64", lnc, format!("{pointer}/lnc")),
        }
    }
    if let Some(name) = map.get("name") {
        match name.as_str() {
            Some(name) => netlist.name = Some(name.to_owned()),
            None => bad("name", "a string", name, format!("{pointer}/name")),
        }
    }
    if let Some(outputs) = map.get("outputs") {
        match outputs.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    match item.as_str() {
                        Some(name) => netlist.outputs.push(name.to_owned()),
                        None => bad("outputs", "a list of names", item, format!("{pointer}/outputs/{i}")),
                    }
                }
            }
            None => bad("outputs", "an array", outputs, format!("{pointer}/outputs")),
        }
    }
    if let Some(aliases) = map.get("aliases") {
        match aliases.as_array() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    let at = format!("{pointer}/aliases/{i}");
                    let endpoint = |key: &str| -> Option<Endpoint> {
                        let end = item.get(key)?;
                        Some(Endpoint {
                            core: end.get("core")?.as_u64()?,
                            memloc: end.get("memloc")?.as_str()?.to_owned(),
                        })
                    };
                    let kind = match item.get("kind") {
                        None => Some(3),
                        Some(kind) => kind.as_u64(),
                    };
                    match (endpoint("producer"), endpoint("consumer"), kind) {
                        (Some(producer), Some(consumer), Some(kind)) => netlist.aliases.push(NetAlias {
                            producer,
                            consumer,
                            kind,
                            src: Src::new(file, at),
                        }),
                        _ => bad(
                            "aliases",
                            "a list of `{\"producer\": {\"core\", \"memloc\"}, \"consumer\": {\"core\", \"memloc\"}, \"kind\"}`",
                            item,
                            at,
                        ),
                    }
                }
            }
            None => bad("aliases", "an array", aliases, format!("{pointer}/aliases")),
        }
    }
    partitions(map, file, pointer, &mut netlist, diags);
    netlist
}

/// A wrong shape in the netlist, at `at`: BL0003, or BL0008 for a number where an id
/// (a non-negative integer) is expected.
fn wrong(diags: &mut Vec<Diagnostic>, file: FileId, key: &str, expected: &str, found: &Value, at: String) {
    let id = expected.contains("id");
    let code = if found.is_number() && id { Code::NumberOutOfRange } else { Code::WrongType };
    diags.push(
        Diagnostic::new(code, Pass::Read, format!("netlist `{key}` must be {expected}, found {}", compact(found)))
            .at_pointer(file, at),
    );
}

/// A list of tensor names, into `out`.
fn names(diags: &mut Vec<Diagnostic>, file: FileId, key: &str, value: &Value, at: String, out: &mut Vec<String>) {
    match value.as_array() {
        Some(items) => {
            for (i, item) in items.iter().enumerate() {
                match item.as_str() {
                    Some(name) => out.push(name.to_owned()),
                    None => wrong(diags, file, key, "a list of tensor names", item, format!("{at}/{i}")),
                }
            }
        }
        None => wrong(diags, file, key, "an array of tensor names", value, at),
    }
}

/// The compiler's keys: `IntermediateIOs`, `DefMap`, `PartMap`.
fn partitions(
    map: &serde_json::Map<String, Value>,
    file: FileId,
    pointer: &str,
    netlist: &mut Netlist,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(all) = map.get("IntermediateIOs") {
        names(diags, file, "IntermediateIOs", all, format!("{pointer}/IntermediateIOs"), &mut netlist.intermediates);
    }
    let mut def_map: Option<Vec<u64>> = None;
    if let Some(value) = map.get("DefMap") {
        match value.as_array().map(|items| items.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>()) {
            Some(Some(ids)) => def_map = Some(ids),
            _ => wrong(diags, file, "DefMap", "an array of definition ids", value, format!("{pointer}/DefMap")),
        }
    }
    if let Some(part_map) = map.get("PartMap") {
        // An array, or an object keyed by partition index (in index order).
        let entries: Vec<(String, &Value)> = match part_map {
            Value::Array(items) => items.iter().enumerate().map(|(i, v)| (i.to_string(), v)).collect(),
            Value::Object(keyed) => {
                let mut entries: Vec<(String, &Value)> = keyed.iter().map(|(k, v)| (k.clone(), v)).collect();
                entries.sort_by_key(|(k, _)| (k.parse::<u64>().unwrap_or(u64::MAX), k.clone()));
                entries
            }
            other => {
                wrong(
                    diags,
                    file,
                    "PartMap",
                    "an array (or an object) of partitions",
                    other,
                    format!("{pointer}/PartMap"),
                );
                Vec::new()
            }
        };
        for (index, (key, value)) in entries.into_iter().enumerate() {
            let at = format!("{pointer}/PartMap/{}", crate::model::ir::escape_segment(&key));
            let Some(part) = value.as_object() else {
                wrong(diags, file, "PartMap", "a list of partition objects", value, at);
                continue;
            };
            let def_field = DEF_KEYS.iter().find_map(|k| part.get(*k).map(|v| (*k, v)));
            let def = match def_field {
                Some((k, v)) => match v.as_u64() {
                    Some(def) => Some(def),
                    None => {
                        wrong(diags, file, k, "a definition id (an integer)", v, format!("{at}/{k}"));
                        None
                    }
                },
                None => None,
            };
            let (def, source) = match (def, def_map.as_ref().and_then(|m| m.get(index).copied())) {
                (Some(def), _) => (def, DefSource::Partition),
                (None, Some(def)) => (def, DefSource::DefMap),
                (None, None) => (index as u64, DefSource::Index),
            };
            if index == 0 || source != DefSource::Partition {
                netlist.def_source = source;
            }
            let mut partition = NetPartition {
                index,
                def,
                inputs: Vec::new(),
                intermediates: Vec::new(),
                outputs: None,
                src: Src::new(file, at.as_str()),
            };
            match part.get("PartIOs") {
                Some(Value::Object(ios)) => {
                    let ios_at = format!("{at}/PartIOs");
                    if let Some(v) = ios.get("Inputs") {
                        names(diags, file, "Inputs", v, format!("{ios_at}/Inputs"), &mut partition.inputs);
                    }
                    if let Some(v) = ios.get("IntermediateIOs") {
                        names(
                            diags,
                            file,
                            "IntermediateIOs",
                            v,
                            format!("{ios_at}/IntermediateIOs"),
                            &mut partition.intermediates,
                        );
                    }
                    if let Some(v) = ios.get("Outputs") {
                        let mut outputs = Vec::new();
                        names(diags, file, "Outputs", v, format!("{ios_at}/Outputs"), &mut outputs);
                        partition.outputs = Some(outputs);
                    }
                }
                Some(other) => wrong(diags, file, "PartIOs", "an object", other, format!("{at}/PartIOs")),
                None => {}
            }
            netlist.partitions.push(partition);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> (Netlist, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        (parse(&value, FileId(0), "", &mut diags), diags)
    }

    #[test]
    fn the_compilers_partitions_are_read_with_their_definitions() {
        let (netlist, diags) = read(json!({
            "PartMap": [
                {"PartIOs": {"Inputs": ["input0"], "IntermediateIOs": ["intermediate0"]}},
                {"PartIOs": {"Inputs": ["input1"], "IntermediateIOs": ["intermediate0", "intermediate1"]}},
                {"PartIOs": {"Inputs": ["input2"], "IntermediateIOs": ["intermediate1"]}}
            ],
            "IntermediateIOs": ["intermediate0", "intermediate1"],
            "DefMap": [0, 1, 1]
        }));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(netlist.partitions.iter().map(|p| p.def).collect::<Vec<_>>(), [0, 1, 1]);
        assert_eq!(netlist.definitions(), [0, 1]);
        assert_eq!(netlist.def_source, DefSource::DefMap);
        assert_eq!(netlist.partitions[1].intermediates, ["intermediate0", "intermediate1"]);
        assert_eq!(netlist.intermediates.len(), 2);
        assert_eq!(netlist.partitions[2].src.pointer(), "/PartMap/2");
    }

    #[test]
    fn a_part_map_keyed_by_index_and_a_partitions_own_def_id_are_read_too() {
        let (netlist, diags) = read(json!({"PartMap": {
            "10": {"DefId": 47, "PartIOs": {"Inputs": [], "IntermediateIOs": ["x"], "Outputs": ["output0"]}},
            "2": {"def_id": 1, "PartIOs": {"Inputs": ["a"]}}
        }}));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(netlist.partitions.iter().map(|p| p.def).collect::<Vec<_>>(), [1, 47], "in index order");
        assert_eq!(netlist.partitions[1].outputs.as_deref(), Some(&["output0".to_owned()][..]));
        assert_eq!(netlist.def_source, DefSource::Partition);
        let (netlist, _) = read(json!({"PartMap": [{"PartIOs": {}}, {"PartIOs": {}}]}));
        assert_eq!((netlist.definitions(), netlist.def_source), (vec![0, 1], DefSource::Index));
    }

    #[test]
    fn a_partition_of_the_wrong_shape_is_said_where_it_is() {
        let (_, diags) = read(json!({"PartMap": [{"PartIOs": {"Inputs": "input0"}}, 3], "DefMap": "x"}));
        let at: Vec<String> = diags.iter().filter_map(|d| d.src().map(|s| s.pointer().into_owned())).collect();
        assert_eq!(at, ["/DefMap", "/PartMap/0/PartIOs/Inputs", "/PartMap/1"]);
        assert!(diags.iter().all(|d| d.code == Code::WrongType));
    }
}
