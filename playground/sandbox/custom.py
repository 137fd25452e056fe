"""Custom rewards from source: compile them into sandboxed rewards, try them on a group, rebuild them from a spec."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from playground.errors import RewardError
from playground.sandbox.checks import inspect_code
from playground.sandbox.client import Sandbox, SandboxedReward, SandboxError, close_rewards
from playground.sandbox.settings import SandboxLimits, require_custom_code
from playground.texts import msg


class RunSpec(Protocol):
    """What these functions read of a run spec (`playground.spec.RunSpec`), named here so that the sandbox imports
    nothing of the spec (which imports the scoring code, which starts visitor workers from this package)."""

    custom_code: str
    rewards: list
    grpo: Any


# Trial completions: an answer in \boxed{}, a tagged reasoning format, a short hedge, and an empty completion (a
# reward that divides by the length or indexes the first character fails on it, as it would in training).
TRIAL_COMPLETIONS = (
    "The answer is \\boxed{42}.",
    "<think>40 plus 2 is 42.</think>\n<answer>42</answer>",
    "I am not sure.",
    "",
)


def compile_rewards(source: str, limits: SandboxLimits | None = None) -> dict[str, SandboxedReward]:
    """Check `source`, run its top level in a new sandbox worker, and return its rewards by name.

    Raises a `RewardError` naming the problem (and its line) when the code is invalid or fails to load.
    """
    require_custom_code()
    report = inspect_code(source)
    report.raise_for_errors()
    sandbox = Sandbox(source, report.functions, limits)
    sandbox.start()
    return {name: SandboxedReward(sandbox, name) for name in report.functions}


@dataclass
class TrialResult:
    function: str
    values: list[float | None] | None
    error: str | None = None
    line: int | None = None
    output: str = ""
    seconds: float = 0.0
    flags: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def trial_run(
    rewards: dict[str, Callable],
    completions: Sequence[Any] | None = None,
    *,
    prompts: Sequence[Any] | None = None,
    columns: dict[str, Sequence[Any]] | None = None,
    conversational: bool | None = None,
) -> list[TrialResult]:
    """Call each reward once on a group of completions (default: `TRIAL_COMPLETIONS`) and report what came back.

    `columns` are dataset columns, one value per completion. Failures are reported per function, not raised.
    `conversational` is the run's completion format, as TRL passes it: chat messages
    (`[{"role": "assistant", "content": ...}]`, for a run with a system prompt or a conversational dataset) when
    True, strings when False or not known (None). Each function is also tried on the other shape (`chat_flags`).
    """
    from rewards._text import completion_texts

    texts = completion_texts(list(completions if completions is not None else TRIAL_COMPLETIONS))
    shapes = {False: (texts, [""] * len(texts))}
    shapes[True] = (
        [[{"role": "assistant", "content": t}] for t in texts],
        [[{"role": "user", "content": ""}]] * len(texts),
    )
    chat = bool(conversational)
    completions, default_prompts = shapes[chat]
    n = len(completions)
    kwargs: dict[str, Any] = {k: list(v) for k, v in (columns or {}).items()}
    kwargs["prompts"] = list(prompts) if prompts is not None else default_prompts
    other = {**kwargs, "prompts": kwargs["prompts"] if prompts is not None else shapes[not chat][1]}
    results = []
    for name, func in rewards.items():
        start = time.perf_counter()
        hint = [CHAT_HINT] if chat else []  # the run passes chat completions: say how to read them
        try:
            values = func(list(completions), **kwargs)
            if not isinstance(func, SandboxedReward):  # sandboxed values are already checked
                from playground.sandbox.values import check_values

                values = check_values(name, values, n)
        except SandboxError as exc:
            results.append(
                TrialResult(name, None, exc.message, exc.line, exc.output, time.perf_counter() - start, hint)
            )
            continue
        except RewardError as exc:
            results.append(
                TrialResult(name, None, exc.message, None, _output(func), time.perf_counter() - start, hint)
            )
            continue
        except Exception as exc:  # an in-process reward (tests, the library) failing is reported like a sandboxed one
            message = msg("reward.raised", name=name, error=f"{type(exc).__name__}: {exc}")
            results.append(TrialResult(name, None, message, None, "", time.perf_counter() - start, hint))
            continue
        results.append(TrialResult(name, values, None, None, _output(func), time.perf_counter() - start))
        results[-1].flags = trial_flags(values) + chat_flags(func, values, chat, shapes[not chat][0], other)
    return results


CHAT_HINT = msg("sandbox.chat_hint")


def chat_flags(func: Callable, values: list, chat: bool, other: list, kwargs: dict[str, Any]) -> list[str]:
    """
    Warnings for a function that treats chat completions (lists of messages) as text: it fails on them, or gives
    them all one value where their texts get different ones (the seed article's `len(c)` is 1 for every one-message
    list). `values` came from the run's shape (`chat`); `other` is the same group in the other shape.
    """
    try:
        other_values = list(func(list(other), **kwargs))
    except Exception as exc:  # noqa: BLE001  (any failure on the other shape is what this reports)
        if chat:  # the text shape is not what the run passes
            return []
        error = str(exc) if isinstance(exc, RewardError) else f"{type(exc).__name__}: {exc}"
        return [msg("sandbox.chat_fails", error=error.rstrip(".")[:300], hint=CHAT_HINT)]
    chat_values, text_values = (values, other_values) if chat else (other_values, values)
    if len(set(map(repr, chat_values))) == 1 and len(set(map(repr, text_values))) > 1:
        return [msg("sandbox.chat_constant", value=chat_values[0], hint=CHAT_HINT)]
    return []


def _output(func: Callable) -> str:
    return getattr(func, "last_output", "")


def trial_flags(values: Sequence[float | None]) -> list[str]:
    """Warnings about a group's values: NaN or inf, None for everything, or no spread (no learning signal)."""
    flags = []
    bad = [i + 1 for i, v in enumerate(values) if v is not None and not math.isfinite(v)]
    if bad:
        flags.append(msg("sandbox.trial_non_finite", indices=", ".join(map(str, bad))))
    finite = [v for v in values if v is not None and math.isfinite(v)]
    if not finite:
        flags.append(msg("sandbox.trial_no_number"))
    elif len(values) > 1 and len(finite) == len(values) and max(finite) == min(finite):
        flags.append(msg("sandbox.trial_constant", value=finite[0]))
    return flags


# --- run specs ------------------------------------------------------------------------------------------------------


def custom_reward_names(spec: RunSpec) -> set[str]:
    """The reward functions of `spec.custom_code`, found by parsing (no worker starts); checks the code first."""
    if not spec.custom_code:
        return set()
    require_custom_code()
    report = inspect_code(spec.custom_code)
    report.raise_for_errors()
    return set(report.functions)


def custom_rewards_for(spec: RunSpec, limits: SandboxLimits | None = None) -> dict[str, SandboxedReward]:
    """Sandboxed rewards for the custom functions `spec` selects; {} when it selects none."""
    if not spec.custom_code or not custom_reward_names(spec) & {choice.name for choice in spec.rewards}:
        return {}
    return compile_rewards(spec.custom_code, limits)


def as_the_spec_asks(rewards: dict[str, Callable], spec: RunSpec) -> dict[str, Callable]:
    """Custom rewards as the run hands them completions: wrapped to get plain strings when `completions_as_text`.
    The wrappers hold the sandboxed rewards; close those, not these."""
    if not getattr(spec.grpo, "completions_as_text", False):
        return rewards
    from rewards._text import TextCompletions

    return {name: TextCompletions(func) for name, func in rewards.items()}


class CodeSession:
    """One UI session's custom code: `rewards(source)` compiles only when the source changes, into one worker.

    A new source that fails to compile raises, and the previous rewards stay as they were. A deep copy (what
    `gr.State` makes of its initial value) is a new, empty session.
    """

    def __init__(self, limits: SandboxLimits | None = None):
        self.limits = limits
        self.source: str | None = None
        self._rewards: dict[str, SandboxedReward] = {}

    def __deepcopy__(self, memo: dict) -> CodeSession:
        return CodeSession(self.limits)

    def rewards(self, source: str | None) -> dict[str, SandboxedReward]:
        if not source or not source.strip():
            self.close()
            return {}
        if source != self.source:
            rewards = compile_rewards(source, self.limits)
            self.close()
            self.source, self._rewards = source, rewards
        return dict(self._rewards)

    def close(self) -> None:
        close_rewards(self._rewards)
        self.source, self._rewards = None, {}
