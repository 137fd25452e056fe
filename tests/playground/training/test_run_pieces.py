"""A run's wall time is the sum of its pieces: a real tiny run, stopped, then continued from its checkpoint
(`resume_from_checkpoint`), keeps its first piece's time in status.json, and its `elapsed` is both pieces."""

import json

import pytest

from playground.training.run_queue import JobManager
from playground.training.store import RunStore, run_seconds
from tests.support import tiny_models as testing


pytestmark = pytest.mark.slow  # two pieces of a real run


def test_a_continued_run_keeps_its_first_pieces_time(tmp_path, tiny_model_dir):
    spec = testing.tiny_spec(tiny_model_dir, max_steps=4, save_steps=2)
    manager = JobManager(RunStore(tmp_path))
    job = manager.start(spec)
    job.listeners.append(lambda row: row.get("step") == 1 and "reward" in row and job.stop())
    job.join(600)
    assert job.status == "stopped", job.error
    first = json.loads((job.run.path / "status.json").read_text())
    assert len(first["pieces"]) == 1 and first["elapsed"] == first["pieces"][0] > 0

    continued = manager.resume(job.run.id)
    continued.join(600)
    assert continued.status == "finished", continued.error
    status = json.loads((job.run.path / "status.json").read_text())
    assert status["pieces"][0] == first["pieces"][0] and len(status["pieces"]) == 2
    assert status["elapsed"] == pytest.approx(sum(status["pieces"]), abs=0.11)
    assert status["elapsed"] > first["elapsed"]
    assert run_seconds(status) == pytest.approx(status["elapsed"], abs=0.11)
    info = manager.store.get(job.run.id).info()
    assert info.pieces == status["pieces"] and info.seconds == pytest.approx(status["elapsed"], abs=0.11)
