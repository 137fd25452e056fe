"""A weight that is not a number (an empty library Weight, a custom reward's Weight typed as text) is refused by
name, in the summary at once and by Start and Score, never counted as 1."""

import html

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
