"""Checkpoints of the embedded model: their size and save time, and the time to continue a run from one.

The demo recipe (embedded SmolLM2-135M, LoRA r=16 on all linear layers, fp32) with `save_steps=1`: the first run takes
`--steps` steps and is stopped; the same run is then continued for one more step. Prints the newest checkpoint's size
by file, the save times the trainer logged, the time from Continue to the first continued step (loading the model,
the checkpoint and the step), and, to set it against, the new run's time from Start to its first step. One JSON line.

    python bench/continue.py --steps 2
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import tempfile
import time
from pathlib import Path


sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("HF_HUB_OFFLINE", "1")


class SaveTimes(logging.Handler):
    """The save times `RunTrainer` logs ("Saved checkpoint ... in S s")."""

    def __init__(self):
        super().__init__()
        self.seconds: list[float] = []

    def emit(self, record):
        match = re.search(r"Saved checkpoint .* in ([\d.]+) s", record.getMessage())
        if match:
            self.seconds.append(float(match.group(1)))


def first_step_seconds(job, after: int) -> float:
    """Seconds from the job's start until it logged step `after + 1` (the job was started just before)."""
    started = time.perf_counter()
    while not any(r.get("step") == after + 1 and "reward" in r for r in job.run.metrics()):
        if not job.active:
            raise SystemExit(f"the run ended before step {after + 1}: {job.status} {job.error}")
        time.sleep(0.05)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2)
    args = parser.parse_args()

    from playground.spec import demo_spec
    from playground.training.checkpoint import last_checkpoint
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore

    times = SaveTimes()
    logging.getLogger("playground.training.run_trainer").addHandler(times)
    logging.getLogger("playground.training.run_trainer").setLevel(logging.INFO)
    spec = demo_spec()
    spec.set("save_steps", 1)
    spec.set("max_steps", args.steps + 5)
    manager = JobManager(RunStore(tempfile.mkdtemp(prefix="bench-continue-")))
    job = manager.start(spec)
    print(f"started {job.run.id}", flush=True)
    start_to_first = first_step_seconds(job, 0)
    print(f"first step after {start_to_first:.1f} s", flush=True)
    while job.step < args.steps:
        time.sleep(0.1)
    job.stop()
    job.join()
    checkpoint = last_checkpoint(job.run.path)
    files = {p.name: p.stat().st_size for p in checkpoint.rglob("*") if p.is_file()}
    print(f"stopped at step {job.step}; continuing", flush=True)
    continued = manager.resume(job.run.id)
    continue_to_first = first_step_seconds(continued, continued.start_step)
    print(f"first continued step after {continue_to_first:.1f} s", flush=True)
    continued.stop()
    continued.join()
    result = {
        "model": spec.model.model_name_or_path,
        "lora_r": spec.lora.lora_r,
        "checkpoint_mb": round(sum(files.values()) / 2**20, 1),
        "files_mb": {name: round(size / 2**20, 2) for name, size in sorted(files.items(), key=lambda kv: -kv[1])},
        "save_seconds": [round(s, 2) for s in times.seconds],
        "start_to_first_step_s": round(start_to_first, 1),
        "continue_to_first_step_s": round(continue_to_first, 1),
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    for key, value in result.items():
        print(f"{key:>26}: {value}")
    print(json.dumps(result))


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
