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
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import launched_app, start_run, summary, wait_for_steps  # noqa: E402


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


def measure(client, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        client.predict(COMPLETIONS, api_name="/try_on_text")
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded", help="the model that trains meanwhile (default: embedded)")
    parser.add_argument("--requests", type=int, default=100, help="calls per condition (default: 100)")
    args = parser.parse_args()

    from tests.support.queue_client import app_client

    with launched_app(args.model) as (url, ctx):
        client = app_client(url)
        client.predict(json.dumps(REWARDS), api_name="/set_rewards")
        measure(client, 5)  # warm-up
        idle = summary(measure(client, args.requests))
        start_run(client, RUN)
        job = ctx.jobs.current
        wait_for_steps(job, 1, timeout=600)  # measure while it generates and trains, not while it loads
        busy = summary(measure(client, args.requests))
        steps = job.step

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
