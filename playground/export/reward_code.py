"""The rewards of an export: a copy of the reward library, and a module that imports the chosen rewards from it.

An export holds the `rewards` package as it is (`copy_library`), so a reader sees exactly what scored the completions
and an exported script runs without the playground. `rewards_module.py` (or the script's reward section) imports each
chosen reward's factory from it, builds the rewards with the run's parameters and names them as the playground's
metrics; the user's custom code is added as written (its `from rewards... import` lines work against the copy).
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
from rewards.formula import FormulaReward
from rewards.registry import NamedReward, build_reward, get_spec, metric_name, resolve_params


LIBRARY = Path(rewards.__file__).parent
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
    imported: dict[str, set[str]] = {NamedReward.__module__: {NamedReward.__name__}}  # module -> names
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
        if get_spec(choice.name).composite:
            call = _formula_call(choice, imported)
        else:
            module, name, call = _factory_call(choice)
            imported.setdefault(module, set()).add(name)
        calls.append((choice, call))
    library_names = {name for names in imported.values() for name in names}
    clash = sorted(
        custom_defs & library_names | (custom_imported & library_names) - _custom_library_names(custom_tree)
    )
    if clash:
        raise PlaygroundError("export.custom_clash", name=clash[0])
    custom = _strip_lines(custom_code, _future_lines(custom_tree))
    used = library_names | custom_defs | custom_imported | _BUILTINS
    names, wiring = _wiring(calls, used, models)
    as_text = [c.name for c, call in calls if call is None] if completions_as_text else []
    if as_text:
        custom = custom.rstrip("\n") + "\n\n\n" + AS_TEXT
        wiring = "\n".join(f"{name} = completions_as_text({name})" for name in as_text) + "\n\n" + wiring
    return RewardsCode(
        imports=["from __future__ import annotations", _import_lines(imported)],
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
    """A reward an export cannot carry (its spec's `export_refusal` says why). A formula is carried: its terms are
    built here, see `_formula_call`."""
    refusal = get_spec(choice.name).export_refusal
    if refusal:
        raise PlaygroundError(refusal)


def reward_model_id(choice: RewardChoice) -> str | None:
    """The id or folder TRL loads for a reward-model reward (an absolute path for a local folder), else None."""
    model = getattr(build_reward(choice.name, choice.params).func, "trl_reward_func", None)
    if model is None:
        return None
    if not model:
        raise PlaygroundError("export.reward_model")
    path = Path(model).expanduser()
    return str(path.resolve()) if path.is_dir() else model


def _formula_call(choice: RewardChoice, imported: dict[str, set[str]]) -> str:
    """`FormulaReward(expression, {variable: NamedReward(<factory call>, <metric>)})`: the formula's terms built from
    their factories here, as the registry builds them in the app."""
    formula = build_reward(choice.name, choice.params).func
    imported.setdefault(FormulaReward.__module__, set()).add(FormulaReward.__name__)
    terms = []
    for var, term in formula.terms.items():
        sub = RewardChoice(term["name"], 1.0, dict(term.get("params") or {}))
        _refuse(sub)
        module, name, call = _factory_call(sub)
        imported.setdefault(module, set()).add(name)
        terms.append(f"{py_literal(var)}: NamedReward({call}, {py_literal(metric_name(sub.name, sub.params))})")
    body = "".join(f"            {term},\n" for term in terms)
    return f"FormulaReward(\n        {py_literal(formula.expression)},\n        {{\n{body}        }},\n    )"


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
        metric = py_literal(metric_name(choice.name, choice.params))
        line = f"{name} = NamedReward({call}, {metric})"
        wrap = len(line) > 119 or "\n" in call
        lines.append(f"{name} = NamedReward(\n    {call},\n    {metric},\n)" if wrap else line)
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


# --- the factory call of a library reward --------------------------------------------------------------------------


def _is_module_level(func) -> bool:
    module = inspect.getmodule(func)
    return module is not None and getattr(module, func.__name__, None) is func


def _factory_call(choice: RewardChoice) -> tuple[str, str, str]:
    """(module, name, call expression) that rebuilds the reward: `get_length_reward(ideal_length=50)`."""
    spec = get_spec(choice.name)
    params = resolve_params(choice.name, choice.params)
    if _is_module_level(spec.factory):
        args = ", ".join(f"{k}={py_literal(v)}" for k, v in params.items())
        return spec.factory.__module__, spec.factory.__name__, f"{spec.factory.__name__}({args})"
    # A factory made on the fly (the registry's wrapper of a plain function) returns a module-level function.
    func = spec.factory(**params)
    if params or not inspect.isfunction(func) or not _is_module_level(func):
        raise PlaygroundError("export.factory", name=choice.name)
    return func.__module__, func.__name__, func.__name__


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


def _import_lines(imported: dict[str, set[str]]) -> str:
    """One `from rewards.<module> import ...` line per module, sorted as isort sorts them."""
    lines = []
    for module in sorted(imported):
        names = sorted(imported[module], key=lambda n: (not n.isupper(), not n[:1].isupper(), n))
        line = f"from {module} import {', '.join(names)}"
        if len(line) > 119:
            line = f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"
        lines.append(line)
    return "\n".join(lines)
