"""`python -m playground export` and `push`: a run as a TRL recipe, a script, an adapter zip, a merged model, or on
the Hugging Face Hub."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playground.errors import PlaygroundError


FORMATS = ("trl-recipe", "script", "adapter", "merged")
SPEC_FORMATS = ("trl-recipe", "script")  # the ones a bare spec (no trained run) can give


def _add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", help="a run folder, or a run id in --runs")
    p.add_argument("--runs", default=None, help="runs folder (default: $PLAYGROUND_RUNS or ./runs)")


def _get_run(args: argparse.Namespace):
    from playground.training.store import Run, RunStore

    path = Path(args.run)
    return Run(path) if (path / "spec.json").is_file() else RunStore(args.runs).get(args.run)


def setup_export(p: argparse.ArgumentParser) -> None:
    _add_run_args(p)
    p.add_argument("--spec", help="a run spec JSON file instead of a run (for trl-recipe and script)")
    p.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    p.add_argument("--out", required=True, help="a new (or empty) folder; for adapter, a .zip path or a folder")


def run_export(args: argparse.Namespace) -> int:
    from playground.export import export_adapter_zip, export_merged, export_recipe, export_script

    if bool(args.run) == bool(args.spec):
        raise PlaygroundError("cli.run_or_spec")
    if args.spec:
        if args.format not in SPEC_FORMATS:
            raise PlaygroundError("cli.format_needs_run", format=args.format)
        from playground.cli.train import load_spec_file

        source = load_spec_file(args.spec)
    else:
        source = _get_run(args)
    writer = {
        "trl-recipe": export_recipe,
        "script": export_script,
        "adapter": export_adapter_zip,
        "merged": export_merged,
    }[args.format]
    out = writer(source, args.out)
    print(out)
    return 0


def setup_push(p: argparse.ArgumentParser) -> None:
    _add_run_args(p)
    p.add_argument("--repo_id", required=True, help="the model repo, 'your-name/model-name'")
    p.add_argument("--kind", default="adapter", choices=("adapter", "merged"), help="what to upload")
    p.add_argument("--public", action="store_true", help="make a new repo public (default: private)")
    p.epilog = "The token is read from HF_TOKEN or a stored `hf auth login`, never from the command line."


def run_push(args: argparse.Namespace) -> int:
    from playground.export.hub import push_to_hub

    if not args.run:
        raise PlaygroundError("cli.give_run")
    result = push_to_hub(_get_run(args), args.repo_id, kind=args.kind, private=not args.public)
    print(result.url)
    print(f"files: {result.folder}", file=sys.stderr)
    return 0
