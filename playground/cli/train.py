"""`python -m playground train` and `compare`: the training job and before/after from the command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from playground.errors import PlaygroundError
from playground.spec import DATA_FLAGS, RunSpec, flat_fields


def setup_train(p: argparse.ArgumentParser) -> None:
    p.add_argument("--spec", help="a run spec JSON file (default: the demo recipe)")
    p.add_argument(
        "--lesson", metavar="ID", help="a lesson's recipe, warm-up included (see `python -m playground lessons`)"
    )
    p.add_argument("--out", default=None, help="runs folder (default: $PLAYGROUND_RUNS or ./runs)")
    p.add_argument("--json-log", action="store_true", help="print one JSON object per log step")
    p.add_argument("--reward", action="append", metavar="NAME[:WEIGHT]", help="replace the spec's rewards; repeat")
    group = p.add_argument_group("run spec fields (TRL names)")
    for _, f in flat_fields():
        group.add_argument(f"--{f.name}", dest=f"field_{f.name}", metavar="VALUE", help=f.metadata.get("help"))
    for flag in DATA_FLAGS:
        group.add_argument(f"--{flag}", dest=f"field_{flag}", metavar="VALUE", help=f"prompt source: {flag}")


def spec_from_args(args: argparse.Namespace) -> RunSpec:
    from playground.scoring import RewardChoice
    from playground.spec import demo_spec

    if getattr(args, "lesson", None):
        from playground.lessons import get_lesson

        if args.spec:
            raise PlaygroundError("Give --spec or --lesson, not both.")
        spec = get_lesson(args.lesson).run_spec()
    elif args.spec:
        try:
            spec = RunSpec.from_json(Path(args.spec).read_text(encoding="utf-8"))
        except OSError as exc:
            raise PlaygroundError(f"Cannot read spec file {args.spec}: {exc.strerror}.") from None
        except json.JSONDecodeError as exc:
            raise PlaygroundError(f"Spec file {args.spec} is not valid JSON (line {exc.lineno}: {exc.msg}).") from None
    else:
        spec = demo_spec()
    for key, value in vars(args).items():
        if key.startswith("field_") and value is not None:
            spec.set(key.removeprefix("field_"), value)
    if args.reward:
        spec.rewards = [RewardChoice.parse(r) for r in args.reward]
    return spec


def run_train(args: argparse.Namespace) -> int:
    from playground.training.job import JobManager
    from playground.training.store import RunStore

    spec = spec_from_args(args)
    manager = JobManager(RunStore(args.out))
    job = manager.start(spec)
    printer = LivePrinter(job, args.json_log)
    job.listeners.append(printer)
    if not args.json_log:
        print(f"run {job.run.id} in {job.run.path}", file=sys.stderr)
        if spec.model.num_processes > 1:  # issue 16: the accelerate backend, and the global batch it trains on
            from playground.training.launcher import batch_summary

            print(f"{spec.model.num_processes} processes (accelerate launch): {batch_summary(spec)}", file=sys.stderr)
    # Poll rather than Thread.join(): a join interrupted by Ctrl-C can return early on the next call.
    try:
        while job.active:
            time.sleep(0.5)
    except KeyboardInterrupt:
        print("stopping after this step (the adapter will be saved)...", file=sys.stderr)
        job.stop()
        while job.active:
            time.sleep(0.5)
    job.join()
    _print_alerts(job, printer)
    status = job.status
    print(f"run {job.run.id} {status}" + (f": {job.error}" if job.error else ""), file=sys.stderr)
    return {"finished": 0, "stopped": 130}.get(status, 1)


def _print_alerts(job, printer=None) -> None:
    """The alerts of the finished run that were not printed while it ran."""
    shown = printer.shown if printer is not None else set()
    for alert in job.alerts:
        if alert["code"] not in shown:
            print(f"! {alert['message']} {alert['advice']}", file=sys.stderr)


class LivePrinter:
    """Prints each logged row (warm-up, GRPO and eval rows; JSON with --json-log) and every new alert as it appears."""

    def __init__(self, job, as_json: bool):
        self.job = job
        self.as_json = as_json
        self.shown: set[str] = set()  # alert codes on screen; a code that clears and returns is printed again

    def __call__(self, row: dict) -> None:
        self._print_row(row)
        codes = {a["code"] for a in self.job.alerts}
        for alert in self.job.alerts:
            if alert["code"] not in self.shown:
                print(f"! step {alert['step']}: {alert['message']} {alert['advice']}", file=sys.stderr, flush=True)
        self.shown = codes

    def _print_row(self, row: dict) -> None:
        phase = row.get("phase")
        if self.as_json:
            if phase in ("warmup", "eval") or "reward" in row:
                print(json.dumps(row, ensure_ascii=False), flush=True)
            return
        if phase == "warmup" and "warmup/loss" in row:
            total = self.job.spec.grpo.sft_warmup_steps
            print(f"warmup {row['step']}/{total} loss={row['warmup/loss']:.4g}", flush=True)
        elif phase == "eval":
            means = " ".join(
                f"{k.split('/')[1]}={v:.3g}"
                for k, v in row.items()
                if k.startswith("eval_rewards/") and k.endswith("/mean") and isinstance(v, int | float)
            )
            reward = row.get("eval_reward")
            shown = f"{reward:.4g}" if isinstance(reward, int | float) else "None"
            print(f"eval @ step {row['step']} ({row.get('eval_of')}): eval_reward={shown} {means}", flush=True)
        elif "reward" in row:
            snap = self.job.snapshot()
            eta = f" eta {snap['eta']:.0f}s" if snap["eta"] is not None else ""
            keys = ("reward", "reward_std", "kl", "loss", "completions/mean_length")
            values = " ".join(f"{k}={row[k]:.4g}" for k in keys if isinstance(row.get(k), int | float))
            print(f"step {row['step']}/{self.job.max_steps} {values}{eta}", flush=True)


def setup_lessons(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")


def run_lessons(args: argparse.Namespace) -> int:
    from playground.lessons import LESSONS

    if args.json:
        data = []
        for lesson in LESSONS:
            item = {"id": lesson.id, "title": lesson.title, "expected": lesson.expected, "overrides": lesson.overrides}
            reference = lesson.reference()  # the measured run of a lesson that trains (bench/lessons.py)
            if reference is not None:
                item["reference"] = reference.to_json()
            data.append(item)
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    width = max(len(lesson.id) for lesson in LESSONS)
    for lesson in LESSONS:
        print(f"{lesson.id:<{width}}  {lesson.title['en']} / {lesson.title['zh']}")
        print(f"{'':<{width}}  expected: {lesson.expected['en']}")
    return 0


def setup_compare(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", required=True, help="a run folder, or a run id in --out")
    p.add_argument("--out", default=None, help="runs folder (default: $PLAYGROUND_RUNS or ./runs)")
    p.add_argument("--prompt", action="append", help="a prompt to compare on; repeat (default: the run's first rows)")
    p.add_argument("--num-samples", type=int, default=4, help="completions per prompt and model")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_compare(args: argparse.Namespace) -> int:
    from playground.training.compare import compare_run
    from playground.training.store import Run, RunStore

    path = Path(args.run)
    run = Run(path) if (path / "spec.json").is_file() else RunStore(args.out).get(args.run)
    if args.num_samples < 2:
        raise PlaygroundError("--num-samples must be at least 2.")
    start = time.perf_counter()
    result = compare_run(run, args.prompt, num_samples=args.num_samples, seed=args.seed)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
        return 0
    for item in result.items:
        print(f"== {item.prompt!r} (seed {item.seed})")
        print(f"   base    mean reward {item.base.mean:.4g}: {item.base.completions[0].text[:100]!r}")
        print(f"   trained mean reward {item.trained.mean:.4g}: {item.trained.completions[0].text[:100]!r}")
    print(f"mean reward delta {result.mean_delta:+.4g} ({time.perf_counter() - start:.1f} s)")
    return 0
