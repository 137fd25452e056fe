"""Runs as the Compare and Runs pickers list them: id, date, status, steps, rewards and final reward."""

from playground.training.store import RunStore
from playground.ui.common import run_label


SPEC = {"rewards": [{"name": "length"}, {"name": "format", "weight": 0.5}], "grpo": {"max_steps": 20}}


def test_a_run_is_listed_with_what_tells_it_apart(tmp_path):
    run = RunStore(tmp_path).create(SPEC)
    run.append_metrics({"step": 3, "phase": "grpo", "reward": 0.52})
    run.write_status(status="stopped", step=3, created_at="2026-12-02T17:46:04.123456+00:00")
    info = run.info()
    made = f"{run.id} · 2026-12-02 17:46"
    assert run_label(info, "en") == f"{made} · stopped · 3/20 steps · length, format · reward 0.52"
    assert run_label(info, "zh") == f"{made} · 已停止 · 3/20 步 · length, format · 奖励 0.52"
    # Another visitor's private run (public mode): no rewards, no reward.
    assert run_label(info, "en", readable=False) == f"{run.id} · 2026-12-02 17:46 · stopped · 3/20 steps"
