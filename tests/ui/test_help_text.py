"""Help texts as the page renders them: tags in descriptions stay visible (code spans, not HTML), and info texts
carry no mark that Gradio's info renderer turns into italics."""

import re

import pytest

from playground.ui.help_zh import info_text, markdown_text
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
