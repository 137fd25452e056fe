"""What the playground's training job adds on top of TRL: the job against a bare `GRPOTrainer`, same config.

Unlike `bench/step.py`, both sides here run TRL's own generate and the same `GRPOConfig` (the job's fast rollout is
off, and the bare script turns gradient checkpointing off too), so the difference is the job itself: the
background thread, the callback, the run folder's files and the adapter save. Target: under 3%.

    python bench/train_overhead.py --steps 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path


HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--only", choices=["bare", "playground"])
    args = parser.parse_args()
    if args.only:
        import step

        spec = step.bench_spec(args.steps, four_bit=False)
        spec.set("fast_rollout", "off")
        step.BARE_OVERRIDES["gradient_checkpointing"] = False
        print(json.dumps(step.run_one(args.only, args.steps, False, spec=spec)))
        return
    results = []
    for name in ("bare", "playground"):
        out = subprocess.run(
            [sys.executable, __file__, "--only", name, "--steps", str(args.steps)], capture_output=True, text=True
        )
        if out.returncode:
            raise SystemExit(f"{name} failed:\n{out.stderr[-3000:]}")
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    bare, job = results
    overhead = job["s_per_step"] / bare["s_per_step"] - 1
    print(f"\nTraining job overhead, SmolLM2-135M, G=8, 64 new tokens, LoRA r=16, fp32, steps 2..{args.steps}")
    for r in results:
        print(f"{r['name']:12} {r['s_per_step']:7.2f} s/step  rewards {r['rewards']}")
    print(f"overhead: {100 * overhead:+.1f}%")
    print(json.dumps({"bench": "train_overhead", "steps": args.steps, "results": results, "overhead": overhead}))


if __name__ == "__main__":
    main()
