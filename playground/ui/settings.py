"""Launch settings of the web app: command-line flags, then environment variables, then Space defaults."""

import argparse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from playground.settings import Settings, current
from playground.texts import msg


DEFAULT_HOST = "127.0.0.1"
SPACE_HOST = "0.0.0.0"  # a Hugging Face Space routes to 0.0.0.0:7860
DEFAULT_PORT = 7860


@dataclass
class UISettings:
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    share: bool = False
    auth: tuple[str, str] | None = None
    model: str = "embedded"  # the default model of the Preview and Train tabs
    runs: str | None = None  # runs folder; None means $PLAYGROUND_RUNS or ./runs
    mcp: bool = False


def _auth(value: str) -> tuple[str, str]:
    user, sep, password = value.partition(":")
    if not sep or not user or not password:
        raise argparse.ArgumentTypeError(msg("cli.auth"))
    return user, password


def build_parser(prog: str = "app.py") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description="GRPO Reward Playground web app.")
    p.add_argument("--host", help=f"address to listen on (default: $GRADIO_SERVER_NAME, else {DEFAULT_HOST})")
    p.add_argument("--port", type=int, help=f"port (default: $GRADIO_SERVER_PORT, else {DEFAULT_PORT})")
    p.add_argument("--share", action="store_true", help="also open a public gradio.live link")
    p.add_argument("--auth", type=_auth, metavar="USER:PASSWORD", help="ask for this login")
    p.add_argument("--model", default="embedded", help="default model: 'embedded', a Hub id or a local folder")
    p.add_argument("--runs", help="runs folder (default: $PLAYGROUND_RUNS, else ./runs)")
    p.add_argument("--mcp", action="store_true", help="also serve the app as an MCP server (needs gradio[mcp])")
    return p


def parse_settings(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None, prog: str = "app.py"
) -> UISettings:
    """Flags win over GRADIO_SERVER_NAME / GRADIO_SERVER_PORT, which win over the Space defaults (SPACE_ID set).
    `environ` stands for the process's settings (`playground.settings.current()`)."""
    args = build_parser(prog).parse_args(argv)
    settings = current() if environ is None else Settings.from_env(environ)
    host = args.host or settings.server_name or (SPACE_HOST if settings.space_id else DEFAULT_HOST)
    port = args.port or settings.server_port or DEFAULT_PORT
    return UISettings(
        host=host, port=port, share=args.share, auth=args.auth, model=args.model, runs=args.runs, mcp=args.mcp
    )
