"""How far above noise do the learning tests' runs end, seed by seed, under this machine's rounding?

Runs the vowel-reward learning run of `tests/playground/training/test_job.py` (a 45-character random Llama, 16
steps, 8 completions a step) for several seeds, one after another, and prints one JSON line per run: the training
reward per step and the gain (mean of the last 4 steps minus mean of the first 4). Another CPU's rounding changes
which completions a run samples, so a seed's curve is one draw: the spread of the gains over seeds is what the test's
thresholds are set against. Thread counts (`OMP_NUM_THREADS`) and kernel sets (`ATEN_CPU_CAPABILITY=avx2` or
`default`, `MKL_ENABLE_INSTRUCTIONS=AVX2`) can change the rounding too (on an AMD EPYC they gave the same values).

    OMP_NUM_THREADS=1 python bench/learning_margins.py --seeds 0 1 2 3
    OMP_NUM_THREADS=2 ATEN_CPU_CAPABILITY=avx2 python bench/learning_margins.py --seeds 0 1 2 3
    python bench/learning_margins.py --steps 12 --set fast_rollout=bfloat16      # tests/playground/fastpath's runs
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


def run(seed: int, steps: int, fields: dict) -> list[float]:
    from playground.scoring import RewardChoice
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore
    from tests.support.tiny_models import save_char_model, tiny_spec, vowel_fraction

    folder = Path(tempfile.mkdtemp(prefix="learning-margins-"))
    model_dir = save_char_model(folder / "model")
    spec = tiny_spec(
        model_dir,
        [RewardChoice("vowels")],
        max_steps=steps,
        num_generations=8,
        per_device_train_batch_size=8,
        max_completion_length=16,
        learning_rate=1e-2,
        beta=0.0,
        seed=seed,
        **fields,
    )
    job = JobManager(RunStore(folder / "runs")).start(spec, custom_rewards={"vowels": vowel_fraction})
    job.join(1200)
    if job.status != "finished":
        raise SystemExit(f"seed {seed}: {job.status}: {job.error}")
    return [m["reward"] for m in job.run.metrics() if "reward" in m]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--steps", type=int, default=16)
    parser.add_argument(
        "--set", nargs="*", default=[], metavar="FIELD=VALUE", help="spec fields, e.g. fast_rollout=bfloat16 bf16=true"
    )
    args = parser.parse_args()
    fields = {k: v for k, v in (item.split("=", 1) for item in args.set)}
    from bench.common import cpu_name

    for seed in args.seeds:
        rewards = run(seed, args.steps, fields)
        first, last = sum(rewards[:4]) / 4, sum(rewards[-4:]) / 4
        row = {
            "seed": seed,
            "cpu": cpu_name(),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
            "aten_cpu_capability": os.environ.get("ATEN_CPU_CAPABILITY"),
            "fields": fields,
            "first4": round(first, 4),
            "last4": round(last, 4),
            "gain": round(last - first, 4),
            "rewards": [round(r, 4) for r in rewards],
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
