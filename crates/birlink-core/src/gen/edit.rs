//! Edits of generated documents by place: module `i`'s first function, its blocks, its
//! instructions of one opcode, an instruction pushed into its first block (what the
//! faults of [`super::faults`] and [`super::sync`] are made of).

use serde_json::{Map, Value};

use super::set::GenSet;

/// The first function of module `i`.
pub(super) fn function_mut(set: &mut GenSet, i: usize) -> Option<&mut Map<String, Value>> {
    set.modules.get_mut(i)?.get_mut("functions")?.get_mut(0)?.as_object_mut()
}

/// Module `i`'s first function's blocks.
pub(super) fn blocks_mut(set: &mut GenSet, i: usize) -> Option<&mut Vec<Value>> {
    function_mut(set, i)?.get_mut("blocks")?.as_array_mut()
}

/// Every instruction (top level of each block) of module `i` with this opcode.
pub(super) fn insts_mut<'a>(set: &'a mut GenSet, i: usize, opcode: &'a str) -> Vec<&'a mut Value> {
    let Some(blocks) = blocks_mut(set, i) else {
        return Vec::new();
    };
    blocks
        .iter_mut()
        .filter_map(|b| b.get_mut("instructions")?.as_array_mut())
        .flatten()
        .filter(|inst| inst.get("opcode").and_then(Value::as_str) == Some(opcode))
        .collect()
}

/// Pushes `inst` at the end of module `i`'s first block.
pub(super) fn push_inst(set: &mut GenSet, i: usize, inst: Value) {
    if let Some(insts) = blocks_mut(set, i)
        .and_then(|b| b.get_mut(0))
        .and_then(|b| b.get_mut("instructions"))
        .and_then(Value::as_array_mut)
    {
        insts.push(inst);
    }
}
