//! A data table: a real `<table>` for small row counts, a virtualized ARIA grid for
//! large ones (only the visible rows exist in the DOM). Arrow keys move the selection.

use yew::prelude::*;

/// Above this many rows the table is virtualized.
pub const VIRTUALIZE_ABOVE: usize = 150;
/// …or above this many cells (a table one column per core grows wide as fast as long).
pub const VIRTUALIZE_CELLS_ABOVE: usize = 400;
const ROW_HEIGHT: f64 = 28.0;
/// Rows drawn beyond each edge of the viewport.
const OVERSCAN: usize = 6;
/// The viewport's height before it is measured: `.grid-viewport` is `60vh`.
const VIEWPORT_SHARE: f64 = 0.6;

/// Props of [`DataTable`].
#[derive(Properties, PartialEq)]
pub struct DataTableProps {
    /// What the table lists (its caption).
    pub caption: AttrValue,
    /// Column titles.
    pub columns: Vec<AttrValue>,
    /// Number of rows.
    pub rows: usize,
    /// The cells of row `i`.
    pub row: Callback<usize, Vec<Html>>,
    /// Extra classes of row `i` (`changed`, `selected`, …).
    #[prop_or_default]
    pub row_class: Option<Callback<usize, Classes>>,
    /// Called with the row the keyboard moved to.
    #[prop_or_default]
    pub on_select: Option<Callback<usize>>,
    /// The row to keep in view and mark.
    #[prop_or_default]
    pub selected: Option<usize>,
    /// Test id.
    #[prop_or_default]
    pub id: Option<AttrValue>,
}

/// Column titles from fixed names.
pub fn columns(names: &[&'static str]) -> Vec<AttrValue> {
    names.iter().map(|&name| AttrValue::Static(name)).collect()
}

/// A fresh id for a grid's caption (several grids share a page).
fn next_caption_id() -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    format!("grid-caption-{}", NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
}

/// A table, virtualized when large.
#[function_component(DataTable)]
pub fn data_table(props: &DataTableProps) -> Html {
    let caption_id = use_memo((), |_| next_caption_id());
    let scroll = use_state(|| 0.0f64);
    let viewport = use_node_ref();
    let onkeydown = {
        let on_select = props.on_select.clone();
        let rows = props.rows;
        let selected = props.selected;
        Callback::from(move |event: KeyboardEvent| {
            let Some(on_select) = &on_select else { return };
            let delta: isize = match event.key().as_str() {
                "ArrowDown" => 1,
                "ArrowUp" => -1,
                "PageDown" => 20,
                "PageUp" => -20,
                "Home" => -(rows as isize),
                "End" => rows as isize,
                _ => return,
            };
            event.prevent_default();
            if rows == 0 {
                return;
            }
            let at = selected.map(|s| s as isize).unwrap_or(-1);
            on_select.emit((at + delta).clamp(0, rows as isize - 1) as usize);
        })
    };
    let class_of = |i: usize| {
        let mut classes = props.row_class.as_ref().map(|c| c.emit(i)).unwrap_or_default();
        if props.selected == Some(i) {
            classes.push("selected");
        }
        classes
    };
    let onclick_row = |i: usize| {
        let on_select = props.on_select.clone();
        Callback::from(move |_| {
            if let Some(on_select) = &on_select {
                on_select.emit(i);
            }
        })
    };
    // Keep the selected row in view (virtualized tables; the small ones scroll with
    // the page). Before any return: hooks run in the same order every render.
    {
        let viewport = viewport.clone();
        use_effect_with(props.selected, move |selected| {
            if let (Some(selected), Some(element)) = (selected, viewport.cast::<web_sys::Element>()) {
                let top = *selected as f64 * ROW_HEIGHT;
                let height = element.client_height() as f64;
                let scroll_top = element.scroll_top() as f64;
                if top < scroll_top || top + ROW_HEIGHT > scroll_top + height - ROW_HEIGHT {
                    element.set_scroll_top((top - height / 2.0).max(0.0) as i32);
                }
            }
        });
    }
    if props.rows <= VIRTUALIZE_ABOVE && props.rows * props.columns.len() <= VIRTUALIZE_CELLS_ABOVE {
        return html! {
            <div class="table-wrap" tabindex="0" {onkeydown} id={props.id.clone()}>
                <table>
                    <caption>{ props.caption.clone() }</caption>
                    <thead><tr>{ for props.columns.iter().map(|c| html! { <th scope="col">{ c.clone() }</th> }) }</tr></thead>
                    <tbody>
                        { for (0..props.rows).map(|i| html! {
                            <tr class={class_of(i)} onclick={onclick_row(i)}>
                                { for props.row.emit(i).into_iter().map(|cell| html! { <td>{ cell }</td> }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        };
    }
    let onscroll = {
        let scroll = scroll.clone();
        let viewport = viewport.clone();
        Callback::from(move |_| {
            if let Some(element) = viewport.cast::<web_sys::Element>() {
                scroll.set(element.scroll_top() as f64);
            }
        })
    };
    // Only the rows in view exist (plus a few each side): the viewport's own height once
    // drawn, the share of the window it takes before.
    let height =
        viewport.cast::<web_sys::Element>().map(|e| e.client_height() as f64).filter(|&h| h > 0.0).unwrap_or_else(
            || gloo::utils::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(800.0) * VIEWPORT_SHARE,
        );
    let first = ((*scroll / ROW_HEIGHT) as usize).saturating_sub(OVERSCAN);
    let visible = (height / ROW_HEIGHT).ceil() as usize + 2 * OVERSCAN;
    let last = (first + visible).min(props.rows);
    let columns = props.columns.len();
    html! {
        <div class="grid-wrap" id={props.id.clone()}>
            <div class="grid-caption" id={(*caption_id).clone()}>{ format!("{} ({} rows)", props.caption, props.rows) }</div>
            <div role="grid" aria-rowcount={(props.rows + 1).to_string()} aria-colcount={columns.to_string()}
                 aria-labelledby={(*caption_id).clone()} class="grid" tabindex="0" {onkeydown}>
                <div role="row" aria-rowindex="1" class="grid-head">
                    { for props.columns.iter().map(|c| html! { <div role="columnheader" class="cell">{ c.clone() }</div> }) }
                </div>
                <div class="grid-viewport" ref={viewport} {onscroll}>
                    <div class="grid-spacer" style={format!("height:{}px", props.rows as f64 * ROW_HEIGHT)}>
                        { for (first..last).map(|i| html! {
                            <div role="row" aria-rowindex={(i + 2).to_string()} class={classes!("grid-row", class_of(i))}
                                 style={format!("top:{}px", i as f64 * ROW_HEIGHT)} onclick={onclick_row(i)}
                                 aria-selected={(props.selected == Some(i)).to_string()}>
                                { for props.row.emit(i).into_iter().map(|cell| html! { <div role="gridcell" class="cell">{ cell }</div> }) }
                            </div>
                        }) }
                    </div>
                </div>
            </div>
        </div>
    }
}
