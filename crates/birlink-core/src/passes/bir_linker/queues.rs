//! Step 8, `merge_queues`: DMA queues merged by name in first-appearance order (modules
//! by core id), each core's instances renamed `<instance>_defId_<core>` and tagged with
//! the core, and each queue's semaphores counted (spec §3.8; `initQueues`).
//!
//! The renaming is planned right after step 3 ([`plan`]): step 4 switches to the new
//! names before step 8 applies them. An instance whose queue-level keys differ from the
//! merged queue's keeps its own as `source_queue`; an existing `SwitchQueueInstance`
//! follows its instance's new name.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use super::copy::warn_attributes;
use super::copy::CoreInfo;
use super::record::Step;
use crate::diag::Diagnostic;
use crate::model::arena::Handle;
use crate::model::entity::EntityKind;
use crate::model::ir::{
    edit_object_field, instance_source_name, str_field, Module, Op, Queue, QueueInstance, UpdateView,
};
use crate::output::print;
use crate::output::report::{InstanceRow, QueueRow, SemaphoreCount, StepRow, Unit};

/// The merged queues and every instance's new name.
pub(super) struct MergePlan {
    /// Merged queue names in first-appearance order, with the queue entity kept.
    queues: Vec<(String, Handle<Queue>)>,
    /// Per merged queue, its instances in merged order.
    instances: Vec<Vec<PlannedInstance>>,
}

/// One queue instance of a merge plan.
struct PlannedInstance {
    core: u64,
    /// The definition it came with.
    def: u64,
    instance: Handle<QueueInstance>,
    /// Its name in the input (`<queue>_<index>` when it had none).
    source: String,
    /// Its linked name, `<source>_defId_<core>`.
    name: String,
    /// The queue it came from, before merging.
    source_queue: Handle<Queue>,
}

impl MergePlan {
    /// For each merged queue definition `def` has instances in, in queue order: the
    /// queue's name and the linked name of the definition's first instance of it.
    pub(super) fn first_instances(&self, def: u64) -> Vec<(&str, &str)> {
        self.queues
            .iter()
            .zip(&self.instances)
            .filter_map(|((queue, _), instances)| {
                let first = instances.iter().find(|entry| entry.def == def)?;
                Some((queue.as_str(), first.name.as_str()))
            })
            .collect()
    }
}

/// Decides the merged queues and every instance's new name.
pub(super) fn plan(linked: &Module, cores: &[CoreInfo]) -> MergePlan {
    let mut plan = MergePlan { queues: Vec::new(), instances: Vec::new() };
    let mut index: HashMap<String, usize> = HashMap::new();
    for info in cores {
        for &queue in &info.queues {
            let q = &linked.store.queues[queue];
            let name = q.name().to_owned();
            let slot = *index.entry(name.clone()).or_insert_with(|| {
                plan.queues.push((name.clone(), queue));
                plan.instances.push(Vec::new());
                plan.queues.len() - 1
            });
            for (i, &instance) in q.instances.iter().enumerate() {
                let source = instance_source_name(&name, linked.store.instances[instance].name(), i);
                let new_name = format!("{source}_defId_{}", info.def);
                plan.instances[slot].push(PlannedInstance {
                    core: info.core,
                    def: info.def,
                    instance,
                    source,
                    name: new_name,
                    source_queue: queue,
                });
            }
        }
    }
    plan
}

/// Applies the plan: one `report.queues` row per merged queue.
pub(super) fn merge(
    linked: &mut Module,
    cores: &[CoreInfo],
    plan: &MergePlan,
    n_cores: u64,
    rows: &mut Vec<QueueRow>,
    diags: &mut Vec<Diagnostic>,
) -> StepRow {
    let mut step = Step::new("merge_queues");
    let mut renames: HashMap<(u64, String, String), String> = HashMap::new();
    for ((queue_name, merged), planned) in plan.queues.iter().zip(&plan.instances) {
        let merged_fields = linked.store.queues[*merged].fields.clone();
        let unit = Unit::Queue(queue_name.clone());
        let mut instances = Vec::new();
        let mut row = QueueRow {
            name: queue_name.clone(),
            instances: Vec::new(),
            semaphores: SemaphoreCount { total: 0, per_core: vec![0; n_cores as usize] },
        };
        let mut semaphores: Vec<BTreeSet<String>> = vec![BTreeSet::new(); n_cores as usize];
        for PlannedInstance { core, def, instance, source, name: new_name, source_queue } in planned {
            let source_fields = linked.store.queues[*source_queue].fields.clone();
            let i = &linked.store.instances[*instance];
            warn_attributes(&i.fields, EntityKind::Instance, source, *core, i.src.as_ref(), diags);
            step.change(
                linked,
                &unit,
                "",
                |m| print::instance_line(m, *instance),
                |m| {
                    let i = &mut m.store.instances[*instance];
                    i.fields.insert("name".to_owned(), Value::from(new_name.clone()));
                    edit_object_field(&mut i.fields, "attributes", |attributes| {
                        attributes.insert("neuron_core_id".to_owned(), Value::from(*core));
                    });
                    if source_fields != merged_fields {
                        i.fields.insert("source_queue".to_owned(), Value::Object(source_fields));
                    }
                },
            );
            instances.push(*instance);
            renames.insert((*def, queue_name.clone(), source.clone()), new_name.clone());
            row.instances.push(InstanceRow { core: *core, name: new_name.clone(), source_name: source.clone() });
            count_semaphores(linked, *instance, semaphores.get_mut(*core as usize));
        }
        for (core, ids) in semaphores.iter().enumerate() {
            row.semaphores.per_core[core] = ids.len() as u64;
        }
        row.semaphores.total = row.semaphores.per_core.iter().sum();
        linked.store.queues[*merged].instances = instances;
        linked.queues.push(*merged);
        rows.push(row);
    }
    follow_renames(linked, cores, &renames, &mut step);
    step.finish()
}

/// Adds the distinct ids of the local semaphore updates of an instance's DMA blocks.
fn count_semaphores(linked: &Module, instance: Handle<QueueInstance>, ids: Option<&mut BTreeSet<String>>) {
    let Some(ids) = ids else { return };
    for &inst in &linked.store.instances[instance].insts {
        let inst = &linked.store.insts[inst];
        if inst.op != Op::DmaBlock {
            continue;
        }
        for update in &inst.updates() {
            let view = UpdateView::of(update);
            if view.is_remote() || view.kind != "semaphore" {
                continue;
            }
            if let Some(id) = view.id {
                ids.insert(id.to_string());
            }
        }
    }
}

/// Existing `SwitchQueueInstance` instructions follow their instance's new name.
fn follow_renames(
    linked: &mut Module,
    cores: &[CoreInfo],
    renames: &HashMap<(u64, String, String), String>,
    step: &mut Step,
) {
    for info in cores {
        for &function in &info.functions {
            let mut switches = Vec::new();
            linked.walk_function(function, &mut |inst| {
                if linked.store.insts[inst].op == Op::SwitchQueueInstance && linked.store.insts[inst].src.is_some() {
                    switches.push(inst);
                }
            });
            let unit = Unit::Function(linked.store.functions[function].name().to_owned());
            for switch in switches {
                let fields = linked.store.insts[switch].fields();
                let (Some(queue), Some(instance)) = (str_field(&fields, "queue"), str_field(&fields, "instance"))
                else {
                    continue;
                };
                let Some(new_name) = renames.get(&(info.def, queue.to_owned(), instance.to_owned())) else {
                    continue;
                };
                let new_name = Value::from(new_name.clone());
                drop(fields);
                step.change(
                    linked,
                    &unit,
                    "",
                    |m| print::inst_line(m, switch),
                    |m| m.store.insts[switch].fields_mut().insert("instance".to_owned(), new_name),
                );
            }
        }
    }
}
