"""Each lesson's recipe end to end (warm-up included): its eval curve and wall time, one JSON line per lesson.

python bench/lessons.py                                  # every lesson that trains
python bench/lessons.py --lesson format                  # one lesson
python bench/lessons.py --lesson format --set sft_warmup_steps=0 --set completion_prefix=   # the cold-start failure
python bench/lessons.py --lesson combine --trap                                        # the combine lesson's trap
python bench/lessons.py --lesson combine --reward length:2 --reward tag_sentences:0   # reweigh its rewards, or add one
python bench/lessons.py --lesson format --reference playground/lessons/reference   # refresh the shipped reference run
python bench/lessons.py --lesson format --from-run runs/<id> --reference DIR      # a reference from a finished run

The eval curve is the held-out prompts with fixed seeds (`eval_reward`, `eval_rewards/<fn>/mean`), scored before
training ("base"), right after the SFT warm-up ("warmup") and every `eval_every` GRPO steps ("grpo"). Figures depend on
the machine and on its load: the CPU model is printed with them. Each line also carries a few held-out answers
(before, after the warm-up, after GRPO, same prompts and seeds) and, for answers in tags, the share with an empty
section (`empty_section_rate`, the reward-hacking lesson's measure) and the share with a sentence in every tag
(`sentence_rate`, the combine lesson's).

`--reference DIR` writes what the Learn tab shows before anyone trains: `DIR/<lesson>.jsonl` with the run's summary,
its GRPO metrics, its eval rows and a few eval answers (see `playground.lessons.reference`).
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

TRAINING_LESSONS = ("length", "format", "hacking", "combine", "metrics", "troubleshooting", "arithmetic")


def run_lesson(
    lesson_id: str, overrides: dict[str, str], out: str, trap: bool = False, rewards: list[str] | None = None
) -> dict:
    from playground.lessons import get_lesson
    from playground.scoring import RewardChoice
    from playground.training.evaluation import read_eval_samples
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore

    spec = get_lesson(lesson_id).run_spec(trap=trap, **overrides)
    for choice in (RewardChoice.parse(r) for r in rewards or ()):
        same = [r for r in spec.rewards if r.name == choice.name]
        for reward in same:  # the lesson's reward of that name, its parameters kept, at the weight given
            reward.weight = choice.weight
        if not same:
            spec.rewards.append(choice)
    start, cpu_start = time.perf_counter(), time.process_time()
    job = JobManager(RunStore(out)).start(spec)
    job.join()
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start  # this process's CPU seconds: less sensitive to other load than wall time
    status = job.run.status()
    samples = read_eval_samples(job.run.path)
    return {
        "lesson": lesson_id,
        "status": job.status,
        "error": job.error,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "load_avg_1min": round(os.getloadavg()[0], 1),
        "warmup_s": status.get("warmup_seconds"),
        "phases_s": phase_seconds(job, wall),
        "max_steps": spec.grpo.max_steps,
        "overrides": overrides,
        "trap": trap,
        "rewards": [choice.to_dict() for choice in spec.rewards],
        "eval": eval_points(job.run),
        "seed": spec.grpo.seed,
        "eval_samples": sum(1 for r in samples if (r.get("step"), r.get("eval_of")) == (0, "base")),
        "alerts": [a["code"] for a in status.get("alerts") or []],
        "run": str(job.run.path),
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
        "threads": torch_threads(),
    }


def phase_seconds(job, wall: float) -> dict[str, float]:
    """Where the wall time went: the SFT warm-up, the held-out evals, the GRPO steps (rollout, rewards, backward,
    optimizer: `bench/step_profile.py` splits a step further) and the rest (model loading, the trainer's set-up,
    saving)."""
    clock = getattr(job, "clock", None)
    if clock is None:  # a run in another process (the accelerate backend) times its phases there
        return {}
    out = {phase: round(clock.spent(phase), 1) for phase in ("warmup", "eval", "grpo")}
    out["other"] = round(wall - sum(out.values()), 1)
    return out


def torch_threads() -> int:
    import torch

    return torch.get_num_threads()


def summary_of_run(lesson_id: str, path: str) -> dict:
    """The JSON line of a run already in a folder (`--from-run`): its wall time is the status's elapsed seconds."""
    from playground.spec import RunSpec
    from playground.training.evaluation import read_eval_samples
    from playground.training.store import Run

    run = Run(Path(path))
    status, spec = run.status(), RunSpec.from_dict(run.spec())
    samples = read_eval_samples(run.path)
    return {
        "lesson": lesson_id,
        "status": status.get("status"),
        "error": status.get("error"),
        "wall_s": status.get("elapsed"),
        "cpu_s": None,
        "load_avg_1min": None,
        "warmup_s": status.get("warmup_seconds"),
        "max_steps": spec.grpo.max_steps,
        "overrides": {},
        "eval": eval_points(run),
        "seed": spec.grpo.seed,
        "eval_samples": sum(1 for r in samples if (r.get("step"), r.get("eval_of")) == (0, "base")),
        "alerts": [a["code"] for a in status.get("alerts") or []],
        "run": str(run.path),
        "cpu": cpu_name(),
        "cores": os.cpu_count(),
    }


def eval_points(run) -> list[dict]:
    """The run's eval points: step, which model (`of`), eval_reward, each reward's mean under its own name, and for
    tagged answers the empty-section and sentence-in-every-tag rates (`playground.training.answer_shape`)."""
    from playground.spec import RunSpec
    from playground.training.answer_shape import answer_shape
    from playground.training.evaluation import expected_tags, read_eval_samples

    samples = read_eval_samples(run.path)
    tags = expected_tags(RunSpec.from_dict(run.spec()))
    points = []
    for row in run.metrics():
        if row.get("phase") != "eval":
            continue
        point = {"step": row["step"], "of": row.get("eval_of"), "eval_reward": _round(row.get("eval_reward"))}
        point.update(
            {
                k[len("eval_rewards/") : -len("/mean")]: _round(v)
                for k, v in row.items()
                if k.startswith("eval_rewards/") and k.endswith("/mean")
            }
        )
        # rows written before the eval rows carried the shares: computed from the run's eval answers
        texts = [r["completion"] for r in samples if (r.get("step"), r.get("eval_of")) == (row["step"], point["of"])]
        shape = {k: row[k] for k in ("empty_section_rate", "sentence_rate") if k in row} or answer_shape(texts, tags)
        point.update(shape)
        points.append(point)
    return points


def metric_rows(rows: list[dict]) -> list[dict]:
    """The GRPO steps' chartable metrics (TRL's names), rounded: what a reference run ships."""
    keep = ("reward", "reward_std", "frac_reward_zero_std", "kl", "completions/mean_length")
    keep += ("completions/clipped_ratio",)
    out = []
    for row in rows:
        if row.get("phase") != "grpo" or "reward" not in row:
            continue
        point = {"step": row["step"]}
        point.update({k: _round(row[k]) for k in keep if row.get(k) is not None})
        point.update({k: _round(v) for k, v in row.items() if k.startswith("rewards/") and k.endswith("/mean")})
        out.append(point)
    return out


def write_reference(result: dict, folder: Path, answers_per_point: int = 3) -> Path:
    """`folder/<lesson>.jsonl`: one "run" line (the summary), then "metrics", "eval" and "answer" lines."""
    from playground.training.evaluation import answers_at, read_eval_samples
    from playground.training.store import Run

    run = Run(Path(result["run"]))
    keys = ("lesson", "wall_s", "cpu_s", "load_avg_1min", "warmup_s", "max_steps", "seed", "overrides", "alerts")
    keys += ("trap", "rewards")
    summary = {k: result.get(k) for k in keys}
    summary.update(cpu=result["cpu"], cores=result["cores"], eval_samples=result["eval_samples"])
    summary.update(threads=result.get("threads"))
    lines = [{"type": "run", **summary}]
    lines += [{"type": "metrics", **row} for row in metric_rows(run.metrics())]
    lines += [{"type": "eval", **row} for row in result["eval"]]
    for row in answers_at(read_eval_samples(run.path), answers_per_point):
        answer = {k: row.get(k) for k in ("step", "eval_of", "prompt", "completion")}
        answer["rewards"] = {k: _round(v) for k, v in (row.get("rewards") or {}).items()}
        lines.append({"type": "answer", **answer})
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{result['lesson']}.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")
    return path


def _round(value):
    return round(value, 4) if isinstance(value, float) else value


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lesson", action="append", help="a lesson id; repeat (default: every lesson that trains)")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a recipe field")
    p.add_argument("--trap", action="store_true", help="train the lesson's trap (the combine lesson's naive sum)")
    p.add_argument(
        "--reward",
        action="append",
        metavar="NAME[:WEIGHT]",
        help="reweigh the lesson's reward NAME, or add the library reward NAME; repeat it",
    )
    p.add_argument("--out", default=None, help="runs folder (default: a temporary folder)")
    p.add_argument("--reference", default=None, metavar="DIR", help="also write DIR/<lesson>.jsonl (reference run)")
    p.add_argument("--from-run", default=None, metavar="RUN_DIR", help="summarize this run folder instead of training")
    args = p.parse_args()
    overrides = dict(item.split("=", 1) for item in args.set)
    out = args.out or tempfile.mkdtemp(prefix="bench-lessons-")
    for lesson_id in args.lesson or TRAINING_LESSONS:
        if args.from_run:
            result = summary_of_run(lesson_id, args.from_run)
        else:
            result = run_lesson(lesson_id, overrides, out, trap=args.trap, rewards=args.reward)
        if args.reference and (result["status"] == "finished" or args.from_run):
            result["reference"] = str(write_reference(result, Path(args.reference)))
        print(json.dumps(result, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    import playground

    playground.bootstrap()  # an entry point: the settings, the reward library's host, the code_tests runner
    main()
