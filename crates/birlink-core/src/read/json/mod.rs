//! BIR JSON in. [`read_document`] is the entry: a document is read straight from its
//! text by `direct` (each byte once, each instruction by `fast` where it lies), and what
//! that reader leaves is read by `stream`, serde_json driving, which is also its oracle.
//! Both build `document`'s vocabulary and lower entities through `lower` (with the
//! checks of `checks`); `parse` says why a text is not JSON; `locate` resolves a JSON
//! pointer to a position. Writing is `output::json`.
//!
//! The readers are siblings: this file chooses between them, and neither imports the
//! other (tidy's `the_core_has_no_import_cycle`).

pub(crate) mod checks;
mod direct;
pub mod document;
mod fast;
pub mod locate;
pub mod lower;
mod parse;
mod stream;

pub use document::Document;
pub use parse::{classify, parse, ParseError};

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::model::ir::{FileId, FileText, Module};
use crate::model::uses::Uses;

/// Parses and lowers one document. Diagnostics about its shape are added only when the
/// text is well-formed JSON; otherwise the parse error says it all.
///
/// The document is read straight from its text (`direct`: each byte once); what that
/// reader leaves — text that is not JSON, a container given twice, a root that is not an
/// object — is read with serde_json driving (`stream`), with its words for what is wrong.
pub fn read_document(text: &FileText, file: FileId, diags: &mut Vec<Diagnostic>) -> Result<Document, ParseError> {
    if let Ok((document, mut local)) = direct::read(text, file) {
        diags.append(&mut local);
        return Ok(document);
    }
    read_serde(text, file, diags)
}

/// What [`read_direct_owning`] did with the text it was given.
pub(crate) enum Owned {
    /// Read, with the text when it is still the file's (instructions may be spans of it).
    Read(Document, Vec<Diagnostic>, Option<FileText>),
    /// Left to serde_json ([`read_serde`]): the text, as given.
    Left(FileText),
    /// Left to serde_json after the text was written over: the file must be read again.
    Lost,
}

/// [`read_document`] by the direct reader alone (nothing said when it leaves a text to
/// serde_json: not JSON, a container given twice, …), of a text the caller gives up, and
/// can read again. A document one of whose first instructions is not what the writer
/// prints (a producer's key order) is read in place: each instruction's canonical text written over the bytes it was read from,
/// which its instructions then share, so no second text is held beside the file's.
pub(crate) fn read_direct_owning(text: FileText, file: FileId) -> Owned {
    match direct::read_or_leave_in_place(&text, file) {
        Ok((document, diags)) => Owned::Read(document, diags, Some(text)),
        Err(direct::Left::Serde) => Owned::Left(text),
        Err(direct::Left::InPlace) => match FileText::try_unwrap(text) {
            Ok(text) => match direct::read_in_place(text, file) {
                Some((document, diags)) => Owned::Read(document, diags, None),
                None => Owned::Lost,
            },
            // Held elsewhere too: read as the text it is.
            Err(text) => match direct::read(&text, file) {
                Ok((document, diags)) => Owned::Read(document, diags, Some(text)),
                Err(_) => Owned::Left(text),
            },
        },
    }
}

/// A module read for some of its instructions alone: those whose text `keep` says yes
/// to; everything else of the module is read as [`read_document`] reads it (an entity's
/// history, `tools::history`, reads the instructions that may carry its name). `None`
/// when the direct reader leaves the text (not JSON, or odd): the caller reads it whole.
pub(crate) fn read_keeping(text: &FileText, file: FileId, keep: &dyn Fn(&[u8]) -> bool) -> Option<Document> {
    direct::read_keeping(text, file, false, Some(keep)).ok().map(|(document, _)| document)
}

/// [`read_document`] with serde_json driving, whatever the text: the reader of what the
/// direct one leaves, and its oracle.
pub(crate) fn read_serde(text: &FileText, file: FileId, diags: &mut Vec<Diagnostic>) -> Result<Document, ParseError> {
    stream::read(text, file, diags)
}

/// One text read by both readers, each reading described ([`describe_document`], then
/// the diagnostics): the direct one's (`None` when it leaves the text to this one) and
/// this one's. The direct reader reads it twice, from the text and in place (writing
/// over it): when the two differ, the first reading says so.
pub(crate) fn both_readings(text: &str) -> (Option<String>, String) {
    let text = FileText::new(text.to_owned());
    let describe = |document: &Document, diags: &[Diagnostic]| {
        let diags: Vec<String> = diags
            .iter()
            .map(|d| format!("{:?} {:?} {}", d.code, d.src.0.as_ref().map(|s| s.pointer()), d.message))
            .collect();
        format!("{}{}", describe_document(document), diags.join("\n"))
    };
    let direct = direct::read(&text, FileId(0)).ok().map(|(document, diags)| describe(&document, &diags));
    // Read in place, it must read alike (or be left alike).
    let in_place =
        direct::read_in_place(text.to_string(), FileId(0)).map(|(document, diags)| describe(&document, &diags));
    let direct = match (direct, in_place) {
        (direct, in_place) if direct == in_place => direct,
        (direct, in_place) => Some(format!(
            "the in-place reading differs from the direct one:\n{}\nagainst\n{}",
            in_place.as_deref().unwrap_or("(left to serde_json)"),
            direct.as_deref().unwrap_or("(left to serde_json)")
        )),
    };
    let mut diags = Vec::new();
    let general = match read_serde(&text, FileId(0), &mut diags) {
        Ok(document) => describe(&document, &diags),
        Err(error) => format!("{error:?}"),
    };
    (direct, general)
}

/// Everything a read document holds, as text, for comparing two readings: each
/// module's JSON, its entities in store order with their pointers, its uses, a
/// bundle's other keys, or the value of anything else.
pub(crate) fn describe_document(document: &Document) -> String {
    use std::fmt::Write as _;
    let describe_module = |out: &mut String, module: &Module, uses: &Uses| {
        let _ = writeln!(out, "{}", crate::output::json::module_to_value(module));
        let _ = writeln!(out, "module at {:?}", module.src.as_ref().map(|s| s.pointer()));
        for (handle, inst) in module.store.insts.iter() {
            let pointer = inst.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(
                out,
                "inst {} {} {:?} {} {pointer:?}",
                handle.index(),
                inst.name(),
                inst.op,
                inst.remote_update
            );
        }
        for (handle, block) in module.store.blocks.iter() {
            let pointer = block.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "block {} {} {} {pointer:?}", handle.index(), block.name(), block.insts.len());
        }
        for (handle, function) in module.store.functions.iter() {
            let pointer = function.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "function {} {pointer:?}", handle.index());
        }
        for (handle, queue) in module.store.queues.iter() {
            let pointer = queue.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "queue {} {} {pointer:?}", handle.index(), queue.instances.len());
        }
        for (handle, instance) in module.store.instances.iter() {
            let pointer = instance.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "instance {} {} {pointer:?}", handle.index(), instance.insts.len());
        }
        for (handle, set) in module.store.sets.iter() {
            let pointer = set.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "set {} {} {pointer:?}", handle.index(), set.memlocs.len());
        }
        for (handle, memloc) in module.store.memlocs.iter() {
            let pointer = memloc.src.as_ref().map(|s| s.pointer());
            let _ = writeln!(out, "memloc {} {pointer:?}", handle.index());
        }
        for function in &uses.functions {
            let _ = write!(out, "uses of {:?}:", function.function.map(|f| f.index()));
            for u in &function.uses {
                let _ = write!(out, " {}:{:?}:{}", u.inst.index(), u.kind, uses.name(u.name));
            }
            let _ = writeln!(out);
        }
    };
    let mut out = String::new();
    match document {
        Document::Module(module, uses) => describe_module(&mut out, module, uses),
        Document::Bundle { modules, fields } => {
            let _ = writeln!(out, "bundle {}", Value::Object(fields.clone()));
            for (module, uses) in modules {
                describe_module(&mut out, module, uses);
            }
        }
        Document::Other(value) => {
            let _ = writeln!(out, "other {value}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ir::Inst;

    fn module(text: &FileText) -> Module {
        let mut diags = Vec::new();
        match read_document(text, FileId(0), &mut diags) {
            Ok(Document::Module(module, _)) => *module,
            other => panic!("not a module: {other:?} {diags:?}"),
        }
    }

    const INSTS: &str = r#"[{"name":"a","opcode":"Matmult"},{"opcode":"Activation","name":"b"},{"name":"c","opcode":"Call","target":"f"}]"#;

    #[test]
    fn a_compact_dump_keeps_its_common_instructions_as_spans_of_its_text() {
        let text = FileText::new(format!(
            r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b0","instructions":{INSTS}}}]}}]}}"#
        ));
        let module = module(&text);
        let range = text.as_ptr() as usize..text.as_ptr() as usize + text.len();
        let insts: Vec<&Inst> = module.store.insts.iter().map(|(_, inst)| inst).collect();
        // `a` is canonical: a span, its name inside it, no byte copied.
        let a = insts[0].kept_text().unwrap();
        assert_eq!(a, r#"{"name":"a","opcode":"Matmult"}"#);
        assert!(range.contains(&(a.as_ptr() as usize)));
        assert!(range.contains(&(insts[0].name().as_ptr() as usize)));
        // `b`'s keys are out of order: kept as the writer prints it, a copy.
        let b = insts[1].kept_text().unwrap();
        assert_eq!(b, r#"{"name":"b","opcode":"Activation"}"#);
        assert!(!range.contains(&(b.as_ptr() as usize)));
        assert_eq!(insts[1].name(), "b");
        // A `Call` is parsed: the passes change it.
        assert_eq!(insts[2].kept_text(), None);
        // Pointers share their container's text, and read as before.
        let src = insts[1].src.as_ref().unwrap();
        assert_eq!(src.pointer(), "/functions/0/blocks/0/instructions/1");
        assert_eq!(*src, crate::model::ir::Src::new(FileId(0), "/functions/0/blocks/0/instructions/1"));
    }

    #[test]
    fn a_kept_instruction_changed_by_a_pass_keeps_its_name() {
        let text = FileText::new(format!(
            r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b0","instructions":{INSTS}}}]}}]}}"#
        ));
        let mut module = module(&text);
        let handle = module.store.insts.iter().next().map(|(h, _)| h).unwrap();
        let inst = &mut module.store.insts[handle];
        inst.fields_mut().insert("added".to_owned(), Value::from(1));
        assert_eq!(inst.kept_text(), None);
        assert_eq!(inst.name(), "a");
        assert_eq!(inst.fields().get("added"), Some(&Value::from(1)));
    }

    #[test]
    fn an_indented_instruction_is_kept_as_its_compact_copy() {
        // The first instruction is indented, the second written compactly inside the
        // same pretty file: the first is copied without its whitespace, the second is a
        // span (its own text already is what the writer prints).
        let text = FileText::new(
            "{\n  \"functions\": [{\"name\":\"f\",\"blocks\":[{\"name\":\"b0\",\"instructions\":[\n    {\n      \"opcode\": \"Matmult\",\n      \"name\": \"a\"\n    },\n    {\"name\":\"b\",\"opcode\":\"Activation\"}\n  ]}]}]\n}\n"
                .to_owned(),
        );
        let module = module(&text);
        let range = text.as_ptr() as usize..text.as_ptr() as usize + text.len();
        let insts: Vec<&Inst> = module.store.insts.iter().map(|(_, inst)| inst).collect();
        let a = insts[0].kept_text().unwrap();
        assert_eq!(a, r#"{"name":"a","opcode":"Matmult"}"#);
        assert!(!range.contains(&(a.as_ptr() as usize)));
        assert_eq!(insts[0].name(), "a");
        let b = insts[1].kept_text().unwrap();
        assert!(range.contains(&(b.as_ptr() as usize)));
    }

    #[test]
    fn a_container_given_twice_keeps_the_last_as_a_map_does() {
        // The first `blocks` is streamed before the second is seen: the document is read
        // again from its value, so nothing of the first is left (no instruction, no use).
        let text = FileText::new(
            r#"{"functions":[{"name":"f","blocks":[{"name":"b0","instructions":[{"name":"x","opcode":"Matmult","queue":"q1"}]}],"blocks":[{"name":"b1","instructions":[{"name":"y","opcode":"Matmult"}]}]}]}"#
                .to_owned(),
        );
        let mut diags = Vec::new();
        let Ok(Document::Module(module, uses)) = read_document(&text, FileId(0), &mut diags) else {
            panic!("not a module: {diags:?}")
        };
        let names: Vec<&str> = module.store.insts.iter().map(|(_, inst)| inst.name()).collect();
        assert_eq!(names, ["y"]);
        assert_eq!(module.store.blocks.len(), 1);
        assert!(uses.is_empty(), "{uses:?}");
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[test]
    fn a_producers_order_is_read_in_place_and_its_instructions_share_one_text() {
        let module = |insts: &str| {
            format!(r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b","instructions":[{insts}]}}]}}]}}"#)
        };
        let producer = (0..200)
            .map(|i| format!(r#"{{"opcode":"Matmult","name":"i{i}","engine":"PE"}}"#))
            .collect::<Vec<_>>()
            .join(",");
        let sorted = (0..200)
            .map(|i| format!(r#"{{"engine":"PE","name":"i{i}","opcode":"Matmult"}}"#))
            .collect::<Vec<_>>()
            .join(",");
        let how = |text: String| match read_direct_owning(FileText::new(text), FileId(0)) {
            Owned::Read(document, _, held) => {
                let module = match document {
                    Document::Module(module, _) => *module,
                    Document::Bundle { mut modules, .. } if !modules.is_empty() => modules.swap_remove(0).0,
                    _ => return "no module".to_owned(),
                };
                let texts: Vec<&str> = module.store.insts.iter().filter_map(|(_, inst)| inst.kept_text()).collect();
                // Where the kept texts lie: one text, no longer than their sum, when read in place.
                let first = texts.iter().map(|t| t.as_ptr() as usize).min().unwrap_or(0);
                let last = texts.iter().map(|t| t.as_ptr() as usize + t.len()).max().unwrap_or(0);
                let together = last - first == texts.iter().map(|t| t.len()).sum::<usize>();
                let in_order = texts.iter().all(|t| t.starts_with(r#"{"engine":"PE","name":"i"#));
                match held {
                    Some(_) => format!("read from the text, {} kept, in order {in_order}", texts.len()),
                    None => format!("read in place, {} kept, together {together}, in order {in_order}", texts.len()),
                }
            }
            Owned::Left(_) => "left".to_owned(),
            Owned::Lost => "lost".to_owned(),
        };
        assert_eq!(how(module(&sorted)), "read from the text, 200 kept, in order true");
        assert_eq!(how(module(&producer)), "read in place, 200 kept, together true, in order true");
        // The first few instructions in key order by chance: the next ones tell.
        let few = format!(r#"{{"name":"a","opcode":"Matmult"}},{{"name":"b","opcode":"Activation"}},{producer}"#);
        assert!(how(module(&few)).starts_with("read in place, 202 kept"), "{}", how(module(&few)));
        // A bundle is not written in place; what is not JSON is left, or lost once written over.
        assert_eq!(
            how(format!(r#"{{"modules":[{}]}}"#, module(&producer))),
            "read from the text, 200 kept, in order true"
        );
        let cut = |text: String| text[..text.len() - 3].to_owned();
        assert_eq!(how(cut(module(&sorted))), "left");
        assert_eq!(how(cut(module(&producer))), "lost");
    }

    #[test]
    fn only_the_uses_a_module_does_not_resolve_are_kept_each_judged_by_its_kind() {
        // `m` is a memory location and no queue, `q` a queue, `gone` nothing: a name is
        // judged once per kind, and a kind's answer is not another's.
        let text = FileText::new(
            r#"{"functions":[{"name":"f","allocations":[{"name":"set","kind":"k","addr_space":"a","memorylocations":[{"name":"m","type":"t","addr":0,"bank":0}]}],"blocks":[{"name":"b","instructions":[
                {"name":"i0","opcode":"Matmult","ins":[{"memref":"m"}],"queue":"m"},
                {"name":"i1","opcode":"Matmult","ins":[{"memref":"gone"}],"outs":[{"memref":"m"}]},
                {"name":"i2","opcode":"Matmult","ins":[{"memref":"gone"}],"queue":"q"},
                {"name":"i3","opcode":"Matmult","outs":[{"memref":"set"}],"queue":"m"},
                {"name":"i4","opcode":"Call","target":"m"},
                {"name":"i5","opcode":"Call","target":"f"}]}]}],"queues":[{"name":"q","blocks":[]}]}"#
                .to_owned(),
        );
        let mut diags = Vec::new();
        let Ok(Document::Module(_, uses)) = read_document(&text, FileId(0), &mut diags) else { panic!("{diags:?}") };
        let kept: Vec<String> = uses
            .functions
            .iter()
            .flat_map(|f| &f.uses)
            .map(|u| format!("{} {:?} {}", u.inst.index(), u.kind, uses.name(u.name)))
            .collect();
        assert_eq!(kept, ["0 Queue m", "1 Memref gone", "2 Memref gone", "3 Queue m", "4 Call m"]);
    }

    #[test]
    fn the_reader_says_where_the_sync_checks_keys_are_only_when_it_read_them_in_place() {
        use crate::model::view::JsonView;
        let insts = [
            r#"{"dependencies":[["a","Flow"]],"engine":"PE","name":"plain","opcode":"Matmult","sync_info":{"on_wait":[{"id":4,"wait_value":1}]}}"#,
            r#"{"name":"bare","opcode":"Matmult"}"#,
            r#"{"engine":"DMA","name":"piped","opcode":"SendRecv","pipe_id":3}"#,
            r#"{"dma_blocks":["b"],"engine":"SP","name":"trigger","opcode":"DmaTrigger"}"#,
            r#"{"engine":"Pool","name":"reset","opcode":"GroupResetSemaphores","sema_group":[1]}"#,
            r#"{"name":"jump","opcode":"UnconditionalBranch","target":"b0"}"#,
            r#"{"dependencies":["x\u0041"],"engine":"PE","name":"escaped","opcode":"Matmult"}"#,
        ];
        let compact = FileText::new(format!(
            r#"{{"functions":[{{"name":"f","blocks":[{{"name":"b0","instructions":[{}]}}]}}]}}"#,
            insts.join(",")
        ));
        let read = module(&compact);
        type Keys = Option<(String, String, String)>;
        let found: Vec<(&str, Keys)> = read
            .store
            .insts
            .iter()
            .map(|(_, inst)| {
                let keys = inst.sync_keys().map(|k| {
                    let at = |at: Option<usize>| {
                        at.and_then(|at| {
                            Some(k.text[at..crate::model::view::value_end(k.text.as_bytes(), at)?].to_owned())
                        })
                        .unwrap_or_default()
                    };
                    let engine = k.engine.map(|v| v.compact_text().into_owned()).unwrap_or_default();
                    (engine, at(k.sync_info), at(k.dependencies))
                });
                (inst.name(), keys)
            })
            .collect();
        let plain = (
            r#""PE""#.to_owned(),
            r#"{"on_wait":[{"id":4,"wait_value":1}]}"#.to_owned(),
            r#"[["a","Flow"]]"#.to_owned(),
        );
        assert_eq!(found[0], ("plain", Some(plain)));
        assert_eq!(found[1], ("bare", Some(Default::default())));
        // Another key or opcode the check reads, or an escape (the reader parses such
        // an instruction): walked.
        for (name, keys) in &found[2..] {
            assert_eq!(*keys, None, "{name}");
        }
        // A text the reader wrote again (indented here) has no offsets: walked.
        let pretty = FileText::new(
            serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&compact).unwrap()).unwrap(),
        );
        let read = module(&pretty);
        assert!(read.store.insts.iter().all(|(_, inst)| inst.sync_keys().is_none()));
    }

    #[cfg(target_pointer_width = "64")]
    #[test]
    fn an_instruction_stays_small() {
        // A million instructions: every 8 bytes here is 8 MB of a link set's memory.
        assert!(std::mem::size_of::<Inst>() <= 56, "{}", std::mem::size_of::<Inst>());
        assert!(std::mem::size_of::<Option<crate::model::ir::Src>>() <= 16);
        assert!(std::mem::size_of::<crate::model::uses::Use>() <= 12);
    }
}
