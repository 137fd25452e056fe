"""Roofline for one decode step of SmolLM2-135M at batch 8: measured ms per token against FLOPs and bandwidth.

Measures this machine's fp32 matmul rate (2048^3) and memory read bandwidth, computes the lower bound for one
decode step (compute and weight reads), and times real decode steps: `transformers` with plain and with pre-packed
linear layers, and the playground's lean sampler (playground/fastpath/decode.py: fused pre-packed projections,
preallocated KV cache), each including the LM head; then the lean sampler's weight matmuls alone (the rest of its
step is the small per-layer ops) and the lean sampler on a bf16 copy where the CPU has native bf16.

    python bench/roofline.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import best  # noqa: E402


def main() -> None:
    import torch

    from playground.models import load_model

    a, b = torch.randn(2048, 2048), torch.randn(2048, 2048)
    gflops = 2 * 2048**3 / best(lambda: a @ b) / 1e9
    big = torch.randn(64 * 1024 * 1024 // 4 * 8)  # 512 MB
    gbps = big.numel() * 4 / best(lambda: big.sum(), 3) / 1e9

    model, tokenizer = load_model("embedded")
    params = sum(p.numel() for p in model.parameters())
    lm_head = model.lm_head.weight.numel()
    batch = 8
    flops = 2 * batch * params  # one token per sequence through every weight (embedding lookup aside, lm_head in)
    bytes_read = 4 * params  # every fp32 weight read once per step (the tied lm_head counts once)
    est_ms = 1000 * max(flops / (gflops * 1e9), bytes_read / (gbps * 1e9))

    ids = tokenizer(["Tell me a story."] * batch, return_tensors="pt")

    def decode_ms(m) -> float:
        with torch.inference_mode():
            out = m(**ids, use_cache=True)
            past, nxt = out.past_key_values, out.logits[:, -1:].argmax(-1)

            def step():
                m(input_ids=nxt, past_key_values=past, use_cache=True)

            return 1000 * best(step, 10)

    plain_ms = decode_ms(model)
    from playground.fastpath.packing import pack_linears

    packed = pack_linears(load_model("embedded")[0])
    packed_ms = decode_ms(packed)
    del packed

    from playground.fastpath.decode import LlamaDecoder
    from playground.fastpath.packing import bf16_matmul_is_native

    def lean(decoder) -> tuple[float, float]:
        """ms of one decode step (LM head included) at a fixed position, and of its weight matmuls alone."""
        with torch.inference_mode():
            hidden, cache = decoder.prefill(ids["input_ids"][0], batch, ids["input_ids"].size(1) + 64)
            nxt = decoder.logits(hidden).argmax(-1)[:, None]
            filled = cache.length

            def step():
                cache.length = filled  # every timed step writes the same position: the same attention length
                decoder.logits(decoder.step(nxt, cache))

            inputs = {
                p.in_features: torch.randn(batch, 1, p.in_features, dtype=decoder.dtype)
                for p in decoder.packs.values()
            }
            matmuls = [(p, inputs[p.in_features]) for p in decoder.packs.values()]
            return 1000 * best(step, 10), 1000 * best(lambda: [p(x) for p, x in matmuls], 10)

    lean_ms, matmul_ms = lean(LlamaDecoder(model))
    gemm_gbps = bytes_read / (matmul_ms / 1000) / 1e9
    bf16_ms = bf16_matmul_ms = None
    if bf16_matmul_is_native():
        bf16_ms, bf16_matmul_ms = lean(LlamaDecoder(load_model("embedded")[0].to(torch.bfloat16)))
    rows = {
        "matmul_gflops": round(gflops, 1),
        "read_gb_per_s": round(gbps, 1),
        "params_m": round(params / 1e6, 1),
        "lm_head_share": round(lm_head / params, 2),
        "estimate_ms": round(est_ms, 1),
        "plain_ms": round(plain_ms, 1),
        "packed_ms": round(packed_ms, 1),
        "lean_sampler_ms": round(lean_ms, 1),
        "lean_over_estimate": round(lean_ms / est_ms, 2),
        "lean_matmuls_ms": round(matmul_ms, 1),
        "matmul_read_gb_per_s": round(gemm_gbps, 1),
        "bf16_lean_sampler_ms": None if bf16_ms is None else round(bf16_ms, 1),
        "bf16_lean_matmuls_ms": None if bf16_matmul_ms is None else round(bf16_matmul_ms, 1),
    }
    print(f"\nDecode step, batch {batch}, SmolLM2-135M fp32, {torch.get_num_threads()} threads")
    print(f"machine: {gflops:.0f} GFLOP/s (2048^3 fp32 matmul), {gbps:.1f} GB/s read")
    print(f"estimate from FLOPs and bytes: {est_ms:.1f} ms per token")
    print(f"measured, plain nn.Linear:      {plain_ms:.1f} ms per token")
    print(f"measured, pre-packed (oneDNN):  {packed_ms:.1f} ms per token")
    print(f"measured, lean sampler:         {lean_ms:.1f} ms per token ({lean_ms / est_ms:.2f}x the estimate)")
    print(f"  of which its weight matmuls:  {matmul_ms:.1f} ms ({gemm_gbps:.1f} GB/s of weights read)")
    if bf16_ms is not None:
        print(f"measured, lean sampler in bf16: {bf16_ms:.1f} ms per token (matmuls {bf16_matmul_ms:.1f} ms)")
    print(json.dumps({"bench": "roofline", **rows}))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
