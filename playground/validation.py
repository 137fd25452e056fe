"""Validation of a run spec before launch: each failure is one sentence naming the field."""

from __future__ import annotations

import importlib.util
import math
import os
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from playground.errors import PlaygroundError, SpecError
from playground.sandbox.custom import custom_reward_names
from playground.spec import (
    FAST_ROLLOUTS,
    IMPORTANCE_SAMPLING_MODES,
    LOSS_TYPES,
    MAX_COMPLETION_LENGTH,
    MULTI_OBJECTIVE_AGGREGATIONS,
    REWARD_ERROR_POLICIES,
    SCALE_REWARDS,
    available_reporters,
    reporters,
)


if TYPE_CHECKING:
    from playground.data import Uploads
    from playground.spec import RunSpec


def _check(ok: bool, name: str, message: str) -> None:
    if not ok:
        raise SpecError(name, message)


def validate_spec(spec: RunSpec, columns: list[str] | None = None, custom_rewards: set[str] | None = None) -> None:
    """Check `spec` before launch. Each failure is a `SpecError` naming the field.

    `columns` are the prompt set's columns (checked against what the rewards need); `custom_rewards` the names of
    the custom functions, found by parsing `spec.custom_code` when not given (nothing runs here).
    """
    g, lo, m = spec.grpo, spec.lora, spec.model
    _check(
        g.reward_error_policy in REWARD_ERROR_POLICIES,
        "reward_error_policy",
        f"reward_error_policy must be fail or none, got {g.reward_error_policy!r}.",
    )
    unavailable = [name for name in reporters(g.report_to) if name not in available_reporters()]
    _check(
        not unavailable,
        "report_to",
        f"report_to {unavailable[0] if unavailable else ''!r} cannot log here; the trackers installed are: "
        f"{', '.join(available_reporters()) or 'none'} (pip install trackio adds trackio).",
    )
    if custom_rewards is None and spec.custom_code:
        try:
            custom_rewards = custom_reward_names(spec)
        except PlaygroundError as exc:
            raise SpecError("custom_code", str(exc)) from None
    _check(
        g.num_generations >= 2,
        "num_generations",
        f"num_generations must be at least 2 (GRPO compares completions within a group), got {g.num_generations}.",
    )
    _check(
        g.per_device_train_batch_size >= 1,
        "per_device_train_batch_size",
        "per_device_train_batch_size must be at least 1.",
    )
    _check(
        g.gradient_accumulation_steps >= 1,
        "gradient_accumulation_steps",
        "gradient_accumulation_steps must be at least 1.",
    )
    _check(
        g.steps_per_generation is None or g.steps_per_generation >= 1,
        "steps_per_generation",
        "steps_per_generation must be at least 1 or empty.",
    )
    _check(m.num_processes >= 1, "num_processes", f"num_processes must be at least 1, got {m.num_processes}.")
    batch = spec.generation_batch_size()
    if m.num_processes == 1:
        _check(
            batch % g.num_generations == 0,
            "per_device_train_batch_size",
            f"The generation batch (per_device_train_batch_size × steps_per_generation = {batch}) must be divisible "
            f"by num_generations ({g.num_generations}); per_device_train_batch_size counts completions, not prompts.",
        )
    else:
        _validate_processes(spec)
    _check(g.max_steps >= 1, "max_steps", f"max_steps must be at least 1, got {g.max_steps}.")
    _check(
        1 <= g.max_completion_length <= MAX_COMPLETION_LENGTH,
        "max_completion_length",
        f"max_completion_length must be between 1 and {MAX_COMPLETION_LENGTH}, got {g.max_completion_length}.",
    )
    _check(
        0 < g.learning_rate <= 1e-2,
        "learning_rate",
        f"learning_rate must be above 0 and at most 0.01, got {g.learning_rate}.",
    )
    _check(0 <= g.beta <= 10, "beta", f"beta (the KL weight) must be between 0 and 10, got {g.beta}.")
    _check(0 < g.epsilon < 1, "epsilon", f"epsilon (the clipping range) must be between 0 and 1, got {g.epsilon}.")
    _check(
        math.isfinite(g.temperature) and 0 < g.temperature <= 5,
        "temperature",
        f"temperature must be above 0 and at most 5, got {g.temperature}.",
    )
    _check(0 < g.top_p <= 1, "top_p", f"top_p must be above 0 and at most 1, got {g.top_p}.")
    _check(
        g.loss_type in LOSS_TYPES,
        "loss_type",
        f"Unknown loss_type {g.loss_type!r}; TRL supports {', '.join(LOSS_TYPES)}.",
    )
    _check(
        g.scale_rewards in SCALE_REWARDS,
        "scale_rewards",
        f"scale_rewards must be one of {', '.join(SCALE_REWARDS)}, got {g.scale_rewards!r}.",
    )
    _check(
        g.multi_objective_aggregation in MULTI_OBJECTIVE_AGGREGATIONS,
        "multi_objective_aggregation",
        f"multi_objective_aggregation must be one of {', '.join(MULTI_OBJECTIVE_AGGREGATIONS)}, "
        f"got {g.multi_objective_aggregation!r}.",
    )
    _check(g.save_steps >= 1, "save_steps", "save_steps must be at least 1.")
    _check(
        g.fast_rollout in FAST_ROLLOUTS,
        "fast_rollout",
        f"fast_rollout must be auto, bfloat16, float32 or off, got {g.fast_rollout!r}.",
    )
    _validate_rollout_correction(spec)
    _validate_cold_start(g)
    _check(lo.lora_r >= 1, "lora_r", f"lora_r must be at least 1, got {lo.lora_r}.")
    _check(lo.lora_alpha > 0, "lora_alpha", f"lora_alpha must be above 0, got {lo.lora_alpha}.")
    _check(0 <= lo.lora_dropout < 1, "lora_dropout", f"lora_dropout must be in [0, 1), got {lo.lora_dropout}.")
    _check(bool(lo.lora_target_modules), "lora_target_modules", "lora_target_modules must name at least one module.")
    _check(m.device in ("auto", "cpu", "cuda"), "device", f"device must be auto, cpu or cuda, got {m.device!r}.")
    _check(m.bnb_4bit_quant_type in ("nf4", "fp4"), "bnb_4bit_quant_type", "bnb_4bit_quant_type must be nf4 or fp4.")
    _check(not (m.load_in_4bit and m.load_in_8bit), "load_in_4bit", "Choose 4-bit or 8-bit quantization, not both.")
    try:
        from playground.models import ModelSource

        ModelSource.parse(m.model_name_or_path)
    except PlaygroundError as exc:
        raise SpecError("model_name_or_path", str(exc)) from None
    _validate_device(spec)
    _validate_vllm(spec)
    _validate_rewards(spec, columns, custom_rewards or set())


def _validate_cold_start(g) -> None:
    """The warm-up, completion prefix and eval fields."""
    _check(
        0 <= g.sft_warmup_steps <= 1000,
        "sft_warmup_steps",
        f"sft_warmup_steps must be 0 to 1000, got {g.sft_warmup_steps}.",
    )
    _check(
        0 < g.sft_learning_rate <= 1e-2,
        "sft_learning_rate",
        f"sft_learning_rate must be above 0 and at most 0.01, got {g.sft_learning_rate}.",
    )
    _check(
        2 <= g.sft_num_examples <= 512,
        "sft_num_examples",
        f"sft_num_examples must be 2 to 512, got {g.sft_num_examples}.",
    )
    if g.sft_warmup_steps and g.sft_examples == "auto":
        tags = g.sft_tags
        _check(
            bool(tags) and all(t and t.isidentifier() for t in tags),
            "sft_tags",
            f"sft_tags must be tag names such as intro,body,conclusion, got {tags!r}.",
        )
    elif g.sft_warmup_steps:
        _check(
            g.sft_examples.endswith(".jsonl"),
            "sft_examples",
            f"sft_examples must be 'auto' or a .jsonl file of prompt/completion rows, got {g.sft_examples!r}.",
        )
    _check(
        len(g.completion_prefix) <= 200,
        "completion_prefix",
        f"completion_prefix must be at most 200 characters, got {len(g.completion_prefix)}.",
    )
    _check(0 <= g.eval_every <= 10000, "eval_every", f"eval_every must be 0 or more steps, got {g.eval_every}.")
    _check(1 <= g.eval_prompts <= 64, "eval_prompts", f"eval_prompts must be 1 to 64, got {g.eval_prompts}.")
    _check(
        2 <= g.eval_num_generations <= 64,
        "eval_num_generations",
        f"eval_num_generations must be 2 to 64, got {g.eval_num_generations}.",
    )


def _validate_rollout_correction(spec: RunSpec) -> None:
    """bf16 rollout and training (where the CPU computes bf16 natively) and TRL's importance-sampling fields."""
    g = spec.grpo
    if g.fast_rollout == "bfloat16" and spec.resolved_device() == "cpu":
        from playground.fastpath.packing import cpu_has_native_bf16

        _check(
            cpu_has_native_bf16(),
            "fast_rollout",
            "fast_rollout bfloat16 needs a CPU with native bf16 (AVX512-BF16 or AMX); here it would be slower than "
            "float32: use auto.",
        )
    if g.bf16 and spec.resolved_device() == "cpu":
        from playground.fastpath.packing import cpu_has_native_bf16

        _check(
            cpu_has_native_bf16(),
            "bf16",
            "bf16 needs a CPU with native bf16 (AVX512-BF16 or AMX); here it would be slower than fp32: turn it off.",
        )
    _check(
        g.vllm_importance_sampling_mode in IMPORTANCE_SAMPLING_MODES,
        "vllm_importance_sampling_mode",
        f"vllm_importance_sampling_mode must be one of {', '.join(IMPORTANCE_SAMPLING_MODES)}, "
        f"got {g.vllm_importance_sampling_mode!r}.",
    )
    clip = g.vllm_importance_sampling_clip_max
    _check(
        clip is None or clip > 1,
        "vllm_importance_sampling_clip_max",
        f"vllm_importance_sampling_clip_max must be above 1 or empty, got {clip}.",
    )
    threshold = g.off_policy_mask_threshold
    _check(
        threshold is None or threshold > 0,
        "off_policy_mask_threshold",
        f"off_policy_mask_threshold must be above 0 or empty, got {threshold}.",
    )
    corrected = g.vllm_importance_sampling_correction and (g.fast_rollout == "bfloat16" or g.use_vllm)
    _check(
        not (corrected and g.loss_type == "vespo" and g.vllm_importance_sampling_mode.startswith("sequence")),
        "vllm_importance_sampling_mode",
        "The vespo loss needs a token-level vllm_importance_sampling_mode (token_truncate or token_mask).",
    )


def _validate_device(spec: RunSpec) -> None:
    m = spec.model
    if m.device == "cuda":
        import torch

        _check(
            torch.cuda.is_available(), "device", "device is cuda but no CUDA GPU is available here; use auto or cpu."
        )
    if m.load_in_4bit or m.load_in_8bit:
        field_name = "load_in_4bit" if m.load_in_4bit else "load_in_8bit"
        reason = bitsandbytes_unavailable(spec.resolved_device(), eight_bit=m.load_in_8bit)
        _check(
            reason is None, field_name, f"{'4' if m.load_in_4bit else '8'}-bit quantization is not available: {reason}"
        )


def _validate_processes(spec: RunSpec) -> None:
    """Several processes: whole groups in the global generation batch, and a device for each process."""
    g, n = spec.grpo, spec.model.num_processes
    steps = g.steps_per_generation or g.gradient_accumulation_steps
    batch = spec.generation_batch_size()
    fits = g.num_generations // math.gcd(g.num_generations, n * steps)  # the smallest per-device batch that divides
    _check(
        batch % g.num_generations == 0,
        "num_processes",
        f"The generation batch over {n} processes (per_device_train_batch_size {g.per_device_train_batch_size} × "
        f"num_processes {n} × steps_per_generation {steps} = {batch}) must be divisible by num_generations "
        f"({g.num_generations}); use a multiple of {fits} as per_device_train_batch_size, or another process count.",
    )
    _check(
        not g.sft_warmup_steps,
        "num_processes",
        "The SFT warm-up runs in the app's own process only: set sft_warmup_steps to 0, or num_processes to 1.",
    )
    if spec.resolved_device() == "cuda":
        import torch

        gpus = torch.cuda.device_count()
        _check(
            n <= gpus, "num_processes", f"num_processes is {n} but this machine has {gpus} GPU(s); use at most {gpus}."
        )
    else:
        cores = os.cpu_count() or 1
        _check(
            n <= cores,
            "num_processes",
            f"num_processes is {n} but this machine has {cores} CPU core(s); each process needs one, use at most "
            f"{cores}.",
        )


def _validate_vllm(spec: RunSpec) -> None:
    if not spec.grpo.use_vllm:
        return
    _check(spec.resolved_device() == "cuda", "use_vllm", "use_vllm needs a CUDA GPU; on CPU the fast rollout is used.")
    _check(
        importlib.util.find_spec("vllm") is not None,
        "use_vllm",
        "use_vllm needs the vllm package (pip install vllm); it is optional.",
    )


def bitsandbytes_unavailable(device: str, eight_bit: bool = False) -> str | None:
    """None when bitsandbytes can quantize on `device`, else the reason in words."""
    if importlib.util.find_spec("bitsandbytes") is None:
        return "bitsandbytes is not installed (pip install bitsandbytes)."
    try:
        import bitsandbytes  # noqa: F401
    except Exception as exc:  # a broken native library raises all sorts of errors
        return f"bitsandbytes failed to load ({type(exc).__name__}: {exc})."
    if device == "cpu" and eight_bit:
        return "8-bit LLM.int8 training needs a CUDA GPU; on CPU use 4-bit (load_in_4bit) instead."
    return None


def _validate_rewards(spec: RunSpec, columns: list[str] | None, custom: set[str]) -> None:
    from rewards.registry import required_columns, resolve_params

    _check(bool(spec.rewards), "rewards", "Pick at least one reward.")
    for choice in spec.rewards:
        _check(
            math.isfinite(choice.weight), "rewards", f"The weight of reward {choice.name!r} must be a finite number."
        )
        if choice.name in custom:
            continue
        try:
            resolve_params(choice.name, choice.params)
            needed = required_columns(choice.name, choice.params)
        except PlaygroundError as exc:
            raise SpecError("rewards", str(exc)) from None
        if columns is not None:
            missing = [c for c in needed if c not in columns]
            if missing:
                raise SpecError(
                    "rewards",
                    f"Reward {choice.name!r} needs the dataset column {missing[0]!r}, but the data has only: "
                    f"{', '.join(columns)}. Map a column to {missing[0]!r} or pick another prompt set.",
                )


# --- public mode: paths and sizes a stranger may ask for -------------------------------------------------------------

# The parameters through which a library reward loads a model (reward_model, judge): a Hub id, never a server folder.
MODEL_PARAMS = ("model",)


def check_public_model(name: str | None, allowed: Collection[str] = ()) -> None:
    """Public mode: a model is the embedded one, one the app was started with (`allowed`), or a Hub id; never a
    folder of the server, which could hold another visitor's files or a folder made to look like a model."""
    from playground.data import is_hub_id

    name = (name or "").strip()
    if name in ("", "embedded") or name in allowed:
        return
    if not is_hub_id(name):
        raise PlaygroundError(
            f"This app is public: the model must be the app's own or a Hugging Face Hub id (org/name), not {name!r}; "
            "folders of the server are not read."
        )


def check_public_rewards(choices: Iterable) -> None:
    """Public mode: no reward parameter names a model folder of the server (formula terms included)."""
    for choice in choices:
        _check_reward_params(choice.name, choice.params or {})


def _check_reward_params(name: str, params: dict) -> None:
    import json

    for key, value in params.items():
        if key in MODEL_PARAMS and isinstance(value, str) and value.strip():
            check_public_model(value)
    terms = params.get("terms") if name == "formula" else None
    if isinstance(terms, str) and terms.strip():
        try:
            bound = json.loads(terms)
        except ValueError:
            return  # the formula reward refuses it when it is built
        for term in bound.values() if isinstance(bound, dict) else ():
            if isinstance(term, dict) and isinstance(term.get("params"), dict):
                _check_reward_params(str(term.get("name")), term["params"])


def check_public_paths(spec: RunSpec, uploads: Uploads, session: str | None, models: Collection[str] = ()) -> None:
    """Public mode's one path rule for a run: every field that names a file (`dataset_name`, `sft_examples`) names
    one this browser session uploaded; models and reward models are Hub ids or the app's own."""
    from playground.data import check_public_source

    try:
        check_public_source(spec.data, uploads, session)
    except PlaygroundError as exc:
        raise SpecError("dataset_name", str(exc)) from None
    if spec.grpo.sft_examples.strip() != "auto":
        try:
            uploads.check(session, spec.grpo.sft_examples)
        except PlaygroundError as exc:
            raise SpecError("sft_examples", f"sft_examples: {exc}") from None
    check_public_model(spec.model.model_name_or_path, models)
    check_public_rewards(spec.rewards)


# Sampling a visitor may ask of the app's model outside a run (the preview, the reward lab's dry run): the preview's
# group sizes, and tokens per completion and in all that keep one request to about a minute on a 2-core CPU Space.
PUBLIC_GENERATIONS = (2, 16)
PUBLIC_MAX_NEW_TOKENS = 512
PUBLIC_SAMPLED_TOKENS = 16_384  # prompts × completions × max_new_tokens; the dry run's defaults take 16 × 8 × 64


def check_public_sampling(prompts: int, num_generations: int, max_new_tokens: int) -> None:
    """Public mode: G within `PUBLIC_GENERATIONS`, at most `PUBLIC_MAX_NEW_TOKENS` per completion, and at most
    `PUBLIC_SAMPLED_TOKENS` in all (N × G × tokens)."""
    low, high = PUBLIC_GENERATIONS
    if not low <= num_generations <= high:
        raise PlaygroundError(
            f"This app is public: num_generations must be between {low} and {high}, got {num_generations}."
        )
    if not 1 <= max_new_tokens <= PUBLIC_MAX_NEW_TOKENS:
        raise PlaygroundError(
            f"This app is public: max_new_tokens must be between 1 and {PUBLIC_MAX_NEW_TOKENS}, got {max_new_tokens}."
        )
    total = prompts * num_generations * max_new_tokens
    if total > PUBLIC_SAMPLED_TOKENS:
        raise PlaygroundError(
            f"This app is public: one request may sample at most {PUBLIC_SAMPLED_TOKENS:,} tokens; {prompts} "
            f"prompt(s) × {num_generations} completions × {max_new_tokens} tokens = {total:,}. Ask for fewer."
        )


PUBLIC_MAX_COMPLETIONS = 64  # a scored group outside a run: 16 is the preview's largest, 64 leaves room
PUBLIC_MAX_COMPLETION_CHARS = 20_000  # as a prompt (data.MAX_PROMPT_CHARS)


def check_public_group(completions: list[str]) -> None:
    """Public mode: a group of completions to score holds at most `PUBLIC_MAX_COMPLETIONS` of at most
    `PUBLIC_MAX_COMPLETION_CHARS` characters each."""
    if len(completions) > PUBLIC_MAX_COMPLETIONS:
        raise PlaygroundError(
            f"This app is public: a group may hold at most {PUBLIC_MAX_COMPLETIONS} completions, got "
            f"{len(completions)}."
        )
    longest = max((len(c) for c in completions), default=0)
    if longest > PUBLIC_MAX_COMPLETION_CHARS:
        raise PlaygroundError(
            f"This app is public: a completion may hold at most {PUBLIC_MAX_COMPLETION_CHARS:,} characters, got "
            f"{longest:,}."
        )
