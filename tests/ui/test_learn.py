"""The Learn tab: each lesson's recipe survives the trip through the Train form, and over HTTP (gradio_client) Load
fills Rewards, Preview and Train; a lesson run started from what Load filled reports its phases and eval rows."""

import json
import re
import time
from types import SimpleNamespace

import gradio as gr
import pytest
from gradio_client import Client

from playground.lessons import LESSONS, get_lesson
from playground.spec import DATA_FLAGS, flat_fields
from playground.ui.charts import reward_frame
from playground.ui.learn_tab import (
    create_learn_tab,
    form_value,
    lesson_choices,
    lesson_views,
    preview_values,
    show_page,
)
from playground.ui.train_form import create_form, spec_from_form
from playground.ui.train_tab import progress_html, status_text
from playground.validation import validate_spec
from tests.support.queue_client import app_client


FIELDS = {f.name for _, f in flat_fields()} | set(DATA_FLAGS)

# A lesson run small enough for the tiny model: one warm-up step, two GRPO steps (a chart draws a line from two
# points), and the eval curve's three points (the base model, after the warm-up, after GRPO step 2).
TINY_LESSON = {
    "max_steps": 2,
    "num_generations": 4,
    "per_device_train_batch_size": 4,
    "max_completion_length": 4,
    "sft_warmup_steps": 1,
    "sft_num_examples": 2,
    "eval_every": 2,
    "eval_prompts": 1,
    "eval_num_generations": 2,
    "eval_max_completion_length": 0,  # the training cap (the lesson judges at 160)
}


@pytest.fixture(scope="module")
def form_names() -> tuple[str, ...]:
    with gr.Blocks():
        form, _, _ = create_form("embedded", "")
    return tuple(form)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.id)
def test_load_fills_a_form_that_starts_the_lessons_run(lesson, form_names):
    """The form values Load sends come back, through Start's `spec_from_form`, as the lesson's run spec, and it is
    valid (Load never leaves the form in a state Start refuses)."""
    spec = lesson.run_spec()
    values = tuple(form_value(spec, name) for name in form_names)
    selection = [choice.to_dict() for choice in spec.rewards]
    started = spec_from_form(form_names, values, selection)
    assert started.to_dict() == spec.to_dict()
    validate_spec(started)


def test_picker_and_texts_follow_the_language():
    zh = dict((value, label) for label, value in lesson_choices("zh"))
    en = dict((value, label) for label, value in lesson_choices("en"))
    assert list(zh) == [lesson.id for lesson in LESSONS]
    assert zh["format"] == "3. " + get_lesson("format").title["zh"]
    assert en["format"] == "3. " + get_lesson("format").title["en"]
    text, expected, recipe = lesson_views(get_lesson("format"), "zh")
    assert get_lesson("format").title["zh"] in text and get_lesson("format").text["zh"] in text
    assert expected.startswith("<strong>预期结果：</strong>") and get_lesson("format").expected["zh"] in expected
    assert (
        "`tag_layout`" in recipe
        and f"sft_warmup_steps={get_lesson('format').run_spec().grpo.sft_warmup_steps}" in recipe
    )


def test_the_picker_opens_only_with_the_page_loads_answer():
    """A pick made before the page load's answer would be overwritten by it (and Load would load the first lesson):
    the picker starts locked, and the page load's answer opens it on the lesson it drew."""
    with gr.Blocks():
        learn = create_learn_tab(gr.BrowserState(None))
    assert learn.picker.interactive is False

    no_run = SimpleNamespace(jobs=SimpleNamespace(current=None))  # what show_page reads of the app's context
    picker, text, *_ = show_page(no_run, None, "length")
    assert picker.interactive is True and picker.value == "length"
    assert get_lesson("length").title["en"] in text


def test_a_reloaded_page_opens_the_lesson_the_browser_last_showed():
    no_run = SimpleNamespace(jobs=SimpleNamespace(current=None))
    picker, text, *_ = show_page(no_run, None, LESSONS[0].id, None, "combine")
    assert picker.value == "combine" and get_lesson("combine").title["en"] in text
    # what the browser keeps is the visitor's to change: an id no lesson has opens the picker's lesson
    for kept in ("../etc/passwd", "", None, 3):
        picker, text, *_ = show_page(no_run, None, "length", None, kept)
        assert picker.value == "length" and get_lesson("length").title["en"] in text


def test_preview_picks_the_lessons_row_so_rewards_see_its_columns():
    lesson = get_lesson("arithmetic")
    model, prompt_set, prompt_row, prompt, row, g, temperature, top_p, max_new_tokens, prefix = preview_values(
        lesson.run_spec(), lesson.preview_prompt
    )
    assert prompt_set == "arithmetic" and prompt == lesson.preview_prompt == row["prompt"]
    assert prompt_row.value == 0 and "answer" in row["columns"]  # `correctness` reads the answer column
    grpo = lesson.run_spec().grpo
    assert (g, temperature, top_p) == (grpo.num_generations, grpo.temperature, grpo.top_p)
    assert max_new_tokens == grpo.max_completion_length and prefix == grpo.completion_prefix == "<think>"


def test_the_train_tab_shows_the_phase_and_the_warm_up_steps():
    snap = dict(run_id="r", status="loading", step=0, max_steps=20, elapsed=12.0, eta=None, error=None)
    warmup = snap | dict(phase="warmup", warmup_step=3, warmup_steps=30)
    assert "Phase: warm-up (SFT) · SFT step 3 of 30" in progress_html(warmup, "en")
    assert 'aria-valuenow="6" aria-valuemax="100"' in progress_html(warmup, "en")  # 3 of 30 + 20 steps
    assert status_text(warmup, True, "en").startswith(
        "**Phase: warm-up (SFT)** · Run `r` is warming up with SFT: step 3"
    )
    assert "阶段：预热（SFT） · SFT 预热第 3 / 30 步" in progress_html(warmup, "zh")
    grpo = snap | dict(status="running", step=2, eta=30.0, phase="grpo", warmup_step=30, warmup_steps=30)
    assert "Phase: GRPO · Step 2 of 20" in progress_html(grpo, "en")
    assert "Phase:" not in progress_html(grpo | dict(status="finished"), "en")  # only while the run is active
    assert "Phase:" not in status_text(grpo | dict(status="finished"), True, "en")
    assert progress_html(snap | dict(status="running", step=1), "en").count("Phase") == 0  # a run without phases


# --- over HTTP -----------------------------------------------------------------------------------------------------


def client(app) -> Client:
    return app_client(app.url)


def load(c: Client, lesson_id: str) -> dict:
    """/load_lesson's outputs by their labels (the Train form's inputs are labelled with the run spec's names)."""
    returns = c.view_api(return_format="dict", print_info=False)["named_endpoints"]["/load_lesson"]["returns"]
    out = c.predict(lesson_id, api_name="/load_lesson")
    assert len(out) == len(returns)
    named = {}
    for spec, value in zip(returns, out, strict=True):
        name = spec["label"] if isinstance(spec["label"], str) else spec["component"]
        if name in FIELDS and name in named:  # e.g. temperature, completion_prefix: on Preview and on Train
            assert named[name] == value, name
        named.setdefault(name, value)
    named["message"] = out[0]
    return named


def start_kwargs(c: Client, loaded: dict, **fields) -> dict:
    """/start_training's keyword arguments: the form values Load returned, then `fields`."""
    params = c.view_api(return_format="dict", print_info=False)["named_endpoints"]["/start_training"]["parameters"]
    by_label = {p["label"]: p["parameter_name"] for p in params if isinstance(p["label"], str)}
    values = {name: loaded[name] for name in by_label if name in loaded} | fields
    return {by_label[name]: value for name, value in values.items()}


def test_load_fills_rewards_preview_and_train(app, tiny_model_dir):
    c = client(app)
    lesson = get_lesson("format")
    loaded = load(c, "format")
    assert lesson.title["en"] in loaded["message"]
    # Train: the lesson's recipe, on the app's model
    assert loaded["model_name_or_path"] == str(tiny_model_dir)
    grpo = lesson.run_spec().grpo
    assert loaded["sft_warmup_steps"] == grpo.sft_warmup_steps > 0 and loaded["completion_prefix"] == "<intro>"
    assert loaded["eval_every"] == grpo.eval_every > 0 and loaded["beta"] == grpo.beta
    assert loaded["max_completion_length"] == grpo.max_completion_length
    assert loaded["eval_max_completion_length"] == grpo.eval_max_completion_length == 160
    assert loaded["sft_tags"] == "intro, body, conclusion" and loaded["dataset_name"] == "writing"
    # Rewards: the selection JSON and the cards
    selection = json.loads(next(v for v in loaded.values() if isinstance(v, str) and v.lstrip().startswith("[")))
    assert [(s["name"], s["weight"]) for s in selection] == [("format", 1.0), ("tag_layout", 1.0)]
    # Preview: the lesson's prompt
    assert lesson.preview_prompt in [v for v in loaded.values() if isinstance(v, str)]

    other = load(c, "length")  # a second Load replaces the first
    assert other["sft_warmup_steps"] == 0 and other["completion_prefix"] == ""
    selection = json.loads(next(v for v in other.values() if isinstance(v, str) and v.lstrip().startswith("[")))
    assert [s["name"] for s in selection] == ["length"]


def test_a_lesson_run_reports_its_phases_and_eval_rows(app):
    c = client(app)
    loaded = load(c, "format")
    c.predict(**start_kwargs(c, loaded, **TINY_LESSON), api_name="/start_training")
    # The run's live snapshots, read in this process every 10 ms and drawn as the Train tab draws them: a tiny run's
    # phases can be over between two polls through the queue when the machine is busy.
    job, shown, deadline = app.ctx.jobs.current, [], time.monotonic() + 180
    while time.monotonic() < deadline and job.active:
        shown.append(progress_html(job.snapshot(), "en"))
        time.sleep(0.01)
    seen = "\n".join(shown)
    assert "Phase: warm-up (SFT)" in seen and "Phase: GRPO" in seen
    out = c.predict(api_name="/train_status")  # and the page's own status line says how it ended
    assert "finished" in out[1], out[1]

    run = app.ctx.jobs.current.run
    assert run.spec()["grpo"]["sft_warmup_steps"] == 1 and run.spec()["grpo"]["completion_prefix"] == "<intro>"
    metrics = run.metrics()
    evals = [r for r in metrics if "eval_reward" in r]
    assert [r["step"] for r in evals] == [0, 0, 2]  # the base model, after the warm-up, after GRPO step 2
    assert all("eval_rewards/format/mean" in r and "eval_rewards/tag_layout/mean" in r for r in evals)
    assert {r.get("phase") for r in metrics} >= {"warmup", "grpo", "eval"}

    # The reward chart draws the eval points beside the training reward (the browser test sees both lines drawn).
    series = list(reward_frame(metrics)["series"])
    assert series.count("reward") == 2 and series.count("eval_reward") == 2  # step 0 (the warm-up's) and step 2


REFERENCE_LINES = [
    {"type": "run", "lesson": "format", "wall_s": 290.0, "max_steps": 20, "seed": 42, "cpu": "AMD EPYC", "cores": 2}
    | {"load_avg_1min": 1.2, "eval_samples": 32},
    {"type": "metrics", "step": 1, "reward": 1.1, "rewards/format/mean": 0.5},
    {"type": "eval", "step": 0, "of": "base", "eval_reward": 0.29, "format": 0.0, "tag_layout": 0.29},
    {"type": "eval", "step": 0, "of": "warmup", "eval_reward": 1.15, "format": 0.44, "tag_layout": 0.71},
    {"type": "eval", "step": 20, "of": "grpo", "eval_reward": 1.8, "format": 0.84, "tag_layout": 0.96},
    {
        "type": "answer",
        "step": 0,
        "eval_of": "base",
        "prompt": "Why pets?",
        "completion": "<intro>Pets are",
        "rewards": {},
    }
    | {"rewards": {"format": 0.0, "tag_layout": 0.222222}},
    {"type": "answer", "step": 0, "eval_of": "warmup", "prompt": "Why pets?", "completion": "<intro>a</intro>"},
    {"type": "answer", "step": 20, "eval_of": "grpo", "prompt": "Why pets?", "completion": "<intro>b</intro>"},
]


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A reference run for the format lesson only, in place of the shipped ones."""
    from playground.lessons import reference

    (tmp_path / "format.jsonl").write_text("".join(json.dumps(line) + "\n" for line in REFERENCE_LINES))
    monkeypatch.setattr(reference, "FOLDER", tmp_path)
    return tmp_path


def test_a_reference_run_at_one_thread_says_so(shipped):
    """Two reference runs measured side by side at one thread each: the summary names the thread, not both cores."""
    from playground.ui.learn_tab import reference_markdown

    lines = [dict(REFERENCE_LINES[0], threads=1), *REFERENCE_LINES[1:]]
    (shipped / "format.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    lesson = get_lesson("format")
    assert "Measured on 1 thread(s) of its 2 cores of AMD EPYC" in reference_markdown(lesson, "en")
    assert "在 AMD EPYC 的 2 个核心中的 1 个线程上实测" in reference_markdown(lesson, "zh")


def test_reference_run_shows_what_the_warmup_and_grpo_each_added(shipped):
    from playground.ui.learn_tab import answers_frame, curve_frame, reference_markdown

    lesson = get_lesson("format")
    text = reference_markdown(lesson, "en")
    assert "on 2 cores of AMD EPYC" in text and "4m 50s in all, 20 GRPO steps, 32 held-out answers" in text
    assert (
        "`format` on the held-out prompts: 0 before training → 0.44 after the warm-up → 0.84 after GRPO. The warm-up "
        "added +0.44, GRPO +0.40." in text
    )
    assert "预热带来 +0.44，GRPO 带来 +0.40" in reference_markdown(lesson, "zh")
    assert "4 分 50 秒" in reference_markdown(lesson, "zh")
    live = [{"step": 0, "phase": "eval", "eval_of": "base", "eval_rewards/format/mean": 0.0}]
    live += [{"step": 5, "phase": "eval", "eval_of": "grpo", "eval_rewards/format/mean": 0.5}]
    frame = curve_frame(lesson, "en", lesson.reference(), live)
    assert list(frame.itertuples(index=False, name=None)) == [
        (0, 0.0, "format · reference"),
        (0, 0.29, "tag_layout · reference"),
        (0, 0.44, "format · reference"),
        (0, 0.71, "tag_layout · reference"),
        (20, 0.84, "format · reference"),
        (20, 0.96, "tag_layout · reference"),
        (0, 0.0, "format · your run"),
        (5, 0.5, "format · your run"),
    ]
    answers = answers_frame(lesson.reference(), "zh")
    assert list(answers.columns) == ["提示词", "训练前", "预热后", "GRPO 后"]
    assert answers.values.tolist() == [
        ["Why pets?", "<intro>Pets are\n[format 0.000, tag_layout 0.222]", "<intro>a</intro>", "<intro>b</intro>"]
    ]
    assert "has no reference run" in reference_markdown(get_lesson("groups"), "en")
    assert answers_frame(None, "en").empty and curve_frame(get_lesson("groups"), "en", None).empty


def test_lessons_json_carries_each_reference_run(shipped, capsys):
    from playground.cli.main import main

    assert main(["lessons", "--json"]) == 0
    data = {item["id"]: item for item in json.loads(capsys.readouterr().out)}
    assert data["format"]["reference"]["eval"] == [
        {k: v for k, v in line.items() if k != "type"} for line in REFERENCE_LINES if line["type"] == "eval"
    ]
    assert data["format"]["reference"]["run"]["wall_s"] == 290.0 and len(data["format"]["reference"]["answers"]) == 3
    assert "reference" not in data["groups"]


# --- a lesson with a trap: the fix's and the trap's reference runs side by side ----------------------------------


def test_a_lesson_with_a_trap_draws_both_reference_runs_each_with_its_own_metrics():
    from playground.ui.learn_tab import curve_frame

    lesson = get_lesson("combine")
    fix, trap = lesson.reference(), lesson.reference(trap=True)
    assert lesson.chart == ("format", "sentence_rate") and lesson.trap_chart == ("tag_layout",)
    live = [{"step": 0, "phase": "eval", "eval_of": "base", "eval_rewards/format/mean": 0.0, "sentence_rate": 0.25}]
    live += [{"step": 0, "phase": "eval", "eval_of": "base", "eval_rewards/tag_layout/mean": 0.5}]  # a trap run
    frame = curve_frame(lesson, "en", fix, live, trap)
    by_series = {name: list(rows["value"]) for name, rows in frame.groupby("series", sort=False)}
    assert by_series == {
        "format · fix": [row["format"] for row in fix.eval],
        "sentence_rate · fix": [row["sentence_rate"] for row in fix.eval],
        "tag_layout · trap": [row["tag_layout"] for row in trap.eval],
        "format · your run": [0.0],
        "sentence_rate · your run": [0.25],
        "tag_layout · your run": [0.5],
    }
    assert list(frame[frame["series"] == "tag_layout · trap"]["step"]) == [0, 0, 10]
    zh = set(curve_frame(lesson, "zh", fix, None, trap)["series"])
    assert zh == {"format · 解决办法", "sentence_rate · 解决办法", "tag_layout · 陷阱"}
    # a lesson without a trap keeps its one "reference" series
    assert set(curve_frame(get_lesson("length"), "en", get_lesson("length").reference())["series"]) == {
        "eval_reward · reference"
    }


def test_a_lesson_with_a_trap_summarises_both_runs_and_the_reward_they_share():
    from playground.ui.learn_tab import reference_markdown

    lesson = get_lesson("combine")
    text = reference_markdown(lesson, "en")
    fix_part, trap_part = text.split("**The trap (what “Load the trap” sets)**")
    assert text.startswith("### Reference runs: the fix and the trap") and "**The fix (what Load sets)**" in fix_part
    assert "`sentence_rate` on the held-out prompts: 0 before training → 0.78 after the warm-up → 0.72" in fix_part
    assert "`format` on the held-out prompts: 0 before training → 0.81 after the warm-up → 0.88" in fix_part
    # the length reward both runs have: the fix brings it from -283 to -62, the trap gives back what the warm-up won
    assert "`length(ideal_length=200)` on the held-out prompts: -283 before training → -101" in fix_part
    assert "GRPO +39." in fix_part and "The warm-up added +60, GRPO -43." in trap_part
    assert "`tag_layout` on the held-out prompts: 0.29 before training → 0.67 after the warm-up → 0.41" in trap_part
    assert "`format`" not in trap_part and "`tag_layout`" not in fix_part
    # both were measured with the machine's cores to themselves: neither summary warns of a shared machine
    assert "load average" not in text
    assert "`clipped`, `dominant_reward`" in trap_part and "dominant_reward" not in fix_part
    zh = reference_markdown(lesson, "zh")
    assert "参考训练：解决办法与陷阱" in zh and "平均负载" not in zh
    assert "预热带来 +60，GRPO 带来 -43" in zh


def test_a_reference_run_on_a_shared_machine_says_its_time_is_not_a_quiet_ones():
    from dataclasses import replace

    from playground.ui.learn_tab import _run_lines

    fix = get_lesson("combine").reference()
    shared = replace(fix, run={**fix.run, "load_avg_1min": 6.3, "cores": 2})
    assert shared.busy and not fix.busy
    assert any("load average 6.3 on 2 cores" in line for line in _run_lines(shared, ("format",), "en"))
    assert any("2 个核心上的平均负载为 6.3" in line for line in _run_lines(shared, ("format",), "zh"))
    assert not any("load average" in line for line in _run_lines(fix, ("format",), "en"))


def test_only_a_lesson_with_a_trap_shows_the_trap_button_and_answers():
    from playground.ui.learn_tab import reference_views, trap_views

    combine = get_lesson("combine")
    answers, button = trap_views(combine, "zh")
    assert button.visible is True and button.value == "载入陷阱配方"
    assert answers.visible is True and answers.label.startswith("陷阱配方的留出提示词上的生成结果")
    grpo = [a["completion"] for a in combine.reference(trap=True).answers if a["eval_of"] == "grpo"]
    cells = answers.value["data"]
    prompts = [row["prompt"] for row in combine.reference(trap=True).answers_by_prompt()]
    assert len(cells) == len(prompts) == 3
    assert all(p.startswith(row[0][:100]) for p, row in zip(prompts, cells, strict=True))
    assert all(any(cell.startswith(text[:100]) for text in grpo) for cell in (row[3] for row in cells))
    _, _, fix_answers = reference_views(combine, "en")
    assert fix_answers.label.startswith("The fix's held-out answers")
    final = [a for a in combine.reference().answers if a["eval_of"] == "grpo" and a["step"] == 20]
    fix_grpo = {a["completion"][:100] for a in final}
    assert {row[3][:100] for row in fix_answers.value["data"]} == fix_grpo
    answers, button = trap_views(get_lesson("format"), "en")
    assert button.visible is False and answers.visible is False
    _, _, answers = reference_views(get_lesson("format"), "en")
    assert answers.label.startswith("The reference run's held-out answers")


def test_load_the_trap_fills_the_form_with_the_traps_recipe(form_names):
    """What "Load the trap" sends the Train form comes back, through Start's `spec_from_form`, as the trap's spec."""
    lesson = get_lesson("combine")
    spec = lesson.run_spec(trap=True)
    values = tuple(form_value(spec, name) for name in form_names)
    started = spec_from_form(form_names, values, [choice.to_dict() for choice in spec.rewards])
    assert started.to_dict() == spec.to_dict()
    validate_spec(started)
    assert started.grpo.multi_objective_aggregation == "sum_then_normalize" and started.grpo.max_steps == 10
    assert [(c.name, c.weight) for c in started.rewards] == [("length", 0.01), ("tag_layout", 1.0)]
    with pytest.raises(ValueError, match="no trap"):
        get_lesson("format").run_spec(trap=True)


def test_loading_the_trap_of_a_lesson_without_one_is_a_clear_error_in_both_languages():
    from playground.errors import PlaygroundError
    from playground.ui.learn_tab import load_trap

    with pytest.raises(PlaygroundError) as error:
        load_trap(None, None, (), None, "format", "", None)
    assert error.value.key == "learn.no_trap"
    assert error.value.render("en") == f"The lesson “{get_lesson('format').title['en']}” has no trap to load."
    assert error.value.render("zh").startswith(f"“{get_lesson('format').title['en']}”一课没有")


def test_the_reference_counts_its_held_out_answers_as_prompts_times_answers():
    from playground.ui.learn_tab import reference_markdown

    fmt = get_lesson("format")
    assert "32 held-out answers per eval point (8 prompts × 4 answers)" in reference_markdown(fmt, "en")
    assert "每个评估点 32 个留出生成结果（8 个提示词 × 每个 4 个生成结果）" in reference_markdown(fmt, "zh")


def test_the_train_tab_says_when_the_fast_path_stepped_aside():
    snap = dict(run_id="r", status="running", step=2, max_steps=20, elapsed=12.0, eta=30.0, error=None)
    assert "fast path" not in status_text(snap, True, "en")
    off = snap | dict(fast_path_off="trainer: GRPOTrainer._compute_loss is gone")
    assert status_text(off, True, "en").endswith(
        "TRL's own code runs where the CPU fast path does not fit this install (correct, slower): "
        "trainer: GRPOTrainer._compute_loss is gone"
    )
    assert "改用 TRL 自己的代码" in status_text(off, True, "zh")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_lesson_shows_its_duration_on_a_line_of_its_own(lang):
    """The reference run's wall time, right under the title, not inside the lesson's paragraphs."""
    from playground.lessons import LESSONS
    from playground.ui.common import duration_text
    from playground.ui.i18n import tr

    for lesson in LESSONS:
        title, line, *_ = lesson_views(lesson, lang)[0].split("\n\n")
        assert title == f"## {lesson.title[lang]}" and line.startswith("⏱") and "\n" not in line
        reference = lesson.reference()
        if reference is None:
            assert line == tr(lang, "learn.duration.none")
        else:
            assert duration_text(reference.run["wall_s"], lang) in line, (lesson.id, line)
    combine = lesson_views(get_lesson("combine"), lang)[0].split("\n\n")[1]
    assert "Intel Xeon Processor" in combine and "(R)" not in combine


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_article_is_named_and_linked(lang):
    from playground.ui.i18n import tr

    intro = tr(lang, "learn.intro")
    assert "[“Implementing GRPO in TRL”](https://huggingface.co/learn/llm-course/chapter12/4)" in intro or (
        "(https://huggingface.co/learn/llm-course/chapter12/4)" in intro and lang == "zh"
    )
    assert {"en": "the article", "zh": "文章"}[lang] in intro


def test_a_reference_on_fewer_threads_says_why_its_machine_differs():
    from playground.ui.learn_tab import _run_lines

    fix = get_lesson("combine").reference()  # measured on 1 thread of an Intel Xeon, beside another run
    assert fix.fewer_threads == 1
    en = _run_lines(fix, ("format",), "en")
    assert any("1 thread(s) of Intel Xeon Processor while a second run used its other core" in x for x in en), en
    assert any("2 核 AMD EPYC" in x for x in _run_lines(fix, ("format",), "zh"))
    assert not any("second run" in x for x in _run_lines(get_lesson("format").reference(), ("format",), "en"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_lesson_page_renders_its_bold_labels_without_asterisks(lang):
    """Rendered as CommonMark (Gradio's Markdown follows its emphasis rules): "**预期结果：**在…" kept its asterisks,
    since `**` does not close after a full-width colon followed by a character."""
    from markdown_it import MarkdownIt

    for lesson in LESSONS:
        for view in lesson_views(lesson, lang):
            rendered = re.sub(r"<code>.*?</code>", "", MarkdownIt("commonmark").render(view), flags=re.S)
            assert "**" not in rendered, (lesson.id, rendered)
