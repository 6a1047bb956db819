"""The ``birlink`` command the wheel installs: the Rust command line, in-process."""

import sys

from . import _birlink


def main() -> None:
    """Runs ``birlink`` with this process's arguments and exits with its status."""
    sys.exit(_birlink.cli(["birlink", *sys.argv[1:]]))
