"""Preview tab: sample a group of G completions for one prompt and score it as GRPO will, before any training."""

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import gradio as gr

from playground.advantages import AdvantageSettings
from playground.data.sources import BUILTIN_SETS, PromptSource, load_prompts
from playground.errors import PlaygroundError
from playground.isolation.visitor import reward_executor
from playground.models import EMBEDDED
from playground.preview import run_preview
from playground.runtime.zerogpu import gpu_handler
from playground.scoring import build_rewards
from playground.spec import spec_with
from playground.ui.common import (
    bind,
    empty_frame,
    lang_of,
    progress_callback,
    score_frame,
    score_summary,
    sentences,
    short,
    text_widths,
)
from playground.ui.context import AppContext, Session, parse_selection
from playground.ui.custom_code import custom_rewards
from playground.ui.fair import PREVIEW_SLOTS, fair
from playground.ui.i18n import t, tr
from playground.ui.page_load import headers_on_load
from playground.ui.rewards_tab import RewardsTab, selection_summary, selection_summary_for


ROWS_SHOWN = 100  # prompts listed per set in the row picker
G_RANGE = (2, 16)  # group sizes the Preview offers: GRPO needs 2; 16 keeps a CPU Space's preview under a minute


@dataclass
class PreviewTab:
    """The inputs another tab may fill (the Learn tab's Load)."""

    model: gr.Dropdown
    prompt_set: gr.Dropdown
    prompt_row: gr.Dropdown
    prompt: gr.Textbox
    row: gr.State
    num_generations: gr.Number
    temperature: gr.Slider
    top_p: gr.Slider
    max_new_tokens: gr.Slider
    completion_prefix: gr.Textbox
    seed: gr.Number
    run: gr.Button
    table: gr.Dataframe
    summary: gr.Markdown


def model_choices(default: str) -> list[tuple[str, str]]:
    """The model picker's suggestions: the embedded model and the app's default; any Hub id or folder can be typed."""
    choices = [(t("preview.model.embedded"), EMBEDDED)]  # its label in the page's language
    if default and default != EMBEDDED:
        choices.append((default, default))
    return choices


@lru_cache(maxsize=len(BUILTIN_SETS))
def builtin_rows(name: str) -> tuple[dict, ...]:
    """The rows of a built-in prompt set (prompt plus its other columns); read once, never modified."""
    return tuple(load_prompts(PromptSource(kind="builtin", name=name)).dataset.to_list())


def _row_state(row: dict) -> dict:
    return {"prompt": str(row["prompt"]), "columns": {k: v for k, v in row.items() if k != "prompt"}}


def row_choices(name: str) -> list[tuple[str, int]]:
    return [(f"{i + 1}. {short(row['prompt'], 70)}", i) for i, row in enumerate(builtin_rows(name)[:ROWS_SHOWN])]


def pick_set(name: str):
    first = builtin_rows(name)[0]
    return gr.Dropdown(choices=row_choices(name), value=0), str(first["prompt"]), _row_state(first)


def pick_row(name: str, index: int | None):
    if index is None:
        return gr.skip(), gr.skip()
    row = builtin_rows(name)[int(index)]
    return str(row["prompt"]), _row_state(row)


def _int(value) -> int:
    """A number box's value as an int for the gate (0 for an empty box, which the gate then refuses)."""
    try:
        return int(value or 0)
    except (TypeError, ValueError, OverflowError):
        return 0


# The Train tab's recipe fields that change an advantage (besides the weights): the Preview reads them from there.
RECIPE_FIELDS = ("scale_rewards", "multi_objective_aggregation", "per_device_train_batch_size", "steps_per_generation")
RECIPE_FIELDS += ("gradient_accumulation_steps",)


def generate(
    ctx: AppContext,
    request: gr.Request,
    token: str | None,
    model: str,
    prompt: str,
    row: dict | None,
    selection: list[dict],
    code: str,
    num_generations: int,
    temperature: float,
    top_p: float,
    max_new_tokens: int,
    seed: int,
    completion_prefix: str = "",
    scale_rewards: str = "group",
    multi_objective_aggregation: str = "sum_then_normalize",
    per_device_train_batch_size: int | None = None,
    steps_per_generation: int | None = None,
    gradient_accumulation_steps: int | None = None,
    progress=gr.Progress(),
):
    """Load the model (kept loaded between previews), sample G completions in one batch, score them as training will:
    with the Train tab's fields that change an advantage (`RECIPE_FIELDS`) and the Rewards tab's weights.

    With a `completion_prefix` (the run spec's field) the model continues after it and rewards score the prefix plus
    the continuation, as in training.
    """
    lang = lang_of(request)
    if not (prompt or "").strip():
        raise PlaygroundError(tr(lang, "preview.empty_prompt"))
    ctx.check_sampling([(prompt or "") + (completion_prefix or "")], _int(num_generations), _int(max_new_tokens))
    if num_generations is None or not G_RANGE[0] <= num_generations <= G_RANGE[1] or num_generations % 1:
        raise PlaygroundError(tr(lang, "preview.g.range", low=G_RANGE[0], high=G_RANGE[1], g=num_generations))
    values = {"scale_rewards": scale_rewards, "multi_objective_aggregation": multi_objective_aggregation}
    values |= {"per_device_train_batch_size": per_device_train_batch_size or None}  # an empty box: the recipe's
    values |= {"steps_per_generation": steps_per_generation or None}
    values |= {"gradient_accumulation_steps": gradient_accumulation_steps or None}
    values |= {"num_generations": int(num_generations), "max_completion_length": int(max_new_tokens)}
    values |= {"temperature": float(temperature), "top_p": float(top_p), "seed": int(seed or 0)}
    values["completion_prefix"] = completion_prefix or ""
    spec = spec_with(values, parse_selection(selection))
    custom = custom_rewards(ctx, request, code, selection)
    funcs, weights = build_rewards(spec.rewards, custom, executor=reward_executor(ctx.viewer(token)))
    columns = row["columns"] if row and row.get("prompt") == prompt else {}

    def load():
        loaded = ctx.models.get(model, progress=progress_callback(progress, lang))
        progress(None, desc=tr(lang, "preview.generating", g=spec.grpo.num_generations))  # no fraction to report
        return loaded

    result = run_preview(spec, prompt, funcs, weights, load, columns=columns)
    timing = tr(lang, "preview.timing", g=spec.grpo.num_generations, seconds=f"{result.group.seconds:.1f}")
    summary = "\n\n".join([timing, score_summary(result.score, lang), advantage_note(spec, lang)])
    # the table's value as it is (API and MCP clients read it); its column widths follow in `fit_completion_column`
    return score_frame(result.score, lang), summary, result.to_json()


def advantage_note(spec, lang: str) -> str:
    """Which advantage settings the group was scored with, and (batch scaling, normalize_then_sum) how the batch of
    training differs from this one group."""
    g = spec.grpo
    note = tr(lang, "preview.advantage.settings", scale=g.scale_rewards, aggregation=g.multi_objective_aggregation)
    if AdvantageSettings(g.scale_rewards, g.multi_objective_aggregation).batch_wide:
        note = sentences(lang, note, tr(lang, "preview.advantage.batch", batch=spec.generation_batch_size()))
    return note


def fit_completion_column(request: gr.Request, value: Any) -> gr.Dataframe:
    """Only the group table's column widths: the completion shares what the number columns leave (value untouched)."""
    columns = [str(c) for c in getattr(value, "columns", [])]
    return gr.Dataframe(column_widths=text_widths(columns, {tr(lang_of(request), "table.completion"): 1}))


def create_preview_tab(ctx: AppContext, session: Session, rewards: RewardsTab) -> PreviewTab:
    first_set = next(iter(BUILTIN_SETS))
    first_row = _row_state(builtin_rows(first_set)[0])
    with gr.Tab(t("preview.tab"), id="preview"):
        gr.Markdown(t("preview.intro"))
        with gr.Row(equal_height=False):
            with gr.Column(scale=3):
                model = gr.Dropdown(
                    model_choices(ctx.settings.model),
                    value=ctx.settings.model or EMBEDDED,
                    allow_custom_value=True,
                    label=t("preview.model"),
                    info=t("preview.model.info"),
                )
                with gr.Row():
                    prompt_set = gr.Dropdown(
                        [(t(f"preview.set.{n}"), n) for n in BUILTIN_SETS], value=first_set, label=t("preview.set")
                    )
                    prompt_row = gr.Dropdown(row_choices(first_set), value=0, label=t("preview.row"))
                prompt = gr.Textbox(
                    first_row["prompt"], lines=3, label=t("preview.prompt"), info=t("preview.prompt.info")
                )
                rewards_md = gr.Markdown(selection_summary(session.selection.value, None))
            with gr.Column(scale=2):
                # A number box, not a slider: a typed 1 or 17 is refused with a message instead of being clamped.
                num_generations = gr.Number(8, precision=0, label=t("preview.g"), info=t("preview.g.info"))
                temperature = gr.Slider(0.1, 2.0, value=1.0, step=0.05, label="temperature")
                top_p = gr.Slider(0.05, 1.0, value=1.0, step=0.05, label="top_p")
                max_new_tokens = gr.Slider(4, 512, value=64, step=4, label="max_new_tokens")
                seed = gr.Number(0, precision=0, label="seed")
                prefix = gr.Textbox("", label="completion_prefix", info=t("train.help.completion_prefix"), max_lines=1)
                run = gr.Button(t("preview.generate"), variant="primary")
        headers = ("table.completion", "table.total", "table.advantage")
        table = gr.Dataframe(empty_frame("en", *headers), label=t("preview.table"), wrap=True, interactive=False)
        headers_on_load(table, *headers)
        # The progress (and an error's badge) show here, never over the table: an error keeps the last group.
        summary = gr.Markdown(elem_classes="pg-preview-summary")
        gr.Markdown(t("preview.advantage.help"))
        row = gr.State(first_row)  # the picked row's dataset columns, for rewards that read them

    # .input, not .change: a set put there by the Learn tab's Load comes with its own row and prompt.
    prompt_set.input(bind(pick_set), prompt_set, [prompt_row, prompt, row], api_visibility="private")
    prompt_row.input(bind(pick_row), [prompt_set, prompt_row], [prompt, row], api_visibility="private")
    session.selection.change(
        bind(selection_summary_for), session.selection, rewards_md, show_progress="hidden", api_visibility="private"
    )
    return PreviewTab(
        model,
        prompt_set,
        prompt_row,
        prompt,
        row,
        num_generations,
        temperature,
        top_p,
        max_new_tokens,
        prefix,
        seed,
        run,
        table,
        summary,
    )


def wire_preview_tab(ctx: AppContext, session: Session, rewards: RewardsTab, preview: PreviewTab, recipe) -> None:
    """Generate: the Preview's own inputs, then the Train form's fields that change an advantage (`recipe`: the
    form, flat field name -> component), so the group is scored with the recipe that trains."""
    p = preview
    inputs = [session.id, p.model, p.prompt, p.row, session.selection, rewards.editor, p.num_generations]
    inputs += [p.temperature, p.top_p, p.max_new_tokens, p.seed, p.completion_prefix]
    inputs += [recipe[name] for name in RECIPE_FIELDS]
    outputs = [p.table, p.summary, session.preview]
    # One preview samples at a time (the app's model); a visitor's queued previews wait behind their own.
    generate_fairly = fair(gpu_handler(bind(generate, ctx)), PREVIEW_SLOTS)
    done = p.run.click(
        generate_fairly,
        inputs,
        outputs,
        api_name="generate_group",
        show_progress_on=[p.summary],
        concurrency_limit=None,
    )
    done.success(fit_completion_column, outputs[0], outputs[0], api_visibility="private", show_progress="hidden")
