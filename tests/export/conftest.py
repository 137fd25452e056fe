"""A real 2-step playground run on the tiny model, shared by the export tests (about 10 s on 2 cores)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from playground.scoring import RewardChoice
from playground.spec import RunSpec
from playground.training.job import JobManager
from playground.training.store import RunStore


def tiny_spec(model_dir, **overrides) -> RunSpec:
    spec = RunSpec()
    spec.model.model_name_or_path = str(model_dir)
    settings = dict(
        max_steps=2,
        num_generations=4,
        per_device_train_batch_size=4,
        max_completion_length=6,
        learning_rate=1e-2,  # large, so that two steps move the adapter measurably
        save_steps=5,
    )
    settings.update(overrides)
    for name, value in settings.items():
        spec.set(name, value)
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 5}), RewardChoice("format", 0.5)]
    return spec


def train_exported(folder: Path, *args: str) -> Path:
    """Run an exported folder's training (`python *args` in it) offline; assert it saved an adapter; its output dir."""
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=folder,
        env={**os.environ, "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = folder / "output"
    assert (out / "adapter_model.safetensors").is_file()
    return out


@pytest.fixture(scope="session")
def trained_run(tmp_path_factory, tiny_model_dir):
    manager = JobManager(RunStore(tmp_path_factory.mktemp("runs")))
    job = manager.start(tiny_spec(tiny_model_dir))
    job.join(300)
    assert job.status == "finished", job.error
    return job.run
