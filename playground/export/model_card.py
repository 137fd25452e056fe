"""The model card pushed with a run's adapter or merged model: rewards with their code, the base model by its Hub id,
the warm-up and completion prefix the run used, every held-out eval point, metrics, samples and the spec."""

from __future__ import annotations

import json
import logging
import math
from typing import Any

import yaml

from playground.export.common import TRL_VERSION, custom_code, export_model, render
from playground.export.reward_code import reward_sources
from playground.models import EMBEDDED, ModelSource
from playground.scoring import RewardChoice
from playground.spec import RunSpec
from playground.training.compare import Comparison
from playground.training.store import Run


logger = logging.getLogger(__name__)

KIND_ADAPTER, KIND_MERGED = "adapter", "merged"
# Metrics shown first in the results table, then every `rewards/<name>/mean`.
HEADLINE_METRICS = ("reward", "reward_std", "kl", "loss", "entropy", "completions/mean_length", "frac_reward_zero_std")
MAX_SAMPLES = 4
MAX_TEXT = 400  # characters of a prompt or completion shown in a table cell
WARMUP_EXAMPLES = "warmup_examples.jsonl"  # the warm-up's examples, written into the run folder by the job
# What each held-out eval point measured (`eval_of` of the run's eval rows).
EVAL_OF = {"base": "before training (base model)", "warmup": "after the SFT warm-up", "grpo": "after GRPO step {step}"}


def build_model_card(
    run: Run,
    repo_id: str,
    kind: str = KIND_ADAPTER,
    comparison: Comparison | None = None,
) -> str:
    """The README.md of a Hub repo holding run `run`'s adapter (`kind="adapter"`) or merged model (`"merged"`).

    `comparison` (from `playground.training.compare.compare_run`) gives the before/after section; without one
    the card shows the samples of the run's last logged step.
    """
    spec = RunSpec.from_dict(run.spec())
    model = export_model(spec)
    metrics = [m for m in run.metrics() if "reward" in m]
    steps = metrics[-1]["step"] if metrics else 0
    what = "LoRA adapter for" if kind == KIND_ADAPTER else "fine-tune (LoRA merged) of"
    base_link = f"`{model.name}`" if model.is_local else f"[{model.name}](https://huggingface.co/{model.name})"
    intro = (
        f"A {what} {base_link}, trained with GRPO for {steps} steps on {_data_note(spec)} in the GRPO Reward "
        f"Playground (run `{run.id}`)."
    )
    if _embedded(spec):
        intro += (
            f" The run used the playground's embedded copy of {model.name} (a Q4_1 GGUF file, dequantized to load); "
            "the adapter fits the Hub model."
        )
    return render(
        "model_card.md",
        front_matter=_front_matter(spec, kind, model.name, model.is_local),
        title=repo_id.split("/")[-1],
        intro=intro,
        rewards_table=_rewards_table(spec.rewards),
        rewards_code=_rewards_code(spec),
        cold_start=_cold_start(spec, run),
        evals=_evals(run.metrics()),
        results=_results(metrics),
        samples=_comparison(comparison) if comparison is not None else _last_samples(run),
        trl_version=TRL_VERSION,
        spec_json=_spec_json(spec, model.name),
        usage=_usage(repo_id, model.name, kind, spec),
    )


def _embedded(spec: RunSpec) -> bool:
    name = (spec.model.model_name_or_path or "").strip()
    return name in ("", EMBEDDED) or ModelSource.parse(name).kind == EMBEDDED


def _spec_json(spec: RunSpec, model_name: str) -> str:
    """The run spec, naming the model by what loads it elsewhere (the Hub id of the embedded model)."""
    data = spec.to_dict()
    data["model"]["model_name_or_path"] = model_name
    return json.dumps(data, indent=2, ensure_ascii=False)


def _cold_start(spec: RunSpec, run: Run) -> str:
    """The SFT warm-up that ran before GRPO and the completion prefix generation needs, when the run used them."""
    g = spec.grpo
    lines = []
    if g.sft_warmup_steps > 0:
        source = "the base model's own answers, wrapped in " + ", ".join(f"`{t}`" for t in g.sft_tags)
        if g.sft_examples != "auto":
            source = f"the file `{g.sft_examples}`"
        count = _warmup_examples(run)
        examples = f"{count} examples" if count is not None else "its examples"
        lines.append(
            f"- **SFT warm-up** (TRL's `SFTTrainer`, same LoRA adapter): {g.sft_warmup_steps} steps on {examples} "
            f"from {source}, learning rate {g.sft_learning_rate:g}, before the first GRPO step."
        )
    if g.completion_prefix:
        lines.append(
            f"- **Completion prefix** `{_inline(g.completion_prefix)}`: every answer was started with it (after the "
            "chat template's generation prompt) and only the continuation was sampled; the rewards scored the prefix "
            "plus the continuation. Put it after the prompt when you generate, as in *How to use*."
        )
    none = "None: GRPO started from the base model, with no warm-up or completion prefix."
    return "\n".join(lines) if lines else none


def _warmup_examples(run: Run) -> int | None:
    path = run.path / WARMUP_EXAMPLES
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as fh:
        return sum(1 for line in fh if line.strip())


def _evals(metrics: list[dict]) -> str:
    """Every held-out eval point (the base model, after the warm-up, after GRPO steps) with each reward's mean."""
    rows = [m for m in metrics if m.get("phase") == "eval" and m.get("eval_reward") is not None]
    if not rows:
        return "No held-out eval was run (`eval_every` 0)."
    names = list(dict.fromkeys(k for m in rows for k in m if k.startswith("eval_rewards/") and k.endswith("/mean")))
    header = ["Model", "Step", "`eval_reward`", *(f"`{n}`" for n in names)]
    lines = [
        "The same held-out prompts, scored at each eval point (mean over their completions):",
        "",
        "| " + " | ".join(header) + " |",
        "| --- " * len(header) + "|",
    ]
    for m in rows:
        model = EVAL_OF.get(m.get("eval_of"), str(m.get("eval_of"))).format(step=m["step"])
        cells = [model, str(m["step"]), _num(m["eval_reward"]), *(_num(m.get(n)) for n in names)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _front_matter(spec: RunSpec, kind: str, base: str, local: bool) -> str:
    data: dict[str, Any] = {}
    if not local:
        data["base_model"] = base
    data["library_name"] = "peft" if kind == KIND_ADAPTER else "transformers"
    data["pipeline_tag"] = "text-generation"
    data["tags"] = ["trl", "grpo", "lora", "grpo-reward-playground"] + (["peft"] if kind == KIND_ADAPTER else [])
    if spec.data.kind == "hub":
        data["datasets"] = [spec.data.name]
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True).strip()


def _data_note(spec: RunSpec) -> str:
    src = spec.data
    return {
        "builtin": f"the built-in prompt set `{src.name}`",
        "file": "a prompt file",
        "hub": f"the dataset [{src.name}](https://huggingface.co/datasets/{src.name})",
    }[src.kind]


def _rewards_table(rewards: list[RewardChoice]) -> str:
    from rewards.registry import list_specs, metric_name

    library = {s.name: s for s in list_specs()}
    rows = ["| Reward | Weight | Parameters | What it scores |", "| --- | --- | --- | --- |"]
    for choice in rewards:
        if choice.name in library:
            name = metric_name(choice.name, choice.params)
            params = ", ".join(f"`{k}={v!r}`" for k, v in choice.params.items()) or "defaults"
            description = library[choice.name].description
        else:
            name, params, description = choice.name, "", "custom function (code below)"
        rows.append(f"| `{name}` | {choice.weight:g} | {_cell(params)} | {_cell(description)} |")
    return "\n".join(rows)


def _rewards_code(spec: RunSpec) -> str:
    from rewards.registry import list_specs

    library = {s.name for s in list_specs()}
    parts = []
    for choice in spec.rewards:
        if choice.name in library:
            source = _fence(reward_sources(choice), "python")
            parts.append(f"<details><summary>Code of <code>{choice.name}</code></summary>\n\n{source}\n\n</details>\n")
    custom = custom_code(spec)
    if custom:
        parts.append("### Custom reward code\n\n" + _fence(custom, "python") + "\n")
    return "\n".join(parts).strip()


def _results(metrics: list[dict]) -> str:
    if not metrics:
        return "No metrics were logged."
    first, last = metrics[0], metrics[-1]
    keys = [k for k in HEADLINE_METRICS if k in last]
    keys += sorted(k for k in last if k.startswith("rewards/") and k.endswith("/mean"))
    rows = [f"| Metric | Step {first['step']} | Step {last['step']} |", "| --- | --- | --- |"]
    rows += [f"| `{k}` | {_num(first.get(k))} | {_num(last.get(k))} |" for k in keys]
    return "\n".join(rows)


def _comparison(comparison: Comparison) -> str:
    lines = [
        f"The base model and the trained model answered the same prompts with the same seeds; mean reward change "
        f"**{comparison.mean_delta:+.4g}**.",
        "",
        "| Prompt | Base model | Trained model |",
        "| --- | --- | --- |",
    ]
    for item in comparison.items[:MAX_SAMPLES]:
        base, trained = item.base.completions[0], item.trained.completions[0]
        lines.append(
            f"| {_cell(item.prompt)} | {_cell(base.text)} (reward {_num(base.total)}, group mean "
            f"{_num(item.base.mean)}) | {_cell(trained.text)} (reward {_num(trained.total)}, group mean "
            f"{_num(item.trained.mean)}) |"
        )
    return "\n".join(lines)


def _last_samples(run: Run) -> str:
    samples = run.samples(last_step_only=True)[:MAX_SAMPLES]
    if not samples:
        return "No samples were logged."
    lines = [
        f"Completions from the last logged training step ({samples[0].get('step')}):",
        "",
        "| Prompt | Completion | Rewards | Advantage |",
        "| --- | --- | --- | --- |",
    ]
    for s in samples:
        rewards = ", ".join(f"{k}: {_num(v)}" for k, v in (s.get("rewards") or {}).items())
        lines.append(
            f"| {_cell(str(s.get('prompt', '')))} | {_cell(str(s.get('completion', '')))} | {_cell(rewards)} | "
            f"{_num(s.get('advantage'))} |"
        )
    return "\n".join(lines)


def _usage(repo_id: str, base: str, kind: str, spec: RunSpec) -> str:
    """Load the model and answer one prompt as training did: the chat template, then the completion prefix."""
    if kind == KIND_MERGED:
        load = (
            "from transformers import AutoModelForCausalLM, AutoTokenizer\n\n"
            f"model = AutoModelForCausalLM.from_pretrained({json.dumps(repo_id)})\n"
            f"tokenizer = AutoTokenizer.from_pretrained({json.dumps(repo_id)})\n"
        )
    else:
        load = (
            "from peft import PeftModel\n"
            "from transformers import AutoModelForCausalLM, AutoTokenizer\n\n"
            f"base = AutoModelForCausalLM.from_pretrained({json.dumps(base)})\n"
            f"model = PeftModel.from_pretrained(base, {json.dumps(repo_id)})\n"
            f"tokenizer = AutoTokenizer.from_pretrained({json.dumps(base)})\n"
        )
    messages = [{"role": "user", "content": "Your prompt here"}]
    if spec.data.system_prompt:
        messages.insert(0, {"role": "system", "content": spec.data.system_prompt})
    prefix = spec.grpo.completion_prefix or ""
    prefix_note = "  # the completion prefix the run trained with" if prefix else ""
    return load + (
        f"\nmessages = {json.dumps(messages, ensure_ascii=False)}\n"
        f"prefix = {json.dumps(prefix, ensure_ascii=False)}{prefix_note}\n"
        "text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True) + prefix\n"
        'inputs = tokenizer(text, return_tensors="pt", add_special_tokens=False)\n'
        f"output = model.generate(**inputs, max_new_tokens={spec.grpo.max_completion_length}, do_sample=True)\n"
        'print(prefix + tokenizer.decode(output[0, inputs["input_ids"].shape[1] :], skip_special_tokens=True))'
    )


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped, cut to MAX_TEXT characters."""
    text = " ".join(str(text).split())
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    return text.replace("|", "\\|").replace("<", "&lt;")


def _inline(text: str) -> str:
    """Text inside an inline code span: one line, no backticks."""
    return " ".join(text.split()).replace("`", "'")


def _num(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return "–"
    return f"{value:.4g}"


def _fence(code: str, lang: str = "") -> str:
    """A fenced code block, with a fence longer than any backtick run in `code`."""
    longest = max((len(run) for run in code.split("\n") for run in _backtick_runs(run)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{code.rstrip()}\n{fence}"


def _backtick_runs(line: str) -> list[str]:
    runs, current = [], ""
    for ch in line:
        if ch == "`":
            current += "`"
        elif current:
            runs.append(current)
            current = ""
    return runs + ([current] if current else [])
