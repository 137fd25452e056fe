"""Every private name of TRL, transformers, torch and bitsandbytes the fast path uses, behind one door.

The fast path computes what TRL computes, faster on a CPU, by reaching into code those libraries do not promise to
keep. Each use is here, grouped by the part of the fast path that needs it, and `check()` looks each one up at a
trainer's start and compares what it can (a signature, a constant's type):

- `trainer`: the three `GRPOTrainer` methods `FastGRPOTrainer` overrides (`OVERRIDDEN`, with the arguments the
  overrides expect);
- `lm_head`: TRL's fused head's torch tiles (`trl.kernels.chunked_logprob._forward_tile`, `_backward_tile`), its
  Triton switch and its tile width (`trl.trainer.utils._use_triton`, `_CHUNKED_LOGPROB_CHUNK_SIZE`);
- `decode`: transformers' `GenerationMixin._get_logits_processor`, the lean sampler's temperature and top-p;
- `packing`: torch's oneDNN ops (`torch.ops.mkldnn._reorder_linear_weight`, `_linear_pointwise`,
  `_is_mkldnn_bf16_supported`);
- `int8`: torch's dynamically quantized linear (`torch.ops.quantized.linear_prepack`, `linear_dynamic`, with
  `torch._make_per_channel_quantized_tensor`), for the int8 rollout copy;
- `bitsandbytes`: `bitsandbytes.functional._convert_weight_packed_for_cpu_inverse`, to read a 4-bit weight bnb
  repacked for its CPU path.

A part whose names fail steps aside: the trainer runs TRL's own code for it (correct, slower), says so once in the log
and in `FastGRPOTrainer.fast_path_off`, which the run's status.json carries (`fast_path_off`). Nothing here is looked
up at import, so a TRL that renamed one still imports the playground.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Callable
from typing import Any


logger = logging.getLogger(__name__)

# GRPOTrainer's private methods FastGRPOTrainer overrides, and the leading parameters (after self) the overrides take
# and pass on. TRL may add parameters after these only with defaults.
OVERRIDDEN = {
    "_compute_loss": ("model", "inputs"),
    "_get_per_token_logps_and_entropies": (
        "model",
        "input_ids",
        "attention_mask",
        "logits_to_keep",
        "batch_size",
        "compute_entropy",
    ),
    "_generate_single_turn": ("prompt_ids", "images", "multimodal_fields", "num_generations", "has_tool_images"),
}
FORWARD_TILE = (
    "tile", "tile_stride", "targets", "running_max", "sum_exp", "x_sum_exp", "sq_sum_exp", "z_sum",
    "max_before_target", "target_logit", "vocab_start", "n_cols", "logit_scale", "softcap", "inv_t", "HAS_SOFTCAP",
    "HAS_ENTROPY", "HAS_LOG_SUM_SQ_PROBS", "HAS_MEAN_LOGITS", "HAS_IS_TOP1", "BLOCK_SIZE",
)  # fmt: skip
BACKWARD_TILE = (
    "tile", "tile_stride", "targets", "log_z", "entropy", "grad_logprobs", "grad_entropy", "vocab_start", "n_cols",
    "logit_scale", "softcap", "inv_t", "HAS_SOFTCAP", "HAS_LOGPROB_GRAD", "HAS_ENTROPY_GRAD", "BLOCK_SIZE",
)  # fmt: skip
LOGITS_PROCESSOR = ("generation_config", "input_ids_seq_length", "encoder_input_ids")
PARTS = ("trainer", "lm_head", "decode", "packing", "int8", "bitsandbytes")
_said: set[tuple[str, str]] = set()


# --- looking names up ------------------------------------------------------------------------------------------------


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def _names(function: Callable) -> tuple[str, ...]:
    params = inspect.signature(function).parameters.values()
    return tuple(p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _takes(owner: Any, name: str, expected: tuple[str, ...], skip_self: bool = False) -> str | None:
    """None when `owner.name` exists and its leading arguments are `expected`; else what differs."""
    function = getattr(owner, name, None) if owner is not None else None
    if function is None:
        return f"{name} is gone"
    try:
        names = _names(function)[1 if skip_self else 0 :]
    except (TypeError, ValueError):
        return f"{name} has no signature"
    return None if names[: len(expected)] == expected else f"{name}{inspect.signature(function)}"


def trainer_mismatches(bases: tuple[type, ...]) -> list[str]:
    """How the methods found in `bases` (the classes below the fast path's trainer: TRL's) differ from what its
    overrides expect; empty when they match."""
    problems = []
    for name, expected in OVERRIDDEN.items():
        method = next((vars(base)[name] for base in bases if name in vars(base)), None)
        if method is None:
            problems.append(f"{name} is gone")
            continue
        params = list(inspect.signature(method).parameters.values())[1:]
        named = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        extra_required = [
            p.name
            for p in params[len(expected) :]
            if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        ]
        if tuple(named[: len(expected)]) != expected or extra_required:
            problems.append(f"{name}{inspect.signature(method)}")
    return problems


def lm_head_mismatches() -> list[str]:
    chunked, utils = _module("trl.kernels.chunked_logprob"), _module("trl.trainer.utils")
    problems = [
        _takes(chunked, "_forward_tile", FORWARD_TILE),
        _takes(chunked, "_backward_tile", BACKWARD_TILE),
        _takes(utils, "_use_triton", ("device",)),
    ]
    if not isinstance(getattr(utils, "_CHUNKED_LOGPROB_CHUNK_SIZE", None), int):
        problems.append("_CHUNKED_LOGPROB_CHUNK_SIZE is gone")
    return [p for p in problems if p]


def decode_mismatches() -> list[str]:
    from transformers import GenerationMixin

    problem = _takes(GenerationMixin, "_get_logits_processor", LOGITS_PROCESSOR, skip_self=True)
    return [problem] if problem else []


def packing_mismatches() -> list[str]:
    import torch

    ops = getattr(torch.ops, "mkldnn", None)
    wanted = ("_reorder_linear_weight", "_linear_pointwise", "_is_mkldnn_bf16_supported")
    return [f"torch.ops.mkldnn.{name} is gone" for name in wanted if not _has_op(ops, name)]


def int8_mismatches() -> list[str]:
    import torch

    ops = getattr(torch.ops, "quantized", None)
    problems = [
        f"torch.ops.quantized.{name} is gone"
        for name in ("linear_prepack", "linear_dynamic")
        if not _has_op(ops, name)
    ]
    if not callable(getattr(torch, "_make_per_channel_quantized_tensor", None)):
        problems.append("torch._make_per_channel_quantized_tensor is gone")
    if not set(INT8_ENGINES) & set(torch.backends.quantized.supported_engines):
        problems.append(f"no int8 engine ({', '.join(INT8_ENGINES)}) in this torch")
    return problems


INT8_ENGINES = ("x86", "fbgemm")  # torch's x86 int8 GEMM engines (fbgemm, with oneDNN's where it is faster)


def _has_op(ops, name: str) -> bool:
    try:
        return ops is not None and getattr(ops, name) is not None
    except (AttributeError, RuntimeError):
        return False


def bitsandbytes_mismatches() -> list[str]:
    functional = _module("bitsandbytes.functional")
    if functional is None:  # not installed: no 4-bit weights to read
        return []
    return (
        []
        if callable(getattr(functional, "_convert_weight_packed_for_cpu_inverse", None))
        else ["bitsandbytes.functional._convert_weight_packed_for_cpu_inverse is gone"]
    )


def check(trainer_bases: tuple[type, ...] = ()) -> dict[str, str]:
    """{part: what no longer matches} for each part of the fast path whose private names fail (empty: all match);
    `trainer_bases`: the classes below the fast path's trainer, whose methods it overrides."""
    found = {
        "trainer": trainer_mismatches(trainer_bases) if trainer_bases else [],
        "lm_head": lm_head_mismatches(),
        "decode": decode_mismatches(),
        "packing": packing_mismatches(),
        "int8": int8_mismatches(),
        "bitsandbytes": bitsandbytes_mismatches(),
    }
    return {part: "; ".join(problems) for part, problems in found.items() if problems}


def say_once(off: dict[str, str]) -> None:
    """One log line per part and reason, however many trainers start."""
    for part, reason in off.items():
        if (part, reason) not in _said:
            _said.add((part, reason))
            logger.warning("The fast path's %s is off: %s differs in this install; training with TRL's own code.",
                           part, reason)  # fmt: skip


def works(part: str) -> bool:
    """Whether `part`'s private names match (looked up now)."""
    parts = {"lm_head": lm_head_mismatches, "decode": decode_mismatches, "packing": packing_mismatches}
    return not (parts | {"int8": int8_mismatches})[part]()


# --- the names themselves --------------------------------------------------------------------------------------------


def trl_tiles() -> tuple[Callable, Callable]:
    """TRL's fused head's torch tiles as they are now (forward, backward)."""
    chunked = importlib.import_module("trl.kernels.chunked_logprob")
    return chunked._forward_tile, chunked._backward_tile


def set_trl_tiles(forward: Callable, backward: Callable) -> None:
    chunked = importlib.import_module("trl.kernels.chunked_logprob")
    chunked._forward_tile, chunked._backward_tile = forward, backward


def trl_head_switches() -> tuple[Callable, int]:
    """TRL's fused head's Triton switch and tile width."""
    utils = importlib.import_module("trl.trainer.utils")
    return utils._use_triton, utils._CHUNKED_LOGPROB_CHUNK_SIZE


def set_trl_head_switches(use_triton: Callable, chunk_size: int) -> None:
    utils = importlib.import_module("trl.trainer.utils")
    utils._use_triton, utils._CHUNKED_LOGPROB_CHUNK_SIZE = use_triton, chunk_size


def logits_processor(model, **kwargs):
    """transformers' list of logits processors for a generation config (temperature, top-p, ...)."""
    return model._get_logits_processor(**kwargs)


def mkldnn_bf16_supported() -> bool:
    import torch

    return bool(torch.ops.mkldnn._is_mkldnn_bf16_supported())


def reorder_linear_weight(weight, batch_hint: int):
    import torch

    return torch.ops.mkldnn._reorder_linear_weight(weight, batch_hint)


def linear_pointwise(x, packed, bias):
    import torch

    return torch.ops.mkldnn._linear_pointwise(x, packed, bias, "none", [], "")


def unpack_bnb_cpu(data, quant_state):
    """A 4-bit weight that bitsandbytes repacked in place for its CPU path, back in its plain 4-bit layout."""
    import bitsandbytes.functional as bnbf

    return bnbf._convert_weight_packed_for_cpu_inverse(data, quant_state)


def int8_prepack(weight, bias=None):
    """An fp32 weight (out, in) as torch's packed int8 linear: symmetric int8 per output channel (scale = the
    channel's largest magnitude / 127), packed for the x86 engine's GEMM."""
    import torch

    if torch.backends.quantized.engine not in INT8_ENGINES:
        torch.backends.quantized.engine = next(
            e for e in INT8_ENGINES if e in torch.backends.quantized.supported_engines
        )
    scale = weight.abs().amax(dim=1).clamp_min(1e-12) / 127
    values = torch.round(weight / scale[:, None]).clamp_(-127, 127).to(torch.int8)
    zero = torch.zeros(weight.size(0), dtype=torch.long)
    quantized = torch._make_per_channel_quantized_tensor(values, scale.double(), zero, 0)
    return torch.ops.quantized.linear_prepack(quantized, bias)


def int8_linear(x, packed):
    """`x @ weight.T (+ bias)` in int8: `x` quantized per call (uint8, its own range), int32 accumulation, fp32 out."""
    import torch

    return torch.ops.quantized.linear_dynamic(x, packed, True)
