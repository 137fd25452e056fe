"""Soak test: N simulated visitors for M minutes against one public-mode app, watching its memory and disk.

The app runs as its own process (`app.py`, public mode, a tiny random model, a short retention:
`PLAYGROUND_RUN_RETENTION_HOURS`, 36 s by default here). Each visitor (gradio_client on 127.0.0.1, its page's token)
loops until the time is up: Try on text, an upload, a judge call without a token (`/gradio_api/run/score_completions`;
the judge on the embedded SmolLM2-135M, the model such a call may name; from a 127.0.0.x of its own, so each address
has its share of the shared workers) and a one-step run on the tiny model, waited for. Every few seconds the bench
samples the app's resident memory with its children (visitor workers, training runs) and the runs folder's size.
Refusals are counted by the setting they name, errors by the call that met them.

At the end it waits for the last runs to expire, then Starts one more run (a Start deletes expired runs first) and
waits for it to end: every run but that one should be gone. It prints one JSON line: peak RSS, peak disk, calls,
refusals and errors by kind, and the runs left on disk.

    HF_HUB_OFFLINE=1 python bench/soak.py --visitors 30 --minutes 10

Everything runs on this machine (the app, its runs and the visitors): figures from a shared or loaded machine are
slower than on an idle Space, and the JSON line says which CPU and load they came from.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import app_process, cpu_name, start_run  # noqa: E402
from bench.workshop import LENGTH_5, RUN, TEXT  # noqa: E402
from tests.support.queue_client import issue_token, run_call  # noqa: E402
from tests.support.tiny_models import save_tiny_model  # noqa: E402


SAMPLE_SECONDS = 2.0  # how often the app's memory and the runs folder are measured
POLL_SECONDS = 3.0  # how often a visitor looks at its run while it waits
RUN_WAIT_SECONDS = 600.0  # the longest a visitor waits for its one-step run (queued behind the others')
ENDED = ("finished", "stopped", "failed", "interrupted")
SETTING = re.compile(r"PLAYGROUND_[A-Z_]+")


def tree_rss(pid: int) -> int:
    """Resident bytes of `pid` and every process below it (from /proc)."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    page = os.sysconf("SC_PAGE_SIZE")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/statm") as handle:
                rss[int(entry)] = int(handle.read().split()[1]) * page
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(parent, []).append(int(entry))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += rss.get(current, 0)
        todo += children.get(current, [])
    return total


def folder_bytes(path: Path) -> int:
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                continue
    return total


def app_pid(port: int) -> int:
    """The process listening on `port` (the app: `app_process` starts it with `--port`)."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                command = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"app.py" in command and str(port).encode() in command:
                return int(entry)
    raise RuntimeError(f"no app.py on port {port}")


class Sampler:
    """The peaks of the app's RSS (with children) and of the runs folder's size, every `SAMPLE_SECONDS`."""

    def __init__(self, pid: int, runs: Path):
        self.pid, self.runs, self.peak_rss, self.peak_disk = pid, runs, 0, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while True:
            self.peak_rss = max(self.peak_rss, tree_rss(self.pid))
            self.peak_disk = max(self.peak_disk, folder_bytes(self.runs))
            if self._stop.wait(SAMPLE_SECONDS):
                return

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


class Tally:
    def __init__(self):
        self.lock, self.calls, self.refusals, self.errors = threading.Lock(), Counter(), Counter(), Counter()
        self.first: dict[str, str] = {}  # each kind's first error

    def error(self, kind: str, text: str) -> None:
        self.errors[kind] += 1
        self.first.setdefault(kind, text)

    def attempt(self, kind: str, call) -> bool:
        """Run `call`; count it, and a refusal by the setting it names (else record the error)."""
        with self.lock:
            self.calls[kind] += 1
        try:
            call()
            return True
        except Exception as exc:
            text = str(exc)
            named = SETTING.search(text)
            with self.lock:
                if named or type(exc).__name__ == "AppError":  # the app's own message: a refusal
                    self.refusals[f"{kind}: {named.group(0) if named else text[:70]}"] += 1
                else:
                    self.error(kind, f"{type(exc).__name__}: {text[:160]}")
            return False


def visitor(url: str, index: int, upload: str, until: float, tally: Tally) -> None:
    from gradio_client import handle_file

    from tests.support.queue_client import app_client

    address = f"127.0.0.{2 + index % 250}"
    judge = json.dumps([{"name": "judge", "params": {"rubric": "Is it polite?", "model": "embedded"}}])
    anonymous = [["Hello there.", "Go away."], judge, "Greet me.", "", "group", "sum_then_normalize"]

    def judge_call():
        answer = run_call(url, "score_completions", anonymous, local_address=address)
        if not answer["success"]:
            raise RuntimeError(str(answer["output"].get("error")))

    c = app_client(url, httpx_kwargs={"timeout": 300})
    issue_token(url, c.session_hash)
    c.predict(LENGTH_5, api_name="/set_rewards")
    while time.monotonic() < until:
        tally.attempt("try_on_text", lambda: c.predict(TEXT, api_name="/try_on_text"))
        tally.attempt("upload", lambda: c.predict(handle_file(upload), api_name="/upload_prompts"))
        tally.attempt("judge_without_token", judge_call)
        before = {r["run"] for r in readable_runs(c)}
        if tally.attempt("run", lambda: start_run(c, RUN)):
            wait_for_own_run(c, before, time.monotonic() + RUN_WAIT_SECONDS, tally)


def readable_runs(c) -> list[dict]:
    """The runs this visitor owns (others' are listed without their content)."""
    frame, _, _ = c.predict(None, api_name="/list_runs")
    rows = [dict(zip(frame["headers"], row, strict=True)) for row in frame["data"]]
    return [r for r in rows if r["rewards"]]


def wait_for_own_run(c, before: set[str], deadline: float, tally: Tally) -> None:
    """Until this visitor has a run that is not one of `before` (the new one has left the queue) and every run of
    its has ended (runs past their retention are gone from the list meanwhile)."""
    while time.monotonic() < deadline:
        mine = readable_runs(c)
        if {r["run"] for r in mine} - before and all(r["status"] in ENDED for r in mine):
            return
        time.sleep(POLL_SECONDS)
    with tally.lock:
        tally.error("run_wait", "not ended before the deadline")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=30)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--retention-hours", type=float, default=0.01, help="PLAYGROUND_RUN_RETENTION_HOURS")
    args = parser.parse_args()
    tally = Tally()
    with tempfile.TemporaryDirectory() as folder:
        model = str(save_tiny_model(Path(folder) / "model"))  # a tiny model: 2 layers, SmolLM2's whole tokenizer
        upload = Path(folder) / "prompts.jsonl"
        upload.write_text('{"prompt": "Say hi.", "answer": "hi"}\n' * 20)
        runs = Path(folder) / "runs"
        env = {**os.environ, "PLAYGROUND_PUBLIC": "1", "HF_HUB_OFFLINE": "1", "GRADIO_HEARTBEAT_INTERVAL": "1"}
        env.update(
            PLAYGROUND_RUN_RETENTION_HOURS=str(args.retention_hours),
            PLAYGROUND_MAX_QUEUED=str(args.visitors + 1),
            PLAYGROUND_MAX_QUEUED_PER_ADDRESS=str(args.visitors + 1),  # every page's visitor is on 127.0.0.1
        )
        with app_process(model, str(runs), env, str(Path(folder) / "app.log")) as url:
            pid = app_pid(int(url.rsplit(":", 1)[1].strip("/")))
            began = time.monotonic()
            until = began + 60 * args.minutes
            with Sampler(pid, runs) as sampler:
                with ThreadPoolExecutor(args.visitors) as pool:
                    futures = [pool.submit(visitor, url, i, str(upload), until, tally) for i in range(args.visitors)]
                    for future in futures:
                        tally.attempt("visitor", future.result)
                soaked = time.monotonic() - began
                time.sleep(args.retention_hours * 3600 + 5)  # the last run ended: past its retention now
                from tests.support.queue_client import app_client

                sweeper = app_client(url, httpx_kwargs={"timeout": 300})
                issue_token(url, sweeper.session_hash)
                if tally.attempt("run", lambda: start_run(sweeper, RUN)):  # a Start deletes the expired runs first
                    wait_for_own_run(sweeper, set(), time.monotonic() + RUN_WAIT_SECONDS, tally)
                kept = {r["run"] for r in readable_runs(sweeper)}
            left = sorted(p.name for p in runs.iterdir() if p.is_dir() and p.name not in kept) if runs.exists() else []
    print(
        json.dumps(
            {
                "visitors": args.visitors,
                "minutes": args.minutes,
                "soaked_s": round(soaked),
                "retention_hours": args.retention_hours,
                "peak_rss_mb": round(sampler.peak_rss / 2**20),
                "peak_runs_disk_mb": round(sampler.peak_disk / 2**20, 1),
                "calls": dict(tally.calls),
                "refusals": dict(tally.refusals),
                "errors": dict(tally.errors),
                "first_error_of_each_kind": tally.first,
                "runs_left_after_expiry": left,
                "machine": f"{cpu_name()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f} at the end",
            }
        )
    )


if __name__ == "__main__":
    main()
