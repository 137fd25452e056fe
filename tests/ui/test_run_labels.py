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


def test_the_final_reward_reads_as_in_the_runs_table(tmp_path):
    """The picker and the run's line round as the table does (3 decimals): -88.75, not -88.8."""
    from playground.ui.common import reward_text

    run = RunStore(tmp_path).create(SPEC)
    run.append_metrics({"step": 3, "phase": "grpo", "reward": -88.75})
    run.write_status(status="finished", step=3, created_at="2026-12-02T17:46:04.123456+00:00")
    assert run_label(run.info(), "en").endswith(" · reward -88.75")
    values = (-88.75, 0.72, 0.123456, 1234.5678, -0.0001, 3.0)
    assert [reward_text(v) for v in values] == ["-88.75", "0.72", "0.123", "1234.568", "0", "3"]
