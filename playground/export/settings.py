"""The TRL arguments of an export, read off the run spec's own `GRPOConfig`, `ModelConfig` and `LoraConfig`.

There is no second table of parameters here: `training_args` builds `spec.grpo_config(...)` and writes the fields
the spec surfaces, the recipe's trainer settings and the fields it derives, so a field the spec learns to set is
exported without a change here. The recipe and the script print these dicts; the tests parse them back with TRL.
"""

from __future__ import annotations

import enum
from dataclasses import fields
from typing import Any

from trl import GRPOConfig, ModelConfig

from playground.export.common import OUTPUT_DIR, export_model, gpu_target, report_to
from playground.spec import SECTIONS, TRAINER_SETTINGS, RunSpec
from playground.texts.help import FIELDS as HELP


# GRPOConfig computes these in __post_init__ from fields that are exported; setting both is redundant or an error
# (generation_batch_size with steps_per_generation), and generation_batch_size also depends on the GPU count.
# The device fields are written for the machine that trains (see `device_args`); the export writes its own.
LEFT_OUT = ("generation_batch_size", "activation_checkpointing", "bf16", "use_cpu", "output_dir", "reward_weights")


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
    """GRPOConfig arguments to write, read off the exported config: the surfaced fields the spec sets (None is left
    to TRL, which derives it; [] is no tracker), the recipe's trainer settings as the export overrides them, and the
    other fields the spec derives (`RunSpec.trainer_fields`), less `LEFT_OUT`."""
    cfg, surfaced = exported_grpo_config(spec), [f.name for f in fields(SECTIONS["grpo"])]
    names = [n for n in surfaced if getattr(spec.grpo, n) not in (None, [])]
    names += [*TRAINER_SETTINGS, *export_overrides(spec), *(n for n in spec.trainer_fields() if n not in surfaced)]
    names = [n for n in dict.fromkeys(names) if n in GRPOConfig.__dataclass_fields__ and n not in LEFT_OUT]
    return {n: _plain(getattr(cfg, n)) for n in names}


def device_args(spec: RunSpec, gpu: bool | None = None) -> dict[str, Any]:
    """Precision for the machine that trains, as the playground picks it: bf16 on a GPU, fp32 on the CPU."""
    gpu = gpu_target(spec) if gpu is None else gpu
    return {"bf16": gpu, "use_cpu": not gpu}


def model_args(spec: RunSpec) -> dict[str, Any]:
    """TRL `ModelConfig` arguments (`trl grpo`'s model, LoRA and quantization flags), read off the spec's
    `model_config` for the machine that trains, with the exported model's name."""
    cfg = spec.model_config(gpu_target(spec))
    names = ["dtype", *(f.name for s in ("model", "lora") for f in fields(SECTIONS[s])), "use_peft"]
    names += ["bnb_4bit_quant_storage"] if cfg.load_in_4bit else []
    out = {"model_name_or_path": export_model(spec).name}
    out |= {n: _plain(getattr(cfg, n)) for n in names if n in ModelConfig.__dataclass_fields__ and n not in out}
    return out | {"lora_target_modules": list(spec.lora.lora_target_modules)}  # a list, as the form gives it


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
    """One line about a field: the catalogue's help where the spec has the field, else TRL's first sentence."""
    if name in HELP:
        return HELP[name][0]
    f = {**ModelConfig.__dataclass_fields__, **GRPOConfig.__dataclass_fields__}.get(name)
    text = " ".join(f.metadata.get("help", "").split()) if f else ""
    return text.split(". ")[0].rstrip(".") + "." if text else ""


def _plain(value: Any) -> Any:
    """A YAML- and Python-literal-friendly copy: enums become their values, tuples and sets lists."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, set | tuple | list):
        items = [_plain(v) for v in value]
        return sorted(items) if isinstance(value, set) else items
    return value
