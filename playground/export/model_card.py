"""The model card pushed with a run's adapter or merged model: rewards with their code, spec, metrics and samples."""

from __future__ import annotations

import json
import logging
import math
from typing import Any

import yaml

from playground.export.common import TRL_VERSION, custom_code, export_model, render
from playground.export.inline import reward_sources
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
    return render(
        "model_card.md",
        front_matter=_front_matter(spec, kind, model.name, model.is_local),
        title=repo_id.split("/")[-1],
        intro=intro,
        rewards_table=_rewards_table(spec.rewards),
        rewards_code=_rewards_code(spec),
        results=_results(metrics),
        samples=_comparison(comparison) if comparison is not None else _last_samples(run),
        trl_version=TRL_VERSION,
        spec_json=spec.to_json(),
        usage=_usage(repo_id, model.name, kind),
    )


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


def _usage(repo_id: str, base: str, kind: str) -> str:
    if kind == KIND_MERGED:
        return (
            "from transformers import AutoModelForCausalLM, AutoTokenizer\n\n"
            f"model = AutoModelForCausalLM.from_pretrained({json.dumps(repo_id)})\n"
            f"tokenizer = AutoTokenizer.from_pretrained({json.dumps(repo_id)})"
        )
    return (
        "from peft import PeftModel\n"
        "from transformers import AutoModelForCausalLM, AutoTokenizer\n\n"
        f"base = AutoModelForCausalLM.from_pretrained({json.dumps(base)})\n"
        f"model = PeftModel.from_pretrained(base, {json.dumps(repo_id)})\n"
        f"tokenizer = AutoTokenizer.from_pretrained({json.dumps(base)})"
    )


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell: one line, pipes escaped, cut to MAX_TEXT characters."""
    text = " ".join(str(text).split())
    if len(text) > MAX_TEXT:
        text = text[: MAX_TEXT - 1] + "…"
    return text.replace("|", "\\|").replace("<", "&lt;")


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
