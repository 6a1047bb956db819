//! Entity keys (`birlink_core::model::entity`) find what they name, in every sample, after a
//! re-run, after unrelated entities are added, and when instruction names repeat across
//! loop bodies and inside one block.

use crate::support::seeds;
use birlink_core::model::entity::{EntityKey, EntityPath};
use birlink_core::tools::query::{self, EntityQuery};
use birlink_core::{gen::samples, EntityKind, SourceFile};

fn link(sources: Vec<SourceFile>) -> birlink_core::Outcome {
    birlink_core::run(sources, &seeds())
}

#[test]
fn every_entity_of_every_sample_is_found_by_its_key() {
    let mut kinds = std::collections::BTreeSet::new();
    for (info, bytes) in samples::all() {
        let outcome = link(vec![SourceFile {
            path: info.file.clone(),
            content: birlink_core::Content::Bytes(bytes),
            role: birlink_core::Role::Auto,
        }]);
        let Some(module) = &outcome.linked else { continue };
        let keys = query::all_keys(module);
        assert!(!keys.is_empty(), "{}", info.file);
        let mut seen = std::collections::BTreeSet::new();
        for (entity, key) in keys {
            let text = key.to_string();
            assert!(seen.insert(text.clone()), "{}: two entities share the key {text}", info.file);
            let parsed: EntityKey = text.parse().unwrap_or_else(|e| panic!("{}: {text}: {e}", info.file));
            assert_eq!(parsed, key, "{text}");
            let view = query::entity_view_by_key(module, &outcome.files, &parsed)
                .unwrap_or_else(|| panic!("{}: {text} finds nothing", info.file));
            assert_eq!(view.key, key, "{}: {text} finds another entity", info.file);
            assert_eq!((view.entity.kind, &view.entity.name), (entity.kind, &entity.name), "{text}");
            assert_eq!(key.kind(), entity.kind);
            kinds.insert(key.kind());
        }
    }
    for kind in [
        EntityKind::Function,
        EntityKind::Block,
        EntityKind::Instruction,
        EntityKind::Set,
        EntityKind::Memloc,
        EntityKind::Queue,
        EntityKind::Instance,
    ] {
        assert!(kinds.contains(&kind), "no sample has a {kind}");
    }
}

/// Two cores whose function has a loop twice over, with the same instruction names in
/// both bodies, and a block that repeats an instruction name.
fn repeated_names(extra: bool) -> Vec<SourceFile> {
    let module = |core: u64| {
        let body = |block: &str| {
            serde_json::json!({"name": block, "instructions": [
                {"name": "load", "opcode": "DMACopy"},
                {"name": "mm", "opcode": "Matmult"},
            ]})
        };
        let mut first = vec![
            serde_json::json!({"name": "mm", "opcode": "Matmult"}),
            serde_json::json!({"name": "loop_a", "opcode": "Loop", "blocks": [body("body_a")]}),
            serde_json::json!({"name": "loop_b", "opcode": "Loop", "blocks": [body("body_b")]}),
            serde_json::json!({"name": "mm", "opcode": "Matmult"}),
        ];
        if extra {
            first.insert(0, serde_json::json!({"name": "added", "opcode": "Activation"}));
            first.insert(3, serde_json::json!({"name": "mm_other", "opcode": "Matmult"}));
        }
        serde_json::json!({
            "attributes": {"neuron_core_id": core},
            "functions": [{"name": "sg0000", "allocations": [], "blocks": [{"name": "Block1", "instructions": first}]}],
        })
    };
    (0..2).map(|c| SourceFile::text(format!("nc{c:02}.json"), module(c).to_string())).collect()
}

fn instruction(core: u64, block: &str, name: &str, occurrence: u32) -> EntityKey {
    EntityKey {
        core: Some(core),
        path: EntityPath::Instruction {
            function: format!("nc{core:02}"),
            block: block.to_owned(),
            name: name.to_owned(),
            occurrence,
        },
    }
}

#[test]
fn repeated_instruction_names_have_distinct_keys_that_survive_added_entities() {
    let before = link(repeated_names(false));
    let after = link(repeated_names(true));
    let (Some(m1), Some(m2)) = (&before.linked, &after.linked) else { panic!("both link") };
    let keys: Vec<String> = query::all_keys(m1)
        .into_iter()
        .filter(|(q, _)| q.kind == EntityKind::Instruction && q.name == "mm")
        .map(|(_, k)| k.to_string())
        .collect();
    assert_eq!(
        keys,
        [
            "instruction:0:nc00/Block1/mm",
            "instruction:0:nc00/body_a/mm",
            "instruction:0:nc00/body_b/mm",
            "instruction:0:nc00/Block1/mm#1",
            "instruction:1:nc01/Block1/mm",
            "instruction:1:nc01/body_a/mm",
            "instruction:1:nc01/body_b/mm",
            "instruction:1:nc01/Block1/mm#1",
        ]
    );
    // The same key finds the same instruction (by its JSON) before and after other
    // instructions were added around it.
    for key in [instruction(1, "Block1", "mm", 1), instruction(0, "body_b", "mm", 0)] {
        let a = query::entity_view_by_key(m1, &before.files, &key).expect("found before");
        let b = query::entity_view_by_key(m2, &after.files, &key).expect("found after");
        assert_eq!(a.linked, b.linked, "{key}");
        assert_eq!(a.key, b.key);
    }
    // A key for an entity that is not there, or on another core, finds nothing.
    assert!(query::entity_view_by_key(m1, &before.files, &instruction(1, "Block1", "mm", 2)).is_none());
    let wrong_core = EntityKey { core: Some(0), ..instruction(1, "Block1", "mm", 0) };
    assert!(query::entity_view_by_key(m1, &before.files, &wrong_core).is_none());
    // A view by name reports the key of what it found.
    let query = EntityQuery::new(EntityKind::Block, "body_b", Some("nc01".into()));
    assert_eq!(query::key_for(m1, &query).map(|k| k.to_string()).as_deref(), Some("block:1:nc01/body_b"));
}
