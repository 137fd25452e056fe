"""The rewards of an export: a copy of the reward library, and a module that builds the chosen rewards from it.

An export holds the `rewards` package as it is (`copy_library`), so a reader sees exactly what scored the completions
and an exported script runs without the playground. `rewards_module.py` (or the script's reward section) builds each
chosen reward as the app does, `build_reward(name, params)` (the same code, parameters and metric name); the user's
custom code is added as written (its `from rewards... import` lines work against the copy).
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import keyword
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import rewards
from playground.errors import PlaygroundError
from playground.scoring import RewardChoice
from rewards.registry import build_reward, get_spec, metric_name


LIBRARY = Path(rewards.__file__).parent
IMPORTS = ["from __future__ import annotations", "from rewards.registry import build_reward"]
_BUILTINS = set(dir(builtins))


@dataclass
class RewardsCode:
    """The parts of a standalone rewards module; `source()` joins them. It needs the library copied beside it."""

    imports: list[str]  # import lines, `from __future__` first
    custom: str  # the user's custom reward code (without its `from __future__` lines), or ""
    wiring: str  # one named reward object per choice, then REWARD_FUNCS and REWARD_WEIGHTS
    names: list[str]  # the module attribute of each choice, in order: `rewards_module.<name>` for `reward_funcs`
    weights: list[float]
    metric_names: list[str] = field(default_factory=list)

    def source(self, docstring: str) -> str:
        parts = [f'"""{docstring}"""', "\n\n".join(self.imports)]
        if self.custom:
            parts.append("# " + "-" * 40 + " Your custom reward code")
            parts.append(self.custom)
        parts.append("# " + "-" * 40 + " The rewards of this run, named as the playground's metrics")
        parts.append(self.wiring)
        return "\n\n\n".join(p.strip("\n") for p in parts if p.strip()) + "\n"


def copy_library(folder: str | Path) -> Path:
    """Copy the `rewards` package into `folder` as it is (its Python files), for the exported code to import."""
    target = Path(folder) / "rewards"
    shutil.copytree(LIBRARY, target, ignore=lambda _, names: [n for n in names if not n.endswith(".py")])
    return target


def rewards_code(
    choices: list[RewardChoice], custom_code: str | None = None, completions_as_text: bool = False
) -> RewardsCode:
    """The chosen rewards as standalone code. Raises `PlaygroundError` when a reward cannot be exported.
    `completions_as_text` (the run spec's) wraps each chosen custom function to get plain strings, as in the app."""
    custom_code = (custom_code or "").strip("\n")
    custom_tree = _parse_custom(custom_code)
    custom_defs, custom_imported = _bound_names(custom_tree) if custom_tree else (set(), set())
    _refuse_playground_imports(custom_tree)
    calls: list[tuple[RewardChoice, str | None]] = []  # (choice, call expression) — None for a custom function
    models: dict[int, str] = {}  # index of a reward model's choice -> the id or folder TRL loads
    for choice in choices:
        if choice.name in custom_defs:
            calls.append((choice, None))
            continue
        _refuse(choice)
        model = reward_model_id(choice)
        if model is not None:
            models[len(calls)] = model
            calls.append((choice, py_literal(model)))
            continue
        params = f", {py_literal(dict(choice.params))}" if choice.params else ""
        calls.append((choice, f"build_reward({py_literal(choice.name)}{params})"))
    if "build_reward" in custom_defs or "build_reward" in custom_imported - _custom_library_names(custom_tree):
        raise PlaygroundError("export.custom_clash", name="build_reward")
    custom = _strip_lines(custom_code, _future_lines(custom_tree))
    used = {"build_reward"} | custom_defs | custom_imported | _BUILTINS
    names, wiring = _wiring(calls, used, models)
    as_text = [c.name for c, call in calls if call is None] if completions_as_text else []
    if as_text:
        custom = custom.rstrip("\n") + "\n\n\n" + AS_TEXT
        wiring = "\n".join(f"{name} = completions_as_text({name})" for name in as_text) + "\n\n" + wiring
    return RewardsCode(
        imports=list(IMPORTS),
        custom=custom,
        wiring=wiring,
        names=names,
        weights=[float(c.weight) for c in choices],
        metric_names=[
            models[i].split("/")[-1] if i in models else c.name if call is None else metric_name(c.name, c.params)
            for i, (c, call) in enumerate(calls)
        ],
    )


# The run's completions_as_text: custom rewards get each completion's text, also when TRL passes chat messages.
AS_TEXT = '''def completions_as_text(func):
    """`func` called with plain strings: the text of each completion's last message when TRL passes chat messages."""

    def on_text(completions, **kwargs):
        texts = [c if isinstance(c, str) else (c[-1].get("content") or "") for c in completions]
        return func(texts, **kwargs)

    on_text.__name__ = func.__name__  # TRL's metric name
    return on_text
'''


def _refuse(choice: RewardChoice) -> None:
    """A reward an export cannot carry (its spec's `export_refusal` says why), also as a term of a formula."""
    spec = get_spec(choice.name)
    if spec.export_refusal:
        raise PlaygroundError(spec.export_refusal)
    if spec.composite:
        for term in build_reward(choice.name, choice.params).func.terms.values():
            _refuse(RewardChoice(term["name"], 1.0, dict(term.get("params") or {})))


def reward_model_id(choice: RewardChoice) -> str | None:
    """The id or folder TRL loads for a reward-model reward (an absolute path for a local folder), else None."""
    model = getattr(build_reward(choice.name, choice.params).func, "trl_reward_func", None)
    if model is None:
        return None
    if not model:
        raise PlaygroundError("export.reward_model")
    path = Path(model).expanduser()
    return str(path.resolve()) if path.is_dir() else model


def _wiring(
    calls: list[tuple[RewardChoice, str | None]], used: set[str], models: dict[int, str]
) -> tuple[list[str], str]:
    """(module attribute of each reward, the code that defines them and REWARD_FUNCS / REWARD_WEIGHTS)."""
    names, lines = [], []
    for i, (choice, call) in enumerate(calls):
        if call is None:
            names.append(choice.name)
            lines.append(f"# {choice.name}: your custom function, weight {choice.weight:g}")
            continue
        name = _free_name(f"reward_{choice.name}", used)
        used.add(name)
        names.append(name)
        if i in models:
            where = "a local folder of the machine that exported this" if Path(models[i]).is_absolute() else "a Hub id"
            lines.append(
                f"# A reward model ({where}): TRL loads it with AutoModelForSequenceClassification (num_labels=1),\n"
                f"# scores prompt + completion and logs rewards/{models[i].split('/')[-1]}/mean.\n{name} = {call}"
            )
            continue
        line = f"{name} = {call}"
        if len(line) > 119:  # build_reward(\n    "name",\n    {params},\n)
            reward, params = call.removeprefix("build_reward(").removesuffix(")").split(", ", 1)
            line = f"{name} = build_reward(\n    {reward},\n    {params},\n)"
        lines.append(line)
    lines.append("")
    lines.append(_assign_list("REWARD_FUNCS", names))
    lines.append(_assign_list("REWARD_WEIGHTS", [py_literal(float(c.weight)) for c, _ in calls]))
    return names, "\n".join(lines)


def reward_sources(choice: RewardChoice) -> str:
    """The library source of one reward: its factory and the callable it returns (`inspect.getsource`)."""
    spec = get_spec(choice.name)
    func = build_reward(choice.name, choice.params).func
    target = func if inspect.isfunction(func) else type(func)
    parts = []
    if _is_module_level(spec.factory):
        parts.append(inspect.getsource(spec.factory))
    parts.append(inspect.getsource(target))
    return "\n\n\n".join(p.strip("\n") for p in parts) + "\n"


def _is_module_level(func) -> bool:
    module = inspect.getmodule(func)
    return module is not None and getattr(module, func.__name__, None) is func


def py_literal(value: object) -> str:
    """A Python literal for a JSON-like value, with double-quoted strings as ruff formats them."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(py_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{py_literal(k)}: {py_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _assign_list(name: str, items: list[str]) -> str:
    line = f"{name} = [{', '.join(items)}]"
    if len(line) <= 119:
        return line
    return f"{name} = [\n" + "".join(f"    {item},\n" for item in items) + "]"


def _free_name(name: str, used: set[str]) -> str:
    name = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    candidate, n = name, 2
    while candidate in used or keyword.iskeyword(candidate):
        candidate, n = f"{name}_{n}", n + 1
    return candidate


# --- the user's custom code ----------------------------------------------------------------------------------------


def _parse_custom(code: str) -> ast.Module | None:
    if not code.strip():
        return None
    try:
        return ast.parse(code)
    except SyntaxError as exc:
        raise PlaygroundError("export.syntax", line=exc.lineno, detail=exc.msg) from None


def _bound_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """Top-level names that code binds: (by functions, classes and assignments, by imports)."""
    names: set[str] = set()
    imported: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imported.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names, imported


def _custom_library_names(tree: ast.Module | None) -> set[str]:
    """Names custom code imports from the library itself (`from rewards._text import completion_text`): the same
    objects the exported imports bind, so no clash."""
    if tree is None:
        return set()
    return {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "rewards"
        for alias in node.names
    }


def _refuse_playground_imports(tree: ast.Module | None) -> None:
    """An export carries the reward library, not the playground: custom code that imports the playground stays here."""
    for node in ast.walk(tree) if tree is not None else ():
        modules = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and not node.level:
            modules = [node.module or ""]
        for module in modules:
            if module.split(".")[0] == "playground":
                raise PlaygroundError("export.custom_playground", module=module)


def _future_lines(tree: ast.Module | None) -> list[range]:
    if tree is None:
        return []
    return [
        range(n.lineno, n.end_lineno + 1)
        for n in tree.body
        if isinstance(n, ast.ImportFrom) and n.module == "__future__"
    ]


def _strip_lines(code: str, ranges: list[range]) -> str:
    drop = {line for r in ranges for line in r}
    return "\n".join(line for i, line in enumerate(code.splitlines(), start=1) if i not in drop).strip("\n")
