"""The ``birlink`` command the wheel installs: the Rust command line, in-process."""

import signal
import sys

from . import _birlink


def main() -> None:
    """Runs ``birlink`` with this process's arguments and exits with its status.

    The command behaves as the native binary does: Ctrl-C ends it (Python's own
    handler only sets a flag, which the Rust code serving ``birlink open`` never
    looks at) and a closed pipe ends it quietly (``birlink show … | head``).
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(_birlink.cli(["birlink", *sys.argv[1:]]))
