//! The grid's coordinate has one parser and one printer (`model::place`): every spelling
//! an earlier parser of birlink's took, with the one answer it gets now, from the
//! fixture the VS Code extension's test reads too (`tests/data/places.json`).

use std::str::FromStr;

use birlink_core::model::place::{CoreId, Place, Scope, Slot};
use serde_json::Value;

fn fixture() -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/places.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn text<'v>(case: &'v Value, key: &str) -> Option<&'v str> {
    case.get(key).and_then(Value::as_str)
}

#[test]
fn every_spelling_of_a_core_a_subgraph_and_a_scope_has_one_answer() {
    let fixture = fixture();
    let cases = fixture["components"].as_array().unwrap();
    assert!(cases.len() > 20);
    for case in cases {
        let spelling = text(case, "text").unwrap();
        let core = CoreId::parse(spelling);
        assert_eq!(core.map(|c| c.0), case["core"].as_u64(), "core of {spelling:?}");
        assert_eq!(core.map(|c| c.to_string()).as_deref(), text(case, "printed"), "{spelling:?} printed");
        assert_eq!(CoreId::from_str(spelling).ok(), core, "FromStr agrees with parse for {spelling:?}");
        let slot = Slot::parse(spelling);
        assert_eq!(slot.map(|s| s.to_string()).as_deref(), text(case, "slot"), "slot of {spelling:?}");
        let scope = Scope::parse(spelling);
        assert_eq!(scope.map(|s| s.to_string()).as_deref(), text(case, "scope"), "scope of {spelling:?}");
    }
}

#[test]
fn every_spelling_of_a_place_has_one_answer_and_prints_back() {
    let fixture = fixture();
    for case in fixture["places"].as_array().unwrap() {
        let spelling = text(case, "text").unwrap();
        let place = Place::from_str(spelling).ok();
        assert_eq!(place.map(|p| p.to_string()).as_deref(), text(case, "place"), "place of {spelling:?}");
        if let Some(place) = place {
            // What a place prints parses back to it, as a place and as a scope.
            assert_eq!(Place::from_str(&place.to_string()), Ok(place));
            assert_eq!(Scope::parse(&place.to_string()), Some(Scope::Module(place)));
        }
    }
}

#[test]
fn every_path_says_the_same_place_wherever_it_is_read() {
    let fixture = fixture();
    for case in fixture["paths"].as_array().unwrap() {
        let path = text(case, "path").unwrap();
        let said = Place::of_path(path);
        assert_eq!(said.core.map(|c| c.0), case["core"].as_u64(), "core of {path:?}");
        assert_eq!(said.slot.map(|s| s.to_string()).as_deref(), text(case, "slot"), "slot of {path:?}");
        // The work directory's reader and the module reader agree (one parser below both).
        let dump = birlink_core::read::workdir::dump_of(&path.replace('\\', "/"));
        if let Some(dump) = dump {
            assert_eq!(Some(dump.place.core), said.core, "{path:?} as a dump");
        }
    }
}
