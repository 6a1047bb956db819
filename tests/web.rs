//! Browser unit tests (wasm-bindgen-test in headless Chromium; `scripts/test.sh` runs
//! them with `cargo test -p birlink-web --target wasm32-unknown-unknown --test web`).
//!
//! * The library compiled to wasm links samples to the same `report.json` and
//!   `linked.json` bytes as the native build (the committed snapshots).
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
                content: Ok(bytes.to_vec()),
                role: birlink_core::Role::Auto,
            }],
            &birlink_core::LinkOptions::default(),
        );
        let wasm_report = birlink_core::report_json(&outcome);
        assert!(wasm_report.ends_with("}\n"), "{name}: report.json ends with one newline");
        assert_eq!(wasm_report.trim_end_matches('\n'), snapshot(report), "{name}: report.json differs from native");
        let wasm_linked = birlink_core::linked_json(&outcome).unwrap_or_else(|| "(no linked module)\n".to_owned());
        assert_eq!(wasm_linked.trim_end_matches('\n'), snapshot(linked), "{name}: linked.json differs from native");
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
