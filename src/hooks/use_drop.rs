//! Drag and drop anywhere on the page: files and whole folders join the link set.

use yew::prelude::*;

use crate::services::files;
use crate::side::Side;
use crate::state::State;

/// Whether something is being dragged over the page, and the handlers to put on it.
pub struct DropHandle {
    /// Something is over the page.
    pub dragging: bool,
    /// `dragover`.
    pub ondragover: Callback<DragEvent>,
    /// `dragleave`.
    pub ondragleave: Callback<DragEvent>,
    /// `drop`.
    pub ondrop: Callback<DragEvent>,
}

/// The page as a drop target.
#[hook]
pub fn use_drop(state: &UseReducerHandle<State>) -> DropHandle {
    let dragging = use_state(|| false);
    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |event: DragEvent| {
            // Only leaving the window counts (related target outside the page).
            if event.related_target().is_none() {
                dragging.set(false);
            }
        })
    };
    let ondrop = {
        let dragging = dragging.clone();
        let dispatcher = state.dispatcher();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            dragging.set(false);
            let Some(transfer) = event.data_transfer() else { return };
            let dispatcher = dispatcher.clone();
            files::take_drop(transfer, Side::Shown, move |action| dispatcher.dispatch(action));
        })
    };
    DropHandle { dragging: *dragging, ondragover, ondragleave, ondrop }
}
