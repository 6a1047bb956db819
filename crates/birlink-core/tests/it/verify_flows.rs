//! Every check `verify` makes runs in every flow, unless the link spec says why not
//! (docs/spec/link.md §1.2): each verify code's fault, generated in each flow and linked
//! in it, is reported there; where the spec says a check is not the flow's, the fault is
//! not reported as that code, and the reason is written here beside it.

use birlink_core::gen::{self, GenConfig, Layout};
use birlink_core::{Code, Flow, LinkOptions, Pass};

/// The fault's set in `flow`, linked in it: the codes reported.
fn reported(code: Code, flow: Flow) -> Vec<Code> {
    let config =
        GenConfig { fault: Some(code), flow, cores: 2, insts: 24, subgraphs: 3, partitions: 6, ..GenConfig::default() };
    let layout = if flow == Flow::Seeds { Layout::Bundle } else { Layout::Files };
    let sources = gen::generate(&config, layout).iter().map(gen::GenFile::source).collect();
    let outcome = birlink_core::run(sources, &LinkOptions { flow: Some(flow), ..LinkOptions::default() });
    outcome.report.diagnostics.iter().map(|d| d.code).collect()
}

/// The checks that are not a flow's, and why (docs/spec/link.md §1.2).
fn not_the_flows(code: Code, flow: Flow) -> Option<&'static str> {
    match (code, flow) {
        (Code::DuplicateModuleName, Flow::Modular | Flow::Flat) => {
            Some("the compiler's flows name a linked function by its place (sg0000), never by its module's name")
        }
        (Code::AlreadyLinked, Flow::Modular | Flow::Flat) => {
            Some("a core's linked module is the VNC passes' input there; a set that mixes them is BL0109")
        }
        (Code::SubgraphMissing, Flow::Flat) => {
            Some("every core of the flat flow has one subgraph: a core without it is no core of the grid (BL0102)")
        }
        (Code::DefinitionsMismatch, Flow::Flat) => Some("a netlist with partitions makes the flow modular"),
        (Code::SubgraphMissing | Code::DefinitionsMismatch | Code::MixedFlows, Flow::Seeds) => {
            Some("the seeds' reading has no grid of subgraphs: one module per core")
        }
        _ => None,
    }
}

#[test]
fn every_verify_check_runs_in_every_flow_the_spec_gives_it() {
    let codes: Vec<Code> = Code::ALL.iter().copied().filter(|c| c.info().pass == Pass::Verify).collect();
    assert!(codes.len() >= 25, "{codes:?}");
    let mut wrong = Vec::new();
    for &code in &codes {
        for flow in Flow::ALL {
            let found = reported(code, flow).contains(&code);
            match (not_the_flows(code, flow), found) {
                (None, false) => wrong.push(format!("{code} is not reported in the {flow} flow")),
                (Some(why), true) => wrong.push(format!("{code} is reported in the {flow} flow, where {why}")),
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
