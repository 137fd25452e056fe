"""`python -m playground dryrun` and `python -m playground probe`: the reward lab on the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from playground.cli.args import add_run_fields, column_values


# The run fields of a sampled group, as preview and dryrun take them (TRL's names, the recipe's defaults but seed 0).
GENERATION = ("model_name_or_path", "num_generations", "max_completion_length", "temperature", "top_p", "seed")
GENERATION += ("completion_prefix",)
# The run fields besides the rewards' weights that change an advantage (`playground.advantages.AdvantageSettings`).
ADVANTAGE = ("scale_rewards", "multi_objective_aggregation", "per_device_train_batch_size", "steps_per_generation")
ADVANTAGE += ("gradient_accumulation_steps",)


def _add_rewards(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--reward", action="append", required=True, metavar="NAME[:WEIGHT]", help="a library reward; repeat it"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _choices(args: argparse.Namespace):
    from playground.isolation.visitor import reward_executor
    from playground.scoring import RewardChoice, build_rewards

    choices = [RewardChoice.parse(r) for r in args.reward]
    funcs, weights = build_rewards(choices, executor=reward_executor())
    return choices, funcs, weights


def recipe(args: argparse.Namespace, names: tuple[str, ...]):
    """The run spec of these parsed run fields (`playground.spec.spec_with`), as the page and the MCP tools read
    theirs."""
    from playground.spec import spec_with

    return spec_with({name: getattr(args, name) for name in names if hasattr(args, name)})


# --- dryrun --------------------------------------------------------------------------------------------------------


def setup_dryrun(p: argparse.ArgumentParser) -> None:
    _add_rewards(p)
    p.add_argument("--num_prompts", type=int, default=16)
    add_run_fields(p, *GENERATION, "dataset_name", *ADVANTAGE, seed=0, dataset_name="writing")
    p.add_argument("--export", metavar="PATH", help="write the prompts that give a signal to this JSONL file")


def run_dryrun(args: argparse.Namespace) -> int:
    from playground.data.sources import PromptSource
    from playground.lab.dryrun import run_dry_run
    from playground.models import ModelSource, load_model

    _, funcs, weights = _choices(args)
    spec = recipe(args, (*GENERATION, *ADVANTAGE))
    spec.data = PromptSource.named(args.dataset_name)
    source = ModelSource.parse(spec.model.model_name_or_path)
    run, summary = run_dry_run(
        spec, funcs, weights, lambda: load_model(source, inference=True), num_prompts=args.num_prompts
    )
    if args.export:
        Path(args.export).write_text(run.signal_jsonl(summary), encoding="utf-8")
    if args.json:
        print(json.dumps(summary.to_json(), ensure_ascii=False))
        return 0
    print(f"{len(run.rows)} prompts x {run.num_generations} completions sampled in {run.seconds:.1f} s")
    print(f"reward={summary.reward:.4f} reward_std={summary.reward_std:.4f} ")
    print(f"frac_reward_zero_std={summary.frac_reward_zero_std:.3f}")
    for name, stats in summary.rewards.items():
        print(f"rewards/{name}/mean={stats['mean']:.4f} rewards/{name}/std={stats['std']:.4f}")
    for p in summary.prompts:
        mark = "NO SIGNAL" if p["zero_std"] else "signal"
        print(f"  [{mark:>9}] mean={p['mean']:.3f} std={p['std']:.3f}  {p['prompt'][:70]}")
    for pair, rho in summary.correlations.items():
        print(f"spearman({pair}) = {'n/a (constant)' if rho is None else f'{rho:+.2f}'}")
    for name, share in summary.shares.items():
        print(f"share of spread: {name} {share:.0%}")
    if args.export:
        print(f"{summary.signal_count} prompts with a signal written to {args.export}")
    print(summary.verdict)
    return 0


# --- probe ---------------------------------------------------------------------------------------------------------


def setup_probe(p: argparse.ArgumentParser) -> None:
    _add_rewards(p)
    p.add_argument("--prompt", default="", help="the prompt the completions answer (for copy-the-prompt probes)")
    p.add_argument("--column", action="append", default=[], metavar="NAME=VALUE", help="a dataset column value")
    p.add_argument("--completion", action="append", default=[], metavar="TEXT", help="a real completion; repeat it")
    add_run_fields(p, "scale_rewards", "multi_objective_aggregation")


def run_probe(args: argparse.Namespace) -> int:
    from playground.advantages import AdvantageSettings
    from playground.lab.probe import probe

    choices, funcs, weights = _choices(args)
    columns = column_values(args.column)
    advantage = AdvantageSettings.of(recipe(args, ("scale_rewards", "multi_objective_aggregation")), whole_table=True)
    report = probe(
        choices,
        funcs,
        prompt=args.prompt,
        columns=columns,
        completions=args.completion or None,
        weights=weights,
        advantage=advantage,
    )
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
        return 0
    if not report.findings:
        print(f"No degenerate text of {report.tried} scored at or above the real completions.")
    for f in report.findings:
        print(f"! {f.reward}: {f.why}\n    score={f.score:.3f} text={f.text[:120]!r}")
    return 0
