"""Compare's summary says what its delta is computed on: the weighted total of the run's own rewards (its recipe, which
Compare scores with, not the Rewards tab's selection), over N prompts x k completions, trained minus base with the same
seeds, and that the table shows the first completion of each."""

import pytest

from playground.ui.i18n import tr


@pytest.mark.parametrize(
    ("lang", "parts"),
    [
        (
            "en",
            ["+62.500", "the run's own rewards", "not the Rewards tab's selection", "4 prompts × 1 completions each"],
        ),
        (
            "zh",
            [
                "+62.500",
                "这次训练自己的奖励",
                "4 个提示词",
                "每个 1 个生成结果",
                "训练后减训练前",
                "随机种子相同",
                "第一个",
            ],
        ),
    ],
)
def test_the_delta_says_what_it_is_computed_on(lang, parts):
    text = tr(lang, "compare.summary", delta="+62.500", n=4, k=1, run="r1")
    assert all(part in text for part in parts), text
