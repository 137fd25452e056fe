"""The run spec: TRL's own config classes, the playground's own fields and its recipe, from the form to `GRPOConfig`,
`spec.json` and export.

`PlaygroundConfig` is TRL's `GRPOConfig` plus the playground's own fields (as open-r1 subclasses it); TRL's
`ModelConfig` holds the model, LoRA and quantization fields. The spec's sections (`ModelArgs`, `GRPOArgs`,
`LoraArgs`) are plain value dataclasses made of those classes' fields: the ones the form surfaces (`SURFACED`), with
the playground's `RECIPE` as their defaults where it differs from TRL's, and metadata holding the help (the UI's
`info=`, the CLI's `--help`: the text catalogue's, `playground.texts.help.FIELDS`) and the bounds (`min`, `gt`,
`max`, `lt`, `choices`, `nonempty`, `max_chars`) that `playground.validation.check_field` reads.
"""

from __future__ import annotations

import json
import math
import typing
from dataclasses import MISSING, asdict, dataclass, field, fields, make_dataclass
from types import MappingProxyType
from typing import Any

from trl import GRPOConfig, ModelConfig, get_peft_config, get_quantization_config

from playground.advantages import AGGREGATIONS
from playground.data.sources import PromptSource, parse_column_map
from playground.errors import SpecError
from playground.scoring import RewardChoice
from playground.texts.help import FIELDS as HELP


SCALE_REWARDS = ("group", "batch", "none")
LOSS_TYPES = ("grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo", "luspo", "vespo")
IMPORTANCE_SAMPLING_MODES = ("token_truncate", "token_mask", "sequence_truncate", "sequence_mask")  # TRL's
FAST_ROLLOUTS = ("auto", "bfloat16", "float32", "int8", "off")
MAX_COMPLETION_LENGTH = 4096  # beyond this a CPU or small GPU run will not finish in a session
TRACKER_PROJECT = "grpo-playground"  # the trackio (or wandb) project runs report to; each run is named by its id
# Trackers TRL's `report_to` accepts, by the module that must be importable. The app's own charts never depend on them.
REPORTERS = {"trackio": "trackio", "wandb": "wandb", "tensorboard": "tensorboard", "mlflow": "mlflow"}

# The playground's recipe: every default that differs from TRL's, picked by measuring on a 2-core CPU (see
# docs/performance.md), and the trainer settings of the playground's own runs.
RECIPE: dict[str, Any] = {
    "model_name_or_path": "embedded",
    "max_completion_length": 64,
    "learning_rate": 5e-4,  # LoRA takes higher rates than full fine-tuning
    "beta": 0.04,  # TRL's 0.0 loads no reference model and logs no kl
    "max_steps": 20,
    "save_steps": 10,
    "gradient_checkpointing": False,  # it slows small models down
    "bf16": False,  # on CPU only where asked (and native); on CUDA training is always bf16
    "report_to": [],
    "lora_dropout": 0.0,
    "lora_target_modules": ["all-linear"],
    "logging_steps": 1,  # the playground's charts want every step
    "save_strategy": "no",  # the training job asks for its own checkpoints, in the run folder; exports save theirs
    "disable_tqdm": True,
}
TRAINER_SETTINGS = ("logging_steps", "save_strategy", "disable_tqdm")  # recipe fields the form does not surface
# Types the playground reads where TRL's are wider (TRL takes None for a derived value, or a str for report_to).
TYPES = {"num_generations": int, "max_completion_length": int, "save_steps": int, "bf16": bool}
TYPES |= {"report_to": list[str], "lora_target_modules": list[str], "model_name_or_path": str}


def own(default: Any, **bounds: Any) -> Any:
    """A field of the playground's own: its default and bounds (its help, `HELP`'s, is added below)."""
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=bounds)
    return field(default=default, metadata=bounds)


@dataclass
class PlaygroundConfig(GRPOConfig):
    """TRL's `GRPOConfig` and the playground's own run fields: reward errors, the cold start, evals, the fast path."""

    reward_error_policy: str = own("fail", choices=("fail", "none"))
    completions_as_text: bool = own(False)
    sft_warmup_steps: int = own(0, min=0, max=1000)
    sft_examples: str = own("auto")
    sft_tags: list[str] = own(["intro", "body", "conclusion"])
    sft_split: str = own("words", choices=("words", "sentences"))
    sft_num_examples: int = own(24, min=2, max=512)
    sft_learning_rate: float = own(5e-4, gt=0, max=1e-2)
    completion_prefix: str = own("", max_chars=200)
    eval_every: int = own(0, min=0, max=10000)
    eval_prompts: int = own(4, min=1, max=64)
    eval_num_generations: int = own(4, min=2, max=64)
    eval_max_completion_length: int = own(0, min=0, max=MAX_COMPLETION_LENGTH)
    fast_rollout: str = own("auto", choices=FAST_ROLLOUTS)


@dataclass
class MachineArgs:
    """The playground's own model-section fields: where a run trains (TrainingArguments owns the name `device`)."""

    device: str = own("auto", choices=("auto", "cpu", "cuda"))
    num_processes: int = own(1, min=1)


# The playground's own fields, each section's after TRL's: PlaygroundConfig's beyond GRPOConfig, and MachineArgs.
OWN = {"model": [*MachineArgs.__dataclass_fields__], "lora": []}
OWN["grpo"] = [name for name in PlaygroundConfig.__dataclass_fields__ if name not in GRPOConfig.__dataclass_fields__]
for _cls, _names in ((PlaygroundConfig, OWN["grpo"]), (MachineArgs, OWN["model"])):  # their help, as TRL's fields have
    for _name in _names:
        _f = _cls.__dataclass_fields__[_name]
        _f.metadata = MappingProxyType({"help": HELP[_name][0], **_f.metadata})
# The fields of TRL's classes the form and the CLI surface, by section, with the playground's bounds for each.
SURFACED: dict[str, dict[str, dict[str, Any]]] = {
    "model": {
        "model_name_or_path": {},
        "load_in_4bit": {},
        "load_in_8bit": {},
        "bnb_4bit_quant_type": {"choices": ("nf4", "fp4")},
    },
    "grpo": {
        "num_generations": {"min": 2},
        "per_device_train_batch_size": {"min": 1},
        "gradient_accumulation_steps": {"min": 1},
        "steps_per_generation": {"min": 1},
        "max_completion_length": {"min": 1, "max": MAX_COMPLETION_LENGTH},
        "temperature": {"gt": 0, "max": 5},
        "top_p": {"gt": 0, "max": 1},
        "learning_rate": {"gt": 0, "max": 1e-2},
        "beta": {"min": 0, "max": 10},
        "epsilon": {"gt": 0, "lt": 1},
        "loss_type": {"choices": LOSS_TYPES},
        "scale_rewards": {"choices": SCALE_REWARDS},
        "multi_objective_aggregation": {"choices": AGGREGATIONS},
        "max_steps": {"min": 1},
        "seed": {},
        "save_steps": {"min": 1},
        "gradient_checkpointing": {},
        "use_vllm": {},
        "bf16": {},
        # TRL's importance-sampling correction of a sampler that is not exactly the policy (vLLM's, the bf16 rollout)
        "vllm_importance_sampling_correction": {},
        "vllm_importance_sampling_mode": {"choices": IMPORTANCE_SAMPLING_MODES},
        "vllm_importance_sampling_clip_max": {"gt": 1},
        "off_policy_mask_threshold": {"gt": 0},
        "report_to": {},
    },
    "lora": {
        "lora_r": {"min": 1},
        "lora_alpha": {"gt": 0},
        "lora_dropout": {"min": 0, "lt": 1},
        "lora_target_modules": {"nonempty": True},
    },
}
# CLI flags for the prompt source, named as TRL's ScriptArguments where it has them.
DATA_FLAGS = {f"dataset_{key}": key for key in ("kind", "name", "config", "split")}
DATA_FLAGS |= {key: key for key in ("prompt_column", "column_map", "system_prompt", "max_rows")}


def section_class(section: str, name: str, parser: bool = False) -> type:
    """A value dataclass of one section's fields (`SURFACED`, then `OWN`): TRL's or the playground's, the recipe's
    default, and the playground's bounds and help (`HELP`) over TRL's metadata. A new class each call:
    `HfArgumentParser` rewrites its types; for the `parser`, the metadata is the help and choices
    (`HfArgumentParser` hands metadata to `add_argument`)."""
    specs = []
    for key, overlay in {**SURFACED[section], **dict.fromkeys(OWN[section])}.items():
        owner = next(c for c in (PlaygroundConfig, ModelConfig, MachineArgs) if key in c.__dataclass_fields__)
        f = owner.__dataclass_fields__[key]
        default = RECIPE.get(key, f.default_factory() if f.default is MISSING else f.default)
        kind = TYPES.get(key) or typing.get_type_hints(owner)[key]
        md = {**f.metadata, **(overlay or {}), "help": HELP[key][0]}
        if parser:  # argparse reads help as a %-format (`17 % less` would fail); the UI shows the text as written
            md = {k: list(v) if k == "choices" else v for k, v in md.items() if k in ("help", "choices")}
            md["help"] = md["help"].replace("%", "%%")
        made = field(default_factory=lambda d=default: list(d), metadata=md) if isinstance(default, list) else None
        specs.append((key, kind, made or field(default=default, metadata=md)))
    cls = make_dataclass(name, specs)
    cls.__module__ = __name__
    return cls


ModelArgs = section_class("model", "ModelArgs")
GRPOArgs = section_class("grpo", "GRPOArgs")
LoraArgs = section_class("lora", "LoraArgs")
SECTIONS = {"model": ModelArgs, "grpo": GRPOArgs, "lora": LoraArgs}


@dataclass
class RunSpec:
    model: ModelArgs = field(default_factory=ModelArgs)
    data: PromptSource = field(default_factory=lambda: PromptSource(kind="builtin", name="writing"))
    # The demo recipe: teach SmolLM2 to answer writing prompts in about 50 characters (figures in docs/performance.md).
    rewards: list[RewardChoice] = field(default_factory=lambda: [RewardChoice("length", 1.0, {"ideal_length": 50})])
    grpo: GRPOArgs = field(default_factory=GRPOArgs)
    lora: LoraArgs = field(default_factory=LoraArgs)
    custom_code: str | None = field(
        default=None,
        metadata={"help": "Python source of custom rewards, `def name(completions, **kwargs)`, run in a sandbox."},
    )

    # --- serialisation --------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        out = {"data": self.data.to_dict(), "rewards": [r.to_dict() for r in self.rewards]}
        return {**{s: asdict(getattr(self, s)) for s in SECTIONS}, **out, "custom_code": self.custom_code}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunSpec:
        unknown = sorted(set(data) - {*SECTIONS, "data", "rewards", "custom_code"})
        if unknown:
            raise SpecError(unknown[0], "spec.unknown_section", name=unknown[0])
        return cls(
            **{s: _section(c, data.get(s, {})) for s, c in SECTIONS.items()},
            data=PromptSource.from_dict(data.get("data", {"kind": "builtin", "name": "writing"})),
            rewards=[RewardChoice.from_dict(r) for r in data.get("rewards", [{"name": "length"}])],
            custom_code=_custom_code(data.get("custom_code")),
        )

    @classmethod
    def from_json(cls, text: str) -> RunSpec:
        return cls.from_dict(json.loads(text))

    # --- flat view: the CLI's --<field> flags and the UI form use TRL's field names --------------------------------

    def set(self, name: str, value: Any) -> None:
        """Set a field by its flat name (e.g. `learning_rate`, `lora_r`), converting strings to the field's type."""
        if name in DATA_FLAGS:
            data = self.data.to_dict()
            key = DATA_FLAGS[name]
            if key == "max_rows":
                value = _convert(next(f for f in fields(PromptSource) if f.name == key), value)
            elif key == "column_map" and isinstance(value, str):
                value = parse_column_map(value)  # question=prompt, solution=answer (a dict literal is read too)
            data[key] = value
            self.data = PromptSource.from_dict(data)
            return
        for section in SECTIONS:
            for f in fields(getattr(self, section)):
                if f.name == name:
                    setattr(getattr(self, section), name, _convert(f, value))
                    return
        raise SpecError(name, "spec.unknown_field", name=name)

    # --- validation and TRL objects --------------------------------------------------------------------------------

    def generation_batch_size(self) -> int:
        """Completions generated per round, over all processes (TRL's `generation_batch_size`)."""
        g = self.grpo
        steps = g.steps_per_generation or g.gradient_accumulation_steps
        return g.per_device_train_batch_size * self.model.num_processes * steps

    def eval_completion_length(self) -> int:
        """Most new tokens of a held-out eval answer: `eval_max_completion_length`, or the training cap when 0."""
        return self.grpo.eval_max_completion_length or self.grpo.max_completion_length

    def completions_per_step(self) -> int:
        """Completions one optimizer step learns from: per-device batch × processes × accumulation."""
        g = self.grpo
        return g.per_device_train_batch_size * self.model.num_processes * g.gradient_accumulation_steps

    def resolved_device(self) -> str:
        if self.model.device != "auto":
            return self.model.device
        from playground.models import default_device

        return default_device()

    def grpo_config(self, output_dir: str, **overrides: Any):
        """TRL's `GRPOConfig`: the recipe's trainer settings, every surfaced GRPO field that `GRPOConfig` has, the
        rewards' weights and precision for the device; `overrides` last."""
        trl_fields = GRPOConfig.__dataclass_fields__
        kwargs = {k: v for k, v in {**RECIPE, **asdict(self.grpo)}.items() if k in trl_fields}
        kwargs.update(self.trainer_fields(), output_dir=output_dir, **overrides)
        return GRPOConfig(**kwargs)

    def trainer_fields(self) -> dict[str, Any]:
        """The `GRPOConfig` fields the spec derives rather than surfaces: weights, trackers, device and vLLM mode."""
        on_cpu = self.resolved_device() == "cpu"
        out: dict[str, Any] = {"reward_weights": [r.weight for r in self.rewards], "use_cpu": on_cpu}
        out |= {"report_to": reporters(self.grpo.report_to), "bf16": self.grpo.bf16 or not on_cpu}
        if self.grpo.use_vllm:
            out["vllm_mode"] = "colocate"
        if out["report_to"]:
            out["project"] = TRACKER_PROJECT
        return out

    def lora_config(self):
        """PEFT's `LoraConfig` as TRL's `get_peft_config` makes it from `model_config`."""
        return get_peft_config(self.model_config())

    def model_config(self, gpu: bool | None = None) -> ModelConfig:
        """TRL's `ModelConfig`: the surfaced model and LoRA fields, always a LoRA adapter, and the weights in the dtype
        the machine trains in (bfloat16 on a GPU, float32 on the CPU; `gpu` defaults to this machine's device)."""
        dtype = "bfloat16" if (self.resolved_device() != "cpu" if gpu is None else gpu) else "float32"
        values = {**asdict(self.model), **asdict(self.lora), "use_peft": True, "dtype": dtype}
        values |= {"bnb_4bit_quant_storage": dtype} if self.model.load_in_4bit else {}
        config = ModelConfig(**{k: v for k, v in values.items() if k in ModelConfig.__dataclass_fields__})
        targets = self.lora.lora_target_modules  # one module stays a list: PEFT reads a text as a pattern
        config.lora_target_modules = "all-linear" if targets == ["all-linear"] else list(targets)
        return config

    def bnb_config(self):
        """A `BitsAndBytesConfig` when 4-bit or 8-bit is asked for (TRL's, from `model_config`), else None."""
        return get_quantization_config(self.model_config())


def reporters(value: list[str] | str | None) -> list[str]:
    """A `report_to` value as a list: comma-separated text is split, and TRL's "none" means no tracker."""
    items = value.split(",") if isinstance(value, str) else list(value or [])
    return [v.strip() for v in items if v.strip() and v.strip() != "none"]


def available_reporters() -> list[str]:
    """The `report_to` values usable here: those whose package is importable (e.g. `["trackio"]` once installed)."""
    import importlib.util

    return [name for name, module in REPORTERS.items() if importlib.util.find_spec(module) is not None]


def flat_fields() -> list[tuple[str, Any]]:
    """(section, dataclass field) for every surfaced field, in form order."""
    return [(name, f) for name, cls in SECTIONS.items() for f in fields(cls)]


def field_help(name: str) -> str:
    """A surfaced field's help; KeyError for another name."""
    return {f.name: f.metadata.get("help", "") for _, f in flat_fields()}[name]


def _section(cls, data: dict[str, Any]):
    known = {f.name: f for f in fields(cls)}
    for key in data:
        if key not in known:
            raise SpecError(key, "spec.unknown_field", name=key)
    return cls(**{k: _convert(known[k], v) for k, v in data.items()})


def _convert(f, value: Any) -> Any:
    """Convert a JSON or CLI value to the field's declared type, or raise a SpecError naming the field."""
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    try:
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null") and "None" in kind):
            if "None" in kind:
                return None
            raise ValueError("a value is required")
        if kind.startswith("bool"):
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError(value)
                return value.lower() in ("true", "1", "yes")
            return bool(value)
        if kind.startswith("int"):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            return int(value)
        if kind.startswith("float"):
            out = float(value)
            if not math.isfinite(out):
                raise ValueError(value)
            return out
        if kind.startswith("list"):  # comma-separated text, or a list of such texts (the CLI's nargs)
            items = [item for v in ([value] if isinstance(value, str) else value) for item in str(v).split(",")]
            return [item.strip() for item in items if item.strip()]
        return str(value)
    except (TypeError, ValueError):
        key = "spec.type_or_none" if kind.endswith(" | None") else "spec.type"
        raise SpecError(f.name, key, name=f.name, expected=kind.removesuffix(" | None"), value=value) from None


def _custom_code(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value or None
    raise SpecError("custom_code", "spec.custom_code_type", kind=type(value).__name__)


def spec_with(values: dict[str, Any], rewards: list[RewardChoice] | None = None) -> RunSpec:
    """The demo recipe with these flat fields set (`RunSpec.set`, so each is converted and named in its error; a
    None value keeps the recipe's) and these rewards: how the Preview, the Reward lab and their CLI and MCP forms
    read the fields they share with training."""
    spec = demo_spec()
    for name, value in values.items():
        if value is not None:
            spec.set(name, value)
    if rewards is not None:
        spec.rewards = list(rewards)
    return spec


def demo_spec() -> RunSpec:
    """The demo recipe: the defaults, which were picked by measuring on a 2-core CPU (see docs/performance.md)."""
    return RunSpec()
