"""The TRL arguments of an export, read off the run spec's own `GRPOConfig`, `LoraConfig` and model fields.

There is no second table of parameters here: `training_args` builds `spec.grpo_config(...)` and writes out every
field the spec sets (its GRPO section, plus whatever differs from TRL's defaults), so a field the spec learns to set
is exported without a change here. The recipe and the script print these dicts; the tests parse them back with TRL.
"""

from __future__ import annotations

import enum
from dataclasses import fields
from typing import Any

from playground.export.common import OUTPUT_DIR, export_model, gpu_target, report_to
from playground.spec import GRPOArgs, RunSpec, field_help


# GRPOConfig computes these in __post_init__ from fields that are exported; setting both is redundant or an error
# (generation_batch_size with steps_per_generation), and generation_batch_size also depends on the GPU count.
DERIVED = ("generation_batch_size", "activation_checkpointing")
# Written for the machine that trains, not read off the one that exports (see `device_args`).
DEVICE_FIELDS = ("bf16", "use_cpu")
# Fields every export writes itself.
OWN_FIELDS = ("output_dir", "reward_weights")


def export_overrides(spec: RunSpec) -> dict[str, Any]:
    """How an export differs from the playground's trainer: TRL saves checkpoints (the playground saves the adapter
    itself), shows progress bars, and reports where the spec asks."""
    return {"save_strategy": "steps", "save_steps": spec.grpo.save_steps, "disable_tqdm": False}


def exported_grpo_config(spec: RunSpec, output_dir: str = OUTPUT_DIR):
    """The `GRPOConfig` an export reproduces (on this machine's device): `spec.grpo_config` with `export_overrides`."""
    reporters = report_to(spec)
    overrides = {**export_overrides(spec), **({"report_to": reporters} if reporters else {})}
    per_device, processes = spec.grpo.per_device_train_batch_size, spec.model.num_processes
    if processes == 1:
        return spec.grpo_config(output_dir, **overrides)
    # GRPOConfig checks the generation batch against this one process; check it against the N processes' instead.
    config = spec.grpo_config(output_dir, **overrides, per_device_train_batch_size=per_device * processes)
    config.per_device_train_batch_size = per_device
    return config


def training_args(spec: RunSpec) -> dict[str, Any]:
    """GRPOConfig arguments to write, in form order: the spec's GRPO fields, then every other field that differs from
    TRL's default. Device fields, derived fields, `output_dir` and `reward_weights` are left to the caller."""
    from trl import GRPOConfig

    cfg = exported_grpo_config(spec)
    default = GRPOConfig(output_dir=cfg.output_dir, bf16=cfg.bf16, use_cpu=cfg.use_cpu)
    skip = set(DERIVED) | set(DEVICE_FIELDS) | set(OWN_FIELDS)
    out: dict[str, Any] = {}
    for f in fields(GRPOArgs):
        if hasattr(cfg, f.name) and f.name not in skip and getattr(spec.grpo, f.name) not in (None, []):
            out[f.name] = _plain(getattr(cfg, f.name))  # None: left to TRL, which derives it; []: no tracker
    for f in fields(cfg):
        if f.name in out or f.name in skip or not f.init:
            continue
        if getattr(cfg, f.name) != getattr(default, f.name) or f.name in export_overrides(spec):
            out[f.name] = _plain(getattr(cfg, f.name))
    return out


def device_args(spec: RunSpec, gpu: bool | None = None) -> dict[str, Any]:
    """Precision for the machine that trains, as the playground picks it: bf16 on a GPU, fp32 on the CPU."""
    gpu = gpu_target(spec) if gpu is None else gpu
    return {"bf16": gpu, "use_cpu": not gpu}


def model_dtype(gpu: bool) -> str:
    return "bfloat16" if gpu else "float32"  # as `playground.training.job.load_training_model` loads the base model


def model_args(spec: RunSpec) -> dict[str, Any]:
    """TRL `ModelConfig` arguments (`trl grpo`'s model, LoRA and quantization flags) from the spec."""
    from trl import ModelConfig

    known = {f.name for f in fields(ModelConfig)}
    gpu = gpu_target(spec)
    out: dict[str, Any] = {"model_name_or_path": export_model(spec).name, "dtype": model_dtype(gpu)}
    for section in (spec.model, spec.lora):
        for f in fields(section):
            if f.name in known and f.name not in out:
                out[f.name] = _plain(getattr(section, f.name))
    out["use_peft"] = True  # the playground always trains a LoRA adapter
    if spec.model.load_in_4bit:
        out["bnb_4bit_quant_storage"] = model_dtype(gpu)  # as `RunSpec.bnb_config` stores the 4-bit weights
    return out


def lora_args(spec: RunSpec) -> dict[str, Any]:
    """`LoraConfig` arguments: the spec's LoRA fields by PEFT's names, plus whatever else differs from the default."""
    from peft import LoraConfig

    cfg, default = spec.lora_config().to_dict(), LoraConfig().to_dict()
    always = ("r", "lora_alpha", "lora_dropout", "target_modules", "task_type")
    out = {k: _plain(cfg[k]) for k in always}
    out.update({k: _plain(v) for k, v in cfg.items() if k not in out and v != default.get(k)})
    return out


def quantization_args(spec: RunSpec) -> dict[str, Any] | None:
    """`BitsAndBytesConfig` arguments that do not depend on the device (the compute dtype does), or None."""
    m = spec.model
    if m.load_in_8bit:
        return {"load_in_8bit": True}
    if m.load_in_4bit:
        return {"load_in_4bit": True, "bnb_4bit_quant_type": m.bnb_4bit_quant_type}
    return None


def help_text(name: str) -> str:
    """One line about a field: the spec's help text where the spec has the field, else TRL's first sentence."""
    try:
        return field_help(name)
    except KeyError:
        pass
    from trl import GRPOConfig, ModelConfig

    for cls in (GRPOConfig, ModelConfig):
        f = cls.__dataclass_fields__.get(name)
        if f is not None and f.metadata.get("help"):
            text = " ".join(f.metadata["help"].split())
            return text.split(". ")[0].rstrip(".") + "."
    return ""


def _plain(value: Any) -> Any:
    """A YAML- and Python-literal-friendly copy: enums become their values, tuples and sets lists."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, set):
        return sorted(_plain(v) for v in value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
