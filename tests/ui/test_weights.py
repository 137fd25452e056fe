"""A weight that is not a number (an empty library Weight, a custom reward's Weight typed as text) is refused by
name, in the summary at once and by Start and Score, never counted as 1."""

import html
import json

import pandas as pd
import pytest

from playground.errors import PlaygroundError
from playground.texts import render
from playground.ui.context import parse_selection
from playground.ui.custom_code import custom_selection
from playground.ui.rewards_tab import collect_selection
from rewards.registry import get_spec


LENGTH = ("length", tuple(p.name for p in get_spec("length").params))


def card_values(weight) -> list:
    return [True, weight, *(get_spec("length").defaults()[name] for name in LENGTH[1])]


def test_an_empty_library_weight_is_refused_by_name():
    selection, summary, _ = collect_selection((LENGTH,), None, None, *card_values(None))
    assert selection[0]["weight"] == ""
    assert "The weight of 'length' is empty" in html.unescape(summary)
    with pytest.raises(PlaygroundError) as refused:
        parse_selection(selection)
    assert render("zh", refused.value).startswith("'length' 的权重是空的")


def test_a_custom_weight_typed_as_text_is_refused_by_name():
    table = pd.DataFrame([[True, "short_answer", "abc"]], columns=["use", "function", "weight"])
    assert custom_selection(table) == [{"name": "short_answer", "weight": "abc", "params": {}}]
    selection, summary, _ = collect_selection((LENGTH,), None, table, *card_values(2))
    summary = html.unescape(summary)
    assert "Weight of 'short_answer' must be a number, got 'abc'." in summary and "× 2" in summary
    with pytest.raises(PlaygroundError, match="short_answer"):
        parse_selection(selection)


@pytest.mark.parametrize(("item", "weight"), [({"name": "length"}, 1.0), ({"name": "length", "weight": "0.5"}, 0.5)])
def test_a_missing_weight_is_one_and_a_number_in_text_is_read(item, weight):
    assert parse_selection([item])[0].weight == weight


def test_an_empty_weight_reads_as_no_weight_not_a_quoted_empty_string():
    _, summary, _ = collect_selection((LENGTH,), None, None, *card_values(None))
    assert "× ⚠ no weight" in summary and "⚠ ''" not in html.unescape(summary)


@pytest.mark.parametrize(
    ("weight", "english", "chinese"),
    [
        (-1, "The weight of 'length' is -1: below 0 it is a penalty", "'length' 的权重是 -1：小于 0 就成了惩罚"),
        (1e9, "The weight of 'length' is 1e+09: above 1000 it drowns the other rewards", "超过 1000 会淹没其他奖励"),
    ],
)
def test_a_negative_or_huge_weight_is_said_beside_the_selection_and_still_accepted(weight, english, chinese):
    from playground.ui.context import weight_warning

    selection, summary, _ = collect_selection((LENGTH,), None, None, *card_values(weight))
    assert english in html.unescape(summary)
    assert chinese in render("zh", weight_warning(selection[0]))
    assert [c.weight for c in parse_selection(selection)] == [weight]  # a warning, not a refusal
    assert weight_warning({"name": "length", "weight": 2.0}) is None


def test_cards_read_again_into_the_same_selection_leave_the_json_box_alone():
    """The page's load re-reads the cards; a visitor typing in the JSON box by then keeps their text."""
    import gradio as gr

    from playground.ui.rewards_tab import refresh_selection

    selection, _, text = collect_selection((LENGTH,), None, None, *card_values(1))
    same, summary, box = refresh_selection((LENGTH,), None, selection, None, *card_values(1))
    assert same == gr.skip() and box == gr.skip() and "length" in summary
    changed, _, box = refresh_selection((LENGTH,), None, selection, None, *card_values(2))
    assert changed[0]["weight"] == 2 and json.loads(box) == changed and box != text
