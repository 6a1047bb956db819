//! One fault per diagnostic code, injected into generated documents: the per-code
//! tests and the samples are made from these. The `match` in [`inject`] is exhaustive
//! over [`Code`], so a new code does not compile until it has a fault here.

use crate::model::place::{CoreId, Place};
use serde_json::{json, Map, Value};

use super::config::GenConfig;
use super::edit::{blocks_mut, function_mut, insts_mut, push_inst};
use super::module::{ap, loop_nest, memloc_dram, mk_set};
use super::scenarios::clean_set;
use super::set::{pretty, GenSet};
use super::{shared_name, SHARED_BASE};
use crate::diag::codes::Code;
use crate::model::flow::Flow;
use crate::model::linked::LinkedSet;
use crate::read::input::SourceFile;

/// Links the set's modules in the seeds' reading (all passes, or `passes`) and makes
/// the linked module the set's only module: inputs that are already linked.
fn replace_with_linked(set: &mut GenSet, passes: Option<Vec<String>>) {
    let sources: Vec<SourceFile> = set
        .modules
        .iter()
        .enumerate()
        .map(|(i, m)| SourceFile::text(format!("{}.json", CoreId(i as u64)), pretty(m)))
        .collect();
    let options = crate::passes::LinkOptions { passes, flow: Some(Flow::Seeds), ..Default::default() };
    let outcome = crate::passes::run(sources, &options);
    if let Some(linked) = outcome.linked.as_ref().and_then(LinkedSet::single) {
        set.modules = vec![crate::output::json::module_to_value(linked)];
    }
}

/// The codes only the compiler's modular flow reports: their faults are made on a
/// modular set (`samples::fault_config_for`).
pub fn modular_only(code: Code) -> bool {
    matches!(
        code,
        Code::SubgraphMissing
            | Code::DefinitionsMismatch
            | Code::MixedFlows
            | Code::ArgumentCountMismatch
            | Code::UnboundTensor
            | Code::IntermediateNeverProduced
    )
}

/// The faults a grid set takes as the seeds' set does, on each core's first subgraph
/// (its module `ncCC/sg00` standing for the core).
fn per_core_fault(code: Code) -> bool {
    matches!(
        code,
        Code::RemoteMemlocMissing
            | Code::MissingRemoteTarget
            | Code::RemoteBlockCountMismatch
            | Code::DuplicateCore
            | Code::SharedWithoutRemoteTarget
    )
}

/// The faults a grid set takes its own way (the seeds' would not make them there).
fn grid_fault(code: Code) -> bool {
    modular_only(code) || per_core_fault(code) || matches!(code, Code::MissingCoreId | Code::DuplicateName)
}

/// Index of the module named `name`.
fn module_named(set: &GenSet, name: &str) -> Option<usize> {
    set.modules.iter().position(|m| m.get("name").and_then(Value::as_str) == Some(name))
}

/// Renames every string equal to `from` (a name, a `memref`) to `to`.
fn rename_all(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::String(s) if s == from => *s = to.to_owned(),
        Value::Array(items) => items.iter_mut().for_each(|v| rename_all(v, from, to)),
        Value::Object(map) => map.values_mut().for_each(|v| rename_all(v, from, to)),
        _ => {}
    }
}

/// A fault on a grid set (the flat or modular flow): the grid's own faults, and the
/// seeds' per-core faults on each core's first subgraph.
fn inject_grid(set: &mut GenSet, config: &GenConfig, code: Code) {
    let last_subgraph = config.subgraphs.max(1) - 1;
    match code {
        Code::SubgraphMissing => {
            // Core 1 without its second subgraph.
            if let Some(at) = module_named(set, &Place::subgraph(1, 1.min(last_subgraph)).to_string()) {
                set.modules.remove(at);
            }
        }
        Code::DefinitionsMismatch => {
            // The netlist names a definition whose subgraph is on no core.
            let name = format!("/sg{last_subgraph:02}");
            set.modules.retain(|m| !m.get("name").and_then(Value::as_str).is_some_and(|n| n.ends_with(&name)));
        }
        Code::MixedFlows => {
            // Core 0's linked module, with core 1's subgraphs.
            let sources: Vec<SourceFile> = set
                .modules
                .iter()
                .map(|m| {
                    let name = m.get("name").and_then(Value::as_str).unwrap_or("module");
                    SourceFile::text(format!("{name}/bir.json"), pretty(m))
                })
                .chain(set.netlist.iter().map(|n| SourceFile::text("hlo_netlist.json", pretty(n))))
                .collect();
            // The modular flow's bir_linker makes a core's linked module, in a flat set too.
            let options = crate::passes::LinkOptions {
                passes: Some(vec!["verify".into(), "bir_linker".into()]),
                flow: Some(Flow::Modular),
                ..Default::default()
            };
            let outcome = crate::passes::run(sources, &options);
            if let Some(linked) = outcome.linked.as_ref().and_then(|l| l.module_of(Some(0))) {
                set.modules.retain(|m| !m.get("name").and_then(Value::as_str).is_some_and(|n| n.starts_with("nc00/")));
                set.modules.insert(0, crate::output::json::module_to_value(linked));
            }
        }
        Code::DuplicateName => {
            // Core 0's first subgraph allocates its first set twice (a grid module's sets
            // are named after its tensors, not the seeds' `output_set`).
            if let Some(at) = module_named(set, &Place::subgraph(0, 0).to_string()) {
                if let Some(allocations) = allocations_mut(set, at) {
                    if let Some(first) = allocations.first().cloned() {
                        allocations.push(first);
                    }
                }
            }
        }
        Code::MissingCoreId => {
            // Core 1's first subgraph copied out of its folder: no core id, and neither its
            // path nor its name says `ncCC`.
            if let Some(at) = module_named(set, &Place::subgraph(1, 0).to_string()) {
                if let Some(m) = set.modules[at].as_object_mut() {
                    m.insert("attributes".to_owned(), json!({}));
                    m.insert("name".to_owned(), json!("copied"));
                }
            }
        }
        Code::ArgumentCountMismatch => {
            // The second partition of a definition takes one model input more.
            let partitions = set.netlist.as_mut().and_then(|n| n.get_mut("PartMap")).and_then(Value::as_array_mut);
            if let Some(inputs) = partitions
                .and_then(|p| p.get_mut(2))
                .and_then(|p| p.pointer_mut("/PartIOs/Inputs"))
                .and_then(Value::as_array_mut)
            {
                inputs.push(json!("input999"));
            }
        }
        Code::UnboundTensor => {
            // Core 1's first subgraph calls its first formal `tokens`, which the
            // netlist does not name.
            if let Some(at) = module_named(set, "nc01/sg00") {
                rename_all(&mut set.modules[at], "input0_set", "tokens_set");
                rename_all(&mut set.modules[at], "input0", "tokens");
            }
        }
        Code::IntermediateNeverProduced => {
            // The last partition reads an intermediate no partition writes: in the
            // netlist, and as a formal input of its definition on every core.
            let tensor = "intermediate999";
            if let Some(netlist) = set.netlist.as_mut() {
                if let Some(list) = netlist.get_mut("IntermediateIOs").and_then(Value::as_array_mut) {
                    list.push(json!(tensor));
                }
                let last = netlist.get_mut("PartMap").and_then(Value::as_array_mut).and_then(|p| p.last_mut());
                if let Some(list) =
                    last.and_then(|p| p.pointer_mut("/PartIOs/IntermediateIOs")).and_then(Value::as_array_mut)
                {
                    list.push(json!(tensor));
                }
            }
            for core in 0..config.cores.max(1) {
                let Some(at) = module_named(set, &Place::subgraph(core, last_subgraph).to_string()) else { continue };
                if let Some(allocations) = allocations_mut(set, at) {
                    let memloc = memloc_dram(tensor, 0x7f_0000, true);
                    allocations.insert(
                        0,
                        mk_set(
                            &format!("{tensor}_set"),
                            "ExternalInput",
                            "Local",
                            "bfloat16",
                            &[128, 512],
                            vec![memloc],
                        ),
                    );
                }
            }
        }
        _ if per_core_fault(code) => {
            // Each core's first subgraph stands for the core, as in the seeds' set.
            let firsts: Vec<usize> = (0..config.cores.max(1))
                .filter_map(|core| module_named(set, &Place::subgraph(core, 0).to_string()))
                .collect();
            let mut view = GenSet {
                modules: firsts.iter().map(|&i| set.modules[i].clone()).collect(),
                netlist: None,
                options: Map::new(),
            };
            inject(&mut view, &GenConfig { flow: Flow::Seeds, ..config.clone() }, code);
            for (&i, module) in firsts.iter().zip(view.modules) {
                set.modules[i] = module;
            }
        }
        _ => {}
    }
}

fn allocations_mut(set: &mut GenSet, i: usize) -> Option<&mut Vec<Value>> {
    function_mut(set, i)?.get_mut("allocations")?.as_array_mut()
}

/// The first memloc named `name` in module `i`.
fn memloc_mut<'a>(set: &'a mut GenSet, i: usize, name: &str) -> Option<&'a mut Map<String, Value>> {
    allocations_mut(set, i)?
        .iter_mut()
        .filter_map(|a| a.get_mut("memorylocations")?.as_array_mut())
        .flatten()
        .find(|m| m.get("name").and_then(Value::as_str) == Some(name))?
        .as_object_mut()
}

fn remote_blocks_mut(set: &mut GenSet, i: usize) -> Option<&mut Vec<Value>> {
    set.modules
        .get_mut(i)?
        .get_mut("queues")?
        .as_array_mut()?
        .iter_mut()
        .find(|q| q.get("name").and_then(Value::as_str) == Some("qRemoteSem"))?
        .get_mut("blocks")?
        .get_mut(0)?
        .get_mut("instructions")?
        .as_array_mut()
}

/// Injects the fault for `code` into the documents; layout-level faults (invalid JSON,
/// unreadable bytes, extra files) are applied by [`generate`].
pub(super) fn inject(set: &mut GenSet, config: &GenConfig, code: Code) {
    if config.flow != Flow::Seeds && grid_fault(code) {
        return inject_grid(set, config, code);
    }
    let last = set.modules.len().saturating_sub(1);
    let one = 1.min(last);
    match code {
        // The grid's own faults: on the modular set they are made on (above).
        Code::SubgraphMissing
        | Code::DefinitionsMismatch
        | Code::MixedFlows
        | Code::ArgumentCountMismatch
        | Code::UnboundTensor
        | Code::IntermediateNeverProduced => {}
        Code::UnreadableFile | Code::InvalidJson | Code::ExtraNetlist | Code::InputTooLarge => {}
        // The sync check's, on the flat flow's set: `gen::sync` (BL0713's is a log's).
        Code::SyncBarrierCount
        | Code::SyncBarrierName
        | Code::SyncBlocks
        | Code::SyncTripCount
        | Code::SyncPipe
        | Code::SyncDeadlock
        | Code::SyncUnknownSemaphore
        | Code::SyncRace
        | Code::SyncLeftover
        | Code::SyncUnboundedLoop
        | Code::SyncBudget
        | Code::SyncNotModelled => super::sync::inject(set, code),
        Code::SyncLogBarriers => {}
        // The link's last step reads a work directory's other files: `gen::workdir`.
        Code::TensorMapUnreadable
        | Code::TensorMapStale
        | Code::TensorMapDemoted
        | Code::TensorMapConflict
        | Code::TensorMapUnbound
        | Code::TensorMapMissing
        | Code::ArtifactCollision => {}
        Code::WrongType => {
            if let Some(f) = function_mut(set, one) {
                f.insert("blocks".to_owned(), json!({"name": "Block1"}));
            }
        }
        Code::MissingKey => {
            if let Some(inst) = blocks_mut(set, one)
                .and_then(|b| b.get_mut(0))
                .and_then(|b| b.get_mut("instructions"))
                .and_then(|i| i.get_mut(0))
            {
                if let Some(map) = inst.as_object_mut() {
                    map.remove("name");
                }
            }
        }
        Code::NotAModule => set.modules.push(json!(["this is not a module"])),
        Code::EmptyLinkSet => set.modules.clear(),
        Code::TooDeep => {
            let mut counter = 0;
            let nest = loop_nest(crate::limits::MAX_LOOP_DEPTH + 2, 1, &mut counter);
            push_inst(set, one, nest);
        }
        Code::NumberOutOfRange => {
            if let Some(m) = set.modules.get_mut(one) {
                m["attributes"]["neuron_core_id"] = json!(-1);
            }
        }
        Code::UnsupportedVersion => {
            if let Some(m) = set.modules.get_mut(one) {
                m["version"] = json!(7);
            }
        }
        Code::DuplicateCore => {
            if let Some(m) = set.modules.get_mut(one) {
                m["attributes"]["neuron_core_id"] = json!(0);
            }
        }
        Code::CoreOutOfRange => {
            if let Some(m) = set.modules.get_mut(one) {
                m["attributes"]["neuron_core_id"] = json!(config.cores + 3);
            }
        }
        Code::DuplicateName => {
            if let Some(allocations) = allocations_mut(set, 0) {
                allocations.push(set_value_dup());
            }
        }
        Code::DuplicateModuleName => {
            for m in &mut set.modules {
                m["name"] = json!("nc00");
            }
        }
        Code::NoFunctions => {
            if let Some(m) = set.modules.get_mut(one) {
                m["functions"] = json!([]);
            }
        }
        Code::UnknownQueue => push_inst(
            set,
            one,
            json!({"name": "dma_to_nowhere", "opcode": "DMACopy", "engine": "DMA", "queue": "qMissing"}),
        ),
        Code::UnknownQueueInstance => push_inst(
            set,
            one,
            json!({"name": "sqi_stale", "opcode": "SwitchQueueInstance", "queue": "qSyncIO", "instance": "qSyncIO_99"}),
        ),
        Code::UnknownBlock => {
            push_inst(set, one, json!({"name": "br_lost", "opcode": "UnconditionalBranch", "target": "Block99"}))
        }
        Code::UnknownMemloc => push_inst(
            set,
            one,
            json!({"name": "copy_lost", "opcode": "TensorCopy", "engine": "DVE", "ins": [ap("nowhere", "bfloat16")], "outs": [ap("sb_tile_0", "bfloat16")]}),
        ),
        Code::UnknownCallTarget => {
            push_inst(set, one, json!({"name": "call_lost", "opcode": "Call", "target": "missing_fn"}))
        }
        Code::UnknownDependency => push_inst(
            set,
            one,
            json!({"name": "waits_lost", "opcode": "TensorCopy", "engine": "DVE", "dependencies": [["no_such_inst", "Flow"]]}),
        ),
        Code::MissingRemoteTarget | Code::RemoteMemlocMissing => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("remote_local_target".to_owned(), json!([format!("{}_remote_{one}", shared_name(0)), 0]));
            }
        }
        Code::NetlistEndpointMissing => {
            let netlist = set.netlist.get_or_insert_with(|| json!({}));
            netlist["aliases"] = json!([{"producer": {"core": 0, "memloc": "c_partial_O"}, "consumer": {"core": one, "memloc": shared_name(0)}, "kind": 3}]);
        }
        Code::NonDramAlias => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("type".to_owned(), json!("SB"));
            }
        }
        Code::SelfTarget => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("remote_local_target".to_owned(), json!([shared_name(0), one]));
            }
        }
        Code::BarrierSkipped => {
            if let Some(barrier) = insts_mut(set, 0, "CoreBarrier").into_iter().next() {
                barrier["id"] = json!({"affine": "4*i0+1"});
            }
        }
        Code::AttributesReplaced => {
            if let Some(f) = function_mut(set, one) {
                f.insert("attributes".to_owned(), json!(["need_unroll"]));
            }
        }
        Code::NotLinked => {
            set.options.insert("passes".to_owned(), json!(["vnc_link"]));
        }
        Code::BadPassSelection => {
            // A gap: the address map is skipped between the linker and vnc_link.
            set.options.insert("passes".to_owned(), json!(["verify", "bir_linker", "vnc_link"]));
        }
        Code::ConflictingAddrSpace => {
            if let Some(allocations) = allocations_mut(set, 0) {
                allocations.push(mk_set(
                    "scratch_set",
                    "Internal",
                    "Local",
                    "bfloat16",
                    &[128, 512],
                    vec![memloc_dram("scratch", 0x40_0000, true)],
                ));
            }
            if let Some(allocations) = allocations_mut(set, one) {
                let mut a = memloc_dram("mixed_a", 0, false);
                a.insert("remote_local_target".to_owned(), json!([shared_name(0), 0]));
                let mut b = memloc_dram("mixed_b", 0, false);
                b.insert("remote_local_target".to_owned(), json!(["scratch", 0]));
                allocations.push(mk_set("mixed_set", "ExternalInput", "Local", "bfloat16", &[128, 512], vec![a, b]));
            }
        }
        Code::ViewOfView => {
            // `relay` on core 0 targets `relay_c1` on core 1, itself a view of core 0's
            // shared tensor.
            if let Some(allocations) = allocations_mut(set, 0) {
                let mut relay = memloc_dram("relay", 0, false);
                relay.insert("remote_local_target".to_owned(), json!(["relay_c1", one]));
                allocations.push(mk_set("relay_set", "Internal", "Local", "bfloat16", &[128, 512], vec![relay]));
            }
            if let Some(allocations) = allocations_mut(set, one) {
                let mut middle = memloc_dram("relay_c1", 0, false);
                middle.insert("remote_local_target".to_owned(), json!([shared_name(0), 0]));
                allocations.push(mk_set("relay_set", "Internal", "Local", "bfloat16", &[128, 512], vec![middle]));
            }
        }
        Code::StrayRemoteUpdate => push_inst(
            set,
            one,
            json!({"name": "mm_signals_peer", "opcode": "Matmult", "engine": "PE",
                   "sync_info": {"on_update": [{"id": 9, "update_value": 1, "mode": "sem-inc", "target_core": 0}]}}),
        ),
        Code::NothingToRelink => *set = clean_set(&GenConfig { cores: 1, fault: None, ..config.clone() }),
        Code::AlreadyLinked => {
            // Link the set, then give the result to bir_linker again.
            replace_with_linked(set, None);
        }
        Code::BarrierCountMismatch => {
            if let Some(blocks) = blocks_mut(set, one) {
                for block in blocks.iter_mut().rev() {
                    let Some(insts) = block.get_mut("instructions").and_then(Value::as_array_mut) else {
                        continue;
                    };
                    if let Some(pos) =
                        insts.iter().rposition(|i| i.get("opcode").and_then(Value::as_str) == Some("CoreBarrier"))
                    {
                        insts.remove(pos);
                        break;
                    }
                }
            }
        }
        Code::BarrierIdsNotDense => {
            let barriers = insts_mut(set, one, "CoreBarrier");
            if let Some(first) = barriers.into_iter().next() {
                first["id"] = json!(7);
            }
        }
        Code::LocalCollectiveNameMissing => {
            // An NKI kernel's all-reduce buffer, numbered per core (`.31` on core 0,
            // `.72` on core 1), as a kernel launched without its LNC grid leaves it.
            for (core, number) in [(0, 31), (one, 72)] {
                let buffer = format!("inst____mp_main__.sbuf_allreduce_tp4-0:sbuf_in.{number}");
                if let Some(allocations) = allocations_mut(set, core) {
                    let memloc = memloc_dram(&buffer, 0x38_0000, true);
                    allocations.push(mk_set(
                        &format!("{buffer}_set"),
                        "Internal",
                        "Local",
                        "bfloat16",
                        &[128, 512],
                        vec![memloc],
                    ));
                }
                push_inst(
                    set,
                    core,
                    json!({"name": format!("sbuf_allreduce_tp4_{core}"), "opcode": "CollectiveCompute", "engine": "Pool",
                           "is_local": true, "cc_channel": {"kind": 2, "op": "add", "replica_groups": [[0, 1]]},
                           "ins": [ap(&buffer, "bfloat16")], "outs": [ap(&buffer, "bfloat16")]}),
                );
            }
        }
        Code::BarrierNameMismatch => {
            if let Some(first) = insts_mut(set, one, "CoreBarrier").into_iter().next() {
                first["name"] = json!("LocalSendRecv-1_480_sr_cb_begin");
            }
        }
        Code::FunctionMissing => {
            if let Some(functions) =
                set.modules.first_mut().and_then(|m| m.get_mut("functions")).and_then(Value::as_array_mut)
            {
                functions.push(json!({"name": "sg0001", "blocks": [{"name": "Block1", "instructions": []}]}));
            }
        }
        Code::BlockCountMismatch => {
            if let Some(blocks) = blocks_mut(set, one) {
                let extra = json!({"name": "Block_extra", "instructions": []});
                blocks.push(extra);
            }
        }
        Code::FunctionCountMismatch => {
            if let Some(functions) =
                set.modules.get_mut(one).and_then(|m| m.get_mut("functions")).and_then(Value::as_array_mut)
            {
                functions.push(json!({"name": "sg0001_helper", "blocks": []}));
            }
        }
        Code::BlockOrderMismatch => {
            if let Some(block) = blocks_mut(set, one).and_then(|b| b.last_mut()) {
                block["name"] = json!("Block_renamed");
            }
        }
        Code::SharedAddressMismatch => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.insert("addr".to_owned(), json!(SHARED_BASE + 0x8000));
            }
        }
        Code::SharedAddressSetMismatch => {
            if let Some(allocations) = allocations_mut(set, 0) {
                let mut m = memloc_dram("shared_core0_only", SHARED_BASE + 0x80_0000, true);
                m.insert("is_shared_post_dram_alloc".to_owned(), json!(true));
                allocations.push(mk_set(
                    "shared_core0_only_set",
                    "Internal",
                    "Shared",
                    "bfloat16",
                    &[128, 512],
                    vec![m],
                ));
            }
        }
        Code::SharedWithoutRemoteTarget => {
            if let Some(m) = memloc_mut(set, one, &shared_name(0)) {
                m.remove("remote_local_target");
            }
        }
        Code::Sb2SbCountMismatch => {
            if let Some(insts) = blocks_mut(set, one)
                .and_then(|b| b.get_mut(0))
                .and_then(|b| b.get_mut("instructions"))
                .and_then(Value::as_array_mut)
            {
                if let Some(pos) =
                    insts.iter().position(|i| i.get("opcode").and_then(Value::as_str) == Some("GPSIMDSB2SB"))
                {
                    insts.remove(pos);
                }
            }
        }
        Code::MissingCoreId => {
            if let Some(m) = set.modules.get_mut(one).and_then(Value::as_object_mut) {
                m.insert("attributes".to_owned(), json!({}));
            }
        }
        Code::VncLinkCoreCount => {
            // vnc_link on its own over the linked module, with one core too many.
            replace_with_linked(set, Some(vec!["verify".into(), "bir_linker".into()]));
            set.options.insert("passes".to_owned(), json!(["vnc_link"]));
            set.options.insert("lnc".to_owned(), json!(config.cores + 1));
        }
        Code::PeerUpdateMissing => {
            if let Some(block) = remote_blocks_mut(set, one).and_then(|b| b.get_mut(0)) {
                if let Some(updates) = block.pointer_mut("/sync_info/on_update").and_then(Value::as_array_mut) {
                    updates.retain(|u| u.get("target_core").is_some());
                }
            }
        }
        Code::RemoteBlockCountMismatch => {
            if let Some(blocks) = remote_blocks_mut(set, one) {
                blocks.pop();
            }
        }
        Code::VncAddrMapCoreCount => {
            set.options.insert("lnc".to_owned(), json!(config.cores + 2));
        }
    }
}

fn set_value_dup() -> Value {
    mk_set(
        "output_set",
        "ExternalOutput",
        "Local",
        "bfloat16",
        &[128, 512],
        vec![memloc_dram("output", 0x30_0000, true)],
    )
}
