"""Re-scoring: the dry run's step-0 metrics equal what TRL's GRPOTrainer logs, in both aggregation modes."""

import pytest

from playground.advantages import AdvantageSettings
from playground.lab.stats import spearman, summarize
from tests.playground.test_advantages import trl_scored


# Prompt 2's f1 is constant: no signal from f1 alone there.
ROWS = [[1.0, 0.0], [2.0, 1.0], [0.5, None], [3.0, 1.0], [0.0, 1.0], [5.0, 1.0], [1.0, 1.0], [1.0, 1.0]]


@pytest.mark.parametrize(
    "scale_rewards,aggregation", [("group", "sum_then_normalize"), ("batch", "normalize_then_sum")]
)
def test_metrics_equal_trl_logs(tiny_model_dir, tmp_path, scale_rewards, aggregation):
    weights = [0.7, 0.3]
    out, logged = trl_scored(tiny_model_dir, tmp_path, ROWS, weights, 4, scale_rewards, aggregation)

    ours = summarize(ROWS, ["f0", "f1"], weights, 4, advantage=AdvantageSettings(scale_rewards, aggregation))
    for key in ("reward", "reward_std", "frac_reward_zero_std"):
        assert getattr(ours, key) == pytest.approx(logged[key], abs=1e-5), key
    for name in ("f0", "f1"):
        assert ours.rewards[name]["mean"] == pytest.approx(logged[f"rewards/{name}/mean"], abs=1e-5)
        assert ours.rewards[name]["std"] == pytest.approx(logged[f"rewards/{name}/std"], abs=1e-5)
    assert ours.advantages == pytest.approx(out["advantages"].tolist(), abs=1e-4)


def test_switching_a_function_off_and_reweighting():
    both = summarize(ROWS, ["f0", "f1"], [1.0, 1.0], 4)
    assert [p["zero_std"] for p in both.prompts] == [False, False]
    only_f1 = summarize(ROWS, ["f0", "f1"], [1.0, 1.0], 4, enabled=[False, True])
    assert list(only_f1.rewards) == ["f1"]
    assert [p["zero_std"] for p in only_f1.prompts] == [False, True]  # prompt 2 scores 1.0 four times
    assert only_f1.frac_reward_zero_std == 0.5
    assert "1 of 2" in only_f1.verdict
    heavy = summarize(ROWS, ["f0", "f1"], [100.0, 1.0], 4)
    assert heavy.dominant == "f0" and heavy.shares["f0"] > 0.9 and "'f0' makes up" in heavy.verdict
    with pytest.raises(Exception, match="switched off"):
        summarize(ROWS, ["f0", "f1"], [1.0, 1.0], 4, enabled=[False, False])


def test_spearman_by_hand():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == 1.0
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1.0
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.9487, abs=1e-4)  # ties get average ranks
    assert spearman([1, 1, 1], [1, 2, 3]) is None
