"""The Runs tab follows the live run: its timer re-sends the list when the run's status or step changes (the final
"finished" after the last save shows without a Refresh), and nothing while it stays the same, and never the picked run;
"Train to step" says what its 0 means."""

import gradio as gr
import pytest

from playground.ui.context import AppContext
from playground.ui.i18n import tr
from playground.ui.runs_tab import refresh_on_change
from playground.ui.settings import UISettings
from tests.support import tiny_models as testing


@pytest.mark.slow  # a real three-step run
def test_the_list_is_sent_again_when_the_live_run_changes_and_only_then(tmp_path, tiny_model_dir):
    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    assert refresh_on_change(ctx, None, None, None, None)[-2] is None  # no run: nothing new
    job = ctx.jobs.start(testing.tiny_spec(tiny_model_dir, max_steps=3))
    job.join(600)
    assert job.status == "finished", job.error
    frame, picker, _, summary, seen, timer = refresh_on_change(ctx, None, None, None, None)
    # A tick sends the picker's choices, never its value: it picks no run for a visitor whose picker was empty when
    # the tick began, and leaves a pick made since (the tab's opening picks the newest run) as it is.
    assert [run_id for _, run_id in picker.constructor_args["choices"]] == [job.run.id]
    assert "value" not in picker.constructor_args
    picked = refresh_on_change(ctx, None, None, job.run.id, None)
    assert "value" not in picked[1].constructor_args
    gone = refresh_on_change(ctx, None, None, "20200101-000000-000000", None)
    assert gone[1].constructor_args["value"] is None  # a picked run deleted elsewhere is unpicked
    # with its line beside it, as the list says it (a Continue's "running 4/6" is not left as "finished 4/4")
    assert f"`{job.run.id}` · finished · 3/3 steps" in picked[3]
    zh = refresh_on_change(ctx, gr.Request(headers={"accept-language": "zh-CN"}), None, job.run.id, None)
    assert "已完成 · 3/3 步" in zh[3]
    assert timer.active is False  # the run is over: the tab stops looking
    assert seen == f"{job.run.id}:finished:3"
    assert frame["status"].tolist() == ["finished"] and frame["steps"].tolist() == ["3/3"]
    again = refresh_on_change(ctx, None, None, None, seen)
    assert again[-2] == seen and all(not isinstance(v, type(frame)) for v in again[:4])  # skipped: nothing changed


def test_train_to_step_says_what_0_means():
    assert tr("en", "runs.continue.steps_info").startswith("0 (or empty): the run's own max_steps")
    assert tr("zh", "runs.continue.steps_info").startswith("0（或留空）")


def test_a_warm_up_run_says_beside_it_why_it_has_no_trl_recipe(tmp_path):
    from playground.lessons import get_lesson
    from playground.ui.eval_charts import EVAL_OUTPUTS
    from playground.ui.runs_tab import show_run

    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    warm = ctx.store.create(get_lesson("format").run_spec().to_dict())  # sft_warmup_steps > 0
    plain = ctx.store.create(testing.tiny_spec("tiny").to_dict())
    out = show_run(ctx, None, None, warm.id)
    summary, button = out[-2 - EVAL_OUTPUTS], out[-1]
    assert "No trl grpo recipe for this run" in summary and "sft_warmup_steps" in summary
    assert button.interactive is False
    out = show_run(ctx, None, None, plain.id)
    summary, button = out[-2 - EVAL_OUTPUTS], out[-1]
    assert "trl grpo" not in summary and button.interactive is True


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_overlay_warns_when_its_runs_rewards_differ_and_names_them(tmp_path, lang):
    from playground.ui.runs_tab import mixed_rewards_note

    ctx = AppContext.create(UISettings(runs=str(tmp_path)))
    one = ctx.store.create(testing.tiny_spec("tiny").to_dict())
    same = ctx.store.create(testing.tiny_spec("tiny").to_dict())
    spec = testing.tiny_spec("tiny")
    spec.rewards = [*spec.rewards[:1], type(spec.rewards[0])("format", 0.5, {})]
    other = ctx.store.create(spec.to_dict())
    assert mixed_rewards_note(ctx, [one.id, same.id], lang) == ""
    note = mixed_rewards_note(ctx, [one.id, other.id], lang)
    assert note.startswith("⚠ " + tr(lang, "runs.overlay.mixed"))
    assert f"- `{other.id}`: " in note and "format × 0.5" in note
    first = note.split("\n")[1]
    assert first.startswith(f"- `{one.id}`: ") and "format" not in first
