//! A generated link set as files: its documents laid out (one bundle, or one file per
//! core and a netlist; a grid's `ncCC/sgKK/bir.json`), printed compact or indented with
//! keys sorted or not, written as they are printed ([`write_files`]), and the faults that
//! live in the bytes applied (truncated or non-UTF-8 files, extra files).

use crate::model::place::CoreId;
use std::io::Write as _;

use serde_json::{json, Map, Value};

use crate::diag::codes::Code;

use super::config::{GenConfig, Layout};
use super::set::{core_module, netlist, GenFile, GenSet};
use super::{faults, scenarios, workdir};

/// Codes a fault can be injected for (every code but BL0010, which is a limit of the
/// build, tested through `LinkOptions::max_input_bytes`).
pub fn fault_codes() -> Vec<Code> {
    Code::ALL
        .iter()
        .copied()
        .filter(|c| *c != Code::InputTooLarge && *c != Code::SyncLogBarriers && !workdir::FAULTS.contains(c))
        .collect()
}

/// Generates the files of a link set.
pub fn generate(config: &GenConfig, layout: Layout) -> Vec<GenFile> {
    let mut set = generate_set(config);
    let pretty = |value: &Value| document_text(value, config);
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
            let mut options = set.options.clone();
            if config.flow == crate::model::flow::Flow::Seeds {
                // The seeds' reading is only ever asked for (docs/spec/link.md §2).
                options.insert("flow".to_owned(), Value::from("seeds"));
            }
            if !options.is_empty() {
                bundle.insert("options".to_owned(), Value::Object(options));
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
                    GenFile { path: file_of(config, module, i), bytes }
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

/// A document in the config's layout, with a final newline.
fn document_text(value: &Value, config: &GenConfig) -> String {
    let mut out = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = write_document(value, config, &mut out);
    String::from_utf8(out).unwrap_or_default()
}

/// Writes a document in the config's layout (compact or two-space indent, keys sorted
/// or in a producer's order), with a final newline.
fn write_document<W: std::io::Write>(value: &Value, config: &GenConfig, out: &mut W) -> std::io::Result<()> {
    let layout = crate::output::layout::Layout { indent: !config.compact, sorted: config.sorted };
    crate::output::layout::write(value, layout, out)?;
    if config.compact {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Writes the files of a link set one at a time through `open` (a file's relative path
/// to where its bytes go), and returns each file's path and size.
///
/// A set without a fault or a scenario in the files layout is streamed: one core's
/// module is built, written and dropped before the next, so a set larger than memory
/// can be written (the generator never holds it). Anything else is generated whole, as
/// [`generate`] does, and then written: the bytes are the same either way.
pub fn write_files<W: std::io::Write>(
    config: &GenConfig,
    layout: Layout,
    mut open: impl FnMut(&str) -> std::io::Result<W>,
) -> std::io::Result<Vec<(String, u64)>> {
    let mut written = Vec::new();
    let grid = config.flow != crate::model::flow::Flow::Seeds;
    if config.fault.is_some() || config.scenario.is_some() || layout != Layout::Files || grid {
        for file in generate(config, layout) {
            let mut out = open(&file.path)?;
            out.write_all(&file.bytes)?;
            out.flush()?;
            written.push((file.path, file.bytes.len() as u64));
        }
        return Ok(written);
    }
    let mut rng = super::module::Rng::new(config.seed);
    let cores = config.cores.max(1);
    for core in 0..cores {
        let module = core_module(config, core, &mut rng);
        let path = format!("{}.json", CoreId(core));
        let mut out = Counted { inner: open(&path)?, bytes: 0 };
        write_document(&module, config, &mut out)?;
        out.flush()?;
        written.push((path, out.bytes));
    }
    if let Some(netlist) = netlist(config, cores) {
        let path = "hlo_netlist.json".to_owned();
        let mut out = Counted { inner: open(&path)?, bytes: 0 };
        write_document(&netlist, config, &mut out)?;
        out.flush()?;
        written.push((path, out.bytes));
    }
    Ok(written)
}

/// A writer that counts what passes through it.
struct Counted<W> {
    inner: W,
    bytes: u64,
}

impl<W: std::io::Write> std::io::Write for Counted<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A module's file in the files layout: `nc00.json` in the seeds' reading, where the
/// compiler's work directory puts it in its flows (`nc01/sg02/bir.json`).
fn file_of(config: &GenConfig, module: &Value, index: usize) -> String {
    match module.get("name").and_then(Value::as_str) {
        Some(name) if config.flow != crate::model::flow::Flow::Seeds => format!("{name}/bir.json"),
        _ => format!("{}.json", CoreId(index as u64)),
    }
}

/// Generates the documents (with any document-level fault applied).
pub fn generate_set(config: &GenConfig) -> GenSet {
    let mut set = scenarios::clean_set(config);
    if let Some(fault) = config.fault {
        faults::inject(&mut set, config, fault);
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::{pretty, Shape};

    /// The streamed files are the generated ones, byte for byte, in every shape and
    /// layout (and a set with a fault, which is not streamed, too).
    #[test]
    fn streamed_files_are_the_generated_ones() {
        for (compact, sorted, shape, fault) in [
            (false, true, Shape::Gen, None),
            (true, true, Shape::Gen, None),
            (true, false, Shape::Real, None),
            (false, false, Shape::Real, None),
            (false, true, Shape::Real, None),
            (true, true, Shape::Gen, Some(Code::MissingKey)),
        ] {
            let config = GenConfig {
                cores: 3,
                insts: 300,
                netlist: true,
                compact,
                sorted,
                shape,
                fault,
                ..GenConfig::default()
            };
            let generated = generate(&config, Layout::Files);
            let streamed = std::rc::Rc::new(std::cell::RefCell::new(Vec::<GenFile>::new()));
            let sizes = write_files(&config, Layout::Files, |path| {
                streamed.borrow_mut().push(GenFile { path: path.to_owned(), bytes: Vec::new() });
                Ok(Sink(std::rc::Rc::clone(&streamed)))
            })
            .unwrap();
            assert_eq!(*streamed.borrow(), generated, "{config:?}");
            let expected: Vec<(String, u64)> =
                generated.iter().map(|f| (f.path.clone(), f.bytes.len() as u64)).collect();
            assert_eq!(sizes, expected);
        }
    }

    /// Appends to the last file of a list.
    struct Sink(std::rc::Rc<std::cell::RefCell<Vec<GenFile>>>);

    impl std::io::Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if let Some(file) = self.0.borrow_mut().last_mut() {
                file.bytes.extend_from_slice(buf);
            }
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

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
