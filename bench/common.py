"""What the bench scripts share: the CPU's name, latency percentiles, a free port, the app on it (in this process, or
`python app.py` in a process of its own), and a run started on it."""

from __future__ import annotations

import contextlib
import os
import platform
import socket
import statistics
import subprocess
import sys
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


@contextlib.contextmanager
def app_process(model: str, runs: str, env: dict[str, str] | None = None, log: str | None = None):
    """`python app.py` on a free port of 127.0.0.1 in a process group of its own, as a Space runs it (nothing of the
    caller's process shares its interpreter); yields its URL once GET /config answers. `env` is its whole environment
    (default: this process's); its output goes to `log` (default: discarded). On the way out the group is killed."""
    import httpx

    from playground.training.launcher import kill_tree
    from tests.support.queue_client import VERIFY  # plain HTTP to 127.0.0.1: no certificate to check

    port = free_port()
    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, "app.py", "--host", "127.0.0.1", "--port", str(port), "--model", model, "--runs", runs]
    with open(log or os.devnull, "wb") as out:
        app = subprocess.Popen(
            command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(url + "config", timeout=5, verify=VERIFY).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if app.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"app.py did not start (exit code {app.poll()}); its output: {log}")
            time.sleep(0.5)
        yield url
    finally:
        kill_tree(app.pid)
        app.wait(30)


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


def best(fn, repeat=5) -> float:
    """The fastest of `repeat` timed calls of `fn`, after one untimed call."""
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)
