"""Training charts: native `gr.LinePlot`s fed from a run's logged metrics, under TRL's metric names."""

from collections import Counter

import gradio as gr
import pandas as pd

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
    "sampling/importance_sampling_ratio/mean",  # TRL's correction of the bf16 rollout (fast_rollout=bfloat16 only)
)
PER_FUNCTION = "rewards/{fn}/mean"
# Charts shown only once their metric is logged (the bf16 rollout's correction): hidden with their caption (app CSS).
ONLY_WITH_DATA = ("sampling/importance_sampling_ratio/mean",)
# The held-out eval curve (TRL's eval metric name, logged with its `step`): drawn on the reward chart as a second line.
EVAL_REWARD = "eval_reward"
FUNCTION = "function"  # the column naming the line on the other charts: the reward function, or the metric itself
SERIES = "series"  # the column naming the line on the reward chart: "reward" (training) or "eval_reward"
COLOURED: tuple[str | None, ...] = CHARTS  # every chart names its lines: recolour each after an update
PER_ROW = 4
# Line colours of the charts with one line per reward function or per run (Tableau 10).
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f")


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
    """A chart's axis and legend titles in `lang`: y with its unit (tokens, fractions, ...), x in steps. Sent with each
    data update: the page is built once for every language, and the browser translates only whole labels."""
    titles = dict(x_title=tr(lang, "chart.step"), y_title=tr(lang, f"chart.{slug}.y"))
    return titles | ({"color_title": tr(lang, f"chart.series.{color}")} if color else {})


def line_plot(
    value: pd.DataFrame, slug: str, color: str, metric: str, height: int | None = None, visible: bool = True
) -> gr.LinePlot:
    """One chart, titled in the page's language with its TRL metric name; whole-number steps on x; a legend that
    names each line (reward function, run, metric). Until data comes the axes carry the TRL names only."""
    return gr.LinePlot(
        value,
        x="step",
        y="value",
        color=color,
        label=t(f"chart.{slug}.title"),
        x_title="step",
        y_title=metric,
        color_title=metric,
        x_axis_format="d",  # steps are whole numbers: no 1.2, 1.4 ticks
        height=height,
        min_width=280,
        visible=visible,
    )


def create_charts(height: int | None = None) -> list[gr.LinePlot]:
    """The empty charts, laid out in rows, each with a caption (what it measures, which way is good); fill them with
    `chart_updates(metrics, lang)`."""
    plots = []
    for start in range(0, len(CHARTS), PER_ROW):
        with gr.Row(equal_height=True):
            for key in CHARTS[start : start + PER_ROW]:
                empty = _typed([], SERIES) if key == "reward" else _frame([], key)
                optional = key in ONLY_WITH_DATA
                with gr.Column(min_width=280, elem_classes="pg-optional-chart" if optional else None):
                    plots.append(line_plot(empty, SLUGS[key], _color(key), _metric(key), height, visible=not optional))
                    gr.Markdown(t(f"chart.{SLUGS[key]}.caption"), elem_classes="pg-chart-caption")
    return plots


def _color(key: str | None) -> str:
    return SERIES if key == "reward" else FUNCTION


def _legend(key: str | None) -> str:
    """What a chart's lines are: curves (reward and eval_reward), reward functions, or the one metric."""
    return "series" if key == "reward" else "function" if key is None else "metric"


def _metric(key: str | None) -> str:
    return PER_FUNCTION.format(fn="<fn>") if key is None else key


def chart_updates(metrics: list[dict], lang: str) -> list[gr.LinePlot]:
    """Every chart's data, with its axis and legend titles in `lang`."""
    return [
        gr.LinePlot(
            frame,
            **axis_titles(SLUGS[key], lang, _legend(key)),
            **({"visible": not frame.empty} if key in ONLY_WITH_DATA else {}),
        )
        for key, frame in zip(CHARTS, chart_frames(metrics), strict=True)
    ]


def step_rows(metrics: list[dict]) -> list[dict]:
    """The per-step rows (TRL's final summary row has no `reward`)."""
    return [
        row
        for row in metrics
        if metric_value(row.get("reward")) is not None and metric_value(row.get("step")) is not None
    ]


def chart_frames(metrics: list[dict]) -> list[pd.DataFrame]:
    rows = step_rows(metrics)
    return [reward_frame(metrics) if key == "reward" else _frame(rows, key) for key in CHARTS]


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


def coloured(plots: list[gr.LinePlot]) -> list[gr.LinePlot]:
    """The charts among `plots` (laid out by `create_charts`) that draw one line per series."""
    return [plots[CHARTS.index(key)] for key in COLOURED]


def recolour_all(*plots) -> list:
    """`recolour` for several charts in one event."""
    return [recolour(plot) for plot in plots]


def recolour(plot) -> gr.LinePlot:
    """Give a chart with one line per series (its last column) a colour per series, in a second event.

    The browser builds a chart's colour scale from the series it holds when it (re)builds the chart, and rebuilds it
    when `color_map` changes, but not when only the data changes; and a `color_map` sent with the data is applied
    before the data. So each data update is followed by this one (cheap: nothing is redrawn while the map is the same).
    """
    data = plot.get("data") if isinstance(plot, dict) else getattr(plot, "data", None)
    if not data:
        return gr.skip()
    names = list(dict.fromkeys(row[-1] for row in data))
    return gr.LinePlot(color_map={name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)})


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


def create_overlay(height: int | None = None) -> gr.LinePlot:
    """The Runs tab's chart of several runs' rewards, one line per run; its caption follows it."""
    with gr.Column():
        plot = line_plot(overlay_frame([]), "overlay", "run", "reward", height)
        gr.Markdown(t("chart.overlay.caption"), elem_classes="pg-chart-caption")
    return plot


def overlay_update(runs: list[tuple[str, list[dict]]], lang: str) -> gr.LinePlot:
    return gr.LinePlot(overlay_frame(runs), **axis_titles("overlay", lang, "run"))
