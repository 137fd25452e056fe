"""Validation of a run spec before launch: each failure is one sentence naming the field."""

from __future__ import annotations

import importlib.util
import math
import operator
import os
from collections.abc import Collection
from dataclasses import fields
from typing import TYPE_CHECKING

from playground.errors import PlaygroundError, SpecError
from playground.sandbox.custom import custom_reward_names
from playground.spec import SECTIONS, available_reporters, reporters
from playground.texts import msg


if TYPE_CHECKING:
    from playground.data.uploads import Uploads
    from playground.spec import RunSpec


def _check(ok: bool, field: str, key: str, /, **values) -> None:
    """Raise the catalogue's refusal `key` (with `values`) for `field` unless `ok`."""
    if not ok:
        raise SpecError(field, key, **values)


# The bounds a field's metadata may hold, each with the comparison a value must pass.
BOUNDS = {"min": operator.ge, "gt": operator.gt, "max": operator.le, "lt": operator.lt}


def check_field(name: str, value, metadata) -> None:
    """One field against the bounds in its metadata, where the form, the CLI and the MCP tools all meet them: one
    refusal per kind of bound (`spec.bound.min`, `spec.bound.gt_max`, `spec.bound.choices`, ...). None passes (an
    optional field left empty); the field's type was checked when it was read."""
    if value is None:
        return
    choices, limit = metadata.get("choices"), metadata.get("max_chars")
    valid = ", ".join(map(str, choices or ()))
    _check(choices is None or value in choices, name, "spec.bound.choices", name=name, valid=valid, value=value)
    _check(bool(value) or not metadata.get("nonempty"), name, "spec.bound.nonempty", name=name)
    if limit is not None:
        _check(len(value) <= limit, name, "spec.bound.max_chars", name=name, max=limit, value=len(value))
    bounds = {kind: metadata[kind] for kind in BOUNDS if kind in metadata}
    if not all(math.isfinite(value) and BOUNDS[kind](value, b) for kind, b in bounds.items()):
        raise SpecError(name, "spec.bound." + "_".join(bounds), name=name, value=value, **bounds)


def validate_spec(spec: RunSpec, columns: list[str] | None = None, custom_rewards: set[str] | None = None) -> None:
    """Check `spec` before launch: every field against its metadata's bounds, then what spans fields, the machine
    and the rewards. Each failure is a `SpecError` naming the field.

    `columns` are the prompt set's columns (checked against what the rewards need); `custom_rewards` the names of
    the custom functions, found by parsing `spec.custom_code` when not given (nothing runs here).
    """
    for section, cls in SECTIONS.items():
        for f in fields(cls):
            check_field(f.name, getattr(getattr(spec, section), f.name), f.metadata)
    g, m = spec.grpo, spec.model
    installed = available_reporters()
    for name in reporters(g.report_to):
        _check(name in installed, "report_to", "spec.report_to", name=name, names=", ".join(installed) or "none")
    if custom_rewards is None and spec.custom_code:
        try:
            custom_rewards = custom_reward_names(spec)
        except PlaygroundError as exc:
            raise SpecError("custom_code", exc.message) from None
    batch = spec.generation_batch_size()
    if m.num_processes == 1:
        fits = batch % g.num_generations == 0
        _check(fits, "per_device_train_batch_size", "spec.generation_batch", batch=batch, g=g.num_generations)
    else:
        _validate_processes(spec)
    if g.sft_warmup_steps and g.sft_examples == "auto":
        tags = g.sft_tags
        _check(bool(tags) and all(t and t.isidentifier() for t in tags), "sft_tags", "spec.sft_tags", value=tags)
    elif g.sft_warmup_steps:
        _check(g.sft_examples.endswith(".jsonl"), "sft_examples", "spec.sft_examples", value=g.sft_examples)
    _validate_rollout_correction(spec)
    _check(not (m.load_in_4bit and m.load_in_8bit), "load_in_4bit", "spec.quantization_both")
    try:
        from playground.models import ModelSource

        ModelSource.parse(m.model_name_or_path)
    except PlaygroundError as exc:
        raise SpecError("model_name_or_path", exc.message) from None
    _validate_device(spec)
    _validate_vllm(spec)
    _validate_rewards(spec, columns, custom_rewards or set())


def _validate_rollout_correction(spec: RunSpec) -> None:
    """bf16 rollout and training where the CPU computes bf16 natively; the int8 rollout only under TRL's
    importance-sampling correction and where torch has its int8 kernels; vespo's token-level correction."""
    g = spec.grpo
    if (g.fast_rollout == "bfloat16" or g.bf16) and spec.resolved_device() == "cpu":
        from playground.fastpath.packing import cpu_has_native_bf16

        if g.fast_rollout == "bfloat16":
            _check(cpu_has_native_bf16(), "fast_rollout", "spec.fast_rollout_bf16_cpu")
        if g.bf16:
            _check(cpu_has_native_bf16(), "bf16", "spec.bf16_cpu")
    if g.fast_rollout == "int8":
        from playground.fastpath.packing import int8_linear_available

        _check(g.vllm_importance_sampling_correction, "vllm_importance_sampling_correction", "spec.int8_uncorrected")
        _check(int8_linear_available(), "fast_rollout", "spec.fast_rollout_int8_cpu")
    corrected = g.vllm_importance_sampling_correction and (g.fast_rollout in ("bfloat16", "int8") or g.use_vllm)
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
        bits = 4 if m.load_in_4bit else 8
        reason = bitsandbytes_unavailable(spec.resolved_device(), eight_bit=m.load_in_8bit)
        _check(reason is None, f"load_in_{bits}bit", "spec.quantization_unavailable", bits=bits, reason=reason)


def _validate_processes(spec: RunSpec) -> None:
    """Several processes: whole groups in the global generation batch, and a device for each process."""
    g, n = spec.grpo, spec.model.num_processes
    steps = g.steps_per_generation or g.gradient_accumulation_steps
    batch = spec.generation_batch_size()
    fits = g.num_generations // math.gcd(g.num_generations, n * steps)  # the smallest per-device batch that divides
    sizes = {"n": n, "size": g.per_device_train_batch_size, "steps": steps, "batch": batch, "fits": fits}
    _check(batch % g.num_generations == 0, "num_processes", "spec.processes_batch", g=g.num_generations, **sizes)
    _check(not g.sft_warmup_steps, "num_processes", "spec.processes_warmup")
    if spec.resolved_device() == "cuda":
        import torch

        gpus = torch.cuda.device_count()
        _check(n <= gpus, "num_processes", "spec.processes_gpus", n=n, gpus=gpus)
    else:
        cores = os.cpu_count() or 1
        _check(n <= cores, "num_processes", "spec.processes_cores", n=n, cores=cores)


def _validate_vllm(spec: RunSpec) -> None:
    if not spec.grpo.use_vllm:
        return
    _check(spec.resolved_device() == "cuda", "use_vllm", "spec.vllm_cuda")
    _check(importlib.util.find_spec("vllm") is not None, "use_vllm", "spec.vllm_missing")


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
