"""Held-out eval sampling: the prompts one group at a time against all of them in one batch (`generate_groups`).

    python bench/eval_batch.py                 # the format lesson's eval: 8 prompts x 4 samples x 128 new tokens
    python bench/eval_batch.py --prompts 16 --max_new_tokens 64

Both ways give each prompt the same seed; the script checks that they give the same tokens, then prints one JSON
line with both times. Embedded SmolLM2-135M, fp32, on the lean decoder. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.common import cpu_name  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prompts", type=int, default=8)
    parser.add_argument("--num_generations", type=int, default=4)
    parser.add_argument("--max_new_tokens", type=int, default=128)
    parser.add_argument("--temperature", type=float, default=0.9)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    import torch

    from playground.data.sources import PromptSource, load_prompts
    from playground.models import ensure_embedded_model, load_model
    from playground.preview import GenerationSettings, generate_group, generate_groups

    model, tokenizer = load_model(str(ensure_embedded_model()), inference=True)
    rows = load_prompts(PromptSource(kind="builtin", name="writing")).dataset
    prompts = [rows[i]["prompt"] for i in range(len(rows) - args.prompts, len(rows))]  # the held-out tail
    seeds = [args.seed + i for i in range(len(prompts))]

    def settings(seed: int = 0) -> GenerationSettings:
        return GenerationSettings(args.num_generations, args.max_new_tokens, args.temperature, 1.0, seed)

    start = time.perf_counter()
    alone = [generate_group(model, tokenizer, p, settings(s), "<intro>") for p, s in zip(prompts, seeds, strict=True)]
    one_by_one = time.perf_counter() - start
    start = time.perf_counter()
    batched = generate_groups(model, tokenizer, prompts, settings(), seeds, "<intro>")
    together = time.perf_counter() - start
    same = sum(a.completion_ids == b.completion_ids for a, b in zip(alone, batched, strict=True))
    tokens = sum(len(ids) for group in batched for ids in group.completion_ids)
    print(
        json.dumps(
            {
                "bench": "eval_batch",
                "prompts": len(prompts),
                "num_generations": args.num_generations,
                "max_new_tokens": args.max_new_tokens,
                "one_group_at_a_time_s": round(one_by_one, 1),
                "one_batch_s": round(together, 1),
                "speedup": round(one_by_one / together, 2),
                "groups_identical": f"{same}/{len(prompts)}",
                "new_tokens": tokens,
                "threads": torch.get_num_threads(),
                "cpu": cpu_name(),
                "load_avg_1min": round(os.getloadavg()[0], 2),
            }
        )
    )


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
