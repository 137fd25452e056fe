"""TRL's fused LM head on this CPU: its own torch tiles against the playground's (`playground/fastpath/lm_head.py`).

The embedded SmolLM2-135M's hidden states for a GRPO group (G=8 rows, 64 completion tokens, a real prompt and
answers), scored through TRL's `ChunkedLogProbFunction` (log-probs and entropy, then the backward of the log-probs),
in 2048-column tiles, with TRL's tiles and with the playground's. First, the cause: `torch.exp` on a tile of ordinary
values and on one whose results are subnormal (a probability under 1e-38).

    python bench/head_tiles.py            # both, best of 5 each
    python bench/head_tiles.py --json     # the JSON line only
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import best, cpu_name  # noqa: E402


def exp_figures() -> dict:
    import torch

    tile = torch.randn(512, 2048)
    return {
        "exp_ordinary_ms": round(best(lambda: torch.exp(tile)) * 1e3, 2),
        "exp_subnormal_ms": round(best(lambda: torch.exp(tile - 95)) * 1e3, 2),
    }


def group_hidden_states():
    """(hidden, weight, targets, subnormal share) of one group of eight sampled answers to a writing prompt."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from playground.fastpath.lm_head import EXP_FLOOR
    from playground.models import ensure_embedded_model

    path = ensure_embedded_model()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    chat = [{"role": "user", "content": "Write a short paragraph about why people keep pets."}]
    prompt = tokenizer.apply_chat_template(chat, add_generation_prompt=True, return_tensors="pt", return_dict=True)
    torch.manual_seed(0)
    with torch.no_grad():
        ids = model.generate(
            **prompt, do_sample=True, temperature=0.9, max_new_tokens=64, min_new_tokens=64, num_return_sequences=8
        )
        hidden = model.model(input_ids=ids).last_hidden_state
    start = prompt["input_ids"].size(1)
    hidden = hidden[:, start - 1 : -1].reshape(-1, hidden.size(-1))
    targets = ids[:, start:].reshape(-1)
    weight = model.lm_head.weight.detach()
    with torch.no_grad():
        log_p = torch.log_softmax(hidden @ weight.t() / 0.9, dim=-1)
    return hidden, weight, targets, float((log_p < EXP_FLOOR).float().mean())


def head_figures(hidden, weight, targets) -> dict:
    import torch
    from trl.kernels import ChunkedLogProbFunction

    from playground.fastpath.lm_head import CPU_LM_HEAD_CHUNK, cpu_lm_head

    def step():
        h = hidden.detach().requires_grad_()
        logps, entropy, *_ = ChunkedLogProbFunction.apply(
            h, weight, None, targets, 0.9, CPU_LM_HEAD_CHUNK, None, 1.0, ("log_probs", "entropy")
        )
        logps.sum().backward()

    def forward():
        with torch.no_grad():
            ChunkedLogProbFunction.apply(
                hidden, weight, None, targets, 0.9, CPU_LM_HEAD_CHUNK, None, 1.0, ("log_probs", "entropy")
            )

    out = {}
    for name, lean in (("trl", False), ("playground", True)):
        with cpu_lm_head(lean_tiles=lean):
            out[f"{name}_forward_s"] = round(best(forward), 3)
            out[f"{name}_forward_backward_s"] = round(best(step), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print the JSON line only")
    args = parser.parse_args()
    import torch

    from playground.fastpath.allocator import training_allocator

    with training_allocator():
        result = {"cpu": cpu_name(), "threads": torch.get_num_threads(), **exp_figures()}
        hidden, weight, targets, subnormal = group_hidden_states()
        result.update(tokens=int(targets.numel()), subnormal_share=round(subnormal, 3))
        result.update(head_figures(hidden, weight, targets))
    if not args.json:
        print(f"{result['cpu']}, {result['threads']} threads")
        ordinary, subnormal = result["exp_ordinary_ms"], result["exp_subnormal_ms"]
        print(f"torch.exp on 512x2048: {ordinary} ms, with subnormal results {subnormal} ms")
        print(f"{result['tokens']} completion tokens; probabilities under 1e-38: {result['subnormal_share']:.1%}")
        print("| tiles | forward s | forward + backward s |\n| --- | --- | --- |")
        for name in ("trl", "playground"):
            print(f"| {name} | {result[f'{name}_forward_s']} | {result[f'{name}_forward_backward_s']} |")
    print(json.dumps(result))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
