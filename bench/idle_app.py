"""What the app costs while nobody uses it, and what its queue's polling rate costs an event: the app's process CPU
seconds over --seconds with no page open, and the median round trip of a cheap queued event (the Runs tab's list,
called through `gradio_client`), with the app's queue polling (`QUEUE_POLL`) and with Gradio's own rates.

Builds the real app on 127.0.0.1 in this process (the embedded model, a fresh runs folder), once per setting. Prints
one line per setting and a JSON line. CPU seconds depend on the machine's load: run it alone.

    HF_HUB_OFFLINE=1 python bench/idle_app.py
    HF_HUB_OFFLINE=1 python bench/idle_app.py --seconds 30 --calls 40
"""

import argparse
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import cpu_name, free_port  # noqa: E402


GRADIO_POLL = {"sleep_when_free": 0.001, "progress_update_sleep_when_free": 0.01}  # Gradio 6's own rates


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(poll: dict | None, seconds: float, calls: int) -> dict:
    """The idle CPU and the event round trips of a freshly built app; `poll` replaces the app's polling rates."""
    import playground
    from playground.ui.app import QUEUE_POLL, build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings
    from tests.support.queue_client import app_client

    playground.bootstrap()
    settings = UISettings(host="127.0.0.1", port=free_port(), runs=tempfile.mkdtemp(prefix="bench-"))
    ctx = AppContext.create(settings)
    demo = build_app(settings, ctx=ctx)
    for name, value in (poll or {}).items():
        setattr(demo._queue, name, value)
    _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
    try:
        time.sleep(3)  # the launch's own requests are answered
        start = cpu_s()
        time.sleep(seconds)
        idle = cpu_s() - start
        client = app_client(url)
        trips = []
        for _ in range(calls):
            began = time.perf_counter()
            client.predict(None, None, api_name="/list_runs")
            trips.append((time.perf_counter() - began) * 1000)
        client.close()
        rates = {name: getattr(demo._queue, name) for name in QUEUE_POLL}
    finally:
        demo.close()
        ctx.code.close_all()
    p50 = round(statistics.median(trips), 1)
    return {"poll": rates, "idle_cpu_s": round(idle, 3), "idle_s": seconds, "event_p50_ms": p50}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="idle time measured per setting")
    parser.add_argument("--calls", type=int, default=30, help="round trips of the cheap event per setting")
    args = parser.parse_args()
    rows = []
    for label, poll in (("app", None), ("gradio", GRADIO_POLL)):
        row = {"setting": label, **measure(poll, args.seconds, args.calls)}
        rows.append(row)
        print(
            f"{label:7s} polls {row['poll']}: idle {row['idle_cpu_s']:.2f} CPU-s in {args.seconds:.0f} s, "
            f"event round trip p50 {row['event_p50_ms']:.1f} ms",
            flush=True,
        )
    print(json.dumps({"cpu": cpu_name(), "cores": os.cpu_count(), "rows": rows}))


if __name__ == "__main__":
    main()
