"""A judge reward on a public app while a bystander loads the page: the judge's model loads and runs in the visitor's
model worker, so the page-serving process keeps answering.

The app runs as its own process (`app.py`, public mode, a tiny random model; the judge uses the embedded SmolLM2);
one visitor loads the page (its token), selects `judge` and scores on Try on text, twice (the first call loads the
model in the worker), a group as large as the admission gate allows the judge (its tokens cap); a bystander GETs
/config every 0.2 s throughout, and alone for as long before. It prints each judge call's seconds and the bystander's
page-load times (median, p95, max) with and without the judge running.

    HF_HUB_OFFLINE=1 python bench/judge_bystander.py

Figures from a shared or loaded machine are slower than on an idle Space; the printout says which CPU and load.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import cpu_name  # noqa: E402
from bench.workshop import p95, public_app  # noqa: E402
from playground.admission import Caps, prompt_tokens  # noqa: E402
from tests.support.queue_client import issue_token  # noqa: E402
from tests.support.tiny_models import save_tiny_model  # noqa: E402


RUBRIC = "The answer is polite, on topic and helpful."


def largest_group(caps: Caps) -> str:
    """Try on text's box: as many completions as the gate allows, as long as the judge's token cap then allows."""
    n = caps.max_completions
    each = caps.max_judge_tokens // n - prompt_tokens(RUBRIC) - 1
    completion = ("Thank you for asking! " * 100)[: max(2 * each - 4, 1)].strip()
    return "\n---\n".join(f"{completion} {i}" for i in range(n))


class Bystander:
    def __init__(self, url: str):
        self.url, self.times = url, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        from tests.support.queue_client import http_client

        with http_client(120) as http:
            while not self._stop.is_set():
                start = time.perf_counter()
                http.get(self.url + "config").raise_for_status()
                self.times.append(time.perf_counter() - start)
                self._stop.wait(0.2)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(150)


def shown(times: list[float]) -> str:
    return f"n={len(times)} median {statistics.median(times):.3f} s, p95 {p95(times):.3f} s, max {max(times):.3f} s"


def main() -> None:
    from tests.support.queue_client import app_client

    text = largest_group(Caps())
    with tempfile.TemporaryDirectory() as folder:
        model = str(save_tiny_model(Path(folder) / "model"))
        with public_app(model, folder, 1) as url:
            visitor = app_client(url, httpx_kwargs={"timeout": 300})
            issue_token(url, visitor.session_hash)
            visitor.predict(json.dumps([{"name": "judge", "params": {"rubric": RUBRIC}}]), api_name="/set_rewards")
            calls, during = [], []
            for _ in range(2):
                with Bystander(url) as bystander:
                    start = time.perf_counter()
                    table, _ = visitor.predict(text, "", "", api_name="/try_on_text")
                    calls.append(time.perf_counter() - start)
                during += bystander.times
                assert len(table["data"]) == Caps().max_completions
            with Bystander(url) as alone:
                time.sleep(max(calls))
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores, {platform.system()}, load {os.getloadavg()[0]:.1f}")
    print(f"judge on Try on text, {Caps().max_completions} completions, {len(text):,} characters:")
    print(f"  first call (loads the model in the worker) {calls[0]:.1f} s, second {calls[1]:.1f} s")
    print(f"bystander GET /config while the judge ran: {shown(during)}")
    print(f"bystander GET /config alone:               {shown(alone.times)}")


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
