"""1 process vs N processes for the same global batch: s/step of the thread backend and of `accelerate launch`.

    python bench/scaleout.py                               # embedded model, G=8, 8 completions per step, 4 steps
    python bench/scaleout.py --model /path/to/model --steps 6 --completions 8 --num_generations 4

Rows (one JSON line each, then a summary):

- `thread`: `num_processes=1`, the app's own thread, `per_device_train_batch_size = completions`;
- `accelerate-1`: the same spec under `accelerate launch --num_processes 1` (the launcher's own overhead);
- `accelerate-N`: `num_processes=N`, `per_device_train_batch_size = completions / N`: the same global batch.

s/step is the mean of TRL's `step_time` over the steps after the first (the first one also builds the fast path's
rollout copy); `wall_s` is start to final status, including the processes' start-up and the model load. The runs go
one after the other; on a shared machine say how loaded it was (the summary prints the load average and the CPU).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import cpu_name  # noqa: E402


def spec_for(args, processes: int):
    from playground.scoring import RewardChoice
    from playground.spec import RunSpec

    spec = RunSpec()
    spec.model.model_name_or_path = args.model
    settings = dict(
        max_steps=args.steps,
        num_generations=args.num_generations,
        per_device_train_batch_size=args.completions // processes,
        max_completion_length=args.max_completion_length,
        save_steps=10_000,
        num_processes=processes,
        device="cpu",
    )
    for name, value in settings.items():
        spec.set(name, value)
    spec.rewards = [RewardChoice("length", 1.0, {"ideal_length": 50})]
    return spec


def run_one(name: str, spec, store, launched: bool) -> dict:
    from playground.training.job import TrainingJob
    from playground.training.launcher import LaunchedJob, batch_summary

    run = store.create(spec.to_dict())
    job = (LaunchedJob if launched else TrainingJob)(spec, run)
    start = time.perf_counter()
    job.start()
    job.join()
    wall = time.perf_counter() - start
    times = [m["step_time"] for m in run.metrics() if "step_time" in m]
    return {
        "row": name,
        "status": job.status,
        "error": job.error,
        "processes": spec.model.num_processes,
        "batch": batch_summary(spec),
        "s_per_step": round(statistics.mean(times[1:]), 2) if len(times) > 1 else None,
        "step_times": [round(t, 2) for t in times],
        "wall_s": round(wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="embedded")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--completions", type=int, default=8, help="completions per step (the global batch)")
    parser.add_argument("--num_generations", type=int, default=8)
    parser.add_argument("--max_completion_length", type=int, default=32)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--rows", nargs="*", default=["thread", "accelerate-1", "accelerate-N"])
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from playground.training.store import RunStore

    store = RunStore(tempfile.mkdtemp(prefix="bench-scaleout-"))
    results = []
    for row in args.rows:
        processes = args.processes if row == "accelerate-N" else 1
        name = f"accelerate-{processes}" if row.startswith("accelerate") else row
        result = run_one(name, spec_for(args, processes), store, launched=row != "thread")
        print(json.dumps(result), flush=True)
        results.append(result)
    summary = {
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "model": args.model,
        "s_per_step": {r["row"]: r["s_per_step"] for r in results},
    }
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
