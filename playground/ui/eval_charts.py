"""The held-out eval charts: one per reward of the run (and `sentence_rate` where the answers are in tags), each with
its value at every eval point (the base model, after the SFT warm-up, after each `eval_every` GRPO steps) and, for a
run of a lesson's recipe, the lesson's reference run beside it on the same chart.

The eval rows are TRL's eval names in metrics.jsonl (`eval_rewards/<fn>/mean`, with `step` and `eval_of`); the
reference's are `playground.lessons.reference`'s (`<fn>`, with `step` and `of`). The x axis is the eval point, in run
order: "base", "warm-up", then the GRPO steps (the base and the warmed-up model are both scored at step 0).
"""

import hashlib
import json

import gradio as gr
import pandas as pd

from playground.lessons.reference import Reference
from playground.training.health import metric_value
from playground.ui.charts import PALETTE, PLOT_HEIGHT, Y_AXIS_WIDTH, VegaPlot, y_labels
from playground.ui.i18n import t, tr


EVAL_SLOTS = 4  # eval charts on the page: a lesson has at most three rewards and one answer shape
EVAL_OUTPUTS = 1 + EVAL_SLOTS  # the caption above them, then the chart slots
SHAPES = ("sentence_rate",)  # answer shapes drawn beside the rewards, where the eval measured them
PREFIX, SUFFIX = "eval_rewards/", "/mean"
COLUMNS = {"order": "int64", "point": "str", "value": "float64", "series": "str"}


def eval_names(metrics: list[dict], reference: Reference | None) -> list[str]:
    """The charted metrics: the run's rewards as its eval rows name them (the reference's before the run's first
    eval), then the answer shapes either measured; at most `EVAL_SLOTS`."""
    names: dict[str, None] = {}
    for row in _run_rows(metrics):
        for key in row:
            if key.startswith(PREFIX) and key.endswith(SUFFIX):
                names[key[len(PREFIX) : -len(SUFFIX)]] = None
    ref_rows = reference.eval if reference is not None else []
    if not names:
        skip = {"step", "of", "eval_reward", "empty_section_rate", *SHAPES}
        names = {key: None for row in ref_rows for key in row if key not in skip}
    for shape in SHAPES:
        if any(shape in row for row in [*_run_rows(metrics), *ref_rows]):
            names[shape] = None
    return list(names)[:EVAL_SLOTS]


def _run_rows(metrics: list[dict]) -> list[dict]:
    return [r for r in metrics if r.get("phase") == "eval" and metric_value(r.get("step")) is not None]


def _point(of: str | None, step: int, lang: str) -> tuple[int, str]:
    """(sort order, label) of an eval point: the base model first, the warmed-up one next, then the GRPO steps."""
    if of == "base":
        return -2, tr(lang, "chart.eval.base")
    if of == "warmup":
        return -1, tr(lang, "chart.eval.warmup")
    return step, str(step)


def eval_frame(metrics: list[dict], reference: Reference | None, name: str, lang: str) -> pd.DataFrame:
    """One metric's points: (order, point label, value, series), the run's and the reference's."""
    points = []
    key = name if name in SHAPES else f"{PREFIX}{name}{SUFFIX}"
    for row in _run_rows(metrics):
        if (value := metric_value(row.get(key))) is not None:
            points.append((*_point(row.get("eval_of"), int(row["step"]), lang), value, tr(lang, "chart.eval.run")))
    for row in reference.eval if reference is not None else []:
        if (value := metric_value(row.get(name))) is not None:
            step = int(metric_value(row.get("step")) or 0)
            points.append((*_point(row.get("of"), step, lang), value, tr(lang, "chart.eval.reference")))
    return pd.DataFrame(points, columns=list(COLUMNS)).astype(COLUMNS)


def eval_spec(frame: pd.DataFrame, lang: str) -> dict:
    """The Vega-Lite spec of one eval chart: the eval points in run order on x, a line (with its points: a run with
    one eval so far shows it) per series, the run's in the first colour, the reference's in the second.

    x is each point's place in `order` (0, 1, ...), evenly spaced and labelled with the point's name, on a
    quantitative scale: a discrete (ordinal) x keeps the width it had when drawn, and a chart redrawn on a hidden tab
    (zero wide) stayed a sliver once the tab was shown; a quantitative one follows the page (autosize `fit-x`)."""
    order = frame.sort_values("order").drop_duplicates("point")["point"].tolist()
    place = {point: i for i, point in enumerate(order)}
    records = [row | {"x": place[row["point"]]} for row in json.loads(frame.to_json(orient="records"))]
    labels = json.dumps(order, ensure_ascii=False)
    names = [tr(lang, "chart.eval.run"), tr(lang, "chart.eval.reference")]
    x_title, y_title, legend = tr(lang, "chart.eval.x"), tr(lang, "chart.eval.y"), tr(lang, "chart.series.series")
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "height": PLOT_HEIGHT,
        "autosize": {"type": "fit-x", "contains": "padding"},
        "background": "transparent",
        "padding": {"left": 4, "right": 16, "top": 32, "bottom": 4},
        "usermeta": {"embedOptions": {"renderer": "svg", "actions": False}},
        "data": {"values": records},
        "mark": {"type": "line", "point": {"size": 40, "filled": True}, "strokeWidth": 2},
        "encoding": {
            "x": {
                "field": "x",
                "type": "quantitative",
                "title": x_title,
                # half a place of margin either side, as a band scale has: no point on the plot's edge
                "scale": {"domain": [-0.5, len(order) - 0.5], "nice": False, "zero": False},
                "axis": {
                    "values": list(range(len(order))),
                    "labelExpr": f"{labels}[datum.value] || ''",
                    "labelAngle": 0,
                    "grid": False,
                },
            },
            "y": {
                "field": "value",
                "type": "quantitative",
                "title": y_title,
                "scale": {"zero": False, "padding": 6},
                "axis": {**y_labels(frame["value"].tolist()), "minExtent": Y_AXIS_WIDTH, "maxExtent": Y_AXIS_WIDTH},
            },
            "color": {
                "field": "series",
                "type": "nominal",
                "title": legend,
                "scale": {"domain": names, "range": list(PALETTE[:2])},
                "legend": {"orient": "bottom", "direction": "horizontal"} if not frame.empty else None,
            },
            "strokeDash": {
                "field": "series",
                "type": "nominal",
                "scale": {"domain": names, "range": [[1, 0], [5, 3]]},  # the reference dashed
                "legend": None,
            },
            "tooltip": [
                {"field": "series", "type": "nominal", "title": legend},
                {"field": "point", "type": "ordinal", "title": x_title},
                {"field": "value", "type": "quantitative", "title": y_title, "format": ".4~g"},
            ],
        },
    }


def eval_key(metrics: list[dict], reference: Reference | None, lang: str) -> str:
    """What the eval charts draw (the run's eval rows, the reference, the language): a view re-sends them only when
    this changes. Re-sending the same chart redrew it squeezed to a sliver at the left of its column (Gradio's Plot
    reuses the spec it already drew); a step logged without a new eval point changes nothing here."""
    drawn = [_run_rows(metrics), reference.eval if reference is not None else None, lang]
    return hashlib.sha1(json.dumps(drawn, sort_keys=True, default=str).encode()).hexdigest()[:12]


def eval_chart_updates(metrics: list[dict], reference: Reference | None, lang: str) -> list:
    """The caption, shown only above at least one chart, then every eval slot: a chart titled with its metric, or
    hidden when the run has fewer metrics to chart (`EVAL_OUTPUTS` updates)."""
    names = eval_names(metrics, reference)
    updates: list = [gr.Markdown(tr(lang, "chart.eval.caption"), visible=bool(names))]
    for slot in range(EVAL_SLOTS):
        if slot >= len(names):
            updates.append(gr.Plot(None, visible=False))
            continue
        frame = eval_frame(metrics, reference, names[slot], lang)
        label = tr(lang, "chart.eval.title", metric=names[slot])
        updates.append(gr.Plot(VegaPlot(plot=json.dumps(eval_spec(frame, lang))), label=label, visible=True))
    return updates


def create_eval_charts() -> list:
    """The eval charts' caption and slots (hidden until a run has eval points or a reference), two a row: the
    `EVAL_OUTPUTS` components that `eval_chart_updates` fills."""
    plots: list = [gr.Markdown(t("chart.eval.caption"), visible=False, elem_classes="pg-chart-caption")]
    for start in range(0, EVAL_SLOTS, 2):
        with gr.Row(equal_height=False):
            for _ in range(start, min(start + 2, EVAL_SLOTS)):
                with gr.Column(min_width=280, elem_classes="pg-optional-chart"):
                    plots.append(gr.Plot(None, label=t("chart.eval.label"), visible=False, elem_classes="pg-chart"))
    return plots
