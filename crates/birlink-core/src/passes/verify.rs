//! `verify`: the pre-link checks (contract §2; LncVerifier in `../reference/bir-wire-format.md` §9).
//!
//! Four groups, in order:
//!
//! 1. **identity** — every module has a core id when there is more than one (1203), ids
//!    are distinct (BL0101) and in `0..N-1` (BL0102), module names are distinct and not
//!    `main` (BL0104), every module has a function to clone (BL0105). Errors: linking is
//!    impossible without them.
//! 2. **names** — no two functions of a module, blocks/sets/memory locations of a
//!    function, queues of a module or instances of a queue share a name (BL0103, error:
//!    references by name would be ambiguous).
//! 3. **references** — queue, queue-instance, block, memory-location, call-target and
//!    dependency names resolve inside their module (BL0201–BL0206, warnings, as the
//!    passes do not need them; at most [`MAX_PER_CODE`] per module and code).
//! 4. **lnc_verifier** — the LncVerifier invariants 1187–1189 and 1191–1198 across cores,
//!    as warnings: the compiler asserts them, but the link itself is still possible.
//!
//! Nothing is changed; the pass only reports.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use rustc_hash::{FxHashMap, FxHashSet};

use serde_json::Value;

use crate::arena::Handle;
use crate::codes::Code;
use crate::diag::{has_errors, Diagnostic};
use crate::input::{CoreModule, LinkSet};
use crate::ir::{Allocation, Module, Op, Src};
use crate::report::StepRow;
use crate::uses::UseKind;

/// The pass name.
pub const NAME: &str = "verify";

/// At most this many reference warnings of one code per module; the rest are counted.
pub const MAX_PER_CODE: usize = 20;

/// What `verify` concluded.
#[derive(Debug)]
pub struct Verified {
    /// The core id of each module of the link set (same order), when identity holds.
    pub cores: Option<Vec<u64>>,
    /// The pass's steps (all with zero changes).
    pub steps: Vec<StepRow>,
    /// Whether it reported an error.
    pub failed: bool,
}

/// Runs every check over the link set's modules.
pub fn run(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> Verified {
    let start = diags.len();
    let cores = identity(set, diags);
    for module in &set.modules {
        names(module, diags);
    }
    for module in &set.modules {
        references(module, diags);
    }
    if let Some(cores) = &cores {
        if set.modules.len() > 1 {
            lnc_verifier(set, cores, diags);
        }
    }
    let steps = ["identity", "names", "references", "lnc_verifier"]
        .iter()
        .map(|name| StepRow { name: (*name).to_owned(), changes: 0, edits: Vec::new() })
        .collect();
    let failed = has_errors(&diags[start..]);
    Verified { cores: if failed { None } else { cores }, steps, failed }
}

fn identity(set: &LinkSet, diags: &mut Vec<Diagnostic>) -> Option<Vec<u64>> {
    let n = set.modules.len() as u64;
    let mut ok = true;
    let mut cores = Vec::with_capacity(set.modules.len());
    let mut seen: BTreeMap<u64, &CoreModule> = BTreeMap::new();
    for module in &set.modules {
        let src = module.module.src.as_ref();
        let core = match module.core {
            Some(core) => core,
            None if n == 1 => 0,
            None => {
                ok = false;
                let diagnostic = Diagnostic::new(
                    Code::MissingCoreId,
                    NAME,
                    format!("module `{}` has no `attributes.neuron_core_id` and {n} modules are linked", module.name),
                )
                .entity("module", &module.name, None);
                diags.push(if module.module.fields.contains_key("attributes") {
                    diagnostic.at_key(src, "attributes")
                } else {
                    diagnostic.at(src)
                });
                continue;
            }
        };
        if core >= n {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::CoreOutOfRange,
                    NAME,
                    format!("module `{}` has core id {core}, but {n} module(s) make cores 0..{}", module.name, n - 1),
                )
                .core(core)
                .at(src)
                .entity("module", &module.name, None)
                .help(format!(
                    "give the module(s) of the missing core(s), or fix the core id; with {n} modules the ids are 0..{}",
                    n - 1
                )),
            );
        }
        if let Some(first) = seen.get(&core) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateCore,
                    NAME,
                    format!("modules `{}` and `{}` both have core id {core}", first.name, module.name),
                )
                .core(core)
                .at(src)
                .entity("module", &module.name, None)
                .note(format!("`{}` is in `{}`", first.name, set.path(first.file)))
                .note(format!("`{}` is in `{}`", module.name, set.path(module.file))),
            );
        } else {
            seen.insert(core, module);
        }
        cores.push(core);
    }
    let mut names: HashMap<&str, &CoreModule> = HashMap::new();
    for module in &set.modules {
        let src = module.module.src.as_ref();
        if module.name == "main" {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateModuleName,
                    NAME,
                    "module name `main` collides with the dispatcher function `main`",
                )
                .at(src)
                .entity("module", &module.name, None)
                .help("rename the module (its `name` key or its file)"),
            );
        }
        if let Some(first) = names.insert(&module.name, module) {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::DuplicateModuleName,
                    NAME,
                    format!(
                        "two modules are named `{}` (in `{}` and `{}`)",
                        module.name,
                        set.path(first.file),
                        set.path(module.file)
                    ),
                )
                .at(src)
                .entity("module", &module.name, None),
            );
        }
        if !crate::partition::Partitions::of(&module.module).is_empty() {
            ok = false;
            diags.push(
                Diagnostic::new(
                    Code::AlreadyLinked,
                    NAME,
                    format!(
                        "module `{}` is already linked: its functions carry `attributes.neuron_core_id`",
                        module.name
                    ),
                )
                .at(src)
                .entity("module", &module.name, None),
            );
        }
        if module.module.functions.is_empty() {
            ok = false;
            diags.push(
                Diagnostic::new(Code::NoFunctions, NAME, format!("module `{}` has no functions to link", module.name))
                    .at(src)
                    .entity("module", &module.name, None),
            );
        }
    }
    ok.then_some(cores)
}

/// Reports the second and later holders of a name.
struct Unique<'a> {
    seen: HashSet<&'a str>,
}

impl<'a> Unique<'a> {
    fn new() -> Self {
        Unique { seen: HashSet::new() }
    }

    fn check(&mut self, name: &'a str, what: &str, container: &str, src: Option<&Src>, diags: &mut Vec<Diagnostic>) {
        if name.is_empty() {
            return;
        }
        if !self.seen.insert(name) {
            diags.push(
                Diagnostic::new(Code::DuplicateName, NAME, format!("{container} has two {what}s named `{name}`"))
                    .at(src)
                    .entity(what, name, None),
            );
        }
    }
}

fn names(core_module: &CoreModule, diags: &mut Vec<Diagnostic>) {
    let module = &core_module.module;
    let store = &module.store;
    let mut functions = Unique::new();
    let module_what = format!("module `{}`", core_module.name);
    for &function in &module.functions {
        let f = &store.functions[function];
        functions.check(f.name(), "function", &module_what, f.src.as_ref(), diags);
        let function_what = format!("function `{}` of module `{}`", f.name(), core_module.name);
        let mut sets = Unique::new();
        let mut memlocs = Unique::new();
        let set_names: Vec<(String, Handle<crate::ir::MemLocSet>)> = f
            .allocations
            .iter()
            .filter_map(|a| match a {
                Allocation::Set(set) => Some((store.sets[*set].name(store), *set)),
                Allocation::Other(_) => None,
            })
            .collect();
        for (name, set) in &set_names {
            sets.check(name, "set", &function_what, store.sets[*set].src.as_ref(), diags);
            for &memloc in &store.sets[*set].memlocs {
                let m = &store.memlocs[memloc];
                memlocs.check(m.name(), "memloc", &function_what, m.src.as_ref(), diags);
            }
        }
        let mut blocks = Unique::new();
        module.walk_function_blocks(function, &mut |block| {
            let b = &store.blocks[block];
            blocks.check(b.name(), "block", &function_what, b.src.as_ref(), diags);
        });
    }
    let mut queues = Unique::new();
    for &queue in &module.queues {
        let q = &store.queues[queue];
        queues.check(q.name(), "queue", &module_what, q.src.as_ref(), diags);
        let queue_what = format!("queue `{}` of module `{}`", q.name(), core_module.name);
        let effective: Vec<(String, Option<&Src>)> = q
            .instances
            .iter()
            .enumerate()
            .map(|(i, &instance)| {
                let inst = &store.instances[instance];
                (instance_source_name(q.name(), inst.name(), i), inst.src.as_ref())
            })
            .collect();
        let mut instances = Unique::new();
        for (name, src) in &effective {
            instances.check(name, "instance", &queue_what, *src, diags);
        }
    }
}

/// A queue instance's name in its module: its `name`, or `<queue>_<index>` (contract §3.8).
pub fn instance_source_name(queue: &str, name: Option<&str>, index: usize) -> String {
    match name {
        Some(name) => name.to_owned(),
        None => format!("{queue}_{index}"),
    }
}

/// Caps reference warnings per code, then reports how many were left out.
struct Capped<'d> {
    diags: &'d mut Vec<Diagnostic>,
    counts: BTreeMap<&'static str, usize>,
    module: String,
}

impl Capped<'_> {
    fn push(&mut self, code: Code, diagnostic: impl FnOnce() -> Diagnostic) {
        let count = self.counts.entry(code.as_str()).or_insert(0);
        *count += 1;
        if *count <= MAX_PER_CODE {
            self.diags.push(diagnostic());
        }
    }

    fn finish(self) {
        for (code, count) in self.counts {
            if count > MAX_PER_CODE {
                if let Some(code) = Code::parse(code) {
                    self.diags.push(Diagnostic::new(
                        code,
                        NAME,
                        format!(
                            "{} more `{}` findings in module `{}` are not shown",
                            count - MAX_PER_CODE,
                            code.as_str(),
                            self.module
                        ),
                    ));
                }
            }
        }
    }
}

/// Judges the names the reader recorded (`CoreModule::uses`) against what the module
/// defines. Only reporting touches the instructions again.
fn references(core_module: &CoreModule, diags: &mut Vec<Diagnostic>) {
    let module = &core_module.module;
    let store = &module.store;
    let uses = &core_module.uses;
    let mut queue_instances: FxHashMap<&str, FxHashSet<String>> = FxHashMap::default();
    for &queue in &module.queues {
        let q = &store.queues[queue];
        let names = queue_instances.entry(q.name()).or_default();
        for (i, &instance) in q.instances.iter().enumerate() {
            names.insert(instance_source_name(q.name(), store.instances[instance].name(), i));
        }
    }
    let set_names: Vec<String> = store.sets.iter().map(|(_, s)| s.name(store)).collect();
    let mut storage: FxHashSet<&str> = store.memlocs.iter().map(|(_, m)| m.name()).collect();
    storage.extend(set_names.iter().map(String::as_str));
    let functions: FxHashSet<&str> = module.functions.iter().map(|&f| store.functions[f].name()).collect();
    let mut out = Capped { diags, counts: BTreeMap::new(), module: core_module.name.clone() };
    for function_uses in &uses.functions {
        let Some(function) = function_uses.function else { continue };
        let fname = store.functions[function].name();
        let mut blocks: FxHashSet<&str> = FxHashSet::default();
        module.walk_function_blocks(function, &mut |b| {
            blocks.insert(store.blocks[b].name());
        });
        for u in &function_uses.uses {
            let name = uses.name(u.name);
            let inst = &store.insts[u.inst];
            let what = || format!("instruction `{}` in function `{fname}`", inst.name());
            let found = match u.kind {
                UseKind::Queue => queue_instances.contains_key(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownQueue,
                        format!("{} uses queue `{name}`, which module `{}` does not have", what(), core_module.name),
                    )
                }),
                UseKind::Instance { queue } => {
                    let queue = uses.name(queue);
                    match queue_instances.get(queue) {
                        Some(instances) if !instances.contains(name) => Err((
                            Code::UnknownQueueInstance,
                            format!("{} switches to instance `{name}`, which queue `{queue}` does not have", what()),
                        )),
                        _ => Ok(()),
                    }
                }
                UseKind::Block => blocks.contains(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownBlock,
                        format!("{} branches to block `{name}`, which the function does not have", what()),
                    )
                }),
                UseKind::Memref => storage.contains(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownMemloc,
                        format!(
                            "{} reads or writes `{name}`, which module `{}` does not allocate",
                            what(),
                            core_module.name
                        ),
                    )
                }),
                UseKind::Call => functions.contains(name).then_some(()).ok_or_else(|| {
                    (
                        Code::UnknownCallTarget,
                        format!("{} calls `{name}`, which module `{}` does not have", what(), core_module.name),
                    )
                }),
                UseKind::MissingDependency => Err((
                    Code::UnknownDependency,
                    format!("{} depends on `{name}`, which the function does not have", what()),
                )),
            };
            if let Err((code, message)) = found {
                out.push(code, || {
                    Diagnostic::new(code, NAME, message).at(inst.src.as_ref()).entity(
                        "instruction",
                        inst.name(),
                        Some(fname),
                    )
                });
            }
        }
    }
    out.finish();
}

/// What the LncVerifier compares across cores.
struct CoreSummary<'m> {
    core: u64,
    name: &'m str,
    module: &'m Module,
    functions: Vec<(&'m str, Vec<&'m str>)>,
    barriers: Vec<(&'m str, Option<u64>, Option<&'m Src>)>,
    sb2sb: usize,
    /// Shared post-DRAM-alloc locations: name, address, remote target, src.
    shared: Vec<(&'m str, u64, Option<crate::ir::RemoteTarget>, Option<&'m Src>)>,
}

fn summarize<'m>(core: u64, core_module: &'m CoreModule) -> CoreSummary<'m> {
    let module = &core_module.module;
    let store = &module.store;
    let mut summary = CoreSummary {
        core,
        name: &core_module.name,
        module,
        functions: Vec::new(),
        barriers: Vec::new(),
        sb2sb: 0,
        shared: Vec::new(),
    };
    for &function in &module.functions {
        let mut blocks = Vec::new();
        module.walk_function_blocks(function, &mut |b| blocks.push(store.blocks[b].name()));
        summary.functions.push((store.functions[function].name(), blocks));
        module.walk_function(function, &mut |i| {
            let inst = &store.insts[i];
            match inst.op {
                Op::CoreBarrier => summary.barriers.push((
                    inst.name(),
                    inst.fields().get("id").and_then(Value::as_u64),
                    inst.src.as_ref(),
                )),
                Op::Sb2Sb => summary.sb2sb += 1,
                _ => {}
            }
        });
        for allocation in &store.functions[function].allocations {
            if let Allocation::Set(set) = allocation {
                for &memloc in &store.sets[*set].memlocs {
                    let m = &store.memlocs[memloc];
                    if m.fields.get("is_shared_post_dram_alloc").and_then(Value::as_bool) == Some(true) {
                        let addr = m.fields.get("addr").and_then(Value::as_u64).unwrap_or(0);
                        summary.shared.push((m.name(), addr, m.remote_target(), m.src.as_ref()));
                    }
                }
            }
        }
    }
    summary
}

fn lnc_verifier(set: &LinkSet, cores: &[u64], diags: &mut Vec<Diagnostic>) {
    let mut summaries: Vec<CoreSummary<'_>> =
        set.modules.iter().zip(cores).map(|(module, &core)| summarize(core, module)).collect();
    summaries.sort_by_key(|s| s.core);
    let Some((first, rest)) = summaries.split_first() else {
        return;
    };
    let msrc = |s: &CoreSummary<'_>| s.module.src.clone();
    for other in rest {
        let c = other.core;
        if other.functions.len() != first.functions.len() {
            diags.push(
                Diagnostic::new(
                    Code::FunctionCountMismatch,
                    NAME,
                    format!(
                        "core {c} (`{}`) has {} function(s), core {} (`{}`) has {}",
                        other.name,
                        other.functions.len(),
                        first.core,
                        first.name,
                        first.functions.len()
                    ),
                )
                .core(c)
                .at(msrc(other).as_ref()),
            );
        }
        for (fname, blocks0) in &first.functions {
            let Some((_, blocks)) = other.functions.iter().find(|(n, _)| n == fname) else {
                diags.push(
                    Diagnostic::new(
                        Code::FunctionMissing,
                        NAME,
                        format!("core {c} (`{}`) has no function `{fname}`, which core {} has", other.name, first.core),
                    )
                    .core(c)
                    .at(msrc(other).as_ref())
                    .entity("function", fname, None),
                );
                continue;
            };
            if blocks.len() != blocks0.len() {
                diags.push(
                    Diagnostic::new(
                        Code::BlockCountMismatch,
                        NAME,
                        format!(
                            "function `{fname}` has {} block(s) on core {c} and {} on core {}",
                            blocks.len(),
                            blocks0.len(),
                            first.core
                        ),
                    )
                    .core(c)
                    .at(msrc(other).as_ref())
                    .entity("function", fname, None),
                );
            } else if let Some(i) = (0..blocks.len()).find(|&i| blocks[i] != blocks0[i]) {
                diags.push(
                    Diagnostic::new(
                        Code::BlockOrderMismatch,
                        NAME,
                        format!(
                            "block {i} of function `{fname}` is `{}` on core {c} but `{}` on core {}",
                            blocks[i], blocks0[i], first.core
                        ),
                    )
                    .core(c)
                    .at(msrc(other).as_ref())
                    .entity("block", blocks[i], Some(fname)),
                );
            }
        }
        if other.barriers.len() != first.barriers.len() {
            diags.push(
                Diagnostic::new(
                    Code::BarrierCountMismatch,
                    NAME,
                    format!(
                        "core {c} (`{}`) has {} CoreBarrier(s), core {} has {}",
                        other.name,
                        other.barriers.len(),
                        first.core,
                        first.barriers.len()
                    ),
                )
                .core(c)
                .at(msrc(other).as_ref()),
            );
        }
        if let Some(i) =
            (0..other.barriers.len().min(first.barriers.len())).find(|&i| other.barriers[i].0 != first.barriers[i].0)
        {
            diags.push(
                Diagnostic::new(
                    Code::BarrierNameMismatch,
                    NAME,
                    format!(
                        "expected core barrier {i} of core {c} to have name `{}` (as on core {}), but it is `{}`",
                        first.barriers[i].0, first.core, other.barriers[i].0
                    ),
                )
                .core(c)
                .at(other.barriers[i].2)
                .entity("instruction", other.barriers[i].0, None),
            );
        }
        if other.sb2sb != first.sb2sb {
            diags.push(
                Diagnostic::new(
                    Code::Sb2SbCountMismatch,
                    NAME,
                    format!(
                        "core {c} has {} GPSIMDSB2SB instruction(s), core {} has {}",
                        other.sb2sb, first.core, first.sb2sb
                    ),
                )
                .core(c)
                .at(msrc(other).as_ref()),
            );
        }
    }
    for summary in &summaries {
        if let Some((i, (name, id, src))) =
            summary.barriers.iter().enumerate().find(|(i, (_, id, _))| *id != Some(*i as u64))
        {
            let found = id.map(|id| format!("id {id}")).unwrap_or_else(|| "no integer id".to_owned());
            diags.push(
                Diagnostic::new(
                    Code::BarrierIdsNotDense,
                    NAME,
                    format!("core barrier `{name}` is barrier {i} of core {} but has {found}", summary.core),
                )
                .core(summary.core)
                .at(*src)
                .entity("instruction", name, None),
            );
        }
    }
    // Shared post-DRAM-allocation tensors (1195–1197).
    let by_core: BTreeMap<u64, &CoreSummary<'_>> = summaries.iter().map(|s| (s.core, s)).collect();
    let addresses = |s: &CoreSummary<'_>| -> BTreeSet<u64> { s.shared.iter().map(|x| x.1).collect() };
    let first_addresses = addresses(first);
    for summary in &summaries {
        for (name, addr, target, src) in &summary.shared {
            match target {
                None if summary.core > 0 => diags.push(
                    Diagnostic::new(
                        Code::SharedWithoutRemoteTarget,
                        NAME,
                        format!("shared tensor `{name}` on core {} has no `remote_local_target`", summary.core),
                    )
                    .core(summary.core)
                    .at(*src)
                    .entity("memloc", name, None),
                ),
                None => {}
                Some(target) => {
                    let owner = by_core.get(&target.core).and_then(|o| {
                        o.shared
                            .iter()
                            .find(|x| x.0 == target.name)
                            .map(|x| x.1)
                            .or_else(|| find_memloc_addr(o.module, &target.name))
                    });
                    match owner {
                        Some(owner_addr) if owner_addr == *addr => {}
                        // Missing owner and mismatched address both point at the target.
                        Some(owner_addr) => diags.push(
                            Diagnostic::new(
                                Code::SharedAddressMismatch,
                                NAME,
                                format!(
                                    "shared tensor `{name}` on core {} is at address {addr}, its target `{}` on core {} at {owner_addr}",
                                    summary.core, target.name, target.core
                                ),
                            )
                            .core(summary.core)
                            .at(*src)
                            .entity("memloc", name, None),
                        ),
                        None => diags.push(
                            Diagnostic::new(
                                Code::SharedAddressMismatch,
                                NAME,
                                format!("shared tensor `{name}` on core {} targets `{}` on core {}, which does not exist", summary.core, target.name, target.core),
                            )
                            .core(summary.core)
                            .at_key(*src, "remote_local_target")
                            .entity("memloc", name, None),
                        ),
                    }
                }
            }
        }
    }
    for other in rest {
        let other_addresses = addresses(other);
        if other_addresses != first_addresses {
            let only_here: Vec<String> =
                other_addresses.difference(&first_addresses).take(5).map(u64::to_string).collect();
            let only_first: Vec<String> =
                first_addresses.difference(&other_addresses).take(5).map(u64::to_string).collect();
            diags.push(
                Diagnostic::new(
                    Code::SharedAddressSetMismatch,
                    NAME,
                    format!("shared tensor addresses of core {} differ from core {}'s", other.core, first.core),
                )
                .core(other.core)
                .at(msrc(other).as_ref())
                .note(format!("only on core {}: [{}]", other.core, only_here.join(", ")))
                .note(format!("only on core {}: [{}]", first.core, only_first.join(", "))),
            );
        }
    }
}

fn find_memloc_addr(module: &Module, name: &str) -> Option<u64> {
    module
        .store
        .memlocs
        .iter()
        .find(|(_, m)| m.name() == name)
        .map(|(_, m)| m.fields.get("addr").and_then(Value::as_u64).unwrap_or(0))
}
