"""Dry run: G completions for each of N prompts of a set, scored as GRPO's first step would, before any training.

It answers "does this reward give a learning signal on my data?": what TRL would log at step 0, which prompts give
no signal (a zero-std group), how the reward functions correlate, which one dominates, and one sentence of verdict.
The reward table is kept (`DryRun.table`), so `DryRun.summarize` re-scores with other weights or settings instantly.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from playground.advantages import AdvantageSettings
from playground.errors import PlaygroundError
from playground.lab.stats import Summary, summarize
from playground.scoring import call_reward, reward_name


if TYPE_CHECKING:
    from playground.spec import RunSpec

logger = logging.getLogger(__name__)

DEFAULT_PROMPTS = 16
DEFAULT_GENERATIONS = 8
MAX_PROMPTS = 256


@dataclass
class DryRun:
    """Completions and raw reward values of a dry run; `table[i][j]` is function j on completion i (G per prompt)."""

    rows: list[dict[str, Any]]  # the dataset rows used (prompt plus its other columns)
    completions: list[list[str]]
    names: list[str]
    weights: list[float]
    table: list[list[float | None]]
    num_generations: int
    seconds: float = 0.0
    settings: dict[str, Any] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)  # tokens sampled per completion (the cut ones reach the cap)

    @property
    def prompt_texts(self) -> list[str]:
        return [prompt_text(row["prompt"]) for row in self.rows]

    def summarize(
        self,
        weights: Sequence[float] | None = None,
        enabled: Sequence[bool] | None = None,
        advantage: AdvantageSettings | None = None,
    ) -> Summary:
        """Metrics for these settings, from the cached table: nothing is generated again. Without `advantage`, the
        settings the dry run was made with."""
        if advantage is None and "advantage" in self.settings:
            advantage = AdvantageSettings(**self.settings["advantage"])
        return summarize(
            self.table,
            self.names,
            self.weights if weights is None else weights,
            self.num_generations,
            prompts=self.prompt_texts,
            enabled=enabled,
            advantage=advantage,
            lengths=self.lengths or None,
            max_completion_length=self.settings.get("max_new_tokens"),
        )

    def signal_rows(self, summary: Summary) -> list[dict[str, Any]]:
        """The dataset rows whose group gives a learning signal under `summary`'s settings."""
        return [row for row, p in zip(self.rows, summary.prompts, strict=True) if not p["zero_std"]]

    def signal_jsonl(self, summary: Summary) -> str:
        """The prompts that give a signal, as a JSONL dataset (same columns as the source) for training."""
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in self.signal_rows(summary))

    def to_state(self) -> dict[str, Any]:
        """A JSON-able copy (for a UI session), restored by `from_state`."""
        return {
            "rows": self.rows,
            "completions": self.completions,
            "names": self.names,
            "weights": self.weights,
            "table": self.table,
            "num_generations": self.num_generations,
            "seconds": self.seconds,
            "settings": self.settings,
            "lengths": self.lengths,
        }

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> DryRun:
        if not data or "table" not in data:
            raise PlaygroundError("lab_engine.no_dry_run")
        return cls(**data)


def prompt_text(prompt: str | list[dict[str, str]]) -> str:
    """A prompt as one line of text: the string, or the last user message of a conversation."""
    if isinstance(prompt, str):
        return prompt
    users = [m["content"] for m in prompt if m.get("role") == "user"]
    return users[-1] if users else "\n".join(m["content"] for m in prompt)


def load_rows(source, num_prompts: int = DEFAULT_PROMPTS) -> list[dict[str, Any]]:
    """The first `num_prompts` rows of a `PromptSource` (prompt plus other columns)."""
    from playground.data.sources import load_prompts

    if not 1 <= num_prompts <= MAX_PROMPTS:
        raise PlaygroundError("lab_engine.num_prompts", max=MAX_PROMPTS, value=num_prompts)
    dataset = load_prompts(source).dataset
    return dataset.select(range(min(num_prompts, len(dataset)))).to_list()


def dry_run(
    model,
    tokenizer,
    rows: Sequence[dict[str, Any]],
    funcs: Sequence[Callable],
    weights: Sequence[float],
    *,
    num_generations: int = DEFAULT_GENERATIONS,
    max_new_tokens: int = 64,
    temperature: float = 1.0,
    top_p: float = 1.0,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
    completion_prefix: str = "",
) -> DryRun:
    """Sample `num_generations` completions for each row's prompt in batches, then call each reward once on all.

    With a `completion_prefix` the model continues after it and rewards see the prefix plus the continuation, as in
    training (see `playground.data.completion_prefix`)."""
    from playground.data.completion_prefix import prompt_with_prefix
    from playground.lab.sampling import sample_prompts
    from playground.preview import GenerationSettings

    GenerationSettings(num_generations, max_new_tokens, temperature, top_p, seed).validate()
    rows = [dict(row) for row in rows]
    if not rows:
        raise PlaygroundError("lab_engine.empty_set")
    texts = [prompt_with_prefix(tokenizer, row["prompt"], completion_prefix) for row in rows]
    sampled = sample_prompts(
        model,
        tokenizer,
        texts,
        num_generations,
        max_new_tokens=max_new_tokens,
        temperature=temperature,
        top_p=top_p,
        seed=seed,
        progress=progress,
    )
    completions = [[completion_prefix + text for text in group] for group in sampled.texts]
    table = score_table(rows, completions, funcs, completion_ids=sampled.ids)
    return DryRun(
        rows=rows,
        completions=completions,
        names=[reward_name(f) for f in funcs],
        weights=[float(w) for w in weights],
        table=table,
        num_generations=num_generations,
        seconds=sampled.seconds,
        settings={
            "max_new_tokens": max_new_tokens,
            "temperature": temperature,
            "top_p": top_p,
            "seed": seed,
            "completion_prefix": completion_prefix,
        },
        lengths=[len(ids) for group in sampled.ids for ids in group],
    )


def run_dry_run(
    spec: RunSpec,
    funcs: Sequence[Callable],
    weights: Sequence[float],
    load_model: Callable[[], tuple[Any, Any]],
    *,
    num_prompts: int = DEFAULT_PROMPTS,
    check_prompts: Callable[[list[Any]], None] | None = None,
    progress: Callable[[float], None] | None = None,
) -> tuple[DryRun, Summary]:
    """The dry run of a recipe, the one the CLI, the MCP tool and the Lab tab run: the first `num_prompts` rows of
    `spec.data`, `num_generations` completions each, sampled with the spec's `max_completion_length`, `temperature`,
    `top_p`, `seed` and `completion_prefix`, and summarized with its advantage settings (`AdvantageSettings.of`).

    `load_model` gives (model, tokenizer) once the rows are read; `check_prompts` sees the prompts first (public
    mode prices them there)."""
    rows = load_rows(spec.data, num_prompts)
    if check_prompts is not None:
        check_prompts([row["prompt"] for row in rows])
    model, tokenizer = load_model()
    g = spec.grpo
    run = dry_run(
        model,
        tokenizer,
        rows,
        funcs,
        weights,
        num_generations=g.num_generations,
        max_new_tokens=g.max_completion_length,
        temperature=g.temperature,
        top_p=g.top_p,
        seed=g.seed,
        progress=progress,
        completion_prefix=g.completion_prefix,
    )
    advantage = AdvantageSettings.of(spec)
    run.settings["advantage"] = advantage.to_json()
    run.settings["generation_batch_size"] = spec.generation_batch_size()  # for a re-score with other settings
    return run, run.summarize(advantage=advantage)


def score_table(
    rows: Sequence[dict[str, Any]],
    completions: Sequence[Sequence[str]],
    funcs: Sequence[Callable],
    completion_ids: Sequence[Sequence[Sequence[int]]] | None = None,
) -> list[list[float | None]]:
    """Call each reward once on every completion, with the dataset columns and prompts as TRL passes them."""
    flat: list[Any] = []
    kwargs: dict[str, list[Any]] = {"prompts": []}
    columns = sorted({k for row in rows for k in row if k != "prompt"})
    for k in columns:
        kwargs[k] = []
    for row, group in zip(rows, completions, strict=True):
        conversational = not isinstance(row["prompt"], str)
        for text in group:
            flat.append([{"role": "assistant", "content": text}] if conversational else text)
            kwargs["prompts"].append(row["prompt"])
            for k in columns:
                kwargs[k].append(row.get(k))
    if completion_ids is not None:
        kwargs["completion_ids"] = [list(ids) for group in completion_ids for ids in group]
    per_func = []
    for func in funcs:
        values = call_reward(func, flat, **kwargs)
        per_func.append([None if v is not None and not math.isfinite(v) else v for v in values])
    return [[per_func[j][i] for j in range(len(funcs))] for i in range(len(flat))]
