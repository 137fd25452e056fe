"""The Preview as the page renders it: scored with the Train tab's advantage fields, naming them (en, zh), and
reading a group with no spread as "no learning signal", never as one reward dominating, with no 0.000 cell tinted.

The format lesson's first Preview on the tiny model is that group: every completion continues the prefix `<intro>`
without closing it, so all 8 score format 0 and tag_layout 0.222."""

import gradio as gr
import pytest

from playground.ui.context import AppContext
from playground.ui.preview_tab import generate
from playground.ui.settings import UISettings


FORMAT_LESSON = [{"name": "format", "weight": 1.0}, {"name": "tag_layout", "weight": 1.0}]
PROMPT = "Write a short paragraph about why people keep pets."


@pytest.fixture(scope="module")
def ctx(tiny_model_dir, tmp_path_factory):
    return AppContext.create(UISettings(model=str(tiny_model_dir), runs=str(tmp_path_factory.mktemp("runs"))))


def preview(ctx, lang, selection, *recipe, g=8, tokens=16, prefix="<intro>"):
    request = gr.Request(headers={"accept-language": lang})
    model = ctx.settings.model
    return generate(
        ctx,
        request,
        None,
        model,
        PROMPT,
        None,
        selection,
        "",
        g,
        1.0,
        1.0,
        tokens,
        0,
        prefix,
        *recipe,
        progress=lambda *args, **kwargs: None,
    )


@pytest.mark.parametrize(
    "lang,no_signal,dominates,settings",
    [
        ("en-US", "No learning signal", "One reward dominates", "Advantages as training computes them"),
        ("zh-CN", "没有学习信号", "某个奖励占主导", "优势按训练时的方式计算"),
    ],
)
def test_a_group_with_no_spread_reads_no_signal(ctx, lang, no_signal, dominates, settings):
    frame, summary, data = preview(ctx, lang, FORMAT_LESSON)
    rewards = {(c["rewards"]["format"], c["rewards"]["tag_layout"]) for c in data["completions"]}
    assert rewards == {(0.0, 0.222222)}  # the lesson's group: no spread
    assert no_signal in summary and dominates not in summary
    assert "makes up" not in summary and "占加权总分" not in summary
    assert settings in summary and "`scale_rewards=group`" in summary
    assert "`multi_objective_aggregation=sum_then_normalize`" in summary
    assert "background-color" not in frame.to_html()  # 0.000 cells are not tinted


@pytest.mark.parametrize(
    "lang,batch_note", [("en-US", "here the batch is this one group"), ("zh-CN", "这里的批次只有这一组")]
)
def test_the_train_forms_aggregation_and_scaling_score_the_group(ctx, lang, batch_note):
    from playground.advantages import compute_advantages

    # a length inside the tiny model's answers (35-49 characters), one above them, and a format none of them has
    selection = [{"name": "length", "weight": 0.5, "params": {"ideal_length": 40}}]
    selection += [
        {"name": "length", "weight": 1.0, "params": {"ideal_length": 55}},
        {"name": "format", "weight": 0.3},
    ]
    _, summary, data = preview(ctx, lang, selection, "batch", "normalize_then_sum", 8, None, None, g=4, prefix="")
    assert data["advantage"] == {
        "scale_rewards": "batch",
        "multi_objective_aggregation": "normalize_then_sum",
        "generation_batch_size": None,
    }
    assert "`multi_objective_aggregation=normalize_then_sum`" in summary and batch_note in summary
    rows = [list(c["rewards"].values()) for c in data["completions"]]
    expected = compute_advantages(rows, [0.5, 1.0, 0.3], 4, "batch", "normalize_then_sum").advantages.tolist()
    assert [c["advantage"] for c in data["completions"]] == pytest.approx(expected, abs=1e-6)
    summed = compute_advantages(rows, [0.5, 1.0, 0.3], 4, "group", "sum_then_normalize").advantages.tolist()
    assert summed != pytest.approx(expected, abs=1e-3)  # the recipe's fields changed what the Preview shows


@pytest.mark.parametrize(
    "lang,flat,clipped",
    [
        ("en", "**A reward does not vary**: 'format' (0) scored every", "**Cut-off completions**: 6 of 8 completions"),
        ("zh", "**某个奖励没有变化**：'format' (0) 给每组内", "**生成结果被截断**：8 个生成结果中有 6 个"),
    ],
)
def test_the_lab_titles_flat_and_cut_off_as_the_preview_does(lang, flat, clipped):
    from playground.lab.stats import summarize
    from playground.ui.lab_tab import diagnostic_lines

    table = [[-float(n), 0.0] for n in (3, 8, 8, 8)] + [[-float(n), 0.0] for n in (8, 8, 8, 2)]
    summary = summarize(
        table, ["length", "format"], [1.0, 1.0], 4, lengths=[3, 8, 8, 8, 8, 8, 8, 2], max_completion_length=8
    )
    shown = "\n".join(diagnostic_lines(summary, lang))
    assert flat in shown and clipped in shown
    quiet = summarize(table, ["length", "format"], [1.0, 1.0], 4)
    assert "Cut-off" not in "\n".join(diagnostic_lines(quiet, lang))
