"""Score a group of completions with chosen rewards and weights, the way GRPOTrainer will.

This is the model-free core of the playground: the preview, "Try on text" and the CLI's `score` all end here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from playground.advantages import AdvantageSettings, compute_advantages, diagnose
from playground.errors import RewardError
from playground.sandbox.values import check_values
from playground.texts import msg
from rewards.registry import build_reward, get_spec, metric_name


# The codes of a scored group's flags (`flag.<code>` titles them on the page), in the order they are raised.
FLAG_CODES = ("non_finite", "none", "unscorable", "zero_std", "clipped", "flat", "dominates")


@dataclass
class RewardChoice:
    """One selected reward: a library name (or a custom function's name), its weight and its parameters."""

    name: str
    weight: float = 1.0
    params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> RewardChoice:
        """Parse the CLI form `NAME[:WEIGHT]`."""
        name, sep, weight = text.strip().partition(":")
        if not name:
            raise RewardError("reward.empty_name", text=text)
        if not sep:
            return cls(name)
        try:
            value = float(weight)
        except ValueError:
            raise RewardError("reward.bad_weight", weight=weight, text=text) from None
        if not math.isfinite(value):
            raise RewardError("reward.weight_finite", name=name, weight=weight)
        return cls(name, value)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "weight": self.weight, "params": dict(self.params)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RewardChoice:
        weight = data.get("weight", 1.0)
        try:
            weight = float(weight)
        except (TypeError, ValueError):
            raise RewardError("reward.weight_not_number", name=data.get("name"), weight=weight) from None
        return cls(data["name"], weight, dict(data.get("params") or {}))


class RewardExecutor(Protocol):
    """Where library rewards are built and score: `build(name, params, metric)` returns the reward function."""

    def build(self, name: str, params: dict[str, Any], metric: str) -> Callable: ...


class LocalRewards:
    """Library rewards built and scoring in this process."""

    def build(self, name: str, params: dict[str, Any], metric: str) -> Callable:
        return build_reward(name, params)


LOCAL = LocalRewards()


def build_rewards(
    choices: Sequence[RewardChoice], custom: dict[str, Callable] | None = None, *, executor: RewardExecutor
) -> tuple[list[Callable], list[float]]:
    """Build the selected rewards (library or custom) and their weights. Names must be unique, as TRL's metrics.

    `executor` builds the library rewards where they are to run: `LOCAL` (this process) or a visitor's workers in
    public mode (`playground.isolation.visitor.reward_executor`, which picks between the two).
    """
    if not choices:
        raise RewardError("reward.none_picked")
    custom = custom or {}
    funcs, weights, seen = [], [], set()
    for choice in choices:
        if choice.name in custom:
            func, name = custom[choice.name], choice.name
        else:
            get_spec(choice.name)
            name = metric_name(choice.name, choice.params)
            func = executor.build(choice.name, choice.params, name)
        if name in seen:
            raise RewardError("reward.twice", name=name)
        seen.add(name)
        funcs.append(func)
        weights.append(float(choice.weight))
    return funcs, weights


def metric_weights(choices: Sequence[RewardChoice]) -> dict[str, float]:
    """{metric name (`rewards/<name>/mean`): weight}: library rewards with their parameters, custom ones as named."""
    from rewards import REGISTRY  # importing the package fills the registry

    return {(metric_name(c.name, c.params) if c.name in REGISTRY else c.name): float(c.weight) for c in choices}


def reward_name(func: Callable) -> str:
    return getattr(func, "__name__", type(func).__name__)


def call_reward(func: Callable, completions: list, **kwargs: Any) -> list[float | None]:
    """Call one reward function and check its result: a list of float or None, one per completion."""
    name = reward_name(func)
    try:
        values = func(completions, **kwargs)
    except RewardError:
        raise
    except Exception as exc:  # a user's or library reward failing is reported, not raised as a traceback
        raise RewardError("reward.raised", name=name, error=f"{type(exc).__name__}: {exc}") from exc
    return check_values(name, values, len(completions))


class GuardedReward:
    """Wraps a reward for the trainer: checks its output, and names it in the error when it fails.

    `on_error="fail"` re-raises as `RewardError` (the run fails with that message); `"none"` returns None for the
    whole batch, as TRL allows, and counts the event in `errors`.
    """

    def __init__(self, func: Callable, on_error: str = "fail"):
        self.func = func
        self.on_error = on_error
        self.errors = 0
        self.last_error: str | None = None
        self.__name__ = reward_name(func)

    def __call__(self, completions: list, **kwargs: Any) -> list[float | None]:
        try:
            values = call_reward(self.func, completions, **kwargs)
        except RewardError as exc:
            if self.on_error != "none":
                raise
            self.errors += 1
            self.last_error = str(exc)
            return [None] * len(completions)
        return [None if v is not None and not math.isfinite(v) else v for v in values]


@dataclass
class ScoredCompletion:
    text: str
    rewards: dict[str, float | None]
    total: float | None
    advantage: float


@dataclass
class GroupScore:
    completions: list[ScoredCompletion]
    mean: float
    std: float
    zero_std: bool
    flags: list[str]
    flag_codes: list[str]
    advantage: AdvantageSettings = field(default_factory=AdvantageSettings)  # how the advantages were computed

    def to_json(self) -> dict[str, Any]:
        return {
            "completions": [
                {"text": c.text, "rewards": c.rewards, "total": c.total, "advantage": c.advantage}
                for c in self.completions
            ],
            "group": {"mean": self.mean, "std": self.std, "zero_std": self.zero_std},
            "flags": list(self.flags),
            "advantage": self.advantage.to_json(),
        }


def _finite_or_none(x: float) -> float | None:
    return x if math.isfinite(x) else None


def score_group(
    completions: Sequence[Any],
    funcs: Sequence[Callable],
    weights: Sequence[float],
    *,
    prompts: Sequence[Any] | None = None,
    columns: dict[str, Sequence[Any]] | None = None,
    completion_ids: Sequence[Sequence[int]] | None = None,
    advantage: AdvantageSettings | None = None,
    max_completion_length: int | None = None,
) -> GroupScore:
    """Score one group. `completions` are str or conversational; `columns` are dataset columns, one value each.

    `advantage` holds the run's `scale_rewards` and `multi_objective_aggregation` (`AdvantageSettings.of(spec)`); the
    group is scored alone, as a batch of one group. The flags are the group's diagnostics (`diagnose`): no signal,
    completions cut at `max_completion_length` (given `completion_ids`), flat rewards and a dominant one."""
    from rewards._text import completion_text

    n = len(completions)
    if n < 2:
        raise RewardError("reward.group_size", n=n)
    kwargs: dict[str, Any] = {k: list(v) for k, v in (columns or {}).items()}
    kwargs["prompts"] = list(prompts) if prompts is not None else [""] * n
    if completion_ids is not None:
        kwargs["completion_ids"] = [list(ids) for ids in completion_ids]
    names = [reward_name(f) for f in funcs]
    table = [call_reward(f, list(completions), **kwargs) for f in funcs]  # per function
    flags: list[tuple[str, str]] = []
    for name, values in zip(names, table, strict=True):
        bad = [i for i, v in enumerate(values) if v is not None and not math.isfinite(v)]
        if bad:
            flags.append(("non_finite", msg("scoring.non_finite", name=name, bad=len(bad), n=n)))
            for i in bad:
                values[i] = None
        nones = sum(v is None for v in values)
        if nones:
            flags.append(("none", msg("scoring.none", name=name, count=nones, n=n)))
    rows = [[table[f][i] for f in range(len(funcs))] for i in range(n)]
    advantage = advantage or AdvantageSettings()
    adv = compute_advantages(
        rows,
        weights,
        num_generations=n,
        scale_rewards=advantage.scale_rewards,
        multi_objective_aggregation=advantage.multi_objective_aggregation,
    )
    totals = adv.rewards.tolist()
    unscorable = sum(not math.isfinite(t) for t in totals)
    if unscorable:
        flags.append(("unscorable", msg("scoring.unscorable", count=unscorable, n=n)))
    lengths = [len(ids) for ids in completion_ids] if completion_ids is not None else None
    found = diagnose(
        rows,
        names,
        weights,
        n,
        advantage.multi_objective_aggregation,
        lengths=lengths,
        max_completion_length=max_completion_length,
    )
    zero_std = found.no_signal[0]
    if zero_std:
        flags.append(("zero_std", msg("scoring.zero_std", n=n)))
    if found.mostly_clipped:
        flags.append(("clipped", msg("scoring.clipped", count=found.clipped, n=n, limit=max_completion_length)))
    if found.flat and not zero_std:
        shown = ", ".join(
            repr(name) if value is None else f"{name!r} ({value:g})" for name, value in found.flat.items()
        )
        flags.append(("flat", msg("scoring.flat", names=shown)))
    if found.dominant:
        others = ", ".join(repr(name) for name in found.shares if name != found.dominant)
        share = found.shares[found.dominant]
        flags.append(("dominates", msg("scoring.dominates", name=found.dominant, share=share, others=others)))
    scored = [
        ScoredCompletion(
            text=completion_text(completions[i]),
            rewards=dict(zip(names, rows[i], strict=True)),
            total=_finite_or_none(totals[i]),
            advantage=float(adv.advantages[i]),
        )
        for i in range(n)
    ]
    mean, std = float(adv.mean[0]), float(adv.std[0])
    return GroupScore(
        completions=scored,
        mean=mean if math.isfinite(mean) else 0.0,
        std=std if math.isfinite(std) else 0.0,
        zero_std=zero_std,
        flags=[m for _, m in flags],
        flag_codes=[c for c, _ in flags],
        advantage=advantage,
    )
