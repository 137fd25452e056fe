"""Declarative reward registry: name -> `RewardSpec`.

Only the rewards a user selects are built. Factories return plain callables with a stable, unique `__name__`, because
TRL names its metrics `rewards/<__name__>/mean` and two lambdas would collide.
"""

from __future__ import annotations

import hashlib
import inspect
import math
import numbers
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rewards.errors import RewardError


RewardFunc = Callable[..., list[float | None]]


@dataclass(frozen=True)
class Param:
    """One parameter of a reward factory."""

    name: str
    type: type  # int, float, str, bool or list (list of str)
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    loads_model: bool = False  # the value names a model the reward loads (a Hub id or a folder)


@dataclass(frozen=True)
class Example:
    """An example completion, with the extra dataset columns a reward needs (e.g. `solution`)."""

    completion: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    def batch_kwargs(self, n: int = 1) -> dict[str, list[Any]]:
        """`kwargs` as TRL passes dataset columns to a reward: one list entry per completion."""
        return {k: [v] * n for k, v in self.kwargs.items()}


@dataclass(frozen=True)
class RewardSpec:
    name: str
    factory: Callable[..., RewardFunc]
    description: str
    family: str  # "format", "length", "accuracy", "content", "other"
    params: tuple[Param, ...] = ()
    columns: tuple[str, ...] = ()  # dataset columns the reward reads from kwargs
    good: Example | None = None
    bad: Example | None = None
    # Why an exported recipe cannot carry the reward (a catalogue key of the playground's texts); "" when it can.
    export_refusal: str = ""
    # What "gamed" means for it in the Reward lab's probe, when not its family: "model", "judge", "formula", ...
    lab_family: str = ""
    # Its `terms` parameter holds other rewards with their parameters (JSON), as the formula's does.
    composite: bool = False

    def defaults(self) -> dict[str, Any]:
        return {p.name: list(p.default) if isinstance(p.default, list) else p.default for p in self.params}


REGISTRY: dict[str, RewardSpec] = {}

_TYPES = {"int": int, "float": float, "str": str, "bool": bool}
_FIRST_SENTENCE = re.compile(r"(.+?[.!?])(?:\s+(?=[A-Z`\"'(])|\s*$)", re.DOTALL)


def factory_params(
    factory: Callable[..., RewardFunc], *, omit: tuple[str, ...] = (), **declared: Any
) -> tuple[Param, ...]:
    """The factory's parameters as `Param`s, read from the factory itself: the name, type and default from its
    signature, the help from the first sentence of its docstring's `Args:` entry (the rest of the entry is for the
    reader of the code). `declared[name]` is a dict of what the factory does not say (`choices`, `minimum`, `maximum`,
    `loads_model`), or of a field the registry sets otherwise (the default of a parameter whose default is `None`);
    `omit` names parameters the registry leaves at their default."""
    described = _args_section(inspect.getdoc(factory) or "")
    params = []
    for parameter in inspect.signature(factory).parameters.values():
        if parameter.name in omit:
            continue
        fields = dict(declared.pop(parameter.name, {}))
        default = fields.pop("default", parameter.default)
        if parameter.name not in described:
            raise ValueError(f"{factory.__name__}'s docstring does not describe its parameter {parameter.name!r}")
        help_text = _FIRST_SENTENCE.match(described[parameter.name]).group(1)
        params.append(
            Param(
                parameter.name,
                fields.pop("type", _param_type(parameter.annotation)),
                list(default) if isinstance(default, tuple) else default,
                help_text,
                **fields,
            )
        )
    if declared:
        raise ValueError(f"{factory.__name__} has no parameter {sorted(declared)[0]!r}")
    return tuple(params)


def _param_type(annotation: Any) -> type:
    """`int`, `float`, `str` or `bool` as written; any list, tuple or sequence of strings is `list`."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    if text in _TYPES:
        return _TYPES[text]
    if text.startswith(("list", "tuple", "Sequence")):
        return list
    raise ValueError(f"No registry type for the annotation {text!r}")


def _args_section(doc: str) -> dict[str, str]:
    """`{name: description}` of a Google-style `Args:` section (`name (`type`, ...):` then indented lines)."""
    entries: dict[str, str] = {}
    name = None
    in_args = False
    for line in doc.splitlines():
        if not line.startswith(" "):
            in_args = line.strip() == "Args:"
            name = None
            continue
        if not in_args:
            continue
        entry = re.match(r"^    (\w+) \(.*\):\s*$", line)
        if entry:
            name = entry.group(1)
            entries[name] = ""
        elif name and line.strip():
            entries[name] = f"{entries[name]} {line.strip()}".strip()
    return entries


def register(spec: RewardSpec) -> RewardSpec:
    if spec.name in REGISTRY:
        raise ValueError(f"Reward {spec.name!r} is registered twice.")
    REGISTRY[spec.name] = spec
    return spec


def get_spec(name: str) -> RewardSpec:
    try:
        return REGISTRY[name]
    except KeyError:
        valid = ", ".join(sorted(REGISTRY))
        raise RewardError("reward.unknown", name=name, valid=valid) from None


def list_specs() -> list[RewardSpec]:
    return list(REGISTRY.values())


def _coerce(spec: RewardSpec, p: Param, value: Any) -> Any:
    value = _convert(spec, p, value)
    if p.choices is not None and value not in p.choices:
        raise RewardError("reward.param_choice", name=spec.name, param=p.name, valid=list(p.choices), value=value)
    if p.minimum is not None and value < p.minimum:
        raise RewardError("reward.param_min", name=spec.name, param=p.name, min=p.minimum, value=value)
    if p.maximum is not None and value > p.maximum:
        raise RewardError("reward.param_max", name=spec.name, param=p.name, max=p.maximum, value=value)
    return value


def _convert(spec: RewardSpec, p: Param, value: Any) -> Any:
    """`value` as `p.type`, refusing lossy conversions (3.7 -> 3, 2 -> True, None -> "None")."""
    try:
        if p.type is bool:
            if isinstance(value, str) and value.strip().lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.strip().lower()]
            if isinstance(value, numbers.Integral) and value in (0, 1):
                return bool(value)
        elif p.type is int:
            if isinstance(value, str):
                return int(value.strip())
            if isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer():
                return int(value)
        elif p.type is float:
            if isinstance(value, str | numbers.Real) and not isinstance(value, bool):
                number = float(value)
                if math.isfinite(number):
                    return number
        elif p.type is list:
            if isinstance(value, str):
                return [v.strip() for v in value.split(",") if v.strip()]
            if isinstance(value, list | tuple):
                return [str(v) for v in value]
        elif p.type is str:
            if isinstance(value, str | numbers.Real) and not isinstance(value, bool):
                return str(value)
        else:
            return p.type(value)
    except (TypeError, ValueError):
        pass
    raise RewardError("reward.param_type", name=spec.name, param=p.name, type=p.type.__name__, value=value)


_BOOL_WORDS = {"true": True, "false": False, "1": True, "0": False, "yes": True, "no": False}


def resolve_params(name: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """Validated, typed parameters for reward `name`, with defaults filled in."""
    spec = get_spec(name)
    params = dict(params or {})
    known = {p.name: p for p in spec.params}
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise RewardError("reward.param_unknown", name=name, param=unknown[0], known=", ".join(known) or "none")
    return {p.name: _coerce(spec, p, params.get(p.name, p.default)) for p in spec.params}


def metric_name(name: str, params: dict[str, Any] | None = None) -> str:
    """
    The stable `__name__` of a built reward: the registry name, plus the non-default parameters, e.g.
    `length(ideal_length=50)`; list items are joined with `|`. A value with characters outside `[A-Za-z0-9_.+-]`
    (or longer than 40) is shown sanitized and cut to 24 characters, then `~` and 6 hex digits of its SHA-1, e.g.
    `regex(pattern=a_b~051764)` for `a/b`, so that the name stays a safe metric key (TRL logs `rewards/<name>/mean`).
    """
    spec = get_spec(name)
    resolved = resolve_params(name, params)
    changed = [f"{k}={_fmt(v)}" for k, v in resolved.items() if v != spec.defaults()[k]]
    return name if not changed else f"{name}({','.join(changed)})"


def _fmt(value: Any) -> str:
    items = [str(v) for v in value] if isinstance(value, list) else [str(value)]
    text = "|".join(items)
    if len(text) <= 40 and all(_SAFE_VALUE.fullmatch(item) for item in items):
        return text
    # Characters like "/" would split TRL's `rewards/<name>/mean` metric key: keep a readable, sanitized prefix and
    # add a short stable digest so that different values still give different names.
    readable = re.sub(r"[^A-Za-z0-9_.+\-|]", "_", text)[:24]
    return f"{readable}~{hashlib.sha1(repr(value).encode()).hexdigest()[:6]}"


_SAFE_VALUE = re.compile(r"[A-Za-z0-9_.+\-]*")


def required_columns(name: str, params: dict[str, Any] | None = None) -> list[str]:
    """
    The dataset columns reward `name` reads: the resolved value of its `column` parameter if it has one, else the
    spec's `columns`.
    """
    spec = get_spec(name)
    if any(p.name == "column" for p in spec.params):
        return [resolve_params(name, params)["column"]]
    return list(spec.columns)


class NamedReward:
    """A picklable reward callable with a fixed `__name__`, wrapping what a factory built."""

    def __init__(self, func: RewardFunc, name: str):
        self.func = func
        self.__name__ = name

    def __call__(self, completions: list | None = None, **kwargs: Any) -> list[float | None]:
        if completions is None:  # as the reward it wraps takes it: TRL's soft overlong reads `completion_ids` alone
            return self.func(**kwargs)
        return self.func(completions, **kwargs)

    def __repr__(self) -> str:
        return f"<reward {self.__name__}>"


def build_reward(name: str, params: dict[str, Any] | None = None) -> NamedReward:
    """Build one reward by name. Only this reward's parameters are validated."""
    spec = get_spec(name)
    return NamedReward(spec.factory(**resolve_params(name, params)), metric_name(name, params))
