"""The recipe form of the Train tab, built from the run spec's dataclass fields (TRL names, help from metadata).

The form is a dict `{flat field name: component}`; `spec_from_form(names, values, selection)` turns the values back
into one `RunSpec` through `RunSpec.set`, so there is no mapper to keep in step with the spec.
"""

import os
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path

import gradio as gr

from playground.data.parsers import FILE_TYPES
from playground.data.sources import BUILTIN_SETS, KINDS, PromptSource, guess_kind, load_prompts, parse_column_map
from playground.errors import ModelLoadError, PlaygroundError, SpecError
from playground.models import ModelSource, describe_load_error, resolve_path
from playground.spec import DATA_FLAGS, RunSpec, demo_spec, flat_fields
from playground.ui.common import lang_of, notify
from playground.ui.context import parse_selection
from playground.ui.i18n import t, tr
from playground.ui.preview_tab import model_choices


# The form reads at a glance: the model, the data, the rewards and these, then Start and Stop; every other field is in
# a named group, collapsed (`GROUPS`, then data, LoRA and quantization).
ESSENTIALS = ("max_steps", "learning_rate")
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "train.group.generation",
        ("num_generations", "max_completion_length", "temperature", "top_p", "steps_per_generation"),
    ),
    (
        "train.group.optimisation",
        ("beta", "epsilon", "loss_type", "scale_rewards", "multi_objective_aggregation")
        + ("per_device_train_batch_size", "gradient_accumulation_steps", "gradient_checkpointing", "seed"),
    ),
    (
        "train.group.cold_start",
        (
            "sft_warmup_steps",
            "sft_examples",
            "sft_tags",
            "sft_split",
            "sft_num_examples",
            "sft_learning_rate",
            "completion_prefix",
        ),
    ),
    ("train.group.evaluation", ("eval_every", "eval_prompts", "eval_num_generations", "eval_max_completion_length")),
    (
        "train.group.rollout",
        ("use_vllm", "fast_rollout", "bf16", "vllm_importance_sampling_correction", "vllm_importance_sampling_mode")
        + ("vllm_importance_sampling_clip_max", "off_policy_mask_threshold"),
    ),
    ("train.group.run", ("reward_error_policy", "completions_as_text", "save_steps", "report_to")),
)
QUANTIZATION = ("load_in_4bit", "load_in_8bit", "bnb_4bit_quant_type", "device", "num_processes")
CHOICES = {f.name: tuple(f.metadata["choices"]) for _, f in flat_fields() if "choices" in f.metadata}
CHOICES["dataset_kind"] = KINDS
OPTIONAL_TEXT = ("dataset_config", "system_prompt")  # an empty box means None
# Numbers whose default is "unset" (None): the browser shows an empty number box as 0 once its section has opened, so
# 0 means unset too (it is never a valid value for these).
OPTIONAL_NUMBERS = tuple(f.name for _, f in flat_fields() if "None" in str(f.type))
NUMBERS = tuple(
    f.name for _, f in flat_fields() if str(getattr(f.type, "__name__", f.type)).startswith(("int", "float"))
)
PER_ROW = 4
# Outside public mode (which has its own cap, PLAYGROUND_MAX_STEPS) a run may ask for this many steps; more is surely
# a typo (1e9 would take over 30 years even at a second a step), so the form asks for a cap instead.
UNCAPPED_STEPS = 100_000
SECONDS_PER_DAY = 86_400

Form = dict[str, gr.Component]


def _kind(f) -> str:
    return f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))


def _field_input(name: str, kind: str, value, info: str) -> gr.Component:
    if name in CHOICES:
        return gr.Dropdown(list(CHOICES[name]), value=value, label=name, info=info)
    if kind.startswith("bool"):
        return gr.Checkbox(value=value, label=name, info=info)
    if kind.startswith("int"):
        return gr.Number(value=value, precision=0, label=name, info=info)
    if kind.startswith("float"):
        return gr.Number(value=value, label=name, info=info)
    if kind.startswith("list"):
        return gr.Textbox(", ".join(value), label=name, info=info, max_lines=1)
    if kind.startswith("dict"):
        text = ", ".join(f"{k}={v}" for k, v in value.items())
        return gr.Textbox(text, label=name, info=info, placeholder="question=prompt, solution=answer", max_lines=1)
    return gr.Textbox(value or "", label=name, info=info, max_lines=1)


def _spec_fields(default_model: str) -> dict[str, tuple[str, object, str]]:
    """name -> (type, default value, help) for every flat field and every prompt-source flag."""
    spec = demo_spec()
    spec.model.model_name_or_path = default_model or spec.model.model_name_or_path
    sections = {"model": spec.model, "grpo": spec.grpo, "lora": spec.lora}
    # The help is the field metadata, in the page language (keys `train.help.<field>`, playground/texts/help.py).
    out = {f.name: (_kind(f), getattr(sections[s], f.name), t(f"train.help.{f.name}")) for s, f in flat_fields()}
    data = {f.name: f for f in fields(PromptSource)}
    for flag, key in DATA_FLAGS.items():
        out[flag] = (_kind(data[key]), getattr(spec.data, key), t(f"train.help.{flag}"))
    return out


def create_form(
    default_model: str, rewards_summary: str, actions: Callable[[], None] | None = None
) -> tuple[Form, gr.File, gr.Markdown]:
    """Lay the form out: the essentials, then `actions()` (the Start and Stop buttons), then every other field in a
    named, collapsed group. Returns the form, the data upload and the rewards summary."""
    specs = _spec_fields(default_model)
    form: Form = {}

    def add(names, per_row: int = PER_ROW) -> None:
        names = list(names)
        for start in range(0, len(names), per_row):
            with gr.Row():
                for name in names[start : start + per_row]:
                    form[name] = _field_input(name, *specs[name])

    kind, value, info = specs["model_name_or_path"]
    with gr.Row(elem_classes="pg-form"):  # a line each on a phone (app CSS), so the model's name is readable
        form["model_name_or_path"] = gr.Dropdown(
            model_choices(value), value=value, allow_custom_value=True, label="model_name_or_path", info=info, scale=2
        )
        form["dataset_name"] = gr.Dropdown(
            list(BUILTIN_SETS),
            value=specs["dataset_name"][1],
            allow_custom_value=True,
            label="dataset_name",
            info=specs["dataset_name"][2],
            scale=2,
        )
        with gr.Column(scale=2):
            gr.Markdown("**" + t("train.rewards") + "**")
            rewards_md = gr.Markdown(rewards_summary)
    add(ESSENTIALS, per_row=len(ESSENTIALS))
    if actions is not None:
        actions()
    for key, names in GROUPS:
        with gr.Accordion(t(key), open=False, elem_id=key.replace(".", "-"), elem_classes="pg-form"):
            add(names)
    with gr.Accordion(t("train.data"), open=False, elem_id="train-data", elem_classes="pg-form"):
        gr.Markdown(t("train.data.info"))
        upload = gr.File(label=t("train.data.upload"), file_types=list(FILE_TYPES), height=120)
        add(flag for flag in DATA_FLAGS if flag != "dataset_name")
    with gr.Accordion(t("train.lora"), open=False, elem_id="train-lora", elem_classes="pg-form"):
        add(f.name for s, f in flat_fields() if s == "lora")
    with gr.Accordion(t("train.quantization"), open=False, elem_id="train-quantization", elem_classes="pg-form"):
        add(QUANTIZATION)
    return form, upload, rewards_md


def check_data_file(spec: RunSpec) -> None:
    """In public mode (a Space, by default) a prompt file must be one uploaded through the page.

    Otherwise `dataset_kind=file` with a typed path would let any visitor read files of the server that happen to
    parse as prompts.
    """
    from gradio.utils import get_upload_folder

    from playground.sandbox.settings import is_public

    if spec.data.kind != "file" or not is_public():
        return
    path, uploads = Path(spec.data.name).resolve(), Path(get_upload_folder()).resolve()
    if not path.is_relative_to(uploads):
        raise PlaygroundError("data.not_uploaded")


def file_choice(path: str) -> gr.Dropdown:
    """dataset_name set to an uploaded file: the box shows the file's name, its value is the path Gradio saved it at
    (a folder named by a hash, which means nothing to the visitor)."""
    return gr.Dropdown(choices=[*BUILTIN_SETS, (Path(path).name, path)], value=path)


def take_uploaded_file(ctx, request: gr.Request, session_id: str | None, path: str | None):
    """An upload becomes the data source at once, so that the set chosen before is not trained on by mistake when the
    file needs a prompt_column (see `use_uploaded_file`). In public mode the file is recorded as this browser's
    (`AppContext.record_upload`, under its token, within its quota): the only files it may train on."""
    if not path:
        return gr.skip(), gr.skip(), gr.skip()
    session_id, path = ctx.record_upload(request, session_id, path)
    return session_id, "file", file_choice(path)


def use_uploaded_file(
    ctx, request: gr.Request, session_id: str | None, path: str | None, prompt_column: str, column_map: str
):
    """Check an uploaded prompt file with the form's prompt_column and column_map: how many rows it gives, or the
    engine's message saying why it does not read (no prompt column, a broken line, over the size limit). The file
    stays the data source either way, and setting prompt_column or column_map checks it again."""
    if not path:
        return gr.skip(), gr.skip(), gr.skip()
    lang = lang_of(request)
    session_id, path = ctx.record_upload(request, session_id, path)
    source = PromptSource(
        kind="file", name=path, prompt_column=prompt_column or "prompt", column_map=parse_column_map(column_map)
    )
    data = load_prompts(source)
    notify(lang, "info", tr(lang, "train.data.checked", rows=len(data.dataset)))
    for warning in data.warnings:
        notify(lang, "warning", warning)
    return session_id, "file", file_choice(path)


def drop_uploaded_file(default: str, kind: str, name: str | None):
    """The upload was cleared: an uploaded file that is still the data source (read or not) gives way to the form's
    default set, so that Start does not train on, or refuse again, a file no longer shown."""
    if kind != "file" or name in BUILTIN_SETS:
        return gr.skip(), gr.skip()
    return "builtin", gr.Dropdown(choices=list(BUILTIN_SETS), value=default)


def recheck_uploaded_file(
    ctx,
    request: gr.Request,
    session_id: str | None,
    path: str | None,
    prompt_column: str,
    column_map: str,
    name: str | None,
):
    """prompt_column or column_map was set: check the uploaded file again with them, if it is still the data source
    (dataset_name holds it as uploaded, or as public mode recorded it)."""
    if not path or not name or name not in (path, os.path.abspath(path), os.path.realpath(path)):
        return gr.skip(), gr.skip(), gr.skip()
    return use_uploaded_file(ctx, request, session_id, path, prompt_column, column_map)


def take_dataset_name(request: gr.Request, name: str, kind: str):
    """What is typed into dataset_name sets dataset_kind (built-in name, file, `org/name` Hub id), and says so."""
    from playground.sandbox.settings import is_public

    guessed = guess_kind(name, public=is_public())
    if guessed is None or guessed == kind:
        return gr.skip()
    lang = lang_of(request)
    notify(lang, "info", tr(lang, "train.data.kind_taken", name=name, kind=guessed))
    return guessed


def spec_from_form(names: tuple[str, ...], values: tuple, selection: list[dict]) -> RunSpec:
    """The run spec for the form's values (in `names` order) and the session's reward selection.

    A dataset_name that is not a built-in set while dataset_kind says 'builtin' (the default, untouched) is read as
    what it looks like: a file path or an `org/name` Hub id.
    """
    from playground.sandbox.settings import is_public

    spec = demo_spec()
    for name, value in zip(names, values, strict=True):
        if name in OPTIONAL_TEXT and isinstance(value, str) and not value.strip():
            value = None
        if name in OPTIONAL_NUMBERS and not value:
            value = None
        elif name in NUMBERS and value is None:  # the browser sends None for an empty box or one that holds "abc"
            raise SpecError(name, "spec.needs_number", name=name)
        spec.set(name, value)
    steps = spec.grpo.max_steps
    if steps > UNCAPPED_STEPS:
        days = f"{steps / SECONDS_PER_DAY:,.0f}"
        raise SpecError("max_steps", "spec.max_steps_days", value=steps, days=days, cap=UNCAPPED_STEPS)
    if spec.data.kind == "builtin" and spec.data.name not in BUILTIN_SETS:
        guessed = guess_kind(spec.data.name, public=is_public())
        if guessed is not None:
            spec.set("dataset_kind", guessed)
    spec.rewards = parse_selection(selection)
    return spec


def check_sources(spec: RunSpec) -> None:
    """Before a run is created: the prompts load, with the columns the rewards need, and the model's config loads,
    so that a typo leaves a message and no failed run behind."""
    from transformers import AutoConfig

    from playground.validation import validate_spec

    data = load_prompts(spec.data)
    validate_spec(spec, columns=list(data.dataset.column_names))
    source = ModelSource.parse(spec.model.model_name_or_path)
    path = resolve_path(source)
    try:
        AutoConfig.from_pretrained(path)
    except Exception as exc:  # OSError, ValueError, HF Hub errors: one sentence naming the model and the cause
        raise ModelLoadError(describe_load_error(source, exc)) from exc
