"""Load, on loopback: 20 concurrent client sessions preview and score text, each with its own custom reward, while a
run trains on the tiny model. No errors, no mix-up between sessions, and the run keeps stepping. The latencies are
printed (p50/p95 per endpoint, `pytest -s` shows them), never asserted: they depend on the machine.

The same load with its table and a JSON line: `HF_HUB_OFFLINE=1 python bench/load.py --model <folder>`.
"""

import time

import pytest

from bench.common import start_run, wait_for_steps
from bench.load import drive, latency_table
from tests.ui.test_client import TINY_RUN, client


pytestmark = pytest.mark.slow  # a launched app under load


SESSIONS = 20


def test_concurrent_sessions_while_training(app):
    start_run(client(app), {**TINY_RUN, "max_steps": 10_000})
    job = app.ctx.jobs.current
    try:
        wait_for_steps(job, 1, timeout=60)
        steps_before, began = job.step, time.perf_counter()
        latencies, errors = drive(app.url, SESSIONS)
        seconds = time.perf_counter() - began
        assert errors == []
        assert job.active and job.step > steps_before  # training kept stepping under the load
        table, stats = latency_table(latencies)
        print(f"\n{table}\n{SESSIONS} sessions in {seconds:.1f} s; {job.step - steps_before} training steps meanwhile")
        assert {endpoint: row["n"] for endpoint, row in stats.items()} == {
            "/check_code": SESSIONS,
            "/try_on_text": 2 * SESSIONS,
            "/generate_group": SESSIONS,
        }
        deadline = time.monotonic() + 15
        while len(app.ctx.code) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(app.ctx.code) == 0  # every session's worker stopped when its client closed
    finally:
        job.stop()
        job.join(120)
