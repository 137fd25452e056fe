"""The completion prefix: a pre-filled start of every answer (e.g. `<intro>`), one of the cold-start tools.

The prefix goes after the rendered prompt (chat template with its generation prompt), so the model continues from it
and only the continuation is sampled and trained on. Rewards see **the prefix plus the continuation**, the answer as
a reader would see it: a format reward that wants `<intro>` first is satisfied by the prefix. The preview, training,
compare and the exported script all follow this one rule, through the functions here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def prompt_with_prefix(tokenizer: Any, prompt: str | list[dict], prefix: str) -> str:
    """The text the model continues: the prompt as the preview renders it, then the prefix."""
    from playground.data.chat import render_prompt

    return render_prompt(tokenizer, prompt) + (prefix or "")


def add_prefix(completions: list, prefix: str) -> list:
    """Completions as rewards see them: the prefix in front of each (plain text or the assistant message's content)."""
    if not prefix:
        return completions
    out: list = []
    for c in completions:
        if isinstance(c, str):
            out.append(prefix + c)
        else:
            messages = [dict(m) for m in c]
            if messages:
                messages[0]["content"] = prefix + str(messages[0].get("content", ""))
            out.append(messages)
    return out


class PrefixedReward:
    """A reward function that scores `prefix + completion`; its `__name__` (the metric name) is the wrapped one's."""

    def __init__(self, func: Callable, prefix: str):
        self.func = func
        self.prefix = prefix
        self.__name__ = getattr(func, "__name__", type(func).__name__)

    def __call__(self, completions: list, **kwargs: Any) -> list:
        return self.func(add_prefix(completions, self.prefix), **kwargs)


def with_prefix(funcs: list[Callable], prefix: str) -> list[Callable]:
    """`funcs` unchanged without a prefix, else each wrapped in a `PrefixedReward`."""
    return [PrefixedReward(f, prefix) for f in funcs] if prefix else list(funcs)
