"""The run spec: one dataclass tree from the form to `GRPOConfig`, `spec.json` and export.

Field names are TRL's (`GRPOConfig`, and `ModelConfig` for the model, LoRA and quantization fields), and help text is
written once, in each field's metadata: the UI's `info=` and the CLI's `--help` read it from there.
"""

from __future__ import annotations

import json
import math
from dataclasses import MISSING, asdict, dataclass, field, fields
from typing import Any

from playground.advantages import AGGREGATIONS
from playground.data.sources import PromptSource, parse_column_map
from playground.errors import SpecError
from playground.scoring import RewardChoice


LOSS_TYPES = ("grpo", "dr_grpo", "dapo", "bnpo", "cispo", "sapo", "luspo", "vespo")
SCALE_REWARDS = ("group", "batch", "none")
MULTI_OBJECTIVE_AGGREGATIONS = AGGREGATIONS  # TRL's GRPOConfig.multi_objective_aggregation values
REWARD_ERROR_POLICIES = ("fail", "none")
FAST_ROLLOUTS = ("auto", "bfloat16", "float32", "off")
IMPORTANCE_SAMPLING_MODES = ("token_truncate", "token_mask", "sequence_truncate", "sequence_mask")  # TRL's
MAX_COMPLETION_LENGTH = 4096  # beyond this a CPU or small GPU run will not finish in a session


# GRPOConfig settings the playground fixes for its own trainer (the run folder, its charts and its adapter saving).
TRAINER_SETTINGS = {
    "logging_steps": 1,  # TRL's default is 10; the playground's charts want every step
    "save_strategy": "no",  # the training job asks for its own checkpoints, in the run folder (job.py); exports theirs
    "disable_tqdm": True,
}
TRACKER_PROJECT = "grpo-playground"  # the trackio (or wandb) project runs report to; each run is named by its id
# Trackers TRL's `report_to` accepts, by the module that must be importable. The app's own charts never depend on them.
REPORTERS = {"trackio": "trackio", "wandb": "wandb", "tensorboard": "tensorboard", "mlflow": "mlflow"}


# CLI flags for the prompt source, named as TRL's ScriptArguments where it has them.
DATA_FLAGS = {
    "dataset_kind": "kind",
    "dataset_name": "name",
    "dataset_config": "config",
    "dataset_split": "split",
    "prompt_column": "prompt_column",
    "column_map": "column_map",
    "system_prompt": "system_prompt",
    "max_rows": "max_rows",
}


@dataclass
class ModelArgs:
    model_name_or_path: str = field(
        default="embedded",
        metadata={"help": "'embedded' (SmolLM2-135M-Instruct, offline), a Hugging Face Hub id, or a local folder."},
    )
    load_in_4bit: bool = field(default=False, metadata={"help": "QLoRA: load the base model in 4-bit (bitsandbytes)."})
    load_in_8bit: bool = field(default=False, metadata={"help": "Load the base model in 8-bit (bitsandbytes)."})
    bnb_4bit_quant_type: str = field(default="nf4", metadata={"help": "4-bit quantization type: 'nf4' or 'fp4'."})
    device: str = field(default="auto", metadata={"help": "'auto' (CUDA when present, else CPU), 'cpu' or 'cuda'."})
    # Scale-out: more than one process goes through `accelerate launch` (playground/training/launcher.py)
    num_processes: int = field(
        default=1,
        metadata={
            "help": "Training processes. 1: in the app's own thread; N > 1: `accelerate launch --num_processes N` "
            "(one per GPU, or CPU processes over gloo). Each process takes per_device_train_batch_size "
            "completions, so a step uses per_device_train_batch_size × N × gradient_accumulation_steps."
        },
    )


@dataclass
class LoraArgs:
    lora_r: int = field(default=16, metadata={"help": "LoRA rank."})
    lora_alpha: int = field(default=32, metadata={"help": "LoRA alpha (the update is scaled by alpha / r)."})
    lora_dropout: float = field(default=0.0, metadata={"help": "Dropout on the LoRA layers."})
    lora_target_modules: list[str] = field(
        default_factory=lambda: ["all-linear"],
        metadata={"help": "Modules that get LoRA adapters, e.g. q_proj,v_proj; 'all-linear' for every linear layer."},
    )


@dataclass
class GRPOArgs:
    # Generation
    num_generations: int = field(default=8, metadata={"help": "Completions per prompt (the group size G)."})
    per_device_train_batch_size: int = field(
        default=8, metadata={"help": "Completions per device per step; the generation batch must divide by G."}
    )
    gradient_accumulation_steps: int = field(default=1, metadata={"help": "Batches accumulated per optimizer step."})
    steps_per_generation: int | None = field(
        default=None, metadata={"help": "Optimizer steps per generation round (default: gradient_accumulation_steps)."}
    )
    max_completion_length: int = field(default=64, metadata={"help": "Maximum new tokens per completion."})
    temperature: float = field(default=1.0, metadata={"help": "Sampling temperature for the rollouts."})
    top_p: float = field(default=1.0, metadata={"help": "Nucleus sampling: keep the top tokens of this mass."})
    # Optimisation
    learning_rate: float = field(
        default=5e-4, metadata={"help": "Initial AdamW learning rate (LoRA takes higher rates than full fine-tuning)."}
    )
    beta: float = field(
        default=0.04,
        metadata={"help": "KL penalty weight. TRL's default is 0.0 (no reference model, no kl metric); >0 logs kl."},
    )
    epsilon: float = field(default=0.2, metadata={"help": "PPO-style clipping range of the importance ratio."})
    loss_type: str = field(default="dapo", metadata={"help": f"Loss aggregation: one of {', '.join(LOSS_TYPES)}."})
    scale_rewards: str = field(
        default="group", metadata={"help": "Divide advantages by the std of the 'group', the 'batch', or 'none'."}
    )
    multi_objective_aggregation: str = field(
        default="sum_then_normalize",
        metadata={
            "help": "How several rewards combine: 'sum_then_normalize' (the weighted sum, then scale_rewards) or "
            "'normalize_then_sum' (each reward normalized within its group, then the weighted sum, normalized over "
            "the batch: GDPO)."
        },
    )
    max_steps: int = field(default=20, metadata={"help": "Optimizer steps to train."})
    seed: int = field(default=42, metadata={"help": "Random seed (data order, sampling, LoRA init)."})
    save_steps: int = field(
        default=10,
        metadata={
            "help": "Save a checkpoint (the adapter and the whole training state, to continue from) every this "
            "many steps."
        },
    )
    gradient_checkpointing: bool = field(
        default=False, metadata={"help": "Trade compute for memory; off by default, it slows small models down."}
    )
    # Rewards
    reward_error_policy: str = field(
        default="fail",
        metadata={
            "help": "When a reward raises, times out or returns garbage: 'fail' stops the run with its message; "
            "'none' scores that batch None for it (TRL skips None) and counts the event in the run status."
        },
    )
    completions_as_text: bool = field(
        default=False,
        metadata={
            "help": "Hand custom rewards plain strings: the text of each completion, also when TRL passes chat "
            "messages (a system prompt or a conversational dataset). Library rewards read both shapes anyway."
        },
    )
    # Cold start: an SFT warm-up on the same LoRA adapter, a pre-filled start of the answer
    sft_warmup_steps: int = field(
        default=0,
        metadata={
            "help": "Steps of TRL's SFTTrainer on the same LoRA adapter right before GRPO (0: no warm-up). "
            "A cold start for a reward the base model never earns."
        },
    )
    sft_examples: str = field(
        default="auto",
        metadata={
            "help": "Warm-up examples: 'auto' (the base model's own answers wrapped in sft_tags) or a .jsonl file "
            "with prompt and completion columns."
        },
    )
    sft_tags: list[str] = field(
        default_factory=lambda: ["intro", "body", "conclusion"],
        metadata={"help": "Tag layout the 'auto' warm-up examples are wrapped in, e.g. intro,body,conclusion."},
    )
    sft_num_examples: int = field(default=24, metadata={"help": "How many 'auto' warm-up examples to build."})
    sft_learning_rate: float = field(default=5e-4, metadata={"help": "Learning rate of the SFT warm-up."})
    completion_prefix: str = field(
        default="",
        metadata={
            "help": "Pre-filled start of every answer (e.g. '<intro>'): generation continues after it, and rewards "
            "see the prefix plus the generated text."
        },
    )
    # Held-out eval curve: the same prompts and seeds at every point
    eval_every: int = field(
        default=0,
        metadata={
            "help": "Score the held-out eval prompts before training, after the warm-up and every this many steps "
            "(0: no eval). Logged as eval_reward and eval_rewards/<fn>/mean."
        },
    )
    eval_prompts: int = field(
        default=4, metadata={"help": "Held-out eval prompts (the prompt set's last rows, not trained on)."}
    )
    eval_num_generations: int = field(default=4, metadata={"help": "Completions per eval prompt (fixed seeds)."})
    eval_max_completion_length: int = field(
        default=0,
        metadata={
            "help": "Maximum new tokens of an eval answer (0: max_completion_length). A longer cap than training's "
            "judges a held-out answer on what it wrote, not on where the training cap cut it."
        },
    )
    use_vllm: bool = field(
        default=False,
        metadata={"help": "Generate with vLLM in colocate mode (CUDA only, needs `pip install vllm`; optional)."},
    )
    fast_rollout: str = field(
        default="auto",
        metadata={
            "help": "The CPU fast path (merged pre-packed rollout copy, shared prompts, allocator settings): 'auto' "
            "or 'float32' (exact), 'bfloat16' (faster rollout where the CPU has native bf16, slightly off-policy, "
            "corrected by TRL's importance sampling below), or 'off' for TRL's own code."
        },
    )
    bf16: bool = field(
        default=False,
        metadata={
            "help": "On a CPU with native bf16 (AVX512-BF16 or AMX): the training forward and backward in bf16 "
            "autocast, the LoRA weights and the optimizer staying fp32 (TRL's bf16). On CUDA training is always bf16."
        },
    )
    # TRL's importance-sampling correction of a sampler that is not exactly the policy (vLLM's, or the bf16 rollout)
    vllm_importance_sampling_correction: bool = field(
        default=True,
        metadata={
            "help": "With fast_rollout=bfloat16 (or use_vllm): weight the loss by the policy's over the sampler's "
            "probability of each sampled token (TRL's correction for a sampler that is not exactly the policy); logs "
            "sampling/importance_sampling_ratio/*. Off: the samples are used as if drawn from the policy."
        },
    )
    vllm_importance_sampling_mode: str = field(
        default="sequence_mask",
        metadata={
            "help": "How TRL bounds that ratio: per token or per sequence, clipped ('*_truncate') or dropped when "
            f"out of bounds ('*_mask'): one of {', '.join(IMPORTANCE_SAMPLING_MODES)}."
        },
    )
    vllm_importance_sampling_clip_max: float | None = field(
        default=3.0,
        metadata={
            "help": "Upper bound of the importance-sampling ratio (TRL's; it replaces vllm_importance_sampling_cap)."
        },
    )
    off_policy_mask_threshold: float | None = field(
        default=None,
        metadata={
            "help": "Drop sequences with a negative advantage whose mean sampler-to-policy KL exceeds this "
            "(DeepSeek-V3.2's off-policy mask, e.g. 0.5); empty: off."
        },
    )
    # Logging
    report_to: list[str] = field(
        default_factory=list,
        metadata={
            "help": "Also log TRL's metrics to these trackers (TRL's report_to), e.g. trackio (pip install trackio: "
            "a local project, `trackio show`); empty: the playground's own charts only."
        },
    )


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
        return {
            "model": asdict(self.model),
            "data": self.data.to_dict(),
            "rewards": [r.to_dict() for r in self.rewards],
            "grpo": asdict(self.grpo),
            "lora": asdict(self.lora),
            "custom_code": self.custom_code,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunSpec:
        unknown = set(data) - {"model", "data", "rewards", "grpo", "lora", "custom_code"}
        if unknown:
            raise SpecError(sorted(unknown)[0], "spec.unknown_section", name=sorted(unknown)[0])
        return cls(
            model=_section(ModelArgs, data.get("model", {})),
            data=PromptSource.from_dict(data["data"])
            if "data" in data
            else PromptSource(kind="builtin", name="writing"),
            rewards=[RewardChoice.from_dict(r) for r in data.get("rewards", [{"name": "length"}])],
            grpo=_section(GRPOArgs, data.get("grpo", {})),
            lora=_section(LoraArgs, data.get("lora", {})),
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
        for section in (self.model, self.grpo, self.lora):
            for f in fields(section):
                if f.name == name:
                    setattr(section, name, _convert(f, value))
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
        """TRL's `GRPOConfig`: every GRPO field of the spec that `GRPOConfig` has (same names), the rewards' weights,
        precision for the device, and `TRAINER_SETTINGS`; `overrides` last."""
        from trl import GRPOConfig

        g = self.grpo
        on_cpu = self.resolved_device() == "cpu"
        trl_fields = {f.name for f in fields(GRPOConfig) if f.init}
        kwargs = {f.name: getattr(g, f.name) for f in fields(GRPOArgs) if f.name in trl_fields}
        kwargs.update(
            output_dir=output_dir,
            reward_weights=[r.weight for r in self.rewards],
            report_to=reporters(g.report_to),
            bf16=g.bf16 or not on_cpu,  # TRL defaults to bf16=True; on CPU only where asked (and native)
            use_cpu=on_cpu,
            **TRAINER_SETTINGS,
        )
        if g.use_vllm:
            kwargs["vllm_mode"] = "colocate"
        if kwargs["report_to"]:
            kwargs["project"] = TRACKER_PROJECT
        kwargs.update(overrides)
        return GRPOConfig(**kwargs)

    def lora_config(self):
        from peft import LoraConfig

        lo = self.lora
        targets: str | list[str] = lo.lora_target_modules
        if targets == ["all-linear"]:
            targets = "all-linear"
        return LoraConfig(
            r=lo.lora_r,
            lora_alpha=lo.lora_alpha,
            lora_dropout=lo.lora_dropout,
            target_modules=targets,
            task_type="CAUSAL_LM",
        )

    def bnb_config(self):
        """A `BitsAndBytesConfig` when 4-bit or 8-bit is asked for, else None."""
        m = self.model
        if not (m.load_in_4bit or m.load_in_8bit):
            return None
        import torch
        from transformers import BitsAndBytesConfig

        if m.load_in_8bit:
            return BitsAndBytesConfig(load_in_8bit=True)
        compute = torch.float32 if self.resolved_device() == "cpu" else torch.bfloat16
        return BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_quant_type=m.bnb_4bit_quant_type,
            bnb_4bit_compute_dtype=compute,
            bnb_4bit_quant_storage=compute,
        )


def reporters(value: list[str] | str | None) -> list[str]:
    """A `report_to` value as a list: comma-separated text is split, and TRL's "none" means no tracker."""
    items = value.split(",") if isinstance(value, str) else list(value or [])
    return [v.strip() for v in items if v.strip() and v.strip() != "none"]


def available_reporters() -> list[str]:
    """The `report_to` values usable here: those whose package is importable (e.g. `["trackio"]` once installed)."""
    import importlib.util

    return [name for name, module in REPORTERS.items() if importlib.util.find_spec(module) is not None]


def flat_fields() -> list[tuple[str, Any]]:
    """(section, dataclass field) for every flat field, in form order."""
    return [
        (name, f) for name, cls in (("model", ModelArgs), ("grpo", GRPOArgs), ("lora", LoraArgs)) for f in fields(cls)
    ]


def field_help(name: str) -> str:
    for _, f in flat_fields():
        if f.name == name:
            return f.metadata.get("help", "")
    raise KeyError(name)


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
        if kind.startswith("list"):
            if isinstance(value, str):
                return [v.strip() for v in value.split(",") if v.strip()]
            return [str(v) for v in value]
        return str(value)
    except (TypeError, ValueError):
        key = "spec.type_or_none" if kind.endswith(" | None") else "spec.type"
        raise SpecError(f.name, key, name=f.name, expected=kind.removesuffix(" | None"), value=value) from None


def _custom_code(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value or None
    raise SpecError("custom_code", "spec.custom_code_type", kind=type(value).__name__)


def default_of(f) -> Any:
    if f.default is not MISSING:
        return f.default
    return f.default_factory()  # type: ignore[misc]


def demo_spec() -> RunSpec:
    """The demo recipe: the defaults, which were picked by measuring on a 2-core CPU (see docs/performance.md)."""
    return RunSpec()
