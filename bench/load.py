"""Load: concurrent gradio_client sessions preview and score text, each with its own custom reward, while a run trains.

Launches the app on 127.0.0.1 (a fresh runs folder), starts a GRPO run on --model, then opens --sessions client
sessions at once. Each checks its own custom reward (compiled in its own sandbox worker), selects it, and calls
"Try on text", "Generate group" (G=2, 8 new tokens) and "Try on text" again; every score is checked to be its own
reward's. Prints p50/p95 per endpoint, the training steps made meanwhile, and one JSON line. Loopback only.

    HF_HUB_OFFLINE=1 python bench/load.py                              # the embedded SmolLM2 serves and trains
    HF_HUB_OFFLINE=1 python bench/load.py --sessions 20 --model /path/to/model
"""

import argparse
import json
import os
import sys
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import launched_app, start_run, summary, wait_for_steps  # noqa: E402


ENDPOINTS = ("/check_code", "/try_on_text", "/generate_group")
TEXT = "The answer is 4.\n---\nI think it is 5, but I am not sure.\n---\n4"
PREVIEW = {"num_generations": 2, "max_new_tokens": 8, "seed": 0}
RUN = {"max_steps": 1000, "num_generations": 4, "per_device_train_batch_size": 4, "max_completion_length": 16}


def session_code(i: int) -> str:
    """Session i's own reward: `mine_<i>`, scoring every completion i (so a mix-up between sessions shows)."""
    return f"def mine_{i}(completions, **kwargs):\n    return [{float(i)}] * len(completions)\n"


def run_session(url: str, i: int, start: threading.Barrier) -> list[tuple[str, float]]:
    """One client session's requests, timed; raises when a reply is wrong."""
    from tests.support.queue_client import app_client

    # A slow reply under this load is a latency (measured below), not an error: wait up to 2 minutes for it.
    client = app_client(url)
    code, name = session_code(i), f"mine_{i}"
    timings = []

    def call(api_name: str, *args, **kwargs):
        begin = time.perf_counter()
        out = client.predict(*args, api_name=api_name, code=code, **kwargs)
        timings.append((api_name, (time.perf_counter() - begin) * 1000))
        return out

    try:
        start.wait()
        call("/check_code")
        client.predict(
            json.dumps([{"name": "length"}, {"name": name, "weight": 0.5}]), code=code, api_name="/set_rewards"
        )
        for endpoint in ("/try_on_text", "/generate_group", "/try_on_text"):
            scores, _ = call(endpoint, TEXT) if endpoint == "/try_on_text" else call(endpoint, **PREVIEW)
            got = {row[scores["headers"].index(name)] for row in scores["data"]}
            if got != {float(i)}:
                raise AssertionError(f"session {i} got {got} from {endpoint}, expected its own reward's {float(i)}")
    finally:
        client.close()
    return timings


def drive(url: str, sessions: int) -> tuple[dict[str, list[float]], list[str]]:
    """All sessions at once: latencies (ms) by endpoint, and the errors, one line each."""
    start = threading.Barrier(sessions, timeout=120)
    latencies: dict[str, list[float]] = defaultdict(list)
    errors = []
    with ThreadPoolExecutor(sessions) as pool:
        futures = [pool.submit(run_session, url, i, start) for i in range(sessions)]
        for future in futures:
            try:
                for endpoint, ms in future.result():
                    latencies[endpoint].append(ms)
            except Exception as exc:
                errors.append(f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}")
    return dict(latencies), errors


def latency_table(latencies: dict[str, list[float]]) -> tuple[str, dict[str, dict]]:
    stats = {endpoint: summary(latencies[endpoint]) for endpoint in ENDPOINTS if latencies.get(endpoint)}
    lines = [f"{'endpoint':<18}{'n':>5}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}"]
    for endpoint, row in stats.items():
        lines.append(f"{endpoint:<18}{row['n']:>5}{row['p50_ms']:>10}{row['p95_ms']:>10}{row['max_ms']:>10}")
    return "\n".join(lines), stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="embedded", help="the model that serves previews and trains meanwhile")
    parser.add_argument("--sessions", type=int, default=20, help="concurrent client sessions (default: 20)")
    args = parser.parse_args()

    from tests.support.queue_client import app_client

    with launched_app(args.model) as (url, ctx):
        client = app_client(url)
        start_run(client, RUN)
        client.close()
        job = ctx.jobs.current
        wait_for_steps(job, 1, timeout=600)
        steps_before, began = job.step, time.perf_counter()
        latencies, errors = drive(url, args.sessions)
        seconds, steps = time.perf_counter() - began, job.step - steps_before

    table, stats = latency_table(latencies)
    print(table)
    print(f"{args.sessions} sessions in {seconds:.1f} s; training made {steps} steps meanwhile; {len(errors)} errors")
    for error in errors:
        print("  " + error)
    result = {
        "bench": "load",
        "model": args.model,
        "sessions": args.sessions,
        "cpus": os.cpu_count(),
        "seconds": round(seconds, 1),
        "training_steps_meanwhile": steps,
        "errors": len(errors),
        "latency": stats,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
