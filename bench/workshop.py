"""Workshop load test: N simulated visitors (gradio_client, 127.0.0.1 only) against one public-mode app.

The app runs as its own process (`app.py`, public mode, a tiny random model); the visitors arrive over `--arrival`
seconds, as a class opening the page (the page load's event issues each its browser token, so its Try on text calls
score in a worker of that token). Each scores text three times (Try on text), previews a group, queues a one-step
training run, waits for it to start and end, then tries to open every other visitor's run. It prints the errors,
Try on text latency (median, p95), preview latency, queue waits, and how many times a visitor saw another's run
content (target 0).

    HF_HUB_OFFLINE=1 python bench/workshop.py --visitors 30 --arrival 30

Everything runs on this machine (the app, its training runs and the visitors): figures from a shared or loaded
machine are slower than on an idle Space, and the printout says which CPU and load they came from.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import app_process, cpu_name, start_run  # noqa: E402
from tests.support.queue_client import issue_token  # noqa: E402
from tests.support.tiny_models import save_tiny_model  # noqa: E402


LENGTH_5 = json.dumps([{"name": "length", "weight": 1.0, "params": {"ideal_length": 5}}])
TEXT = "abcde\n---\nabcdefghij\n---\nabc"
RUN = {"max_steps": 1, "num_generations": 4, "per_device_train_batch_size": 4, "max_completion_length": 8}
NOT_YOURS = "belongs to another visitor"
POLL_SECONDS = 3.0  # a visitor looks at the run list this often while it waits (the app serves one event at a time)
OTHERS = 5  # other visitors' runs each visitor tries to open at the end


@contextlib.contextmanager
def public_app(model: str, folder: str, visitors: int):
    """`python app.py` in public mode on a free port of 127.0.0.1, in its own process; yields its URL."""
    env = {**os.environ, "PLAYGROUND_PUBLIC": "1", "PLAYGROUND_MAX_QUEUED": str(visitors), "HF_HUB_OFFLINE": "1"}
    # Every simulated visitor comes from 127.0.0.1, as a class behind one campus address would.
    env["PLAYGROUND_MAX_QUEUED_PER_ADDRESS"] = str(visitors)
    runs, log = os.path.join(folder, "runs"), os.path.join(folder, "app.log")
    with app_process(model, runs, env, log) as url:
        yield url


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)] if values else float("nan")


class Visitor:
    def __init__(self, url: str, index: int, stats: dict, lock: threading.Lock, deadline: float, delay: float):
        self.url, self.index, self.stats, self.lock, self.deadline = url, index, stats, lock, deadline
        self.delay = delay

    def record(self, key: str, value) -> None:
        with self.lock:
            self.stats.setdefault(key, []).append(value)

    def own_runs(self, c) -> dict[str, dict]:
        frame, _, _ = c.predict(None, api_name="/list_runs")
        rows = [dict(zip(frame["headers"], row, strict=True)) for row in frame["data"]]
        return {row["run"]: row for row in rows}

    def __call__(self) -> None:
        from tests.support.queue_client import app_client

        time.sleep(self.delay)
        try:
            c = app_client(self.url)
            issue_token(self.url, c.session_hash)  # what the page load does: the browser's token, in its session
            c.predict(LENGTH_5, api_name="/set_rewards")
            for _ in range(3):
                start = time.perf_counter()
                scores, _ = c.predict(TEXT, api_name="/try_on_text")
                self.record("try", time.perf_counter() - start)
                column = scores["headers"].index("length(ideal_length=5)")
                assert [row[column] for row in scores["data"]] == [0.0, -5.0, -2.0], scores["data"]
            start = time.perf_counter()
            c.predict(num_generations=4, max_new_tokens=8, seed=self.index, api_name="/generate_group")
            self.record("preview", time.perf_counter() - start)
            queued_at = time.perf_counter()
            start_run(c, RUN)
            mine = None
            while time.monotonic() < self.deadline:  # until this visitor's run (its content readable) has ended
                rows = self.own_runs(c)
                readable = [r for r in rows.values() if r["rewards"]]
                if readable and mine is None:
                    mine = readable[0]["run"]
                    self.record("wait", time.perf_counter() - queued_at)
                if mine and rows.get(mine, {}).get("status") in ("finished", "stopped", "failed", "interrupted"):
                    if rows[mine]["status"] != "finished":
                        self.record("errors", f"visitor {self.index}: run {rows[mine]['status']}")
                    break
                time.sleep(POLL_SECONDS)
            else:
                self.record("errors", f"visitor {self.index}: run not done before the deadline")
                return
            self.record("runs", mine)
            for run_id, row in self.own_runs(c).items():  # others' runs: listed without content
                if run_id != mine and (row["rewards"] or row["model"]):
                    self.record("leaks", f"visitor {self.index} saw the content of {run_id} in the list")
            others = [r for r in self.stats.get("runs", []) if r != mine][-OTHERS:]  # runs other visitors own
            for run_id in others:  # never opened by anyone but their owner
                try:
                    c.predict(run_id, api_name="/show_run")
                    self.record("leaks", f"visitor {self.index} opened {run_id}")
                except Exception as exc:  # the expected refusal
                    self.record("refused", run_id)
                    if NOT_YOURS not in str(exc):
                        self.record("errors", f"visitor {self.index}: show_run {run_id}: {exc}")
        except Exception as exc:
            self.record("errors", f"visitor {self.index}: {type(exc).__name__}: {str(exc)[:200]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=30)
    parser.add_argument("--arrival", type=float, default=30, help="seconds over which the visitors arrive")
    parser.add_argument("--timeout", type=float, default=1200, help="seconds for the whole test")
    args = parser.parse_args()
    stats: dict[str, list] = {}
    lock = threading.Lock()
    with tempfile.TemporaryDirectory() as folder:
        model = str(save_tiny_model(Path(folder) / "model"))  # a tiny model: 2 layers, SmolLM2's whole tokenizer
        with public_app(model, folder, args.visitors) as url:
            began = time.perf_counter()
            deadline = time.monotonic() + args.timeout
            visitors = [
                Visitor(url, i, stats, lock, deadline, i * args.arrival / args.visitors) for i in range(args.visitors)
            ]
            with ThreadPoolExecutor(max_workers=args.visitors) as pool:
                for future in [pool.submit(visitor) for visitor in visitors]:
                    future.result()
            total = time.perf_counter() - began
    waits, tries, previews = stats.get("wait", []), stats.get("try", []), stats.get("preview", [])
    load = os.getloadavg()[0]
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores, {platform.system()}, load {load:.1f} at the end")
    print(f"visitors: {args.visitors}; runs finished: {len(stats.get('runs', []))}; total {total:.0f} s")
    print(f"errors: {len(stats.get('errors', []))}")
    for line in stats.get("errors", [])[:10]:
        print("  ", line)
    print(f"Try on text: n={len(tries)} median {statistics.median(tries):.3f} s, p95 {p95(tries):.3f} s")
    print(f"preview (tiny model, G=4): median {statistics.median(previews):.2f} s, p95 {p95(previews):.2f} s")
    if waits:
        print(f"queue wait until the run started: median {statistics.median(waits):.0f} s, max {max(waits):.0f} s")
    refused, leaks = len(stats.get("refused", [])), len(stats.get("leaks", []))
    print(f"others' runs: {refused} attempts to open one refused; another visitor's content seen {leaks} times")
    for line in stats.get("leaks", [])[:10]:
        print("  ", line)


if __name__ == "__main__":
    main()
