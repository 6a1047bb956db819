"""The inspector in a notebook cell (``birlink.show``), as an anywidget widget.

The cell's front end writes birlink's page into a ``srcdoc`` frame from the web app's
files, which travel with the widget (built into the wheel: no server, no network), and
hands it the link set by birlink's own message protocol (``load``): the same page,
worker and bytes as the browser inspector. The frame reports its height and verdict.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional

try:
    import anywidget
    import traitlets
except ImportError as missing:  # pragma: no cover - said to the user
    raise ImportError(
        "birlink.show needs anywidget: pip install 'birlink[notebook]'"
    ) from missing

from . import _birlink

#: The web app's files the frame needs.
ASSETS = ["app.js", "app_bg.wasm", "worker.js", "worker_bg.wasm", "style.css"]


def _assets() -> Dict[str, bytes]:
    found = {name: _birlink.web_file(name) for name in ASSETS}
    missing = [name for name, data in found.items() if data is None]
    if missing:
        raise RuntimeError(
            "this birlink was built without the web app (missing "
            + ", ".join(missing)
            + "): install a release wheel (pip install birlink), or build one with `cargo xtask dist`"
        )
    return {name: bytes(data) for name, data in found.items()}


class Inspector(anywidget.AnyWidget):
    """birlink's inspector on one link set."""

    _esm = Path(__file__).with_name("widget.js")
    #: The web app's files, by name.
    assets = traitlets.Dict().tag(sync=True)
    #: The link set: ``[{"name", "data"}]``.
    files = traitlets.List().tag(sync=True)
    #: The LNC, if set.
    lnc = traitlets.Int(allow_none=True, default_value=None).tag(sync=True)
    #: The view it opens on.
    view = traitlets.Unicode(allow_none=True, default_value=None).tag(sync=True)
    #: The frame's height in pixels (0: the content's own).
    height = traitlets.Int(640).tag(sync=True)
    #: The verdict once linked (the page's ``linked`` message), for the notebook to read.
    verdict = traitlets.Dict().tag(sync=True)

    @classmethod
    def of(cls, paths: List[str], *, view: Optional[str], height: int, lnc: Optional[int]) -> "Inspector":
        """A widget showing the files of ``paths`` (named as the browser names them)."""
        files = [{"name": name, "data": bytes(data)} for name, data in _birlink.gather(paths)]
        return cls(assets=_assets(), files=files, lnc=lnc, view=view, height=height)
