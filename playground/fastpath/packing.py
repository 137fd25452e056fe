"""Pre-packed fp32 linear layers for CPU inference (preview, compare and the training rollout copy)."""

from __future__ import annotations

import functools
from pathlib import Path

import torch

from playground.fastpath import internals


def packed_linear_available() -> bool:
    return internals.works("packing") and torch.backends.mkldnn.is_available()


@functools.cache
def _cpuinfo() -> str:
    try:
        return Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def cpu_has_native_bf16() -> bool:
    """True when the CPU computes bf16 natively (x86 AVX512-BF16 or AMX-BF16, Arm BF16), read from /proc/cpuinfo.

    Elsewhere bf16 would be emulated, and slower than fp32. The one place that decides it: validation, the CLI's
    reading of a GPU recipe and the benches all call it.
    """
    flags = set()
    for line in _cpuinfo().splitlines():
        if line.startswith(("flags", "Features")):
            flags.update(line.partition(":")[2].split())
    return bool(flags & {"avx512_bf16", "amx_bf16", "bf16"})


def cpu_model_name() -> str:
    """The CPU's model name from /proc/cpuinfo (x86), else the architecture (`aarch64`, ...)."""
    import platform

    for line in _cpuinfo().splitlines():
        if line.startswith("model name"):
            return line.partition(":")[2].strip()
    return platform.machine() or "unknown CPU"


def bf16_matmul_is_native() -> bool:
    """True when oneDNN has bf16 kernels and the CPU runs them natively (see `cpu_has_native_bf16`)."""
    try:
        return internals.mkldnn_bf16_supported() and cpu_has_native_bf16()
    except (AttributeError, RuntimeError):
        return False


class PackedLinear(torch.nn.Module):
    """An fp32 (or bf16) linear layer whose weight is pre-packed for oneDNN's GEMM.

    At decode batch sizes a CPU linear layer is bound by reading its weight; oneDNN's blocked layout reads it about
    twice as fast as the plain row-major one (4x for the 49152x576 `lm_head`), with the same fp32 arithmetic. A bf16
    weight stays bf16 (the lean sampler's bf16 rollout copy); `set_weight` keeps the dtype the layer was built with.
    """

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None, batch_hint: int = 8):
        super().__init__()
        self.out_features, self.in_features = weight.shape
        self.batch_hint = batch_hint
        self.dtype = torch.bfloat16 if weight.dtype == torch.bfloat16 else torch.float32
        self.bias = None if bias is None else bias.detach().to(self.dtype).contiguous()
        self.set_weight(weight)

    def set_weight(self, weight: torch.Tensor) -> None:
        self.packed = internals.reorder_linear_weight(weight.detach().to(self.dtype).contiguous(), self.batch_hint)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.reshape(-1, self.in_features).contiguous()
        out = internals.linear_pointwise(flat, self.packed, self.bias)
        return out.reshape(*x.shape[:-1], self.out_features)


def int8_linear_available() -> bool:
    return internals.works("int8")


class Int8Linear(torch.nn.Module):
    """A linear layer in int8 for sampling (the int8 rollout copy): the weight symmetric int8 per output channel, the
    input quantized to 8 bits per call over its own range, int32 accumulation, fp32 in and out (torch's dynamically
    quantized linear, on the x86 engine).

    A decode step's M=8 GEMMs are bound by reading the weights, and int8 reads a quarter of fp32's bytes. The output
    is close to the fp32 layer's, not equal: the copy samples a slightly different distribution, which TRL's
    importance-sampling correction accounts for (the trainer only builds it under that correction).
    """

    dtype = torch.float32  # what it takes and returns

    def __init__(self, weight: torch.Tensor, bias: torch.Tensor | None):
        super().__init__()
        self.out_features, self.in_features = weight.shape
        self.bias = None if bias is None else bias.detach().float().contiguous()
        self.set_weight(weight)

    def set_weight(self, weight: torch.Tensor) -> None:
        self.packed = internals.int8_prepack(weight.detach().float().contiguous(), self.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        flat = x.reshape(-1, self.in_features).float().contiguous()
        out = internals.int8_linear(flat, self.packed)
        return out.reshape(*x.shape[:-1], self.out_features)


def pack_linears(model: torch.nn.Module, skip: tuple[str, ...] = ()) -> torch.nn.Module:
    """Replace every fp32 `nn.Linear` of an inference-only model (but those named in `skip`) by a `PackedLinear`."""
    if not packed_linear_available():
        return model
    for name, module in list(model.named_modules()):
        if isinstance(module, torch.nn.Linear) and module.weight.dtype == torch.float32 and name not in skip:
            parent, _, child = name.rpartition(".")
            setattr(model.get_submodule(parent) if parent else model, child, PackedLinear(module.weight, module.bias))
    return model
