"""Does the bf16 rollout (with TRL's importance-sampling correction) learn like the exact fp32 rollout?

Runs a recipe with `fast_rollout=float32` and `fast_rollout=bfloat16` for several seeds, each in its own process,
and prints one JSON line per run (training reward per step, held-out eval curve, s/step, TRL's importance-sampling
metrics), then one summary line comparing the two.

    python bench/bf16_learning.py                              # demo recipe, 40 steps, seeds 42 43 44
    python bench/bf16_learning.py --recipe lesson:format       # a lesson's recipe (warm-up included)
    python bench/bf16_learning.py --steps 2 --seeds 42         # a quick smoke run
    python bench/bf16_learning.py --bf16_train --parallel 2    # bf16 training too; fp32 and bf16 side by side

The comparison, per seed then averaged: the training reward's gain (mean of the last 10 steps minus mean of the
first 3) and the last eval reward. bf16 "matches" when, for both, the mean difference bf16 - fp32 is within the
tolerance: max(`--tolerance` × |fp32's mean gain|, 2 standard errors of the difference over seeds). CPU-heavy (about
6 × 40 steps of the embedded model): run it on an otherwise idle machine; the figures say what load they met.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

ROLLOUTS = ("float32", "bfloat16")


def recipe_spec(
    recipe: str, steps: int, seed: int, rollout: str, eval_every: int, overrides: dict[str, str], bf16_train=False
):
    from playground.spec import demo_spec

    extra = {"max_steps": steps, "seed": seed, "fast_rollout": rollout, "save_steps": 10_000, **overrides}
    if bf16_train and rollout == "bfloat16":
        extra["bf16"] = True  # the training forward and backward in bf16 autocast too
    if recipe.startswith("lesson:"):
        from playground.lessons import get_lesson

        spec = get_lesson(recipe.split(":", 1)[1]).run_spec(**extra)
    else:
        spec = demo_spec()
        for name, value in extra.items():
            spec.set(name, value)
    if not spec.grpo.eval_every:
        spec.set("eval_every", eval_every)
    return spec


def run_one(
    recipe: str, steps: int, seed: int, rollout: str, eval_every: int, overrides: dict[str, str], bf16_train=False
) -> dict:
    from bench.lessons import cpu_name
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore

    spec = recipe_spec(recipe, steps, seed, rollout, eval_every, overrides, bf16_train)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as out:
        job = JobManager(RunStore(out)).start(spec)
        job.join()
        rows = job.run.metrics()
    wall = time.perf_counter() - start
    train = [r for r in rows if "reward" in r and r.get("phase", "grpo") == "grpo" and "step_time" in r]
    evals = [{"step": r["step"], "eval_reward": round(r["eval_reward"], 4)} for r in rows if "eval_reward" in r]
    timed = train[1:] or train  # the first step builds the rollout copy
    result = {
        "bench": "bf16_learning",
        "recipe": recipe,
        "rollout": rollout,
        "bf16_train": spec.grpo.bf16,
        "seed": seed,
        "status": job.status,
        "error": job.error,
        "steps": len(train),
        "reward": [round(r["reward"], 4) for r in train],
        "eval": evals,
        "s_per_step": round(statistics.mean(r["step_time"] for r in timed), 2) if timed else None,
        "wall_s": round(wall, 1),
        "load_avg_1min": round(os.getloadavg()[0], 2),
        "cpu": cpu_name(),
    }
    ratios = [
        r["sampling/importance_sampling_ratio/mean"] for r in train if "sampling/importance_sampling_ratio/mean" in r
    ]
    if ratios:
        result["is_ratio_mean"] = round(statistics.mean(ratios), 4)
        result["is_ratio_range"] = [round(min(ratios), 4), round(max(ratios), 4)]
    return result


def gain(run: dict) -> float:
    """Mean training reward of the last 10 steps minus that of the first 3."""
    reward = run["reward"]
    return statistics.mean(reward[-10:]) - statistics.mean(reward[:3])


def compare(runs: list[dict], tolerance: float) -> dict:
    """bf16 against fp32 on the training gain and the last eval reward, averaged over the seeds both finished."""
    by = {(r["rollout"], r["seed"]): r for r in runs if r["status"] == "finished" and r["reward"]}
    seeds = sorted({s for (_, s) in by if ("float32", s) in by and ("bfloat16", s) in by})
    out: dict = {"bench": "bf16_learning_summary", "seeds": seeds, "tolerance": tolerance}
    if not seeds:
        return out | {"matches": None}
    metrics = {"gain": gain}
    if all(by[r, s]["eval"] for r in ROLLOUTS for s in seeds):
        metrics["last_eval_reward"] = lambda run: run["eval"][-1]["eval_reward"]
    matches = True
    for name, measure in metrics.items():
        fp32 = [measure(by["float32", s]) for s in seeds]
        bf16 = [measure(by["bfloat16", s]) for s in seeds]
        diffs = [b - f for b, f in zip(bf16, fp32, strict=True)]
        se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else 0.0
        scale = (
            abs(statistics.mean(fp32))
            if name == "gain"
            else abs(statistics.mean(gain(by["float32", s]) for s in seeds))
        )
        allowed = max(tolerance * scale, 2 * se)
        ok = abs(statistics.mean(diffs)) <= allowed
        matches = matches and ok
        out[name] = {
            "float32": [round(v, 4) for v in fp32],
            "bfloat16": [round(v, 4) for v in bf16],
            "mean_difference": round(statistics.mean(diffs), 4),
            "allowed": round(allowed, 4),
            "within": ok,
        }
    speed = {r: [by[r, s]["s_per_step"] for s in seeds] for r in ROLLOUTS}
    out["s_per_step"] = {r: round(statistics.mean(v), 2) for r, v in speed.items()}
    return out | {"matches": matches}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--recipe", default="demo", help="'demo' or 'lesson:<id>'")
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--seeds", type=int, nargs="+", default=[42, 43, 44])
    p.add_argument("--eval_every", type=int, default=10, help="eval points, where the recipe sets none")
    p.add_argument("--tolerance", type=float, default=0.2, help="allowed difference, as a fraction of fp32's gain")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a recipe field")
    p.add_argument("--bf16_train", action="store_true", help="the bf16 runs also train in bf16 autocast (`bf16`)")
    p.add_argument("--parallel", type=int, default=1, help="runs at a time (each then at OMP_NUM_THREADS=1)")
    p.add_argument("--only", nargs=2, metavar=("ROLLOUT", "SEED"), help=argparse.SUPPRESS)
    args = p.parse_args()
    overrides = dict(item.split("=", 1) for item in args.set)
    if args.only:
        rollout, seed = args.only
        run = run_one(args.recipe, args.steps, int(seed), rollout, args.eval_every, overrides, args.bf16_train)
        print(json.dumps(run))
        return
    jobs = [(seed, rollout) for seed in args.seeds for rollout in ROLLOUTS]
    env = dict(os.environ, OMP_NUM_THREADS="1") if args.parallel > 1 else None
    runs = []
    while jobs:  # each run in a fresh process: its own memory, no state carried between runs
        batch, jobs = jobs[: args.parallel], jobs[args.parallel :]
        started = []
        for seed, rollout in batch:
            cmd = [sys.executable, __file__, "--recipe", args.recipe, "--steps", str(args.steps)]
            cmd += ["--eval_every", str(args.eval_every), "--only", rollout, str(seed)]
            cmd += [f"--set={item}" for item in args.set] + ["--bf16_train"] * args.bf16_train
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)
            started.append((seed, rollout, proc))
        for seed, rollout, proc in started:
            stdout, stderr = proc.communicate()
            if proc.returncode:
                run = {"bench": "bf16_learning", "rollout": rollout, "seed": seed, "status": "crashed"}
                run["error"] = stderr[-2000:]
            else:
                run = json.loads(stdout.strip().splitlines()[-1])
            runs.append(run)
            print(json.dumps(run), flush=True)
    print(json.dumps(compare(runs, args.tolerance)), flush=True)


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
