"""Sandbox overhead: one reward call through the worker against the same function in the app's process.

The reward is a cheap text reward (the share of vowels), so the figures are the sandbox's own cost: JSON over two
pipes, one round trip, the checks on both sides. Completions are 300 characters, with prompts and a dataset column,
as TRL passes them. Also measures the worker's start (process, confinement, loading the code). Prints a table and one
JSON line.

    python bench/sandbox_overhead.py            # groups of 8, 16, 32, 64; 200 calls each
    python bench/sandbox_overhead.py --calls 50
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

SOURCE = """\
def vowels(completions, **kwargs):
    texts = [c if isinstance(c, str) else c[-1]["content"] for c in completions]
    return [sum(ch in "aeiou" for ch in t) / max(len(t), 1) for t in texts]
"""
LENGTH = 300  # characters per completion: about 64 tokens, the playground's default max_completion_length


def completions(n: int, rng: random.Random) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz     "
    return ["".join(rng.choice(letters) for _ in range(LENGTH)) for _ in range(n)]


def timed(func, batch: list[str], kwargs: dict, calls: int) -> float:
    """Median milliseconds per call, after 5 warm-up calls."""
    for _ in range(5):
        func(batch, **kwargs)
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        func(batch, **kwargs)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200, help="timed calls per group size")
    parser.add_argument("--sizes", default="8,16,32,64", help="group sizes")
    args = parser.parse_args()

    from playground.sandbox import Sandbox, SandboxedReward, inspect_code
    from playground.scoring import call_reward

    namespace: dict = {}
    exec(SOURCE, namespace)  # the in-process baseline: the bench's own, trusted copy of the code
    local = namespace["vowels"]
    starts = []
    for _ in range(5):
        begin = time.perf_counter()
        sandbox = Sandbox(SOURCE, inspect_code(SOURCE).functions)
        sandbox.start()
        starts.append((time.perf_counter() - begin) * 1000)
        sandbox.close()
    sandbox = Sandbox(SOURCE, ["vowels"])
    remote = SandboxedReward(sandbox, "vowels")
    rng = random.Random(0)
    rows = []
    for n in [int(s) for s in args.sizes.split(",")]:
        batch = completions(n, rng)
        kwargs = {"prompts": ["Write a short poem about the sea."] * n, "answer": ["42"] * n}
        in_process = timed(lambda c, **kw: call_reward(local, c, **kw), batch, kwargs, args.calls)
        sandboxed = timed(lambda c, **kw: call_reward(remote, c, **kw), batch, kwargs, args.calls)
        rows.append(
            {
                "group": n,
                "in_process_ms": round(in_process, 3),
                "sandbox_ms": round(sandboxed, 3),
                "overhead_ms": round(sandboxed - in_process, 3),
            }
        )
    sandbox.close()
    print(f"{'group':>5}  {'in-process ms':>13}  {'sandbox ms':>10}  {'overhead ms':>11}")
    for r in rows:
        print(f"{r['group']:>5}  {r['in_process_ms']:>13.3f}  {r['sandbox_ms']:>10.3f}  {r['overhead_ms']:>11.3f}")
    start_ms = statistics.median(starts)
    print(f"worker start (process, confinement, load): median {start_ms:.0f} ms of {len(starts)}")
    print(json.dumps({"calls": args.calls, "worker_start_ms": round(start_ms, 1), "rows": rows}))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
