"""Learn tab: the guided lessons of `playground.lessons`. Pick one, read it in the page's language, and Load its
recipe into the Rewards selection, the Preview inputs and the Train form.

A lesson that trains shows its reference run at once (`playground.lessons.reference`, no compute): what the warm-up and
GRPO each added, the eval curve, and held-out answers before training, after the warm-up and after GRPO. A lesson that
teaches a trap and its fix (`Lesson.trap`) shows both reference runs on one chart ("fix" and "trap" series, each with
its own chart metrics) and the held-out answers of both; Load loads the fix, "Load the trap" the trap. While a run of
the lesson's rewards (or its trap's) goes and the viewer may watch it, its eval points are drawn beside them.

The lesson texts are the engine's (English and Chinese in each `Lesson`), so they are made by handlers with the
request's language (`lang_of`), on page load and when another lesson is picked, not translated by `gr.I18n`.
"""

import html
import json
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
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
from playground.ui.common import bind, bold, duration_text, lang_of, sentences, short
from playground.ui.context import AppContext, Session
from playground.ui.i18n import t, tr
from playground.ui.page_load import on_page_load
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
    load_trap: gr.Button
    text: gr.Markdown
    expected: gr.Markdown
    recipe: gr.Markdown
    loaded: gr.Markdown
    reference: gr.Markdown
    curve: gr.Plot
    answers: gr.Dataframe
    trap_answers: gr.Dataframe
    tab: gr.Tab
    timer: gr.Timer
    last_lesson: gr.BrowserState  # the lesson last shown, so that a reloaded page opens it again

    @property
    def views(self) -> list[gr.Component]:
        return [
            self.text,
            self.expected,
            self.recipe,
            self.reference,
            self.curve,
            self.answers,
            self.trap_answers,
            self.load_trap,
        ]


# --- views ---------------------------------------------------------------------------------------------------------


def _in(lang: str, texts: dict[str, str]) -> str:
    return texts.get(lang) or texts.get("en", "")


def lesson_choices(lang: str) -> list[tuple[str, str]]:
    """The picker's (label, value) pairs: the number and title in `lang`, the lesson id."""
    return [(f"{i}. {_in(lang, lesson.title)}", lesson.id) for i, lesson in enumerate(LESSONS, start=1)]


def lesson_views(lesson: Lesson, lang: str) -> list[str]:
    """The lesson's title, its expected duration on a line of its own, its text, the figure to expect, and what Load
    sets, in `lang`."""
    text = f"## {_in(lang, lesson.title)}\n\n{duration_line(lesson, lang)}\n\n{_in(lang, lesson.text)}"
    expected = sentences(lang, bold(tr(lang, "learn.expected")), _in(lang, lesson.expected))
    return [text, expected, recipe_markdown(lesson, lang)]


def duration_line(lesson: Lesson, lang: str) -> str:
    """How long the lesson's run takes: its reference run's wall time and machine (for a lesson with a trap, the fix's,
    which Load sets); a lesson without a reference run trains nothing."""
    reference = lesson.reference()
    if reference is None or not reference.run.get("wall_s"):
        return tr(lang, "learn.duration.none")
    wall = duration_text(reference.run["wall_s"], lang)
    return tr(lang, "learn.duration", wall=wall, where=_where(reference, lang), cpu=_cpu(reference))


def _cpu(reference: Reference) -> str:
    """The processor's name without trademark signs: "Intel Xeon Processor", "AMD EPYC"."""
    return " ".join(str(reference.run.get("cpu", "?")).replace("(R)", "").replace("(TM)", "").split())


def recipe_markdown(lesson: Lesson, lang: str) -> str:
    """The rewards, the Train settings the lesson changes (TRL's names) and the Preview prompt; for a lesson with a
    trap, then what "Load the trap" changes."""
    rewards = lesson.rewards or tuple(lesson.run_spec().rewards)
    lines = [sentences(lang, bold(tr(lang, "learn.recipe.rewards")), _reward_items(rewards))]
    if lesson.overrides:
        lines.append(sentences(lang, bold(tr(lang, "learn.recipe.fields")), _field_items(lesson.overrides)))
    prompt = html.escape(short(lesson.preview_prompt, 160))
    lines.append(sentences(lang, bold(tr(lang, "learn.recipe.prompt")), prompt))
    if lesson.trap is not None:
        trap_rewards, trap_fields = lesson.trap
        lines.append(f"**{tr(lang, 'learn.recipe.trap')}**")
        lines.append(sentences(lang, bold(tr(lang, "learn.recipe.rewards")), _reward_items(trap_rewards)))
        if trap_fields:
            lines.append(sentences(lang, bold(tr(lang, "learn.recipe.fields")), _field_items(trap_fields)))
    return "\n\n".join(lines)


def _reward_items(rewards) -> str:
    items = []
    for choice in rewards:
        params = ", ".join(f"{k}={v!r}" for k, v in choice.params.items())
        items.append(f"`{choice.name}`" + (f" ({html.escape(params)})" if params else "") + f" × {choice.weight:g}")
    return ", ".join(items)


def _field_items(fields: dict) -> str:
    return ", ".join(f"`{name}={value!r}`" for name, value in fields.items())  # code spans: shown as written


def _fmt(value: float) -> str:
    """Three significant figures, or two decimals below 1, rounded half up as a reader does (0.125 -> 0.13)."""
    if abs(value) >= 1 or value == 0:
        return f"{value:.3g}"
    return str(Decimal(repr(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


# Eval-row keys that are no reward of a run (the rest, shared by a fix and its trap, are compared in the summary)
NOT_REWARDS = ("step", "of", "eval_reward", "empty_section_rate", "sentence_rate")


def reference_markdown(
    lesson: Lesson, lang: str, reference: Reference | None = None, trap: Reference | None = None
) -> str:
    """Where and how the reference run was measured, and what the warm-up and GRPO each added to the lesson's
    chart metrics. A lesson with a trap: the fix's run, then the trap's (`trap`, or the shipped one), each with its
    own chart metrics and the rewards both runs share (e.g. the length reward)."""
    reference = reference or lesson.reference()
    if reference is None:
        return f"### {tr(lang, 'learn.ref.title')}\n\n{tr(lang, 'learn.ref.none')}"
    per = lesson.run_spec().grpo.eval_num_generations  # answers per held-out prompt, the trap's as the fix's
    if lesson.trap is None:
        return f"### {tr(lang, 'learn.ref.title')}\n\n" + "\n\n".join(_run_lines(reference, lesson.chart, lang, per))
    trap = trap or lesson.reference(trap=True)
    shared = _shared_rewards(reference, trap) if trap is not None else []
    lines = [f"**{tr(lang, 'learn.ref.fix_title')}**", *_run_lines(reference, (*lesson.chart, *shared), lang, per)]
    if trap is not None:
        metrics = (*(lesson.trap_chart or lesson.chart), *shared)
        lines += [f"**{tr(lang, 'learn.ref.trap_title')}**", *_run_lines(trap, metrics, lang, per)]
    return f"### {tr(lang, 'learn.ref.title_both')}\n\n" + "\n\n".join(lines)


def _shared_rewards(one: Reference, other: Reference) -> list[str]:
    """The reward metrics of both runs' eval rows, in the order of `one`'s."""
    first, second = one.point("base") or {}, other.point("base") or {}
    return [key for key in first if key in second and key not in NOT_REWARDS]


def _where(reference: Reference, lang: str) -> str:
    """The machine as "2 cores", or "1 thread(s) of its 2 cores" for a run recorded at fewer threads."""
    cores, threads = reference.run.get("cores", "?"), reference.fewer_threads
    if threads is not None:
        return tr(lang, "learn.ref.threads", threads=threads, cores=cores)
    return tr(lang, "learn.ref.cores", cores=cores)


def _run_lines(reference: Reference, metrics, lang: str, per: int = 1) -> list[str]:
    """One run's summary: where it was measured (and whether the machine was shared), its held-out answers per eval
    point as prompts × `per` answers, its alerts, and each of `metrics` before training, after the warm-up and after
    GRPO."""
    run = reference.run
    wall = run.get("wall_s") or 0.0
    samples = run.get("eval_samples")
    prompts = samples // per if isinstance(samples, int) and per > 0 and samples % per == 0 else "?"
    lines = [
        tr(
            lang,
            "learn.ref.summary" if reference.eval else "learn.ref.summary_train",
            where=_where(reference, lang),
            cpu=_cpu(reference),
            load=run.get("load_avg_1min") or "?",
            wall=duration_text(wall, lang),
            steps=run.get("max_steps", "?"),
            samples=samples if samples is not None else "?",
            prompts=prompts,
            per=per,
        )
    ]
    if reference.fewer_threads is not None:
        lines.append(tr(lang, "learn.ref.other_machine", cpu=_cpu(reference), threads=reference.fewer_threads))
    if reference.busy:
        lines.append(tr(lang, "learn.ref.busy", load=f"{run['load_avg_1min']:g}", cores=run["cores"]))
    if run.get("alerts"):
        lines.append(tr(lang, "learn.ref.alerts", alerts=", ".join(f"`{code}`" for code in run["alerts"])))
    warmed = reference.point("warmup") is not None
    for metric in metrics:
        shares = reference.shares(metric)
        if shares is None:
            continue
        values = {k: _fmt(v) for k, v in shares.items() if k in ("base", "warmup", "final")}
        values |= {k: _signed(shares[k]) for k in ("from_warmup", "from_grpo")}
        lines.append(tr(lang, "learn.ref.share" if warmed else "learn.ref.share_grpo", metric=metric, **values))
    return lines


def _signed(value: float) -> str:
    return f"{value:+.2f}" if abs(value) < 10 else f"{value:+.0f}"


def curve_frame(
    lesson: Lesson,
    lang: str,
    reference: Reference | None,
    live: list[dict] | None = None,
    trap: Reference | None = None,
):
    """The lesson's chart metrics at each eval point: the reference run's (for a lesson with a trap, the fix's as
    "fix" and the `trap` run's `trap_chart` metrics as "trap"), and the live run's beside them."""
    points = []
    rows = reference.eval if reference else []
    if reference is not None and not rows:  # a lesson without eval points: its training reward means per step
        rows = [_as_reference_row(m, "rewards/") | {"eval_reward": m.get("reward")} for m in reference.metrics]
    trapped = lesson.trap is not None
    trap_chart = lesson.trap_chart or lesson.chart
    sources = [(tr(lang, "learn.ref.fix" if trapped else "learn.ref.reference"), rows, lesson.chart)]
    if trapped and trap is not None:
        sources.append((tr(lang, "learn.ref.trap"), trap.eval, trap_chart))
    if live:
        charted = tuple(dict.fromkeys((*lesson.chart, *(trap_chart if trapped else ()))))
        sources.append((tr(lang, "learn.ref.live"), [_as_reference_row(row) for row in live], charted))
    for source, rows, chart in sources:
        for row in rows:
            for metric in chart:
                value = row.get(metric)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    points.append((int(row.get("step", 0)), float(value), f"{metric} · {source}"))
    frame = pd.DataFrame(points, columns=["step", "value", SERIES])
    return frame.astype({"step": "int64", "value": "float64", SERIES: "str"})


def curve_chart(
    lesson: Lesson,
    lang: str,
    reference: Reference | None,
    live: list[dict] | None = None,
    trap: Reference | None = None,
) -> VegaPlot:
    """The curve as the Train tab draws its charts (`charts.vega_chart`): whole steps on x, y labels without float
    noise, axis and legend titles in `lang`."""
    return vega_chart(curve_frame(lesson, lang, reference, live, trap), "lesson", SERIES, lang, "series")


def _as_reference_row(row: dict, prefix: str = "eval_rewards/") -> dict:
    """A metrics row in the reference's eval shape: each reward's mean (`<prefix><fn>/mean`) under its own name, and
    the answer shapes (`empty_section_rate`, `sentence_rate`) as they are."""
    out = {"step": row.get("step"), "of": row.get("eval_of"), "eval_reward": row.get("eval_reward")}
    out |= {key: row[key] for key in ("empty_section_rate", "sentence_rate") if key in row}
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
    """An answer's text and its scores to 3 decimals, as the samples and eval-answer tables show scores."""
    scores = ", ".join(
        f"{name} {value:.3f}" for name, value in (answer.get("rewards") or {}).items() if value is not None
    )
    text = str(answer.get("completion", ""))
    text = text if len(text) <= ANSWER_CHARS else text[: ANSWER_CHARS - 1] + "…"
    return f"{text}\n[{scores}]" if scores else text


def reference_views(lesson: Lesson, lang: str, live: list[dict] | None = None) -> list:
    """The reference run's summary, chart and answers; a lesson without a reference run (Groups trains nothing) shows
    the summary's one line and hides the chart and the table, which would be empty. For a lesson with a trap, the
    answers are the fix's (see `trap_views` for the trap's)."""
    summary, chart, answers, drawn = reference_values(lesson, lang, live)
    label = tr(lang, "learn.ref.fix_answers" if lesson.trap is not None else "learn.ref.answers")
    return [summary, gr.Plot(chart, visible=drawn), gr.Dataframe(answers, visible=bool(len(answers)), label=label)]


def trap_views(lesson: Lesson, lang: str) -> list:
    """The trap's held-out answers and the "Load the trap" button: shown only for a lesson with a trap."""
    answers = answers_frame(lesson.reference(trap=True), lang)
    return [
        gr.Dataframe(answers, visible=bool(len(answers)), label=tr(lang, "learn.ref.trap_answers")),
        gr.Button(tr(lang, "learn.load_trap"), visible=lesson.trap is not None),
    ]


def reference_values(lesson: Lesson, lang: str, live: list[dict] | None = None) -> tuple:
    """(summary, chart, answers table, whether the chart has points)."""
    reference, trap = lesson.reference(), lesson.reference(trap=True)
    drawn = bool(len(curve_frame(lesson, lang, reference, live, trap)))
    return (
        reference_markdown(lesson, lang, reference, trap),
        curve_chart(lesson, lang, reference, live, trap),
        answers_frame(reference, lang),
        drawn,
    )


def live_eval_rows(ctx: AppContext, lesson: Lesson, session_id: str | None) -> list[dict]:
    """The eval rows of the current run when it trains this lesson's rewards (or its trap's) and this viewer may
    watch it."""
    job = ctx.jobs.current
    if job is None or not ctx.may_watch(job, session_id):
        return []
    recipes = [lesson.run_spec()] + ([lesson.run_spec(trap=True)] if lesson.trap is not None else [])
    if _recipe_rewards(job.spec.rewards) not in [_recipe_rewards(spec.rewards) for spec in recipes]:
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
    live = live_eval_rows(ctx, lesson, session_id)
    return [*lesson_views(lesson, lang), *reference_views(lesson, lang, live), *trap_views(lesson, lang)]


def known_lesson(lesson_id: str | None) -> str | None:
    """The id if a lesson has it (what the browser keeps is the visitor's to change), else None."""
    return lesson_id if any(lesson.id == lesson_id for lesson in LESSONS) else None


def show_page(
    ctx: AppContext,
    request: gr.Request,
    lesson_id: str | None,
    session_id: str | None = None,
    last_lesson: str | None = None,
) -> list:
    """On page load: the picker's labels and the lesson in the page's language (the one the browser last showed, if
    any); then the picker opens."""
    lang = lang_of(request)
    lesson = get_lesson(known_lesson(last_lesson) or lesson_id or LESSONS[0].id)
    live = live_eval_rows(ctx, lesson, session_id)
    views = [*lesson_views(lesson, lang), *reference_views(lesson, lang, live), *trap_views(lesson, lang)]
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


def lesson_spec(ctx: AppContext, lesson: Lesson, trap: bool = False) -> RunSpec:
    """The lesson's recipe (or its trap), on the app's model unless the lesson names one."""
    if "model_name_or_path" in lesson.overrides:
        return lesson.run_spec(trap=trap)
    return lesson.run_spec(trap=trap, model_name_or_path=ctx.settings.model or EMBEDDED)


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
    ctx: AppContext,
    layout: Layout,
    names: tuple[str, ...],
    request: gr.Request,
    lesson_id: str,
    code: str,
    custom,
    trap: bool = False,
) -> list:
    """Fill the Rewards selection (as "Apply JSON" would), the Preview inputs and the Train form from the recipe (or,
    with `trap`, from the lesson's trap)."""
    lang = lang_of(request)
    lesson = get_lesson(lesson_id)
    if trap and lesson.trap is None:
        raise PlaygroundError("learn.no_trap", title=_in(lang, lesson.title))
    spec = lesson_spec(ctx, lesson, trap)
    selection = json.dumps([choice.to_dict() for choice in spec.rewards])
    rewards = apply_selection(layout, request, selection, code, custom)
    message = "✓ " + tr(lang, "learn.loaded_trap" if trap else "learn.loaded", title=_in(lang, lesson.title))
    return [message, *rewards, *preview_values(spec, lesson.preview_prompt), *(form_value(spec, n) for n in names)]


def forget_loaded() -> str:
    """Another lesson picked: the "✓ Loaded …" message of the one loaded before goes."""
    return ""


def load_trap(
    ctx: AppContext, layout: Layout, names: tuple[str, ...], request: gr.Request, lesson_id: str, code: str, custom
) -> list:
    """Load the lesson's trap: the recipe that shows the failure its fix (Load) avoids."""
    return load_lesson(ctx, layout, names, request, lesson_id, code, custom, trap=True)


# --- layout --------------------------------------------------------------------------------------------------------


def create_learn_tab(last_lesson: gr.BrowserState) -> LearnTab:
    """The tab's layout, in English until the page loads (see `wire_learn_tab`). `last_lesson` is made outside the
    tabs: a component in a `gr.Tab` that the page does not draw confused the tab bar after a reload (two "Train" tabs,
    no "Compare")."""
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
            load_trap = gr.Button(t("learn.load_trap"), variant="secondary", scale=1, visible=first.trap is not None)
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
            elem_classes=["pg-reference-answers", "pg-answers"],
        )
        trap_answers_value = answers_frame(first.reference(trap=True), "en")
        trap_answers = gr.Dataframe(
            trap_answers_value,
            visible=bool(len(trap_answers_value)),
            label=t("learn.ref.trap_answers"),
            wrap=True,
            interactive=False,
            column_widths=["22%", "26%", "26%", "26%"],
            elem_classes=["pg-reference-answers-trap", "pg-answers"],
        )
        timer = gr.Timer(LIVE_SECONDS, active=False)
    return LearnTab(
        picker=picker,
        load=load,
        load_trap=load_trap,
        text=text,
        expected=expected,
        recipe=recipe,
        loaded=loaded,
        reference=reference,
        curve=curve,
        answers=answers,
        trap_answers=trap_answers,
        tab=tab,
        timer=timer,
        last_lesson=last_lesson,
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
    page = [learn.picker, session.id, learn.last_lesson]
    on_page_load(bind(show_page, ctx), page, [learn.picker, *learn.views])
    # .change, not .input: "start here" picks the format lesson too
    learn.picker.change(known_lesson, learn.picker, learn.last_lesson, **HIDDEN)
    learn.picker.change(forget_loaded, None, learn.loaded, **HIDDEN)  # "✓ Loaded …" belongs to the lesson loaded
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
    trap = bind(load_trap, ctx, rewards.layout, names)
    learn.load_trap.click(trap, inputs, outputs, api_name="load_lesson_trap", show_progress_on=[learn.loaded])
