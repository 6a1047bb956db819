//! Where a side's link set comes from: files, a folder, a sample, a pasted link (the
//! side compared against), and its LNC. One component for both sides — the header's
//! (A) and the Compare panel's (B) — so each control acts on its `side` alike; it reads
//! only its props, and opens what is asked through `services::open`.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use yew::prelude::*;

use birlink_core::gen::samples::SampleInfo;
use birlink_core::Severity;

use crate::context::use_selection;
use crate::services::{files, open};
use crate::side::Side;
use crate::state::{Action, LinkAction, LinkOp};

/// Props of [`LinkSetPicker`].
#[derive(Properties, PartialEq)]
pub struct PickerProps {
    /// Which side it opens.
    pub side: Side,
    /// The samples menu.
    pub samples: Rc<Vec<SampleInfo>>,
    /// The sample the side is, when it is one.
    #[prop_or_default]
    pub open_sample: Option<AttrValue>,
    /// The side's LNC, when set.
    #[prop_or_default]
    pub lnc: Option<u64>,
}

/// What a side's controls say.
struct Words {
    files: &'static str,
    files_title: &'static str,
    folder: &'static str,
    folder_title: &'static str,
    samples: &'static str,
    lnc: &'static str,
    lnc_title: &'static str,
}

fn words(side: Side) -> Words {
    match side {
        Side::Shown => Words {
            files: "Open files",
            files_title: "Open per-core module files or bundles",
            folder: "Open folder",
            folder_title: "Open a folder of nc*/sg*/*.json dumps",
            samples: "Samples…",
            lnc: "LNC ",
            lnc_title: "vnc_nc_count: the expected number of cores (empty: from the inputs)",
        },
        Side::Against => Words {
            files: "B's files",
            files_title: "Open the files of the link set to compare against",
            folder: "B's folder",
            folder_title: "Open a folder of dumps to compare against",
            samples: "A sample as B…",
            lnc: "B's LNC ",
            lnc_title: "B's vnc_nc_count (empty: from its inputs)",
        },
    }
}

/// A side's open controls.
#[function_component(LinkSetPicker)]
pub fn link_set_picker(props: &PickerProps) -> Html {
    let dispatcher = use_selection().dispatcher;
    let files_input = use_node_ref();
    let folder_input = use_node_ref();
    let link_text = use_state(String::new);
    let side = props.side;
    let words = words(side);
    let id = |name: &str| format!("{}{name}", side.id_prefix());

    // In an editor's webview its own dialog chooses (it browses the machine the files are
    // on: under Remote-SSH, not the laptop the webview runs on).
    let editor = crate::services::editor::available();
    let click = |input: NodeRef, folder: bool| {
        Callback::from(move |_: MouseEvent| {
            if editor {
                crate::services::editor::pick(folder, side);
            } else if let Some(input) = input.cast::<web_sys::HtmlInputElement>() {
                input.click();
            }
        })
    };
    let on_picked = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |event: Event| {
            let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
                return;
            };
            let picked = files::from_input(&input);
            input.set_value("");
            if !picked.is_empty() {
                dispatcher.dispatch(Action::Link(LinkAction { side, op: LinkOp::AddFiles(picked) }));
            }
        })
    };
    let on_sample = {
        let dispatcher = dispatcher.clone();
        let samples = props.samples.clone();
        Callback::from(move |event: Event| {
            let Some(select) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else {
                return;
            };
            let file = select.value();
            match file.strip_prefix("pair:") {
                // A public report's pair: A shown, B compared against it.
                Some(a) => {
                    let b = crate::state::compare::pair_of(&samples, a).map(str::to_owned);
                    open::pair(&dispatcher, a.to_owned(), b);
                }
                None if !file.is_empty() => open::sample(&dispatcher, side, file),
                None => {}
            }
        })
    };
    let on_lnc = {
        let dispatcher = dispatcher.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                let lnc = input.value().trim().parse().ok();
                dispatcher.dispatch(Action::Link(LinkAction { side, op: LinkOp::SetLnc(lnc) }));
            }
        })
    };
    let on_link_input = {
        let link_text = link_text.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
                link_text.set(input.value());
            }
        })
    };
    let on_link = {
        let link_text = link_text.clone();
        Callback::from(move |event: SubmitEvent| {
            event.prevent_default();
            open::pasted(&dispatcher, side, &link_text);
            link_text.set(String::new());
        })
    };

    let samples = &props.samples;
    let open_sample = props.open_sample.as_deref();
    let group = |title: &str, filter: &dyn Fn(&SampleInfo) -> bool| -> Html {
        html! {
            <optgroup label={title.to_owned()}>
                { for samples.iter().filter(|s| filter(s)).map(|s| html! {
                    <option value={s.file.clone()} title={s.description.clone()}
                            selected={open_sample == Some(s.file.as_str())}>{ s.title.clone() }</option>
                }) }
            </optgroup>
        }
    };
    let severity = |severity: Severity| {
        move |s: &SampleInfo| s.files.is_empty() && s.code.is_some_and(|c| c.severity() == severity)
    };
    html! {
        <>
            <button type="button" id={id("open-files")} onclick={click(files_input.clone(), false)} title={words.files_title}>{ words.files }</button>
            <button type="button" id={id("open-folder")} onclick={click(folder_input.clone(), true)} title={words.folder_title}>{ words.folder }</button>
            <input type="file" id={id("file-input")} multiple=true accept=".json,application/json,.txt,.log,text/plain" class="hidden"
                   ref={files_input} onchange={on_picked.clone()} aria-label={words.files} tabindex="-1" />
            <input type="file" id={id("folder-input")} webkitdirectory=true multiple=true class="hidden"
                   ref={folder_input} onchange={on_picked} aria-label={words.folder} tabindex="-1" />
            // In an editor's webview the editor opens link sets (its explorer, its
            // commands) and no samples are fetched: no samples menu.
            if !editor {
                <label class="samples">
                    <span class="visually-hidden">{ words.samples }</span>
                    <select onchange={on_sample} id={id("samples")}>
                        <option value="" selected={open_sample.is_none()}>{ words.samples }</option>
                        { group("Link sets, as the compiler links", &|s| s.code.is_none() && s.files.is_empty() && s.flow != birlink_core::Flow::Seeds) }
                        { group("Link sets, the seeds' reading", &|s| s.code.is_none() && s.files.is_empty() && s.flow == birlink_core::Flow::Seeds) }
                        // A pair opens both sides: offered where the shown side is opened.
                        if side == Side::Shown {
                            <optgroup label="Compare two link sets">
                                { for samples.iter().filter(|s| s.against.is_some()).map(|s| {
                                    let other = samples.iter().find(|o| Some(o.file.as_str()) == s.against.as_deref());
                                    let title = format!("{} ↔ {}", s.title, other.map_or(s.against.clone().unwrap_or_default(), |o| o.title.clone()));
                                    let story = match other {
                                        Some(o) => format!("{} Against: {}", s.description, o.description),
                                        None => s.description.clone(),
                                    };
                                    html! { <option value={format!("pair:{}", s.file)} title={story}>{ title }</option> }
                                }) }
                            </optgroup>
                        }
                        { group("Work directories", &|s| !s.files.is_empty()) }
                        { group("Errors", &severity(Severity::Error)) }
                        { group("Warnings", &severity(Severity::Warning)) }
                        { group("Notes", &severity(Severity::Note)) }
                    </select>
                </label>
            }
            if side == Side::Against {
                <form class="against-link" onsubmit={on_link}>
                    <input type="text" id={id("link")} placeholder="or paste a birlink link" value={(*link_text).clone()}
                           oninput={on_link_input} aria-label="A birlink link to compare against" spellcheck="false" />
                    <button type="submit" disabled={link_text.trim().is_empty()}>{ "Open" }</button>
                </form>
            }
            <label class="lnc" title={words.lnc_title}>
                { words.lnc }
                <input type="number" min="1" max="64" placeholder="auto" id={id("lnc")}
                       value={props.lnc.map(|n| n.to_string()).unwrap_or_default()} onchange={on_lnc} />
            </label>
        </>
    }
}
