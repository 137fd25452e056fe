"""The held-out eval charts: one per reward (and sentence_rate), the run's base, warm-up and GRPO eval points beside
the lesson's reference run; the warm-up's loss on the loss chart while it runs."""

import json

from playground.lessons import get_lesson, reference_for
from playground.ui.charts import CHARTS, chart_frames, spec_of
from playground.ui.eval_charts import EVAL_OUTPUTS, EVAL_SLOTS, eval_chart_updates, eval_frame, eval_names


def eval_row(step: int, of: str, fmt: float, layout: float, sentences: float) -> dict:
    return {
        "step": step,
        "phase": "eval",
        "eval_of": of,
        "eval_reward": fmt + layout,
        "eval_rewards/format/mean": fmt,
        "eval_rewards/tag_layout/mean": layout,
        "sentence_rate": sentences,
    }


RUN = [
    eval_row(0, "base", 0.0, 0.3, 0.0),
    *({"step": s, "phase": "warmup", "warmup/loss": 2.0 - 0.1 * s} for s in range(1, 4)),
    eval_row(0, "warmup", 0.25, 0.7, 0.125),
    {"step": 1, "phase": "grpo", "reward": 1.0, "loss": 0.01},
    {"step": 2, "phase": "grpo", "reward": 1.2, "loss": -0.02},
    eval_row(2, "grpo", 0.5, 0.8, 0.25),
]


def test_each_reward_has_its_eval_chart_with_the_reference_beside_it():
    reference = reference_for(get_lesson("format").run_spec(max_steps=2, model_name_or_path="tiny"))
    assert reference is not None and reference.run["lesson"] == "format"
    assert eval_names(RUN, reference) == ["format", "tag_layout", "sentence_rate"]
    frame = eval_frame(RUN, reference, "format", "en")
    run = frame[frame.series == "this run"]
    assert run.point.tolist() == ["base", "warm-up", "2"] and run.value.tolist() == [0.0, 0.25, 0.5]
    ref = frame[frame.series == "lesson reference"]
    assert ref.point.tolist() == ["base", "warm-up", "10", "20"] and ref.value.tolist() == [0.0, 0.375, 0.7188, 0.7188]
    caption, *updates = eval_chart_updates(RUN, reference, "en")
    assert caption.visible is True and caption.value.startswith("Held-out eval:")
    assert len(updates) == EVAL_SLOTS and [u.visible for u in updates] == [True, True, True, False]
    assert updates[0].label == "held-out eval: format"
    spec = spec_of(updates[0].value)
    # run order, both series, evenly spaced: each point's place on x, labelled with its name
    assert spec["encoding"]["x"]["axis"]["labelExpr"].startswith('["base", "warm-up", "2", "10", "20"]')
    assert {(p["point"], p["x"]) for p in spec["data"]["values"]} >= {("base", 0), ("2", 2), ("20", 4)}
    assert {p["series"] for p in spec["data"]["values"]} == {"this run", "lesson reference"}
    zh_caption, *zh = eval_chart_updates(RUN, reference, "zh")
    assert zh_caption.value.startswith("留出评估：")
    assert zh[2].label == "留出评估：sentence_rate"
    assert spec_of(zh[0].value)["encoding"]["x"]["axis"]["labelExpr"].startswith('["基础模型", "预热后"')
    assert "本次训练" in json.dumps(spec_of(zh[0].value), ensure_ascii=False)


def test_before_the_first_eval_the_reference_is_drawn_and_a_run_without_one_shows_its_own():
    reference = get_lesson("format").reference()
    caption, *updates = eval_chart_updates([], reference, "en")
    assert caption.visible is True and [u.visible for u in updates][:3] == [True, True, True]
    assert len(spec_of(updates[0].value)["data"]["values"]) == 4  # the reference's four points
    _, *alone = eval_chart_updates(RUN, None, "en")
    assert {p["series"] for p in spec_of(alone[1].value)["data"]["values"]} == {"this run"}
    # a run with no eval points and no reference: no chart, and no caption above an empty gap
    assert [u.visible for u in eval_chart_updates([], None, "en")] == [False] * EVAL_OUTPUTS


def test_the_warm_up_loss_is_drawn_while_the_warm_up_runs():
    warming = RUN[:4]  # the base eval and three SFT steps: no GRPO step yet
    loss = chart_frames(warming)[CHARTS.index("loss")]
    assert loss.function.tolist() == ["warmup/loss"] * 3 and loss.step.tolist() == [1, 2, 3]
    both = chart_frames(RUN)[CHARTS.index("loss")]
    assert set(both.function) == {"warmup/loss", "loss"}
