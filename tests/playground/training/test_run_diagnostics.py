"""A run logs, each step, the group diagnostics of its rewards (`advantages.diagnose`, the reading the Rewards tab,
the Preview and the lab show), and its alerts read them."""

import pytest

from playground.advantages import diagnose
from playground.scoring import RewardChoice
from playground.training.run_queue import JobManager
from playground.training.store import RunStore
from tests.playground.training.test_job import tiny_spec, wait


@pytest.mark.slow
def test_each_step_logs_the_diagnostics_of_its_groups_and_the_alerts_read_them(tmp_path, tiny_model_dir):
    """'length' varies, 'format' gives the random model's every completion 0: the step's diagnostics are those of
    its samples, and the alert names 'length' the only reward that varies."""
    rewards = [RewardChoice("length", 1.0, {"ideal_length": 5}), RewardChoice("format", 1.0, {})]
    job = JobManager(RunStore(tmp_path / "runs")).start(tiny_spec(tiny_model_dir, rewards, max_steps=2))
    wait(job)
    assert job.status == "finished", job.error
    rows = [r for r in job.run.metrics() if r.get("phase") == "grpo" and "loss" in r]
    samples = job.run.samples()
    names = list(samples[0]["rewards"])
    assert len(names) == 2 and len(rows) == 2
    for row in rows:
        group = [s for s in samples if s["step"] == row["step"]]
        assert len(group) == 4
        found = diagnose([[s["rewards"][n] for n in names] for s in group], names, [1.0, 1.0], 4)
        assert row["diagnostics/no_signal"] == (1.0 if all(found.no_signal) else 0.0)
        for name in names:
            assert row[f"diagnostics/share/{name}"] == pytest.approx(found.shares.get(name, 0.0), abs=1e-4)
            assert row[f"diagnostics/flat/{name}"] == (1.0 if name in found.flat else 0.0)
    length, fmt = (n for n in names if n.startswith("length")), (n for n in names if n.startswith("format"))
    length, fmt = next(length), next(fmt)
    assert rows[-1][f"diagnostics/flat/{fmt}"] == 1.0 and rows[-1][f"diagnostics/share/{length}"] == 1.0
    codes = {a["code"]: a for a in job.run.status()["alerts"]}
    assert "nothing_to_weigh" in codes and f"'{length}'" in codes["nothing_to_weigh"]["message"]
