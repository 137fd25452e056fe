"""A real launched app (HTTP on 127.0.0.1, a free port), for the client and browser tests."""

import contextlib
import socket
from dataclasses import dataclass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class LiveApp:
    url: str
    ctx: object  # playground.ui.context.AppContext


@contextlib.contextmanager
def running_app(model: str, runs: str):
    """Build and launch the app; on the way out, stop a run left going and close the server."""
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    settings = UISettings(host="127.0.0.1", port=free_port(), model=model, runs=runs)
    ctx = AppContext.create(settings)
    demo = build_app(settings, ctx=ctx)
    _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
    try:
        yield LiveApp(url=url, ctx=ctx)
    finally:
        job = ctx.jobs.current
        if job is not None and job.active:
            job.stop()
            job.join(120)
        demo.close()
