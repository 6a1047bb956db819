//! The reducer's tests: ordinary `#[test]`s, no DOM, no worker.

use std::rc::Rc;

use yew::Reducible;

use birlink_core::output::report::{ModuleUnit, Unit};
use birlink_core::tools::share::{self, View, ViewState};
use birlink_core::{Code, EntityKey, EntityKind};

use super::*;
use crate::protocol::RunStats;

const A: Side = Side::Shown;
const B: Side = Side::Against;

fn sample_run(run: u64, file: &str) -> (RunResult, birlink_core::Outcome) {
    let bytes = std::fs::read(format!("{}/www/samples/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap_or_default();
    let outcome = birlink_core::run(
        vec![birlink_core::SourceFile {
            path: file.to_owned(),
            content: birlink_core::Content::Bytes(bytes),
            role: birlink_core::Role::Auto,
        }],
        &birlink_core::LinkOptions::default(),
    );
    let linked = outcome.linked.is_some();
    (
        RunResult::new(run, outcome.report.clone(), linked, RunStats::default())
            .aligned(birlink_core::tools::align::of(&outcome)),
        outcome,
    )
}

fn sample_result(run: u64, file: &str) -> RunResult {
    sample_run(run, file).0
}

fn reduce(state: State, action: Action) -> State {
    (*Rc::new(state).reduce(action)).clone()
}

fn picked(path: &str, size: u64) -> PickedFile {
    PickedFile { path: path.to_owned(), size, blob: FileBlob(None) }
}

/// A state that has asked for run 1 of `file` and received it.
fn linked(file: &str) -> State {
    let state = reduce(
        State::default(),
        LinkAction::shown(LinkOp::ReplaceFiles { files: vec![picked(file, 1)], sample: None }),
    );
    assert_eq!(state.sides[A].link.run, 1);
    reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, file)))))
}

#[test]
fn a_failing_link_opens_on_its_first_error_and_asks_for_its_place() {
    let state = linked("error-1514.json");
    assert_eq!(state.view, View::Diagnostics);
    let Some(Selection::Diagnostic(index)) = state.details.selection else { panic!("no diagnostic selected") };
    let result = state.result().expect("result");
    assert_eq!(result.report.diagnostics[index].code, Code::RemoteMemlocMissing);
    assert_eq!(result.failed_pass, Some(2));
    assert_eq!(state.step, Some((2, 0)), "the pipeline view starts at the failing pass");
    assert!(matches!(state.details.shown, Details::Original { original: Fetch::Loading, .. }));
    let asked = state.details.out.message.as_ref().expect("a request for the failing place");
    assert!(
        matches!(&asked.query, Query::Original { file, pointer } if file == "error-1514.json" && pointer.ends_with("/remote_local_target"))
    );
}

#[test]
fn a_diagnostic_without_a_place_says_so_and_asks_nothing() {
    for file in ["error-1512.json", "error-1513.json", "error-1509.json"] {
        let state = linked(file);
        let asked_before = state.details.out.seq;
        assert!(
            matches!(&state.details.shown, Details::Original { original: Fetch::Missing(why), .. } if why.contains("as a whole")),
            "{file}: {:?}",
            state.details
        );
        assert_eq!(asked_before, 0, "{file}: nothing to fetch, nothing asked");
        // Moving away and back keeps it settled.
        let state = reduce(state, Action::Key(Key::Next));
        let state = reduce(state, Action::Key(Key::Previous));
        assert!(!matches!(&state.details.shown, Details::Original { original: Fetch::Loading, .. }), "{file}");
    }
}

#[test]
fn a_dma_block_of_a_queue_instance_shows_its_queue_as_its_unit() {
    let (result, outcome) = sample_run(1, "matmul-2core.json");
    let state = reduce(
        State::default(),
        LinkAction::shown(LinkOp::ReplaceFiles { files: vec![picked("m.json", 1)], sample: None }),
    );
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(result))));
    let module = outcome.linked.as_ref().expect("linked");
    let relocation = &state.result().expect("result").report.semaphores.relocations[0];
    let query = query(EntityKind::Instruction, &relocation.block, Some(&relocation.block_parent));
    let state = reduce(state, Action::Details(DetailsAction::Select(Selection::Entity(query.clone()))));
    assert_eq!(state.details.shown, Details::Entity { query: query.clone(), view: Fetch::Loading });
    assert_eq!(state.details.out.message.as_ref().map(|a| &a.query), Some(&Query::Entity(query.clone())));
    let view = birlink_core::tools::query::entity_view(module, &outcome.files, &query).expect("the DMA block");
    assert!(matches!(&view.unit, Unit::Queue(_)), "a queue instance's block belongs to a queue: {:?}", view.unit);
    let unit = ModuleUnit { module: view.module.clone(), unit: view.unit.clone() };
    let state = reduce(
        state,
        Action::Details(DetailsAction::EntityLoaded {
            run: 1,
            query: query.clone(),
            view: Some(Box::new(view.clone())),
        }),
    );
    assert!(matches!(&state.details.shown, Details::Entity { view: Fetch::Ready(v), .. } if v.key == view.key));
    let state = reduce(state, Action::Details(DetailsAction::ShowUnit(unit.clone())));
    assert_eq!(state.details.out.message.as_ref().map(|a| &a.query), Some(&Query::Unit(unit.clone())));
    let text = birlink_core::tools::query::unit_text(module, &unit);
    assert!(text.is_some(), "the worker has the queue's text");
    let state = reduce(state, Action::Details(DetailsAction::UnitLoaded { run: 1, unit: unit.clone(), text }));
    assert!(matches!(&state.details.shown, Details::Unit { text: Fetch::Ready(_), .. }));
    // A unit the worker does not have settles as missing, not loading.
    let other = ModuleUnit { module: None, unit: Unit::Function("nowhere".into()) };
    let state = reduce(state, Action::Details(DetailsAction::ShowUnit(other.clone())));
    let state = reduce(state, Action::Details(DetailsAction::UnitLoaded { run: 1, unit: other, text: None }));
    assert!(matches!(&state.details.shown, Details::Unit { text: Fetch::Missing(_), .. }));
}

#[test]
fn answers_for_another_selection_or_run_are_dropped() {
    let state = linked("matmul-2core.json");
    let a = query(EntityKind::Function, "nc00", None);
    let b = query(EntityKind::Function, "nc01", None);
    let state = reduce(state, Action::Details(DetailsAction::Select(Selection::Entity(b.clone()))));
    let late = reduce(state.clone(), Action::Details(DetailsAction::EntityLoaded { run: 1, query: a, view: None }));
    assert_eq!(late.details.shown, state.details.shown, "an answer about `a` does not show while `b` is selected");
    let stale = reduce(state.clone(), Action::Details(DetailsAction::EntityLoaded { run: 0, query: b, view: None }));
    assert_eq!(stale.details.shown, state.details.shown);
}

#[test]
fn a_clean_link_keeps_the_view_and_shows_the_first_change() {
    let state = State { view: View::Barriers, ..State::default() };
    let state =
        reduce(state, LinkAction::shown(LinkOp::ReplaceFiles { files: vec![picked("m.json", 1)], sample: None }));
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "matmul-2core.json")))));
    assert_eq!(state.view, View::Barriers);
    assert_eq!(state.details.selection, None);
    let (pass, step) = state.step.expect("a step");
    let result = state.result().expect("result");
    assert!(result.report.passes[pass].steps[step].changes > 0);
    assert!(result.barrier_collisions().is_empty());
    assert!(!result.reused_old_ids().is_empty(), "both cores number barriers from 0");
}

#[test]
fn stale_answers_are_ignored() {
    let state = reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(vec![picked("a.json", 1)])));
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("b.json", 1)])));
    assert_eq!(state.sides[A].link.run, 2);
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "matmul-2core.json")))));
    assert!(state.result().is_none());
    let state = reduce(state, Action::Run(RunAction::Progress { run: 1, phase: "old".into(), done: 1, total: 2 }));
    assert_eq!(state.sides[A].link.status, Status::Running { phase: "starting".into(), done: 0, total: 1 });
}

#[test]
fn every_change_of_the_link_set_posts_a_link_the_first_at_once() {
    let state = reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(vec![picked("nc00.json", 1)])));
    let first = state.sides[A].link.out.message.clone().expect("a link");
    assert_eq!((first.run, first.delay_ms, first.files.len()), (1, 0, 1));
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("nc01.json", 1)])));
    let second = state.sides[A].link.out.message.clone().expect("a link");
    assert_eq!((second.run, second.delay_ms, second.files.len()), (2, 120, 2), "later links wait for the batch");
    let state = reduce(state, LinkAction::shown(LinkOp::SetLnc(Some(4))));
    assert_eq!(state.sides[A].link.out.message.as_ref().map(|o| (o.run, o.lnc)), Some((3, Some(4))));
    let seq = state.sides[A].link.out.seq;
    let state = reduce(state, LinkAction::shown(LinkOp::ClearFiles));
    assert_eq!(state.sides[A].link.status, Status::Idle);
    assert_eq!(
        (state.sides[A].link.out.seq, state.sides[A].link.out.message.is_none()),
        (seq, true),
        "nothing to link"
    );
}

#[test]
fn the_flow_asked_for_is_linked_with_and_a_work_directory_sample_brings_its_own() {
    // Asked for (`flow=`, the flow menu): every link of the side carries it.
    let state = reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(vec![picked("nc00.json", 1)])));
    let state = reduce(state, LinkAction::shown(LinkOp::SetFlow(Some(birlink_core::Flow::Seeds))));
    let order = state.sides[A].link.out.message.clone().expect("a link");
    assert_eq!((order.run, order.flow), (2, Some(birlink_core::Flow::Seeds)));
    let seq = state.sides[A].link.out.seq;
    let again = reduce(state.clone(), LinkAction::shown(LinkOp::SetFlow(Some(birlink_core::Flow::Seeds))));
    assert_eq!(again.sides[A].link.out.seq, seq, "the same flow again relinks nothing");
    // A bundle sample keeps the user's choice; a work directory sample brings its
    // index's flow, which goes with it.
    let mut state = reduce(state, Action::SamplesLoaded(birlink_core::gen::samples::index()));
    state = reduce(
        state,
        LinkAction::shown(LinkOp::ReplaceFiles {
            files: vec![picked("moe-2core.json", 1)],
            sample: Some("moe-2core.json".into()),
        }),
    );
    assert_eq!(state.sides[A].link.flow, Some(birlink_core::Flow::Seeds), "the user's choice stays");
    let state = reduce(state, LinkAction::shown(LinkOp::SetFlow(None)));
    let state = reduce(
        state,
        LinkAction::shown(LinkOp::ReplaceFiles {
            files: vec![picked("workdir-2core/nc00/sg00/x.json", 1)],
            sample: Some("workdir-2core".into()),
        }),
    );
    assert_eq!(state.sides[A].link.flow, Some(birlink_core::Flow::Seeds), "the sample's index says it");
    assert_eq!(state.sides[A].link.out.message.as_ref().and_then(|o| o.flow), Some(birlink_core::Flow::Seeds));
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("mine/nc00.json", 1)])));
    assert_eq!(state.sides[A].link.flow, None, "the user's own files are linked as the compiler decides");
    // The other side is untouched.
    assert_eq!(state.sides[Side::Against].link.flow, None);
}

#[test]
fn adding_a_file_with_the_same_path_replaces_it() {
    let state = reduce(
        State::default(),
        LinkAction::shown(LinkOp::AddFiles(vec![picked("nc00.json", 1), picked("nc01.json", 2)])),
    );
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("nc00.json", 3)])));
    let paths: Vec<(&str, u64)> = state.sides[A].link.files.iter().map(|f| (f.path.as_str(), f.size)).collect();
    assert_eq!(paths, vec![("nc01.json", 2), ("nc00.json", 3)]);
    let id = state.sides[A].link.files[0].id;
    let state = reduce(state, LinkAction::shown(LinkOp::RemoveFile(id)));
    assert_eq!(state.sides[A].link.files.len(), 1);
}

#[test]
fn the_users_first_files_replace_the_sample_and_the_menu_follows() {
    let state = reduce(
        State::default(),
        LinkAction::shown(LinkOp::ReplaceFiles {
            files: vec![picked("matmul-2core.json", 1)],
            sample: Some("matmul-2core.json".into()),
        }),
    );
    assert_eq!(state.sides[A].link.open_sample.as_deref(), Some("matmul-2core.json"), "the menu shows the open sample");
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("nc00.json", 1)])));
    assert_eq!(state.sides[A].link.open_sample, None, "the user's files are no sample");
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("nc01.json", 1)])));
    let paths: Vec<&str> = state.sides[A].link.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec!["nc00.json", "nc01.json"]);
    let state = reduce(
        state,
        LinkAction::shown(LinkOp::ReplaceFiles {
            files: vec![picked("x.json", 1)],
            sample: Some("error-1512.json".into()),
        }),
    );
    assert_eq!(state.sides[A].link.open_sample.as_deref(), Some("error-1512.json"));
}

#[test]
fn steps_move_with_the_keyboard_within_visible_steps() {
    let state = linked("matmul-2core.json");
    let steps = state.visible_steps();
    assert!(steps.len() > 3);
    assert!(steps.iter().all(|&(p, s)| state.result().expect("r").report.passes[p].steps[s].changes > 0));
    let state = reduce(state, Action::Key(Key::Next));
    assert_eq!(state.step, Some(steps[1]));
    let state = (0..100).fold(state, |state, _| reduce(state, Action::Key(Key::Next)));
    assert_eq!(state.step, steps.last().copied());
    let state = reduce(state, Action::View(ViewAction::ToggleHideUnchanged));
    assert!(state.visible_steps().len() > steps.len());
}

#[test]
fn diagnostics_move_with_the_keyboard_errors_first() {
    let state = linked("error-1514.json");
    let order = state.result().expect("r").diagnostic_order.clone();
    assert!(order.len() > 1, "the sample has more than one diagnostic");
    assert_eq!(state.details.selection, Some(Selection::Diagnostic(order[0])));
    let state = reduce(state, Action::Key(Key::Next));
    assert_eq!(state.details.selection, Some(Selection::Diagnostic(order[1])));
    let state = reduce(state, Action::Key(Key::Previous));
    let state = reduce(state, Action::Key(Key::Previous));
    assert_eq!(state.details.selection, Some(Selection::Diagnostic(order[0])), "stops at the first");
}

#[test]
fn escape_closes_help_then_search_then_the_selection() {
    let state = linked("matmul-2core.json");
    let state = reduce(
        state,
        Action::Details(DetailsAction::Select(Selection::Entity(query(EntityKind::Function, "nc00", None)))),
    );
    let state = reduce(state, Action::Search(SearchAction::Text("c_".into())));
    let state = reduce(state, Action::Key(Key::Help));
    assert!(state.help && state.search.open);
    let state = reduce(state, Action::Key(Key::Escape));
    assert!(!state.help && state.search.open);
    let state = reduce(state, Action::Key(Key::Escape));
    assert!(!state.search.open && state.details.selection.is_some());
    let state = reduce(state, Action::Key(Key::Escape));
    assert_eq!((state.details.selection, state.details.shown), (None, Details::Empty));
}

fn host_messages(state: &State) -> Vec<serde_json::Value> {
    state.host.out.messages.iter().map(|(_, m)| m.to_value()).collect()
}

#[test]
fn a_hosts_load_is_acknowledged_then_answered_when_linked() {
    let state = State::new(Mode::Embed, Page::default());
    let load = HostCall::Load {
        files: vec![picked("error-1514.json", 1)],
        lnc: None,
        state: ViewState { view: Some(View::CallGraph), ..ViewState::default() },
        against: None,
        against_lnc: None,
    };
    let state = reduce(state, Action::Host { id: serde_json::json!(7), call: Ok(load) });
    assert_eq!(host_messages(&state), vec![serde_json::json!({"birlink": "ack", "id": 7})]);
    // The start-up fetch, slower than the host, does not replace its files.
    let late = reduce(
        state.clone(),
        LinkAction::shown(LinkOp::StartFiles { files: vec![picked("matmul-2core.json", 1)], sample: None }),
    );
    assert_eq!(late.sides[A].link.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["error-1514.json"]);
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "error-1514.json")))));
    let linked = host_messages(&state).pop().expect("linked");
    assert_eq!(linked["birlink"], "linked");
    assert_eq!(linked["id"], 7);
    assert_eq!(linked["ok"], false);
    assert_eq!(linked["failed_pass"], "vnc_remote_addr_map");
    assert_eq!(state.view, View::CallGraph, "the load's view wins over opening on the failure");
    assert_eq!(state.history.out.seq, 0, "embedded, the page never writes its URL");
}

#[test]
fn a_show_with_a_selection_is_acknowledged_once_found_or_refused() {
    let state = reduce(linked("matmul-2core.json"), Action::Notice(None));
    let key: EntityKey = "function:1:nc01".parse().expect("key");
    let show = ViewState { view: Some(View::Barriers), select: Some(key.clone()), ..ViewState::default() };
    let state = reduce(state, Action::Host { id: serde_json::json!("s"), call: Ok(HostCall::Show(show)) });
    assert!(host_messages(&state).is_empty(), "not before the entity is found");
    assert_eq!(state.details.out.message.as_ref().map(|a| &a.query), Some(&Query::EntityByKey(key.clone())));
    let query = birlink_core::tools::query::query_of(&key);
    let found = reduce(
        state.clone(),
        Action::Details(DetailsAction::EntityLoaded { run: 1, query: query.clone(), view: None }),
    );
    assert_eq!(host_messages(&found).pop().expect("error")["code"], "not-found");
    let bad = ViewState { view: Some(View::Pipeline), diag: Some(99), ..ViewState::default() };
    let refused = reduce(found, Action::Host { id: serde_json::json!("d"), call: Ok(HostCall::Show(bad)) });
    let error = host_messages(&refused).pop().expect("error");
    assert_eq!((error["id"].clone(), error["code"].clone()), (serde_json::json!("d"), serde_json::json!("not-found")));
}

#[test]
fn a_links_state_applies_to_the_run_and_what_does_not_apply_is_said() {
    let link = ViewState::parse("view=barriers&step=bir_linker/aliases&diag=0").0;
    let state =
        reduce(State::default(), Action::History(HistoryAction::LinkState(link, vec!["`zoom=2`: not a part".into()])));
    let state =
        reduce(state, LinkAction::shown(LinkOp::ReplaceFiles { files: vec![picked("m.json", 1)], sample: None }));
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "matmul-2core.json")))));
    assert_eq!(state.view, View::Barriers);
    assert!(
        state.notice.as_deref().is_some_and(|n| n.contains("zoom=2") && n.contains("diag=0")),
        "{:?}",
        state.notice
    );
    let (p, s) = state.step.expect("the step");
    assert_eq!(state.result().expect("r").report.passes[p].steps[s].name, "aliases");
    let write = state.history.out.message.clone().expect("the URL follows");
    assert!(!write.push, "a link applied replaces the entry, it does not add one");
    assert_eq!(write.fragment, "view=barriers");
}

#[test]
fn a_users_steps_push_history_and_navigation_writes_nothing() {
    let state = linked("matmul-2core.json");
    let state = reduce(state, Action::View(ViewAction::Set(View::Addresses)));
    assert_eq!(
        state.history.out.message.as_ref().map(|w| (w.fragment.as_str(), w.push)),
        Some(("view=addresses", true))
    );
    let seq = state.history.out.seq;
    let state = reduce(state, Action::History(HistoryAction::Navigate(ViewState::parse("view=semaphores").0)));
    assert_eq!((state.view, state.history.out.seq), (View::Semaphores, seq));
    // An entity selection is written once its key is known.
    let query = query(EntityKind::Function, "nc00", None);
    let state = reduce(state, Action::Details(DetailsAction::Select(Selection::Entity(query.clone()))));
    assert_eq!(state.history.out.seq, seq, "not before the key is known");
    let (_, outcome) = sample_run(1, "matmul-2core.json");
    let view =
        birlink_core::tools::query::entity_view(outcome.linked.as_ref().expect("linked"), &outcome.files, &query);
    let state = reduce(state, Action::Details(DetailsAction::EntityLoaded { run: 1, query, view: view.map(Box::new) }));
    assert_eq!(
        state.history.out.message.as_ref().map(|w| (w.fragment.as_str(), w.push)),
        Some(("view=semaphores&select=function:0:nc00", true))
    );
}

#[test]
fn share_shows_a_link_or_says_why_not() {
    let state =
        State { page: Page { base: "http://h/b/".into(), full_query: String::new() }, ..linked("matmul-2core.json") };
    let state = reduce(state, Action::Key(Key::Share));
    assert_eq!(state.share.dialog, Some(ShareDialog::Loading));
    assert_eq!(state.share.out.messages.last().map(|(_, a)| &a.query), Some(&Query::Share));
    let ready = reduce(state.clone(), Action::Share(ShareAction::Loaded { run: 1, data: Ok("v1.abc".into()) }));
    let Some(ShareDialog::Link(link)) = &ready.share.dialog else { panic!("{:?}", ready.share.dialog) };
    assert!(link.starts_with("http://h/b/#view=pipeline") && link.ends_with("&data=v1.abc"), "{link}");
    let huge = "v1.".to_owned() + &"a".repeat(share::LINK_BUDGET);
    let too_large = reduce(state.clone(), Action::Share(ShareAction::Loaded { run: 1, data: Ok(huge) }));
    assert!(matches!(&too_large.share.dialog, Some(ShareDialog::NoLink(why)) if why.contains("above the budget")));
    let refused =
        reduce(state, Action::Share(ShareAction::Loaded { run: 1, data: Err("the link set is 300 MB".into()) }));
    assert!(matches!(&refused.share.dialog, Some(ShareDialog::NoLink(why)) if why.contains("300 MB")));
    let embedded = State { mode: Mode::Embed, ..linked("matmul-2core.json") };
    assert_eq!(reduce(embedded, Action::Key(Key::Share)).share.dialog, None, "no Share embedded");
    // A page with no address of its own (an editor's webview): no link, the bundle instead,
    // and the worker is not asked to encode anything.
    let hosted = State { page: Page { base: String::new(), full_query: String::new() }, ..linked("matmul-2core.json") };
    let hosted = reduce(hosted, Action::Key(Key::Share));
    assert_eq!(hosted.share.dialog, Some(ShareDialog::NoLink(super::share::NO_ADDRESS.to_owned())));
    assert!(hosted.share.out.messages.is_empty());
}

/// No log: only its questions' outbox and numbering kept.
fn no_log(log: &LogState) -> bool {
    *log == LogState { out: log.out.clone(), seq: log.seq, ..LogState::default() }
}

fn repro(state: State, action: impl Into<Action>) -> State {
    reduce(state, action.into())
}

#[test]
fn a_pasted_log_is_read_and_its_names_located_in_the_run() {
    let state = linked("error-1514.json");
    // A paste that is no log changes nothing.
    let before = Rc::new(state.clone());
    let after = before.clone().reduce(Action::Log(LogAction::Pasted("hello".to_owned())));
    assert!(Rc::ptr_eq(&before, &after));
    let line = "[INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named c_partial_0_remote_1 on core 0";
    let state = repro(state, LogAction::Pasted(format!("INFO start\n{line}\n")));
    assert!(state.log.read && !state.log.editing);
    assert_eq!(state.log.findings.len(), 1);
    assert_eq!(state.log.findings[0].line, 2);
    let ask = state.log.out.message.clone().expect("asks the worker");
    assert_eq!(ask.run, 1);
    assert!(matches!(&ask.query, Query::Locate(text) if text.contains(line)));
    // The worker's answer for the run jumps to the run's diagnostic about the name.
    let (_, outcome) = sample_run(1, "error-1514.json");
    let located: Vec<Vec<birlink_core::tools::log::Located>> =
        birlink_core::tools::log::locate_all(&state.log.findings, &outcome);
    let diagnostic = located[0][0].diagnostic.expect("the 1514 about it");
    let stale = repro(
        state.clone(),
        LogAction::Located { run: 7, text: state.log.text.clone(), located: located.clone(), beside: Box::default() },
    );
    assert!(stale.log.located.is_none(), "another run's answer is dropped");
    let state = repro(
        state.clone(),
        LogAction::Located { run: 1, text: state.log.text.clone(), located, beside: Box::default() },
    );
    assert_eq!(state.view, View::Diagnostics);
    assert_eq!(state.details.selection, Some(Selection::Diagnostic(diagnostic)));
    assert_eq!(state.result().unwrap().report.diagnostics[diagnostic].code, Code::RemoteMemlocMissing);
    // Closing forgets it.
    let closed = repro(state, LogAction::Close);
    assert!(no_log(&closed.log), "{:?}", closed.log);
}

#[test]
fn a_log_read_without_a_link_set_asks_nothing() {
    let state = repro(State::default(), LogAction::Open);
    assert!(state.log.editing);
    let state = repro(state, LogAction::Text("[NCC_IXLV002] Expected core barriers to have name A, but core barrier 5 in subgraph 0 on core 1 has name B".to_owned()));
    let state = repro(state, LogAction::Read);
    assert!(!state.log.editing && state.log.read);
    assert_eq!(state.log.findings[0].mentions.len(), 2);
    assert_eq!(state.log.out.seq, 0, "no run to look in");
    // A whole log's failure is read at its pass.
    let log = include_str!("../../crates/birlink-core/tests/logs/flat-illc059.txt");
    let state = repro(state, LogAction::Text(log.to_owned()));
    let state = repro(state, LogAction::Read);
    let reading = state.log.reading.clone().expect("read whole");
    let failure = reading.run.failure.as_ref().expect("its failure");
    assert_eq!((failure.pass.as_deref(), failure.scope.as_deref()), (Some("lower_local_collectives"), Some("sg00")));
    assert_eq!(reading.run.flow.map(|f| f.as_str()), Some("flat"));
    // Escape closes the box before anything else.
    let state = repro(state, LogAction::Open);
    let state = reduce(state, Action::Key(Key::Escape));
    assert!(!state.log.editing && state.log.read);
}

#[test]
fn reduce_runs_in_the_worker_and_opens_its_result_with_the_original_one_step_away() {
    let state = linked("error-1514.json");
    let state = repro(state, ReduceAction::Start);
    assert!(matches!(state.reduction.reducing, Some(Reducing::Running { run: 1, step: None })));
    assert!(matches!(state.reduction.out.message, Some(Ask { run: 1, query: Query::Reduce })));
    // A second start while running asks nothing more.
    let seq = state.reduction.out.seq;
    assert_eq!(repro(state.clone(), ReduceAction::Start).reduction.out.seq, seq);
    let step = crate::protocol::ReduceStep {
        round: 1,
        level: Some(birlink_core::tools::reduce::Level::Instructions),
        tests: 9,
        instructions: 4,
        bytes: 900,
    };
    let state = repro(state, ReduceAction::Progress { run: 1, step: step.clone() });
    assert!(matches!(&state.reduction.reducing, Some(Reducing::Running { step: Some(s), .. }) if *s == step));
    // Cancel stops it in the worker too.
    let cancelled = repro(state.clone(), ReduceAction::Cancel);
    assert_eq!(cancelled.reduction.reducing, None);
    assert!(matches!(cancelled.reduction.out.message, Some(Ask { run: 1, query: Query::CancelReduce })));
    // A late result after Cancel is dropped.
    let summary = crate::protocol::ReducedSummary {
        file_name: "reduced.json".to_owned(),
        code: birlink_core::Code::parse("1514").expect("a code"),
        pass: birlink_core::Pass::VncRemoteAddrMap,
        tests: 40,
        bytes: (30_000, 700),
        instructions: (60, 0),
        ms: 120.0,
    };
    let late =
        repro(cancelled, ReduceAction::Reduced { run: 1, file: picked("reduced.json", 700), summary: summary.clone() });
    assert_eq!(late.sides[A].link.files[0].path, "error-1514.json");
    // The result becomes the link set, linked at once; the original is one step away.
    let state = repro(state, ReduceAction::Reduced { run: 1, file: picked("reduced.json", 700), summary });
    assert_eq!(state.sides[A].link.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec!["reduced.json"]);
    assert_eq!(state.sides[A].link.run, 2);
    assert_eq!(state.sides[A].link.out.message.as_ref().map(|o| o.run), Some(2));
    assert!(state.reduction.original.is_some() && state.reduction.reduced.is_some());
    let back = repro(state.clone(), ReduceAction::BackToOriginal);
    assert_eq!(back.sides[A].link.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), vec!["error-1514.json"]);
    assert_eq!(back.sides[A].link.run, 3);
    assert!(back.reduction.original.is_none() && back.reduction.reduced.is_none());
    // The user's own files end it: no way back to a set they replaced themselves.
    let replaced = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("nc00.json", 5)])));
    assert!(replaced.reduction.original.is_none() && replaced.reduction.reduced.is_none());
}

#[test]
fn a_reduction_that_cannot_run_says_why() {
    let state = repro(linked("error-1514.json"), ReduceAction::Start);
    let state = repro(state, ReduceAction::Failed { run: 1, message: "the link set does not fail".to_owned() });
    assert_eq!(state.reduction.reducing, Some(Reducing::Failed("the link set does not fail".to_owned())));
    // It can be tried again.
    let again = repro(state, ReduceAction::Start);
    assert!(matches!(again.reduction.reducing, Some(Reducing::Running { .. })));
}

#[test]
fn a_second_show_answers_the_first_that_still_waits() {
    let state = reduce(linked("matmul-2core.json"), Action::Notice(None));
    let first: EntityKey = "function:1:nc01".parse().expect("key");
    let second: EntityKey = "function:0:nc00".parse().expect("key");
    let show = |key: &EntityKey| {
        HostCall::Show(ViewState { view: Some(View::Barriers), select: Some(key.clone()), ..ViewState::default() })
    };
    let state = reduce(state, Action::Host { id: serde_json::json!("a"), call: Ok(show(&first)) });
    let state = reduce(state, Action::Host { id: serde_json::json!("b"), call: Ok(show(&second)) });
    let said = host_messages(&state);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(
        (said[0]["id"].clone(), said[0]["code"].clone()),
        (serde_json::json!("a"), serde_json::json!("superseded"))
    );
    let (result, outcome) = sample_run(1, "matmul-2core.json");
    drop(result);
    let module = outcome.linked.as_ref().expect("linked");
    let query = birlink_core::tools::query::query_of(&second);
    let view = birlink_core::tools::query::entity_view_by_key(module, &outcome.files, &second).expect("nc00");
    let state =
        reduce(state, Action::Details(DetailsAction::EntityLoaded { run: 1, query, view: Some(Box::new(view)) }));
    assert_eq!(host_messages(&state).last().expect("ack"), &serde_json::json!({"birlink": "ack", "id": "b"}));
}

#[test]
fn a_host_never_reads_back_the_users_own_files() {
    let page = Page { base: "https://tools.example/birlink/".into(), full_query: String::new() };
    // The user drops their files into a full page an opener drives, then opens Share.
    let state = reduce(State::new(Mode::Full, page), LinkAction::shown(LinkOp::AddFiles(vec![picked("mine.json", 1)])));
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "matmul-2core.json")))));
    let state = reduce(state, Action::Share(ShareAction::Open));
    let state = reduce(state, Action::Share(ShareAction::Loaded { run: 1, data: Ok("v1.SECRET".into()) }));
    let key: EntityKey = "function:1:nc01".parse().expect("key");
    let state = reduce(state, Action::Details(DetailsAction::SelectKey(key)));
    let state = reduce(state, Action::Host { id: serde_json::json!(1), call: Ok(HostCall::GetState) });
    let answer = host_messages(&state).pop().expect("state");
    assert_eq!(answer["url"], "https://tools.example/birlink/", "no data, no selection: {answer}");
    assert_eq!(answer["select"], serde_json::Value::Null);
    // The same set loaded by the host itself it may read back.
    let load = HostCall::Load {
        files: vec![picked("host.json", 1)],
        lnc: None,
        state: ViewState::default(),
        against: None,
        against_lnc: None,
    };
    let state = reduce(state, Action::Host { id: serde_json::json!(2), call: Ok(load) });
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(2, "matmul-2core.json")))));
    let state = reduce(state, Action::Share(ShareAction::Loaded { run: 2, data: Ok("v1.HOSTS".into()) }));
    let state = reduce(state, Action::Host { id: serde_json::json!(3), call: Ok(HostCall::GetState) });
    let answer = host_messages(&state).pop().expect("state");
    assert!(answer["url"].as_str().is_some_and(|u| u.contains("data=v1.HOSTS")), "{answer}");
}

#[test]
fn an_embedded_sample_tells_its_host_its_verdict() {
    let state = State::new(Mode::Embed, Page::default());
    let state = reduce(
        state,
        LinkAction::shown(LinkOp::StartFiles {
            files: vec![picked("error-1514.json", 1)],
            sample: Some("error-1514.json".into()),
        }),
    );
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "error-1514.json")))));
    let linked = host_messages(&state).into_iter().find(|m| m["birlink"] == "linked").expect("linked");
    assert_eq!((linked["id"].clone(), linked["ok"].clone()), (serde_json::Value::Null, serde_json::json!(false)));
    // In full mode, nothing is said unprompted.
    let full = reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(vec![picked("m.json", 1)])));
    let full = reduce(full, Action::Run(RunAction::Linked(Box::new(sample_result(1, "matmul-2core.json")))));
    assert!(host_messages(&full).is_empty());
}

#[test]
fn an_lnc_past_any_device_is_refused_with_a_notice() {
    let state = reduce(linked("matmul-2core.json"), LinkAction::shown(LinkOp::SetLnc(Some(9_007_199_254_740_993))));
    assert_eq!(state.sides[A].link.lnc, None);
    assert!(state.notice.as_deref().is_some_and(|n| n.contains("at most 64")), "{:?}", state.notice);
    let asked = state.sides[A].link.out.message.as_ref().expect("relinked");
    assert_eq!(asked.lnc, None);
}

#[test]
fn a_links_data_is_read_by_the_worker_not_the_page() {
    let state = reduce(State::default(), LinkAction::shown(LinkOp::OpenLink { data: "v1.xyz".into(), lnc: Some(2) }));
    let order = DecodeOrder { run: 1, data: "v1.xyz".to_owned(), lnc: Some(2) };
    assert_eq!(state.decode.messages, vec![(1, order)]);
    assert!(state.sides[A].link.files.is_empty(), "nothing opened until the worker has read it");
    let run = state.sides[A].link.run;
    let state = reduce(state, Action::Run(RunAction::Undecodable { run, message: "the link's data is cut".into() }));
    assert!(state.notice.as_deref().is_some_and(|n| n.contains("nothing was opened")));
    assert_eq!(state.sides[A].link.status, Status::Idle);
}

#[test]
fn enter_never_opens_a_hit_of_an_older_text() {
    let state = linked("error-1514.json");
    let state = reduce(state, Action::Search(SearchAction::Text("c_partial_".into())));
    let hit = |name: &str| birlink_core::tools::query::SearchHit {
        entity: query(EntityKind::Memloc, name, Some("nc00")),
        core: Some(0),
    };
    let state = reduce(
        state,
        Action::Search(SearchAction::Results {
            run: 1,
            text: "c_partial_".into(),
            hits: vec![hit("c_partial_0"), hit("c_partial_1")],
        }),
    );
    assert_eq!(state.search.chosen().map(|h| h.entity.name.as_str()), Some("c_partial_0"));
    // The user types one more character: until its answer comes, nothing can be chosen.
    let state = reduce(state, Action::Search(SearchAction::Text("c_partial_1".into())));
    assert!(state.search.chosen().is_none() && state.search.searching());
    let state = reduce(
        state,
        Action::Search(SearchAction::Results { run: 1, text: "c_partial_1".into(), hits: vec![hit("c_partial_1")] }),
    );
    assert_eq!(state.search.chosen().map(|h| h.entity.name.as_str()), Some("c_partial_1"));
}

#[test]
fn a_work_directory_links_one_dump_per_core_and_another_pass_on_request() {
    let files = [
        "work/command.txt",
        "work/nc00/sg00/bir_debug.11.after-lower_dma.before-lower_sync.json",
        "work/nc00/sg00/bir_debug.12.after-lower_sync.before-lower_act.json",
        "work/nc00/sg00/def.json",
        "work/nc01/sg00/bir_debug.11.after-lower_dma.before-lower_sync.json",
        "work/nc01/sg00/bir_debug.12.after-lower_sync.before-lower_act.json",
        "work/nc01/sg00/tensor_map.json",
    ];
    let state =
        reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(files.iter().map(|f| picked(f, 1)).collect())));
    let order = state.sides[A].link.out.message.clone().expect("a link");
    let linked: Vec<&str> = order.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(linked, [files[2], files[5]]);
    assert_eq!(order.lnc, None);
    let workdir = state.sides[A].link.workdir.as_ref().expect("read as a work directory");
    assert_eq!(workdir.plan.passes, ["lower_dma", "lower_sync"]);
    assert_eq!(workdir.plan.set_aside.len(), 5);
    assert_eq!(state.sides[A].link.files.len(), files.len(), "nothing the user gave is dropped");
    // The link's last step gets every name and the one tensor map's bytes.
    let last = order.workdir.as_ref().expect("a work directory order");
    assert_eq!(last.files.len(), files.len());
    assert_eq!(last.wanted.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), [files[6]]);

    let state = reduce(state, LinkAction::shown(LinkOp::SetAfter(Some("lower_dma".into()))));
    let order = state.sides[A].link.out.message.clone().expect("a link");
    let linked: Vec<&str> = order.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(linked, [files[1], files[4]]);
    // The same choice again changes nothing.
    let seq = state.sides[A].link.out.seq;
    let state = reduce(state, LinkAction::shown(LinkOp::SetAfter(Some("lower_dma".into()))));
    assert_eq!(state.sides[A].link.out.seq, seq);

    // A core without the pass: the link is told the whole directory, and the core makes
    // the folders' count the LNC (so the link says a core is missing).
    let id = state.sides[A].link.files.iter().find(|f| f.path == files[4]).map(|f| f.id).expect("file");
    let state = reduce(state, LinkAction::shown(LinkOp::RemoveFile(id)));
    let order = state.sides[A].link.out.message.clone().expect("a link");
    assert_eq!((order.files.len(), order.lnc), (1, None));
    let workdir = order.workdir.as_ref().expect("the work directory goes with the link");
    assert_eq!(workdir.files.len(), state.sides[A].link.files.len());
    assert_eq!(workdir.after.as_deref(), Some("lower_dma"));
    assert_eq!(state.sides[A].link.workdir.as_ref().map(|w| w.plan.missing.clone()), Some(vec![1]));

    // Other files are not a work directory: all linked, a folder's command.txt aside.
    let state = reduce(
        state,
        LinkAction::shown(LinkOp::ReplaceFiles {
            files: vec![picked("ring/nc00.json", 1), picked("ring/command.txt", 1)],
            sample: None,
        }),
    );
    assert_eq!(state.sides[A].link.after, None);
    assert!(state.sides[A].link.workdir.is_none());
    let order = state.sides[A].link.out.message.clone().expect("a link");
    assert_eq!(order.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["ring/nc00.json"]);
}

/// A state with A linked (`a`) and B opened and linked (`b`), the comparison asked for.
fn comparing(a: &str, b: &str) -> State {
    let state = linked(a);
    let state = reduce(state, LinkAction::against(LinkOp::ReplaceFiles { files: vec![picked(b, 1)], sample: None }));
    assert_eq!(state.view, View::Compare);
    let order = state.sides[B].link.out.message.clone().expect("B's link order");
    assert_eq!(
        state.kept_run(Side::Against),
        Some(state.sides[A].link.run),
        "the worker keeps A's run while it links B"
    );
    assert_ne!(order.run, state.sides[A].link.run, "runs are numbered across both link sets");
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(order.run, b)))));
    assert!(state.sides[B].result.is_some(), "B's run went to B");
    assert_eq!(state.result_run(), Some(1), "A's run is untouched");
    state
}

fn compared(state: State, a: &str, b: &str) -> State {
    let order = state.compare.out.message.clone().expect("a comparison asked for");
    let (_, outcome_a) = sample_run(order.a, a);
    let (_, outcome_b) = sample_run(order.b, b);
    let options = birlink_core::tools::compare::CompareOptions {
        core_map: order.options.core_map.iter().copied().collect(),
        normalize: birlink_core::tools::compare::Normalize { numbers: order.options.numbers },
    };
    let comparison = birlink_core::tools::compare::compare(&outcome_a, &outcome_b, &options);
    reduce(
        state,
        Action::Compare(CompareAction::Compared {
            a: order.a,
            b: order.b,
            options: order.options,
            comparison: Ok(Box::new(comparison)),
        }),
    )
}

#[test]
fn b_is_linked_beside_a_and_the_two_are_compared_in_the_worker() {
    let state = comparing("ring-attention-with-grid.json", "ring-attention-send-k-buf.json");
    let order = state.compare.out.message.clone().expect("the comparison");
    assert_eq!((order.a, order.b), (1, state.sides[B].link.run));
    let state = compared(state, "ring-attention-with-grid.json", "ring-attention-send-k-buf.json");
    let comparison = state.compare.comparison.as_ref().expect("the comparison arrived");
    assert!(!comparison.comparison.equal);
    let told = comparison.comparison.explanation().unwrap_or_default();
    assert!(told.starts_with("A links; B fails in") && told.contains("1514"), "{told}");
    // B's failure does not take the page to A's Diagnostics: it stays on Compare.
    assert_eq!(state.view, View::Compare);
    // A comparison of other runs, or other options, is stale.
    let stale = reduce(
        state.clone(),
        Action::Compare(CompareAction::Compared {
            a: 1,
            b: 99,
            options: Default::default(),
            comparison: Err("old".into()),
        }),
    );
    assert_eq!(stale.compare.failed, None);
}

#[test]
fn masking_numbers_and_the_core_map_ask_for_a_new_comparison_and_follow_the_url() {
    let state = comparing("sendrecv-called-once.json", "sendrecv-called-twice.json");
    let state = compared(state, "sendrecv-called-once.json", "sendrecv-called-twice.json");
    let seq = state.compare.out.seq;
    let state = reduce(state, Action::Compare(CompareAction::SetNumbers(true)));
    assert_eq!(state.compare.out.seq, seq + 1);
    assert!(state.compare.out.message.as_ref().is_some_and(|o| o.options.numbers));
    // Until its answer comes, the old comparison is not taken for the new one.
    assert!(state.url_fragment().contains("normalize=numbers"), "{}", state.url_fragment());
    let state = compared(state, "sendrecv-called-once.json", "sendrecv-called-twice.json");
    let masked = &state.compare.comparison.as_ref().expect("masked").comparison;
    assert_eq!(masked.normalization.applied, ["numbers"]);
    // The same map twice asks nothing; a pairing other than the identity is kept.
    let state = reduce(state, Action::Compare(CompareAction::SetCoreMap(vec![(0, 1), (1, 0)])));
    assert_eq!(state.compare.options.core_map, vec![(0, 1), (1, 0)]);
    assert!(state.url_fragment().contains("core-map=0:1,1:0"), "{}", state.url_fragment());
    let seq = state.compare.out.seq;
    let again = Rc::new(state.clone()).reduce(Action::Compare(CompareAction::SetCoreMap(vec![(0, 1), (1, 0)])));
    assert_eq!(again.compare.out.seq, seq, "the same map asks nothing");
    // A link's fragment sets both, once A has linked.
    let (link, dropped) = ViewState::parse("view=compare&normalize=numbers&core-map=0:1,1:0");
    assert!(dropped.is_empty());
    let mut fresh = State::default();
    assert!(fresh.apply_state(&link).is_empty());
    assert_eq!(fresh.compare.options, link.compare);
}

#[test]
fn swapping_shows_b_and_compares_it_against_a() {
    let state = comparing("matmul-1core.json", "matmul-2core.json");
    let state = compared(state, "matmul-1core.json", "matmul-2core.json");
    let (a_run, b_run) = (state.sides[A].link.run, state.sides[B].link.run);
    let state = reduce(state, Action::Compare(CompareAction::Swap));
    assert_eq!((state.sides[A].link.run, state.sides[B].link.run), (b_run, a_run));
    assert_eq!(state.sides[A].link.files[0].path, "matmul-2core.json");
    assert_eq!(state.result_run(), Some(b_run));
    let order = state.compare.out.message.clone().expect("the comparison the other way");
    assert_eq!((order.a, order.b), (b_run, a_run));
    assert!(state.compare.comparison.is_none());
}

#[test]
fn an_entity_of_b_is_asked_of_b_s_run_and_never_written_as_a_s_selection() {
    let state = comparing("matmul-1core.json", "matmul-2core.json");
    let b_run = state.sides[B].link.run;
    let key: EntityKey = "function:1:nc01".parse().expect("key");
    let state = reduce(state, Action::Details(DetailsAction::PickKey(B, key)));
    assert_eq!(state.details.side, Side::Against);
    let asked = state.details.out.message.clone().expect("asked");
    assert_eq!(asked.run, b_run);
    assert!(!state.url_fragment().contains("select="), "{}", state.url_fragment());
    // Selecting in A's views goes back to A.
    let state = reduce(state, Action::Details(DetailsAction::SelectKey("function:0:nc00".parse().expect("key"))));
    assert_eq!(state.details.side, Side::Shown);
    assert_eq!(state.details.out.message.as_ref().map(|a| a.run), Some(1));
}

#[test]
fn share_carries_both_link_sets_when_they_fit() {
    let state = State {
        page: Page { base: "http://h/b/".into(), full_query: String::new() },
        ..comparing("matmul-1core.json", "matmul-2core.json")
    };
    let b_run = state.sides[B].link.run;
    let state = reduce(state, Action::Share(ShareAction::Open));
    assert_eq!(state.share.dialog, Some(ShareDialog::Loading));
    let asked: Vec<u64> = state.share.out.messages.iter().map(|(_, a)| a.run).collect();
    assert_eq!(asked, vec![1, b_run], "both sides' data asked for");
    let state = reduce(state, Action::Share(ShareAction::Loaded { run: 1, data: Ok("v1.a".into()) }));
    assert_eq!(state.share.dialog, Some(ShareDialog::Loading), "B's data is still to come");
    let state = reduce(state, Action::Share(ShareAction::Loaded { run: b_run, data: Ok("v1.b".into()) }));
    let Some(ShareDialog::Link(link)) = &state.share.dialog else { panic!("{:?}", state.share.dialog) };
    assert!(
        link.contains("view=compare") && link.contains("data=v1.a") && link.contains("against-data=v1.b"),
        "{link}"
    );
    // B too large: said, no link.
    let state = reduce(state, LinkAction::against(LinkOp::SetLnc(Some(2))));
    let b_run = state.sides[B].link.run;
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(b_run, "matmul-2core.json")))));
    let state = reduce(state, Action::Share(ShareAction::Open));
    let state =
        reduce(state, Action::Share(ShareAction::Loaded { run: b_run, data: Err("the link set is 300 MB".into()) }));
    assert!(
        matches!(&state.share.dialog, Some(ShareDialog::NoLink(why)) if why.contains("compared against") && why.contains("300 MB"))
    );
}

#[test]
fn a_hosts_load_can_bring_the_set_to_compare_against() {
    let state = State::new(Mode::Embed, Page::default());
    let load = HostCall::Load {
        files: vec![picked("rank0.json", 1)],
        lnc: None,
        state: ViewState::default(),
        against: Some(vec![picked("rank1.json", 1)]),
        against_lnc: Some(2),
    };
    let state = reduce(state, Action::Host { id: serde_json::json!(1), call: Ok(load) });
    assert_eq!(state.view, View::Compare);
    assert_eq!(state.sides[B].link.files[0].path, "rank1.json");
    assert_eq!(state.sides[B].link.lnc, Some(2));
    assert!(state.sides[B].link.out.message.is_some(), "B's link");
    assert_eq!(state.kept_run(Side::Against), Some(state.sides[A].link.run));
    assert_eq!(state.kept_run(Side::Shown), Some(state.sides[B].link.run));
    // A load without `against` leaves B; an empty one closes it.
    let again = HostCall::Load {
        files: vec![picked("rank0.json", 1)],
        lnc: None,
        state: ViewState::default(),
        against: None,
        against_lnc: None,
    };
    let state = reduce(state, Action::Host { id: serde_json::json!(2), call: Ok(again) });
    assert!(state.comparing());
    let close = HostCall::Load {
        files: vec![picked("rank0.json", 1)],
        lnc: None,
        state: ViewState::default(),
        against: Some(vec![]),
        against_lnc: None,
    };
    let state = reduce(state, Action::Host { id: serde_json::json!(3), call: Ok(close) });
    assert!(!state.comparing());
}

#[test]
fn a_pair_opened_at_once_is_compared_once_both_runs_are_in() {
    // A is replaced and B opened in one go (the samples menu's pairs): B links first,
    // against A's old run, which the worker has dropped; A's new run asks again.
    let state = linked("matmul-2core.json");
    let state = reduce(
        state,
        LinkAction::shown(LinkOp::ReplaceFiles { files: vec![picked("sendrecv-called-once.json", 1)], sample: None }),
    );
    let a_run = state.sides[A].link.run;
    let state = reduce(
        state,
        LinkAction::against(LinkOp::ReplaceFiles {
            files: vec![picked("sendrecv-called-twice.json", 1)],
            sample: None,
        }),
    );
    let b_run = state.sides[B].link.run;
    let state =
        reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(b_run, "sendrecv-called-twice.json")))));
    let stale = state.compare.out.message.clone().expect("a comparison against A's old run");
    assert_eq!(stale.a, 1);
    let state = reduce(
        state,
        Action::Compare(CompareAction::Compared {
            a: 1,
            b: b_run,
            options: Default::default(),
            comparison: Err("gone".into()),
        }),
    );
    let state =
        reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(a_run, "sendrecv-called-once.json")))));
    let order = state.compare.out.message.clone().expect("asked again");
    assert_eq!((order.a, order.b), (a_run, b_run));
    assert_eq!(state.compare.failed, None);
    let state = compared(state, "sendrecv-called-once.json", "sendrecv-called-twice.json");
    assert!(state.compare.comparison.is_some());
}

// Both sides, one rule: every action on a link set, done on either side, does the same to
// that side and leaves the other as it was.

fn act(state: State, side: Side, op: LinkOp) -> State {
    reduce(state, Action::Link(LinkAction { side, op }))
}

/// A with `matmul-2core.json` linked (run 1) and B with `error-1514.json` linked (run 2).
fn both_linked() -> State {
    let state = linked("matmul-2core.json");
    let state = act(state, B, LinkOp::ReplaceFiles { files: vec![picked("error-1514.json", 1)], sample: None });
    let run = state.sides[B].link.run;
    reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(run, "error-1514.json")))))
}

/// The other side of `side` is as it was in `before`.
fn other_untouched(before: &State, after: &State, side: Side, what: &str) {
    let other = side.other();
    assert_eq!(after.sides[other].link, before.sides[other].link, "{what} on {side:?} left the other side's link set");
    assert_eq!(after.sides[other].result, before.sides[other].result, "{what} on {side:?} left the other side's run");
}

#[test]
fn files_added_replace_what_the_page_opened_then_join_on_either_side() {
    for side in Side::BOTH {
        let before = reduce(both_linked(), Action::View(ViewAction::Set(View::Barriers)));
        let runs = before.runs;
        let state = act(before.clone(), side, LinkOp::AddFiles(vec![picked("nc00.json", 3)]));
        let link = &state.sides[side].link;
        assert_eq!(link.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["nc00.json"], "{side:?}");
        assert_eq!((link.source, link.open_sample.as_deref(), link.replace_on_add), (Source::User, None, false));
        let order = link.out.message.clone().expect("a link");
        assert_eq!((order.run, link.run, order.files.len()), (runs + 1, runs + 1, 1), "{side:?}");
        assert_eq!(link.status, Status::Running { phase: "starting".into(), done: 0, total: 1 });
        assert!(state.compare.comparison.is_none(), "a comparison of the old set is not of this one");
        other_untouched(&before, &state, side, "AddFiles");
        // B's files show the comparison; A's keep the view.
        assert_eq!(state.view, if side == B { View::Compare } else { View::Barriers }, "{side:?}");
        let state = act(state, side, LinkOp::AddFiles(vec![picked("nc01.json", 3)]));
        assert_eq!(state.sides[side].link.files.len(), 2, "the user's second files join the first");
        assert_eq!(state.sides[side].link.out.message.as_ref().map(|o| o.delay_ms), Some(120));
    }
}

#[test]
fn a_replaced_or_started_link_set_is_the_pages_on_either_side() {
    for side in Side::BOTH {
        let before = both_linked();
        let sample = Some("error-1512.json".to_owned());
        let state = act(
            before.clone(),
            side,
            LinkOp::ReplaceFiles { files: vec![picked("x.json", 1)], sample: sample.clone() },
        );
        let link = &state.sides[side].link;
        assert_eq!((link.open_sample.clone(), link.source, link.replace_on_add), (sample, Source::Link, true));
        assert!(link.out.message.is_some(), "{side:?} relinks");
        other_untouched(&before, &state, side, "ReplaceFiles");
        // A start fetch slower than what the side opened first is ignored …
        let late = Rc::new(state.clone());
        let after = late.clone().reduce(Action::Link(LinkAction {
            side,
            op: LinkOp::StartFiles { files: vec![picked("late.json", 1)], sample: None },
        }));
        assert!(Rc::ptr_eq(&late, &after), "{side:?}: a late start changes nothing");
        // … and opens when the side has opened nothing yet.
        let fresh = act(State::default(), side, LinkOp::StartFiles { files: vec![picked("s.json", 1)], sample: None });
        assert_eq!(fresh.sides[side].link.files.len(), 1, "{side:?}");
        assert_eq!(fresh.sides[side.other()].link, LinkSet::default());
    }
}

#[test]
fn a_links_data_is_read_by_the_worker_and_opens_on_the_side_that_asked() {
    for side in Side::BOTH {
        let before = both_linked();
        let state = act(before.clone(), side, LinkOp::OpenLink { data: "v1.xyz".into(), lnc: Some(2) });
        let run = state.sides[side].link.run;
        assert_eq!(state.decode.messages.last(), Some(&(1, DecodeOrder { run, data: "v1.xyz".into(), lnc: Some(2) })));
        assert!(
            matches!(&state.sides[side].link.status, Status::Running { phase, .. } if phase.contains("link's data"))
        );
        other_untouched(&before, &state, side, "OpenLink");
        // The worker's files open on that side, and its data stays in the page's URL.
        let files = vec![picked("a.json", 1), picked("b.json", 1)];
        let opened =
            reduce(state.clone(), Action::Run(RunAction::Decoded { run, files, lnc: Some(2), data: "v1.xyz".into() }));
        let this = &opened.sides[side];
        assert_eq!((this.link.files.len(), this.link.lnc, this.link.source), (2, Some(2), Source::Link));
        assert_eq!((this.data.text.as_deref(), this.data.in_url), (Some("v1.xyz"), true));
        let key = if side == A { "data=v1.xyz" } else { "against-data=v1.xyz" };
        assert!(opened.url_fragment().contains(key), "{side:?}: {}", opened.url_fragment());
        // Data that does not read opens nothing, and says so, naming B when it is B's.
        let failed = reduce(state, Action::Run(RunAction::Undecodable { run, message: "cut".into() }));
        assert_eq!(failed.sides[side].link.status, Status::Idle);
        let notice = failed.notice.clone().unwrap_or_default();
        assert!(notice.contains("cut; nothing was opened"), "{notice}");
        assert_eq!(notice.contains("compared against"), side == B, "{notice}");
    }
}

#[test]
fn removing_or_clearing_files_relinks_or_closes_either_side() {
    for side in Side::BOTH {
        let before = both_linked();
        let state = act(before.clone(), side, LinkOp::AddFiles(vec![picked("m.json", 1), picked("n.json", 1)]));
        let id = state.sides[side].link.files[0].id;
        let state = act(state, side, LinkOp::RemoveFile(id));
        assert_eq!(state.sides[side].link.files.len(), 1);
        assert!(state.sides[side].link.out.message.is_some(), "{side:?} relinks what is left");
        other_untouched(&before, &state, side, "RemoveFile");
        let cleared = act(state.clone(), side, LinkOp::ClearFiles);
        let this = &cleared.sides[side];
        assert!(this.link.files.is_empty() && this.result.is_none(), "{side:?}");
        assert_eq!((this.link.status.clone(), this.link.out.message.clone()), (Status::Idle, None));
        other_untouched(&before, &cleared, side, "ClearFiles");
        assert_eq!(cleared.comparing(), side == A, "{side:?}: B cleared is no longer compared");
        // The last file removed is the same as clearing.
        let id = state.sides[side].link.files[0].id;
        let emptied = act(state, side, LinkOp::RemoveFile(id));
        assert_eq!(emptied.sides[side].link.status, Status::Idle);
        assert!(emptied.sides[side].result.is_none());
    }
}

#[test]
fn a_work_directorys_pass_is_chosen_on_either_side() {
    let files = [
        "w/nc00/sg00/bir_debug.11.after-lower_dma.before-lower_sync.json",
        "w/nc00/sg00/bir_debug.12.after-lower_sync.before-lower_act.json",
    ];
    for side in Side::BOTH {
        let before = both_linked();
        let state = act(before.clone(), side, LinkOp::AddFiles(files.iter().map(|f| picked(f, 1)).collect()));
        let state = act(state, side, LinkOp::SetAfter(Some("lower_dma".into())));
        let order = state.sides[side].link.out.message.clone().expect("a link");
        assert_eq!(order.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), [files[0]], "{side:?}");
        assert!(state.sides[side].link.workdir.is_some());
        other_untouched(&before, &state, side, "SetAfter");
        let again = Rc::new(state);
        let same =
            again.clone().reduce(Action::Link(LinkAction { side, op: LinkOp::SetAfter(Some("lower_dma".into())) }));
        assert!(Rc::ptr_eq(&again, &same), "{side:?}: the same pass again changes nothing");
    }
}

#[test]
fn an_lnc_is_set_or_refused_with_a_notice_on_either_side() {
    for side in Side::BOTH {
        let before = both_linked();
        let state = act(before.clone(), side, LinkOp::SetLnc(Some(2)));
        assert_eq!(state.sides[side].link.lnc, Some(2));
        assert_eq!(state.sides[side].link.out.message.as_ref().map(|o| o.lnc), Some(Some(2)), "{side:?} relinks");
        other_untouched(&before, &state, side, "SetLnc");
        // More cores than any device: refused, and said (it was silent on B before).
        let state = act(state, side, LinkOp::SetLnc(Some(65)));
        assert_eq!(state.sides[side].link.lnc, None, "{side:?}");
        let notice = state.notice.clone().unwrap_or_default();
        assert!(notice.contains("an LNC of 65") && notice.contains("at most 64"), "{side:?}: {notice}");
        assert_eq!(notice.contains("compared against"), side == B, "{notice}");
        assert_eq!(state.sides[side].link.out.message.as_ref().map(|o| o.lnc), Some(None));
    }
}

#[test]
fn a_runs_answers_go_to_its_side_and_a_closed_side_takes_none() {
    for side in Side::BOTH {
        let state = act(both_linked(), side, LinkOp::SetLnc(Some(2)));
        let run = state.sides[side].link.run;
        let before = state.clone();
        let state = reduce(state, Action::Run(RunAction::Progress { run, phase: "p".into(), done: 1, total: 2 }));
        assert_eq!(state.sides[side].link.status, Status::Running { phase: "p".into(), done: 1, total: 2 });
        other_untouched(&before, &state, side, "Progress");
        let failed = reduce(state.clone(), Action::Run(RunAction::Failed { run, message: "no".into() }));
        assert_eq!(failed.sides[side].link.status, Status::Failed("no".into()));
        let file = if side == A { "matmul-2core.json" } else { "error-1514.json" };
        let done = reduce(state.clone(), Action::Run(RunAction::Linked(Box::new(sample_result(run, file)))));
        assert_eq!(done.sides[side].result_run(), Some(run), "{side:?}");
        assert_eq!(done.sides[side].link.status, Status::Done);
        other_untouched(&before, &done, side, "Linked");
        // Both runs in: compared.
        let order = done.compare.out.message.clone().expect("compared again");
        assert_eq!((order.a, order.b), (done.sides[A].link.run, done.sides[B].link.run));
        // An answer for a side closed meanwhile is dropped.
        let closed = Rc::new(act(state, side, LinkOp::ClearFiles));
        let late =
            closed.clone().reduce(Action::Run(RunAction::Linked(Box::new(sample_result(run, "matmul-2core.json")))));
        assert!(Rc::ptr_eq(&closed, &late), "{side:?}");
    }
}

#[test]
fn a_swap_exchanges_the_sides_whole() {
    let state = both_linked();
    let state = reduce(state, Action::Share(ShareAction::Open));
    let state = reduce(state, Action::Share(ShareAction::Loaded { run: 1, data: Err("too large".into()) }));
    let before = state.clone();
    let state = reduce(state, Action::Compare(CompareAction::Swap));
    assert_eq!(state.sides[A], before.sides[B]);
    assert_eq!(state.sides[B], before.sides[A]);
    assert_eq!(state.sides[B].data.error.as_deref(), Some("too large"), "what is known of a side's data goes with it");
    // Twice is the way back.
    let state = reduce(state, Action::Compare(CompareAction::Swap));
    assert_eq!(state.sides, before.sides);
    // Close is B's ClearFiles.
    let closed = reduce(state, Action::Compare(CompareAction::Close));
    assert!(!closed.comparing() && closed.sides[B].result.is_none());
}

#[test]
fn a_log_among_the_files_is_the_pages_log_read_by_the_worker_not_linked() {
    use birlink_core::tools::log;
    let dumps = [
        "w/nc00/sg00/bir_debug.9.after-coloring_allocator_dram.before-lower_local_collectives.penguin.json",
        "w/nc01/sg00/bir_debug.9.after-coloring_allocator_dram.before-lower_local_collectives.penguin.json",
    ];
    let files = vec![picked("w/log-neuron-cc.txt", 4000), picked(dumps[0], 10), picked(dumps[1], 10)];
    let state = reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(files)));
    // The dumps are linked; the log is not among them.
    let paths: Vec<&str> = state.sides[A].link.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, dumps);
    let file = state.log.file.clone().expect("the log file");
    assert_eq!((file.seq, file.path.as_str(), file.reading), (1, "w/log-neuron-cc.txt", true));
    let ask = state.log.out.message.clone().expect("asks the worker to read it");
    assert!(matches!(&ask.query, Query::ReadLog { seq: 1, path, .. } if path == "w/log-neuron-cc.txt"));
    // An answer about another log is dropped; this one's is kept.
    let text = "2026-11-21T16:02:05Z USER 5131 (sg00) [SubgraphForkPass]: Running lower_local_collectives\n\
                2026-11-21T16:02:05Z ERROR 5131 [SubgraphForkPass]: Subgraph 0 failed with error [INTERNAL_ERROR] [NCC_ILLC059] Could not find MemoryLocation named a:b.31 on core 1\n";
    let read = crate::protocol::LogRead {
        run: None,
        reading: log::read_log(text),
        runs: 1,
        findings: log::read(text),
        located: None,
        beside: None,
    };
    // The findings cross as their codes: what birlink knows is looked up again.
    let crossed: crate::protocol::LogRead = serde_json::from_slice(&serde_json::to_vec(&read).unwrap()).unwrap();
    let stale = Rc::new(state.clone());
    let after = stale.clone().reduce(Action::Log(LogAction::FileRead { seq: 7, read: Ok(Box::new(crossed.clone())) }));
    assert!(Rc::ptr_eq(&stale, &after));
    let state = repro(state, LogAction::FileRead { seq: 1, read: Ok(Box::new(crossed)) });
    assert!(state.log.read && !state.log.file.as_ref().unwrap().reading);
    assert_eq!(state.log.runs, 1);
    // Its JSON is the worker's to write (it holds the bytes).
    let state = repro(state, LogAction::Download);
    let ask = state.log.out.message.clone().unwrap();
    assert!(matches!(&ask.query, Query::LogJson { path, .. } if path == "w/log-neuron-cc.txt"));
    assert_eq!(state.log.findings[0].birlink(), Some(Code::LocalCollectiveNameMissing));
    let reading = state.log.reading.clone().unwrap();
    assert_eq!(reading.run.failure.as_ref().and_then(|f| f.pass.as_deref()), Some("lower_local_collectives"));
    // A pass chosen on the timeline; the same again changes nothing.
    let state = repro(state, LogAction::Pass(Some(0)));
    assert_eq!(state.log.pass, Some(0));
    let again = Rc::new(state.clone());
    assert!(Rc::ptr_eq(&again, &again.clone().reduce(Action::Log(LogAction::Pass(Some(0))))));
    // The run that follows reads it again, beside that run.
    let state = reduce(state, Action::Run(RunAction::Linked(Box::new(sample_result(1, "error-1514.json")))));
    let ask = state.log.out.message.clone().expect("asks again");
    assert_eq!(ask.run, 1);
    assert!(matches!(&ask.query, Query::ReadLog { seq: 1, .. }));
    // Another link set replacing this one closes the log it came with.
    let state = reduce(
        state,
        LinkAction::shown(LinkOp::ReplaceFiles { files: vec![picked("matmul-2core.json", 1)], sample: None }),
    );
    assert!(no_log(&state.log), "{:?}", state.log);
    // A log dropped alone is read; the link set is left as it is.
    let before = state.sides[A].link.clone();
    let state = reduce(state, LinkAction::shown(LinkOp::AddFiles(vec![picked("build.log", 10)])));
    assert_eq!(state.sides[A].link, before);
    assert_eq!(state.log.file.as_ref().map(|f| (f.seq, f.path.as_str())), Some((2, "build.log")));
}

#[test]
fn a_log_file_the_worker_cannot_read_says_why() {
    let state = reduce(State::default(), LinkAction::shown(LinkOp::AddFiles(vec![picked("log-neuron-cc.txt", 10)])));
    let state =
        repro(state, LogAction::FileRead { seq: 1, read: Err("cannot read `log-neuron-cc.txt`: gone".to_owned()) });
    let file = state.log.file.clone().unwrap();
    assert_eq!((file.reading, file.error.as_deref()), (false, Some("cannot read `log-neuron-cc.txt`: gone")));
    assert!(!state.log.read);
}

/// A work directory dumped after two passes on two cores, opened.
fn dumped() -> State {
    let files = ["lower_dma", "lower_sync"]
        .iter()
        .enumerate()
        .flat_map(|(n, pass)| {
            (0..2).map(move |core| {
                picked(&format!("w/nc{core:02}/sg00/bir_debug.{}.after-{pass}.before-x.json", n + 3), 10)
            })
        })
        .chain([picked("w/log-neuron-cc.txt", 5)])
        .collect();
    reduce(State::default(), LinkAction::shown(LinkOp::ReplaceFiles { files, sample: None }))
}

/// The history the worker answers for [`dumped`].
fn dumped_history() -> birlink_core::tools::history::History {
    use birlink_core::tools::history::{History, ModuleChange, ModuleState, PassRow};
    let row = |index: usize, name: &str, state: ModuleState, n: usize| PassRow {
        name: name.to_owned(),
        index,
        changed: (0..2)
            .map(|core| ModuleChange {
                module: format!("nc{core:02}/sg00"),
                state,
                file: format!("w/nc{core:02}/sg00/bir_debug.{n}.after-{name}.before-x.json"),
                ..ModuleChange::default()
            })
            .collect(),
    };
    History {
        passes: vec![row(0, "lower_dma", ModuleState::First, 3), row(1, "lower_sync", ModuleState::Changed, 4)],
        ..History::default()
    }
}

#[test]
fn the_passes_view_reads_the_dumps_once_follows_a_name_and_diffs_a_cell_against_its_previous_dump() {
    use birlink_core::tools::history::{EntityHistory, History, PassRow, Unread};
    let state = dumped();
    assert!(state.has_passes());
    assert_eq!(state.dumps().len(), 4, "the log is no dump");
    let state = reduce(state, Action::Passes(PassesAction::Open));
    let Some(PassesOrder::Read { seq, files, entity, .. }) = state.passes.out.message.clone() else {
        panic!("no reading asked: {:?}", state.passes.out)
    };
    assert_eq!((seq, files.len(), entity), (1, 4, None));
    // Opened again while reading: nothing asked again.
    let again = reduce(state.clone(), Action::Passes(PassesAction::Open));
    assert_eq!(again.passes.out.seq, state.passes.out.seq);
    let state =
        reduce(state, Action::Passes(PassesAction::Progress { seq: 1, done: 1, total: 2, pass: "lower_sync".into() }));
    assert_eq!(state.passes.status, PassesStatus::Reading { done: 1, total: 2, pass: "lower_sync".into() });
    // An answer for an older order is dropped.
    let stale = reduce(state.clone(), Action::Passes(PassesAction::Read { seq: 0, history: Err("old".into()) }));
    assert_eq!(stale.passes.status, state.passes.status);
    let state = reduce(state, Action::Passes(PassesAction::Read { seq: 1, history: Ok(Box::new(dumped_history())) }));
    assert!(state.history().is_some());
    // A cell asks for its dump against the module's previous one.
    let state = reduce(state, Action::Passes(PassesAction::Cell(1, "nc01/sg00".into())));
    let Some(order) = state.passes.diff_out.message.clone() else { panic!("a diff asked") };
    assert_eq!(order.after.path, "w/nc01/sg00/bir_debug.4.after-lower_sync.before-x.json");
    assert_eq!(order.before.map(|f| f.path), Some("w/nc01/sg00/bir_debug.3.after-lower_dma.before-x.json".to_owned()));
    assert_eq!(state.passes.diff, DiffFetch::Waiting);
    // `k` in the Passes view moves to the module's previous pass: its first dump.
    let mut on_passes = state.clone();
    on_passes.view = View::Passes;
    let moved = reduce(on_passes, Action::Key(Key::Previous));
    let Some(order) = moved.passes.diff_out.message.clone() else { panic!("a diff asked") };
    assert_eq!(moved.passes.cell, Some((0, "nc01/sg00".to_owned())));
    assert!(order.before.is_none() && order.after.path.contains("after-lower_dma"));
    // Following a name (a pasted compiler error) reads again, with it, on the Passes view.
    let line = "[NCC_ILLC059] Could not find MemoryLocation named buf_7 on core 1".to_owned();
    let state = reduce(moved, Action::Passes(PassesAction::Follow(Some(line.clone()))));
    assert_eq!(state.view, View::Passes);
    let Some(PassesOrder::Read { seq, entity, no_table, .. }) = state.passes.out.message.clone() else { panic!() };
    // The table of these dumps is held: the name is read alone, and shown with it.
    assert_eq!((seq, entity, no_table), (2, Some(line.clone()), true));
    assert_eq!(state.passes.cell, None);
    let gone = Unread { file: "w/nc01/sg00/bir_debug.4.after-lower_sync.before-x.json".into(), why: "gone".into() };
    let followed = History {
        passes: dumped_history().passes.into_iter().map(|p| PassRow { changed: Vec::new(), ..p }).collect(),
        entity: Some(EntityHistory { name: "buf_7".into(), ..EntityHistory::default() }),
        unread: vec![gone.clone()],
        no_table: true,
        ..History::default()
    };
    let read = reduce(state.clone(), Action::Passes(PassesAction::Read { seq: 2, history: Ok(Box::new(followed)) }));
    let shown = read.history().expect("read");
    assert_eq!(shown.passes, dumped_history().passes, "the table kept");
    assert_eq!(shown.entity.as_ref().map(|e| e.name.as_str()), Some("buf_7"));
    assert_eq!(shown.unread, [gone], "a dump unread while following is said");
    // Following nothing shows the table again without reading.
    let unfollowed = reduce(read, Action::Passes(PassesAction::Follow(None)));
    assert_eq!(unfollowed.history().map(|h| h.as_ref()), Some(&dumped_history()));
    assert_eq!(unfollowed.passes.out.seq, state.passes.out.seq, "nothing asked of the worker");
    // Cancel stops it; opening the view again does not restart it, Again does.
    let state = reduce(state, Action::Passes(PassesAction::Cancel));
    assert_eq!(state.passes.out.message, Some(PassesOrder::Cancel { seq: 2 }));
    assert_eq!(state.passes.status, PassesStatus::Cancelled);
    let opened = reduce(state.clone(), Action::Passes(PassesAction::Open));
    assert_eq!(opened.passes.status, PassesStatus::Cancelled);
    let state = reduce(state, Action::Passes(PassesAction::Again));
    assert!(matches!(state.passes.out.message, Some(PassesOrder::Read { seq: 3, .. })));
}
