"""`python -m playground train` and `compare`: the training job and before/after from the command line.

The run spec (TRL's `GRPOConfig`, and with it transformers and torch) is imported by the functions that read it, so
that `lessons` and the CLI's other commands, which import this module, start without it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from playground.cli.args import OneLine, Parser, build_spec, section_types, spec_defaults, underscored
from playground.data.parsers import FILE_TYPES
from playground.errors import PlaygroundError
from playground.scoring import RewardChoice
from playground.settings import Settings, install
from playground.texts import msg


if TYPE_CHECKING:
    from playground.spec import RunSpec

TRAIN_HELP = "train with GRPO (default: the demo recipe)"
# GRPOConfig and ModelConfig keys of a `trl grpo` YAML file that the playground sets for itself (logged, not used),
# with the recipe's trainer settings (`playground.spec.TRAINER_SETTINGS`).
SET_BY_PLAYGROUND = ("output_dir", "bf16", "use_cpu", "dtype", "use_peft")


@dataclass
class RecipeArgs:
    """Keys of a `trl grpo` YAML file (TRL's ScriptArguments, GRPOConfig) that the spec holds elsewhere."""

    reward_funcs: list[str] | None = field(
        default=None, metadata={"help": "TRL's reward functions: `module.name` paths (a module beside the YAML file)."}
    )
    reward_weights: list[float] | None = field(default=None, metadata={"help": "Their weights, in the same order."})
    dataset_train_split: str | None = field(default=None, metadata={"help": "TRL's name of dataset_split."})


def train_parser(prog: str = "grpo-playground train") -> Parser:
    """TRL's parser over the run spec's sections, the prompt source and the recipe keys, and the command's flags."""
    types = [*section_types(), RecipeArgs]
    p = Parser(types, prog=prog, description=TRAIN_HELP)
    own = p.add_argument_group("command")
    own.add_argument("--config", metavar="YAML", help="a `trl grpo` YAML file (e.g. an exported recipe.yaml)")
    own.add_argument("--spec", help="a run spec JSON file (default: the demo recipe)")
    own.add_argument("--lesson", metavar="ID", help="a lesson's recipe, warm-up included (`grpo-playground lessons`)")
    own.add_argument("--out", default=None, help="runs folder (default: $PLAYGROUND_RUNS or ./runs)")
    own.add_argument("--json_log", action="store_true", help="print one JSON object per log step")
    own.add_argument("--reward", action="append", metavar="NAME[:WEIGHT]", help="replace the rewards; repeat it")
    own.add_argument(
        "--resume_from_checkpoint",
        metavar="RUN",
        help="continue a run from its last checkpoint, in its own folder: a run id (in --out), a run folder or a "
        "checkpoint folder; the run's spec.json holds its settings, and --max_steps trains it further",
    )
    return p


def parse_train(argv: list[str]) -> tuple[RunSpec, argparse.Namespace]:
    """The run spec and the command's own options, from one parser: the base spec (demo, --spec or --lesson), then
    the --config file's values (read once, here: TRL's parser is handed them as defaults), then the flags. Bad flags
    exit with one line and code 2 (argparse); a bad file or value raises a PlaygroundError, which the CLI prints as
    one line with code 2."""
    from playground.spec import SECTIONS, TRAINER_SETTINGS

    parser = train_parser()
    known, _ = parser.parse_known_args(argv)  # the command's own flags first: they pick the base spec
    base = base_spec(known.spec, known.lesson)
    config = _read_config(known.config) if known.config else {}
    parser.set_defaults_with_config(**spec_defaults(base))
    env = config.pop("env", {})  # set as `trl grpo` sets it
    if not isinstance(env, dict):
        parser.error("`env` field should be a dict in the YAML file.")
    os.environ.update({key: str(value) for key, value in env.items()})
    if env:  # the section may set the playground's own variables: read the settings again, checked
        install(Settings.from_env())
    from_config = parser.set_defaults_with_config(**config)  # the file's values, which the flags then override
    *parsed, options, from_args = parser.parse_args_into_dataclasses(argv, return_remaining_strings=True)
    if from_args:
        parser.error(msg("cli.unrecognized", args=" ".join(from_args)))
    ignored = (*TRAINER_SETTINGS, *SET_BY_PLAYGROUND)
    unknown = [key for key in from_config[::2] if key.removeprefix("--") not in ignored]
    if unknown:
        keys = ", ".join(k.removeprefix("--") for k in unknown)
        parser.error(msg("cli.not_a_setting", config=known.config, keys=keys))
    *sections, data, recipe = parsed
    spec = build_spec(base, {**dict(zip(SECTIONS, sections, strict=True)), "data": data})
    _apply_config(spec, config, Path(known.config) if known.config else None, recipe)
    _fit_precision(spec, config, known.config, flagged=_flag_given(parser, argv, "bf16"))
    if options.reward:
        spec.rewards = [RewardChoice.parse(r) for r in options.reward]
    return spec, options


def base_spec(spec_file: str | None, lesson: str | None) -> RunSpec:
    """The spec that flags and a config file change: a lesson's, a spec file's, or the demo recipe."""
    from playground.spec import demo_spec

    if lesson:
        from playground.lessons import get_lesson

        if spec_file:
            raise PlaygroundError("cli.spec_or_lesson")
        return get_lesson(lesson).run_spec()
    if spec_file:
        return load_spec_file(spec_file)
    return demo_spec()


def load_spec_file(path: str) -> RunSpec:
    from playground.spec import RunSpec

    try:
        return RunSpec.from_json(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PlaygroundError("cli.spec_unreadable", path=path, error=exc.strerror) from None
    except json.JSONDecodeError as exc:
        raise PlaygroundError("cli.spec_json", path=path, line=exc.lineno, error=exc.msg) from None


def _read_config(path: str) -> dict:
    try:
        config = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PlaygroundError("cli.config_unreadable", path=path, error=exc.strerror) from None
    except yaml.YAMLError as exc:
        raise PlaygroundError("cli.config_yaml", path=path, error=str(exc).splitlines()[0]) from None
    if not isinstance(config, dict):
        raise PlaygroundError("cli.config_mapping", path=path)
    return config


def _apply_config(spec: RunSpec, config: dict, path: Path | None, recipe: RecipeArgs) -> None:
    """What a `trl grpo` YAML file says in TRL's terms: its rewards, its split, a data folder, `use_cpu`."""
    if recipe.dataset_train_split:
        spec.set("dataset_split", recipe.dataset_train_split)
    if path is not None and "dataset_name" in config:
        local = _data_file(path, str(config["dataset_name"]), spec.data.split)
        if local is not None:
            spec.set("dataset_kind", "file")
            spec.set("dataset_name", str(local))
    if config.get("use_cpu") is True and spec.model.device == "auto":
        spec.model.device = "cpu"
    if recipe.reward_funcs:
        from playground.cli.recipe import recipe_rewards

        spec.rewards, code = recipe_rewards(path, recipe.reward_funcs, recipe.reward_weights)
        spec.custom_code = code or spec.custom_code


def _flag_given(parser: argparse.ArgumentParser, argv: list[str], name: str) -> bool:
    """Whether `--name` (`--name value`, `--name=value`, either spelling) stands on the command line."""
    return any(arg.partition("=")[0] == f"--{name}" for arg in underscored(parser, argv) or [])


def _fit_precision(spec: RunSpec, config: dict, path: str | None, flagged: bool) -> None:
    """A `trl grpo` YAML file's `bf16: true` without `use_cpu` targets a GPU (an exported recipe sets it so, with
    `dtype: bfloat16`). On a machine without CUDA the run trains in what this CPU computes natively, bf16 or fp32,
    and says so in one line. `--bf16` on the command line, or `use_cpu: true` beside `bf16: true`, asks for bf16 on
    the CPU itself: it is kept, and validation refuses it where bf16 is not native."""
    if flagged or config.get("bf16") is not True or config.get("use_cpu") is True or spec.resolved_device() != "cpu":
        return
    from playground.fastpath import packing

    native = packing.cpu_has_native_bf16()
    spec.grpo.bf16 = native
    print(msg("cli.config_bf16_cpu" if native else "cli.config_bf16_fp32", path=path), file=sys.stderr)


def _data_file(config: Path, name: str, split: str) -> Path | None:
    """A local `dataset_name` of a YAML file (a file, or a folder as TRL loads one: `<split>.<ext>` or its one data
    file), relative to the working directory as for `trl grpo`, else to the YAML file's folder."""
    for root in (Path.cwd(), config.parent):
        path = (root / name).expanduser()
        if path.is_file():
            return path.resolve()
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() in FILE_TYPES)
            named = [p for p in files if p.stem == split]
            if named or len(files) == 1:
                return (named or files)[0].resolve()
    return None


def run_train(argv: list[str]) -> int:
    from playground.training.run_queue import JobManager
    from playground.training.store import RunStore

    spec, args = parse_train(argv)
    manager = JobManager(RunStore(args.out))
    if args.resume_from_checkpoint:
        job = manager.resume(args.resume_from_checkpoint, max_steps=_given_max_steps(argv))
        spec = job.spec
    else:
        job = manager.start(spec)
    printer = LivePrinter(job, args.json_log)
    job.listeners.append(printer)
    if not args.json_log:
        print(f"run {job.run.id} in {job.run.path}", file=sys.stderr)
        if spec.model.num_processes > 1:  # the accelerate backend, and the global batch it trains on
            from playground.training.launcher import batch_summary

            print(f"{spec.model.num_processes} processes (accelerate launch): {batch_summary(spec)}", file=sys.stderr)
    # Poll rather than Thread.join(): a join interrupted by Ctrl-C can return early on the next call.
    try:
        while job.active:
            time.sleep(0.5)
    except KeyboardInterrupt:
        print(msg("cli.stopping"), file=sys.stderr)
        job.stop()
        while job.active:
            time.sleep(0.5)
    job.join()
    _print_alerts(job, printer)
    status = job.status
    print(f"run {job.run.id} {status}" + (f": {job.error}" if job.error else ""), file=sys.stderr)
    return {"finished": 0, "stopped": 130}.get(status, 1)


def _given_max_steps(argv: list[str]) -> int | None:
    """`--max_steps` when given on the command line (a continued run keeps its own otherwise)."""
    pre = OneLine(add_help=False)
    pre.add_argument("--max_steps", type=int)
    return pre.parse_known_args(argv)[0].max_steps


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
            if lesson.trap is not None:  # the recipe the lesson warns against, and its own measured run
                rewards, overrides = lesson.trap
                item["trap"] = {"rewards": [choice.to_dict() for choice in rewards], "overrides": overrides}
                if (trap := lesson.reference(trap=True)) is not None:
                    item["trap"]["reference"] = trap.to_json()
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
    p.add_argument("--num_samples", type=int, default=4, help="completions per prompt and model")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_compare(args: argparse.Namespace) -> int:
    from playground.training.compare import compare_run
    from playground.training.store import Run, RunStore

    path = Path(args.run)
    run = Run(path) if (path / "spec.json").is_file() else RunStore(args.out).get(args.run)
    if args.num_samples < 2:
        raise PlaygroundError("cli.num_samples")
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
