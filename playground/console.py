"""The `grpo-playground` command (and `python -m playground`): `app` starts the web app, everything else is the CLI.

The web app is dispatched here, above both, because the UI imports the CLI's helpers and not the other way round.
"""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Sequence


APP = "app"  # the one command dispatched above the CLI's parser


def run(args: Sequence[str]) -> int:
    """Run one command (`app ...` or a CLI command) and return its exit code."""
    args = list(args)
    if args[:1] == [APP]:
        from playground.ui.launch import main as app_main

        app_main(args[1:], prog=f"grpo-playground {APP}")
        return 0
    from playground.cli.main import main as cli_main

    return cli_main(args)


def main(argv: Sequence[str] | None = None) -> None:
    code = run(sys.argv[1:] if argv is None else argv)
    # After training in a background thread, C++ static destructors at interpreter exit can abort the process
    # ("terminate called without an active exception") although all work is done and saved. Run Python's exit
    # handlers, flush, and leave without them, so the exit code is the command's.
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
