"""Latency of "Try on text" over HTTP (gradio_client), with the app idle and while a training run goes.

Launches the real app on 127.0.0.1 (a fresh runs folder), selects four rewards, and times --requests calls of the
/try_on_text endpoint (8 completions) from a client, first idle, then while a GRPO run on --model trains in the same
process. Prints a table and one JSON line. Target: p95 <= 300 ms while training, on 2 CPU cores.

    HF_HUB_OFFLINE=1 python bench/ui_latency.py               # the embedded SmolLM2 trains meanwhile
    HF_HUB_OFFLINE=1 python bench/ui_latency.py --requests 50 --model /path/to/model
"""

import argparse
import json
import os
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

TARGET_P95_MS = 300.0
REWARDS = [
    {"name": "length", "weight": 1.0, "params": {"ideal_length": 50}},
    {"name": "think_format", "weight": 0.5, "params": {}},
    {"name": "keywords", "weight": 0.5, "params": {"include": ["because"]}},
    {"name": "repetition_penalty", "weight": 1.0, "params": {}},
]
COMPLETIONS = "\n---\n".join(
    f"<think>Step {i}: the sky scatters blue light because of Rayleigh scattering.</think> Answer {i}." * (1 + i % 3)
    for i in range(8)
)
RUN = {"max_steps": 1000, "num_generations": 4, "per_device_train_batch_size": 4, "max_completion_length": 32}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(client, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        client.predict(COMPLETIONS, api_name="/try_on_text")
        times.append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float]) -> dict:
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {"n": len(times), "p50_ms": round(cuts[49], 1), "p95_ms": round(cuts[94], 1), "max_ms": round(max(times))}


def start_run(client) -> None:
    """Start a long run through /start_training; its inputs are labelled with the run spec's field names."""
    params = client.view_api(return_format="dict", print_info=False)["named_endpoints"]["/start_training"]
    by_label = {p["label"]: p["parameter_name"] for p in params["parameters"] if isinstance(p["label"], str)}
    kwargs = {p["parameter_name"]: None for p in params["parameters"] if not p["parameter_has_default"]}
    client.predict(**kwargs, **{by_label[k]: v for k, v in RUN.items()}, api_name="/start_training")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded", help="the model that trains meanwhile (default: embedded)")
    parser.add_argument("--requests", type=int, default=100, help="calls per condition (default: 100)")
    args = parser.parse_args()

    from gradio_client import Client

    from playground.ui.app import build_app, launch_kwargs
    from playground.ui.context import AppContext
    from playground.ui.settings import UISettings

    settings = UISettings(host="127.0.0.1", port=free_port(), model=args.model, runs=tempfile.mkdtemp(prefix="bench-"))
    ctx = AppContext.create(settings)
    demo = build_app(settings, ctx=ctx)
    _, url, _ = demo.launch(prevent_thread_lock=True, quiet=True, **launch_kwargs(settings))
    client = Client(url, verbose=False)
    try:
        client.predict(json.dumps(REWARDS), api_name="/set_rewards")
        measure(client, 5)  # warm-up
        idle = summary(measure(client, args.requests))
        start_run(client)
        job = ctx.jobs.current
        while job.active and job.step < 1:  # measure while it generates and trains, not while it loads
            time.sleep(0.5)
        if not job.active:
            raise SystemExit(f"the run ended before the measurement: {job.status} {job.error or ''}")
        busy = summary(measure(client, args.requests))
        steps = job.step
    finally:
        if ctx.jobs.active_job() is not None:
            ctx.jobs.current.stop()
            ctx.jobs.current.join(300)
        demo.close()

    print(f"{'condition':<22}{'n':>5}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for name, row in (("idle", idle), (f"training ({args.model})", busy)):
        print(f"{name[:21]:<22}{row['n']:>5}{row['p50_ms']:>10}{row['p95_ms']:>10}{row['max_ms']:>10}")
    result = {
        "bench": "ui_latency",
        "endpoint": "/try_on_text",
        "completions": COMPLETIONS.count("---") + 1,
        "rewards": len(REWARDS),
        "model": args.model,
        "cpus": os.cpu_count(),
        "idle": idle,
        "training": busy,
        "training_steps_meanwhile": steps,
        "target_p95_ms": TARGET_P95_MS,
        "ok": busy["p95_ms"] <= TARGET_P95_MS,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
