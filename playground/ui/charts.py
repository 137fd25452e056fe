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
)
PER_FUNCTION = "rewards/{fn}/mean"
PER_ROW = 3


def create_charts(height: int = 220) -> list[gr.LinePlot]:
    """The empty charts, laid out in rows; fill them with `chart_frames(metrics)`."""
    plots = []
    for start in range(0, len(CHARTS), PER_ROW):
        with gr.Row():
            for key in CHARTS[start : start + PER_ROW]:
                plots.append(
                    gr.LinePlot(
                        _frame([], key),
                        x="step",
                        y="value",
                        color="function" if key is None else None,
                        title=PER_FUNCTION.format(fn="<fn>") if key is None else key,
                        x_title="step",
                        y_title="",
                        height=height,
                        min_width=240,
                        show_label=False,
                    )
                )
    return plots


def step_rows(metrics: list[dict]) -> list[dict]:
    """The per-step rows (TRL's final summary row has no `reward`)."""
    return [row for row in metrics if _number(row.get("reward")) is not None and _number(row.get("step")) is not None]


def chart_frames(metrics: list[dict]) -> list[pd.DataFrame]:
    rows = step_rows(metrics)
    return [_frame(rows, key) for key in CHARTS]


def _frame(rows: list[dict], key: str | None) -> pd.DataFrame:
    if key is not None:
        points = [(int(r["step"]), v) for r in rows if (v := _number(r.get(key))) is not None]
        return pd.DataFrame(points, columns=["step", "value"])
    points = []
    for r in rows:
        for name, value in r.items():
            if name.startswith("rewards/") and name.endswith("/mean") and (v := _number(value)) is not None:
                points.append((int(r["step"]), v, name[len("rewards/") : -len("/mean")]))
    return pd.DataFrame(points, columns=["step", "value", "function"])


def overlay_frame(runs: list[tuple[str, list[dict]]], key: str = "reward") -> pd.DataFrame:
    """One line per run of metric `key`, for comparing runs."""
    points = [
        (int(r["step"]), v, run_id)
        for run_id, metrics in runs
        for r in step_rows(metrics)
        if (v := _number(r.get(key))) is not None
    ]
    return pd.DataFrame(points, columns=["step", "value", "run"])


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)
