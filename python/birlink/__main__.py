"""``python -m birlink``: the same as the ``birlink`` command."""

from ._cli import main

main()
