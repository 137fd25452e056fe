"""A real 2-step playground run on the tiny model, shared by the export tests (about 10 s on 2 cores)."""

import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from playground.scoring import RewardChoice
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from tests.support import tiny_models


# Two steps of a large learning rate move the adapter measurably; two rewards, so an export carries a weighted sum.
tiny_spec = partial(
    tiny_models.tiny_spec,
    rewards=[RewardChoice("length", 1.0, {"ideal_length": 5}), RewardChoice("format", 0.5)],
    max_steps=2,
    max_completion_length=6,
    learning_rate=1e-2,
    save_steps=5,
)


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
