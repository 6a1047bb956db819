//! Every diagnostic's JSON pointer turned into a line and column, one scan per file.

use std::collections::BTreeMap;

use crate::diag::{Diagnostic, Location};
use crate::read::input::FileEntry;
use crate::read::json::locate;

/// Turns every diagnostic's source (file + pointer) into a location with line and
/// column: one scan per file, whatever the number of diagnostics. The pipeline does
/// this at its end; a caller that only reads (`birlink print`) calls it itself.
pub fn resolve_locations(files: &[FileEntry], diags: &mut [Diagnostic]) {
    let mut by_file: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, diagnostic) in diags.iter().enumerate() {
        if diagnostic.location.is_none() {
            if let Some(src) = diagnostic.src() {
                by_file.entry(src.file().0).or_default().push(i);
            }
        }
    }
    for (file, indices) in by_file {
        let path = files.get(file as usize).map(|f| f.path.clone()).unwrap_or_default();
        let held = files.get(file as usize).and_then(FileEntry::read_text);
        let text = held.as_deref().map(String::as_str);
        let pointers: Vec<String> =
            indices.iter().filter_map(|&i| diags[i].src().map(|s| s.pointer().into_owned())).collect();
        // The instructions they are in, located in the same scan: their `debug` names
        // the kernel line.
        let instructions: Vec<Option<String>> =
            pointers.iter().map(|p| crate::read::kernel_line::instruction_pointer(p).map(str::to_owned)).collect();
        let spans = match text {
            Some(text) => {
                let mut refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
                refs.extend(instructions.iter().flatten().map(String::as_str));
                locate::locate(text, &refs)
            }
            None => vec![None; pointers.len()],
        };
        let mut at_instruction = pointers.len();
        for (k, ((&i, pointer), span)) in indices.iter().zip(pointers.iter()).zip(spans.iter()).enumerate() {
            diags[i].location = Some(Location {
                file: path.clone(),
                pointer: pointer.clone(),
                line: span.map(|s| s.line),
                column: span.map(|s| s.column),
            });
            if instructions[k].is_some() {
                let span = spans.get(at_instruction).copied().flatten();
                at_instruction += 1;
                if let (Some(text), Some(span)) = (text, span) {
                    diags[i].source = text.get(span.start..span.end).and_then(crate::read::kernel_line::of_text);
                }
            }
        }
    }
}
