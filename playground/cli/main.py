"""Command line: `python -m playground {rewards,score,preview,...}`.

Bad arguments give a one-line error on stderr and exit code 2; user-facing errors never print a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence

import playground
from playground.cli import check as cli_check
from playground.cli import export as cli_export
from playground.cli import lab as cli_lab
from playground.cli import train as cli_train
from playground.cli.args import OneLine as _Parser
from playground.cli.args import add_run_fields, column_values
from playground.cli.lab import GENERATION
from playground.errors import PlaygroundError
from playground.texts import msg


Setup = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]
# name -> (add arguments, run, help); a command without a setup parses its own arguments (`run(argv)`)
COMMANDS: dict[str, tuple[Setup | None, Callable, str]] = {}


# --- rewards -------------------------------------------------------------------------------------------------------


def _setup_rewards(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON")


def _run_rewards(args: argparse.Namespace) -> int:
    from rewards.registry import list_specs

    specs = list_specs()
    if args.json:
        data = [
            {
                "name": s.name,
                "family": s.family,
                "description": s.description,
                "params": [
                    {"name": p.name, "type": p.type.__name__, "default": p.default, "help": p.help} for p in s.params
                ],
                "columns": list(s.columns),
                "good": s.good.completion if s.good else None,
                "bad": s.bad.completion if s.bad else None,
            }
            for s in specs
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    width = max(len(s.name) for s in specs)
    for s in specs:
        params = ", ".join(f"{p.name}={p.default!r}" for p in s.params)
        print(f"{s.name:<{width}}  {s.description}" + (f"  [{params}]" if params else ""))
    return 0


# --- score / preview -----------------------------------------------------------------------------------------------


def _add_reward_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--reward", action="append", required=True, metavar="NAME[:WEIGHT]", help="a library reward; repeat it"
    )
    p.add_argument("--column", action="append", default=[], metavar="NAME=VALUE", help="a dataset column value")
    add_run_fields(p, "scale_rewards", "multi_objective_aggregation")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _build(args: argparse.Namespace):
    from playground.isolation.visitor import reward_executor
    from playground.scoring import RewardChoice, build_rewards

    choices = [RewardChoice.parse(r) for r in args.reward]
    funcs, weights = build_rewards(choices, executor=reward_executor())
    return funcs, weights, column_values(args.column)


def _print_group(score, as_json: bool, extra: dict | None = None) -> None:
    if as_json:
        data = score.to_json()
        data.update(extra or {})
        print(json.dumps(data, ensure_ascii=False))
        return
    for i, c in enumerate(score.completions, 1):
        rewards = "  ".join(f"{k}={'None' if v is None else f'{v:.3f}'}" for k, v in c.rewards.items())
        total = "None" if c.total is None else f"{c.total:.3f}"
        print(f"[{i}] total={total} advantage={c.advantage:+.3f}  {rewards}")
        print("    " + c.text.replace("\n", "\n    "))
    print(f"group mean={score.mean:.4f} std={score.std:.4f} zero_std={score.zero_std}")
    for flag in score.flags:
        print(f"! {flag}")


def _setup_score(p: argparse.ArgumentParser) -> None:
    _add_reward_args(p)
    p.add_argument("--completion", action="append", required=True, metavar="TEXT", help="a completion; repeat it")
    p.add_argument("--prompt", default="", help="the prompt, passed to rewards as `prompts`")


def _run_score(args: argparse.Namespace) -> int:
    from playground.advantages import AdvantageSettings
    from playground.scoring import score_group

    funcs, weights, columns = _build(args)
    n = len(args.completion)
    score = score_group(
        args.completion,
        funcs,
        weights,
        prompts=[args.prompt] * n,
        columns={k: [v] * n for k, v in columns.items()},
        advantage=AdvantageSettings(args.scale_rewards, args.multi_objective_aggregation),
    )
    _print_group(score, args.json)
    return 0


def _setup_preview(p: argparse.ArgumentParser) -> None:
    _add_reward_args(p)
    p.add_argument("--prompt", required=True)
    add_run_fields(p, *GENERATION, "system_prompt", seed=0)


def _run_preview(args: argparse.Namespace) -> int:
    from playground.cli.lab import recipe
    from playground.data.chat import to_messages
    from playground.models import ModelSource, load_model
    from playground.preview import run_preview

    if not args.prompt.strip():
        raise PlaygroundError("cli.prompt_empty")
    spec = recipe(args, (*GENERATION, "scale_rewards", "multi_objective_aggregation"))
    funcs, weights, columns = _build(args)
    source = ModelSource.parse(spec.model.model_name_or_path)
    prompt = to_messages(args.prompt, args.system_prompt) if args.system_prompt else args.prompt
    result = run_preview(spec, prompt, funcs, weights, lambda: load_model(source, inference=True), columns=columns)
    if not args.json:
        print(f"{source.label}: {len(result.group.completions)} completions in {result.group.seconds:.1f} s")
    _print_group(result.score, args.json, {"seconds": round(result.group.seconds, 3)})
    return 0


COMMANDS.update(
    {
        "rewards": (_setup_rewards, _run_rewards, "list the reward library"),
        "score": (_setup_score, _run_score, "score given completions as one group (no model)"),
        "preview": (_setup_preview, _run_preview, "generate a group for a prompt, then score it"),
        "train": (None, cli_train.run_train, cli_train.TRAIN_HELP),  # parses its own arguments: TRL's parser
        "compare": (cli_train.setup_compare, cli_train.run_compare, "before/after samples of a run's adapter"),
        "lessons": (
            cli_train.setup_lessons,
            cli_train.run_lessons,
            "list the guided lessons (train one: train --lesson)",
        ),
        "export": (cli_export.setup_export, cli_export.run_export, "a run as trl-recipe, script, adapter or merged"),
        "push": (cli_export.setup_push, cli_export.run_push, "upload a run's model to the Hugging Face Hub"),
        "check-reward": (cli_check.setup_check, cli_check.run_check, "check a custom reward file and run its cases"),
        "dryrun": (cli_lab.setup_dryrun, cli_lab.run_dryrun, "sample N prompts x G, report the learning signal"),
        "probe": (cli_lab.setup_probe, cli_lab.run_probe, "score degenerate texts: can the reward be gamed?"),
    }
)


def build_parser(commands: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The CLI's parser: every command by name and help, with the arguments of `commands` (all when None). A
    command's arguments may read the run spec, and with it TRL's config and torch; `main` sets up only the command it
    runs, so `--help` and `rewards` start without them."""
    parser = _Parser(
        prog="grpo-playground",
        description="GRPO Reward Playground command line.",
        epilog="grpo-playground app [--host ... --port ... --mcp]: start the web app (`app --help` lists its flags).",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (setup, _, help) in COMMANDS.items():
        command = sub.add_parser(name, help=help, description=help, add_help=setup is not None)
        if setup is not None and (commands is None or name in commands):
            setup(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        playground.bootstrap()
    except PlaygroundError as exc:  # a bad setting: one line, before the command starts
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if argv and argv[0] in COMMANDS and COMMANDS[argv[0]][0] is None:
        command, run_argv = argv[0], argv[1:]
    else:
        args = build_parser(argv[:1]).parse_args(argv)
        command, run_argv = args.command, args
    _, run, _ = COMMANDS[command]
    try:
        return run(run_argv)
    except PlaygroundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(msg("cli.interrupted"), file=sys.stderr)
        return 130
