"""What the bench scripts share: the CPU's name, latency percentiles, a free port, the app on it, and a run started
on it."""

from __future__ import annotations

import contextlib
import platform
import socket
import statistics
import tempfile
import time
from pathlib import Path


def cpu_name() -> str:
    """The CPU's model name (from /proc/cpuinfo), for the machine line of a figure."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def summary(times: list[float]) -> dict:
    """Count, median, 95th percentile and maximum of latencies in milliseconds."""
    cuts = statistics.quantiles(times, n=100, method="inclusive") if len(times) > 1 else [times[0]] * 99
    return {"n": len(times), "p50_ms": round(cuts[49], 1), "p95_ms": round(cuts[94], 1), "max_ms": round(max(times))}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def launched_app(model: str):
    """The real app on 127.0.0.1 with a fresh runs folder; yields `(url, ctx)`.

    On the way out it stops a run left going, closes the server and the sandbox workers.
    """
    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    settings = UISettings(host="127.0.0.1", port=free_port(), model=model, runs=tempfile.mkdtemp(prefix="bench-"))
    ctx = AppContext.create(settings)
    demo = build_app(settings, ctx=ctx)
    _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
    try:
        yield url, ctx
    finally:
        if ctx.jobs.active_job() is not None:
            ctx.jobs.current.stop()
            ctx.jobs.current.join(300)
        demo.close()
        ctx.code.close_all()


def start_run(client, fields: dict) -> None:
    """Start a run through /start_training; its inputs are labelled with the run spec's field names."""
    params = client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/start_training"]
    by_label = {p["label"]: p["parameter_name"] for p in params["parameters"] if isinstance(p["label"], str)}
    kwargs = {p["parameter_name"]: None for p in params["parameters"] if not p["parameter_has_default"]}
    client.predict(**kwargs, **{by_label[k]: v for k, v in fields.items()}, api_name="/start_training")


def wait_for_steps(job, steps: int, timeout: float) -> None:
    """Until the run has logged `steps` steps (so a measurement meets a run that generates and trains, not one
    loading)."""
    deadline = time.monotonic() + timeout
    while job.active and job.step < steps and time.monotonic() < deadline:
        time.sleep(0.2)
    if not job.active or job.step < steps:
        raise RuntimeError(f"the run is {job.status} at step {job.step}: {job.error or 'too slow to start'}")
