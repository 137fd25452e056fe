"""The Preview and the Reward lab decide advantages as the installed TRL does: TRL's own advantage block, cut from
`GRPOTrainer._generate_and_score_completions` at test time, against the Preview's scoring of random groups (with None
values, constant functions and unscorable completions) and the dry run's summary of random batches, for every
`scale_rewards` x `multi_objective_aggregation`."""

import inspect
import random
import textwrap
from types import SimpleNamespace

import pytest
import torch

from playground.advantages import AGGREGATIONS, SCALE_REWARDS, AdvantageSettings
from playground.lab.stats import summarize
from playground.preview import Group, score_preview
from playground.scoring import score_group
from playground.spec import spec_with


FIRST = "unscorable_mask = torch.isnan(rewards_per_func).all(dim=1)"
LAST = "advantages = torch.nan_to_num(advantages, nan=0.0)"
SETTINGS = [(s, a) for s in SCALE_REWARDS for a in AGGREGATIONS]


def trl_advantage_block() -> str:
    """The lines of the installed `_generate_and_score_completions` from the unscorable mask to the NaN clean-up."""
    from trl import GRPOTrainer

    lines = inspect.getsource(GRPOTrainer._generate_and_score_completions).splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip() == FIRST)
    last = next(i for i, line in enumerate(lines) if line.strip() == LAST and i > first)
    return textwrap.dedent("\n".join(lines[first : last + 1]))


BLOCK = compile(trl_advantage_block(), "trl_advantage_block", "exec")


def trl_advantages(rows, weights, g, scale_rewards, aggregation) -> list[float]:
    """TRL's advantages of one batch (rows = completions, None for a reward that skipped one)."""
    from trl.trainer.utils import nanstd

    values = torch.tensor([[float("nan") if v is None else v for v in row] for row in rows], dtype=torch.float32)
    trainer = SimpleNamespace(
        multi_objective_aggregation=aggregation,
        scale_rewards=scale_rewards,
        reward_weights=torch.tensor(weights, dtype=torch.float32),
        reward_funcs=[None] * len(weights),
    )
    scope = {"torch": torch, "nanstd": nanstd, "self": trainer, "device": "cpu"}
    scope |= {"rewards_per_func": values, "num_generations": g}
    exec(BLOCK, scope)
    return scope["advantages"].tolist()


class Column:
    """A reward returning preset values: what the Preview scores is exactly the table chosen."""

    def __init__(self, name, values):
        self.__name__ = name
        self.values = values

    def __call__(self, completions, **kwargs):
        return list(self.values)


def random_table(rng: random.Random, n: int, k: int) -> list[list[float | None]]:
    """n completions x k functions: some None, sometimes a constant function, sometimes a row of None, integers or
    large values beside small ones."""
    columns = []
    for _ in range(k):
        kind = rng.random()
        if kind < 0.15:
            value = rng.choice([0.0, 1.0, 0.2222])
            column = [value] * n
        elif kind < 0.4:
            column = [float(rng.randint(-300, 2)) for _ in range(n)]
        else:
            column = [round(rng.uniform(-1, 1), 4) for _ in range(n)]
        columns.append([None if rng.random() < 0.2 else v for v in column])
    rows = [list(row) for row in zip(*columns, strict=True)]
    if rng.random() < 0.2:
        rows[rng.randrange(n)] = [None] * k
    return rows


def preview_advantages(rows, weights, scale_rewards, aggregation) -> list[float]:
    """The Preview's advantages of a group whose rewards are `rows`, with the settings of a run spec."""
    n, k = len(rows), len(weights)
    funcs = [Column(f"f{j}", [row[j] for row in rows]) for j in range(k)]
    group = Group("p", [f"c{i}" for i in range(n)], [[i] for i in range(n)], 0.0)
    spec = spec_with({"scale_rewards": scale_rewards, "multi_objective_aggregation": aggregation})
    score = score_preview(group, "p", funcs, weights, advantage=AdvantageSettings.of(spec, whole_table=True))
    assert score.advantage == AdvantageSettings(scale_rewards, aggregation)
    return [c.advantage for c in score.completions]


@pytest.mark.parametrize("scale_rewards,aggregation", SETTINGS)
def test_the_preview_agrees_with_trls_block_on_random_groups(scale_rewards, aggregation):
    rng = random.Random(f"{scale_rewards}-{aggregation}")
    disagree = []
    for case in range(300):
        n, k = rng.randint(2, 8), rng.randint(1, 3)
        rows = random_table(rng, n, k)
        weights = [rng.choice([1.0, 0.5, 0.3, 2.0, -1.0]) for _ in range(k)]
        ours = preview_advantages(rows, weights, scale_rewards, aggregation)
        theirs = trl_advantages(rows, weights, n, scale_rewards, aggregation)
        if ours != pytest.approx(theirs, rel=1e-5, abs=1e-5):
            disagree.append((case, rows, weights, ours, theirs))
    assert disagree == []  # 300 of 300


@pytest.mark.parametrize("scale_rewards,aggregation", SETTINGS)
def test_the_dry_run_agrees_with_trls_block_batch_by_batch(scale_rewards, aggregation):
    """A dry run of 6 prompts x 4 completions under a recipe whose generation batch is 8 completions: TRL scores it
    in three batches of two groups, and so does the dry run's summary."""
    rng = random.Random(f"batches-{scale_rewards}-{aggregation}")
    values = {"scale_rewards": scale_rewards, "multi_objective_aggregation": aggregation}
    spec = spec_with(values | {"num_generations": 4, "per_device_train_batch_size": 8})
    advantage = AdvantageSettings.of(spec)
    assert advantage.generation_batch_size == 8
    for _ in range(40):
        rows, weights = random_table(rng, 24, 2), [rng.choice([1.0, 0.5, -0.3]), 1.0]
        summary = summarize(rows, ["f0", "f1"], weights, 4, advantage=advantage)
        theirs = [
            a
            for first in range(0, 24, 8)
            for a in trl_advantages(rows[first : first + 8], weights, 4, *values.values())
        ]
        assert summary.advantages == pytest.approx(theirs, rel=1e-4, abs=1e-5)


def test_the_worked_example_of_normalize_then_sum():
    """Weights [0.5, 1, 0.3], a first function that skips every completion: TRL's normalize_then_sum ranks
    completion 4 above completion 2, and so does the Preview; sum_then_normalize ranks them the other way."""
    rows = [[None, -240, 0.75], [None, 1, 0.7876], [None, -278, 0.75], [None, 0, 1.0]]
    weights = [0.5, 1.0, 0.3]
    trl = trl_advantages(rows, weights, 4, "group", "normalize_then_sum")
    assert trl == pytest.approx([-0.7466, 0.6359, -0.9525, 1.0632], abs=2e-4)
    assert preview_advantages(rows, weights, "group", "normalize_then_sum") == pytest.approx(trl, abs=1e-6)
    summed = preview_advantages(rows, weights, "group", "sum_then_normalize")
    assert summed == pytest.approx([-0.7353, 0.8645, -0.9875, 0.8583], abs=2e-4)
    assert summed[1] > summed[3] and trl[3] > trl[1]


def test_the_block_is_found_in_the_installed_trainer():
    block = trl_advantage_block()
    assert block.startswith(FIRST) and block.endswith(LAST)
    assert "normalize_then_sum" in block and "scale_rewards" in block


def test_an_infinite_reward_is_skipped_where_trl_zeroes_the_batch():
    """docs/rewards.md: the playground reads a NaN or inf reward as None (the completion is skipped for that reward,
    with a flag); TRL keeps the inf, and one inf zeroes every advantage of its group, or of its batch."""
    rows = [[float("inf")], [1.0], [0.0], [2.0]]
    assert trl_advantages(rows, [1.0], 4, "group", "sum_then_normalize") == [0.0] * 4
    assert trl_advantages(rows + [[1.0], [0.0], [3.0], [2.0]], [1.0], 4, "batch", "sum_then_normalize") == [0.0] * 8
    score = score_group(["a", "b", "c", "d"], [Column("f", [v for (v,) in rows])], [1.0])
    assert "non_finite" in score.flag_codes and score.completions[0].rewards == {"f": None}
    ours = [c.advantage for c in score.completions]
    assert ours == pytest.approx(
        trl_advantages([[None], [1.0], [0.0], [2.0]], [1.0], 4, "group", "sum_then_normalize")
    )
    assert ours[3] > 0 > ours[2]
