"""Group preview (G=8 x 64 new tokens) against a plain `model.generate` call, on the embedded model.

Both sample the same prompt with the same seed, one after the other in this process; each is timed over --repeat
runs and the best is reported. Prints a table and one JSON line.

    python bench/preview.py
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

PROMPT = "Write a short story about a lighthouse keeper."


def main() -> None:
    import torch

    from playground.data.chat import render_prompt
    from playground.models import load_model
    from playground.preview import GenerationSettings, preview_group
    from playground.scoring import LOCAL, RewardChoice, build_rewards

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--num_generations", type=int, default=8)
    parser.add_argument("--max_new_tokens", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    g, n = args.num_generations, args.max_new_tokens

    plain, tokenizer = load_model("embedded")
    packed, _ = load_model("embedded", inference=True)
    funcs, weights = build_rewards([RewardChoice("length")], executor=LOCAL)
    settings = GenerationSettings(num_generations=g, max_new_tokens=n, seed=0)
    inputs = tokenizer([render_prompt(tokenizer, PROMPT)] * g, return_tensors="pt", add_special_tokens=False)

    def plain_generate():
        torch.manual_seed(0)
        with torch.inference_mode():
            out = plain.generate(
                **inputs, do_sample=True, max_new_tokens=n, top_k=0, pad_token_id=tokenizer.pad_token_id
            )
        return out.shape[1] - inputs["input_ids"].shape[1]

    def preview():
        result = preview_group(packed, tokenizer, PROMPT, funcs, weights, settings)
        return max(len(ids) for ids in result.group.completion_ids)

    rows = []
    for name, fn in (("plain generate", plain_generate), ("playground preview", preview)):
        fn()  # warm-up
        times, tokens = [], 0
        for _ in range(args.repeat):
            start = time.perf_counter()
            tokens = fn()
            times.append(time.perf_counter() - start)
        best = min(times)
        rows.append(
            {
                "name": name,
                "seconds": round(best, 2),
                "new_tokens": tokens,
                "ms_per_token": round(1000 * best / max(tokens, 1), 1),
            }
        )
    print(f"\nG={g} x {n} new tokens, SmolLM2-135M, {torch.get_num_threads()} threads, best of {args.repeat}")
    print(f"{'':20} {'seconds':>8} {'ms/token':>9}")
    for r in rows:
        print(f"{r['name']:20} {r['seconds']:8.2f} {r['ms_per_token']:9.1f}")
    speedup = round(rows[0]["seconds"] / rows[1]["seconds"], 2)
    print(f"speed-up: {speedup}x")
    print(
        json.dumps(
            {"bench": "preview", "num_generations": g, "max_new_tokens": n, "results": rows, "speedup": speedup}
        )
    )


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
