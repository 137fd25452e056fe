"""Words the page uses for its own controls: a lesson names a button as the button reads, and one Chinese word does not
name two different things."""

import re

import pytest

from playground.lessons import LESSONS
from playground.ui.i18n import EN, ZH


@pytest.mark.parametrize("lang, table", [("en", EN), ("zh", ZH)])
def test_lessons_name_the_preview_button_as_it_reads(lang, table):
    button = table["preview.generate"]
    texts = [lesson.text[lang] for lesson in LESSONS]
    assert any(f"*{button}*" in text for text in texts)  # the groups lesson tells the visitor to press it
    labels = set(table.values())
    for text in texts:  # every control a lesson tells the visitor to press is named as the page shows it
        for name in re.findall(r"(?:press|点击)\s*\*([^*]+)\*", text):
            assert name in labels, name
    assert "Generate" not in labels  # so "press *Generate*" would fail above


def test_the_run_picker_and_the_train_tab_have_different_chinese_names():
    assert ZH["runs.run"] == ZH["compare.run"] == ZH["runs.tab"] == "训练记录"
    assert ZH["train.tab"] == "训练" and ZH["train.tab"] != ZH["compare.run"]


def test_no_text_says_rewards_barely_move():
    assert not [key for key, text in EN.items() if "barely move" in text]
    assert "barely move" not in EN["alert.dominant_reward"] and "{others}" in EN["alert.dominant_reward"]


def test_no_space_after_a_full_width_colon_on_the_chinese_page():
    """A bold Chinese label ends in "：" and its text follows at once ("**奖励：**`format`…", not "**奖励：** …")."""
    from playground.lessons import LESSONS
    from playground.ui.learn_tab import recipe_markdown
    from playground.ui.rewards_tab import selection_summary

    shown = [recipe_markdown(lesson, "zh") for lesson in LESSONS]
    shown.append(selection_summary([{"name": "format", "weight": 1.0, "params": {}}], "zh"))
    for text in shown:
        assert "：** " not in text and "：</strong> " not in text and "： " not in text, text
    assert "<strong>Rewards:</strong> " in recipe_markdown(LESSONS[0], "en")  # English keeps its space
