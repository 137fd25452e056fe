"""Formula reward: combine named rewards with an arithmetic expression, e.g. `length if format == 1 else -100`.

The expression is parsed with `ast` and walked by a small interpreter that knows only numbers, the named rewards,
`+ - * / **` (`^` is `**`), comparisons, `and`/`or`/`not`, `x if cond else y` and the functions `min`, `max`, `abs`,
`floor`, `ceil`, `exp`, `sqrt`, `log`, `clip` and `gate`; anything else (attributes, subscripts, other calls, strings,
lambdas) is refused when the reward is built. Nothing is ever passed to `eval`. Every value is a float, so no
expression builds a huge integer: a power has an exponent of at most 10 in absolute value, and one that overflows
fails with a message (a product that overflows is infinite, and the reward `None`). Each completion's value thus costs
one float operation per node of a tree of at most `MAX_LENGTH` characters.
"""

from __future__ import annotations

import ast
import json
import math
import operator
from typing import Any

from rewards.errors import RewardError
from rewards.registry import build_reward


def _clip(x: float, low: float, high: float) -> float:
    return min(max(x, low), high)


def _gate(condition: float, value: float, otherwise: float = 0.0) -> float:
    """`value` where `condition` is truthy (e.g. format == 1), else `otherwise`."""
    return value if condition else otherwise


def _math(func):
    """A math function that gives NaN (the reward then reads None) outside its domain or range, e.g. log(0)."""

    def safe(x: float) -> float:
        try:
            return float(func(x))
        except (ValueError, OverflowError):
            return math.nan

    safe.__name__ = func.__name__
    return safe


# OpenAI's multi grader functions (min, max, abs, floor, ceil, exp, sqrt, log), plus clip and gate.
FUNCTIONS = {"min": min, "max": max, "abs": abs, "clip": _clip, "gate": _gate}
FUNCTIONS.update({f.__name__: _math(f) for f in (math.floor, math.ceil, math.exp, math.sqrt, math.log)})
_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
MAX_LENGTH = 500


def parse(expression: str, names: set[str] | None = None) -> ast.Expression:
    """Parse and check `expression`; `names` limits the variables (None: any identifier). Raises RewardError."""
    if not isinstance(expression, str) or not expression.strip():
        raise RewardError("reward.formula_empty")
    if len(expression) > MAX_LENGTH:
        raise RewardError("reward.formula_long", max=MAX_LENGTH)
    try:
        # `^` is power, as in OpenAI's multi grader formulas (Python would read it as XOR, meaningless on scores).
        tree = ast.parse(expression.strip().replace("^", "**"), mode="eval")
    except SyntaxError as exc:
        raise RewardError("reward.formula_syntax", formula=expression, error=exc.msg) from None
    for node in ast.walk(tree):
        _check(node, names, expression)
    return tree


def _check(node: ast.AST, names: set[str] | None, expression: str) -> None:
    allowed = (
        ast.Expression,
        ast.BinOp,
        ast.UnaryOp,
        ast.Compare,
        ast.BoolOp,
        ast.IfExp,
        ast.Call,
        ast.Name,
        ast.Constant,
        ast.Load,
        ast.And,
        ast.Or,
        ast.Not,
        ast.USub,
        ast.UAdd,
        *_BINARY,
        *_COMPARE,
    )
    if not isinstance(node, allowed):
        raise RewardError("reward.formula_node", formula=expression, node=type(node).__name__)
    if isinstance(node, ast.Constant) and (isinstance(node.value, bool) or not isinstance(node.value, int | float)):
        raise RewardError("reward.formula_constant", formula=expression, value=node.value)
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS or node.keywords:
            raise RewardError("reward.formula_call", formula=expression, functions=", ".join(FUNCTIONS))
    elif isinstance(node, ast.Name) and names is not None and node.id not in names | set(FUNCTIONS):
        raise RewardError("reward.formula_name", formula=expression, name=node.id, names=", ".join(sorted(names)))


def variables(tree: ast.Expression) -> list[str]:
    """The reward names an expression reads, in order of first use."""
    seen: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id not in FUNCTIONS and node.id not in seen:
            seen.append(node.id)
    return seen


def evaluate(node: ast.AST, values: dict[str, float]) -> float:
    """Walk a checked tree with the given variable values."""
    if isinstance(node, ast.Expression):
        return evaluate(node.body, values)
    if isinstance(node, ast.Constant):
        return float(node.value)  # never a Python int: `9 ** 10 ** ...` would grow without bound
    if isinstance(node, ast.Name):
        return float(values[node.id])
    if isinstance(node, ast.BinOp):
        left, right = evaluate(node.left, values), evaluate(node.right, values)
        if isinstance(node.op, ast.Div) and right == 0:
            return 0.0  # a reward must stay finite; x / 0 reads 0
        if isinstance(node.op, ast.Pow) and abs(right) > 10:
            raise RewardError("reward.formula_power")
        if isinstance(node.op, ast.Pow) and left == 0 and right < 0:
            return 0.0  # 0 ^ -1 is 1 / 0, which reads 0
        if isinstance(node.op, ast.Pow) and left < 0 and not right.is_integer():
            return math.nan  # not a real number (Python gives a complex one): that completion scores None
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp):
        operand = evaluate(node.operand, values)
        return {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}[type(node.op)](operand)
    if isinstance(node, ast.BoolOp):
        results = [evaluate(v, values) for v in node.values]
        return all(results) if isinstance(node.op, ast.And) else any(results)
    if isinstance(node, ast.Compare):
        left = evaluate(node.left, values)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = evaluate(comparator, values)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.IfExp):
        return evaluate(node.body if evaluate(node.test, values) else node.orelse, values)
    if isinstance(node, ast.Call):
        return FUNCTIONS[node.func.id](*(evaluate(a, values) for a in node.args))
    raise RewardError("reward.formula_unexpected", node=type(node).__name__)


def parse_terms(terms: str) -> dict[str, dict[str, Any]]:
    """`terms` as {variable: {"name": reward, "params": {...}}}; "" means every variable is a library reward."""
    if not (terms or "").strip():
        return {}
    try:
        data = json.loads(terms)
    except json.JSONDecodeError as exc:
        raise RewardError("reward.formula_terms_json", error=exc.msg) from None
    if not isinstance(data, dict) or not all(isinstance(v, dict) and "name" in v for v in data.values()):
        raise RewardError("reward.formula_terms_shape")
    return data


def get_formula_reward(expression: str = "length if format == 1 else -100", terms: str = ""):
    r"""
    Reward function that combines other rewards with an expression.

    Args:
        expression (`str`, *optional*, defaults to `"length if format == 1 else -100"`):
            Arithmetic over reward names; never eval'd. Numbers, `+ - * / **` (`^` is `**`), comparisons,
            `and`/`or`/`not`, `a if cond else b`, `min`, `max`, `abs`, `floor`, `ceil`, `exp`, `sqrt`, `log` (NaN
            outside the domain: the reward reads `None`), `clip(x, low, high)`, `gate(cond, value[, otherwise])`.
        terms (`str`, *optional*, defaults to `""`):
            Optional JSON {"a": {"name": "similarity", "params": {...}}}. It binds variables to rewards with
            parameters, e.g. `{"a": {"name": "similarity", "params": {"metric": "bleu"}}}`; without it each variable is
            the library reward of that name, with its defaults.

    Returns:
        `Callable`: A reward function returning the expression's value, or `None` where a term is `None`.

    Example:
    ```python
    >>> get_formula_reward("min(format, 0.5)")(["<intro>a</intro><body>b</body><conclusion>c</conclusion>", "x"])
    [0.5, 0.0]
    ```
    """
    bound = parse_terms(terms)
    tree = parse(expression, set(bound) if bound else None)
    names = variables(tree)
    if not names:
        raise RewardError("reward.formula_no_reward", formula=expression)
    for name in names:
        if name not in bound:
            bound[name] = {"name": name, "params": {}}
        if bound[name]["name"] == "formula":
            raise RewardError("reward.formula_nested")
    return _FormulaReward(expression, {n: bound[n] for n in names})


class FormulaReward:
    """The expression over already built rewards `funcs` ({variable: reward}); `None` where a term is `None`."""

    __name__ = "formula_reward"

    def __init__(self, expression: str, funcs: dict[str, Any]):
        self.expression = expression
        self.funcs = dict(funcs)
        self.tree = parse(expression, set(self.funcs))

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        columns = {var: f(completions, **kwargs) for var, f in self.funcs.items()}
        out: list[float | None] = []
        for i in range(len(completions)):
            values = {var: col[i] for var, col in columns.items()}
            if any(v is None for v in values.values()):
                out.append(None)
                continue
            try:
                value = float(evaluate(self.tree, values))
            except OverflowError:
                raise RewardError("reward.formula_overflow", formula=self.expression) from None
            except RewardError:
                raise  # a RewardError is a ValueError: keep its own message
            except (TypeError, ValueError) as exc:
                raise RewardError("reward.formula_failed", formula=self.expression, error=str(exc)) from exc
            out.append(round(value, 10) if math.isfinite(value) else None)
        return out

    def __getstate__(self):
        return {"expression": self.expression, "funcs": self.funcs}

    def __setstate__(self, state):
        self.__init__(state["expression"], state["funcs"])


class _FormulaReward(FormulaReward):
    """A formula whose terms are library rewards, built from the registry by name and parameters."""

    def __init__(self, expression: str, terms: dict[str, dict[str, Any]]):
        self.terms = terms
        super().__init__(expression, {var: build_reward(t["name"], t.get("params") or {}) for var, t in terms.items()})

    def __getstate__(self):
        return {"expression": self.expression, "terms": self.terms}

    def __setstate__(self, state):
        self.__init__(state["expression"], state["terms"])
