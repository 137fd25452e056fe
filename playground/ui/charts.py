"""Training charts: `gr.Plot`s of Vega-Lite specs built here from a run's logged metrics, under TRL's metric names.

Gradio's `LinePlot` cannot ask for whole-number ticks (its "d" format prints "0 1 1 2 2" for ticks at 0, 0.5, 1, ...)
nor give every chart the same axis width, so each chart is its own small Vega-Lite spec (`vega_chart`): steps ticked
at whole numbers only (`tickMinStep`), y labels without float noise, a fixed plot height and y-axis width so that the
charts of a row line up, and a colour per line fixed in the spec.
"""

import json
from collections import Counter
from typing import Literal

import gradio as gr
import pandas as pd
from gradio.components.plot import PlotData

from playground.training.health import metric_value
from playground.ui.i18n import t, tr


# One chart per metric, in page order; None marks the chart of every reward function's mean (one line each).
CHARTS: tuple[str | None, ...] = (
    "reward",
    None,
    "reward_std",
    "frac_reward_zero_std",
    "kl",
    "loss",
    "completions/mean_length",
    "completions/clipped_ratio",  # completions cut at max_completion_length (the "clipped" health alert)
    "sampling/importance_sampling_ratio/mean",  # TRL's correction of a bf16 or int8 rollout (fast_rollout)
)
PER_FUNCTION = "rewards/{fn}/mean"
# Charts shown only once their metric is logged (the bf16 rollout's correction): hidden with their caption (app CSS).
ONLY_WITH_DATA = ("sampling/importance_sampling_ratio/mean",)
# The held-out eval curve (TRL's eval metric name, logged with its `step`): drawn on the reward chart as a second line.
EVAL_REWARD = "eval_reward"
WARMUP_LOSS = "warmup/loss"  # the SFT warm-up's loss (TRL's SFT `loss`, as the job logs it under `warmup/`)
FUNCTION = "function"  # the column naming the line on the other charts: the reward function, or the metric itself
SERIES = "series"  # the column naming the line on the reward chart: "reward" (training) or "eval_reward"
PER_ROW = 2  # two charts a row: each about 600 px wide on a 1280 px screen
# Line colours, one per series in order of appearance (Tableau 10).
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f")
PLOT_HEIGHT = 200  # px of the plotting area; the legend goes below it, so plot areas of a row have the same height
MAX_TICKS = 8  # x ticks a chart shows at most: room for three-digit steps on a phone
Y_AXIS_WIDTH = 56  # px for the y labels and title on every chart: plot areas of a row start at the same x


# Per chart: the key of its texts in i18n.py (`chart.<slug>.title`, `.y`, `.caption`), by TRL metric name.
SLUGS: dict[str | None, str] = {
    "reward": "reward",
    None: "per_function",
    "reward_std": "reward_std",
    "frac_reward_zero_std": "zero_std",
    "kl": "kl",
    "loss": "loss",
    "completions/mean_length": "mean_length",
    "completions/clipped_ratio": "clipped",
    "sampling/importance_sampling_ratio/mean": "is_ratio",
}


def axis_titles(slug: str, lang: str, color: str | None) -> dict:
    """A chart's axis and legend titles in `lang`: y with its unit (tokens, fractions, ...), x in steps. Built into
    each data update: the page is built once for every language, and the browser translates only whole labels."""
    titles = dict(x_title=tr(lang, "chart.step"), y_title=tr(lang, f"chart.{slug}.y"))
    return titles | ({"color_title": tr(lang, f"chart.series.{color}")} if color else {})


def vega_spec(frame: pd.DataFrame, color: str, x_title: str, y_title: str, color_title: str) -> dict:
    """The Vega-Lite spec of one chart: a line per value of column `color`, whole-number steps on x.

    The x ticks are whole steps (`step_ticks`); y labels are rounded to the tick step's digits (`y_format`);
    `minExtent`/`maxExtent` give every y axis the
    same width and the fixed `height` every plot area the same height (autosize `fit-x`: the width follows the page,
    the legend adds height below).
    """
    names = list(dict.fromkeys(frame[color])) if not frame.empty else []
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "height": PLOT_HEIGHT,
        "autosize": {"type": "fit-x", "contains": "padding"},
        "background": "transparent",
        "padding": {"left": 4, "right": 12, "top": 32, "bottom": 4},  # the top clears the chart's title
        # SVG (its tick labels are text a test or a screen reader can read) and no export menu
        "usermeta": {"embedOptions": {"renderer": "svg", "actions": False}},
        "data": {"values": json.loads(frame.to_json(orient="records"))},
        # clipped to the plot area, so that a point on its edge does not push one chart's plot area below another's
        "mark": {"type": "line", "point": {"size": 24}, "strokeWidth": 2, "clip": True},
        "encoding": {
            "x": {
                "field": "step",
                "type": "quantitative",
                "title": x_title,
                # padded like the y scale: a point at the last step sat on the clipped edge, half drawn
                "scale": {"zero": False, "nice": False, "padding": 8},
                "axis": {"format": "d", "values": step_ticks(frame["step"].tolist()), "labelFlush": True},
            },
            "y": {
                "field": "value",
                "type": "quantitative",
                "title": y_title,
                "scale": {"zero": False, "padding": 6},
                "axis": {
                    **y_labels(frame["value"].tolist()),
                    "minExtent": Y_AXIS_WIDTH,
                    "maxExtent": Y_AXIS_WIDTH,
                    "labelFlush": True,
                },
            },
            "color": {
                "field": color,
                "type": "nominal",
                "title": color_title,
                "scale": {"domain": names, "range": [PALETTE[i % len(PALETTE)] for i in range(max(len(names), 1))]},
                # no legend on an empty chart: a legend title over nothing
                "legend": {"orient": "bottom", "direction": "horizontal", "labelLimit": 220} if names else None,
            },
            "tooltip": [
                {"field": color, "type": "nominal", "title": color_title},
                {"field": "step", "type": "quantitative", "title": x_title, "format": "d"},
                {"field": "value", "type": "quantitative", "title": y_title, "format": ".4~g"},
            ],
        },
    }


def y_labels(values: list[float]) -> dict:
    """How a chart's y labels read: rounded to the tick step's digits without trailing zeros or exponents ("0.5",
    "-40", "0", not "0.500000" or "-4e+1"); in powers of ten for values all below 0.001 ("1.2e-5", not "0.000012",
    which does not fit the axis; 0 stays "0"); with SI prefixes from 100,000 ("250k")."""
    top = max((abs(v) for v in values), default=0.0)
    if 0 < top < 1e-3:
        return {"labelExpr": "datum.value == 0 ? '0' : format(datum.value, '.2~e')"}
    return {"format": "~s" if top >= 1e5 else "~r"}


def step_ticks(steps: list[int], most: int = MAX_TICKS) -> list[int]:
    """Whole-number ticks over `steps`, at most `most` of them, 1, 2 or 5 times a power of ten apart.

    Vega picks its own ticks (0.5 apart over 1..3, however `tickMinStep` is set) and a "d" format then prints
    "1 2 2 3 3", so the ticks are given.
    >>> step_ticks([1, 2, 3]), step_ticks(list(range(0, 201)))
    ([1, 2, 3], [0, 50, 100, 150, 200])
    """
    if not steps:
        return []
    low, high = min(steps), max(steps)
    scale = 1
    while True:
        for factor in (1, 2, 5):
            gap = factor * scale
            if (high - low) // gap + 1 <= most:
                start = -(-low // gap) * gap  # the first multiple of gap at or after low
                return list(range(start, high + 1, gap))
        scale *= 10


class VegaPlot(PlotData):
    """A `gr.Plot` value holding a Vega-Lite spec. Its `chart` (none of Gradio's "bar", "line", "scatter") makes the
    browser fit the chart to its column's width and apply the theme's fonts and colours, and leaves the spec's line
    colours as they are."""

    type: Literal["altair"] = "altair"
    chart: str = "vega"


def vega_chart(frame: pd.DataFrame, slug: str, color: str, lang: str, legend: str) -> VegaPlot:
    """One chart's value for a `gr.Plot`, titled in `lang` (see `vega_spec`)."""
    titles = axis_titles(slug, lang, legend)
    spec = vega_spec(frame, color, titles["x_title"], titles["y_title"], titles["color_title"])
    if slug == "lesson" and spec["encoding"]["color"]["legend"]:
        # one series a line: side by side, "tag_layout · your run" was cut at a phone's width
        spec["encoding"]["color"]["legend"] |= {"direction": "vertical", "columns": 1, "labelLimit": 0}
    return VegaPlot(plot=json.dumps(spec))


def spec_of(value) -> dict:
    """The Vega-Lite spec inside a chart's value (a `PlotData`, or its JSON from the API)."""
    plot = value.plot if isinstance(value, PlotData) else (value or {}).get("plot")
    return json.loads(plot) if plot else {}


def chart_plot(value: VegaPlot, slug: str, visible: bool = True) -> gr.Plot:
    """One chart, titled in the page's language with what it measures (its TRL metric name is the y title until data
    comes, then its unit)."""
    return gr.Plot(value, label=t(f"chart.{slug}.title"), min_width=280, visible=visible, elem_classes="pg-chart")


def create_charts() -> list[gr.Plot]:
    """The empty charts, two a row, each with a caption (what it measures, which way is good); fill them with
    `chart_updates(metrics, lang)`."""
    plots = []
    for start in range(0, len(CHARTS), PER_ROW):
        # Not equal_height: that stretched the chart above a shorter caption and centred its plot lower than its
        # neighbour's. Each chart keeps its own height (the same for all), its caption follows.
        with gr.Row(equal_height=False):
            for key in CHARTS[start : start + PER_ROW]:
                optional = key in ONLY_WITH_DATA
                with gr.Column(min_width=280, elem_classes="pg-optional-chart" if optional else None):
                    empty = vega_chart(_empty(key), SLUGS[key], _color(key), "en", _legend(key))
                    plots.append(chart_plot(empty, SLUGS[key], visible=not optional))
                    gr.Markdown(t(f"chart.{SLUGS[key]}.caption"), elem_classes="pg-chart-caption")
    return plots


def _empty(key: str | None) -> pd.DataFrame:
    return _typed([], SERIES) if key == "reward" else _frame([], key)


def _color(key: str | None) -> str:
    return SERIES if key == "reward" else FUNCTION


def _legend(key: str | None) -> str:
    """What a chart's lines are: curves (reward and eval_reward), reward functions, or the one metric."""
    return "series" if key == "reward" else "function" if key is None else "metric"


def chart_updates(metrics: list[dict], lang: str) -> list[gr.Plot]:
    """Every chart's data, with its axis and legend titles in `lang`; the bf16 rollout's chart only when logged. A
    chart still empty once steps are logged says so under its plot (`not_logged`)."""
    logged = bool(step_rows(metrics))
    plots = []
    for key, frame in zip(CHARTS, chart_frames(metrics), strict=True):
        value = vega_chart(frame, SLUGS[key], _color(key), lang, _legend(key))
        if logged and frame.empty and key not in ONLY_WITH_DATA:
            value = not_logged(value, key, lang)
        plots.append(gr.Plot(value, **({"visible": not frame.empty} if key in ONLY_WITH_DATA else {})))
    return plots


def not_logged(value: VegaPlot, key: str | None, lang: str) -> VegaPlot:
    """An empty chart's x title says that the run logs no such value (TRL logs `kl` only when beta > 0)."""
    spec = spec_of(value)
    note = "chart.kl.not_logged" if key == "kl" else "chart.not_logged"
    spec["encoding"]["x"]["title"] = tr(lang, note, metric=key or "rewards/<fn>/mean")
    return VegaPlot(plot=json.dumps(spec))


def step_rows(metrics: list[dict]) -> list[dict]:
    """The per-step rows (TRL's final summary row has no `reward`)."""
    return [
        row
        for row in metrics
        if metric_value(row.get("reward")) is not None and metric_value(row.get("step")) is not None
    ]


def chart_frames(metrics: list[dict]) -> list[pd.DataFrame]:
    rows = step_rows(metrics)
    frames = {key: reward_frame(metrics) if key == "reward" else _frame(rows, key) for key in CHARTS}
    frames["loss"] = loss_frame(metrics, rows)
    return [frames[key] for key in CHARTS]


def loss_frame(metrics: list[dict], rows: list[dict]) -> pd.DataFrame:
    """GRPO's `loss` per step, and before it the SFT warm-up's (`warmup/loss`, at its own steps): drawn while the
    warm-up runs, so the page shows a moving chart from its first minutes."""
    warmup = [
        (int(r["step"]), v, WARMUP_LOSS)
        for r in metrics
        if r.get("phase") == "warmup" and (v := metric_value(r.get(WARMUP_LOSS))) is not None
        if metric_value(r.get("step")) is not None
    ]
    grpo = [(int(r["step"]), v, "loss") for r in rows if (v := metric_value(r.get("loss"))) is not None]
    return _typed(_drawable(warmup + grpo), FUNCTION)


def eval_rows(metrics: list[dict]) -> list[dict]:
    """The held-out eval rows (`eval_reward`, `eval_rewards/<fn>/mean`, with the `step` they were scored at)."""
    return [
        row
        for row in metrics
        if metric_value(row.get(EVAL_REWARD)) is not None and metric_value(row.get("step")) is not None
    ]


def reward_frame(metrics: list[dict]) -> pd.DataFrame:
    """The training reward at every step and the eval reward at its points, one line each (column `series`)."""
    points = [(int(r["step"]), float(r["reward"]), "reward") for r in step_rows(metrics)]
    # One eval point per step: at step 0 the warm-up's eval replaces the base model's (two points at one step would
    # draw a vertical line); the Compare tab and the alerts read both.
    latest = {int(r["step"]): float(r[EVAL_REWARD]) for r in eval_rows(metrics)}
    points += [(step, value, EVAL_REWARD) for step, value in latest.items()]
    return _typed(_drawable(points), SERIES)


def _typed(points: list[tuple], series: str | None = None) -> pd.DataFrame:
    """Typed columns even when empty: the browser fixes a chart's scales from the first value it gets, and an
    untyped empty frame would make both axes discrete for good."""
    columns = {"step": "int64", "value": "float64"} | ({series: "str"} if series else {})
    frame = pd.DataFrame(points, columns=list(columns))
    return frame.astype(columns)


def _frame(rows: list[dict], key: str | None) -> pd.DataFrame:
    """One chart's points: (step, value, line name). Every chart names its line(s), so each has a legend; a line of a
    single point is left out until its second point (a lone point draws no line, only an empty crosshair)."""
    if key is not None:
        points = [(int(r["step"]), v, key) for r in rows if (v := metric_value(r.get(key))) is not None]
        return _typed(_drawable(points), FUNCTION)
    points = []
    for r in rows:
        for name, value in r.items():
            if name.startswith("rewards/") and name.endswith("/mean") and (v := metric_value(value)) is not None:
                points.append((int(r["step"]), v, name[len("rewards/") : -len("/mean")]))
    return _typed(_drawable(points), FUNCTION)


def _drawable(points: list[tuple]) -> list[tuple]:
    """The points of the lines that have at least two."""
    counts = Counter(point[-1] for point in points)
    return [point for point in points if counts[point[-1]] >= 2]


def overlay_frame(runs: list[tuple[str, list[dict]]], key: str = "reward") -> pd.DataFrame:
    """One line per run of metric `key`, for comparing runs."""
    points = [
        (int(r["step"]), v, run_id)
        for run_id, metrics in runs
        for r in step_rows(metrics)
        if (v := metric_value(r.get(key))) is not None
    ]
    return _typed(_drawable(points), "run")


def create_overlay() -> gr.Plot:
    """The Runs tab's chart of several runs' rewards, one line per run; its caption follows it."""
    with gr.Column():
        plot = chart_plot(vega_chart(overlay_frame([]), "overlay", "run", "en", "run"), "overlay")
        gr.Markdown(t("chart.overlay.caption"), elem_classes="pg-chart-caption")
    return plot


def overlay_update(runs: list[tuple[str, list[dict]]], lang: str) -> gr.Plot:
    return gr.Plot(vega_chart(overlay_frame(runs), "overlay", "run", lang, "run"))
