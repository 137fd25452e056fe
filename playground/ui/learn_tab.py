"""Learn tab: the guided lessons of `playground.lessons`. Pick one, read it in the page's language, and Load its
recipe into the Rewards selection, the Preview inputs and the Train form.

A lesson that trains shows its reference run at once (`playground.lessons.reference`, no compute): what the warm-up and
GRPO each added, the eval curve, and held-out answers before training, after the warm-up and after GRPO. While a run of
the lesson's rewards goes (and the viewer may watch it), its eval points are drawn beside the reference curve.

The lesson texts are the engine's (English and Chinese in each `Lesson`), so they are made by handlers with the
request's language (`lang_of`), on page load and when another lesson is picked, not translated by `gr.I18n`.
"""

import html
import json
from dataclasses import dataclass
from typing import Any

import gradio as gr
import pandas as pd

from playground.data.sources import BUILTIN_SETS
from playground.errors import PlaygroundError
from playground.lessons import LESSONS, Lesson, get_lesson
from playground.lessons.reference import Reference
from playground.models import EMBEDDED
from playground.spec import DATA_FLAGS, RunSpec, flat_fields
from playground.ui.charts import SERIES, VegaPlot, vega_chart
from playground.ui.common import bind, duration_text, lang_of, short
from playground.ui.context import AppContext, Session
from playground.ui.i18n import t, tr
from playground.ui.preview_tab import ROWS_SHOWN, PreviewTab, builtin_rows, pick_row, row_choices
from playground.ui.rewards_tab import Layout, RewardsTab, apply_selection
from playground.ui.train_form import OPTIONAL_TEXT
from playground.ui.train_tab import TrainTab
from rewards.registry import metric_name


HIDDEN = dict(api_visibility="private", show_progress="hidden")
LIVE_SECONDS = 5.0  # how often the Learn tab adds the live run's eval points to the reference curve
ANSWER_CHARS = 400


@dataclass
class LearnTab:
    picker: gr.Dropdown
    load: gr.Button
    text: gr.Markdown
    expected: gr.Markdown
    recipe: gr.Markdown
    loaded: gr.Markdown
    reference: gr.Markdown
    curve: gr.Plot
    answers: gr.Dataframe
    tab: gr.Tab
    timer: gr.Timer

    @property
    def views(self) -> list[gr.Component]:
        return [self.text, self.expected, self.recipe, self.reference, self.curve, self.answers]


# --- views ---------------------------------------------------------------------------------------------------------


def _in(lang: str, texts: dict[str, str]) -> str:
    return texts.get(lang) or texts.get("en", "")


def lesson_choices(lang: str) -> list[tuple[str, str]]:
    """The picker's (label, value) pairs: the number and title in `lang`, the lesson id."""
    return [(f"{i}. {_in(lang, lesson.title)}", lesson.id) for i, lesson in enumerate(LESSONS, start=1)]


def lesson_views(lesson: Lesson, lang: str) -> list[str]:
    """The lesson's title and text, the figure to expect, and what Load sets, in `lang`."""
    text = f"## {_in(lang, lesson.title)}\n\n{_in(lang, lesson.text)}"
    expected = f"**{tr(lang, 'learn.expected')}** {_in(lang, lesson.expected)}"
    return [text, expected, recipe_markdown(lesson, lang)]


def recipe_markdown(lesson: Lesson, lang: str) -> str:
    """The rewards, the Train settings the lesson changes (TRL's names) and the Preview prompt."""
    rewards = lesson.rewards or tuple(lesson.run_spec().rewards)
    items = []
    for choice in rewards:
        params = ", ".join(f"{k}={v!r}" for k, v in choice.params.items())
        items.append(f"`{choice.name}`" + (f" ({html.escape(params)})" if params else "") + f" × {choice.weight:g}")
    lines = [f"**{tr(lang, 'learn.recipe.rewards')}** " + ", ".join(items)]
    if lesson.overrides:
        fields = ", ".join(f"`{name}={value!r}`" for name, value in lesson.overrides.items())
        lines.append(f"**{tr(lang, 'learn.recipe.fields')}** {fields}")  # code spans: shown as written
    lines.append(f"**{tr(lang, 'learn.recipe.prompt')}** {html.escape(short(lesson.preview_prompt, 160))}")
    return "\n\n".join(lines)


def _fmt(value: float) -> str:
    return f"{value:.3g}" if abs(value) >= 1 or value == 0 else f"{value:.2f}"


def reference_markdown(lesson: Lesson, lang: str, reference: Reference | None = None) -> str:
    """Where and how the reference run was measured, and what the warm-up and GRPO each added to the lesson's
    chart metrics."""
    reference = reference or lesson.reference()
    if reference is None:
        return f"### {tr(lang, 'learn.ref.title')}\n\n{tr(lang, 'learn.ref.none')}"
    run = reference.run
    wall = run.get("wall_s") or 0.0
    lines = [
        tr(
            lang,
            "learn.ref.summary" if reference.eval else "learn.ref.summary_train",
            cores=run.get("cores", "?"),
            cpu=run.get("cpu", "?"),
            load=run.get("load_avg_1min") or "?",
            wall=duration_text(wall, lang),
            steps=run.get("max_steps", "?"),
            samples=run.get("eval_samples", "?"),
        )
    ]
    if run.get("alerts"):
        lines.append(tr(lang, "learn.ref.alerts", alerts=", ".join(f"`{code}`" for code in run["alerts"])))
    warmed = reference.point("warmup") is not None
    for metric in lesson.chart:
        shares = reference.shares(metric)
        if shares is None:
            continue
        values = {k: _fmt(v) for k, v in shares.items() if k in ("base", "warmup", "final")}
        values |= {k: f"{shares[k]:+.2f}" for k in ("from_warmup", "from_grpo")}
        lines.append(tr(lang, "learn.ref.share" if warmed else "learn.ref.share_grpo", metric=metric, **values))
    return f"### {tr(lang, 'learn.ref.title')}\n\n" + "\n\n".join(lines)


def curve_frame(lesson: Lesson, lang: str, reference: Reference | None, live: list[dict] | None = None):
    """The lesson's chart metrics at each eval point: the reference run's, and the live run's beside them."""
    points = []
    rows = reference.eval if reference else []
    if reference is not None and not rows:  # a lesson without eval points: its training reward means per step
        rows = [_as_reference_row(m, "rewards/") | {"eval_reward": m.get("reward")} for m in reference.metrics]
    sources = [(tr(lang, "learn.ref.reference"), rows)]
    if live:
        sources.append((tr(lang, "learn.ref.live"), [_as_reference_row(row) for row in live]))
    for source, rows in sources:
        for row in rows:
            for metric in lesson.chart:
                value = row.get(metric)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    points.append((int(row.get("step", 0)), float(value), f"{metric} · {source}"))
    frame = pd.DataFrame(points, columns=["step", "value", SERIES])
    return frame.astype({"step": "int64", "value": "float64", SERIES: "str"})


def curve_chart(lesson: Lesson, lang: str, reference: Reference | None, live: list[dict] | None = None) -> VegaPlot:
    """The curve as the Train tab draws its charts (`charts.vega_chart`): whole steps on x, y labels without float
    noise, axis and legend titles in `lang`."""
    return vega_chart(curve_frame(lesson, lang, reference, live), "lesson", SERIES, lang, "series")


def _as_reference_row(row: dict, prefix: str = "eval_rewards/") -> dict:
    """A metrics row in the reference's eval shape: each reward's mean (`<prefix><fn>/mean`) under its own name."""
    out = {"step": row.get("step"), "of": row.get("eval_of"), "eval_reward": row.get("eval_reward")}
    for key, value in row.items():
        if key.startswith(prefix) and key.endswith("/mean"):
            out[key[len(prefix) : -len("/mean")]] = value
    return out


def answers_frame(reference: Reference | None, lang: str) -> pd.DataFrame:
    """One row per held-out prompt: its answer before training, after the warm-up and after GRPO (same seed)."""
    keys = ["learn.ref.col.prompt", "learn.ref.col.base", "learn.ref.col.warmup", "learn.ref.col.grpo"]
    columns = [tr(lang, key) for key in keys]
    rows = []
    for row in reference.answers_by_prompt() if reference else []:
        cells = [short(row["prompt"], 120)]
        for of in ("base", "warmup", "grpo"):
            answer = row.get(of)
            cells.append(_answer_cell(answer) if answer else "—")
        rows.append(cells)
    return pd.DataFrame(rows, columns=columns)


def _answer_cell(answer: dict) -> str:
    scores = ", ".join(
        f"{name} {value:g}" for name, value in (answer.get("rewards") or {}).items() if value is not None
    )
    text = str(answer.get("completion", ""))
    text = text if len(text) <= ANSWER_CHARS else text[: ANSWER_CHARS - 1] + "…"
    return f"{text}\n[{scores}]" if scores else text


def reference_views(lesson: Lesson, lang: str, live: list[dict] | None = None) -> list:
    """The reference run's summary, chart and answers; a lesson without a reference run (Groups trains nothing) shows
    the summary's one line and hides the chart and the table, which would be empty."""
    summary, chart, answers, drawn = reference_values(lesson, lang, live)
    return [summary, gr.Plot(chart, visible=drawn), gr.Dataframe(answers, visible=bool(len(answers)))]


def reference_values(lesson: Lesson, lang: str, live: list[dict] | None = None) -> tuple:
    """(summary, chart, answers table, whether the chart has points)."""
    reference = lesson.reference()
    drawn = bool(len(curve_frame(lesson, lang, reference, live)))
    return (
        reference_markdown(lesson, lang, reference),
        curve_chart(lesson, lang, reference, live),
        answers_frame(reference, lang),
        drawn,
    )


def live_eval_rows(ctx: AppContext, lesson: Lesson, session_id: str | None) -> list[dict]:
    """The eval rows of the current run when it trains this lesson's rewards and this viewer may watch it."""
    job = ctx.jobs.current
    if job is None or not ctx.may_watch(job, session_id):
        return []
    if _recipe_rewards(job.spec.rewards) != _recipe_rewards(lesson.run_spec().rewards):
        return []
    return [row for row in job.run.metrics() if row.get("phase") == "eval"]


def _recipe_rewards(choices) -> list[tuple[str, float]] | None:
    """(metric name, weight) of each reward: defaults written out or left out name the same reward."""
    try:
        return [(metric_name(c.name, c.params), float(c.weight)) for c in choices]
    except PlaygroundError:  # a custom reward: not a lesson's recipe
        return None


# --- handlers ------------------------------------------------------------------------------------------------------


def show_lesson(ctx: AppContext, request: gr.Request, lesson_id: str, session_id: str | None = None) -> list:
    lang = lang_of(request)
    lesson = get_lesson(lesson_id)
    return [*lesson_views(lesson, lang), *reference_views(lesson, lang, live_eval_rows(ctx, lesson, session_id))]


def show_page(ctx: AppContext, request: gr.Request, lesson_id: str | None, session_id: str | None = None) -> list:
    """On page load: the picker's labels and the lesson in the page's language; then the picker opens."""
    lang = lang_of(request)
    lesson = get_lesson(lesson_id or LESSONS[0].id)
    views = [*lesson_views(lesson, lang), *reference_views(lesson, lang, live_eval_rows(ctx, lesson, session_id))]
    return [gr.Dropdown(choices=lesson_choices(lang), value=lesson.id, interactive=True), *views]


def watch_live(ctx: AppContext, request: gr.Request, lesson_id: str | None, session_id: str | None, seen: str | None):
    """The Learn tab's timer: redraw the curve when the live run of this lesson logged a new eval point; stop polling
    once no run is going."""
    lesson = get_lesson(lesson_id or LESSONS[0].id)
    job = ctx.jobs.current
    live = live_eval_rows(ctx, lesson, session_id)
    key = f"{lesson.id}:{job.run.id if job else ''}:{len(live)}"
    timer = gr.Timer(active=job is not None and job.active)
    if key == seen:
        return timer, gr.skip(), seen
    _, chart, _, drawn = reference_values(lesson, lang_of(request), live)
    return timer, gr.Plot(chart, visible=drawn), key


def lesson_spec(ctx: AppContext, lesson: Lesson) -> RunSpec:
    """The lesson's recipe, on the app's model unless the lesson names one."""
    if "model_name_or_path" in lesson.overrides:
        return lesson.run_spec()
    return lesson.run_spec(model_name_or_path=ctx.settings.model or EMBEDDED)


def form_value(spec: RunSpec, name: str) -> Any:
    """The Train form's value for the flat field `name`, as `train_form` shows it (lists and maps as text)."""
    if name in DATA_FLAGS:
        value = getattr(spec.data, DATA_FLAGS[name])
    else:
        section = next(s for s, f in flat_fields() if f.name == name)
        value = getattr(getattr(spec, section), name)
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    if value is None and name in OPTIONAL_TEXT:
        return ""
    return value


def preview_values(spec: RunSpec, prompt: str) -> list:
    """Model, prompt set, row, prompt, the row's columns, G, temperature, top_p, max_new_tokens and the completion
    prefix for Preview.

    When the prompt is a row of the recipe's built-in set, that row is picked, so rewards that read dataset columns
    (e.g. `answer`) score the preview as they will score training.
    """
    g, data = spec.grpo, spec.data
    index = None
    if data.kind == "builtin" and data.name in BUILTIN_SETS:
        prompts = [str(row["prompt"]) for row in builtin_rows(data.name)[:ROWS_SHOWN]]
        index = prompts.index(prompt) if prompt in prompts else None
    if index is None:
        source = [gr.skip(), gr.Dropdown(value=None), prompt, {"prompt": prompt, "columns": {}}]
    else:
        source = [data.name, gr.Dropdown(choices=row_choices(data.name), value=index), *pick_row(data.name, index)]
    sampling = [
        min(max(g.num_generations, 2), 16),
        g.temperature,
        g.top_p,
        min(max(4 * round(g.max_completion_length / 4), 4), 512),  # the slider's range and step
    ]
    return [spec.model.model_name_or_path, *source, *sampling, g.completion_prefix]


def load_lesson(
    ctx: AppContext, layout: Layout, names: tuple[str, ...], request: gr.Request, lesson_id: str, code: str, custom
) -> list:
    """Fill the Rewards selection (as "Apply JSON" would), the Preview inputs and the Train form from the recipe."""
    lang = lang_of(request)
    lesson = get_lesson(lesson_id)
    spec = lesson_spec(ctx, lesson)
    selection = json.dumps([choice.to_dict() for choice in spec.rewards])
    rewards = apply_selection(layout, request, selection, code, custom)
    message = "✓ " + tr(lang, "learn.loaded", title=_in(lang, lesson.title))
    return [message, *rewards, *preview_values(spec, lesson.preview_prompt), *(form_value(spec, n) for n in names)]


# --- layout --------------------------------------------------------------------------------------------------------


def create_learn_tab() -> LearnTab:
    """The tab's layout, in English until the page loads (see `wire_learn_tab`)."""
    first = LESSONS[0]
    with gr.Tab(t("learn.tab"), id="learn") as tab:
        gr.Markdown(t("learn.intro"))
        with gr.Row(equal_height=True):
            # Locked until the page load has drawn the lesson in the page's language: a pick made before that answer
            # arrived was overwritten by it (the picker back on the first lesson, which Load then loaded).
            picker = gr.Dropdown(
                lesson_choices("en"), value=first.id, label=t("learn.pick"), scale=3, interactive=False
            )
            load = gr.Button(t("learn.load"), variant="primary", scale=1)
        loaded = gr.Markdown(elem_classes="pg-status")
        text, expected, recipe = lesson_views(first, "en")
        text = gr.Markdown(text)
        expected = gr.Markdown(expected)
        with gr.Accordion(t("learn.recipe"), open=False):
            recipe = gr.Markdown(recipe)
        summary, curve, answers, drawn = reference_values(first, "en")
        reference = gr.Markdown(summary, elem_classes="pg-reference")
        curve = gr.Plot(
            curve,
            visible=drawn,
            label=t("learn.ref.chart"),
            min_width=280,
            elem_classes=["pg-chart", "pg-reference-curve"],
        )
        answers = gr.Dataframe(
            answers,
            visible=bool(len(answers)),
            label=t("learn.ref.answers"),
            wrap=True,
            interactive=False,
            column_widths=["22%", "26%", "26%", "26%"],  # at a phone's 390 px the prompt keeps about 75 px
            elem_classes="pg-reference-answers",
        )
        timer = gr.Timer(LIVE_SECONDS, active=False)
    return LearnTab(
        picker=picker,
        load=load,
        text=text,
        expected=expected,
        recipe=recipe,
        loaded=loaded,
        reference=reference,
        curve=curve,
        answers=answers,
        tab=tab,
        timer=timer,
    )


def wire_learn_tab(
    demo: gr.Blocks,
    ctx: AppContext,
    session: Session,
    learn: LearnTab,
    rewards: RewardsTab,
    preview: PreviewTab,
    train: TrainTab,
) -> None:
    """The Learn tab's events; called once every tab exists, because Load fills inputs of the other tabs."""
    demo.load(bind(show_page, ctx), [learn.picker, session.id], [learn.picker, *learn.views], **HIDDEN)
    learn.picker.input(bind(show_lesson, ctx), [learn.picker, session.id], learn.views, **HIDDEN)
    seen = gr.State(None)
    live = ([learn.picker, session.id, seen], [learn.timer, learn.curve, seen])
    learn.tab.select(bind(watch_live, ctx), *live, **HIDDEN)  # a run may have ended meanwhile
    learn.timer.tick(bind(watch_live, ctx), *live, **HIDDEN)
    names = tuple(train.form)
    outputs = [learn.loaded, session.selection, *rewards.apply_outputs]
    outputs += [preview.model, preview.prompt_set, preview.prompt_row, preview.prompt, preview.row]
    outputs += [preview.num_generations, preview.temperature, preview.top_p, preview.max_new_tokens]
    outputs += [preview.completion_prefix]
    outputs += list(train.form.values())
    inputs = [learn.picker, rewards.editor, rewards.custom.choices]
    load = bind(load_lesson, ctx, rewards.layout, names)
    # The spinner shows by the message only, not over every input of three tabs.
    learn.load.click(load, inputs, outputs, api_name="load_lesson", show_progress_on=[learn.loaded])
