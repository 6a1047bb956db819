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
//! takes the j-th intermediate the partition consumes, in `IntermediateIOs` order;
//! outputs likewise, from `PartIOs.Outputs` and the intermediates it produces. An
//! intermediate is produced by the first partition (in netlist order) that lists it
//! and consumed by the later ones that do.
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

/// One formal argument of a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formal {
    /// Its set's name in the definition's module.
    pub set: String,
    /// Its first memory location's name (`Inp[k]`/`Out[k]` name the tensor, this names
    /// the memory a handoff is between).
    pub memloc: String,
    /// An input (`ExternalInput`), else an output.
    pub input: bool,
    /// The tensor the definition's first partition binds it to, when one matches.
    pub tensor: Option<String>,
    /// Whether that tensor is an intermediate.
    pub intermediate: bool,
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
        let input = match s.kind() {
            "ExternalInput" => true,
            "ExternalOutput" => false,
            _ => continue,
        };
        let memloc = s.memlocs.first().map(|&m| store.memlocs[m].name().to_owned()).unwrap_or_default();
        let formal =
            Formal { set: s.name(store), memloc, input, tensor: None, intermediate: false, src: s.src.clone() };
        if input {
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

/// The bindings of a netlist over a core's subgraph modules (`modules[k]` is subgraph
/// `subgraphs[k]`); without partitions, one call per subgraph binding its formals to
/// their own names. Problems are pushed to `diags` (once, for core `core`).
pub fn bind(
    netlist: Option<&Netlist>,
    modules: &[(u32, &Module, Option<&Src>)],
    core: u64,
    diags: &mut Vec<Diagnostic>,
) -> Bindings {
    let mut out = Bindings::default();
    let parts: &[NetPartition] = netlist.map(|n| n.partitions.as_slice()).unwrap_or_default();
    if parts.is_empty() {
        // No netlist partitions: each subgraph one call, its formals its own tensors.
        for (k, (subgraph, module, _)) in modules.iter().enumerate() {
            let mut formals = formals(module);
            for formal in &mut formals {
                let tensor = formal.set.strip_suffix("_set").unwrap_or(&formal.set).to_owned();
                let kind = if formal.input { TensorKind::Input } else { TensorKind::Output };
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
        return out;
    }
    // Who produces each intermediate: the first partition that lists it.
    let mut all_intermediates: BTreeSet<&str> =
        netlist.map(|n| n.intermediates.iter().map(String::as_str).collect()).unwrap_or_default();
    let mut produced_by: HashMap<&str, usize> = HashMap::new();
    for part in parts {
        for t in &part.intermediates {
            all_intermediates.insert(t);
            produced_by.entry(t.as_str()).or_insert(part.index);
        }
    }
    out.intermediates = all_intermediates.len();
    let is_intermediate = |t: &str| all_intermediates.contains(t);
    // Definitions: ascending ids, the k-th is subgraph k.
    let ids = netlist.map(Netlist::definitions).unwrap_or_default();
    for (k, &def) in ids.iter().enumerate() {
        let subgraph = k as u32;
        let Some((_, module, src)) = modules.iter().find(|(s, _, _)| *s == subgraph) else { continue };
        let members: Vec<usize> = parts.iter().filter(|p| p.def == def).map(|p| p.index).collect();
        let Some(&first) = members.first() else { continue };
        let p0 = &parts[first];
        let mut formals = formals(module);
        let p0_tensors: Vec<&String> =
            p0.inputs.iter().chain(&p0.intermediates).chain(p0.outputs.iter().flatten()).collect();
        for formal in &mut formals {
            let found = p0_tensors.iter().find(|t| matches(formal, t));
            match found {
                Some(t) => {
                    formal.tensor = Some((*t).clone());
                    formal.intermediate = is_intermediate(t);
                }
                None => diags.push(
                    Diagnostic::new(
                        Code::UnboundTensor,
                        Pass::BirLinker,
                        format!(
                            "formal set `{}` of definition {def} (sg{subgraph:04}) matches no tensor of its first partition {first}",
                            formal.set
                        ),
                    )
                    .core(core)
                    .at(formal.src.as_ref().or(*src))
                    .entity(EntityKind::Set, &formal.set, None)
                    .note(format!("partition {first} binds [{}]", p0_tensors.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(", ")))
                    .help("name a formal set after its tensor (`<tensor>_set`, or its first memory location `<tensor>`): birlink's reading of how a definition's arguments are bound"),
                ),
            }
        }
        for t in &p0_tensors {
            if !formals.iter().any(|f| f.tensor.as_deref() == Some(t.as_str())) {
                diags.push(
                    Diagnostic::new(
                        Code::UnboundTensor,
                        Pass::BirLinker,
                        format!(
                            "tensor `{t}` of partition {first} (definition {def}) matches no formal set of sg{subgraph:04}"
                        ),
                    )
                    .core(core)
                    .at(Some(&p0.src))
                    .help("the subgraph's module and the netlist must come from the same compile"),
                );
            }
        }
        // An intermediate the first partition reads must have been produced before it.
        for formal in formals.iter().filter(|f| f.input && f.intermediate) {
            if let Some(t) = &formal.tensor {
                if produced_by.get(t.as_str()) == Some(&first) {
                    diags.push(never_produced(t, first, def, core, &p0.src));
                }
            }
        }
        out.definitions.push(Definition { def, subgraph, formals, partitions: members });
    }
    // Each partition's call, bound positionally against its definition's first.
    let mut instances: HashMap<u64, u64> = HashMap::new();
    for part in parts {
        let Some(definition) = out.definitions.iter().find(|d| d.def == part.def) else { continue };
        let instance = {
            let next = instances.entry(part.def).or_insert(0);
            *next += 1;
            *next - 1
        };
        let consumed: Vec<&String> =
            part.intermediates.iter().filter(|t| produced_by.get(t.as_str()) != Some(&part.index)).collect();
        let produced: Vec<&String> =
            part.intermediates.iter().filter(|t| produced_by.get(t.as_str()) == Some(&part.index)).collect();
        let all_inputs = part.inputs.iter().any(|t| is_intermediate(t));
        let (mut model_in, mut inter_in, mut model_out, mut inter_out) = (0usize, 0usize, 0usize, 0usize);
        let mut tensors = Vec::with_capacity(definition.formals.len());
        let mut input_index = 0usize;
        let mut short = false;
        for formal in &definition.formals {
            let tensor = if part.index == definition.partitions[0] {
                formal.tensor.clone()
            } else if formal.input && all_inputs {
                input_index += 1;
                part.inputs.get(input_index - 1).cloned()
            } else if formal.input && formal.intermediate {
                inter_in += 1;
                consumed.get(inter_in - 1).map(|t| (*t).clone())
            } else if formal.input {
                model_in += 1;
                part.inputs.get(model_in - 1).cloned()
            } else if formal.intermediate {
                inter_out += 1;
                produced.get(inter_out - 1).map(|t| (*t).clone())
            } else {
                model_out += 1;
                part.outputs.as_ref().and_then(|o| o.get(model_out - 1).cloned())
            };
            short |= tensor.is_none() && formal.tensor.is_some();
            tensors.push(tensor);
        }
        // The counts a call of this definition must have.
        if part.index != definition.partitions[0] {
            let want = |input: bool, intermediate: bool| {
                definition.formals.iter().filter(|f| f.input == input && f.intermediate == intermediate).count()
            };
            let model_inputs = part.inputs.iter().filter(|t| !is_intermediate(t)).count();
            let mut differs = Vec::new();
            if all_inputs {
                if part.inputs.len() != want(true, true) + want(true, false) {
                    differs.push(format!(
                        "{} inputs (the definition has {})",
                        part.inputs.len(),
                        want(true, true) + want(true, false)
                    ));
                }
            } else {
                if model_inputs != want(true, false) {
                    differs.push(format!("{model_inputs} model inputs (the definition has {})", want(true, false)));
                }
                if consumed.len() != want(true, true) {
                    differs.push(format!(
                        "{} intermediate inputs (the definition has {})",
                        consumed.len(),
                        want(true, true)
                    ));
                }
            }
            if produced.len() != want(false, true) {
                differs.push(format!(
                    "{} intermediate outputs (the definition has {})",
                    produced.len(),
                    want(false, true)
                ));
            }
            if let Some(outputs) = &part.outputs {
                if outputs.len() != want(false, false) {
                    differs.push(format!(
                        "{} model outputs (the definition has {})",
                        outputs.len(),
                        want(false, false)
                    ));
                }
            }
            if !differs.is_empty() || short {
                let first = definition.partitions[0];
                diags.push(
                    Diagnostic::new(
                        Code::ArgumentCountMismatch,
                        Pass::BirLinker,
                        format!(
                            "partition {} calls definition {} with {}: its arguments do not match the definition's first partition {first}",
                            part.index,
                            part.def,
                            if differs.is_empty() { "tensors the netlist does not name".to_owned() } else { differs.join(", ") }
                        ),
                    )
                    .core(core)
                    .at(Some(&part.src))
                    .help("partitions of one definition call one function: give them the same numbers of inputs and outputs"),
                );
            }
        }
        out.calls.push(Call { partition: part.index, def: part.def, instance, tensors });
    }
    // Every tensor, in first appearance; the handoffs between partitions.
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for call in &out.calls {
        let Some(definition) = out.definitions.iter().find(|d| d.def == call.def) else { continue };
        for (formal, tensor) in definition.formals.iter().zip(&call.tensors) {
            let Some(t) = tensor else { continue };
            if seen.insert(t.clone()) {
                let kind = if is_intermediate(t) {
                    TensorKind::Intermediate
                } else if formal.input {
                    TensorKind::Input
                } else {
                    TensorKind::Output
                };
                out.tensors.push((t.clone(), kind));
            }
            if is_intermediate(t) {
                let entry = out.handoffs.entry(t.clone()).or_insert((usize::MAX, Vec::new()));
                if formal.input {
                    entry.1.push(call.partition);
                } else if entry.0 == usize::MAX {
                    entry.0 = call.partition;
                }
            }
        }
    }
    out
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
