"""A real launched app (HTTP on 127.0.0.1, a free port), for the client and browser tests; and the page built
without a server (`built_app`), for the tests that read its config."""

import contextlib
import socket
from dataclasses import dataclass

import pytest


# The sandbox settings the UI tests run under, whatever the machine's environment says.
SANDBOX_ENV = ("PLAYGROUND_CUSTOM_CODE", "PLAYGROUND_PUBLIC", "SPACE_ID", "PLAYGROUND_SANDBOX_TIMEOUT")
SANDBOX_ENV += ("PLAYGROUND_SANDBOX_MEMORY_MB", "PLAYGROUND_SANDBOX_READ_PATHS", "PLAYGROUND_MAX_FILE_MB")
SANDBOX_ENV += ("FORWARDED_ALLOW_IPS",)  # the app sets it at launch (`trust_proxies`); restored on the way out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def close_demo(demo) -> None:
    """`demo.close()`, once more if Gradio's stop event raised: Gradio sets that asyncio event from the calling thread
    while the server's loop adds and removes its waiters (one per open event stream), which can raise "deque mutated
    during iteration" before the server is closed; the event is set by then, and the second call closes the rest."""
    try:
        demo.close()
    except RuntimeError:
        demo.close()


@contextlib.contextmanager
def launched(demo):
    """A test's own `gr.Blocks` served on 127.0.0.1 (a free port) while the block runs; yields its URL."""
    port = free_port()
    demo.launch(server_name="127.0.0.1", server_port=port, prevent_thread_lock=True, quiet=True)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        close_demo(demo)


@dataclass
class LiveApp:
    url: str
    ctx: object  # playground.ui.context.AppContext
    demo: object = None  # the launched gr.Blocks


def app_env(patch: pytest.MonkeyPatch, env: dict[str, str] | None) -> None:
    """`env` set and the other sandbox settings unset; a client's session ends (and the app's unload handler runs)
    within a second or two of its closing."""
    for name in SANDBOX_ENV:
        patch.delenv(name, raising=False)
    for name, value in {"GRADIO_HEARTBEAT_INTERVAL": "1", **(env or {})}.items():
        patch.setenv(name, value)


def stop_run(ctx) -> None:
    """Stop a run left going."""
    job = ctx.jobs.current
    if job is not None and job.active:
        job.stop()
        job.join(120)


def built_app(runs: str):
    """The page `build_app` makes on the default settings and a runs folder, not launched; its context's sandbox
    workers are closed once it is built."""
    from playground.ui.app import build_app
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    settings = UISettings(runs=runs)
    ctx = AppContext.create(settings)
    try:
        return build_app(settings, ctx=ctx)
    finally:
        ctx.code.close_all()


@contextlib.contextmanager
def running_app(model: str, runs: str, env: dict[str, str] | None = None, env_for_life: bool = True):
    """Build and launch the app with `env` set (and the other sandbox settings unset) while it runs (or only while it
    is built, with `env_for_life=False`); on the way out, stop a run left going, close the sandbox workers and the
    server."""
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    with contextlib.ExitStack() as stack:
        patch = pytest.MonkeyPatch()
        stack.callback(patch.undo)
        app_env(patch, env)
        settings = UISettings(host="127.0.0.1", port=free_port(), model=model, runs=runs)
        ctx = AppContext.create(settings)
        demo = build_app(settings, ctx=ctx)
        _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
        if not env_for_life:
            patch.undo()
        try:
            yield LiveApp(url=url, ctx=ctx, demo=demo)
        finally:
            stop_run(ctx)
            close_demo(demo)
            ctx.code.close_all()


@contextlib.contextmanager
def fresh_module_state(live: LiveApp, runs: str, env: dict[str, str] | None = None):
    """A shared app as a module finds it fresh, with `env` set while the module runs (the caps are read from the
    environment when a request comes): a new runs folder with its own run queue, a new table of uploads and no code
    sessions, and no visitor worker kept from an earlier module; on the way out, a run the module left going is
    stopped."""
    from playground.admission import Caps
    from playground.isolation.visitor import WORKERS
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore
    from playground.ui.context import uploads_table

    ctx = live.ctx
    with pytest.MonkeyPatch.context() as patch:
        if ctx.public:
            app_env(patch, {"PLAYGROUND_PUBLIC": "1", **(env or {})})
        ctx.store = RunStore(runs)
        ctx.jobs = JobManager(ctx.store, public=ctx.public)
        ctx.uploads = uploads_table(Caps.from_env())
        ctx.code.close_all()
        WORKERS.close()
        try:
            yield live
        finally:
            stop_run(ctx)
