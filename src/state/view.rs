//! Which view is open and which pipeline step it shows. The views are
//! `birlink_core::tools::share::View`, declared once (links name them); the page adds their
//! labels and element ids ([`ViewLabels`]).

use birlink_core::tools::share::View;

use super::{Selection, State};

/// What the page shows of a view.
pub trait ViewLabels {
    /// The tab's label.
    fn label(self) -> &'static str;
    /// The view's id in the page (`tab-<id>`, `view-<id>`).
    fn id(self) -> &'static str;
}

impl ViewLabels for View {
    fn label(self) -> &'static str {
        match self {
            View::Pipeline => "Pipeline",
            View::CallGraph => "Call graph",
            View::Barriers => "Barriers",
            View::Semaphores => "Semaphores",
            View::Addresses => "Addresses",
            View::Diagnostics => "Diagnostics",
            View::Sync => "Sync",
            View::LinkDir => "sgLnk",
            View::Compare => "Compare",
            View::Passes => "Passes",
        }
    }

    fn id(self) -> &'static str {
        match self {
            View::Pipeline => "pipeline",
            View::CallGraph => "call-graph",
            View::Barriers => "barriers",
            View::Semaphores => "semaphores",
            View::Addresses => "addresses",
            View::Diagnostics => "diagnostics",
            View::Sync => "sync",
            View::LinkDir => "link-dir",
            View::Compare => "compare",
            View::Passes => "passes",
        }
    }
}

/// The view's actions.
#[derive(Debug)]
pub enum ViewAction {
    /// Open a view.
    Set(View),
    /// Show a pipeline step.
    SelectStep(usize, usize),
    /// Toggle hiding steps that changed nothing.
    ToggleHideUnchanged,
    /// Toggle alias edges.
    ToggleAliases,
}

impl State {
    /// The visible steps of the pipeline, in order: `(pass, step)`.
    pub fn visible_steps(&self) -> Vec<(usize, usize)> {
        let Some(result) = self.result() else { return Vec::new() };
        let mut steps = Vec::new();
        for (p, pass) in result.report.passes.iter().enumerate() {
            for (s, step) in pass.steps.iter().enumerate() {
                if !self.hide_unchanged || step.changes > 0 {
                    steps.push((p, s));
                }
            }
        }
        steps
    }

    /// The first step worth showing: the failing pass's first, else the first change.
    pub(crate) fn default_step(&self) -> Option<(usize, usize)> {
        let result = self.result()?;
        if let Some(p) = result.failed_pass {
            if !result.report.passes[p].steps.is_empty() {
                return Some((p, 0));
            }
        }
        self.visible_steps().into_iter().next()
    }

    /// Moves the step (Pipeline), the diagnostic (Diagnostics) or the replayed step
    /// (Sync).
    pub(crate) fn move_by(&mut self, delta: isize) {
        match self.view {
            View::Pipeline => {
                let steps = self.visible_steps();
                if !steps.is_empty() {
                    let at = self.step.and_then(|s| steps.iter().position(|x| *x == s));
                    let index = match at {
                        Some(i) => (i as isize + delta).clamp(0, steps.len() as isize - 1) as usize,
                        None => 0,
                    };
                    self.step = Some(steps[index]);
                }
            }
            View::Diagnostics => {
                let Some(result) = self.result().cloned() else { return };
                let order = &result.diagnostic_order;
                if order.is_empty() {
                    return;
                }
                let at = match self.details.selection {
                    Some(Selection::Diagnostic(i)) => order.iter().position(|x| *x == i),
                    _ => None,
                };
                let next = match at {
                    Some(i) => (i as isize + delta).clamp(0, order.len() as isize - 1) as usize,
                    None => 0,
                };
                self.select(Selection::Diagnostic(order[next]));
            }
            View::Sync => self.move_sync_by(delta as i64),
            View::Passes => {
                self.move_pass_by(delta);
            }
            View::CallGraph | View::Barriers | View::Semaphores | View::Addresses | View::LinkDir | View::Compare => {}
        }
    }

    /// Applies a view action.
    pub(super) fn apply_view(&mut self, action: ViewAction) -> bool {
        match action {
            ViewAction::Set(view) => self.view = view,
            ViewAction::SelectStep(pass, step) => {
                self.step = Some((pass, step));
                self.view = View::Pipeline;
            }
            ViewAction::ToggleHideUnchanged => {
                self.hide_unchanged = !self.hide_unchanged;
                if let Some(step) = self.step {
                    if !self.visible_steps().contains(&step) {
                        self.step = self.default_step();
                    }
                }
            }
            ViewAction::ToggleAliases => self.show_aliases = !self.show_aliases,
        }
        true
    }
}
