"""Re-scoring: the dry run's step-0 metrics equal what TRL's GRPOTrainer logs, in both aggregation modes."""

import pytest

from playground.lab.stats import spearman, summarize


class FixedReward:
    def __init__(self, name, values):
        self.__name__ = name
        self.values = values

    def __call__(self, completions, **kwargs):
        return list(self.values)


# Prompt 2's f1 is constant: no signal from f1 alone there.
ROWS = [[1.0, 0.0], [2.0, 1.0], [0.5, None], [3.0, 1.0], [0.0, 1.0], [5.0, 1.0], [1.0, 1.0], [1.0, 1.0]]


@pytest.mark.parametrize(
    "scale_rewards,aggregation", [("group", "sum_then_normalize"), ("batch", "normalize_then_sum")]
)
def test_metrics_equal_trl_logs(tiny_model_dir, tmp_path, scale_rewards, aggregation):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    weights = [0.7, 0.3]
    funcs = [FixedReward(f"f{j}", [r[j] for r in ROWS]) for j in range(2)]
    args = GRPOConfig(
        output_dir=str(tmp_path),
        num_generations=4,
        per_device_train_batch_size=8,
        max_completion_length=4,
        scale_rewards=scale_rewards,
        multi_objective_aggregation=aggregation,
        reward_weights=weights,
        use_cpu=True,
        bf16=False,
        report_to=[],
    )
    dataset = Dataset.from_dict({"prompt": ["a", "b"] * 4})
    trainer = GRPOTrainer(model=str(tiny_model_dir), reward_funcs=funcs, args=args, train_dataset=dataset)
    out = trainer._generate_and_score_completions([{"prompt": p} for p in ["a"] * 4 + ["b"] * 4])
    mode = "train" if trainer.model.training else "eval"  # TRL logs under the model's current mode
    logged = {k: v[-1] for k, v in trainer._metrics[mode].items()}

    ours = summarize(
        ROWS, ["f0", "f1"], weights, 4, scale_rewards=scale_rewards, multi_objective_aggregation=aggregation
    )
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
