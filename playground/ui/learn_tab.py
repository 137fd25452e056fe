"""Learn tab: the guided lessons of `playground.lessons`. Pick one, read it in the page's language, and Load its
recipe into the Rewards selection, the Preview inputs and the Train form.

The lesson texts are the engine's (English and Chinese in each `Lesson`), so they are made by handlers with the
request's language (`lang_of`), on page load and when another lesson is picked, not translated by `gr.I18n`.
"""

import html
import json
from dataclasses import dataclass
from typing import Any

import gradio as gr

from playground.data import BUILTIN_SETS
from playground.lessons import LESSONS, Lesson, get_lesson
from playground.models import EMBEDDED
from playground.spec import DATA_FLAGS, RunSpec, flat_fields
from playground.ui.common import bind, lang_of, short
from playground.ui.context import AppContext, Session
from playground.ui.i18n import t, tr
from playground.ui.preview_tab import ROWS_SHOWN, PreviewTab, builtin_rows, pick_row, row_choices
from playground.ui.rewards_tab import Layout, RewardsTab, apply_selection
from playground.ui.train_form import OPTIONAL_TEXT
from playground.ui.train_tab import TrainTab


HIDDEN = dict(api_visibility="private", show_progress="hidden")


@dataclass
class LearnTab:
    picker: gr.Dropdown
    load: gr.Button
    text: gr.Markdown
    expected: gr.Markdown
    recipe: gr.Markdown
    loaded: gr.Markdown

    @property
    def views(self) -> list[gr.Component]:
        return [self.text, self.expected, self.recipe]


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


# --- handlers ------------------------------------------------------------------------------------------------------


def show_lesson(request: gr.Request, lesson_id: str) -> list[str]:
    return lesson_views(get_lesson(lesson_id), lang_of(request))


def show_page(request: gr.Request, lesson_id: str | None) -> list:
    """On page load: the picker's labels and the lesson in the page's language."""
    lang = lang_of(request)
    lesson = get_lesson(lesson_id or LESSONS[0].id)
    return [gr.Dropdown(choices=lesson_choices(lang), value=lesson.id), *lesson_views(lesson, lang)]


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
    with gr.Tab(t("learn.tab"), id="learn"):
        gr.Markdown(t("learn.intro"))
        with gr.Row(equal_height=True):
            picker = gr.Dropdown(lesson_choices("en"), value=first.id, label=t("learn.pick"), scale=3)
            load = gr.Button(t("learn.load"), variant="primary", scale=1)
        loaded = gr.Markdown(elem_classes="pg-status")
        text, expected, recipe = lesson_views(first, "en")
        text = gr.Markdown(text)
        expected = gr.Markdown(expected)
        with gr.Accordion(t("learn.recipe"), open=False):
            recipe = gr.Markdown(recipe)
    return LearnTab(picker=picker, load=load, text=text, expected=expected, recipe=recipe, loaded=loaded)


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
    demo.load(bind(show_page), learn.picker, [learn.picker, *learn.views], **HIDDEN)
    learn.picker.input(bind(show_lesson), learn.picker, learn.views, **HIDDEN)
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
