"""Dry run (16 prompts x G=8 x 64 new tokens on the embedded model) and re-scoring time.

Times, in this process after loading the model once:
- the dry run: batched sampling of every prompt's group plus one reward call over all completions;
- with --compare, the same prompts sampled one group at a time through the preview's sampler;
- re-scoring the cached table (new weights, another scale_rewards / aggregation, a function off), best of 50.
Prints a table and one JSON line.

    python bench/dryrun.py [--num_prompts 16] [--num_generations 8] [--max_new_tokens 64] [--compare]
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


def main() -> None:
    import torch

    from playground.data.sources import PromptSource
    from playground.lab.dryrun import dry_run, load_rows
    from playground.models import load_model
    from playground.preview import GenerationSettings, generate_group
    from playground.scoring import LOCAL, RewardChoice, build_rewards

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--num_prompts", type=int, default=16)
    parser.add_argument("--num_generations", type=int, default=8)
    parser.add_argument("--max_new_tokens", type=int, default=64)
    parser.add_argument("--compare", action="store_true", help="also sample the prompts one group at a time")
    args = parser.parse_args()
    n, g, t = args.num_prompts, args.num_generations, args.max_new_tokens

    start = time.perf_counter()
    model, tokenizer = load_model("embedded", inference=True)
    load_s = time.perf_counter() - start
    rows = load_rows(PromptSource(kind="builtin", name="writing"), n)
    funcs, weights = build_rewards([RewardChoice("format"), RewardChoice("length")], executor=LOCAL)

    start = time.perf_counter()
    run = dry_run(model, tokenizer, rows, funcs, weights, num_generations=g, max_new_tokens=t, seed=0)
    dry_s = time.perf_counter() - start
    tokens = sum(1 for group in run.completions for _ in group)
    result = {"bench": "dryrun", "prompts": n, "num_generations": g, "max_new_tokens": t, "completions": tokens}
    result.update(
        load_seconds=round(load_s, 2), dryrun_seconds=round(dry_s, 2), sampling_seconds=round(run.seconds, 2)
    )

    if args.compare:
        settings = GenerationSettings(num_generations=g, max_new_tokens=t, seed=0)
        start = time.perf_counter()
        for row in rows:
            generate_group(model, tokenizer, row["prompt"], settings)
        result["one_group_at_a_time_seconds"] = round(time.perf_counter() - start, 2)

    variants = [
        dict(weights=[0.3, 0.7]),
        dict(enabled=[False, True]),
        dict(scale_rewards="batch"),
        dict(multi_objective_aggregation="normalize_then_sum"),
    ]
    times = []
    for _ in range(50):
        for kwargs in variants:
            begin = time.perf_counter()
            run.summarize(**kwargs)
            times.append(time.perf_counter() - begin)
    result["rescore_ms_best"] = round(1000 * min(times), 2)
    result["rescore_ms_median"] = round(1000 * sorted(times)[len(times) // 2], 2)
    summary = run.summarize()

    print(f"\n{n} prompts x G={g} x {t} new tokens, SmolLM2-135M, {torch.get_num_threads()} threads")
    print(f"model load            {load_s:8.2f} s")
    print(f"dry run (batched)     {dry_s:8.2f} s")
    if args.compare:
        print(f"one group at a time   {result['one_group_at_a_time_seconds']:8.2f} s")
    print(
        f"re-score (cached)     {result['rescore_ms_median']:8.2f} ms median, {result['rescore_ms_best']:.2f} ms best"
    )
    print(summary.verdict)
    print(json.dumps(result))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
