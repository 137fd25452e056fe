"""`python -m playground check-reward FILE.py [--cases CASES.jsonl] [--json]`: check custom reward code.

Parses the file, loads it in a sandbox worker, calls each reward once on the trial completions, then runs the cases.
Exit codes: 0 valid and every case passes, 1 a case fails, 2 the file (or the cases file) is invalid.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from playground.cli.args import column_values
from playground.errors import PlaygroundError, RewardError
from playground.texts import msg


def setup_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", help="a Python file defining rewards: def name(completions, **kwargs) -> list[float]")
    p.add_argument(
        "--cases",
        metavar="CASES.jsonl",
        help='unit cases, one JSON object a line: {"function", "completion", "prompt"?, "columns"?, '
        '"expected"?, "min"?, "max"?}; a case without "expected", "min" or "max" only checks that the reward returns '
        "a value (a chat case of one message: the value its text gets; of several messages it fails)",
    )
    p.add_argument(
        "--column",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a dataset column for the trial run (default: the columns of the function's first case)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run_check(args: argparse.Namespace) -> int:
    from playground.reward_tests import load_cases
    from playground.sandbox import CodeIssue, close_rewards, compile_rewards, inspect_code, require_custom_code

    require_custom_code()
    path = Path(args.file)
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PlaygroundError(
            "cli.cannot_read", path=str(path), error=getattr(exc, "strerror", None) or str(exc)
        ) from None
    cases = load_cases(args.cases) if args.cases else []
    columns = column_values(args.column)
    report = inspect_code(source)
    trial, results = [], []
    if report.ok:
        try:
            rewards = compile_rewards(source)
        except RewardError as exc:
            report.errors.append(CodeIssue(None, str(exc), getattr(exc, "line", None)))
        else:
            try:
                trial = _trial(rewards, cases, columns)
                report.errors += [CodeIssue(t.function, t.error, t.line) for t in trial if t.error]
                if not report.errors:
                    from playground.reward_tests import run_cases

                    results = run_cases(rewards, cases)
            finally:
                close_rewards(rewards)
    _print(path, report, trial, results, args.json)
    if report.errors:
        return 2
    return 0 if all(r.passed for r in results) else 1


def _trial(rewards: dict, cases: list, columns: dict[str, str]) -> list:
    """Each function on the trial completions, with `--column` values or else its first case's columns."""
    from playground.sandbox import TRIAL_COMPLETIONS, trial_run

    n = len(TRIAL_COMPLETIONS)
    out = []
    for name, func in rewards.items():
        own = columns or next((c.columns for c in cases if c.function == name), {})
        (result,) = trial_run({name: func}, columns={k: [v] * n for k, v in own.items()})
        if result.error and not own and (" raised KeyError: " in result.error or "required" in result.error):
            hint = msg("cli.trial_no_columns")
            result.error = f"{result.error.rstrip('.')}. {hint}"
        out.append(result)
    return out


def _print(path: Path, report, trial: list, results: list, as_json: bool) -> None:
    if as_json:
        data: dict[str, Any] = report.to_json()
        data["ok"] = report.ok and all(r.passed for r in results)
        data["cases"] = [r.to_json() for r in results]
        data["trial"] = [
            {"function": t.function, "values": t.values, "flags": t.flags, "output": t.output} for t in trial
        ]
        print(json.dumps(data, ensure_ascii=False))
        return
    if report.functions:
        print(f"{path}: {len(report.functions)} reward function(s): {', '.join(report.functions)}")
    for issue in report.errors:
        where = " ".join(x for x in (f"line {issue.line}" if issue.line else "", issue.function or "") if x)
        print(f"error{f' ({where})' if where else ''}: {issue.message}")
    for t in trial:
        if t.values is not None:
            print(f"trial {t.function}: {['None' if v is None else round(v, 4) for v in t.values]}")
        for flag in t.flags:
            print(f"  ! {flag}")
        if t.output.strip():
            print("  printed: " + t.output.strip().replace("\n", "\n           ")[:2000])
    for r in results:
        print(r.describe())
    if results:
        print(f"{sum(r.passed for r in results)} of {len(results)} cases passed")
