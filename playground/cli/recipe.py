"""Rewards of a `trl grpo` YAML file: its `reward_funcs` and `reward_weights` as the run spec's reward choices.

An entry is read without running any code:

- `module.name` in a `module.py` beside the YAML file (what a playground export writes): `name = build_reward(
  "reward", {params})` is that library reward with those literal parameters, a top-level
  `def name(completions, **kwargs)` is custom code (it runs in the sandbox, as any custom reward), and a string
  `name = "org/model"` is a reward model;
- one of TRL's own reward names (`accuracy_reward`, `think_format_reward`): the library's copy of it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from playground.errors import PlaygroundError
from playground.scoring import RewardChoice


TRL_REWARDS = {"accuracy_reward": "accuracy", "think_format_reward": "think_format"}  # trl.rewards -> the library
CUSTOM_HEADER = "Your custom reward code"  # the section of an exported rewards module that holds the user's code


def recipe_rewards(
    config: Path, reward_funcs: list[str], reward_weights: list[float] | None
) -> tuple[list[RewardChoice], str | None]:
    """(reward choices, custom code) for a YAML file's `reward_funcs`, weighted by `reward_weights` (default 1.0)."""
    weights = list(reward_weights or [1.0] * len(reward_funcs))
    if len(weights) != len(reward_funcs):
        raise PlaygroundError("cli.recipe_weights", config=config.name, count=len(weights), n=len(reward_funcs))
    choices, custom = [], []
    for entry, weight in zip(reward_funcs, weights, strict=True):
        module, _, attr = entry.rpartition(".")
        if not module:
            if entry not in TRL_REWARDS:
                raise PlaygroundError("cli.recipe_entry", config=config.name, entry=entry)
            choices.append(RewardChoice(TRL_REWARDS[entry], float(weight)))
            continue
        path = config.parent / (module.replace(".", "/") + ".py")
        choice, code = _module_reward(path, attr, float(weight))
        choices.append(choice)
        if code and code not in custom:
            custom.append(code)
    return choices, "\n\n\n".join(custom) or None


def _module_reward(path: Path, attr: str, weight: float) -> tuple[RewardChoice, str | None]:
    try:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, SyntaxError) as exc:
        raise PlaygroundError("cli.recipe_module", path=str(path), error=str(exc)) from None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == attr:
            return RewardChoice(attr, weight), _custom_section(source, tree, node)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == attr for t in node.targets):
            return _assigned_reward(path, attr, node.value, weight), None
    raise PlaygroundError("cli.recipe_no_reward", file=path.name, name=attr)


def _assigned_reward(path: Path, attr: str, value: ast.expr, weight: float) -> RewardChoice:
    from rewards.registry import resolve_params

    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return RewardChoice("reward_model", weight, {"model": value.value})
    unreadable = PlaygroundError("cli.recipe_unreadable", file=path.name, name=attr)
    if not (isinstance(value, ast.Call) and getattr(value.func, "id", None) == "build_reward" and not value.keywords):
        raise unreadable
    try:
        name, *rest = (ast.literal_eval(arg) for arg in value.args)  # build_reward("reward", {params})
        params = dict(rest[0]) if rest else {}
        resolve_params(name, params)
    except (TypeError, ValueError, PlaygroundError):
        raise unreadable from None
    return RewardChoice(name, weight, params)


def _custom_section(source: str, tree: ast.Module, node: ast.AST) -> str:
    """The user's code of an exported module (its marked section), or else the function; after the module's imports."""
    lines = source.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("# ---") and CUSTOM_HEADER in line]
    if starts:
        rest = [i for i, line in enumerate(lines) if i > starts[0] and line.startswith("# ---")]
        code = "\n".join(lines[starts[0] + 1 : rest[0] if rest else len(lines)]).strip()
    else:
        code = ast.get_source_segment(source, node) or ""
    imports = [ast.get_source_segment(source, n) for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    return "\n".join([*(i for i in imports if i and "__future__" not in i), "", "", code]) + "\n"
