//! The optional link metadata, `hlo_netlist.json` (spec §1; birlink's own format,
//! since the compiler's keys are not public).
//!
//! `{"lnc": N, "name": "base", "aliases": [{"producer": {"core", "memloc"}, "consumer":
//! {"core", "memloc"}, "kind": 3}], "outputs": ["memloc names that stay external
//! outputs"]}`; every key is optional. Keys other than these are ignored.

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

/// The parsed netlist.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Netlist {
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
pub const NETLIST_KEYS: &[&str] = &["lnc", "name", "aliases", "outputs"];

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
    netlist
}
