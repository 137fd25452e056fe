"""A run's own start and end times in status.json, and the duration read from them however late it is read."""

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from playground.training.store import RunStore, run_seconds


SPEC = {"model": {"model_name_or_path": "embedded"}, "rewards": [{"name": "length"}], "grpo": {"max_steps": 3}}


@pytest.fixture
def run(tmp_path):
    return RunStore(tmp_path / "runs").create(SPEC)


def stored(run) -> dict:
    return json.loads((run.path / "status.json").read_text())


def rewrite(run, **fields) -> None:
    (run.path / "status.json").write_text(json.dumps({**stored(run), **fields}))


def test_a_queued_run_has_no_times(run):
    assert "started_at" not in stored(run) and "finished_at" not in stored(run)
    assert run_seconds(run.status()) is None


def test_start_and_end_are_stamped_once(run):
    run.write_status(status="loading")
    started = stored(run)["started_at"]
    run.write_status(status="running", step=1)
    assert stored(run)["started_at"] == started and "finished_at" not in stored(run)
    run.write_status(status="finished", step=3)
    finished = stored(run)["finished_at"]
    assert finished >= started
    run.write_status(published=True)  # a later write of a finished run keeps its end
    assert stored(run)["finished_at"] == finished and stored(run)["started_at"] == started


def test_a_job_given_start_time_is_kept(run):
    run.write_status(status="loading", started_at="2026-01-02T03:04:05Z")
    assert stored(run)["started_at"] == "2026-01-02T03:04:05Z"


def test_the_duration_of_a_finished_run_does_not_grow(run):
    start = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    run.write_status(status="finished", step=3)
    rewrite(run, started_at=start.isoformat(), finished_at=(start + timedelta(seconds=43)).isoformat())
    later = datetime.now(UTC) + timedelta(hours=5)
    assert run_seconds(run.status(), now=later) == 43.0
    assert run_seconds(run.status()) == 43.0


def test_a_running_run_counts_to_now(run):
    run.write_status(status="running", step=1)
    start = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    rewrite(run, started_at="2026-01-02T03:04:05Z")
    assert run_seconds(run.status(), now=start + timedelta(seconds=102)) == 102.0


def test_a_continued_run_adds_its_earlier_segments(run):
    """A run continued after a stop counts what its earlier segments trained, not the time it waited between them."""
    run.write_status(status="running", step=4)
    rewrite(run, started_at="2026-01-02T03:04:05Z", earlier_seconds=100.0)
    assert run_seconds(run.status(), now=datetime(2026, 1, 2, 3, 4, 35, tzinfo=UTC)) == 130.0
    rewrite(run, earlier_seconds="a lot")  # a hand-edited status: the segment alone
    assert run_seconds(run.status(), now=datetime(2026, 1, 2, 3, 4, 35, tzinfo=UTC)) == 30.0


def test_a_run_that_goes_again_keeps_its_earlier_time_and_starts_a_new_segment(run):
    run.write_status(status="stopped", step=4)
    rewrite(run, started_at="2026-01-02T03:04:05+00:00", finished_at="2026-01-02T03:05:45+00:00")  # 100 s
    run.write_status(status="queued")  # continued, days later
    again = stored(run)
    assert again["earlier_seconds"] == 100.0 and again["finished_at"] is None
    assert again["started_at"] == again["updated_at"]
    start = datetime.fromisoformat(again["started_at"])
    assert run_seconds(run.status(), now=start + timedelta(seconds=30)) == 130.0
    run.write_status(status="finished", step=8)
    rewrite(run, finished_at=(start + timedelta(seconds=50)).isoformat())
    run.write_status(status="queued")  # and once more: both earlier segments carry over
    assert stored(run)["earlier_seconds"] == 150.0


def test_a_run_stopped_in_the_queue_took_no_time(run):
    run.write_status(status="stopped")
    assert run_seconds(run.status()) == 0.0


@pytest.mark.integration  # a process that exits
def test_an_interrupted_run_ends_when_its_process_was_last_seen(run):
    run.write_status(status="running", step=2)
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    rewrite(run, pid=proc.pid, started_at="2026-01-02T03:04:05+00:00", updated_at="2026-01-02T03:05:48+00:00")
    status = run.status()
    assert status["status"] == "interrupted"
    assert run_seconds(status) == 103.0
    assert stored(run)["finished_at"] == "2026-01-02T03:05:48+00:00"


def test_a_run_stopped_in_its_warm_up_lists_step_0_not_its_sft_steps(tmp_path):
    store = RunStore(tmp_path / "runs")
    run = store.create(SPEC)
    for step in range(1, 8):
        run.append_metrics({"step": step, "phase": "warmup", "loss": 1.0})
    run.write_status(status="stopped", step=0, phase="warmup")
    assert run.info().step == 0
    bare = store.create(SPEC)  # a status without a step: the last GRPO row's
    bare.append_metrics({"step": 2, "phase": "grpo", "reward": 0.5})
    bare.append_metrics({"step": 9, "phase": "warmup", "loss": 1.0})
    (bare.path / "status.json").write_text(json.dumps({k: v for k, v in stored(bare).items() if k != "step"}))
    assert bare.info().step == 2
