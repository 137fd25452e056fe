"""Unit tests for rewards: cases of one completion each, with the value (or range) the reward should give.

A case is `{"function": NAME, "completion": TEXT, "prompt"?: TEXT, "columns"?: {NAME: VALUE}, "expected"?: float or
null, "min"?: float, "max"?: float}`, given as a list or a JSONL file (one case per line; `#` lines are comments).
`"expected": null` expects None. Without `expected`, `min` or `max` a case passes when the reward returns any value (a
chat case of one message: the value its text gets); a chat case of several messages needs one of them.

>>> cases = load_cases([{"function": "brevity", "completion": "abc", "expected": -3}])
>>> [r.passed for r in run_cases({"brevity": lambda completions, **kw: [-len(c) for c in completions]}, cases)]
[True]
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playground.errors import PlaygroundError, RewardError
from playground.texts import msg


KEYS = {"function", "completion", "prompt", "columns", "expected", "min", "max"}
REL_TOL, ABS_TOL = 1e-6, 1e-9  # `expected` is compared with this tolerance: float sums differ in the last bits


@dataclass
class RewardCase:
    function: str
    completion: Any  # text, or a conversational list of messages
    prompt: Any = ""
    columns: dict[str, Any] = field(default_factory=dict)
    has_expected: bool = False
    expected: float | None = None
    min: float | None = None
    max: float | None = None


@dataclass
class CaseResult:
    index: int  # 1-based, as the file's case number
    case: RewardCase
    passed: bool
    got: float | None
    error: str | None = None

    @property
    def function(self) -> str:
        return self.case.function

    def describe(self) -> str:
        """One line: `case 2 brevity: FAIL got -3, expected -2`."""
        status = "pass" if self.passed else "FAIL"
        if self.error:
            return f"case {self.index} {self.function}: {status} {self.error}"
        return f"case {self.index} {self.function}: {status} got {_fmt(self.got)}{_wanted(self.case)}"

    def to_json(self) -> dict[str, Any]:
        c = self.case
        return {
            "index": self.index,
            "function": c.function,
            "passed": self.passed,
            "got": _json_number(self.got),
            "expected": _json_number(c.expected) if c.has_expected else None,
            "min": c.min,
            "max": c.max,
            "error": self.error,
        }


def _fmt(value: float | None) -> str:
    return "None" if value is None else f"{value:g}"


def _json_number(value: float | None) -> float | str | None:
    return value if value is None or math.isfinite(value) else str(value)  # JSON has no NaN


def _wanted(case: RewardCase) -> str:
    """What the case expects, e.g. `, expected -2 and <= 0`."""
    parts = []
    if case.has_expected:
        parts.append(_fmt(case.expected))
    if case.min is not None:
        parts.append(f">= {case.min:g}")
    if case.max is not None:
        parts.append(f"<= {case.max:g}")
    return (", expected " + " and ".join(parts)) if parts else ""


def _number(data: dict, key: str, where: str, allow_none: bool = False) -> float | None:
    value = data.get(key)
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PlaygroundError("lab_engine.case_number", where=where, key=key, value=value)
    return float(value)


def parse_case(data: Any, where: str) -> RewardCase:
    if not isinstance(data, dict):
        raise PlaygroundError("lab_engine.case_object", where=where, kind=type(data).__name__)
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise PlaygroundError("lab_engine.case_key", where=where, key=unknown[0], keys=", ".join(sorted(KEYS)))
    if not isinstance(data.get("function"), str) or not data["function"]:
        raise PlaygroundError("lab_engine.case_function", where=where)
    if "completion" not in data or not isinstance(data["completion"], str | list):
        raise PlaygroundError("lab_engine.case_completion", where=where)
    columns = data.get("columns") or {}
    if not isinstance(columns, dict):
        raise PlaygroundError("lab_engine.case_columns", where=where)
    case = RewardCase(data["function"], data["completion"], data.get("prompt") or "", dict(columns))
    if "expected" in data:
        case.has_expected = True
        case.expected = _number(data, "expected", where, allow_none=True)
    case.min = _number(data, "min", where) if data.get("min") is not None else None
    case.max = _number(data, "max", where) if data.get("max") is not None else None
    if case.min is not None and case.max is not None and case.min > case.max:
        raise PlaygroundError("lab_engine.case_range", where=where, min=case.min, max=case.max)
    return case


def load_cases(source: str | Path | Sequence[dict]) -> list[RewardCase]:
    """Cases from a JSONL file (a `.json` file may hold a list) or a list of dicts; errors name the line."""
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PlaygroundError("lab_engine.cases_file", path=path, error=exc.strerror) from None
        if path.suffix == ".json":
            return load_cases(_loads(text, str(path)))
        cases = []
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip() and not line.lstrip().startswith("#"):
                cases.append(parse_case(_loads(line, f"{path}, line {number}"), f"{path}, line {number}"))
        return cases
    if not isinstance(source, list | tuple):
        raise PlaygroundError("lab_engine.cases_list", kind=type(source).__name__)
    return [parse_case(data, msg("rewards.tests.where", case=i)) for i, data in enumerate(source, 1)]


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PlaygroundError("lab_engine.case_json", where=where, error=exc.msg) from None


def check_case(case: RewardCase, got: float | None) -> str | None:
    """Why `got` fails the case, or None when it passes."""
    if got is not None and not math.isfinite(got):
        return f"returned {got} (not a finite number)"
    if case.has_expected:
        if case.expected is None:
            return None if got is None else f"got {_fmt(got)}, expected None"
        if got is None or not math.isclose(got, case.expected, rel_tol=REL_TOL, abs_tol=ABS_TOL):
            return f"got {_fmt(got)}, expected {_fmt(case.expected)}"
    if case.min is not None and (got is None or got < case.min):
        return f"got {_fmt(got)}, expected >= {case.min:g}"
    if case.max is not None and (got is None or got > case.max):
        return f"got {_fmt(got)}, expected <= {case.max:g}"
    return None


def run_case(func: Callable, case: RewardCase) -> tuple[float | None, str | None]:
    """Call `func` on the case's single completion: (value, None) or (None, error message)."""
    from playground.scoring import call_reward

    kwargs = {name: [value] for name, value in case.columns.items()}
    try:
        (got,) = call_reward(func, [case.completion], prompts=[case.prompt], **kwargs)
    except RewardError as exc:
        return None, str(exc)
    return got, None


def run_cases(rewards: dict[str, Callable], cases: Sequence[RewardCase | dict]) -> list[CaseResult]:
    """Run each case against `rewards[case.function]` (sandboxed, library or plain functions)."""
    results = []
    for index, case in enumerate(cases, 1):
        if isinstance(case, dict):
            case = parse_case(case, f"Case {index}")
        func = rewards.get(case.function)
        if func is None:
            known = ", ".join(sorted(rewards)) or "none"
            results.append(CaseResult(index, case, False, None, f"no reward named {case.function!r} (known: {known})"))
            continue
        got, error = run_case(func, case)
        passed = error is None and check_case(case, got) is None
        if passed and not _expects_something(case):
            error = _shape_blind(func, case, got)
            passed = error is None
        results.append(CaseResult(index, case, passed, got, error))
    return results


def _expects_something(case: RewardCase) -> bool:
    return case.has_expected or case.min is not None or case.max is not None


def _shape_blind(func: Callable, case: RewardCase, got: float | None) -> str | None:
    """A chat case without an expected value passes on any value, but not on one the reward gives only because it
    read the message list instead of its text: one assistant message must score as its text does (a reward that
    takes `len()` of the list gives -99 for every chat completion where its text gives the real value)."""
    from dataclasses import replace

    from rewards._text import completion_text

    if isinstance(case.completion, str):
        return None
    if len(case.completion) != 1 or not isinstance(case.completion[0], dict):
        # several messages: no single text to compare with, and a value read off the list would pass unseen
        return "a chat case of several messages has no text to check against: give it `expected`, `min` or `max`"
    twin, twin_error = run_case(func, replace(case, completion=completion_text(case.completion)))
    if twin_error is not None or _same(got, twin):
        return None  # a reward that refuses plain text is not this case's concern
    return (
        f"got {_fmt(got)} for the chat message, but {_fmt(twin)} for its text: the reward reads the message list, not"
        " its content (give the case `expected`, `min` or `max` to check a value)"
    )


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
