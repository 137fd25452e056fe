"""Tables and charts that fit their box: the Reward lab's tables in shares of their box, Try on text's completion in
what its numbers leave, the Learn chart's one-line title and one-series-a-line legend, and no empty chart or table
for a lesson without a reference run."""

import gradio as gr
import pandas as pd
import pytest

from playground.lessons import get_lesson
from playground.ui.charts import spec_of
from playground.ui.i18n import EN, ZH
from playground.ui.learn_tab import reference_views
from playground.ui.rewards_tab import fit_try_columns
from tests.ui.live_app import built_app


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    return built_app(str(tmp_path_factory.mktemp("runs"))).config


def dataframe(config, key: str) -> dict:
    (found,) = [c for c in config["components"] if c["type"] == "dataframe" and key in str(c["props"].get("label"))]
    return found["props"]


def percent(widths) -> list[int]:
    return [int(w.rstrip("%")) for w in widths]


@pytest.mark.parametrize(("key", "columns"), [("lab.prompts", 4), ("lab.probe.findings", 4)])
def test_the_lab_tables_share_their_box(config, key, columns):
    widths = percent(dataframe(config, key)["column_widths"])
    assert len(widths) == columns and sum(widths) <= 100
    assert min(widths) >= 10  # mean, std, no spread and score keep a readable share


def test_the_probes_why_has_the_widest_share(config):
    widths = percent(dataframe(config, "lab.probe.findings")["column_widths"])
    assert widths[3] == max(widths)


def test_try_on_texts_completion_takes_what_the_numbers_leave():
    frame = pd.DataFrame([[1, 0.5, 0.5, 0.7, "text"]], columns=["#", "length", "total", "advantage", "completion"])
    widths = fit_try_columns(gr.Request(headers={"accept-language": "en"}), frame).column_widths
    assert widths[:4] == ["auto"] * 4 and widths[4].endswith("%")
    assert 30 <= int(widths[4].rstrip("%")) <= 60  # in a 480-px side box, the four numbers take about half
    zh = pd.DataFrame([[1, 0.5, 0.5, 0.7, "文本"]], columns=["#", "length", "总分", "优势", "生成结果"])
    assert fit_try_columns(gr.Request(headers={"accept-language": "zh-CN"}), zh).column_widths[4].endswith("%")


def test_the_learn_chart_title_is_one_short_line_and_its_legend_one_series_a_line():
    assert len(EN["learn.ref.chart"]) <= 24 and len(ZH["learn.ref.chart"]) <= 12
    _, chart, _ = reference_views(get_lesson("format"), "en", live=[{"step": 0, "eval_rewards/format/mean": 0.1}])
    legend = spec_of(chart.value)["encoding"]["color"]["legend"]
    assert legend["columns"] == 1 and legend["direction"] == "vertical" and legend["labelLimit"] == 0


@pytest.mark.parametrize(("lesson", "shown"), [("groups", False), ("format", True), ("length", True)])
def test_a_lesson_without_a_reference_run_shows_no_empty_chart_or_table(lesson, shown):
    summary, chart, answers = reference_views(get_lesson(lesson), "en")
    assert chart.visible is shown and answers.visible is shown
    if not shown:
        assert EN["learn.ref.none"] in summary


def test_the_first_lesson_is_built_without_an_empty_chart_or_table(config):
    (curve,) = [c for c in config["components"] if "pg-reference-curve" in (c["props"].get("elem_classes") or [])]
    answers = dataframe(config, "learn.ref.answers")
    assert curve["props"]["visible"] is False and answers["visible"] is False
