"""Help texts as the page renders them: tags in descriptions stay visible (code spans, not HTML), and info texts
carry no mark that Gradio's info renderer turns into italics."""

import re

import pytest

from playground.texts.help import info_text, markdown_text
from playground.ui.i18n import EN, ZH


@pytest.mark.parametrize("catalogue", [EN, ZH], ids=["en", "zh"])
def test_no_reward_description_has_a_tag_outside_a_code_span(catalogue):
    for key, text in catalogue.items():
        if key.startswith("rewards.desc."):
            outside = re.sub(r"`[^`]*`", "", text)
            assert not re.search(r"</?[A-Za-z]", outside), (key, text)


@pytest.mark.parametrize("catalogue", [EN, ZH], ids=["en", "zh"])
def test_info_texts_have_no_asterisks_that_gradio_makes_italic(catalogue):
    for key, text in catalogue.items():
        if key.startswith(("train.help.", "rewards.param.")):
            assert not re.search(r"\*(.+?)\*", text), (key, text)


def test_markdown_and_info_text():
    assert markdown_text("exactly <a>…</a><b>…</b>, else 0.") == "exactly `<a>…</a><b>…</b>`, else 0."
    assert markdown_text("w * x, <think>/<answer> tag") == "w × x, `<think>/<answer>` tag"
    assert info_text("clipped ('*_truncate') or ('*_mask')") == "clipped ('∗_truncate') or ('∗_mask')"


SANDBOX_AND_FLAGS = [  # (key, values, English, Chinese): what the sandbox and a scored group report
    (
        "reward.not_a_list",
        {"name": "f", "got": "str"},
        "Reward 'f' must return a list of floats, got str.",
        "奖励 'f' 必须返回浮点数列表，实际返回了 str。",
    ),
    (
        "sandbox.timed_out",
        {"what": ("sandbox.what.reward", {"name": "f"}), "seconds": 5},
        "Reward 'f' timed out after 5 s.",
        "奖励 'f' 超时（5 秒）。",
    ),
    (
        "sandbox.timed_out",
        {"what": ("sandbox.what.load", {}), "seconds": 10},
        "Loading the custom code timed out after 10 s.",
        "加载自定义代码时超时（10 秒）。",
    ),
    (
        "reward.count",
        {"name": "f", "count": 3, "n": 4},
        "Reward 'f' returned a list of length 3 for 4 completions: one score per completion is needed.",
        "奖励 'f' 为 4 个生成结果返回了长度为 3 的列表：每个生成结果需要一个分数。",
    ),
    (
        "scoring.zero_std",
        {"n": 4},
        "All 4 completions scored the same, so this group gives no learning signal (every advantage is 0).",
        "全部 4 个生成结果得分相同，所以这一组没有学习信号（所有优势都是 0）。",
    ),
]


@pytest.mark.parametrize(("key", "values", "english", "chinese"), SANDBOX_AND_FLAGS)
def test_sandbox_and_flag_messages_in_chinese(key, values, english, chinese):
    from playground.texts import msg, render

    values = {k: msg(v[0], **v[1]) if isinstance(v, tuple) else v for k, v in values.items()}
    message = msg(key, **values)
    assert str(message) == english  # the CLI and MCP read the English as before
    assert render("zh", message) == chinese


def test_a_card_its_defaults_cannot_build_shows_a_translated_text_not_the_engines_english():
    from playground.ui.rewards_tab import example_scores

    built_into_page = example_scores("reward_model", "", 8)
    assert "rewards.examples.needs_params" in built_into_page and "needs a model" not in built_into_page
    assert "**⚠ The reward_model reward needs a model" in example_scores("reward_model", "", 8, lang="en")


def test_what_load_sets_shows_the_completion_prefix_as_written():
    from playground.lessons import get_lesson
    from playground.ui.learn_tab import recipe_markdown

    text = recipe_markdown(get_lesson("format"), "en")
    assert "`completion_prefix='<intro>'`" in text and "&lt;" not in text
