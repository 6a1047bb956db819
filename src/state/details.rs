//! The selection and the details panel: what is selected (an entity, a diagnostic),
//! what the panel shows of it, and what it asked the worker. An answer settles the
//! panel as `Ready` or `Missing` (and why); nothing is left loading.

use std::rc::Rc;

use birlink_core::output::report::ModuleUnit;
use birlink_core::tools::query::{EntityQuery, EntityView, Original};
use birlink_core::EntityKey;

use super::{Ask, Mode, Outbox, Query, State};
use crate::embed::protocol::{ErrorCode, HostError, PageMessage};
use crate::side::Side;

/// What is selected: an entity, or a diagnostic.
#[derive(Clone, Debug, PartialEq)]
pub enum Selection {
    /// An entity of the linked module.
    Entity(EntityQuery),
    /// A diagnostic, by index in the report.
    Diagnostic(usize),
}

/// Something the details panel asked the worker for.
#[derive(Clone, Debug, PartialEq)]
pub enum Fetch<T> {
    /// Asked; the answer has not come yet.
    Loading,
    /// There is nothing to show, and why.
    Missing(String),
    /// The answer.
    Ready(T),
}

/// What the details panel shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Details {
    /// Nothing selected.
    Empty,
    /// An entity of the linked module.
    Entity {
        /// The entity asked for.
        query: EntityQuery,
        /// Its details.
        view: Fetch<Rc<EntityView>>,
    },
    /// The place a diagnostic points at, in its input file.
    Original {
        /// The diagnostic's index in the report.
        diagnostic: usize,
        /// `file at pointer`.
        title: String,
        /// The text there.
        original: Fetch<Rc<Original>>,
    },
    /// A unit's canonical text.
    Unit {
        /// The unit.
        unit: ModuleUnit,
        /// Its text.
        text: Fetch<Rc<String>>,
    },
}

/// The selection and the details panel.
#[derive(Clone, Debug, PartialEq)]
pub struct DetailsState {
    /// The selection.
    pub selection: Option<Selection>,
    /// What the panel shows.
    pub shown: Details,
    /// The key of the selected entity, once the worker found it.
    pub key: Option<EntityKey>,
    /// Whether the user made the selection (not a link or a host): the page then tells
    /// its host (`selected`) and adds a history entry.
    pub by_user: bool,
    /// Whether the panel is open (embed mode folds it).
    pub open: bool,
    /// Which link set the selected entity is of (B's, from the Compare view).
    pub side: Side,
    /// The panel's question to the worker.
    pub out: Outbox<Ask>,
}

impl Default for DetailsState {
    fn default() -> Self {
        DetailsState {
            selection: None,
            shown: Details::Empty,
            key: None,
            by_user: false,
            open: true,
            side: Side::Shown,
            out: Outbox::default(),
        }
    }
}

/// The details panel's actions.
#[derive(Debug)]
pub enum DetailsAction {
    /// Select an entity or a diagnostic.
    Select(Selection),
    /// Clear the selection.
    Clear,
    /// Select the entity a key names (a link, a host).
    SelectKey(EntityKey),
    /// The user picks an entity of either side by its key (the Compare view's rows).
    PickKey(Side, EntityKey),
    /// The user picks an entity of either side by what names it (a diagnostic's, in
    /// the Compare view).
    PickOn(Side, EntityQuery),
    /// Show a unit's text.
    ShowUnit(ModuleUnit),
    /// Fold or unfold the panel (embed mode).
    Toggle,
    /// The worker answered about an entity.
    EntityLoaded {
        /// The run.
        run: u64,
        /// What was asked.
        query: EntityQuery,
        /// The answer (`None`: the linked module has no such entity).
        view: Option<Box<EntityView>>,
    },
    /// The worker answered about a place in a file.
    OriginalLoaded {
        /// The run.
        run: u64,
        /// The file.
        file: String,
        /// The pointer.
        pointer: String,
        /// The text there (`None`: the file has no text there).
        original: Option<Original>,
    },
    /// The worker answered with a unit's text.
    UnitLoaded {
        /// The run.
        run: u64,
        /// The unit.
        unit: ModuleUnit,
        /// Its text (`None`: no such unit).
        text: Option<String>,
    },
}

const NOT_LINKED: &str = "the link failed before bir_linker made a linked module";

impl State {
    /// Asks the worker a details question about the run of the side shown.
    fn ask_details(&mut self, query: Query) {
        if let Some(run) = self.details_run() {
            self.details.out.post(Ask { run, query });
        }
    }

    /// The run the details panel is about: the link set shown, or (an entity of B
    /// picked in the Compare view) the one compared against.
    pub(crate) fn details_run(&self) -> Option<u64> {
        self.sides[self.details.side].result_run()
    }

    fn linked_module(&self) -> bool {
        self.sides[self.details.side].result.as_ref().is_some_and(|r| r.linked)
    }

    /// Selects something and decides what the details panel shows and asks.
    pub(crate) fn select(&mut self, selection: Selection) {
        self.select_on(Side::Shown, selection);
    }

    /// Selects something of one link set (an entity of B's, from the Compare view).
    pub(crate) fn select_on(&mut self, side: super::Side, selection: Selection) {
        self.details.side = side;
        self.search.open = false;
        self.details.open = true;
        if matches!(selection, Selection::Diagnostic(_)) {
            self.details.key = None;
        }
        match &selection {
            Selection::Entity(query) => {
                if self.linked_module() {
                    self.details.shown = Details::Entity { query: query.clone(), view: Fetch::Loading };
                    self.ask_details(Query::Entity(query.clone()));
                } else {
                    self.details.shown =
                        Details::Entity { query: query.clone(), view: Fetch::Missing(NOT_LINKED.to_owned()) };
                }
            }
            &Selection::Diagnostic(index) => {
                let diagnostic = self.result().and_then(|r| r.report.diagnostics.get(index));
                let location = diagnostic.and_then(|d| d.location.clone());
                match location {
                    Some(location) => {
                        let title = if location.pointer.is_empty() {
                            location.file.clone()
                        } else {
                            format!("{} at {}", location.file, location.pointer)
                        };
                        self.details.shown = Details::Original { diagnostic: index, title, original: Fetch::Loading };
                        self.ask_details(Query::Original { file: location.file, pointer: location.pointer });
                    }
                    None => {
                        let code = diagnostic.map(|d| d.code.as_str()).unwrap_or("");
                        self.details.shown = Details::Original {
                            diagnostic: index,
                            title: String::new(),
                            original: Fetch::Missing(format!(
                                "{code} is about the link set as a whole, not a place in a file: the diagnostic says it all"
                            )),
                        };
                    }
                }
            }
        }
        self.details.selection = Some(selection);
    }

    /// Clears the selection and empties the panel.
    pub(crate) fn clear_selection(&mut self) {
        self.details.side = Side::Shown;
        self.details.selection = None;
        self.details.key = None;
        self.details.shown = Details::Empty;
    }

    /// Selects the entity a key names: what it is named until the worker finds it.
    pub(crate) fn select_key(&mut self, key: EntityKey) {
        self.details.side = Side::Shown;
        self.select_key_on_side(key);
    }

    fn select_key_on_side(&mut self, key: EntityKey) {
        let query = birlink_core::tools::query::query_of(&key);
        self.search.open = false;
        self.details.open = true;
        self.details.by_user = false;
        self.details.selection = Some(Selection::Entity(query.clone()));
        if self.linked_module() {
            self.details.shown = Details::Entity { query, view: Fetch::Loading };
            self.ask_details(Query::EntityByKey(key));
        } else {
            self.details.shown = Details::Entity { query, view: Fetch::Missing(NOT_LINKED.to_owned()) };
        }
    }

    /// Applies a details action; false when it changes nothing (a stale answer).
    pub(super) fn apply_details(&mut self, action: DetailsAction) -> bool {
        match action {
            DetailsAction::Select(selection) => {
                self.select(selection);
                self.details.by_user = true;
            }
            DetailsAction::Clear => self.clear_selection(),
            DetailsAction::SelectKey(key) => self.select_key(key),
            DetailsAction::PickKey(side, key) => {
                self.details.side = side;
                self.select_key_on_side(key);
                self.details.by_user = true;
            }
            DetailsAction::PickOn(side, query) => {
                self.select_on(side, Selection::Entity(query));
                self.details.by_user = true;
            }
            DetailsAction::Toggle => self.details.open = !self.details.open,
            DetailsAction::ShowUnit(unit) => {
                if self.linked_module() {
                    self.details.shown = Details::Unit { unit: unit.clone(), text: Fetch::Loading };
                    self.ask_details(Query::Unit(unit));
                } else {
                    self.details.shown =
                        Details::Unit { unit, text: Fetch::Missing("there is no linked module".to_owned()) };
                }
            }
            DetailsAction::EntityLoaded { run, query, view } => return self.entity_loaded(run, query, view),
            DetailsAction::OriginalLoaded { run, file, pointer, original } => {
                let Details::Original { diagnostic, title, .. } = &self.details.shown else { return false };
                let asked = self
                    .result()
                    .and_then(|r| r.report.diagnostics.get(*diagnostic))
                    .and_then(|d| d.location.as_ref())
                    .is_some_and(|l| l.file == file && l.pointer == pointer);
                if Some(run) != self.details_run() || !asked {
                    return false;
                }
                let original = match original {
                    Some(original) => Fetch::Ready(Rc::new(original)),
                    None => Fetch::Missing(format!(
                        "{title}: the file has no text at that place (it could not be read or parsed)"
                    )),
                };
                self.details.shown = Details::Original { diagnostic: *diagnostic, title: title.clone(), original };
            }
            DetailsAction::UnitLoaded { run, unit, text } => {
                let current = matches!(&self.details.shown, Details::Unit { unit: u, .. } if *u == unit);
                if Some(run) != self.details_run() || !current {
                    return false;
                }
                let text = match text {
                    Some(text) => Fetch::Ready(Rc::new(text)),
                    None => Fetch::Missing(format!("`{unit}` is not in the linked module")),
                };
                self.details.shown = Details::Unit { unit, text };
            }
        }
        true
    }

    /// The worker found an entity (or not): the panel settles, and a host waiting for
    /// that selection is answered.
    fn entity_loaded(&mut self, run: u64, query: EntityQuery, view: Option<Box<EntityView>>) -> bool {
        let current = matches!(&self.details.shown, Details::Entity { query: q, .. } if *q == query);
        if Some(run) != self.details_run() || !current {
            return false;
        }
        let waiting = self.host.waits.select.take();
        let view = match view {
            Some(view) => {
                self.details.key = Some(view.key.clone());
                match waiting {
                    // A `show`'s entity was found: the request is done. (A `load`'s was
                    // acknowledged when it came.)
                    Some((id, key)) if key == view.key && self.host.load_was_acked(&id) => {}
                    Some((id, key)) if key == view.key => self.host.out.post(PageMessage::Ack { id }),
                    other => self.host.waits.select = other,
                }
                if self.mode == Mode::Embed && self.details.by_user && self.details.side == Side::Shown {
                    self.host.out.post(PageMessage::Selected { select: view.key.clone() });
                }
                Fetch::Ready(Rc::new(*view))
            }
            None => {
                let why = format!("{} `{}` is not in the linked module", query.kind, query.name);
                match waiting {
                    Some((id, key)) => self.host.out.post(PageMessage::Error {
                        id,
                        error: HostError { code: ErrorCode::NotFound, message: format!("`select={key}`: {why}") },
                    }),
                    None if !self.details.by_user => {
                        self.add_notice(format!("the link's selection is not in this link set: {why}"));
                    }
                    None => {}
                }
                self.details.key = None;
                Fetch::Missing(why)
            }
        };
        self.details.shown = Details::Entity { query, view };
        true
    }
}
