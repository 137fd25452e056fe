"""The held-out eval curve: the same K prompts, sampled with the same seeds, scored at every eval point.

The training reward of a step comes from that step's prompts, so it swings with them; this curve does not. Rows go
into metrics.jsonl under TRL's eval names (`eval_reward`, `eval_reward_std`, `eval_rewards/<fn>/mean`,
`eval_rewards/<fn>/std`), with the GRPO `step` they were taken at and `phase: "eval"`; for answers in tags also the
shares of `playground.training.answer_shape` (`empty_section_rate`, `sentence_rate`). `eval_of` says which model was
scored: "base" (before anything), "warmup" (right after the SFT warm-up) or "grpo".

Every completion scored goes to `eval_samples.jsonl` in the run folder (`step`, `eval_of`, `prompt`, `seed`,
`completion` with its prefix, `rewards` by name, the weighted `reward`), so the answers behind each point can be read:
the same prompts and seeds before the warm-up, after it, and after GRPO.

TRL's own `eval_dataset`/`eval_steps` was not used: it samples with the training RNG (different draws at every point),
also runs a loss forward pass per batch, cannot score before the warm-up, and needs an eval split in every export.
Here each prompt i is sampled with its own generator seeded `seed + i` (all prompts in one batch, see
`playground.preview.generate_groups`), so training's randomness is not disturbed.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from playground.advantages import AdvantageSettings
from playground.preview import GenerationSettings, generate_groups
from playground.scoring import reward_name, score_group
from playground.spec import RunSpec
from playground.training.answer_shape import answer_shape
from playground.training.files import append_lines, read_lines


logger = logging.getLogger(__name__)

EVAL_SAMPLES = "eval_samples.jsonl"


def split_eval(dataset, k: int):
    """(train, eval): the last `k` rows are held out, unless that would leave fewer than `k` rows to train on."""
    n = len(dataset)
    k = min(k, n // 2)
    if k < 1:
        return dataset, None
    return dataset.select(range(n - k)), dataset.select(range(n - k, n))


def expected_tags(spec: RunSpec) -> list[str]:
    """The tags a run's answers should have: its warm-up's, when the warm-up wraps the model's answers in them."""
    g = spec.grpo
    return list(g.sft_tags) if g.sft_warmup_steps and g.sft_examples == "auto" else []


class Evaluator:
    """Scores the eval rows with the run's (prefixed) reward functions. `model_for_sampling()` gives the model now."""

    def __init__(self, spec: RunSpec, rows, funcs: Sequence[Callable], weights: Sequence[float], tokenizer):
        self.spec = spec
        self.rows = [dict(r) for r in rows]
        self.funcs = list(funcs)
        self.weights = list(weights)
        self.tokenizer = tokenizer
        self.samples: list[dict[str, Any]] = []  # the completions of the latest `evaluate`, one row each

    def evaluate(
        self, model, step: int, eval_of: str, should_stop: Callable[[], bool] | None = None
    ) -> dict[str, Any] | None:
        """The eval row of the model as it is now; None when `should_stop` (asked before each batch of prompts) says
        yes. The prompts are sampled together (`generate_groups`), each with its own seed."""
        g = self.spec.grpo
        start = time.perf_counter()
        settings = GenerationSettings(
            num_generations=g.eval_num_generations,
            max_new_tokens=self.spec.eval_completion_length(),
            temperature=g.temperature,
            top_p=g.top_p,
        )
        names = [reward_name(f) for f in self.funcs]
        per_fn: dict[str, list[float]] = {n: [] for n in names}
        totals: list[float] = []
        stds: list[float] = []
        self.samples = []
        shown: list[str] = []  # the answers, completion prefix included
        seeds = [g.seed + i for i in range(len(self.rows))]
        prompts = [row["prompt"] for row in self.rows]
        groups = generate_groups(
            model, self.tokenizer, prompts, settings, seeds, g.completion_prefix, should_stop=should_stop
        )
        if len(groups) < len(self.rows):
            return _stopped(step, eval_of, len(groups), len(self.rows))
        for i, (row, seed, group) in enumerate(zip(self.rows, seeds, groups, strict=True)):
            # asked again before each prompt's scoring: a slow reward should not hold a Stop for the whole eval
            if i and should_stop is not None and should_stop():
                return _stopped(step, eval_of, i, len(self.rows))
            prompt = row["prompt"]
            columns = {k: v for k, v in row.items() if k != "prompt"}
            n = len(group.completions)
            conversational = not isinstance(prompt, str)
            completions = (
                [[{"role": "assistant", "content": c}] for c in group.completions]
                if conversational
                else group.completions
            )
            score = score_group(
                completions,
                self.funcs,
                self.weights,
                prompts=[prompt] * n,
                columns={k: [v] * n for k, v in columns.items()},
                completion_ids=group.completion_ids,
                advantage=AdvantageSettings.of(self.spec, whole_table=True),
            )
            stds.append(score.std)
            shown += group.completions
            self.samples += _sample_rows(step, eval_of, prompt, seed, group.completions, score.completions)
            for c in score.completions:
                if c.total is not None:
                    totals.append(c.total)
                for name in names:
                    value = c.rewards.get(name)
                    if value is not None:
                        per_fn[name].append(value)
        row_out: dict[str, Any] = {"step": step, "phase": "eval", "eval_of": eval_of}
        row_out["eval_reward"] = _mean(totals)
        row_out["eval_reward_std"] = _mean(stds)
        for name, values in per_fn.items():
            row_out[f"eval_rewards/{name}/mean"] = _mean(values)
            row_out[f"eval_rewards/{name}/std"] = statistics.pstdev(values) if len(values) > 1 else 0.0
        row_out.update(answer_shape(shown, expected_tags(self.spec)))
        row_out["eval_seconds"] = round(time.perf_counter() - start, 2)
        logger.info("Eval at step %d (%s): reward %.4g", step, eval_of, row_out["eval_reward"] or 0.0)
        return row_out


def _stopped(step: int, eval_of: str, done: int, total: int) -> None:
    """No eval row: a partial eval would not be comparable with the others."""
    logger.info("Eval at step %d (%s) stopped after %d of %d prompts", step, eval_of, done, total)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _sample_rows(step: int, eval_of: str, prompt, seed: int, texts: list[str], scored) -> list[dict[str, Any]]:
    from rewards._text import completion_text

    prompt_text = prompt if isinstance(prompt, str) else completion_text(prompt)  # the last (user) message
    return [
        {
            "step": step,
            "eval_of": eval_of,
            "prompt": prompt_text,
            "seed": seed,
            "completion": text,
            "rewards": dict(c.rewards),
            "reward": c.total,
        }
        for text, c in zip(texts, scored, strict=True)
    ]


def append_eval_samples(run_path: str | Path, rows: list[dict[str, Any]]) -> None:
    """Append the completions of one eval point to the run's `eval_samples.jsonl`."""
    append_lines(Path(run_path) / EVAL_SAMPLES, rows)


def read_eval_samples(run_path: str | Path) -> list[dict[str, Any]]:
    """The rows of the run's `eval_samples.jsonl` (empty for a run without evals, or from before they were kept)."""
    return read_lines(Path(run_path) / EVAL_SAMPLES)


def answers_at(rows: list[dict[str, Any]], per_point: int = 3) -> list[dict[str, Any]]:
    """A few answers per eval point, for a page: the first sample of the first `per_point` prompts at each
    (step, eval_of), in the order of the points."""
    points: dict[tuple, list[dict[str, Any]]] = {}
    seen: set[tuple] = set()
    for row in rows:
        point = (row.get("step"), row.get("eval_of"))
        key = (*point, row.get("prompt"))
        if key in seen:
            continue
        seen.add(key)
        chosen = points.setdefault(point, [])
        if len(chosen) < per_point:
            chosen.append(row)
    return [row for chosen in points.values() for row in chosen]
