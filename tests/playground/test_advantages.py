"""The playground's advantages equal TRL's own computation inside GRPOTrainer on the same rewards."""

import math

import pytest
import torch

from playground.advantages import compute_advantages


class FixedReward:
    """Returns preset values in call order, so TRL scores exactly the rewards we choose."""

    def __init__(self, name, values):
        self.__name__ = name
        self.values = values

    def __call__(self, completions, **kwargs):
        assert len(completions) == len(self.values)
        return list(self.values)


def trl_scored(model_dir, output_dir, rows, weights, g, scale_rewards, aggregation):
    """TRL's GRPOTrainer scores one batch whose rewards are `rows` (completions x functions, groups of `g`): its
    output (`advantages`, ...) and the metrics it logged for that batch."""
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    n = len(rows)
    funcs = [FixedReward(f"f{j}", [r[j] for r in rows]) for j in range(len(weights))]
    args = GRPOConfig(
        output_dir=str(output_dir),
        num_generations=g,
        per_device_train_batch_size=n,
        max_completion_length=4,
        scale_rewards=scale_rewards,
        reward_weights=weights,
        multi_objective_aggregation=aggregation,
        use_cpu=True,
        bf16=False,
        report_to=[],
    )
    dataset = Dataset.from_dict({"prompt": ["a", "b"] * 4})
    trainer = GRPOTrainer(model=str(model_dir), reward_funcs=funcs, args=args, train_dataset=dataset)
    out = trainer._generate_and_score_completions([{"prompt": p} for p in ["a"] * g + ["b"] * (n - g)])
    mode = "train" if trainer.model.training else "eval"  # TRL logs under the model's current mode
    return out, {k: v[-1] for k, v in trainer._metrics[mode].items()}


TABLE = [
    # (scale_rewards, per-function rewards (rows = completions), weights, num_generations)
    (
        "group",
        [[1.0, 0.0], [2.0, 1.0], [0.5, None], [3.0, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [1.0, 1.0]],
        [1.0, 0.5],
        4,
    ),
    (
        "batch",
        [[1.0, 0.0], [2.0, 1.0], [0.5, None], [3.0, 1.0], [0.0, 1.0], [5.0, 1.0], [None, None], [1.0, 0.0]],
        [0.7, 0.3],
        4,
    ),
    ("none", [[-90.0, 1.0], [-10.0, 0.0], [-50.0, 1.0], [-20.0, 0.0]], [0.7, 0.3], 4),
]
# TRL's multi_objective_aggregation="normalize_then_sum" (scale_rewards is not used there): a group where one
# function is constant, a None, and an unscorable completion.
NORMALIZE_THEN_SUM = [
    (
        "group",
        [[1.0, 0.0], [2.0, 1.0], [0.5, None], [3.0, 1.0], [0.0, 1.0], [0.0, 1.0], [None, None], [4.0, 1.0]],
        [0.7, 0.3],
        4,
        "normalize_then_sum",
    ),
    ("none", [[-90.0, 1.0], [-10.0, 0.0], [-50.0, 1.0], [-20.0, 0.0]], [1.0, 2.0], 4, "normalize_then_sum"),
]


@pytest.mark.parametrize(
    "scale_rewards,rows,weights,g,aggregation",
    [(*case, "sum_then_normalize") for case in TABLE] + NORMALIZE_THEN_SUM,
)
def test_equals_trl_grpo_trainer(tiny_model_dir, tmp_path, scale_rewards, rows, weights, g, aggregation):
    trl_adv = trl_scored(tiny_model_dir, tmp_path, rows, weights, g, scale_rewards, aggregation)[0]["advantages"]

    ours = compute_advantages(
        rows, weights, num_generations=g, scale_rewards=scale_rewards, multi_objective_aggregation=aggregation
    )
    torch.testing.assert_close(ours.advantages, trl_adv.float(), rtol=1e-5, atol=1e-5)
    assert trl_adv.abs().sum() > 0  # the case is not trivially all-zero


def test_group_values_by_hand():
    out = compute_advantages([[1.0], [2.0], [3.0], [None]], [1.0], num_generations=4)
    # None row is unscorable: excluded from the baseline, advantage 0.
    assert out.mean[0].item() == pytest.approx(2.0)
    assert out.std[0].item() == pytest.approx(1.0)  # Bessel-corrected std of 1, 2, 3
    assert out.advantages.tolist() == pytest.approx([-1 / 1.0001, 0.0, 1 / 1.0001, 0.0])
    assert math.isnan(out.rewards[3].item())


def test_zero_variance_group_flags_zero_std():
    out = compute_advantages([[0.5]] * 4, [1.0], num_generations=4)
    assert out.is_std_zero.all()
    assert out.advantages.tolist() == [0.0] * 4


def test_rejects_unknown_scale():
    with pytest.raises(ValueError, match="scale_rewards"):
        compute_advantages([[1.0], [2.0]], [1.0], 2, scale_rewards="rank")


@pytest.mark.parametrize(
    "values",
    [[1.0, 2.0, 4.0], [1.0, float("nan"), 3.0, 7.0], [5.0], [float("nan"), 2.0], [[1.0, 2.0], [3.0, float("nan")]]],
)
def test_nanstd_matches_trl(values):
    from trl.trainer.utils import nanstd as trl_nanstd

    from playground.advantages import nanstd

    t = torch.tensor(values)
    dims = [None] + ([1] if t.ndim == 2 else [])
    for dim in dims:
        torch.testing.assert_close(nanstd(t, dim=dim), trl_nanstd(t, dim=dim), equal_nan=True)
