"""One set of group diagnostics (`playground.advantages.diagnose`): no signal, dominance, flat rewards and cut-off
completions, read the same by the Preview and the Rewards tab (`score_group`'s flags) and the Reward lab
(`summarize`)."""

import pytest

from playground.advantages import diagnose
from playground.lab.stats import summarize
from playground.scoring import score_group


# The format lesson's first Preview: all 8 completions score format 0.000 and tag_layout 0.222.
FORMAT_LESSON = [[0.0, 2 / 9]] * 8


def fixed(name, values):
    def reward(completions, **kwargs):
        return list(values)

    reward.__name__ = name
    return reward


def test_a_group_with_no_spread_has_no_signal_and_nothing_dominates():
    found = diagnose(FORMAT_LESSON, ["format", "tag_layout"], [1.0, 1.0], 8)
    assert (found.no_signal, found.shares, found.dominant, found.flat) == ([True], {}, None, {})


def test_the_preview_says_no_signal_not_dominance_on_the_format_lessons_group():
    funcs = [fixed("format", [0.0] * 8), fixed("tag_layout", [2 / 9] * 8)]
    score = score_group([f"c{i}" for i in range(8)], funcs, [1.0, 1.0])
    assert score.flag_codes == ["zero_std"] and score.zero_std
    # TRL's own float32 arithmetic leaves advantages of about 1e-4 here: shown as 0.000, never as a push
    assert all(abs(c.advantage) < 5e-4 for c in score.completions)


def test_a_constant_reward_beside_a_varying_one_is_flat_not_dominated():
    funcs = [fixed("length", [-10.0, -2.0, -30.0, -4.0]), fixed("format", [0.0] * 4)]
    score = score_group(["a", "b", "c", "d"], funcs, [1.0, 1.0])
    assert score.flag_codes == ["flat"]
    assert "'format' (0)" in score.flags[0]
    found = diagnose([[-10.0, 0.0], [-2.0, 0.0], [-30.0, 0.0], [-4.0, 0.0]], ["length", "format"], [1.0, 1.0], 4)
    assert found.shares == {"length": 1.0} and found.dominant is None and found.flat == {"format": 0.0}


def test_dominance_needs_two_rewards_that_vary():
    rows = [[-90.0, 1.0], [-10.0, 0.0], [-50.0, 1.0], [-20.0, 0.0]]
    found = diagnose(rows, ["length", "format"], [1.0, 1.0], 4)
    assert found.dominant == "length" and found.shares["length"] > 0.9 and found.flat == {}
    # normalized first, the same functions weigh by their weights: nothing dominates
    balanced = diagnose(rows, ["length", "format"], [1.0, 1.0], 4, "normalize_then_sum")
    assert balanced.dominant is None and balanced.shares == pytest.approx({"length": 0.5, "format": 0.5}, abs=0.01)


def test_completions_cut_at_the_token_limit_are_counted():
    funcs = [fixed("length", [1.0, 2.0, 3.0, 4.0])]
    ids = [[1] * 8, [1] * 8, [1] * 8, [1] * 3]
    score = score_group(["a", "b", "c", "d"], funcs, [1.0], completion_ids=ids, max_completion_length=8)
    assert score.flag_codes == ["clipped"]
    assert "3 of 4 completions were cut at the token limit (8)" in score.flags[0]
    once = score_group(
        ["a", "b", "c", "d"], funcs, [1.0], completion_ids=[[1] * 8] + ids[3:] * 3, max_completion_length=8
    )
    assert "clipped" not in once.flag_codes  # one of four: under the alert's half


def test_the_lab_reads_the_same_diagnostics_per_prompt():
    table = (
        FORMAT_LESSON
        + [[1.0, 1.0], [0.0, 1 / 3], [1.0, 1.0], [0.0, 2 / 9], [0.0, 2 / 9], [1.0, 1.0]]
        + [[0.0, 0.0]] * 2
    )
    summary = summarize(table, ["format", "tag_layout"], [1.0, 1.0], 8)
    assert [p["zero_std"] for p in summary.prompts] == [True, False]
    assert summary.diagnostics.no_signal == [True, False] and summary.signal_count == 1
    assert "dominated" not in str(summary.verdict).lower()
    flat = summarize(FORMAT_LESSON, ["format", "tag_layout"], [1.0, 1.0], 8)
    assert flat.shares == {} and flat.dominant is None and str(flat.verdict).startswith("No signal")
