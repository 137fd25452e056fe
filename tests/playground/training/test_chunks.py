"""A run trained in chunks of steps (each one GPU call on ZeroGPU, a plain call here) equals the run in one piece."""

import threading

import pytest

from playground.training import chunks
from playground.training.chunks import ChunkedJob, plan_chunk
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from tests.playground.training.test_continue import STEPS, assert_same_steps, reference, step_rows, tiny_spec, wait


__all__ = ["reference"]  # the uninterrupted 10-step run, a fixture of this module too


@pytest.mark.slow
def test_a_run_in_four_chunks_equals_the_run_in_one(tmp_path, tiny_model_dir, reference, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_CHUNK_STEPS", "3")  # chunks of steps 1-3, 4-6, 7-9, 10
    job = JobManager(RunStore(tmp_path)).start(tiny_spec(tiny_model_dir))
    assert isinstance(job, ChunkedJob)
    seen = []
    job.listeners.append(lambda row: "reward" in row and seen.append(row["step"]))
    wait(job)
    assert job.status == "finished", job.error
    assert job.chunks == 4
    assert seen == list(range(1, STEPS + 1))  # the page's listeners see one run, every step once
    rows = step_rows(job.run)
    assert sorted(rows) == list(range(1, STEPS + 1))
    assert_same_steps(rows, step_rows(reference), range(1, STEPS + 1))
    status = job.run.status()
    assert (status["status"], status["step"]) == ("finished", STEPS)


@pytest.mark.slow
def test_stop_between_chunks_keeps_the_checkpoint_and_the_run_continues(tmp_path, tiny_model_dir, monkeypatch):
    """Stop pressed while the chunk of steps 3-4 returns (a row listener would race the tiny model's fast steps: the
    watcher polls, so it can read step 3 after the last chunk already trained step 6): the run stops at step 4, its
    checkpoint, and Continue trains steps 5 and 6."""
    monkeypatch.setenv("PLAYGROUND_CHUNK_STEPS", "2")
    real_call, started = chunks.gpu_call, threading.Event()

    def stop_after_steps_3_and_4(fn, run_path, checkpoint, stop_at, duration):
        outcome = real_call(fn, run_path, checkpoint, stop_at, duration=duration)
        if stop_at == 4:
            assert started.wait(60)  # the manager holds the job once start() has returned
            manager.stop()  # the page's Stop
        return outcome

    monkeypatch.setattr(chunks, "gpu_call", stop_after_steps_3_and_4)
    manager = JobManager(RunStore(tmp_path))
    job = manager.start(tiny_spec(tiny_model_dir, max_steps=6))
    started.set()
    wait(job)
    assert job.chunks == 2
    assert job.status == "stopped" and job.run.status()["status"] == "stopped"
    assert job.run.status()["step"] == 4
    assert sorted(step_rows(job.run)) == [1, 2, 3, 4]
    continued = manager.resume(job.run.id)
    wait(continued)
    assert continued.status == "finished", continued.error
    assert continued.chunks == 1
    assert sorted(step_rows(continued.run)) == list(range(1, 7))


@pytest.mark.parametrize(
    ("step_seconds", "load_seconds", "budget", "expected"),
    [
        (None, 0.0, 120, (2, 120)),  # nothing timed yet: a short first chunk, the whole budget
        (10.0, 16.0, 120, (8, 120.0)),  # (120 / 1.25 - 16) / 10 = 8 steps; 1.25 × (16 + 80) = 120 s
        (4.0, 6.0, 120, (22, 117.5)),  # (96 - 6) / 4 = 22.5 -> 22 steps; 1.25 × (6 + 88) = 117.5 s
        (200.0, 10.0, 120, (1, 120)),  # a step longer than a call: one step a call, the budget at most
    ],
)
def test_plan_chunk_fits_the_steps_in_one_call(step_seconds, load_seconds, budget, expected, monkeypatch):
    monkeypatch.delenv("PLAYGROUND_CHUNK_STEPS", raising=False)
    assert plan_chunk(step_seconds, load_seconds, budget) == expected
