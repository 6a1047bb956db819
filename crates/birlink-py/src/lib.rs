//! `birlink._birlink`: the native half of the `birlink` Python package (PyO3, the stable
//! ABI from CPython 3.9). The same Rust library the CLI and the browser run, called
//! in-process, never as a subprocess; `python/birlink/__init__.py` is the typed API
//! built on it.
//!
//! * [`link`] runs the pipeline and returns a [`Run`] (a failing link is a result, not an
//!   exception); a missing input raises `FileNotFoundError`, a bad argument `ValueError`;
//! * [`explain`], [`reduce`], [`share`] are `birlink explain`, `reduce` and `share`;
//! * [`cli`] is the whole command line (the `birlink` command the wheel installs);
//! * [`web_file`] and [`gather`] hand the notebook view the inspector's files (built
//!   into the module) and the inputs, named as the browser names them.

use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use birlink_core::tools::reduce::{ReduceError, ReduceOptions};
use birlink_core::tools::share::{LinkSetData, SharedFile, View, ViewState};
use birlink_core::tools::{reduce as reducing, share as sharing};
use birlink_core::{Code, LinkOptions, Outcome, Pass};

/// Raises `FileNotFoundError` for the first path that does not exist.
fn existing(paths: &[PathBuf]) -> PyResult<()> {
    match paths.iter().find(|p| !p.exists()) {
        Some(path) => Err(PyFileNotFoundError::new_err((2, "No such file or directory", path.display().to_string()))),
        None => Ok(()),
    }
}

/// One finished run of the link pipeline.
#[pyclass(module = "birlink._birlink", frozen)]
struct Run {
    outcome: Outcome,
}

#[pymethods]
impl Run {
    /// Whether every pass ran clean (no error diagnostic).
    #[getter]
    fn ok(&self) -> bool {
        !birlink_core::diag::has_errors(&self.outcome.report.diagnostics)
    }

    /// The pass that failed (`vnc_remote_addr_map`), if one did.
    #[getter]
    fn failed_pass(&self) -> Option<&'static str> {
        self.outcome
            .report
            .passes
            .iter()
            .find(|p| p.status == birlink_core::output::report::PassStatus::Error)
            .map(|p| p.name.as_str())
    }

    /// Every diagnostic, as a dict of `code`, `ncc`, `severity`, `message`, `core`,
    /// `file`, `line`, `column`, `pointer`, `help`, `pass`, `nearest`.
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for d in &self.outcome.report.diagnostics {
            let item = PyDict::new(py);
            item.set_item("code", d.code.as_str())?;
            item.set_item("ncc", d.code.ncc())?;
            item.set_item("severity", d.severity.as_str())?;
            item.set_item("pass", d.pass.as_str())?;
            item.set_item("message", &d.message)?;
            item.set_item("core", d.core)?;
            item.set_item("file", d.location.as_ref().map(|l| l.file.as_str()))?;
            item.set_item("line", d.location.as_ref().and_then(|l| l.line))?;
            item.set_item("column", d.location.as_ref().and_then(|l| l.column))?;
            item.set_item("pointer", d.location.as_ref().map(|l| l.pointer.as_str()))?;
            item.set_item("help", &d.help)?;
            item.set_item("nearest", d.nearest.clone())?;
            list.append(item)?;
        }
        Ok(list)
    }

    /// `report.json`, exactly as the CLI writes it.
    fn report_json(&self) -> String {
        birlink_core::report_json(&self.outcome)
    }

    /// `linked.json`, exactly as the CLI writes it: the per-core modules as a bundle in
    /// the compiler's flows, one module in the seeds' reading (`None` when a pass before
    /// the VNC passes failed).
    fn linked_json<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        birlink_core::linked_json(&self.outcome).map(|text| PyBytes::new(py, text.as_bytes()))
    }

    /// A work directory's merged `tensor-map.json` in the seeds' reading, as `birlink
    /// link` writes it (`None` when no core had a tensor map, or in the compiler's flows:
    /// see `tensor_maps`).
    fn tensor_map_json(&self) -> Option<String> {
        birlink_core::tensor_map_json(&self.outcome)
    }

    /// Every merged tensor map the link writes, by the file name `birlink link` gives it
    /// in its output folder: `tensor-map.json` (the seeds' reading) or one
    /// `tensor_map.ncCC.json` per core (the modular flow: the link directory's
    /// `ncCC/sgLnk/sg00/tensor_map.json`).
    fn tensor_maps(&self) -> std::collections::BTreeMap<String, String> {
        birlink_core::tensor_map_files(&self.outcome).into_iter().collect()
    }

    /// `bir_linker.log`, exactly as the CLI writes it: bir_linker's own log in the
    /// compiler's words (`None` in the seeds' reading).
    fn bir_linker_log(&self) -> Option<String> {
        birlink_core::bir_linker_log(&self.outcome)
    }

    /// The flow the set was linked in (`modular`, `flat`, `seeds`).
    #[getter]
    fn flow(&self) -> &'static str {
        self.outcome.report.options.flow.as_str()
    }

    /// The linked set's canonical text (`birlink link --text`), if there is one.
    fn text(&self) -> Option<String> {
        self.outcome.linked.as_ref().map(birlink_core::output::print::set_text)
    }

    /// `report.sync` (docs/spec/sync.md §8) as its JSON, byte for byte the report's.
    fn sync_json(&self) -> String {
        birlink_core::output::json::to_pretty_string(&self.outcome.report.sync)
    }

    /// The diagnostics rendered as the CLI prints them (rustc-style, no colour).
    fn rendered(&self) -> String {
        birlink_cli::render::diagnostics(&self.outcome.report.diagnostics, &self.outcome.files, false)
    }
}

/// Links per-core module files, bundles or folders (as `birlink link`).
#[pyfunction]
#[pyo3(signature = (paths, *, lnc=None, netlist=None, passes=None, after=None, flow=None, sync=true, deny_sync=false))]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments, each optional")]
fn link(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    lnc: Option<u64>,
    netlist: Option<PathBuf>,
    passes: Option<Vec<String>>,
    after: Option<String>,
    flow: Option<String>,
    sync: bool,
    deny_sync: bool,
) -> PyResult<Run> {
    let flow = flow_of(flow)?;
    if paths.is_empty() {
        return Err(PyValueError::new_err("no input: give per-core module files, bundles or folders"));
    }
    existing(&paths)?;
    if let Some(netlist) = &netlist {
        existing(std::slice::from_ref(netlist))?;
    }
    if let Some(n) = lnc.filter(|n| !(1..=birlink_core::limits::MAX_LNC).contains(n)) {
        return Err(PyValueError::new_err(format!(
            "lnc must be an integer from 1 to {}, not {n}",
            birlink_core::limits::MAX_LNC
        )));
    }
    if let Some(bad) = passes.iter().flatten().find(|p| Pass::parse(p).is_none()) {
        return Err(PyValueError::new_err(format!(
            "no pass `{bad}`: one of {}",
            Pass::PIPELINE.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
        )));
    }
    // A compiler work directory links each core's dump after `after` (default
    // `lower_sync`), as `birlink link --after` does.
    let (mut sources, workdirs) = birlink_cli::files::gather_after(&paths, after.as_deref());
    if let Some(netlist) = &netlist {
        sources.push(birlink_cli::files::read_netlist(netlist));
    }
    let options = LinkOptions {
        lnc: lnc.or_else(|| if workdirs.len() > 1 { birlink_core::read::workdir::implied_lnc(workdirs.iter().map(|w| &w.plan)) } else { None }),
        passes,
        threads: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
        workdir: birlink_cli::files::Workdir::single_input(&workdirs),
        flow,
        sync: sync_check(sync, deny_sync),
        ..LinkOptions::default()
    };
    // The link holds no Python object: other threads run meanwhile.
    let outcome = py.allow_threads(|| birlink_core::run(sources, &options));
    Ok(Run { outcome })
}

/// `flow=`: `modular`, `flat` or `seeds`.
fn flow_of(flow: Option<String>) -> PyResult<Option<birlink_core::Flow>> {
    match flow.as_deref() {
        None => Ok(None),
        Some(name) => Ok(Some(birlink_core::Flow::parse(name).ok_or_else(|| {
            PyValueError::new_err(format!("flow must be `modular`, `flat` or `seeds`, not `{name}`"))
        })?)),
    }
}

/// `sync=` and `deny_sync=`: `--no-sync` and `--deny sync`.
fn sync_check(sync: bool, deny: bool) -> birlink_core::SyncCheck {
    match (sync, deny) {
        (false, _) => birlink_core::SyncCheck::Off,
        (true, true) => birlink_core::SyncCheck::Deny,
        (true, false) => birlink_core::SyncCheck::Run,
    }
}

/// The sync check alone over a set already linked (as `birlink check`): no pass runs.
#[pyfunction]
#[pyo3(signature = (paths, *, lnc=None, flow=None, deny_sync=false))]
fn check(py: Python<'_>, paths: Vec<PathBuf>, lnc: Option<u64>, flow: Option<String>, deny_sync: bool) -> PyResult<Run> {
    if paths.is_empty() {
        return Err(PyValueError::new_err("no input: give a linked set (linked.json, per-core dumps after vnc_link)"));
    }
    existing(&paths)?;
    let options = LinkOptions {
        lnc,
        flow: flow_of(flow)?,
        threads: std::thread::available_parallelism().map(usize::from).unwrap_or(1),
        sync: sync_check(true, deny_sync),
        ..LinkOptions::default()
    };
    let sources = birlink_cli::files::gather(&paths);
    let outcome = py.allow_threads(|| birlink_core::passes::check(sources, &options));
    Ok(Run { outcome })
}

/// Compares two link sets, each linked (as `birlink diff`): the comparison's JSON
/// (docs/spec/compare.md).
#[pyfunction]
#[pyo3(signature = (paths, against, *, lnc=None, against_lnc=None, core_map=None, normalize=None))]
fn diff(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    against: Vec<PathBuf>,
    lnc: Option<u64>,
    against_lnc: Option<u64>,
    core_map: Option<Vec<(u64, u64)>>,
    normalize: Option<String>,
) -> PyResult<String> {
    if paths.is_empty() || against.is_empty() {
        return Err(PyValueError::new_err("give both sides: diff(A, against=B)"));
    }
    existing(&paths)?;
    existing(&against)?;
    let numbers = match normalize.as_deref() {
        None => false,
        Some("numbers") => true,
        Some(other) => return Err(PyValueError::new_err(format!("normalize must be `numbers`, not `{other}`"))),
    };
    let mut map = std::collections::BTreeMap::new();
    for (a, b) in core_map.unwrap_or_default() {
        if map.insert(a, b).is_some() {
            return Err(PyValueError::new_err(format!("core {a} of A is mapped twice")));
        }
    }
    let options = birlink_core::tools::compare::CompareOptions {
        core_map: map,
        normalize: birlink_core::tools::compare::Normalize { numbers },
    };
    let comparison = py.allow_threads(|| {
        let a = birlink_cli::cmd::diff::link(&paths, lnc, None);
        let b = birlink_cli::cmd::diff::link(&against, against_lnc, None);
        birlink_core::tools::compare::compare(&a, &b, &options)
    });
    Ok(birlink_core::output::json::to_pretty_string(&comparison))
}

/// What a code means and what to do (`1514`, `BL0002`, `NCC_ILLC059`).
#[pyfunction]
fn explain(code: &str) -> PyResult<String> {
    birlink_cli::cmd::explain::explanation(code).map_err(PyValueError::new_err)
}

/// A whole compiler log read (its bytes), as `birlink explain --log LOG --format json`
/// prints it; with `dumps`, held beside birlink's run of them (`explain --log LOG
/// DUMPS…`).
#[pyfunction]
#[pyo3(signature = (log, dumps=None, lnc=None))]
fn read_log(py: Python<'_>, log: &[u8], dumps: Option<Vec<PathBuf>>, lnc: Option<u64>) -> PyResult<String> {
    match dumps.filter(|d| !d.is_empty()) {
        None => Ok(birlink_core::tools::log::read_log_json(log)),
        Some(paths) => {
            existing(&paths)?;
            let log = log.to_vec();
            Ok(py.allow_threads(|| {
                let outcome = birlink_cli::cmd::diff::link(&paths, lnc, None);
                birlink_core::tools::log::read_log_beside_json(&log, &outcome)
            }))
        }
    }
}

/// A work directory's history, as `birlink history WORKDIR --format json` prints it.
/// `threads`: dumps read at once (1, the default, holds the least memory; 2 is faster).
/// `table=False` with `entity`: the entity alone (`--no-table`).
#[pyfunction]
#[pyo3(signature = (workdir, entity=None, core=None, subgraph=None, log=None, threads=1, table=true))]
#[allow(clippy::too_many_arguments, reason = "Python's keyword arguments, each optional")]
fn history(
    py: Python<'_>,
    workdir: PathBuf,
    entity: Option<String>,
    core: Option<u64>,
    subgraph: Option<u32>,
    log: Option<PathBuf>,
    threads: usize,
    table: bool,
) -> PyResult<String> {
    let threads = threads.clamp(1, 64);
    if !table && entity.is_none() {
        return Err(PyValueError::new_err("table=False follows an entity alone: give entity="));
    }
    let no_table = !table;
    let options = birlink_core::tools::history::HistoryOptions { entity, core, subgraph, threads, no_table };
    let history = py
        .allow_threads(|| birlink_cli::cmd::history::history_of(&workdir, log.as_deref(), &options))
        .map_err(PyValueError::new_err)?;
    Ok(serde_json::to_string_pretty(&history).unwrap_or_default())
}

/// The files of `paths` as a link carries them (named as the browser names them).
fn link_set(paths: &[PathBuf], lnc: Option<u64>) -> PyResult<LinkSetData> {
    existing(paths)?;
    let files = birlink_cli::files::gather_as_browser(paths).map_err(PyValueError::new_err)?;
    Ok(LinkSetData { files: files.into_iter().map(|(name, bytes)| SharedFile { name, bytes }).collect(), lnc, flow: None })
}

/// The smallest link set failing the same way, as the bundle's bytes.
#[pyfunction]
#[pyo3(signature = (paths, *, code=None, keep_names=false, lnc=None))]
fn reduce<'py>(
    py: Python<'py>,
    paths: Vec<PathBuf>,
    code: Option<String>,
    keep_names: bool,
    lnc: Option<u64>,
) -> PyResult<Bound<'py, PyBytes>> {
    let code = match code {
        Some(text) => Some(
            Code::parse(&text)
                .or_else(|| birlink_core::diag::ncc::find(&text).and_then(|entry| entry.birlink))
                .ok_or_else(|| PyValueError::new_err(format!("unknown code `{text}`")))?,
        ),
        None => None,
    };
    let set = link_set(&paths, lnc)?;
    let options = ReduceOptions { lnc, code, keep_names, max_input_bytes: None };
    let reduced = py.allow_threads(|| reducing::reduce(&set, &options, &mut |_| {}));
    match reduced {
        Ok(reduced) => Ok(PyBytes::new(py, &reduced.contents)),
        Err(error @ (ReduceError::NotFailing(_) | ReduceError::Input(_) | ReduceError::TooLarge { .. })) => {
            Err(PyValueError::new_err(error.to_string()))
        }
    }
}

/// A link that carries the link set (the page's Share, byte for byte).
#[pyfunction]
#[pyo3(signature = (paths, *, base=None, view=None, lnc=None))]
fn share(paths: Vec<PathBuf>, base: Option<String>, view: Option<String>, lnc: Option<u64>) -> PyResult<String> {
    let view = match view {
        Some(name) => Some(
            View::parse(&name)
                .ok_or_else(|| PyValueError::new_err(format!("no view `{name}`: one of {}", View::names())))?,
        ),
        None => None,
    };
    let set = link_set(&paths, lnc)?;
    let state = ViewState { view, ..ViewState::default() };
    let link = sharing::link(base.as_deref().unwrap_or("http://127.0.0.1:8080/"), &state, Some(&set));
    if link.len() > sharing::LINK_BUDGET {
        return Err(PyValueError::new_err(format!(
            "the link would be {} characters, above the budget of {}: share a bundle (`birlink.reduce`, or the page's download) instead",
            link.len(),
            sharing::LINK_BUDGET
        )));
    }
    Ok(link)
}

/// The files of `paths` named as the browser names them (`[(name, bytes)]`), for the
/// notebook view.
#[pyfunction]
fn gather<'py>(py: Python<'py>, paths: Vec<PathBuf>) -> PyResult<Vec<(String, Bound<'py, PyBytes>)>> {
    existing(&paths)?;
    let files = birlink_cli::files::gather_as_browser(&paths).map_err(PyValueError::new_err)?;
    Ok(files.into_iter().map(|(name, bytes)| (name, PyBytes::new(py, &bytes))).collect())
}

/// The `birlink` command line, in-process: its exit status.
#[pyfunction]
fn cli(py: Python<'_>, argv: Vec<String>) -> u8 {
    py.allow_threads(|| birlink_cli::run(argv))
}

/// One of the inspector's files built into this module (`app.js`, `worker_bg.wasm`, …),
/// for the notebook view; `None` when it is not one (or the module has no web app).
#[pyfunction]
fn web_file<'py>(py: Python<'py>, path: &str) -> Option<Bound<'py, PyBytes>> {
    birlink_cli::web::WebApp::find(None)?.file(path).map(|bytes| PyBytes::new(py, &bytes))
}

/// The module.
#[pymodule]
fn _birlink(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("version", birlink_cli::VERSION)?;
    m.add_class::<Run>()?;
    m.add_function(wrap_pyfunction!(link, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(read_log, m)?)?;
    m.add_function(wrap_pyfunction!(history, m)?)?;
    m.add_function(wrap_pyfunction!(reduce, m)?)?;
    m.add_function(wrap_pyfunction!(share, m)?)?;
    m.add_function(wrap_pyfunction!(cli, m)?)?;
    m.add_function(wrap_pyfunction!(web_file, m)?)?;
    m.add_function(wrap_pyfunction!(gather, m)?)?;
    Ok(())
}
