"""Code rewards: open-r1's code format reward, and `code_tests`, which runs the completion's code in the sandbox."""

from __future__ import annotations

import re

from playground.errors import RewardError
from rewards._text import completion_texts


_LANGUAGE = re.compile(r"[A-Za-z0-9_+#.-]+")


def get_code_format_reward(language: str = "python"):
    r"""
    open-r1's `get_code_format_reward`: 1.0 if the whole text is `<think>\n…\n</think>\n<answer>\n…\n</answer>` and
    the answer holds a ```` ```<language> ```` fenced block, else 0.0. A `language` dataset column, when the batch has
    one, overrides the parameter per row (open-r1's mixed-language training).

    Args:
        language (`str`, *optional*, defaults to `"python"`):
            The fence's language tag.

    Returns:
        `Callable`: A reward function returning 1.0 or 0.0 per completion.

    Example:
    ```python
    >>> good = "<think>\nPlan\n</think>\n<answer>\n```python\nprint(1)\n```\n</answer>"
    >>> get_code_format_reward()([good, "print(1)"])
    [1.0, 0.0]
    ```
    """
    if not isinstance(language, str) or not _LANGUAGE.fullmatch(language):
        raise RewardError(f"The code format language must be a fence tag such as python, got {language!r}.")
    return _CodeFormat(language)


class _CodeFormat:
    __name__ = "code_format_reward"

    def __init__(self, language: str):
        self.language = language

    def __call__(self, completions: list, **kwargs) -> list[float]:
        texts = completion_texts(completions)
        languages = kwargs.get("language")
        if not isinstance(languages, list | tuple) or len(languages) != len(texts):
            languages = [self.language] * len(texts)
        return [_code_format(text, str(lang)) for text, lang in zip(texts, languages, strict=True)]


def _code_format(text: str, language: str) -> float:
    pattern = rf"^<think>\n.*?\n</think>\n<answer>\n.*?```{re.escape(language)}.*?```.*?\n</answer>$"
    return 1.0 if re.match(pattern, text, re.DOTALL | re.MULTILINE) else 0.0
