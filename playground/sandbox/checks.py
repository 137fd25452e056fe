"""Static checks of custom reward code, by parsing it: nothing of the user's code runs in the app's process.

A reward is a top-level function with TRL's signature, `def name(completions, **kwargs)`: TRL calls it with keyword
arguments (`prompts`, `completions`, `completion_ids`, `trainer_state`, the dataset columns, ...). Functions whose
name starts with `_`, and functions without a `completions` parameter, are helpers and are not checked.

>>> inspect_code("def brevity(completions, **kwargs):\\n    return [-len(c) for c in completions]\\n").functions
['brevity']
"""

from __future__ import annotations

import ast
from dataclasses import asdict, dataclass, field

from playground.errors import RewardError
from playground.texts import msg


FILENAME = "custom_reward.py"


@dataclass
class CodeIssue:
    function: str | None
    message: str
    line: int | None = None

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class CodeReport:
    functions: list[str] = field(default_factory=list)
    errors: list[CodeIssue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.functions)

    def raise_for_errors(self) -> None:
        """A `RewardError` with the first error (and its line), if any."""
        if self.errors:
            issue = self.errors[0]
            message = issue_message(issue)
            if len(self.errors) > 1:
                raise RewardError("sandbox.custom_code_more", message=message, count=len(self.errors) - 1)
            raise RewardError("sandbox.custom_code", message=message)

    def to_json(self) -> dict:
        return {"ok": self.ok, "functions": list(self.functions), "errors": [e.to_json() for e in self.errors]}


def issue_message(issue: CodeIssue) -> str:
    """The issue's message, with its line when the message does not name it already."""
    if issue.line and f"line {issue.line}" not in issue.message:
        return msg("sandbox.at_line", message=issue.message, line=issue.line)
    return issue.message


def _signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    return f"`{prefix} {node.name}({ast.unparse(node.args)})`"


def _has_completions(args: ast.arguments) -> bool:
    return any(a.arg == "completions" for a in [*args.posonlyargs, *args.args, *args.kwonlyargs])


def _is_reward(args: ast.arguments) -> bool:
    """`completions` can be passed by keyword (TRL does), and `**kwargs` takes the rest."""
    return any(a.arg == "completions" for a in [*args.args, *args.kwonlyargs]) and args.kwarg is not None


def library_names() -> set[str]:
    from rewards.registry import list_specs

    return {spec.name for spec in list_specs()}


def inspect_code(source: str) -> CodeReport:
    """Check custom reward code without running it.

    Args:
        source (`str`):
            Python source defining one or more reward functions.

    Returns:
        `CodeReport`: the reward functions found, in source order, and each problem with its line.
    """
    report = CodeReport()
    if not source.strip():
        report.errors.append(CodeIssue(None, msg("sandbox.empty", example=msg("sandbox.example"))))
        return report
    try:
        tree = ast.parse(source, filename=FILENAME)
    except SyntaxError as exc:
        if exc.lineno is None:  # e.g. a null byte in the source
            report.errors.append(CodeIssue(None, msg("sandbox.unparsable", detail=exc.msg)))
        else:
            text = (
                msg("sandbox.syntax_column", line=exc.lineno, column=exc.offset, detail=exc.msg)
                if exc.offset
                else msg("sandbox.syntax", line=exc.lineno, detail=exc.msg)
            )
            report.errors.append(CodeIssue(None, text, exc.lineno))
        return report
    except ValueError as exc:  # null bytes, in Python versions that raise ValueError for them
        report.errors.append(CodeIssue(None, msg("sandbox.unparsable", detail=str(exc))))
        return report
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    first_line: dict[str, int] = {}
    for node in defs:
        if node.name in first_line:
            report.errors.append(
                CodeIssue(
                    node.name,
                    msg("sandbox.twice", name=node.name, first=first_line[node.name], second=node.lineno),
                    node.lineno,
                )
            )
        first_line.setdefault(node.name, node.lineno)
    public = [n for n in defs if not n.name.startswith("_")]
    for node in public:
        if _is_reward(node.args):
            if node.name not in report.functions:
                report.functions.append(node.name)
        elif _has_completions(node.args):
            report.errors.append(_signature_issue(node))
    if not report.functions and not report.errors:
        if public:
            report.errors.extend(_signature_issue(node) for node in public)
        else:
            report.errors.append(CodeIssue(None, msg("sandbox.no_function", example=msg("sandbox.example"))))
    clashes = library_names().intersection(report.functions)
    for node in public:
        if node.name in clashes:
            clashes.discard(node.name)
            report.errors.append(
                CodeIssue(
                    node.name,
                    msg("sandbox.library_name", name=node.name),
                    node.lineno,
                )
            )
    return report


def _signature_issue(node: ast.FunctionDef | ast.AsyncFunctionDef) -> CodeIssue:
    return CodeIssue(
        node.name,
        msg("sandbox.signature", signature=_signature(node)),
        node.lineno,
    )
