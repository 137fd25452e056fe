"""Before/after: sample the base model and base + the run's adapter on the same prompts and seeds, and score both."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.advantages import AdvantageSettings
from playground.errors import PlaygroundError
from playground.isolation.visitor import reward_executor
from playground.preview import GenerationSettings, generate_group
from playground.scoring import GroupScore, build_rewards, score_group
from playground.spec import RunSpec
from playground.texts import msg
from playground.training.store import Run


logger = logging.getLogger(__name__)

DEFAULT_PROMPTS = 3


@dataclass
class PromptComparison:
    prompt: str
    seed: int
    base: GroupScore
    trained: GroupScore

    @property
    def delta(self) -> float:
        return self.trained.mean - self.base.mean


@dataclass
class Comparison:
    run_id: str
    items: list[PromptComparison] = field(default_factory=list)

    @property
    def mean_delta(self) -> float:
        return sum(i.delta for i in self.items) / len(self.items) if self.items else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "mean_delta": self.mean_delta,
            "prompts": [
                {
                    "prompt": i.prompt,
                    "seed": i.seed,
                    "base": i.base.to_json(),
                    "trained": i.trained.to_json(),
                    "delta": i.delta,
                }
                for i in self.items
            ],
        }


def compare_run(
    run: Run,
    prompts: list[str] | None = None,
    *,
    num_samples: int = 4,
    seed: int = 0,
    custom_rewards: dict[str, Callable] | None = None,
    progress: Callable[[float, str], None] | None = None,
) -> Comparison:
    """Works on any run with a saved adapter: finished, stopped, failed after a save, or loaded after a restart."""
    progress = progress or (lambda f, m: logger.info("%3.0f%% %s", 100 * f, m))
    if not run.has_adapter:
        raise PlaygroundError("lab_engine.no_adapter", run=run.id)
    spec = RunSpec.from_dict(run.spec())
    owned = {}
    if custom_rewards is None:  # a run that used custom code carries it: rebuild its sandboxed rewards
        from playground.sandbox import custom_rewards_for

        custom_rewards = owned = custom_rewards_for(spec)
    try:
        return _compare(run, spec, prompts, num_samples, seed, custom_rewards, progress)
    finally:
        if owned:
            from playground.sandbox import close_rewards

            close_rewards(owned)


def _compare(run, spec, prompts, num_samples, seed, custom_rewards, progress) -> Comparison:
    from peft import PeftModel

    from playground.fastpath.decode import prepare_for_sampling
    from playground.models import load_model
    from playground.sandbox.custom import as_the_spec_asks

    funcs, weights = build_rewards(
        spec.rewards, as_the_spec_asks(custom_rewards or {}, spec), executor=reward_executor()
    )
    rows = prompt_rows(spec, prompts)
    settings = GenerationSettings(
        num_generations=num_samples,
        max_new_tokens=spec.grpo.max_completion_length,
        temperature=spec.grpo.temperature,
        top_p=spec.grpo.top_p,
    )
    progress(0.0, msg("job.compare.loading_base"))
    model, tokenizer = load_model(spec.model.model_name_or_path, inference=True)
    prefix = spec.grpo.completion_prefix
    base = _sample_all(
        model,
        tokenizer,
        rows,
        settings,
        seed,
        lambda i, n: progress(0.05 + 0.45 * i / n, msg("job.compare.sampling_base", i=i + 1, n=n)),
        prefix,
    )
    progress(0.5, msg("job.compare.loading_adapter"))
    del model
    model, _ = load_model(spec.model.model_name_or_path)
    model = PeftModel.from_pretrained(model, str(run.adapter_dir)).merge_and_unload().eval()
    if model.device.type == "cpu":
        prepare_for_sampling(model)
    trained = _sample_all(
        model,
        tokenizer,
        rows,
        settings,
        seed,
        lambda i, n: progress(0.5 + 0.45 * i / n, msg("job.compare.sampling_trained", i=i + 1, n=n)),
        prefix,
    )
    result = Comparison(run.id)
    for i, (prompt, columns) in enumerate(rows):
        scores = []
        for completions in (base[i], trained[i]):
            scores.append(
                score_group(
                    completions,
                    funcs,
                    weights,
                    prompts=[prompt] * num_samples,
                    columns={k: [v] * num_samples for k, v in columns.items()},
                    advantage=AdvantageSettings.of(spec, whole_table=True),
                )
            )
        result.items.append(PromptComparison(_text(prompt), seed + i, scores[0], scores[1]))
    progress(1.0, msg("job.compare.delta", delta=result.mean_delta))
    return result


def prompt_rows(spec: RunSpec, prompts: list[str] | None) -> list[tuple[Any, dict[str, Any]]]:
    """(prompt, its dataset columns): the given prompts, else the first rows of the run's prompt set."""
    if prompts:
        cleaned = [p for p in prompts if p and p.strip()]
        if not cleaned:
            raise PlaygroundError("lab_engine.compare_empty")
        return [(p, {}) for p in cleaned]
    from playground.data.sources import load_prompts

    dataset = load_prompts(spec.data).dataset
    rows = []
    for row in dataset.select(range(min(DEFAULT_PROMPTS, len(dataset)))):
        prompt = row.pop("prompt")
        rows.append((prompt, row))
    return rows


def _sample_all(
    model, tokenizer, rows, settings: GenerationSettings, seed: int, progress, prefix: str = ""
) -> list[list[Any]]:
    """Completions as rewards see them (with the run's completion prefix), one list per prompt. `progress(i, n)` is
    called as prompt i (from 0) of n starts: a long comparison says where it is."""
    out = []
    for i, (prompt, _) in enumerate(rows):
        progress(i, len(rows))
        settings.seed = seed + i
        group = generate_group(model, tokenizer, prompt, settings, prefix)
        conversational = not isinstance(prompt, str)
        out.append(
            [[{"role": "assistant", "content": c}] for c in group.completions] if conversational else group.completions
        )
    return out


def _text(prompt: Any) -> str:
    from rewards._text import completion_text

    return prompt if isinstance(prompt, str) else completion_text(prompt)
