"""Inline the chosen library rewards into one standalone Python module, for recipes and scripts that run without the
playground installed.

Only what the chosen rewards need is copied, definition by definition: each reward's factory (or plain function),
then every top-level name it refers to, followed through the `rewards` and `playground` modules they import from.
Imports of other packages (`re`, `trl.rewards`, ...) are kept as imports. The copied code is the library's own source,
docstrings and comments included, so a reader sees exactly what scored the completions.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import inspect
import json
import keyword
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from playground.errors import PlaygroundError
from playground.scoring import RewardChoice
from rewards.formula import FormulaReward
from rewards.registry import NamedReward, build_reward, get_spec, metric_name, resolve_params


INTERNAL_PACKAGES = ("rewards", "playground")  # what is inlined; everything else stays an import
_BUILTINS = set(dir(builtins))


@dataclass
class RewardsCode:
    """The parts of a standalone rewards module; `source()` joins them."""

    imports: list[str]  # import lines, `from __future__` first
    library: str  # the inlined library definitions
    custom: str  # the user's custom reward code (internal imports removed), or ""
    wiring: str  # one named reward object per choice, then REWARD_FUNCS and REWARD_WEIGHTS
    names: list[str]  # the module attribute of each choice, in order: `rewards_module.<name>` for `reward_funcs`
    weights: list[float]
    metric_names: list[str] = field(default_factory=list)

    def source(self, docstring: str) -> str:
        parts = [f'"""{docstring}"""', "\n\n".join(self.imports)]
        if self.library:
            parts.append("# " + "-" * 40 + " Library rewards (inlined from the playground's `rewards` package)")
            parts.append(self.library)
        if self.custom:
            parts.append("# " + "-" * 40 + " Your custom reward code")
            parts.append(self.custom)
        parts.append("# " + "-" * 40 + " The rewards of this run, named as the playground's metrics")
        parts.append(self.wiring)
        return "\n\n\n".join(p.strip("\n") for p in parts if p.strip()) + "\n"


def rewards_code(
    choices: list[RewardChoice], custom_code: str | None = None, completions_as_text: bool = False
) -> RewardsCode:
    """The chosen rewards as standalone code. Raises `PlaygroundError` when a custom reward cannot be exported.
    `completions_as_text` (the run spec's) wraps each chosen custom function to get plain strings, as in the app."""
    custom_code = (custom_code or "").strip("\n")
    custom_tree = _parse_custom(custom_code)
    custom_defs, custom_imported = _bound_names(custom_tree) if custom_tree else (set(), set())
    roots: list[tuple[str, str]] = [(NamedReward.__module__, NamedReward.__name__)]
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
        if choice.name == "formula":
            call = _formula_call(choice, roots)
        else:
            module, name, call = _factory_call(choice)
            roots.append((module, name))
        calls.append((choice, call))
    custom_imports = _internal_imports(custom_tree) if custom_tree else []
    roots += [(module, name) for module, name, _ in custom_imports]
    library = _Inliner().run(roots)
    inlined_here = {n for _, n, _ in custom_imports}
    clash = sorted(
        custom_defs & (library.defined | library.imported) | (custom_imported - inlined_here) & library.defined
    )
    if clash:
        raise PlaygroundError("export.custom_clash", name=clash[0])
    custom = _strip_lines(custom_code, [lines for _, _, lines in custom_imports] + _future_lines(custom_tree))
    used = library.defined | library.imported | custom_defs | custom_imported | _BUILTINS
    names, wiring = _wiring(calls, used, models)
    as_text = [c.name for c, call in calls if call is None] if completions_as_text else []
    if as_text:
        custom = custom.rstrip("\n") + "\n\n\n" + AS_TEXT
        wiring = "\n".join(f"{name} = completions_as_text({name})" for name in as_text) + "\n\n" + wiring
    return RewardsCode(
        imports=library.imports,
        library=library.code,
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


def _formula_call(choice: RewardChoice, roots: list[tuple[str, str]]) -> str:
    """`FormulaReward(expression, {variable: NamedReward(<factory call>, <metric>)})`: the formula's terms built from
    their factories here, as the registry builds them in the app, and the formula's own evaluator inlined."""
    formula = build_reward(choice.name, choice.params).func
    roots.append((FormulaReward.__module__, FormulaReward.__name__))
    terms = []
    for var, term in formula.terms.items():
        sub = RewardChoice(term["name"], 1.0, dict(term.get("params") or {}))
        _refuse(sub)
        module, name, call = _factory_call(sub)
        roots.append((module, name))
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


def _is_internal(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in INTERNAL_PACKAGES


def _internal_imports(tree: ast.Module) -> list[tuple[str, str, range]]:
    """`from rewards._text import completion_text` in custom code: (module, name, its lines), to inline instead."""
    out = []
    for node in tree.body:
        if isinstance(node, ast.Import) and any(_is_internal(a.name) for a in node.names):
            raise PlaygroundError("export.whole_module")
        if isinstance(node, ast.ImportFrom) and _is_internal(node.module):
            for alias in node.names:
                if alias.asname and alias.asname != alias.name:
                    raise PlaygroundError("export.custom_alias", name=alias.name, alias=alias.asname)
                out.append((node.module, alias.name, range(node.lineno, node.end_lineno + 1)))
    return out


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


# --- inlining library definitions ----------------------------------------------------------------------------------


@dataclass
class _Module:
    name: str
    lines: list[str]
    defs: dict[str, ast.stmt]  # top-level name -> its defining statement
    imports: dict[str, tuple[str | None, str, int]]  # bound name -> (module or None for `import x`, name, level)


@lru_cache(maxsize=32)
def _load(module: str) -> _Module:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.origin:
        raise PlaygroundError("export.no_source", module=module)
    with open(spec.origin, encoding="utf-8") as f:
        text = f.read()
    tree = ast.parse(text)
    defs: dict[str, ast.stmt] = {}
    imports: dict[str, tuple[str | None, str, int]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            defs[node.name] = node
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    defs[target.id] = node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                imports[alias.asname or alias.name.split(".")[0]] = (None, alias.name, 0)
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            for alias in node.names:
                imports[alias.asname or alias.name] = (node.module, alias.name, node.level)
    return _Module(module, text.splitlines(), defs, imports)


def _referenced(node: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _check_no_internal_imports(module: str, node: ast.stmt) -> None:
    for inner in ast.walk(node):
        if (
            isinstance(inner, ast.ImportFrom)
            and _is_internal(inner.module)
            or (isinstance(inner, ast.Import) and any(_is_internal(a.name) for a in inner.names))
        ):
            raise PlaygroundError("export.inline_nested", module=module)


@dataclass
class _Inlined:
    imports: list[str]
    code: str
    defined: set[str]  # names the inlined definitions bind
    imported: set[str]  # names the kept imports bind


class _Inliner:
    def __init__(self):
        self.nodes: dict[tuple[str, int], tuple[str, ast.stmt]] = {}  # (module, line) -> (module, statement)
        self.owner: dict[str, str] = {}  # emitted name -> module, to catch two definitions of one name
        self.external: set[tuple[str | None, str, str]] = set()  # (module, name, bound name)
        self.module_deps: dict[str, set[str]] = {}

    def run(self, roots: list[tuple[str, str]]) -> _Inlined:
        for module, name in roots:
            self._add(module, name)
        order = self._module_order()
        chosen = sorted(self.nodes.values(), key=lambda mn: (order.index(mn[0]), mn[1].lineno))
        blocks = [self._source(module, node) for module, node in chosen]
        return _Inlined(self._import_lines(), "\n\n\n".join(blocks), set(self.owner), {b for *_, b in self.external})

    def _add(self, module: str, name: str) -> None:
        mod = _load(module)
        self.module_deps.setdefault(module, set())
        if name in mod.defs:
            node = mod.defs[name]
            if (module, node.lineno) in self.nodes:
                return
            if self.owner.get(name, module) != module:
                raise PlaygroundError("export.inline_twice", name=name, first=self.owner[name], second=module)
            _check_no_internal_imports(module, node)
            self.nodes[(module, node.lineno)] = (module, node)
            self.owner[name] = module
            for ref in sorted(_referenced(node) - {name}):
                self._resolve(mod, ref)
        elif name in mod.imports:
            self._resolve(mod, name)
        else:
            raise PlaygroundError("export.inline_missing", name=name, module=module)

    def _resolve(self, mod: _Module, ref: str) -> None:
        if ref in mod.defs:
            self._add(mod.name, ref)
        elif ref in mod.imports:
            source, name, level = mod.imports[ref]
            if level:
                raise PlaygroundError("export.inline_relative", module=mod.name)
            if source is not None and _is_internal(source):
                if ref != name:
                    raise PlaygroundError("export.inline_alias", module=mod.name, name=name, alias=ref)
                self.module_deps[mod.name].add(source)
                self._add(source, name)
            elif source is None and _is_internal(name):
                raise PlaygroundError("export.inline_attribute", module=mod.name, name=name)
            else:
                self.external.add((source, name, ref))
        # anything else is a builtin or a local variable

    def _module_order(self) -> list[str]:
        order: list[str] = []

        def visit(module: str, seen: tuple[str, ...] = ()) -> None:
            if module in order or module in seen:
                return
            for dep in sorted(self.module_deps.get(module, ())):
                visit(dep, (*seen, module))
            order.append(module)

        for module in sorted(self.module_deps):
            visit(module)
        return order

    def _source(self, module: str, node: ast.stmt) -> str:
        lines = _load(module).lines
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        while start > 1 and lines[start - 2].startswith("#"):  # the comment just above the definition
            start -= 1
        return "\n".join(lines[start - 1 : node.end_lineno])

    def _import_lines(self) -> list[str]:
        """`from __future__`, then the standard library, then other packages, as isort orders them."""
        groups: tuple[list[str], list[str]] = ([], [])
        froms: dict[str, list[str]] = {}
        for module, name, bound in sorted(self.external, key=lambda e: (e[0] or "", e[1])):
            alias = name if name == bound else f"{name} as {bound}"
            if module is None:
                groups[not _is_stdlib(name)].append(f"import {alias}")
            else:
                froms.setdefault(module, []).append(alias)
        for module, names in froms.items():
            line = f"from {module} import {', '.join(names)}"
            if len(line) > 119:
                line = f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"
            groups[not _is_stdlib(module)].append(line)
        blocks = ["\n".join(sorted(g, key=_import_key)) for g in groups if g]
        return ["from __future__ import annotations", *blocks]


def _is_stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def _import_key(line: str) -> tuple[bool, str]:
    words = line.split()  # `import x` lines first, then `from x import y`, each sorted by module
    return (words[0] == "from", words[1])
