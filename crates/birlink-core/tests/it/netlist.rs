//! The netlist's `PartIOs` in every shape birlink reads (docs/spec/link.md §0.3): a
//! partition's `Inputs` and `Outputs` with or without the intermediates it reads and
//! writes (its `IntermediateIOs` lists them all). The real key layout is not public, so
//! each shape must bind every call to the same tensors, and a count that does not fit
//! must still be BL0316, in every shape.

use birlink_core::gen::{self, GenConfig, IoShape, Layout};
use birlink_core::{Flow, Outcome, Severity, SourceFile};
use serde_json::Value;

fn config(shape: IoShape) -> GenConfig {
    GenConfig { flow: Flow::Modular, subgraphs: 3, partitions: 6, insts: 24, io_shape: shape, ..GenConfig::default() }
}

fn sources(config: &GenConfig) -> Vec<SourceFile> {
    gen::generate(config, Layout::Files).iter().map(gen::GenFile::source).collect()
}

fn link(sources: Vec<SourceFile>) -> Outcome {
    birlink_core::run(sources, &Default::default())
}

fn problems(outcome: &Outcome) -> Vec<String> {
    let diagnostics = &outcome.report.diagnostics;
    diagnostics.iter().filter(|d| d.severity > Severity::Note).map(|d| format!("{} {}", d.code, d.message)).collect()
}

/// The netlist file's JSON, edited.
fn edit_netlist(mut sources: Vec<SourceFile>, edit: impl Fn(&mut Value)) -> Vec<SourceFile> {
    for source in &mut sources {
        if source.path.ends_with("hlo_netlist.json") {
            let mut netlist: Value = serde_json::from_slice(source.content.bytes().unwrap()).unwrap();
            edit(&mut netlist);
            *source = SourceFile::text(source.path.clone(), serde_json::to_string_pretty(&netlist).unwrap());
        }
    }
    sources
}

#[test]
fn every_shape_of_part_ios_binds_every_call_to_the_same_tensors() {
    let reference = link(sources(&config(IoShape::Apart)));
    assert_eq!(problems(&reference), Vec::<String>::new());
    assert_eq!(reference.report.options.flow, Flow::Modular);
    assert_eq!(reference.report.partitions.len(), 6);
    // The shapes really differ: a later layer's `Outputs` lists its hidden state or not.
    let outputs = |shape: IoShape| -> Value {
        let netlist = gen::grid::netlist(&gen::grid::partitions(&config(shape)), shape);
        netlist["PartMap"][2]["PartIOs"]["Outputs"].clone()
    };
    assert_ne!(outputs(IoShape::Apart), outputs(IoShape::InOutputs));
    for shape in IoShape::ALL {
        let outcome = link(sources(&config(shape)));
        assert_eq!(problems(&outcome), Vec::<String>::new(), "{shape:?}");
        assert_eq!(outcome.report.partitions, reference.report.partitions, "{shape:?}: the calls' tensors");
        assert_eq!(outcome.report.dispatcher, reference.report.dispatcher, "{shape:?}: the dispatcher");
        assert_eq!(outcome.report.aliases, reference.report.aliases, "{shape:?}: the handoffs");
        assert_eq!(birlink_core::bir_linker_log(&outcome), birlink_core::bir_linker_log(&reference), "{shape:?}");
    }
}

#[test]
fn a_call_short_of_an_output_is_bl0316_in_every_shape() {
    for shape in IoShape::ALL {
        // Partition 2 (a layer, not its definition's first) loses its last output.
        let sources = edit_netlist(sources(&config(shape)), |netlist| {
            if let Some(outputs) = netlist["PartMap"][2]["PartIOs"]["Outputs"].as_array_mut() {
                outputs.pop();
            }
        });
        let outcome = link(sources);
        let found = problems(&outcome);
        assert!(
            found.iter().any(|p| p.starts_with("BL0316 partition 2 calls definition 1 with")),
            "{shape:?}: {found:?}"
        );
    }
}
