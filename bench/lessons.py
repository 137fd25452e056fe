"""Each lesson's recipe end to end (warm-up included): its eval curve and wall time, one JSON line per lesson.

python bench/lessons.py                                  # every lesson that trains
python bench/lessons.py --lesson format                  # one lesson
python bench/lessons.py --lesson format --set sft_warmup_steps=0 --set completion_prefix=   # the cold-start failure

The eval curve is the held-out prompts with fixed seeds (`eval_reward`, `eval_rewards/<fn>/mean`), scored before
training ("base"), right after the SFT warm-up ("warmup") and every `eval_every` GRPO steps ("grpo"). Figures depend on
the machine and on its load: the CPU model is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.common import cpu_name  # noqa: E402


os.environ.setdefault("HF_HUB_OFFLINE", "1")

TRAINING_LESSONS = ("length", "format", "combine", "metrics", "troubleshooting", "arithmetic")


def run_lesson(lesson_id: str, overrides: dict[str, str], out: str) -> dict:
    from playground.lessons import get_lesson
    from playground.training.job import JobManager
    from playground.training.store import RunStore

    spec = get_lesson(lesson_id).run_spec(**overrides)
    start, cpu_start = time.perf_counter(), time.process_time()
    job = JobManager(RunStore(out)).start(spec)
    job.join()
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start  # this process's CPU seconds: less sensitive to other load than wall time
    rows = job.run.metrics()
    status = job.run.status()
    evals = []
    for row in rows:
        if row.get("phase") != "eval":
            continue
        point = {"step": row["step"], "of": row.get("eval_of"), "eval_reward": _round(row.get("eval_reward"))}
        point.update(
            {
                k.split("/")[1]: _round(v)
                for k, v in row.items()
                if k.startswith("eval_rewards/") and k.endswith("/mean")
            }
        )
        evals.append(point)
    return {
        "lesson": lesson_id,
        "status": job.status,
        "error": job.error,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "load_avg_1min": round(os.getloadavg()[0], 1),
        "warmup_s": status.get("warmup_seconds"),
        "max_steps": spec.grpo.max_steps,
        "overrides": overrides,
        "eval": evals,
        "alerts": [a["code"] for a in status.get("alerts") or []],
        "run": str(job.run.path),
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
    }


def _round(value):
    return round(value, 4) if isinstance(value, float) else value


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lesson", action="append", help="a lesson id; repeat (default: every lesson that trains)")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a recipe field")
    p.add_argument("--out", default=None, help="runs folder (default: a temporary folder)")
    args = p.parse_args()
    overrides = dict(item.split("=", 1) for item in args.set)
    out = args.out or tempfile.mkdtemp(prefix="bench-lessons-")
    for lesson_id in args.lesson or TRAINING_LESSONS:
        print(json.dumps(run_lesson(lesson_id, overrides, out), ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
