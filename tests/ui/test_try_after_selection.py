"""Try on text after the selection changes: the table's columns follow the new selection, the warning names no
reward the visitor did not choose (a formula's inner term), and says what to type."""

import html

import gradio as gr
import pytest

from playground.lab.graders import import_grader
from playground.ui.context import AppContext
from playground.ui.rewards_tab import TRY_TEXT, rescore
from playground.ui.settings import UISettings
from tests.ui.test_grader_import import MULTI


KEY = {"en-US": ["total", "advantage"], "zh-CN": ["总分", "优势"]}  # key columns first (a phone shows them)


@pytest.fixture
def ctx(tmp_path):
    return AppContext.create(UISettings(runs=str(tmp_path)))


@pytest.mark.parametrize(
    ("lang", "needs"),
    [("en-US", "read the dataset column 'reference_answer'"), ("zh-CN", "要读取数据集列 'reference_answer'")],
)
def test_a_selection_that_needs_a_column_shows_its_columns_and_says_what_to_type(ctx, lang, needs):
    request = gr.Request(headers={"accept-language": lang})
    selection = import_grader(MULTI).selection  # one formula over string_check and a literal check
    table, details = rescore(ctx, request, None, TRY_TEXT, "", "", selection, "")
    details = html.unescape(details)  # as the browser reads the Markdown
    assert list(table.columns)[:4] == ["#", *KEY[lang], "formula"] and len(table) == 0  # no last selection's scores
    assert needs in details and '{"reference_answer": "…"}' in details
    assert "string_check" not in details  # the inner term is not what the visitor selected
    # with the column given, the same selection scores
    table, details = rescore(ctx, request, None, TRY_TEXT, "", '{"reference_answer": "x"}', selection, "")
    assert list(table.data.columns)[:4] == ["#", *KEY[lang], "formula"]
    assert len(table.data) == TRY_TEXT.count("---") + 1


def test_the_table_follows_a_changed_selection(ctx):
    request = gr.Request(headers={"accept-language": "en-US"})
    first, _ = rescore(ctx, request, None, TRY_TEXT, "", "", [{"name": "length", "weight": 1.0, "params": {}}], "")
    assert "length" in list(first.data.columns)  # the metric name the charts use
    selection = [{"name": "format", "weight": 1.0, "params": {}}, {"name": "tag_layout", "weight": 1.0, "params": {}}]
    table, _ = rescore(ctx, request, None, TRY_TEXT, "", "", selection, "")
    assert list(table.data.columns)[3:5] == ["format", "tag_layout"] and "length" not in list(table.data.columns)
