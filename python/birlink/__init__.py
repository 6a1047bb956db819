"""birlink: the multi-core link of AWS Neuron BIR modules, reimplemented.

neuronx-cc compiles a program for N logical cores as N BIR modules and links them back
(``bir_linker``, ``vnc_remote_addr_map``, ``vnc_link``). When that fails, birlink says
which pass, on which core, about which entity, and what to do::

    import birlink

    result = birlink.link(["nc00.json", "nc01.json"])
    if not result.ok:
        for d in result.diagnostics:
            print(d.code, d.ncc, d.message, f"{d.file}:{d.line}:{d.column}")
    birlink.show(result)          # the inspector in a notebook cell (``birlink[notebook]``)

Everything runs in this process, on this machine: the same Rust library as the
``birlink`` command and the browser inspector, with the same bytes out.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _birlink

__all__ = [
    "Diagnostic",
    "LinkResult",
    "__version__",
    "check",
    "diff",
    "explain",
    "history",
    "link",
    "read_log",
    "reduce",
    "share",
    "show",
]

__version__: str = _birlink.__version__

#: A path, or several.
Paths = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]


def _paths(paths: Paths) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    listed = [os.fspath(p) for p in paths]
    if not listed:
        raise ValueError("no input: give per-core module files, bundles or folders")
    return listed


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic of a link, as ``report.json`` has it."""

    #: birlink's code (``"1514"``, ``"BL0002"``).
    code: str
    #: The compiler's code for the same failure (``"NCC_ILLC059"``), if it has one.
    ncc: Optional[str]
    #: ``"error"``, ``"warning"`` or ``"note"``.
    severity: str
    #: The pass that reported it (``"vnc_remote_addr_map"``).
    pass_name: str
    #: What is wrong, where and why.
    message: str
    #: The core concerned, if one is.
    core: Optional[int]
    #: The input file it points into, with its line, column and JSON pointer.
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    pointer: Optional[str]
    #: What to do about it.
    help: str
    #: Names close to one that was not found.
    nearest: List[str]


class LinkResult:
    """What a link produced. A failing link is a result, not an exception: see
    :attr:`ok`, :attr:`failed_pass` and :attr:`diagnostics`."""

    def __init__(self, run: Any, paths: List[str], lnc: Optional[int]) -> None:
        self._run = run
        self._report: Optional[Dict[str, Any]] = None
        #: The inputs it was linked from (what :func:`show` opens).
        self.paths = paths
        #: The LNC it was asked for, if any.
        self.lnc = lnc

    @property
    def ok(self) -> bool:
        """Whether every pass ran clean (no error diagnostic)."""
        return bool(self._run.ok)

    @property
    def failed_pass(self) -> Optional[str]:
        """The pass that failed (``"vnc_remote_addr_map"``), if one did."""
        return self._run.failed_pass

    @property
    def diagnostics(self) -> List[Diagnostic]:
        """Every diagnostic, in report order."""
        return [
            Diagnostic(
                code=d["code"],
                ncc=d["ncc"],
                severity=d["severity"],
                pass_name=d["pass"],
                message=d["message"],
                core=d["core"],
                file=d["file"],
                line=d["line"],
                column=d["column"],
                pointer=d["pointer"],
                help=d["help"],
                nearest=list(d["nearest"]),
            )
            for d in self._run.diagnostics()
        ]

    @property
    def report(self) -> Dict[str, Any]:
        """``report.json``, as a dict."""
        if self._report is None:
            self._report = json.loads(self._run.report_json())
        return self._report

    def report_json(self) -> str:
        """``report.json``'s text, byte for byte the CLI's."""
        return str(self._run.report_json())

    def tensor_map_json(self) -> Optional[str]:
        """A work directory's merged ``tensor-map.json`` in the seeds' reading (``None`` when no
        core had a tensor map, or in the compiler's flows: see :meth:`tensor_maps`)."""
        return self._run.tensor_map_json()

    def tensor_maps(self) -> Dict[str, str]:
        """Every merged tensor map the link writes, by the name ``birlink link`` gives it in
        its output folder: ``tensor-map.json`` (the seeds' reading), or one
        ``tensor_map.ncCC.json`` per core (the modular flow: what the link directory holds as
        ``ncCC/sgLnk/sg00/tensor_map.json``)."""
        return dict(self._run.tensor_maps())

    @property
    def flow(self) -> str:
        """How it was linked: ``"modular"``, ``"flat"`` (the compiler's flows) or ``"seeds"``
        (the seeds' reading, only when asked)."""
        return str(self._run.flow)

    def linked_json(self) -> Optional[bytes]:
        """``linked.json``, byte for byte the CLI's: a bundle of the per-core modules in the
        compiler's flows, one module in the seeds' reading; ``None`` when a pass before the
        VNC passes failed."""
        return self._run.linked_json()

    def bir_linker_log(self) -> Optional[str]:
        """``bir_linker.log``, byte for byte the CLI's: bir_linker's own log in the compiler's
        words, every core's block then the VNC passes' lines (``None`` in the seeds' reading)."""
        return self._run.bir_linker_log()

    def text(self) -> Optional[str]:
        """The linked set's canonical text (``birlink link --text``), if there is one."""
        return self._run.text()

    def sync(self) -> Dict[str, Any]:
        """``report.sync``, as a dict: will the linked cores hang or race? The verdict of
        birlink's execution (``execution.verdict``: ``completes``, ``deadlock`` or
        ``stopped``; ``exact``, or ``not_exact`` says why it holds for this schedule only),
        the stuck state, the lanes and the findings (BL0701–BL0713), or ``status:
        "skipped"`` and ``why`` (docs/spec/sync.md §8). birlink's own check, not a compiler
        pass: its model of BIR's execution is birlink's reading."""
        return json.loads(self._run.sync_json())

    def sync_json(self) -> str:
        """``report.sync``'s JSON, byte for byte the CLI's and the page's."""
        return str(self._run.sync_json())

    def __str__(self) -> str:
        return str(self._run.rendered())

    def __repr__(self) -> str:
        if self.ok:
            return f"<birlink.LinkResult linked, {len(self.diagnostics)} diagnostics>"
        return f"<birlink.LinkResult failed in {self.failed_pass}: {len(self.diagnostics)} diagnostics>"

    def _repr_markdown_(self) -> str:
        lines = [f"**birlink**: {'linked' if self.ok else f'failed in `{self.failed_pass}`'}"]
        for d in self.diagnostics[:10]:
            ncc = f" ({d.ncc})" if d.ncc else ""
            lines.append(f"- {d.severity} **{d.code}**{ncc}: {d.message}")
        return "\n".join(lines)


def link(
    paths: Paths,
    *,
    lnc: Optional[int] = None,
    netlist: Optional[Union[str, "os.PathLike[str]"]] = None,
    passes: Optional[Union[str, Sequence[str]]] = None,
    after: Optional[str] = None,
    flow: Optional[str] = None,
    sync: bool = True,
    deny_sync: bool = False,
) -> LinkResult:
    """Links per-core module files, bundles or folders, as ``birlink link`` does.

    ``sync`` runs the sync check after the link (``LinkResult.sync()``: will the cores
    hang or race?), as ``birlink link`` does unless ``--no-sync``; ``deny_sync`` makes its
    warnings errors (``--deny sync``).

    ``flow`` is how to link: ``"modular"`` (each core's subgraphs through the netlist, then
    the VNC passes across the cores), ``"flat"`` (no bir_linker), or ``"seeds"`` (the seeds'
    reading: the cores merged into one module); default: decided as the compiler decides.

    ``lnc`` is the expected number of cores (default: the bundle's, the netlist's, or the
    number of modules); ``passes`` a contiguous run of ``verify``, ``bir_linker``,
    ``vnc_remote_addr_map``, ``vnc_link`` (a list, or a comma-separated string). A
    compiler work directory (``nc00/sg00/bir_debug.*after-*.json``…) links each core's
    dump after ``after`` (default: ``lower_sync``, else the latest dumped), the rest of
    it set aside. A missing input raises :class:`FileNotFoundError`, a bad argument
    :class:`ValueError`.
    """
    listed = _paths(paths)
    if isinstance(passes, str):
        passes = [p.strip() for p in passes.split(",") if p.strip()]
    run = _birlink.link(
        listed,
        lnc=lnc,
        netlist=os.fspath(netlist) if netlist is not None else None,
        passes=list(passes) if passes is not None else None,
        after=after,
        flow=flow,
        sync=sync,
        deny_sync=deny_sync,
    )
    return LinkResult(run, listed, lnc)


def check(
    paths: Paths, *, lnc: Optional[int] = None, flow: Optional[str] = None, deny_sync: bool = False
) -> LinkResult:
    """The sync check alone, as ``birlink check`` runs it: over a set that is already
    linked (``linked.json``, the compiler's per-core dumps after ``vnc_link``), with no
    pass run and remote ids taken as they are. Its result's :meth:`LinkResult.sync` is
    the check; ``ok`` is false only when ``deny_sync`` made a warning an error."""
    listed = _paths(paths)
    return LinkResult(_birlink.check(listed, lnc=lnc, flow=flow, deny_sync=deny_sync), listed, lnc)


def diff(
    paths: Paths,
    against: Paths,
    *,
    lnc: Optional[int] = None,
    against_lnc: Optional[int] = None,
    core_map: Optional[Dict[int, int]] = None,
    normalize: Optional[str] = None,
) -> Dict[str, Any]:
    """Compares two link sets, each linked, as ``birlink diff A --against B`` does: the
    comparison as a dict (``equal``, ``sides``, ``diagnostics``, ``cores``, ``entities``,
    ``barriers``, ``first_divergence``, …; its schema is docs/spec/compare.md).

    ``core_map`` pairs A's cores with B's (``{0: 1}``); ``normalize="numbers"`` compares
    names with their digits masked.
    """
    text = _birlink.diff(
        _paths(paths),
        _paths(against),
        lnc=lnc,
        against_lnc=against_lnc,
        core_map=sorted(core_map.items()) if core_map else None,
        normalize=normalize,
    )
    return json.loads(text)


def explain(code: str) -> str:
    """What a code means and what to do: birlink's (``"1514"``) or the compiler's
    (``"NCC_ILLC059"``), as ``birlink explain`` prints it."""
    return str(_birlink.explain(code))


def read_log(
    log: Union[str, bytes, "os.PathLike[str]"], dumps: Optional[Paths] = None, *, lnc: Optional[int] = None
) -> Dict[str, Any]:
    """A whole ``log-neuron-cc.txt`` read: the compiler version, LNC and flow, the modules
    loaded, every backend pass with its scope and status in order, each core's
    ``BirLinker`` block, the VNC lines, the failure (pass, scope, assertion, code,
    message, names) and the closing status, for each compile in the file (``runs``) —
    what ``birlink explain --log LOG --format json`` prints (``docs/spec/log.md``).

    ``log`` is a path (a :class:`os.PathLike`, or a ``str`` naming a file), or the
    log's text (``str`` with a line break, or ``bytes``). With ``dumps`` (files or
    folders, a work directory), the log is held beside birlink's run of them: the
    result has a ``beside`` member, each core's ``BirLinker`` block against birlink's
    ``bir_linker.log`` and the failure against its diagnostics, as ``birlink explain
    --log LOG DUMPS... --format json`` prints it."""
    if isinstance(log, bytes):
        data = log
    elif isinstance(log, os.PathLike) or ("\n" not in log and os.path.isfile(log)):
        with open(os.fspath(log), "rb") as f:
            data = f.read()
    else:
        data = log.encode()
    paths = _paths(dumps) if dumps is not None else None
    return json.loads(_birlink.read_log(data, paths, lnc))


def history(
    workdir: Union[str, "os.PathLike[str]"],
    *,
    entity: Optional[str] = None,
    core: Optional[int] = None,
    subgraph: Optional[int] = None,
    log: Optional[Union[str, "os.PathLike[str]"]] = None,
    threads: int = 1,
    table: bool = True,
) -> Dict[str, Any]:
    """Where did the cores part? A compiler work directory printed after every pass
    (``--internal-print-after=…``), read one dump at a time: each pass in the order it ran
    with what it changed per module (``passes``), what differs between a subgraph's
    cores in its first dump (``baseline``), each pass after which they part anew
    (``parted``) and, with ``entity``, that name through every pass on every core — what
    ``birlink history WORKDIR --format json`` prints (``docs/spec/history.md``).
    ``threads=2`` reads two dumps at once: faster, and holds two. ``table=False`` (with
    ``entity``) follows the entity alone, with no pass table (``--no-table``: each dump
    read for the instructions that may carry the name; the same ``entity``)."""
    text = _birlink.history(
        os.fspath(workdir), entity, core, subgraph, os.fspath(log) if log is not None else None, threads, table
    )
    return json.loads(text)


def reduce(paths: Paths, *, code: Optional[str] = None, keep_names: bool = False, lnc: Optional[int] = None) -> bytes:
    """The smallest link set that fails the same way (the first error, or ``code``), as
    the bytes of a bundle file: what ``birlink reduce`` writes. Raises
    :class:`ValueError` when the set does not fail (or does not report ``code``)."""
    return bytes(_birlink.reduce(_paths(paths), code=code, keep_names=keep_names, lnc=lnc))


def share(paths: Paths, *, base: Optional[str] = None, view: Optional[str] = None, lnc: Optional[int] = None) -> str:
    """A link that carries the link set in its fragment, the same as ``birlink share``
    and the page's Share; ``base`` is where birlink is served."""
    return str(_birlink.share(_paths(paths), base=base, view=view, lnc=lnc))


def show(paths_or_result: Union[Paths, LinkResult], *, view: Optional[str] = None, height: int = 640) -> Any:
    """The inspector in a notebook cell: the link set linked in the cell's own page,
    offline, with no server (an ``anywidget`` widget, driven by birlink's message
    protocol). Needs ``pip install 'birlink[notebook]'``."""
    from .widget import Inspector

    if isinstance(paths_or_result, LinkResult):
        listed, lnc = paths_or_result.paths, paths_or_result.lnc
    else:
        listed, lnc = _paths(paths_or_result), None
    return Inspector.of(listed, view=view, height=height, lnc=lnc)
