"""Compare's summary says what its delta is computed on: the weighted total of the selected rewards, over N prompts x
k completions, trained minus base with the same seeds, and that the table shows the first completion of each."""

import pytest

from playground.ui.i18n import tr


@pytest.mark.parametrize(
    ("lang", "parts"),
    [
        ("en", ["+62.500", "over 4 prompts × 1 completions each", "trained minus base, same seeds", "first of each"]),
        ("zh", ["+62.500", "4 个提示词", "每个 1 个生成结果", "训练后减训练前", "随机种子相同", "第一个"]),
    ],
)
def test_the_delta_says_what_it_is_computed_on(lang, parts):
    text = tr(lang, "compare.summary", delta="+62.500", n=4, k=1, run="r1")
    assert all(part in text for part in parts), text
