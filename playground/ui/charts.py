"""Training charts: native `gr.LinePlot`s fed from a run's logged metrics, under TRL's metric names."""

import math
from typing import Any

import gradio as gr
import pandas as pd


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
)
PER_FUNCTION = "rewards/{fn}/mean"
# The held-out eval curve (TRL's eval metric name, logged with its `step`): drawn on the reward chart as a second line.
EVAL_REWARD = "eval_reward"
SERIES = "series"  # the column naming the line on the reward chart: "reward" (training) or "eval_reward"
COLOURED: tuple[str | None, ...] = ("reward", None)  # charts with one line per series: recolour them after an update
PER_ROW = 4
# Line colours of the charts with one line per reward function or per run (Tableau 10).
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f")


def create_charts(height: int = 220) -> list[gr.LinePlot]:
    """The empty charts, laid out in rows; fill them with `chart_frames(metrics)`."""
    plots = []
    for start in range(0, len(CHARTS), PER_ROW):
        with gr.Row():
            for key in CHARTS[start : start + PER_ROW]:
                plots.append(
                    gr.LinePlot(
                        _typed([], SERIES) if key == "reward" else _frame([], key),
                        x="step",
                        y="value",
                        color="function" if key is None else SERIES if key == "reward" else None,
                        label=PER_FUNCTION.format(fn="<fn>") if key is None else key,
                        x_title="step",
                        y_title="",
                        height=height,
                        min_width=240,
                    )
                )
    return plots


def step_rows(metrics: list[dict]) -> list[dict]:
    """The per-step rows (TRL's final summary row has no `reward`)."""
    return [row for row in metrics if _number(row.get("reward")) is not None and _number(row.get("step")) is not None]


def chart_frames(metrics: list[dict]) -> list[pd.DataFrame]:
    rows = step_rows(metrics)
    return [reward_frame(metrics) if key == "reward" else _frame(rows, key) for key in CHARTS]


def eval_rows(metrics: list[dict]) -> list[dict]:
    """The held-out eval rows (`eval_reward`, `eval_rewards/<fn>/mean`, with the `step` they were scored at)."""
    return [
        row for row in metrics if _number(row.get(EVAL_REWARD)) is not None and _number(row.get("step")) is not None
    ]


def reward_frame(metrics: list[dict]) -> pd.DataFrame:
    """The training reward at every step and the eval reward at its points, one line each (column `series`)."""
    points = [(int(r["step"]), float(r["reward"]), "reward") for r in step_rows(metrics)]
    points += [(int(r["step"]), float(r[EVAL_REWARD]), EVAL_REWARD) for r in eval_rows(metrics)]
    return _typed(points, SERIES)


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
    if key is not None:
        return _typed([(int(r["step"]), v) for r in rows if (v := _number(r.get(key))) is not None])
    points = []
    for r in rows:
        for name, value in r.items():
            if name.startswith("rewards/") and name.endswith("/mean") and (v := _number(value)) is not None:
                points.append((int(r["step"]), v, name[len("rewards/") : -len("/mean")]))
    return _typed(points, "function")


def overlay_frame(runs: list[tuple[str, list[dict]]], key: str = "reward") -> pd.DataFrame:
    """One line per run of metric `key`, for comparing runs."""
    points = [
        (int(r["step"]), v, run_id)
        for run_id, metrics in runs
        for r in step_rows(metrics)
        if (v := _number(r.get(key))) is not None
    ]
    return _typed(points, "run")


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)
