//! Browser unit tests (wasm-bindgen-test in headless Chromium; `scripts/test.sh` runs
//! them with `cargo test -p birlink-web --target wasm32-unknown-unknown --test web`).
//!
//! * The library compiled to wasm links samples to the same `report.json` and
//!   `linked.json` bytes as the native build (the committed snapshots), in every layout.
//! * 64-bit numbers and unreadable messages cross the worker boundary safely; origins
//!   are normalized by the platform's `URL`.
//! * Components render names from uploaded files as text, never as markup, and large
//!   tables are virtualized.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a broken fixture panics: that is the test failing"
)]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use yew::prelude::*;

use birlink_web::components::table::{columns, DataTable};

wasm_bindgen_test_configure!(run_in_browser);

/// The content of an insta snapshot file (after its header).
fn snapshot(text: &str) -> &str {
    let body = text.splitn(3, "---\n").nth(2).unwrap_or("");
    body.trim_end_matches('\n')
}

macro_rules! sample {
    ($name:literal) => {
        (
            $name,
            include_bytes!(concat!("../www/samples/", $name, ".json")).as_slice(),
            include_str!(concat!(
                "../crates/birlink-core/tests/it/snapshots/it__samples__",
                $name,
                ".report.json.snap"
            )),
            include_str!(concat!(
                "../crates/birlink-core/tests/it/snapshots/it__samples__",
                $name,
                ".linked.json.snap"
            )),
        )
    };
}

#[wasm_bindgen_test]
fn wasm_links_to_the_same_bytes_as_native() {
    let samples = [
        sample!("matmul-2core"),
        sample!("ring-4core"),
        sample!("unknown-keys-2core"),
        sample!("error-1514"),
        sample!("error-1512"),
        sample!("warning-1189"),
        sample!("note-BL0305"),
    ];
    for (name, bytes, report, linked) in samples {
        let outcome = birlink_core::run(
            vec![birlink_core::SourceFile {
                path: format!("{name}.json"),
                content: birlink_core::Content::Bytes(bytes.to_vec()),
                role: birlink_core::Role::Auto,
            }],
            &birlink_core::LinkOptions::default(),
        );
        let wasm_report = birlink_core::report_json(&outcome);
        assert!(wasm_report.ends_with("}\n"), "{name}: report.json ends with one newline");
        assert_eq!(wasm_report.trim_end_matches('\n'), snapshot(report), "{name}: report.json differs from native");
        let wasm_linked = birlink_core::linked_json(&outcome).unwrap_or_else(|| "(no linked module)\n".to_owned());
        assert_eq!(wasm_linked.trim_end_matches('\n'), snapshot(linked), "{name}: linked.json differs from native");
        // Compact and pretty, keys sorted or not: the same report (lines and sizes
        // aside) and the same linked.json, in wasm too.
        let source = birlink_core::SourceFile {
            path: format!("{name}.json"),
            content: birlink_core::Content::Bytes(bytes.to_vec()),
            role: birlink_core::Role::Auto,
        };
        birlink_core::tools::selfcheck::check_layouts(&[source], &birlink_core::LinkOptions::default())
            .unwrap_or_else(|problem| panic!("{name}: {problem}"));
    }
}

#[derive(Properties, PartialEq)]
struct TableProps {
    rows: usize,
}

#[function_component(Table)]
fn table(props: &TableProps) -> Html {
    let row = Callback::from(|i: usize| {
        vec![html! { { format!("<img src=x onerror=\"window.__xss=1\"> row {i}") } }, html! { { i } }]
    });
    html! { <DataTable caption="test" columns={columns(&["name", "n"])} rows={props.rows} {row} /> }
}

async fn render(rows: usize) -> web_sys::Element {
    let document = gloo::utils::document();
    let root = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&root).unwrap();
    yew::Renderer::<Table>::with_root_and_props(root.clone(), TableProps { rows }).render();
    gloo::timers::future::TimeoutFuture::new(50).await;
    root
}

#[wasm_bindgen_test]
async fn names_render_as_text() {
    let root = render(3).await;
    assert_eq!(root.query_selector_all("img").unwrap().length(), 0, "no element was made from a name");
    assert!(root.text_content().unwrap().contains("<img src=x onerror=\"window.__xss=1\"> row 2"));
    assert!(root.inner_html().contains("&lt;img"));
    let xss = js_sys::Reflect::get(&js_sys::global(), &"__xss".into()).unwrap();
    assert!(xss.is_undefined());
}

#[wasm_bindgen_test]
async fn large_tables_are_virtualized() {
    let root = render(100_000).await;
    let rows = root.query_selector_all("[role=row]").unwrap().length();
    assert!(rows > 10 && rows < 200, "{rows} rows in the DOM for 100000");
    let grid = root.query_selector("[role=grid]").unwrap().unwrap();
    assert_eq!(grid.get_attribute("aria-rowcount").as_deref(), Some("100001"));
}

#[wasm_bindgen_test]
async fn small_tables_are_plain_tables() {
    use birlink_web::components::table::VIRTUALIZE_ABOVE;
    let root = render(VIRTUALIZE_ABOVE).await;
    assert!(root.query_selector("[role=grid]").unwrap().is_none());
    let rows = root.query_selector_all("tbody tr").unwrap().length() as usize;
    assert_eq!(rows, VIRTUALIZE_ABOVE, "every row of a small table is in the DOM");
    assert!(root.query_selector("caption").unwrap().is_some(), "the table has a caption");
}

/// 64-bit numbers cross between the page and the worker without loss: a hostile
/// `lnc=` or a `CoreBarrier` id above 2^53 used to fail to encode (the worker died, or
/// the page's wasm aborted).
#[wasm_bindgen_test]
fn sixty_four_bit_numbers_cross_the_worker_boundary() {
    use birlink_core::tools::align::{Alignment, BarrierCell, Row};
    use birlink_web::protocol::{Bytes, Codec, Request, Response, RunStats, Wire};
    use gloo_worker::Codec as _;

    // A work directory's file sizes are 64-bit too, and its blobs cross as blobs.
    let blob = web_sys::Blob::new().unwrap();
    let workdir = birlink_web::protocol::WorkdirFiles {
        after: Some("lower_dma".into()),
        files: vec![("w/nc00/sg00/weights.npy".into(), u64::MAX)],
        wanted: vec![birlink_web::protocol::InputFile { path: "w/nc00/sg00/tensor_map.json".into(), blob }],
    };
    let request = Wire::new(Request::Link(birlink_web::protocol::LinkRequest {
        run: u64::MAX,
        files: Vec::new(),
        lnc: Some(u64::MAX),
        flow: Some(birlink_core::Flow::Modular),
        workdir: Some(workdir),
        keep: Some(u64::MAX - 1),
    }));
    let back: Wire<Request> = Codec::decode(Codec::encode(&request));
    match back.0 {
        Ok(Request::Link(birlink_web::protocol::LinkRequest { run, lnc, workdir: Some(w), keep, .. })) => {
            assert_eq!((run, lnc, keep), (u64::MAX, Some(u64::MAX), Some(u64::MAX - 1)));
            assert_eq!((w.after.as_deref(), w.files[0].1, w.wanted.len()), (Some("lower_dma"), u64::MAX, 1));
        }
        other => panic!("{other:?}"),
    }
    // A comparison's request and answer (its JSON as bytes) cross whole.
    let request =
        Wire::new(Request::Compare { a: u64::MAX, b: u64::MAX - 1, numbers: true, core_map: vec![(u64::MAX, 0)] });
    match Codec::decode::<Wire<Request>>(Codec::encode(&request)).0 {
        Ok(Request::Compare { a, b, numbers, core_map }) => {
            assert_eq!((a, b, numbers, core_map), (u64::MAX, u64::MAX - 1, true, vec![(u64::MAX, 0)]));
        }
        other => panic!("{other:?}"),
    }
    // A comparison crosses as its JSON's bytes, or as why there is none: a typed result.
    let compared = |json: Result<Bytes, String>| {
        let response = Wire::new(Response::Compared { a: u64::MAX, b: 1, numbers: false, core_map: Vec::new(), json });
        match Codec::decode::<Wire<Response>>(Codec::encode(&response)).0 {
            Ok(Response::Compared { a, json, .. }) => {
                assert_eq!(a, u64::MAX);
                json.map(|bytes| bytes.to_vec())
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(compared(Ok(Bytes::from(br#"{"equal":true}"#))), Ok(br#"{"equal":true}"#.to_vec()));
    assert_eq!(compared(Err("gone".into())), Err("gone".to_owned()));
    // A link's data to read names the run the side is at, as every request does.
    let request = Wire::new(Request::Decode { run: u64::MAX, data: "v1.x".into(), lnc: Some(u64::MAX) });
    match Codec::decode::<Wire<Request>>(Codec::encode(&request)).0 {
        Ok(Request::Decode { run, lnc, .. }) => assert_eq!((run, lnc), (u64::MAX, Some(u64::MAX))),
        other => panic!("{other:?}"),
    }
    let cell = BarrierCell {
        name: "CoreBarrier-0".into(),
        function: "nc00".into(),
        block: "Block1".into(),
        old_id: Some(u64::MAX),
        new_id: Some(9_007_199_254_740_993),
        added: false,
    };
    let alignment = Alignment {
        cores: vec![u64::MAX],
        barriers: vec![Row { index: 0, cells: vec![Some(cell)], mismatch: false }],
        blocks: Vec::new(),
    };
    // The alignment crosses as JSON bytes, as the worker writes it: 64-bit ids exact.
    let written = serde_json::to_vec(&alignment).expect("alignment json");
    let response = Wire::new(Response::Linked {
        run: 1,
        report: Bytes::from(b""),
        linked: true,
        stats: RunStats { bytes: u64::MAX, ..RunStats::default() },
        alignment: Bytes::from(&written),
    });
    let back: Wire<Response> = Codec::decode(Codec::encode(&response));
    match back.0 {
        Ok(Response::Linked { alignment: got, stats, .. }) => {
            let got: Alignment = serde_json::from_slice(&got.to_vec()).expect("alignment reads back");
            assert_eq!(got, alignment);
            assert_eq!(stats.bytes, u64::MAX);
        }
        other => panic!("{other:?}"),
    }
}

/// A message one side cannot read arrives as a typed failure, not a panic.
#[wasm_bindgen_test]
fn an_unreadable_message_is_a_typed_failure() {
    use birlink_web::protocol::{Codec, Request, Wire};
    use gloo_worker::Codec as _;

    // What a `Wire<Request>` would carry, with a message that is no request.
    let forged = js_sys::Object::new();
    js_sys::Reflect::set(&forged, &"Message".into(), &"not a request".into()).unwrap();
    let back: Wire<Request> = Codec::decode(forged.into());
    let error = back.0.expect_err("refused");
    assert!(error.contains("could not be read"), "{error}");
}

/// `origin=` is normalized by the platform's `URL`, as browsers write
/// `MessageEvent.origin`.
#[wasm_bindgen_test]
fn origins_are_written_as_browsers_write_them() {
    use birlink_web::services::location::normalize_origin;
    assert_eq!(normalize_origin("http://127.0.0.1:8080").as_deref(), Some("http://127.0.0.1:8080"));
    assert_eq!(normalize_origin("HTTP://Localhost:80").as_deref(), Some("http://localhost"));
    assert_eq!(normalize_origin("https://Docs.Example.org:443/").as_deref(), Some("https://docs.example.org"));
    assert_eq!(normalize_origin("https://xn--bcher-kva.example").as_deref(), Some("https://xn--bcher-kva.example"));
    assert_eq!(normalize_origin("https://bücher.example").as_deref(), Some("https://xn--bcher-kva.example"));
    assert_eq!(normalize_origin("https://a.org/path"), None);
    assert_eq!(normalize_origin("https://user@a.org"), None);
    assert_eq!(normalize_origin("javascript://x"), None);
    assert_eq!(normalize_origin("*"), None);
}
