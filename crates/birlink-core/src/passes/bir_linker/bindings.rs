//! The modular flow's bindings (docs/spec/link.md §3, the compiler's flows): which
//! tensor each call of a definition binds to each of its formal arguments.
//!
//! A definition's formal arguments are its module's `ExternalInput` and `ExternalOutput`
//! sets, in the module's order, named after the tensors its **first** partition binds
//! them to (the compiler's log prints them: `Inp[0] intermediate5`). **birlink's
//! reading**: a formal set matches a tensor by its set name, that name less `_set`, or
//! its first memory location's name. Every other partition of the definition binds its
//! own tensors positionally: its `PartIOs.Inputs` in order when that list also holds its
//! intermediate inputs; otherwise the k-th formal the first partition binds to a model
//! input takes the k-th entry of `Inputs`, and the j-th it binds to an intermediate
//! takes the j-th intermediate the partition consumes, in `IntermediateIOs` order.
//! Outputs likewise: its `PartIOs.Outputs` in order when that list also holds the
//! intermediates it writes; otherwise the model outputs from `Outputs` and the
//! intermediates from those it produces. The real key layout is not public, so both
//! shapes of each list are read (docs/spec/link.md §0.3 says which shape each sample
//! uses). An intermediate is produced by the first partition (in netlist order) that
//! lists it and consumed by the later ones that do.
//!
//! Pure: the same bindings on every core (each core compiles the same definitions).
//! What does not fit is said with a code naming the partition and the definition:
//! BL0316 (a partition whose argument counts differ from its definition's), BL0317 (a
//! tensor no formal set matches, or a formal set no tensor does), BL0318 (an
//! intermediate a partition consumes that nobody produces before it).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::diag::codes::Code;
use crate::diag::Diagnostic;
use crate::model::entity::EntityKind;
use crate::model::ir::{Allocation, Module, Src};
use crate::model::pass::Pass;
use crate::output::report::PartitionRow;
use crate::read::netlist::{NetPartition, Netlist};

/// A linked function's name, as the compiler's log names it: `sg` and the four-digit
/// subgraph index (`moving sg0001`).
pub fn function_name(subgraph: u32) -> String {
    format!("sg{subgraph:04}")
}

/// What a tensor is to the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum TensorKind {
    /// A model input (`ExternalInput` in `main`).
    Input,
    /// A model output (`ExternalOutput` in `main`).
    Output,
    /// One partition's output, a later one's input (`Internal`, shared DRAM).
    Intermediate,
}

/// What a formal argument is to its definition: an input or an output (its set's
/// `ExternalInput` or `ExternalOutput`), of the model or an intermediate (what its first
/// partition binds it to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A model input.
    Input,
    /// An intermediate an earlier partition wrote.
    IntermediateInput,
    /// A model output.
    Output,
    /// An intermediate a later partition reads.
    IntermediateOutput,
}

impl Role {
    /// Whether it is read (an `ExternalInput` set).
    pub fn is_input(self) -> bool {
        matches!(self, Role::Input | Role::IntermediateInput)
    }

    /// Whether it is an intermediate.
    pub fn is_intermediate(self) -> bool {
        matches!(self, Role::IntermediateInput | Role::IntermediateOutput)
    }

    /// The same direction, bound to an intermediate.
    fn intermediate(self) -> Role {
        if self.is_input() {
            Role::IntermediateInput
        } else {
            Role::IntermediateOutput
        }
    }
}

/// One formal argument of a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formal {
    /// Its set's name in the definition's module.
    pub set: String,
    /// Its first memory location's name (`Inp[k]`/`Out[k]` name the tensor, this names
    /// the memory a handoff is between).
    pub memloc: String,
    /// What it is.
    pub role: Role,
    /// The tensor the definition's first partition binds it to, when one matches.
    pub tensor: Option<String>,
    /// Where its set is in its file.
    pub src: Option<Src>,
}

/// One definition: its id, its subgraph, its formals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The netlist's id (the index of its first partition).
    pub def: u64,
    /// The subgraph it is (the k-th distinct id is subgraph k).
    pub subgraph: u32,
    /// Its formal arguments, inputs then outputs, each in module order.
    pub formals: Vec<Formal>,
    /// Its partitions, in netlist order.
    pub partitions: Vec<usize>,
}

impl Definition {
    /// How many of its formals have `role`.
    fn count(&self, role: Role) -> usize {
        self.formals.iter().filter(|f| f.role == role).count()
    }
}

/// One call of the dispatcher: a partition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The partition's index.
    pub partition: usize,
    /// Its definition's id.
    pub def: u64,
    /// Which of the definition's partitions it is (from 0).
    pub instance: u64,
    /// Each formal's tensor, in formal order (`None` where the netlist names none).
    pub tensors: Vec<Option<String>>,
}

impl Call {
    /// `call_def_<definition>_instance_<i>`.
    pub fn name(&self) -> String {
        format!("call_def_{}_instance_{}", self.def, self.instance)
    }
}

/// Everything the netlist says of a core's link.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// The definitions, in ascending id (= subgraph order).
    pub definitions: Vec<Definition>,
    /// The calls, in netlist order.
    pub calls: Vec<Call>,
    /// Every tensor and what it is, in order of first appearance.
    pub tensors: Vec<(String, TensorKind)>,
    /// Each intermediate's producing partition and consuming partitions.
    pub handoffs: BTreeMap<String, (usize, Vec<usize>)>,
    /// The distinct intermediates of the whole netlist (`Num intermediates`).
    pub intermediates: usize,
}

impl Bindings {
    /// The definition of a subgraph.
    pub fn definition(&self, subgraph: u32) -> Option<&Definition> {
        self.definitions.iter().find(|d| d.subgraph == subgraph)
    }

    /// The definition a call calls.
    pub fn definition_of(&self, call: &Call) -> Option<&Definition> {
        self.definitions.iter().find(|d| d.def == call.def)
    }

    /// A definition's first call (the one its formals are named after).
    pub fn first_call(&self, def: u64) -> Option<&Call> {
        self.calls.iter().find(|c| c.def == def)
    }

    /// The call of a partition.
    pub fn call_of(&self, partition: usize) -> Option<&Call> {
        self.calls.iter().find(|c| c.partition == partition)
    }

    /// Each call's formals with the tensors it binds them to.
    pub fn arguments<'b>(&'b self, call: &'b Call) -> impl Iterator<Item = (&'b Formal, &'b Option<String>)> + 'b {
        self.definition_of(call).into_iter().flat_map(move |d| d.formals.iter().zip(&call.tensors))
    }

    /// The partitions as the dispatcher calls them: each call's tensors by what they are
    /// to it (`report.partitions`).
    pub fn partition_rows(&self) -> Vec<PartitionRow> {
        let mut rows = Vec::with_capacity(self.calls.len());
        for call in &self.calls {
            let Some(definition) = self.definition_of(call) else { continue };
            let mut row = PartitionRow {
                index: call.partition as u64,
                definition: call.def,
                instance: call.instance,
                call: call.name(),
                function: function_name(definition.subgraph),
                inputs: Vec::new(),
                outputs: Vec::new(),
                reads: Vec::new(),
                writes: Vec::new(),
            };
            for (formal, tensor) in definition.formals.iter().zip(&call.tensors) {
                let Some(tensor) = tensor.clone() else { continue };
                match formal.role {
                    Role::Input => row.inputs.push(tensor),
                    Role::IntermediateInput => row.reads.push(tensor),
                    Role::IntermediateOutput => row.writes.push(tensor),
                    Role::Output => row.outputs.push(tensor),
                }
            }
            rows.push(row);
        }
        rows
    }
}

/// A definition's formal sets, from its module's entry function.
pub fn formals(module: &Module) -> Vec<Formal> {
    let Some(function) = module.entry_function() else { return Vec::new() };
    let store = &module.store;
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    for allocation in &store.functions[function].allocations {
        let Allocation::Set(set) = allocation else { continue };
        let s = &store.sets[*set];
        let role = match s.kind() {
            "ExternalInput" => Role::Input,
            "ExternalOutput" => Role::Output,
            _ => continue,
        };
        let memloc = s.memlocs.first().map(|&m| store.memlocs[m].name().to_owned()).unwrap_or_default();
        let formal = Formal { set: s.name(store), memloc, role, tensor: None, src: s.src.clone() };
        if role.is_input() {
            inputs.push(formal);
        } else {
            outputs.push(formal);
        }
    }
    inputs.extend(outputs);
    inputs
}

/// Whether a formal set stands for `tensor`.
fn matches(formal: &Formal, tensor: &str) -> bool {
    formal.set == tensor || formal.set.strip_suffix("_set") == Some(tensor) || formal.memloc == tensor
}

/// The netlist's intermediates and who produces each: the first partition that lists
/// it.
struct Producers<'n> {
    all: BTreeSet<&'n str>,
    by: HashMap<&'n str, usize>,
}

impl<'n> Producers<'n> {
    fn of(netlist: Option<&'n Netlist>, parts: &'n [NetPartition]) -> Producers<'n> {
        let mut all: BTreeSet<&str> =
            netlist.map(|n| n.intermediates.iter().map(String::as_str).collect()).unwrap_or_default();
        let mut by: HashMap<&str, usize> = HashMap::new();
        for part in parts {
            for t in &part.intermediates {
                all.insert(t);
                by.entry(t.as_str()).or_insert(part.index);
            }
        }
        Producers { all, by }
    }

    fn is_intermediate(&self, tensor: &str) -> bool {
        self.all.contains(tensor)
    }

    /// Whether `partition` produces `tensor` (it is the first to list it).
    fn produces(&self, partition: usize, tensor: &str) -> bool {
        self.by.get(tensor) == Some(&partition)
    }
}

/// Who is reported against: the core, once.
struct Reporter<'d> {
    core: u64,
    diags: &'d mut Vec<Diagnostic>,
}

/// The bindings of a netlist over a core's subgraph modules (`modules[k]` is subgraph
/// `subgraphs[k]`); without partitions, one call per subgraph binding its formals to
/// their own names. Problems are pushed to `diags` (once, for core `core`).
pub fn bind(
    netlist: Option<&Netlist>,
    modules: &[(u32, &Module, Option<&Src>)],
    core: u64,
    diags: &mut Vec<Diagnostic>,
) -> Bindings {
    let parts: &[NetPartition] = netlist.map(|n| n.partitions.as_slice()).unwrap_or_default();
    if parts.is_empty() {
        return unpartitioned(modules);
    }
    let producers = Producers::of(netlist, parts);
    let mut report = Reporter { core, diags };
    let mut out = Bindings { intermediates: producers.all.len(), ..Bindings::default() };
    // Definitions: ascending ids, the k-th is subgraph k.
    let ids = netlist.map(Netlist::definitions).unwrap_or_default();
    for (k, &def) in ids.iter().enumerate() {
        let subgraph = k as u32;
        let Some((_, module, src)) = modules.iter().find(|(s, _, _)| *s == subgraph) else { continue };
        if let Some(definition) = define(def, subgraph, module, *src, parts, &producers, &mut report) {
            out.definitions.push(definition);
        }
    }
    // Each partition's call, bound positionally against its definition's first.
    let mut instances: HashMap<u64, u64> = HashMap::new();
    for part in parts {
        let Some(definition) = out.definitions.iter().find(|d| d.def == part.def) else { continue };
        let next = instances.entry(part.def).or_insert(0);
        let instance = *next;
        *next += 1;
        out.calls.push(call(part, instance, definition, &producers, &mut report));
    }
    tensors_and_handoffs(&mut out, &producers);
    out
}

/// No netlist partitions: each subgraph one call, its formals its own tensors.
fn unpartitioned(modules: &[(u32, &Module, Option<&Src>)]) -> Bindings {
    let mut out = Bindings::default();
    for (k, (subgraph, module, _)) in modules.iter().enumerate() {
        let mut formals = formals(module);
        for formal in &mut formals {
            let tensor = formal.set.strip_suffix("_set").unwrap_or(&formal.set).to_owned();
            let kind = if formal.role.is_input() { TensorKind::Input } else { TensorKind::Output };
            out.tensors.push((tensor.clone(), kind));
            formal.tensor = Some(tensor);
        }
        let tensors = formals.iter().map(|f| f.tensor.clone()).collect();
        out.calls.push(Call { partition: k, def: u64::from(*subgraph), instance: 0, tensors });
        out.definitions.push(Definition {
            def: u64::from(*subgraph),
            subgraph: *subgraph,
            formals,
            partitions: vec![k],
        });
    }
    out
}

/// Definition `def` (subgraph `subgraph`): its formals bound to the tensors of its first
/// partition (BL0317 for what does not match, BL0318 for an intermediate it reads that
/// nobody wrote before it).
fn define(
    def: u64,
    subgraph: u32,
    module: &Module,
    src: Option<&Src>,
    parts: &[NetPartition],
    producers: &Producers<'_>,
    report: &mut Reporter<'_>,
) -> Option<Definition> {
    let members: Vec<usize> = parts.iter().filter(|p| p.def == def).map(|p| p.index).collect();
    let &first = members.first()?;
    let p0 = &parts[first];
    let mut formals = formals(module);
    // The first partition's tensors, each once (a list may repeat another's).
    let mut p0_tensors: Vec<&String> = Vec::new();
    for t in p0.inputs.iter().chain(&p0.intermediates).chain(p0.outputs.iter().flatten()) {
        if !p0_tensors.contains(&t) {
            p0_tensors.push(t);
        }
    }
    let listed = || p0_tensors.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ");
    for formal in &mut formals {
        match p0_tensors.iter().find(|t| matches(formal, t)) {
            Some(t) => {
                formal.tensor = Some((*t).clone());
                if producers.is_intermediate(t) {
                    formal.role = formal.role.intermediate();
                }
            }
            None => report.diags.push(
                Diagnostic::new(
                    Code::UnboundTensor,
                    Pass::BirLinker,
                    format!(
                        "formal set `{}` of definition {def} ({}) matches no tensor of its first partition {first}",
                        formal.set,
                        function_name(subgraph)
                    ),
                )
                .core(report.core)
                .at(formal.src.as_ref().or(src))
                .entity(EntityKind::Set, &formal.set, None)
                .note(format!("partition {first} binds [{}]", listed()))
                .help("name a formal set after its tensor (`<tensor>_set`, or its first memory location `<tensor>`): birlink's reading of how a definition's arguments are bound"),
            ),
        }
    }
    for t in &p0_tensors {
        if !formals.iter().any(|f| f.tensor.as_deref() == Some(t.as_str())) {
            report.diags.push(
                Diagnostic::new(
                    Code::UnboundTensor,
                    Pass::BirLinker,
                    format!(
                        "tensor `{t}` of partition {first} (definition {def}) matches no formal set of {}",
                        function_name(subgraph)
                    ),
                )
                .core(report.core)
                .at(Some(&p0.src))
                .help("the subgraph's module and the netlist must come from the same compile"),
            );
        }
    }
    // An intermediate the first partition reads must have been produced before it.
    for formal in formals.iter().filter(|f| f.role == Role::IntermediateInput) {
        if let Some(t) = &formal.tensor {
            if producers.produces(first, t) {
                report.diags.push(never_produced(t, first, def, report.core, &p0.src));
            }
        }
    }
    Some(Definition { def, subgraph, formals, partitions: members })
}

/// A partition's call of its definition: the first partition's tensors for the first;
/// for the others, each formal's tensor taken positionally from the partition's lists
/// (BL0316 when the counts differ from the definition's).
fn call(
    part: &NetPartition,
    instance: u64,
    definition: &Definition,
    producers: &Producers<'_>,
    report: &mut Reporter<'_>,
) -> Call {
    let first = definition.partitions[0];
    if part.index == first {
        let tensors = definition.formals.iter().map(|f| f.tensor.clone()).collect();
        return Call { partition: part.index, def: part.def, instance, tensors };
    }
    let consumed: Vec<&String> = part.intermediates.iter().filter(|t| !producers.produces(part.index, t)).collect();
    let produced: Vec<&String> = part.intermediates.iter().filter(|t| producers.produces(part.index, t)).collect();
    let outputs: &[String] = part.outputs.as_deref().unwrap_or_default();
    // Does each list hold the intermediates too (its whole direction, in order)?
    let all_inputs = part.inputs.iter().any(|t| producers.is_intermediate(t));
    let all_outputs = outputs.iter().any(|t| producers.is_intermediate(t));
    let mut next: HashMap<Role, usize> = HashMap::new();
    let mut take = |role: Role, list: &[&String]| -> Option<String> {
        let k = next.entry(role).or_insert(0);
        *k += 1;
        list.get(*k - 1).map(|t| (*t).clone())
    };
    let inputs: Vec<&String> = part.inputs.iter().collect();
    let outs: Vec<&String> = outputs.iter().collect();
    let mut tensors = Vec::with_capacity(definition.formals.len());
    let mut short = false;
    for formal in &definition.formals {
        let tensor = match formal.role {
            Role::Input | Role::IntermediateInput if all_inputs => take(Role::Input, &inputs),
            Role::Output | Role::IntermediateOutput if all_outputs => take(Role::Output, &outs),
            Role::IntermediateInput => take(Role::IntermediateInput, &consumed),
            Role::Input => take(Role::Input, &inputs),
            Role::IntermediateOutput => take(Role::IntermediateOutput, &produced),
            Role::Output => take(Role::Output, &outs),
        };
        short |= tensor.is_none() && formal.tensor.is_some();
        tensors.push(tensor);
    }
    let mut differs = Vec::new();
    let mut compare = |what: &str, given: usize, want: usize| {
        if given != want {
            differs.push(format!("{given} {what} (the definition has {want})"));
        }
    };
    let model_inputs = part.inputs.iter().filter(|t| !producers.is_intermediate(t)).count();
    if all_inputs {
        let want = definition.count(Role::IntermediateInput) + definition.count(Role::Input);
        compare("inputs", part.inputs.len(), want);
    } else {
        compare("model inputs", model_inputs, definition.count(Role::Input));
        compare("intermediate inputs", consumed.len(), definition.count(Role::IntermediateInput));
    }
    if all_outputs {
        let want = definition.count(Role::IntermediateOutput) + definition.count(Role::Output);
        compare("outputs", outputs.len(), want);
    } else {
        compare("intermediate outputs", produced.len(), definition.count(Role::IntermediateOutput));
        if part.outputs.is_some() {
            compare("model outputs", outputs.len(), definition.count(Role::Output));
        }
    }
    if !differs.is_empty() || short {
        let said = if differs.is_empty() { "tensors the netlist does not name".to_owned() } else { differs.join(", ") };
        report.diags.push(
            Diagnostic::new(
                Code::ArgumentCountMismatch,
                Pass::BirLinker,
                format!(
                    "partition {} calls definition {} with {said}: its arguments do not match the definition's first partition {first}",
                    part.index, part.def
                ),
            )
            .core(report.core)
            .at(Some(&part.src))
            .help("partitions of one definition call one function: give them the same numbers of inputs and outputs"),
        );
    }
    Call { partition: part.index, def: part.def, instance, tensors }
}

/// Every tensor, in first appearance; the handoffs between partitions.
fn tensors_and_handoffs(out: &mut Bindings, producers: &Producers<'_>) {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut tensors = Vec::new();
    let mut handoffs: BTreeMap<String, (usize, Vec<usize>)> = BTreeMap::new();
    for call in &out.calls {
        for (formal, tensor) in out.arguments(call) {
            let Some(t) = tensor else { continue };
            let intermediate = producers.is_intermediate(t);
            if seen.insert(t.clone()) {
                let kind = match (intermediate, formal.role.is_input()) {
                    (true, _) => TensorKind::Intermediate,
                    (false, true) => TensorKind::Input,
                    (false, false) => TensorKind::Output,
                };
                tensors.push((t.clone(), kind));
            }
            if intermediate {
                let entry = handoffs.entry(t.clone()).or_insert((usize::MAX, Vec::new()));
                if formal.role.is_input() {
                    entry.1.push(call.partition);
                } else if entry.0 == usize::MAX {
                    entry.0 = call.partition;
                }
            }
        }
    }
    out.tensors = tensors;
    out.handoffs = handoffs;
}

/// BL0318: a partition reads an intermediate no partition before it wrote.
fn never_produced(tensor: &str, partition: usize, def: u64, core: u64, src: &Src) -> Diagnostic {
    Diagnostic::new(
        Code::IntermediateNeverProduced,
        Pass::BirLinker,
        format!(
            "partition {partition} (definition {def}) reads intermediate `{tensor}`, which no partition before it produces"
        ),
    )
    .core(core)
    .at(Some(src))
    .help("an intermediate is one partition's output and a later one's input: check the netlist's `IntermediateIOs` and the order of `PartMap`")
}
