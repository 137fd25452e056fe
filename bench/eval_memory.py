"""Peak memory of a run with held-out evals: the evals on the trainer's rollout copy against their own copy.

During training the evals sample from the trainer's fp32 rollout copy, synced to the policy at that step
(`FastGRPOTrainer.sampling_model`); the other variant makes them build their own full copy, as they did before.
Each variant runs the demo spec in a fresh process; prints one JSON line each (peak RSS, wall time, the eval rewards
and the training rewards, which must be equal) and a summary line.

    python bench/eval_memory.py --steps 10 --eval_every 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def run_one(steps: int, eval_every: int, own_copy: bool) -> dict:
    from playground.fastpath.trainer import FastGRPOTrainer
    from playground.spec import demo_spec
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore

    if own_copy:
        FastGRPOTrainer.sampling_model = lambda self: None
    spec = demo_spec()
    for name, value in dict(max_steps=steps, eval_every=eval_every, save_steps=10_000).items():
        spec.set(name, value)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        job = JobManager(RunStore(out)).start(spec)
        job.join()
        rows = job.run.metrics()
    return {
        "bench": "eval_memory",
        "evals_on": "own copy" if own_copy else "rollout copy",
        "status": job.status,
        "wall_s": round(time.perf_counter() - start, 1),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "eval_reward": [[r["step"], round(r["eval_reward"], 4)] for r in rows if r.get("phase") == "eval"],
        "reward": [round(r["reward"], 4) for r in rows if "reward" in r and r.get("phase", "grpo") == "grpo"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--eval_every", type=int, default=5)
    parser.add_argument("--only", choices=["shared", "own"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        print(json.dumps(run_one(args.steps, args.eval_every, own_copy=args.only == "own")))
        return
    results = {}
    for variant in ("own", "shared"):  # each in a fresh process: peak RSS is its own
        cmd = [sys.executable, __file__, "--only", variant, "--steps", str(args.steps)]
        cmd += ["--eval_every", str(args.eval_every)]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if done.returncode:
            raise SystemExit(f"{variant} failed:\n{done.stderr[-3000:]}")
        results[variant] = json.loads(done.stdout.strip().splitlines()[-1])
        print(json.dumps(results[variant]), flush=True)
    own, shared = results["own"], results["shared"]
    summary = {
        "bench": "eval_memory_summary",
        "peak_rss_mb": {"own copy": own["peak_rss_mb"], "rollout copy": shared["peak_rss_mb"]},
        "saved_mb": own["peak_rss_mb"] - shared["peak_rss_mb"],
        "same_evals": own["eval_reward"] == shared["eval_reward"],
        "same_rewards": own["reward"] == shared["reward"],
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
