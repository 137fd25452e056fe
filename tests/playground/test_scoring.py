import math

import pytest

from playground.errors import RewardError
from playground.scoring import LOCAL, RewardChoice, build_rewards, check_values, score_group


def const(value, name="const"):
    def f(completions, **kwargs):
        return [value] * len(completions)

    f.__name__ = name
    return f


def by_length(completions, **kwargs):
    return [float(len(c)) for c in completions]


class TestRewardChoice:
    @pytest.mark.parametrize(
        "text,name,weight", [("length", "length", 1.0), ("format:0.3", "format", 0.3), ("x:-2", "x", -2.0)]
    )
    def test_parse(self, text, name, weight):
        assert RewardChoice.parse(text) == RewardChoice(name, weight)

    @pytest.mark.parametrize(
        "text,match", [("length:abc", "Malformed weight"), (":1", "Empty reward"), ("a:inf", "finite")]
    )
    def test_parse_errors(self, text, match):
        with pytest.raises(RewardError, match=match):
            RewardChoice.parse(text)

    def test_roundtrip(self):
        c = RewardChoice("length", 0.5, {"ideal_length": 20})
        assert RewardChoice.from_dict(c.to_dict()) == c


class TestCheckValues:
    def test_numpy_and_torch_are_converted(self):
        import numpy as np
        import torch

        assert check_values("f", np.array([1, 2]), 2) == [1.0, 2.0]
        assert check_values("f", [torch.tensor(0.5), np.float32(2.0), None], 3) == [0.5, 2.0, None]

    @pytest.mark.parametrize(
        "values,match",
        [
            ((x for x in [1.0]), "generator"),
            ({"a": 1}, "got dict"),
            ("1.0", "got str"),
            ([1.0], "returned a list of length 1 for 2"),
            ([1.0, "x"], "returned str 'x' for completion 2"),
        ],
    )
    def test_rejects(self, values, match):
        with pytest.raises(RewardError, match=match):
            check_values("f", values, 2 if not isinstance(values, str) else 2)


class TestScoreGroup:
    def test_totals_advantages_and_json(self):
        score = score_group(["a", "bb", "ccc", "dddd"], [by_length, const(1.0)], [1.0, 2.0])
        assert [c.total for c in score.completions] == [3.0, 4.0, 5.0, 6.0]
        assert score.mean == pytest.approx(4.5)
        assert score.std == pytest.approx(math.sqrt(5 / 3))
        advs = [c.advantage for c in score.completions]
        assert advs[0] == pytest.approx(-1.5 / (math.sqrt(5 / 3) + 1e-4))
        assert sum(advs) == pytest.approx(0.0, abs=1e-6)
        data = score.to_json()
        assert data["completions"][1] == {
            "text": "bb",
            "rewards": {"by_length": 2.0, "const": 1.0},
            "total": 4.0,
            "advantage": pytest.approx(advs[1]),
        }
        assert data["group"]["zero_std"] is False

    def test_zero_variance_flag(self):
        score = score_group(["x", "y", "z"], [const(0.5)], [1.0])
        assert score.zero_std and "zero_std" in score.flag_codes
        assert "all 3 completions scored the same" in score.flags[0].lower()
        assert [c.advantage for c in score.completions] == [0.0, 0.0, 0.0]

    def test_seed_combined_reward_is_flagged_as_dominated(self):
        def fmt(completions, **kwargs):
            return [1.0, 0.0, 1.0, 0.0]

        score = score_group(
            ["a" * 10, "b" * 50, "c" * 90, "d" * 200],
            [lambda c, **k: [-abs(100 - len(x)) for x in c], fmt],
            [0.7, 0.3],
        )
        assert "dominates" in score.flag_codes
        assert "<lambda>" in score.flags[score.flag_codes.index("dominates")]

    def test_balanced_rewards_not_flagged(self):
        score = score_group(
            ["a", "b", "c", "d"], [lambda c, **k: [0, 1, 0, 1], lambda c, **k: [1, 0, 1, 1]], [1.0, 1.0]
        )
        assert "dominates" not in score.flag_codes

    def test_none_and_unscorable(self):
        def sometimes(completions, **kwargs):
            return [1.0, None, 0.0, None]

        def other(completions, **kwargs):
            return [0.0, 2.0, 1.0, None]

        score = score_group(["a", "b", "c", "d"], [sometimes, other], [1.0, 1.0])
        assert "none" in score.flag_codes and "unscorable" in score.flag_codes
        assert score.completions[3].total is None and score.completions[3].advantage == 0.0
        assert score.completions[1].rewards == {"sometimes": None, "other": 2.0}
        assert score.completions[1].total == 2.0

    def test_nan_is_flagged_and_skipped(self):
        score = score_group(["a", "b", "c"], [lambda c, **k: [1.0, float("nan"), 0.0]], [1.0])
        assert "non_finite" in score.flag_codes
        assert score.completions[1].total is None

    def test_raising_reward_is_a_reward_error(self):
        def boom(completions, **kwargs):
            raise ZeroDivisionError("division by zero")

        with pytest.raises(RewardError, match="'boom' raised ZeroDivisionError: division by zero"):
            score_group(["a", "b"], [boom], [1.0])

    def test_columns_and_prompts_reach_the_reward(self):
        seen = {}

        def spy(completions, prompts, answer, **kwargs):
            seen.update(prompts=prompts, answer=answer)
            return [float(c == a) for c, a in zip(completions, answer, strict=False)]

        score = score_group(["4", "5"], [spy], [1.0], prompts=["2+2?", "2+2?"], columns={"answer": ["4", "4"]})
        assert seen == {"prompts": ["2+2?", "2+2?"], "answer": ["4", "4"]}
        assert [c.total for c in score.completions] == [1.0, 0.0]

    def test_group_of_one_rejected(self):
        with pytest.raises(RewardError, match="at least 2"):
            score_group(["a"], [const(1.0)], [1.0])


class TestBuildRewards:
    def test_library_rewards_and_weights(self):
        funcs, weights = build_rewards([RewardChoice("length", 0.7), RewardChoice("format", 0.3)], executor=LOCAL)
        assert [f.__name__ for f in funcs] == ["length", "format"] and weights == [0.7, 0.3]

    def test_same_reward_different_params_are_distinct(self):
        funcs, _ = build_rewards(
            [RewardChoice("length"), RewardChoice("length", params={"ideal_length": 20})], executor=LOCAL
        )
        assert len({f.__name__ for f in funcs}) == 2

    def test_duplicate_rejected(self):
        with pytest.raises(RewardError, match="selected twice"):
            build_rewards([RewardChoice("length"), RewardChoice("length", 2.0)], executor=LOCAL)

    def test_unknown_lists_valid(self):
        with pytest.raises(RewardError, match="Unknown reward 'nope'. Valid rewards: .*length"):
            build_rewards([RewardChoice("nope")], executor=LOCAL)

    def test_empty(self):
        with pytest.raises(RewardError, match="at least one"):
            build_rewards([], executor=LOCAL)


@pytest.mark.parametrize("weight", ["abc", None, [1]])
def test_a_selection_whose_weight_is_no_number_is_refused_with_its_name(weight):
    with pytest.raises(RewardError) as caught:
        RewardChoice.from_dict({"name": "format", "weight": weight})
    assert str(caught.value) == f"Weight of 'format' must be a number, got {weight!r}."
    assert caught.value.render("zh") == f"'format' 的权重必须是数字，实际为 {weight!r}。"
    assert RewardChoice.from_dict({"name": "format", "weight": "2"}).weight == 2.0
