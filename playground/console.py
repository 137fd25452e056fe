"""The `grpo-playground` command (and `python -m playground`): `app` starts the web app, everything else is the CLI.

The web app is dispatched here, above both, because the UI imports the CLI's helpers and not the other way round.
"""

from __future__ import annotations

import atexit
import os
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["app"]:
        from playground.ui.launch import main as app_main

        app_main(args[1:])
        return
    from playground.cli.main import main as cli_main

    code = cli_main(args)
    # After training in a background thread, C++ static destructors at interpreter exit can abort the process
    # ("terminate called without an active exception") although all work is done and saved. Run Python's exit
    # handlers, flush, and leave without them, so the exit code is the command's.
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
