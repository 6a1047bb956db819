//! Synthetic SPMD link sets: any number of cores and instructions, with shared-HBM
//! handoffs, remote DMA blocks, barriers, nested loops and unknown keys, optionally with
//! one injected fault per diagnostic code.
//!
//! The shape follows what the seeds say the compiler hands the linker: core 0 owns every
//! shared DRAM tensor (`DRAM_Allocator::mark_remote` leaves the others a view with
//! `allocated: false` and `remote_local_target [name, 0]`, the address already copied
//! by `sync_shared_allocations`); each core has the same functions, blocks, barriers
//! (ids `0..k`) and remote-notifying DMA blocks; a remote DMA block's remote update
//! carries its own core's semaphore id until `vnc_link` relinks it.
//!
//! Deterministic: the same config gives the same bytes (a splitmix64 stream, no clock).
//!
//! Four parts: [`config`] (what to generate, how to lay it out), [`module`] (one
//! core's module), [`faults`] (one injected fault per diagnostic code, an exhaustive
//! `match` over [`Code`], so a new code cannot go without one), [`scenarios`] (failures
//! shaped like the public reports). This file lays the
//! documents out as files, and applies the faults that live in the bytes (truncated or
//! non-UTF-8 files, extra files).

mod config;
mod faults;
mod module;
pub mod samples;
mod scenarios;
pub mod workdir;

use serde_json::{json, Map, Value};

use crate::diag::codes::Code;
use crate::read::input::SourceFile;

pub use config::{GenConfig, Layout};
pub use module::{shared_name, SHARED_BASE, SHARED_STRIDE};
pub use scenarios::Scenario;

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenFile {
    /// Relative path.
    pub path: String,
    /// Content.
    pub bytes: Vec<u8>,
}

impl GenFile {
    /// As a pipeline input.
    pub fn source(&self) -> SourceFile {
        SourceFile { path: self.path.clone(), content: Ok(self.bytes.clone()), role: crate::read::input::Role::Auto }
    }
}

/// The generated documents before layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenSet {
    /// One module per core.
    pub modules: Vec<Value>,
    /// The netlist, if any.
    pub netlist: Option<Value>,
    /// Bundle options.
    pub options: Map<String, Value>,
}

/// Codes a fault can be injected for (every code but BL0010, which is a limit of the
/// build, tested through `LinkOptions::max_input_bytes`).
pub fn fault_codes() -> Vec<Code> {
    Code::ALL.iter().copied().filter(|c| *c != Code::InputTooLarge && !workdir::FAULTS.contains(c)).collect()
}

/// Generates the files of a link set.
pub fn generate(config: &GenConfig, layout: Layout) -> Vec<GenFile> {
    let mut set = generate_set(config);
    let pretty = |value: &Value| {
        if config.compact {
            compact_text(value)
        } else {
            pretty(value)
        }
    };
    let mut extra_files = Vec::new();
    let mut corrupt: Option<(usize, Corruption)> = None;
    match config.fault {
        Some(Code::InvalidJson) => corrupt = Some((1.min(set.modules.len().saturating_sub(1)), Corruption::Truncate)),
        Some(Code::UnreadableFile) => corrupt = Some((1.min(set.modules.len().saturating_sub(1)), Corruption::NotUtf8)),
        Some(Code::ExtraNetlist) => {
            set.netlist = Some(json!({"lnc": config.cores, "name": "first"}));
            extra_files.push(GenFile {
                path: "extra/hlo_netlist.json".to_owned(),
                bytes: pretty(&json!({"lnc": config.cores, "name": "second"})).into_bytes(),
            });
        }
        Some(Code::NotAModule) if layout == Layout::Files => {
            extra_files.push(GenFile { path: "notes.json".to_owned(), bytes: b"[\"this is not a module\"]\n".to_vec() })
        }
        _ => {}
    }
    let mut files = match layout {
        Layout::Bundle => {
            let mut bundle = Map::new();
            bundle.insert("modules".to_owned(), Value::Array(set.modules.clone()));
            if let Some(netlist) = &set.netlist {
                bundle.insert("netlist".to_owned(), netlist.clone());
            }
            if !set.options.is_empty() {
                bundle.insert("options".to_owned(), Value::Object(set.options.clone()));
            }
            let mut text = pretty(&Value::Object(bundle));
            if let Some((_, corruption)) = corrupt {
                text = corruption.apply_text(text);
            }
            let bytes = match corrupt {
                Some((_, Corruption::NotUtf8)) => not_utf8(text),
                _ => text.into_bytes(),
            };
            vec![GenFile { path: "linkset.json".to_owned(), bytes }]
        }
        Layout::Files => {
            // Files have no bundle options; `lnc` travels in the netlist instead.
            if let Some(lnc) = set.options.get("lnc").cloned() {
                let netlist = set.netlist.get_or_insert_with(|| json!({}));
                netlist["lnc"] = lnc;
            }
            let mut files: Vec<GenFile> = set
                .modules
                .iter()
                .enumerate()
                .map(|(i, module)| {
                    let text = pretty(module);
                    let bytes = match corrupt {
                        Some((at, Corruption::Truncate)) if at == i => {
                            Corruption::Truncate.apply_text(text).into_bytes()
                        }
                        Some((at, Corruption::NotUtf8)) if at == i => not_utf8(text),
                        _ => text.into_bytes(),
                    };
                    GenFile { path: format!("nc{i:02}.json"), bytes }
                })
                .collect();
            if let Some(netlist) = &set.netlist {
                files.push(GenFile { path: "hlo_netlist.json".to_owned(), bytes: pretty(netlist).into_bytes() });
            }
            files
        }
    };
    files.extend(extra_files);
    files
}

#[derive(Clone, Copy)]
enum Corruption {
    Truncate,
    NotUtf8,
}

impl Corruption {
    fn apply_text(self, text: String) -> String {
        match self {
            // Cut mid-document, as an interrupted dump would be.
            Corruption::Truncate => text.chars().take(text.chars().count() * 2 / 3).collect(),
            Corruption::NotUtf8 => text,
        }
    }
}

fn not_utf8(text: String) -> Vec<u8> {
    let mut bytes = text.into_bytes();
    let at = bytes.len() / 2;
    // 0xFF never occurs in UTF-8.
    bytes.insert(at, 0xFF);
    bytes
}

/// Compact JSON with a final newline.
fn compact_text(value: &Value) -> String {
    let mut text = value.to_string();
    text.push('\n');
    text
}

/// Pretty JSON with a final newline.
pub fn pretty(value: &Value) -> String {
    crate::output::json::to_pretty_string(value)
}

/// Generates the documents (with any document-level fault applied).
pub fn generate_set(config: &GenConfig) -> GenSet {
    let mut rng = module::Rng::new(config.seed);
    let cores = config.cores.max(1);
    let modules: Vec<Value> = (0..cores).map(|c| module::core_module(config, c, &mut rng)).collect();
    let mut set = GenSet { modules, netlist: None, options: Map::new() };
    if config.netlist {
        set.netlist = Some(json!({"lnc": cores, "name": "nc00", "outputs": ["output"]}));
    }
    if let Some(scenario) = config.scenario {
        scenarios::apply(&mut set, scenario);
    }
    if let Some(fault) = config.fault {
        faults::inject(&mut set, config, fault);
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        let config = GenConfig { unknown_keys: true, ..GenConfig::default() };
        assert_eq!(generate(&config, Layout::Bundle), generate(&config, Layout::Bundle));
        assert_ne!(
            generate(&config, Layout::Bundle),
            generate(&GenConfig { seed: 2, ..config.clone() }, Layout::Bundle)
        );
    }

    #[test]
    fn size_follows_the_config() {
        let set = generate_set(&GenConfig { cores: 3, insts: 2000, ..GenConfig::default() });
        assert_eq!(set.modules.len(), 3);
        let text = pretty(&set.modules[1]);
        let opcodes = text.matches("\"opcode\"").count();
        assert!((2000..2300).contains(&opcodes), "{opcodes} instructions");
    }
}
