"""Content rewards: keywords, regular expressions, JSON validity and response language."""

from __future__ import annotations

import json
import re
import time

from rewards._text import HAN, completion_texts
from rewards.errors import RewardError


LANGUAGES = ("zh", "en")
REGEX_MODES = ("search", "fullmatch")

_JSON_FENCE = re.compile(r"\s*```(?:json|JSON)?[ \t]*\n(.*?)\n?```\s*", re.DOTALL)
_CJK = re.compile(f"[{HAN}]")
_LATIN = re.compile(r"[A-Za-z]")


def get_keywords_reward(
    include: list[str] | None = None, exclude: list[str] | None = None, case_sensitive: bool = False
):
    r"""
    Reward function for keywords: the fraction of `include` keywords present minus the fraction of `exclude`
    keywords present, so it lies in `[-1.0, 1.0]` (a list left empty contributes 0). A keyword that starts or ends with
    a Latin letter, digit or `_` must match on a word boundary there ("cat" does not match "category"); other keywords,
    e.g. Chinese ones, match as substrings.

    Args:
        include (`list[str]`, *optional*, defaults to `["because"]` in the registry):
            Keywords that should appear (comma-separated). Each one present adds `1 / len(include)`; the registry's
            default is `["because"]`.
        exclude (`list[str]`, *optional*, defaults to `[]`):
            Keywords that should not appear (comma-separated). Each one present subtracts `1 / len(exclude)`.
        case_sensitive (`bool`, *optional*, defaults to `False`):
            Match keywords case-sensitively.

    Returns:
        `Callable`: A reward function returning a float in `[-1.0, 1.0]` per completion.

    Example:
    ```python
    >>> get_keywords_reward(include=["because", "so"], exclude=["maybe"])(["So, because of rain.", "Maybe so."])
    [1.0, -0.5]
    ```
    """
    include = [k for k in (include or []) if k and k.strip()]
    exclude = [k for k in (exclude or []) if k and k.strip()]
    if not include and not exclude:
        raise RewardError("reward.keywords_empty")
    return _KeywordsReward(include, exclude, bool(case_sensitive))


def _keyword_pattern(keyword: str, flags: int) -> re.Pattern:
    before = r"(?<![A-Za-z0-9_])" if re.match(r"[A-Za-z0-9_]", keyword) else ""
    after = r"(?![A-Za-z0-9_])" if re.search(r"[A-Za-z0-9_]$", keyword) else ""
    return re.compile(before + re.escape(keyword) + after, flags)


class _KeywordsReward:
    __name__ = "keywords_reward"

    def __init__(self, include: list[str], exclude: list[str], case_sensitive: bool):
        self.include = include
        self.exclude = exclude
        self.case_sensitive = case_sensitive

    def __call__(self, completions: list, **kwargs) -> list[float]:
        flags = 0 if self.case_sensitive else re.IGNORECASE
        include = [_keyword_pattern(k, flags) for k in self.include]
        exclude = [_keyword_pattern(k, flags) for k in self.exclude]
        return [_fraction(include, text) - _fraction(exclude, text) for text in completion_texts(completions)]


def _fraction(patterns: list[re.Pattern], text: str) -> float:
    return sum(1 for p in patterns if p.search(text)) / len(patterns) if patterns else 0.0


def get_regex_reward(pattern: str = r"\d+", mode: str = "search"):
    r"""
    Reward function that checks the completion against a regular expression (Python `re` syntax, no flags: write
    `(?s)` or `(?i)` in the pattern to set them). Matching runs with the `regex` package and a time bound: one call
    may match for `REGEX_SECONDS` in all, so that a catastrophic pattern such as `(a+)+$` cannot hold the process;
    past it the call fails with a message naming the pattern.

    Args:
        pattern (`str`, *optional*, defaults to `r"\d+"`):
            Python regular expression.
        mode (`str`, *optional*, defaults to `"search"`):
            search: anywhere; fullmatch: the whole text. `"search"` passes when the pattern occurs anywhere,
            `"fullmatch"` when the whole completion matches.

    Returns:
        `Callable`: A reward function returning 1.0 on a match, else 0.0.

    Example:
    ```python
    >>> get_regex_reward(pattern=r"\d+")(["It is 42.", "It is forty-two."])
    [1.0, 0.0]
    ```
    """
    if mode not in REGEX_MODES:
        raise RewardError("reward.option", name="regex", option="mode", valid=list(REGEX_MODES), value=mode)
    if not isinstance(pattern, str) or not pattern:
        raise RewardError("reward.regex_empty", value=pattern)
    import regex

    try:
        re.compile(pattern)
        regex.compile(pattern)
    except (re.error, regex.error) as error:
        raise RewardError("reward.regex_invalid", pattern=pattern, error=error) from None
    return _RegexReward(pattern, mode)


# Seconds one call of the regex reward may spend matching, all completions together. A sane pattern takes
# microseconds per completion; a nested quantifier on a long completion takes longer than the age of the universe.
REGEX_SECONDS = 1.0


class _RegexReward:
    __name__ = "regex_reward"

    def __init__(self, pattern: str, mode: str):
        self.pattern = pattern
        self.mode = mode

    def __call__(self, completions: list, **kwargs) -> list[float]:
        import regex  # matches Python's `re` syntax; releases the GIL and honours a timeout

        match = getattr(regex.compile(self.pattern), self.mode)
        deadline = time.monotonic() + REGEX_SECONDS
        scores = []
        for text in completion_texts(completions):
            try:
                hit = match(text, timeout=max(deadline - time.monotonic(), 0.001))
            except TimeoutError:
                raise RewardError(
                    "reward.regex_slow", pattern=self.pattern, seconds=REGEX_SECONDS, n=len(completions)
                ) from None
            scores.append(1.0 if hit else 0.0)
        return scores


def get_json_valid_reward(require_object: bool = False):
    r"""
    Reward function that checks the completion is valid JSON: either the whole text, or the whole text is one fenced
    block (```` ```json ```` or ```` ``` ````); surrounding whitespace is allowed, prose around the JSON is not.

    Args:
        require_object (`bool`, *optional*, defaults to `False`):
            Require a JSON object ({...}), not any JSON value.

    Returns:
        `Callable`: A reward function returning 1.0 for valid JSON, else 0.0.

    Example:
    ```python
    >>> get_json_valid_reward()(['```json\n{"a": 1}\n```', "{'a': 1}"])
    [1.0, 0.0]
    ```
    """
    return _JsonValidReward(bool(require_object))


class _JsonValidReward:
    __name__ = "json_valid_reward"

    def __init__(self, require_object: bool):
        self.require_object = require_object

    def __call__(self, completions: list, **kwargs) -> list[float]:
        return [self._score(text) for text in completion_texts(completions)]

    def _score(self, text: str) -> float:
        fence = _JSON_FENCE.fullmatch(text)
        try:
            value = json.loads(fence.group(1) if fence else text)
        except (ValueError, RecursionError):
            return 0.0
        return 0.0 if self.require_object and not isinstance(value, dict) else 1.0


def get_language_reward(language: str = "zh", threshold: float = 0.5):
    r"""
    Reward function that checks the completion is written in a target language, from the fraction of its letters
    that belong to that language's script: CJK ideographs for `"zh"`, ASCII Latin letters for `"en"`. Digits,
    punctuation, whitespace and symbols are ignored; every other letter (kana, Cyrillic, accented Latin...) counts
    against. Note that a Latin word counts one letter per character while a Chinese word is usually 1-2 ideographs.

    Args:
        language (`str`, *optional*, defaults to `"zh"`):
            Target language. `"zh"` or `"en"`.
        threshold (`float`, *optional*, defaults to `0.5`):
            Minimum fraction of letters in the target script. In `[0, 1]`.

    Returns:
        `Callable`: A reward function returning 1.0 if the fraction is at least `threshold`, else 0.0 (also 0.0 for a
        completion without letters).

    Example:
    ```python
    >>> get_language_reward(language="zh")(["答案是 42。", "The answer is 42."])
    [1.0, 0.0]
    ```
    """
    if language not in LANGUAGES:
        raise RewardError("reward.option", name="language", option="language", valid=list(LANGUAGES), value=language)
    if not 0.0 <= threshold <= 1.0:
        raise RewardError("reward.language_threshold", value=threshold)
    return _LanguageReward(language, float(threshold))


def language_fraction(text: str, language: str) -> float | None:
    """The fraction of the letters of `text` that are in `language`'s script (`None` without letters)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return None
    script = _CJK if language == "zh" else _LATIN
    return sum(1 for ch in letters if script.match(ch)) / len(letters)


class _LanguageReward:
    __name__ = "language_reward"

    def __init__(self, language: str, threshold: float):
        self.language = language
        self.threshold = threshold

    def __call__(self, completions: list, **kwargs) -> list[float]:
        fractions = [language_fraction(text, self.language) for text in completion_texts(completions)]
        return [0.0 if f is None or f < self.threshold else 1.0 for f in fractions]
