"""The training charts: titled in the page's language with TRL's metric names, y axes with units, whole
steps on x, a named line for every series, a caption each, and no lone point drawn as an empty crosshair."""

import gradio as gr
import pytest

from playground.ui.charts import (
    CHARTS,
    PALETTE,
    SLUGS,
    chart_frames,
    chart_updates,
    create_charts,
    overlay_update,
    spec_of,
    step_ticks,
    y_labels,
)
from playground.ui.i18n import EN, ZH


def rows(steps: int) -> list[dict]:
    return [
        {
            "step": s,
            "reward": -40.0 + s,
            "rewards/length/mean": -40.0 + s,
            "rewards/format/mean": 0.5,
            "completions/mean_length": 30.0 + s,
            "kl": 0.01 * s,
        }
        for s in range(1, steps + 1)
    ]


def test_every_chart_has_a_title_unit_and_caption_in_both_languages():
    for slug in SLUGS.values():
        for part in ("title", "y", "caption"):
            key = f"chart.{slug}.{part}"
            assert EN[key] and ZH[key] and EN[key] != ZH[key], key
    assert EN["chart.mean_length.y"] == "tokens" and "characters" in EN["chart.mean_length.caption"]
    assert "tokens" not in EN["chart.reward.y"]


def test_charts_are_built_with_whole_steps_titles_and_captions():
    with gr.Blocks() as demo:
        plots = create_charts()
    assert len(plots) == len(CHARTS)
    assert {spec_of(p.value)["encoding"]["x"]["axis"]["format"] for p in plots} == {"d"}
    assert [p.label.key for p in plots] == [f"chart.{SLUGS[k]}.title" for k in CHARTS]
    blocks = demo.blocks.values()
    captions = [b.value for b in blocks if "pg-chart-caption" in (getattr(b, "elem_classes", None) or [])]
    assert len(captions) == len(CHARTS)


def test_a_lone_point_is_not_drawn_and_two_are():
    assert all(frame.empty for frame in chart_frames(rows(1)))
    frames = dict(zip(CHARTS, chart_frames(rows(2)), strict=True))
    assert frames["kl"]["step"].tolist() == [1, 2] and set(frames["kl"]["function"]) == {"kl"}
    assert sorted(set(frames[None]["function"])) == ["format", "length"]  # one named line per reward function
    assert frames["reward"]["step"].dtype.kind == "i"


def test_updates_carry_axis_and_legend_titles_in_the_page_language():
    updates = {key: spec_of(u.value) for key, u in zip(CHARTS, chart_updates(rows(3), "zh"), strict=True)}
    length = updates["completions/mean_length"]["encoding"]
    assert length["y"]["title"] == "token 数" and length["x"]["title"] == ZH["chart.step"]
    assert updates[None]["encoding"]["color"]["title"] == "奖励函数"
    assert updates["kl"]["encoding"]["color"]["title"] == "指标"
    assert len(updates["completions/mean_length"]["data"]["values"]) == 3
    overlay = spec_of(overlay_update([("run-a", rows(2)), ("run-b", rows(3))], "en").value)
    assert overlay["encoding"]["color"]["title"] == "run"
    assert overlay["encoding"]["y"]["title"] == EN["chart.overlay.y"]
    assert sorted({row["run"] for row in overlay["data"]["values"]}) == ["run-a", "run-b"]


@pytest.mark.parametrize(
    ("steps", "ticks"),
    [
        ([1, 2, 3], [1, 2, 3]),
        ([0, 1, 2], [0, 1, 2]),
        ([4], [4]),
        (list(range(1, 10)), [2, 4, 6, 8]),
        (list(range(5, 13)), [5, 6, 7, 8, 9, 10, 11, 12]),
        (list(range(0, 201)), [0, 50, 100, 150, 200]),
        ([], []),
    ],
)
def test_step_ticks_are_whole_numbers_and_few(steps, ticks):
    assert step_ticks(steps) == ticks


def test_a_chart_spec_ticks_whole_steps_and_colours_each_line():
    spec = spec_of(chart_updates(rows(3), "en")[CHARTS.index(None)].value)
    x, y, color = (spec["encoding"][k] for k in ("x", "y", "color"))
    assert x["axis"]["values"] == [1, 2, 3] and x["axis"]["format"] == "d"
    assert y["axis"]["format"] == "~r" and y["axis"]["minExtent"] == y["axis"]["maxExtent"]
    assert color["scale"] == {"domain": ["length", "format"], "range": list(PALETTE[:2])}
    assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"


def test_health_alerts_are_shown_in_chinese_by_code():
    from dataclasses import asdict

    from playground.training.health import health_alerts
    from playground.ui.train_tab import alerts_markdown

    metrics = [{"step": s, "reward": 0.5, "completions/clipped_ratio": 0.8} for s in range(1, 4)]
    alerts = [asdict(a) for a in health_alerts(metrics)]  # as the job writes them into status.json
    assert [a["code"] for a in alerts] == ["clipped"]
    zh = alerts_markdown(alerts, metrics, "zh")
    assert "至少 80% 的生成结果达到 max_completion_length" in zh and "cut off" not in zh and "（第 3 步）" in zh
    assert "cut off" in alerts_markdown(alerts, metrics, "en")
    assert "train.alerts.none" not in alerts_markdown([], metrics, "en") and alerts_markdown([], [], "en") == ""


def test_base_and_warmup_evals_at_step_0_draw_one_point_not_a_vertical_line():
    from playground.ui.charts import reward_frame

    metrics = [
        {"step": 0, "phase": "eval", "eval_of": "base", "eval_reward": 0.1},
        {"step": 0, "phase": "eval", "eval_of": "warmup", "eval_reward": 0.4},
        {"step": 1, "phase": "grpo", "reward": 0.3},
        {"step": 2, "phase": "grpo", "reward": 0.5},
        {"step": 2, "phase": "eval", "eval_of": "grpo", "eval_reward": 0.6},
    ]
    frame = reward_frame(metrics)
    evals = frame[frame["series"] == "eval_reward"]
    assert evals[["step", "value"]].values.tolist() == [[0, 0.4], [2, 0.6]]


def test_the_bf16_correction_chart_shows_only_with_its_metric():
    from playground.ui.charts import ONLY_WITH_DATA, chart_updates

    index = CHARTS.index(ONLY_WITH_DATA[0])
    metrics = rows(3)
    assert chart_updates(metrics, "en")[index].visible is False
    with_ratio = [dict(r, **{ONLY_WITH_DATA[0]: 1.0 + 0.01 * r["step"]}) for r in metrics]
    assert chart_updates(with_ratio, "en")[index].visible is True
    assert all(u.visible is not False for i, u in enumerate(chart_updates(metrics, "en")) if i != index)


@pytest.mark.parametrize(
    ("values", "labels"),
    [
        ([0.0, 0.0], {"format": "~r"}),
        ([-106.0, -99.0], {"format": "~r"}),
        ([0.25, 0.75], {"format": "~r"}),
        ([0.0, 1.2e-5], {"labelExpr": "datum.value == 0 ? '0' : format(datum.value, '.2~e')"}),
        ([2e5, 3e5], {"format": "~s"}),
    ],
)
def test_y_labels_are_rounded_and_short(values, labels):
    assert y_labels(values) == labels


def test_an_empty_chart_has_no_legend():
    spec = spec_of(chart_updates([], "en")[0].value)
    assert spec["encoding"]["color"]["legend"] is None and spec["data"]["values"] == []


@pytest.mark.parametrize(("lang", "text"), [("en", EN), ("zh", ZH)])
def test_the_learn_curve_is_a_chart_spec_with_whole_steps_and_titles_in_the_page_language(lang, text):
    """The Learn tab's curve (the format lesson's shipped reference run, evals at steps 0, 0, 10, 20, and a live run
    beside it) is drawn by the same spec as the Train tab's charts."""
    from playground.lessons import get_lesson
    from playground.ui.learn_tab import curve_chart

    lesson = get_lesson("format")
    live = [{"step": s, "phase": "eval", "eval_rewards/format/mean": 0.25 * s} for s in (0, 1, 2)]
    spec = spec_of(curve_chart(lesson, lang, lesson.reference(), live))
    x, y, color = (spec["encoding"][k] for k in ("x", "y", "color"))
    assert x["axis"]["values"] == [0, 5, 10, 15, 20] and x["axis"]["format"] == "d"
    assert (x["title"], y["title"], color["title"]) == (
        text["chart.step"],
        text["chart.lesson.y"],
        text["chart.series.series"],
    )
    assert y["axis"]["format"] == "~r" and y["axis"]["minExtent"] == y["axis"]["maxExtent"]
    reference, mine = text["learn.ref.reference"], text["learn.ref.live"]
    assert color["scale"]["domain"] == [
        f"format · {reference}",
        f"tag_layout · {reference}",
        f"sentence_rate · {reference}",
        f"format · {mine}",
    ]
    assert color["scale"]["range"] == list(PALETTE[:4])
    assert [row["step"] for row in spec["data"]["values"] if row["series"] == f"format · {mine}"] == [0, 1, 2]
    assert spec["usermeta"]["embedOptions"]["renderer"] == "svg"
    assert EN["chart.lesson.y"] != ZH["chart.lesson.y"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_chart_left_empty_by_a_logged_run_says_so_and_the_last_point_is_drawn_whole(lang):
    text = {"en": EN, "zh": ZH}[lang]
    no_kl = [{k: v for k, v in row.items() if k != "kl"} for row in rows(3)]  # beta = 0: TRL logs no kl
    updates = {key: spec_of(u.value) for key, u in zip(CHARTS, chart_updates(no_kl, lang), strict=True)}
    assert updates["kl"]["encoding"]["x"]["title"] == text["chart.kl.not_logged"]
    assert updates["completions/mean_length"]["encoding"]["x"]["title"] == text["chart.step"]  # logged: as usual
    # before any step is logged, an empty chart is only waiting
    waiting = {key: spec_of(u.value) for key, u in zip(CHARTS, chart_updates([], lang), strict=True)}
    assert waiting["kl"]["encoding"]["x"]["title"] == text["chart.step"]
    # the x scale is padded: the last step's point is inside the clipped plot area, not on its edge
    for spec in updates.values():
        assert spec["mark"]["clip"] is True and spec["encoding"]["x"]["scale"]["padding"] > 0
