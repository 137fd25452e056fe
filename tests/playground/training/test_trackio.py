"""report_to=trackio: a run also logs TRL's metrics to a local trackio project (the real package, offline)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[3]
READ = """
import json, sys
from trackio.sqlite_storage import SQLiteStorage
project = sys.argv[1]
runs = SQLiteStorage.get_runs(project)
print(json.dumps({"runs": runs, "logs": SQLiteStorage.get_logs(project, runs[-1]) if runs else []}, default=str))
"""


@pytest.mark.slow
def test_a_run_reporting_to_trackio_logs_trls_metrics_to_a_local_project(tiny_model_dir, tmp_path):
    pytest.importorskip("trackio")
    env = dict(os.environ, HF_HUB_OFFLINE="1", PYTHONPATH=str(ROOT), TRACKIO_DIR=str(tmp_path / "trackio"))
    args = ["--model_name_or_path", str(tiny_model_dir), "--max_steps", "2", "--num_generations", "4"]
    args += ["--per_device_train_batch_size", "4", "--max_completion_length", "6", "--reward", "length"]
    args += ["--report_to", "trackio", "--out", str(tmp_path / "runs")]
    train = subprocess.run(
        [sys.executable, "-m", "playground", "train", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
    )
    assert train.returncode == 0, train.stderr[-3000:]
    (run,) = (tmp_path / "runs").iterdir()
    assert json.loads((run / "spec.json").read_text())["grpo"]["report_to"] == ["trackio"]
    read = subprocess.run(
        [sys.executable, "-c", READ, "grpo-playground"], capture_output=True, text=True, env=env, timeout=120
    )
    assert read.returncode == 0, read.stderr
    stored = json.loads(read.stdout)
    assert stored["runs"] == [run.name]  # the project is the playground's, the run named by its id
    steps = [row for row in stored["logs"] if "train/reward" in row]
    assert len(steps) == 2
    ours = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    ours = [row for row in ours if "reward" in row]
    for logged, row in zip(steps, ours, strict=True):  # TRL's metrics, the same values the run folder holds
        assert logged["train/reward"] == pytest.approx(row["reward"])
        assert logged["train/rewards/length/mean"] == pytest.approx(row["rewards/length/mean"])
        assert "train/kl" in logged and "train/completions/mean_length" in logged


def test_a_tracker_that_is_not_installed_is_refused_before_a_run_exists():
    from playground.errors import SpecError
    from playground.spec import available_reporters, demo_spec
    from playground.validation import validate_spec

    spec = demo_spec()
    spec.set("report_to", "no_such_tracker")
    with pytest.raises(SpecError) as err:
        validate_spec(spec)
    assert err.value.field == "report_to" and "'no_such_tracker' cannot log here" in str(err.value)
    spec.set("report_to", ",".join(["none", *available_reporters()]))  # what is installed (and TRL's "none") passes
    validate_spec(spec)
