//! The canonical text form of a module: stable, readable, one line per instruction.
//!
//! One printer serves the CLI (`birlink print`, `linked.txt`), the snapshot tests and the
//! UI's before/after diffs (a step's edits are lines printed by the functions here), so
//! the three always agree. The text is a view, not a serialization: it shows what the
//! passes read and write (names, opcodes, operands, sync, barrier ids, placements,
//! aliases, targets); the full JSON of any entity is in `linked.json`.
//!
//! ```text
//! module nc00/sgLnk version=2 arch=gen3
//!
//! function main
//!   block dispatcher
//!     call_def_0_instance_0 = Call @nc00
//! function nc00 core=0 source=sg0000
//!   set out_set: ExternalOutput Shared dtype=bfloat16 shape=[128,512]
//!     out: DRAM addr=4096 bank=0 base=0 allocated alias=[in_set.in kind=3 @nc01]
//!   block Block1
//!     mm0 = Matmult[PE] outs(psum0) ins(a, w) wait[sem 3 sem-ge-imm 1 <- dma0] update[sem 4 sem-inc 1]
//!     cb_return_call_def_0_instance_0 = CoreBarrier id=2 cores=[0,1]
//! ```

use std::fmt::Write as _;

use serde_json::Value;

use crate::diag::describe::compact;
use crate::model::arena::Handle;
use crate::model::ir::{
    opcode, str_field, Allocation, Block, Function, Inst, MemLoc, MemLocSet, Module, Queue, QueueInstance,
};
use crate::model::view::{JsonType, JsonView, Text};

/// The canonical text of a linked set: each module's text in core order, a blank line
/// between them (the seeds' one module: its text).
pub fn set_text(set: &crate::model::linked::LinkedSet) -> String {
    let texts: Vec<String> = set.iter().map(module_text).collect();
    texts.join("\n")
}

/// The canonical text of a whole module: functions, then queues.
pub fn module_text(module: &Module) -> String {
    module_text_in_units(module).0
}

/// A module's canonical text and where its units begin (byte offsets): the module's
/// line at 0, then each function's and each queue's header line, a blank line before
/// each — the places a difference between two modules is said to be in.
pub fn module_text_in_units(module: &Module) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(module.store.insts.len() * 64 + 256);
    let mut starts = Vec::with_capacity(1 + module.functions.len() + module.queues.len());
    starts.push(0);
    out.push_str(&module_line(module));
    out.push('\n');
    for &function in &module.functions {
        out.push('\n');
        starts.push(out.len());
        function_text(module, function, &mut out);
    }
    for &queue in &module.queues {
        out.push('\n');
        starts.push(out.len());
        queue_text(module, queue, &mut out);
    }
    (out, starts)
}

/// Appends the text of one function (header, sets, blocks).
pub fn function_text(module: &Module, function: Handle<Function>, out: &mut String) {
    out.push_str(&function_line(module, function));
    out.push('\n');
    let f = &module.store.functions[function];
    for allocation in &f.allocations {
        match allocation {
            Allocation::Set(set) => {
                let _ = writeln!(out, "  {}", set_line(module, *set));
                for &memloc in &module.store.sets[*set].memlocs {
                    let _ = writeln!(out, "    {}", memloc_line(module, memloc));
                }
            }
            Allocation::Other(value) => {
                let kind = value.get("Skind").and_then(Value::as_str).unwrap_or("storage");
                let name = value.get("name").and_then(Value::as_str).unwrap_or("");
                let _ = writeln!(out, "  {kind} {}", name_text(name));
            }
        }
    }
    blocks_text(module, &f.blocks, 1, out);
}

fn blocks_text(module: &Module, blocks: &[Handle<Block>], depth: usize, out: &mut String) {
    for &block in blocks {
        indent(out, depth);
        out.push_str(&block_line(module, block));
        out.push('\n');
        for &inst in &module.store.blocks[block].insts {
            indent(out, depth + 1);
            out.push_str(&inst_line(module, inst));
            out.push('\n');
            if let Some(body) = &module.store.insts[inst].body {
                blocks_text(module, body, depth + 2, out);
            }
        }
    }
}

/// Appends the text of one queue and its instances.
pub fn queue_text(module: &Module, queue: Handle<Queue>, out: &mut String) {
    out.push_str(&queue_line(module, queue));
    out.push('\n');
    for &instance in &module.store.queues[queue].instances {
        let _ = writeln!(out, "  {}", instance_line(module, instance));
        for &inst in &module.store.instances[instance].insts {
            let _ = writeln!(out, "    {}", inst_line(module, inst));
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// `module <name> version=<v> arch=<a>`.
pub fn module_line(module: &Module) -> String {
    let mut line = String::from("module");
    match str_field(&module.fields, "name") {
        Some(name) => {
            let _ = write!(line, " {}", name_text(name));
        }
        None => line.push_str(" (unnamed)"),
    }
    if let Some(version) = module.fields.get("version") {
        let _ = write!(line, " version={}", compact(version));
    }
    if let Some(arch) = module.fields.get("arch") {
        let _ = write!(line, " arch={}", scalar_text(arch));
    }
    if let Some(core) = module.core_id() {
        let _ = write!(line, " core={core}");
    }
    line
}

/// `function <name> core=<c> source=<original name>`.
pub fn function_line(module: &Module, function: Handle<Function>) -> String {
    let f = &module.store.functions[function];
    let mut line = format!("function {}", name_text(f.name()));
    if let Some(core) = f.core() {
        let _ = write!(line, " core={core}");
    }
    if let Some(source) = str_field(&f.fields, "source_function") {
        let _ = write!(line, " source={}", name_text(source));
    }
    line
}

/// `set <name>: <kind> <addr_space> dtype=<t> shape=[…]`.
pub fn set_line(module: &Module, set: Handle<MemLocSet>) -> String {
    let s = &module.store.sets[set];
    let mut line = format!("set {}: {} {}", name_text(&s.name(&module.store)), s.kind(), s.addr_space());
    if let Some(dtype) = s.fields.get("dtype") {
        let _ = write!(line, " dtype={}", scalar_text(dtype));
    }
    if let Some(shape) = s.fields.get("tensor_shape") {
        let _ = write!(line, " shape={}", compact(shape));
    }
    line
}

/// `<name>: <type> addr=… bank=… base=… allocated|unallocated remote=… alloced_func=… alias=[…]`.
pub fn memloc_line(module: &Module, memloc: Handle<MemLoc>) -> String {
    let m = &module.store.memlocs[memloc];
    let tuple = m.phys_tuple("");
    let mut line = format!(
        "{}: {} addr={} bank={} base={} {}",
        name_text(m.name()),
        tuple.mem_type,
        tuple.addr,
        tuple.bank,
        tuple.base,
        if tuple.allocated { "allocated" } else { "unallocated" }
    );
    if let Some(target) = m.fields.get("remote_local_target") {
        match m.remote_target() {
            Some(target) => {
                let _ = write!(line, " remote={}@core{}", name_text(&target.name), target.core);
            }
            None => {
                let _ = write!(line, " remote={}", compact(target));
            }
        }
    }
    if let Some(function) = str_field(&m.fields, "alloced_func") {
        let _ = write!(line, " alloced_func={}", name_text(function));
    }
    let aliases = m.aliases();
    if !aliases.is_empty() {
        let items: Vec<String> = aliases
            .iter()
            .map(|a| {
                let mut item = if a.set.is_empty() {
                    name_text(&a.memloc)
                } else {
                    format!("{}.{}", name_text(&a.set), name_text(&a.memloc))
                };
                let _ = write!(item, " kind={}", a.kind);
                if let Some(function) = &a.function {
                    let _ = write!(item, " @{}", name_text(function));
                }
                item
            })
            .collect();
        let _ = write!(line, " alias=[{}]", items.join(", "));
    }
    line
}

/// `block <name>`.
pub fn block_line(module: &Module, block: Handle<Block>) -> String {
    format!("block {}", name_text(module.store.blocks[block].name()))
}

/// `queue <name>` and its queue-level scalar keys.
pub fn queue_line(module: &Module, queue: Handle<Queue>) -> String {
    let q = &module.store.queues[queue];
    let mut line = format!("queue {}", name_text(q.name()));
    for (key, value) in &q.fields {
        if key != "name" && !value.is_object() && !value.is_array() {
            let _ = write!(line, " {key}={}", scalar_text(value));
        }
    }
    line
}

/// `instance <name> core=<c>`.
pub fn instance_line(module: &Module, instance: Handle<QueueInstance>) -> String {
    let i = &module.store.instances[instance];
    let mut line = format!("instance {}", name_text(i.name().unwrap_or("(unnamed)")));
    if let Some(core) = i.core() {
        let _ = write!(line, " core={core}");
    }
    line
}

/// One instruction on one line: `<name> = <Opcode>[<engine>] <operands> <sync> <deps>`.
pub fn inst_line(module: &Module, inst: Handle<Inst>) -> String {
    let i: &Inst = &module.store.insts[inst];
    match i.kept_text() {
        // A kept instruction is read as its canonical text: no map is built to print it
        // (what a text of every instruction, or a comparison, does a million times).
        // Its members are found once; each key is then looked up among them.
        Some(text) if !text.contains('\\') => {
            let members: Vec<(&str, Text)> = Text(text).members().collect();
            inst_line_of(i.name(), |key| members.iter().find(|(k, _)| *k == key).map(|&(_, value)| value))
        }
        _ => {
            let fields = i.fields();
            inst_line_of(i.name(), |key| fields.get(key))
        }
    }
}

/// [`inst_line`] of an instruction named `name` whose keys `get` reads.
fn inst_line_of<'a, V: JsonView<'a>>(name: &str, get: impl Fn(&str) -> Option<V>) -> String {
    let string = |key: &str| get(key).and_then(V::as_str);
    let op = string("opcode").unwrap_or("");
    let mut line = format!("{} = {}", name_text(name), if op.is_empty() { "?" } else { op });
    if let Some(engine) = string("engine") {
        if engine != "Unassigned" {
            let _ = write!(line, "[{engine}]");
        }
    }
    match op {
        opcode::CALL => {
            if let Some(target) = string("target") {
                let _ = write!(line, " @{}", name_text(target));
            }
        }
        opcode::CORE_BARRIER => {
            match get("id") {
                Some(id) => {
                    let _ = write!(line, " id={}", short(id));
                }
                None => line.push_str(" id=none"),
            }
            if let Some(cores) = get("cores") {
                let _ = write!(line, " cores={}", short(cores));
            }
        }
        opcode::SWITCH_QUEUE_INSTANCE => {
            if let Some(queue) = get("queue") {
                let _ = write!(line, " queue={}", scalar_text(queue));
            }
            if let Some(instance) = get("instance") {
                let _ = write!(line, " instance={}", scalar_text(instance));
            }
        }
        opcode::LOOP => {
            if let Some(axis) = get("LoopAxis") {
                let part = |key: &str| axis.get(key).map(short).unwrap_or_else(|| "?".to_owned());
                let name = axis.get("name").and_then(V::as_str).unwrap_or("i");
                let _ =
                    write!(line, " {} in [{}, {}) step {}", name_text(name), part("lb"), part("ub"), part("stride"));
            }
        }
        opcode::COMPARE_AND_BRANCH => {
            if let (Some(t), Some(f)) = (get("on_true"), get("on_false")) {
                let _ = write!(line, " ? {} : {}", scalar_text(t), scalar_text(f));
            }
        }
        opcode::UNCONDITIONAL_BRANCH => {
            if let Some(target) = get("target") {
                let _ = write!(line, " -> {}", scalar_text(target));
            }
        }
        _ => {
            if let Some(queue) = get("queue") {
                let _ = write!(line, " queue={}", scalar_text(queue));
            }
        }
    }
    if let Some(notifications) = get("remote_notifications") {
        let _ = write!(line, " remote_notifications={}", short(notifications));
    }
    operands(&mut line, "outs", get("outs"));
    operands(&mut line, "ins", get("ins"));
    if let Some(sync) = get("sync_info") {
        for (key, label) in [("on_wait", "wait"), ("on_update", "update")] {
            let Some(entries) = sync.get(key).filter(|e| e.json_type() == JsonType::Array) else { continue };
            let mut items: Vec<String> = Vec::new();
            entries.for_each_element(&mut |entry| {
                items.push(if key == "on_wait" { wait_text(entry) } else { update_text(entry) })
            });
            if !items.is_empty() {
                let _ = write!(line, " {label}[{}]", items.join(", "));
            }
        }
    }
    if let Some(deps) = get("dependencies").filter(|d| d.json_type() == JsonType::Array) {
        let mut names: Vec<String> = Vec::new();
        deps.for_each_element(&mut |d| {
            names.push(if d.json_type() == JsonType::Array {
                let mut first = None;
                d.for_each_element(&mut |item| {
                    first.get_or_insert(item);
                });
                first.map(scalar_text).unwrap_or_default()
            } else {
                scalar_text(d)
            })
        });
        if !names.is_empty() {
            let _ = write!(line, " deps({})", names.join(", "));
        }
    }
    line
}

fn operands<'a, V: JsonView<'a>>(line: &mut String, key: &str, value: Option<V>) {
    let Some(items) = value.filter(|v| v.json_type() == JsonType::Array) else {
        return;
    };
    let mut names: Vec<String> = Vec::new();
    items.for_each_element(&mut |operand| names.push(operand_text(operand)));
    if !names.is_empty() {
        let _ = write!(line, " {key}({})", names.join(", "));
    }
}

fn operand_text<'a, V: JsonView<'a>>(operand: V) -> String {
    for key in ["memref", "memsetref", "regref"] {
        if let Some(name) = operand.get(key).filter(|v| v.json_type() == JsonType::String).and_then(V::as_str) {
            return name_text(name);
        }
    }
    if let Some(value) = operand.get("value") {
        return format!("#{}", short(value));
    }
    "?".to_owned()
}

fn sync_ref<'a, V: JsonView<'a>>(entry: V) -> String {
    let kind = match entry.get("type").and_then(V::as_str) {
        Some("event") => "evt",
        _ => "sem",
    };
    let id = entry.get("id").map(short).unwrap_or_else(|| "?".to_owned());
    format!("{kind} {id}")
}

fn wait_text<'a, V: JsonView<'a>>(entry: V) -> String {
    let mut text = sync_ref(entry);
    if let Some(mode) = entry.get("mode").and_then(V::as_str) {
        let _ = write!(text, " {mode}");
    }
    if let Some(value) = entry.get("wait_value") {
        let _ = write!(text, " {}", short(value));
    }
    if let Some(from) = entry.get("from") {
        let _ = write!(text, " <- {}", scalar_text(from));
    }
    text
}

fn update_text<'a, V: JsonView<'a>>(entry: V) -> String {
    let mut text = sync_ref(entry);
    if let Some(mode) = entry.get("mode").and_then(V::as_str) {
        let _ = write!(text, " {mode}");
    }
    if let Some(value) = entry.get("update_value") {
        let _ = write!(text, " {}", short(value));
    }
    if let Some(core) = entry.get("target_core") {
        let _ = write!(text, " -> core {}", short(core));
    }
    text
}

/// A value's compact text, cut at 60 characters (as `diag::describe::compact` cuts it).
fn short<'a, V: JsonView<'a>>(value: V) -> String {
    let text = value.compact_text();
    if text.chars().count() > 60 {
        let cut: String = text.chars().take(57).collect();
        format!("{cut}...")
    } else {
        text.into_owned()
    }
}

/// A name as it appears in the text: bare when unambiguous, else JSON-quoted.
pub fn name_text(name: &str) -> String {
    let bare = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "_-./:@#$%+<>!?&*^~|'".contains(c));
    if bare {
        name.to_owned()
    } else {
        Value::from(name).to_string()
    }
}

fn scalar_text<'a, V: JsonView<'a>>(value: V) -> String {
    match value.as_str() {
        Some(s) if value.json_type() == JsonType::String => name_text(s),
        _ => short(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_quoted_only_when_needed() {
        assert_eq!(name_text("inst__I-3-0:src"), "inst__I-3-0:src");
        assert_eq!(name_text("nc00/sgLnk"), "nc00/sgLnk");
        assert_eq!(name_text("a b"), "\"a b\"");
        assert_eq!(name_text(""), "\"\"");
        assert_eq!(name_text("<script>x=1</script>"), "\"<script>x=1</script>\"");
    }
}
