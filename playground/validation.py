"""Validation of a run spec before launch: each failure is one sentence naming the field."""

from __future__ import annotations

import importlib.util
import math
import os
from collections.abc import Collection
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
from playground.texts import msg


if TYPE_CHECKING:
    from playground.data.uploads import Uploads
    from playground.spec import RunSpec


def _check(ok: bool, field: str, key: str, /, **values) -> None:
    """Raise the catalogue's refusal `key` (with `values`) for `field` unless `ok`."""
    if not ok:
        raise SpecError(field, key, **values)


def validate_spec(spec: RunSpec, columns: list[str] | None = None, custom_rewards: set[str] | None = None) -> None:
    """Check `spec` before launch. Each failure is a `SpecError` naming the field.

    `columns` are the prompt set's columns (checked against what the rewards need); `custom_rewards` the names of
    the custom functions, found by parsing `spec.custom_code` when not given (nothing runs here).
    """
    g, lo, m = spec.grpo, spec.lora, spec.model
    _check(
        g.reward_error_policy in REWARD_ERROR_POLICIES,
        "reward_error_policy",
        "spec.reward_error_policy",
        value=g.reward_error_policy,
    )
    unavailable = [name for name in reporters(g.report_to) if name not in available_reporters()]
    _check(
        not unavailable,
        "report_to",
        "spec.report_to",
        name=unavailable[0] if unavailable else "",
        names=", ".join(available_reporters()) or "none",
    )
    if custom_rewards is None and spec.custom_code:
        try:
            custom_rewards = custom_reward_names(spec)
        except PlaygroundError as exc:
            raise SpecError("custom_code", exc.message) from None
    _check(
        g.num_generations >= 2,
        "num_generations",
        "spec.num_generations",
        value=g.num_generations,
    )
    _check(
        g.per_device_train_batch_size >= 1,
        "per_device_train_batch_size",
        "spec.per_device_train_batch_size",
    )
    _check(
        g.gradient_accumulation_steps >= 1,
        "gradient_accumulation_steps",
        "spec.gradient_accumulation_steps",
    )
    _check(
        g.steps_per_generation is None or g.steps_per_generation >= 1,
        "steps_per_generation",
        "spec.steps_per_generation",
    )
    _check(m.num_processes >= 1, "num_processes", "spec.num_processes", value=m.num_processes)
    batch = spec.generation_batch_size()
    if m.num_processes == 1:
        _check(
            batch % g.num_generations == 0,
            "per_device_train_batch_size",
            "spec.generation_batch",
            batch=batch,
            g=g.num_generations,
        )
    else:
        _validate_processes(spec)
    _check(g.max_steps >= 1, "max_steps", "spec.max_steps", value=g.max_steps)
    _check(
        1 <= g.max_completion_length <= MAX_COMPLETION_LENGTH,
        "max_completion_length",
        "spec.max_completion_length",
        max=MAX_COMPLETION_LENGTH,
        value=g.max_completion_length,
    )
    _check(
        0 < g.learning_rate <= 1e-2,
        "learning_rate",
        "spec.learning_rate",
        value=g.learning_rate,
    )
    _check(0 <= g.beta <= 10, "beta", "spec.beta", value=g.beta)
    _check(0 < g.epsilon < 1, "epsilon", "spec.epsilon", value=g.epsilon)
    _check(
        math.isfinite(g.temperature) and 0 < g.temperature <= 5,
        "temperature",
        "spec.temperature",
        value=g.temperature,
    )
    _check(0 < g.top_p <= 1, "top_p", "spec.top_p", value=g.top_p)
    _check(
        g.loss_type in LOSS_TYPES,
        "loss_type",
        "spec.loss_type",
        value=g.loss_type,
        valid=", ".join(LOSS_TYPES),
    )
    _check(
        g.scale_rewards in SCALE_REWARDS,
        "scale_rewards",
        "spec.scale_rewards",
        valid=", ".join(SCALE_REWARDS),
        value=g.scale_rewards,
    )
    _check(
        g.multi_objective_aggregation in MULTI_OBJECTIVE_AGGREGATIONS,
        "multi_objective_aggregation",
        "spec.multi_objective_aggregation",
        valid=", ".join(MULTI_OBJECTIVE_AGGREGATIONS),
        value=g.multi_objective_aggregation,
    )
    _check(g.save_steps >= 1, "save_steps", "spec.save_steps")
    _check(
        g.fast_rollout in FAST_ROLLOUTS,
        "fast_rollout",
        "spec.fast_rollout",
        value=g.fast_rollout,
    )
    _validate_rollout_correction(spec)
    _validate_cold_start(g)
    _check(lo.lora_r >= 1, "lora_r", "spec.lora_r", value=lo.lora_r)
    _check(lo.lora_alpha > 0, "lora_alpha", "spec.lora_alpha", value=lo.lora_alpha)
    _check(0 <= lo.lora_dropout < 1, "lora_dropout", "spec.lora_dropout", value=lo.lora_dropout)
    _check(bool(lo.lora_target_modules), "lora_target_modules", "spec.lora_target_modules")
    _check(m.device in ("auto", "cpu", "cuda"), "device", "spec.device", value=m.device)
    _check(m.bnb_4bit_quant_type in ("nf4", "fp4"), "bnb_4bit_quant_type", "spec.bnb_4bit_quant_type")
    _check(not (m.load_in_4bit and m.load_in_8bit), "load_in_4bit", "spec.quantization_both")
    try:
        from playground.models import ModelSource

        ModelSource.parse(m.model_name_or_path)
    except PlaygroundError as exc:
        raise SpecError("model_name_or_path", exc.message) from None
    _validate_device(spec)
    _validate_vllm(spec)
    _validate_rewards(spec, columns, custom_rewards or set())


def _validate_cold_start(g) -> None:
    """The warm-up, completion prefix and eval fields."""
    _check(
        0 <= g.sft_warmup_steps <= 1000,
        "sft_warmup_steps",
        "spec.sft_warmup_steps",
        value=g.sft_warmup_steps,
    )
    _check(
        0 < g.sft_learning_rate <= 1e-2,
        "sft_learning_rate",
        "spec.sft_learning_rate",
        value=g.sft_learning_rate,
    )
    _check(
        2 <= g.sft_num_examples <= 512,
        "sft_num_examples",
        "spec.sft_num_examples",
        value=g.sft_num_examples,
    )
    if g.sft_warmup_steps and g.sft_examples == "auto":
        tags = g.sft_tags
        _check(
            bool(tags) and all(t and t.isidentifier() for t in tags),
            "sft_tags",
            "spec.sft_tags",
            value=tags,
        )
    elif g.sft_warmup_steps:
        _check(
            g.sft_examples.endswith(".jsonl"),
            "sft_examples",
            "spec.sft_examples",
            value=g.sft_examples,
        )
    _check(
        len(g.completion_prefix) <= 200,
        "completion_prefix",
        "spec.completion_prefix",
        value=len(g.completion_prefix),
    )
    _check(0 <= g.eval_every <= 10000, "eval_every", "spec.eval_every", value=g.eval_every)
    _check(1 <= g.eval_prompts <= 64, "eval_prompts", "spec.eval_prompts", value=g.eval_prompts)
    _check(
        2 <= g.eval_num_generations <= 64,
        "eval_num_generations",
        "spec.eval_num_generations",
        value=g.eval_num_generations,
    )
    _check(
        0 <= g.eval_max_completion_length <= MAX_COMPLETION_LENGTH,
        "eval_max_completion_length",
        "spec.eval_max_completion_length",
        max=MAX_COMPLETION_LENGTH,
        value=g.eval_max_completion_length,
    )


def _validate_rollout_correction(spec: RunSpec) -> None:
    """bf16 rollout and training (where the CPU computes bf16 natively) and TRL's importance-sampling fields."""
    g = spec.grpo
    if g.fast_rollout == "bfloat16" and spec.resolved_device() == "cpu":
        from playground.fastpath.packing import cpu_has_native_bf16

        _check(
            cpu_has_native_bf16(),
            "fast_rollout",
            "spec.fast_rollout_bf16_cpu",
        )
    if g.bf16 and spec.resolved_device() == "cpu":
        from playground.fastpath.packing import cpu_has_native_bf16

        _check(
            cpu_has_native_bf16(),
            "bf16",
            "spec.bf16_cpu",
        )
    _check(
        g.vllm_importance_sampling_mode in IMPORTANCE_SAMPLING_MODES,
        "vllm_importance_sampling_mode",
        "spec.vllm_importance_sampling_mode",
        valid=", ".join(IMPORTANCE_SAMPLING_MODES),
        value=g.vllm_importance_sampling_mode,
    )
    clip = g.vllm_importance_sampling_clip_max
    _check(
        clip is None or clip > 1,
        "vllm_importance_sampling_clip_max",
        "spec.vllm_importance_sampling_clip_max",
        value=clip,
    )
    threshold = g.off_policy_mask_threshold
    _check(
        threshold is None or threshold > 0,
        "off_policy_mask_threshold",
        "spec.off_policy_mask_threshold",
        value=threshold,
    )
    corrected = g.vllm_importance_sampling_correction and (g.fast_rollout == "bfloat16" or g.use_vllm)
    _check(
        not (corrected and g.loss_type == "vespo" and g.vllm_importance_sampling_mode.startswith("sequence")),
        "vllm_importance_sampling_mode",
        "spec.vespo_token_level",
    )


def _validate_device(spec: RunSpec) -> None:
    m = spec.model
    if m.device == "cuda":
        import torch

        _check(torch.cuda.is_available(), "device", "spec.cuda_missing")
    if m.load_in_4bit or m.load_in_8bit:
        field_name = "load_in_4bit" if m.load_in_4bit else "load_in_8bit"
        reason = bitsandbytes_unavailable(spec.resolved_device(), eight_bit=m.load_in_8bit)
        _check(
            reason is None,
            field_name,
            "spec.quantization_unavailable",
            bits=4 if m.load_in_4bit else 8,
            reason=reason,
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
        "spec.processes_batch",
        n=n,
        size=g.per_device_train_batch_size,
        steps=steps,
        batch=batch,
        g=g.num_generations,
        fits=fits,
    )
    _check(
        not g.sft_warmup_steps,
        "num_processes",
        "spec.processes_warmup",
    )
    if spec.resolved_device() == "cuda":
        import torch

        gpus = torch.cuda.device_count()
        _check(n <= gpus, "num_processes", "spec.processes_gpus", n=n, gpus=gpus)
    else:
        cores = os.cpu_count() or 1
        _check(
            n <= cores,
            "num_processes",
            "spec.processes_cores",
            n=n,
            cores=cores,
        )


def _validate_vllm(spec: RunSpec) -> None:
    if not spec.grpo.use_vllm:
        return
    _check(spec.resolved_device() == "cuda", "use_vllm", "spec.vllm_cuda")
    _check(
        importlib.util.find_spec("vllm") is not None,
        "use_vllm",
        "spec.vllm_missing",
    )


def bitsandbytes_unavailable(device: str, eight_bit: bool = False) -> str | None:
    """None when bitsandbytes can quantize on `device`, else the reason in words."""
    if importlib.util.find_spec("bitsandbytes") is None:
        return msg("spec.bnb_missing")
    try:
        import bitsandbytes  # noqa: F401
    except Exception as exc:  # a broken native library raises all sorts of errors
        return msg("spec.bnb_broken", error=f"{type(exc).__name__}: {exc}")
    if device == "cpu" and eight_bit:
        return msg("spec.bnb_8bit_cpu")
    return None


def _validate_rewards(spec: RunSpec, columns: list[str] | None, custom: set[str]) -> None:
    from rewards.registry import required_columns, resolve_params

    _check(bool(spec.rewards), "rewards", "spec.no_reward")
    for choice in spec.rewards:
        _check(math.isfinite(choice.weight), "rewards", "spec.reward_weight", name=choice.name)
        if choice.name in custom:
            continue
        try:
            resolve_params(choice.name, choice.params)
            needed = required_columns(choice.name, choice.params)
        except PlaygroundError as exc:
            raise SpecError("rewards", exc.message) from None
        if columns is not None:
            missing = [c for c in needed if c not in columns]
            if missing:
                raise SpecError(
                    "rewards", "spec.reward_column", name=choice.name, column=missing[0], columns=", ".join(columns)
                )


# --- public mode: paths a stranger may ask for ----------------------------------------------------------------------


def check_public_paths(spec: RunSpec, uploads: Uploads, owner: str | None, models: Collection[str] = ()) -> None:
    """Public mode's one path rule for a run: every field that names a file (`dataset_name`, `sft_examples`) names
    one this browser (`owner`, its token's key) uploaded; models and reward models are Hub ids or the app's own,
    priced by the admission gate."""
    from playground.admission import check_model, check_selection
    from playground.data.uploads import check_public_source

    try:
        check_public_source(spec.data, uploads, owner)
    except PlaygroundError as exc:
        raise SpecError("dataset_name", exc.message) from None
    if spec.grpo.sft_examples.strip() != "auto":
        try:
            uploads.check(owner, spec.grpo.sft_examples)
        except PlaygroundError as exc:
            raise SpecError("sft_examples", "spec.field_prefix", name="sft_examples", message=exc.message) from None
    check_model(spec.model.model_name_or_path, models)
    check_selection(spec.rewards, models)
