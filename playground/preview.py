"""Group preview: generate G completions for one prompt in one batched call, then score them as GRPO will."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from playground.advantages import AdvantageSettings
from playground.errors import PlaygroundError
from playground.scoring import GroupScore, score_group


if TYPE_CHECKING:
    from playground.spec import RunSpec

logger = logging.getLogger(__name__)

MAX_GENERATIONS = 64
MAX_NEW_TOKENS = 2048


@dataclass
class GenerationSettings:
    num_generations: int = 8
    max_new_tokens: int = 64
    temperature: float = 1.0
    top_p: float = 1.0
    seed: int = 0

    def generate_kwargs(self, tokenizer) -> dict[str, Any]:
        """The `generate` options of these settings (TRL's sampling: no top-k)."""
        return {
            "do_sample": True,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "top_k": 0,
            "max_new_tokens": self.max_new_tokens,
            "pad_token_id": tokenizer.pad_token_id,
        }

    def validate(self) -> None:
        """The settings against the run fields' bounds, by the one validator the form, the CLI and the MCP tools use
        (`playground.validation.check_field`), with the preview's own caps on the group and the answer length."""
        from playground.spec import SECTIONS
        from playground.validation import check_field

        run = {f.name: f.metadata for f in fields(SECTIONS["grpo"])}
        check_field("num_generations", self.num_generations, {"min": 2, "max": MAX_GENERATIONS})
        check_field("max_new_tokens", self.max_new_tokens, {"min": 1, "max": MAX_NEW_TOKENS})
        check_field("temperature", self.temperature, run["temperature"])
        check_field("top_p", self.top_p, run["top_p"])


@dataclass
class Group:
    prompt_text: str  # the prompt as the model saw it (chat template applied)
    completions: list[str]
    completion_ids: list[list[int]]
    seconds: float


def generate_group(
    model, tokenizer, prompt: str | list[dict], settings: GenerationSettings, prefix: str = ""
) -> Group:
    """Sample `settings.num_generations` completions of `prompt` in one `generate` call. Same seed, same group.

    With a completion `prefix` the model continues after it, and `completions` hold the prefix plus the continuation
    (what rewards see; see `playground.data.completion_prefix`); `completion_ids` are the sampled tokens only.
    """
    import torch

    from playground.data.completion_prefix import prompt_with_prefix
    from playground.fastpath.decode import sample

    settings.validate()
    if isinstance(prompt, str) and not prompt.strip():
        raise PlaygroundError("preview.empty_prompt")
    text = prompt_with_prefix(tokenizer, prompt, prefix)
    input_ids = tokenizer([text], return_tensors="pt", add_special_tokens=False)["input_ids"].to(model.device)
    input_ids = input_ids.expand(settings.num_generations, -1)
    start = time.perf_counter()
    with torch.random.fork_rng(devices=[]), torch.inference_mode():
        torch.manual_seed(settings.seed)
        out = sample(model, input_ids, **settings.generate_kwargs(tokenizer))
    seconds = time.perf_counter() - start
    new = out[:, input_ids.shape[1] :]
    ids = [_until_eos(row.tolist(), tokenizer) for row in new]
    texts = [prefix + t for t in tokenizer.batch_decode(ids, skip_special_tokens=True)]
    logger.info("Generated %d x %d tokens in %.1f s", settings.num_generations, new.shape[1], seconds)
    return Group(prompt_text=text, completions=texts, completion_ids=ids, seconds=seconds)


def generate_groups(
    model,
    tokenizer,
    prompts: Sequence[str | list[dict]],
    settings: GenerationSettings,
    seeds: Sequence[int],
    prefix: str = "",
    *,
    max_rows: int = 32,
    should_stop: Callable[[], bool] | None = None,
) -> list[Group]:
    """A group for each prompt, prompt i sampled with seed `seeds[i]`: what `generate_group` gives it with that seed.

    Where the model has the lean decoder (`prepare_for_sampling`), the prompts are decoded together, at most
    `max_rows` rows at a time, each group drawing from its own generator: a CPU decode step costs about the same for
    4 rows or 32 (it is bound by reading the weights). Elsewhere, one `generate_group` call a prompt. `should_stop`
    is asked before each batch: once it says yes, the groups so far are returned.
    """
    import copy

    import torch

    from playground.data.completion_prefix import prompt_with_prefix
    from playground.fastpath.decode import _generation_options_supported, decode_prompts

    settings.validate()
    config = copy.deepcopy(model.generation_config)
    config.update(**settings.generate_kwargs(tokenizer))
    decoder = getattr(model, "playground_sampler", None)
    g = settings.num_generations
    groups: list[Group] = []
    if decoder is None or not _generation_options_supported(config):
        for prompt, seed in zip(prompts, seeds, strict=True):
            if should_stop is not None and should_stop():
                break
            groups.append(generate_group(model, tokenizer, prompt, replace(settings, seed=seed), prefix))
        return groups
    if any(isinstance(p, str) and not p.strip() for p in prompts):
        raise PlaygroundError("preview.empty_prompt")
    texts = [prompt_with_prefix(tokenizer, p, prefix) for p in prompts]
    per_batch = max(1, max_rows // g)
    for first in range(0, len(texts), per_batch):
        if should_stop is not None and should_stop():
            break
        batch = texts[first : first + per_batch]
        ids = [tokenizer(t, return_tensors="pt", add_special_tokens=False)["input_ids"][0] for t in batch]
        generators = [torch.Generator().manual_seed(int(s)) for s in seeds[first : first + per_batch]]
        start = time.perf_counter()
        with torch.inference_mode():
            new = decode_prompts(decoder, ids, g, config, generators=generators)
        seconds = (time.perf_counter() - start) / len(batch)
        for p, text in enumerate(batch):
            rows = [_until_eos(row.tolist(), tokenizer) for row in new[p * g : (p + 1) * g]]
            completions = [prefix + t for t in tokenizer.batch_decode(rows, skip_special_tokens=True)]
            groups.append(Group(prompt_text=text, completions=completions, completion_ids=rows, seconds=seconds))
        logger.info("Generated %d groups of %d x %d tokens in %.1f s", len(batch), g, new.shape[1], seconds * len(ids))
    return groups


def _until_eos(ids: list[int], tokenizer) -> list[int]:
    eos = {tokenizer.eos_token_id, tokenizer.pad_token_id} - {None}
    for i, t in enumerate(ids):
        if t in eos:
            return ids[:i]
    return ids


@dataclass
class PreviewResult:
    group: Group
    score: GroupScore

    def to_json(self) -> dict[str, Any]:
        data = self.score.to_json()
        data["prompt"] = self.group.prompt_text
        data["seconds"] = round(self.group.seconds, 3)
        return data


def preview_group(
    model,
    tokenizer,
    prompt: str | list[dict],
    funcs: Sequence[Callable],
    weights: Sequence[float],
    settings: GenerationSettings,
    *,
    columns: dict[str, Any] | None = None,
    advantage: AdvantageSettings | None = None,
    prefix: str = "",
) -> PreviewResult:
    """Generate a group for `prompt` and score it. `columns` holds this prompt's dataset columns (one value each).

    `advantage` and `prefix` are the run spec's (`AdvantageSettings.of(spec)`, `completion_prefix`): the advantages
    are TRL's for this group scored alone, and rewards score the prefix plus the continuation.
    """
    group = generate_group(model, tokenizer, prompt, settings, prefix)
    score = score_preview(group, prompt, funcs, weights, columns, advantage, settings.max_new_tokens)
    return PreviewResult(group=group, score=score)


def run_preview(
    spec: RunSpec,
    prompt: str | list[dict],
    funcs: Sequence[Callable],
    weights: Sequence[float],
    load_model: Callable[[], tuple[Any, Any]],
    *,
    columns: dict[str, Any] | None = None,
) -> PreviewResult:
    """The preview of a recipe, the one the CLI, the MCP tool and the Preview tab run: a group of the spec's
    `num_generations`, sampled with its `max_completion_length`, `temperature`, `top_p`, `seed` and
    `completion_prefix`, scored with its advantage settings (the group as a batch of its own). `load_model` gives
    (model, tokenizer) once the settings are checked."""
    g = spec.grpo
    settings = GenerationSettings(g.num_generations, g.max_completion_length, g.temperature, g.top_p, g.seed)
    settings.validate()
    advantage = AdvantageSettings.of(spec, whole_table=True)
    model, tokenizer = load_model()
    return preview_group(
        model,
        tokenizer,
        prompt,
        funcs,
        weights,
        settings,
        columns=columns,
        advantage=advantage,
        prefix=g.completion_prefix,
    )


def score_preview(
    group: Group,
    prompt: str | list[dict],
    funcs: Sequence[Callable],
    weights: Sequence[float],
    columns: dict[str, Any] | None = None,
    advantage: AdvantageSettings | None = None,
    max_completion_length: int | None = None,
) -> GroupScore:
    """Score a sampled group as the trainer does: conversational completions for a conversational prompt, the
    prompt and this row's columns repeated for each completion, the token ids for rewards that read them (and, with
    the group's `max_completion_length`, to count the completions cut at it)."""
    g = len(group.completions)
    conversational = not isinstance(prompt, str)
    completions: list[Any] = (
        [[{"role": "assistant", "content": c}] for c in group.completions] if conversational else group.completions
    )
    return score_group(
        completions,
        funcs,
        weights,
        prompts=[prompt] * g,
        columns={k: [v] * g for k, v in (columns or {}).items()},
        completion_ids=group.completion_ids,
        advantage=advantage,
        max_completion_length=max_completion_length,
    )
