"""Helpers shared by every reward: reading completion text, dataset columns and math_verify timeouts."""

from __future__ import annotations

import logging
import threading
from typing import Any

from rewards.errors import RewardError


# Han characters, as a character class: CJK Unified Ideographs with extension A (not the Yijing hexagram symbols
# U+4DC0-4DFF between them), the compatibility ideographs, and the supplementary planes' extensions B-H with their
# compatibility supplement (U+20000-323AF).
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U000323af"


def completion_text(completion: Any) -> str:
    r"""
    Return the text of one completion, whether standard or conversational.

    Args:
        completion (`str` or `list[dict]`):
            A standard completion (`str`), or a conversational one: a list of messages such as
            `[{"role": "assistant", "content": "..."}]`. For a conversational completion the content of the last
            assistant message is used (the last message if none has the role `"assistant"`), so a tool-calling
            exchange is judged on its final answer. A content given as a list of parts keeps its `"text"` parts. A
            single message `dict` is accepted too.

    Returns:
        `str`: The completion text (`""` for a message without content).

    Example:
    ```python
    >>> completion_text([{"role": "assistant", "content": "Hi"}])
    'Hi'
    ```
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _content_text(completion)
    if isinstance(completion, list | tuple) and all(isinstance(m, dict) for m in completion):
        if not completion:
            return ""
        assistant = [m for m in completion if m.get("role") == "assistant"]
        return _content_text((assistant or list(completion))[-1])
    raise RewardError("reward.completion_type", kind=type(completion).__name__, value=f"{completion!r:.80}")


def _content_text(message: dict) -> str:
    content = message.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # multimodal parts: [{"type": "text", "text": "..."}, ...]
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content)


def completion_texts(completions: list) -> list[str]:
    """`completion_text` of each completion of a batch."""
    return [completion_text(c) for c in completions]


def column(reward: str, name: str, kwargs: dict[str, Any], n: int) -> list[Any]:
    """The dataset column `name` from a reward's kwargs (one entry per completion), or a `RewardError` saying so."""
    if name not in kwargs or kwargs[name] is None:
        given = ", ".join(sorted(k for k, v in kwargs.items() if isinstance(v, list) and k not in _NOT_COLUMNS))
        if not given:
            raise RewardError("reward.column_missing_none", name=reward, column=name)
        raise RewardError("reward.column_missing", name=reward, column=name, columns=given)
    values = kwargs[name]
    if isinstance(values, str) or not hasattr(values, "__len__"):
        values = [values] * n
    values = list(values)
    if len(values) != n:
        raise RewardError("reward.column_length", name=reward, column=name, count=len(values), n=n)
    return values


_NOT_COLUMNS = ("prompts", "completions", "completion_ids")


def math_verify_timeouts() -> tuple[int | None, int | None]:
    """
    `(parsing_timeout, verify_timeout)` for math_verify, as TRL's accuracy reward does: math_verify times out with
    `signal.alarm`, which only works in the main thread, so timeouts are disabled (and their warnings silenced) on
    any other thread.
    """
    if threading.current_thread() is threading.main_thread():
        return 10, 5
    logging.getLogger("math_verify.parser").setLevel(logging.ERROR)
    logging.getLogger("math_verify.grader").setLevel(logging.ERROR)
    return None, None


class TextCompletions:
    """
    A reward that hands `func` plain strings: `completion_text` of each completion, so a function written for text
    (`len(c)`, `re.match(pattern, c)`) also works when TRL passes chat messages (a run with a system prompt or a
    conversational dataset). Keeps `func`'s `__name__` (TRL's metric name) and pickles when `func` does.
    """

    def __init__(self, func):
        self.func = func
        self.__name__ = getattr(func, "__name__", type(func).__name__)

    def __call__(self, completions: list, **kwargs: Any) -> list[float | None]:
        return self.func(completion_texts(completions), **kwargs)

    def __repr__(self) -> str:
        return f"<{self.__name__} on text>"
