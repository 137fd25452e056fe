"""Start the web app: read the settings, build the page, launch it (`grpo-playground app`, `python app.py`)."""

import logging
import sys

import playground
from playground.errors import PlaygroundError
from playground.ui.settings import parse_settings


def main(argv: list[str] | None = None, prog: str = "app.py") -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        playground.bootstrap()
    except PlaygroundError as exc:  # a bad setting: one line, before anything starts
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    settings = parse_settings(argv, prog=prog)  # before the UI's imports: `--help` and a bad flag answer at once
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.mcp_server import keep_only_mcp_tools

    kwargs = launch_kwargs(settings)  # fails fast on an impossible flag, before the UI is built
    demo = build_app(settings)
    demo.launch(prevent_thread_lock=True, **kwargs)
    keep_only_mcp_tools(demo)  # the MCP server offers only the stateless tools (playground/ui/mcp_server.py)
    demo.block_thread()
