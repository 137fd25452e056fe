"""Other rewards from TRL that work on completion token ids: repetition penalty and soft overlong punishment.

TRL's [`GRPOTrainer`] passes `completion_ids` (one list of token ids per completion) to every reward function; these
rewards use them when given. Called without them (e.g. on text), the soft overlong punishment counts
whitespace-separated words, which is only an approximation of the tokenizer's count (a word is often more than one
token), and the repetition penalty splits text as open-r1 does (lower-cased words, jieba's words for Chinese).
"""

from __future__ import annotations

import logging
import re

from rewards._text import HAN, completion_texts
from rewards.errors import RewardError


logger = logging.getLogger(__name__)


def _tokens(completions: list, completion_ids: list | None) -> list[list]:
    if completion_ids is None:
        return [text.split() for text in completion_texts(completions)]
    if len(completion_ids) != len(completions):
        raise RewardError("reward.completion_ids", count=len(completion_ids), n=len(completions))
    return [list(ids) for ids in completion_ids]


REPETITION_LANGUAGES = ("auto", "en", "zh", "ja")

_KANA = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HAN = re.compile(f"[{HAN}]")


def get_repetition_penalty_reward(ngram_size: int = 3, max_penalty: float = -1.0, language: str = "auto"):
    r"""
    The repetition penalty of "Demystifying Long Chain-of-Thought Reasoning" (Appendix C.2,
    https://huggingface.co/papers/2502.03373): `(1 - unique n-grams / total n-grams) * max_penalty`. Completions
    shorter than `ngram_size` tokens get 0.0.

    When TRL passes `completion_ids`, the n-grams are of token ids, as TRL's
    [`~trl.rewards.get_repetition_penalty_reward`] computes them. On text (no ids) the text is split as open-r1's
    `get_repetition_penalty_reward` splits it, by `language`:

    - `"en"`: lower-cased whitespace-separated words (open-r1 folds case, so "The cat" and "the cat" are one n-gram);
    - `"zh"`: jieba's words, as open-r1 (characters when jieba is not installed);
    - `"ja"`: characters, lower-cased, without whitespace (open-r1 has no Japanese splitter; jieba would split kana
      into characters too);
    - `"auto"`: for a text whose letters are mostly kana or Chinese characters, `"ja"` when it has kana, else `"zh"`;
      otherwise `"en"` (an English text quoting one Chinese word keeps its case folding).

    Args:
        ngram_size (`int`, *optional*, defaults to `3`):
            Size of the n-grams. At least 1.
        max_penalty (`float`, *optional*, defaults to `-1.0`):
            Penalty of a fully repetitive completion. Must not be positive.
        language (`str`, *optional*, defaults to `"auto"`):
            Text split without token ids: en (lower-cased words), zh (jieba words), ja (characters), auto.

    Returns:
        `Callable`: A reward function returning a penalty in `[max_penalty, 0.0]` per completion.

    Example:
    ```python
    >>> reward = get_repetition_penalty_reward(ngram_size=2)
    >>> [round(r, 2) for r in reward(["The cat The cat the cat the cat", "这个这个这个这个这个", "the cat sat"])]
    [-0.71, -0.75, 0.0]
    ```
    """
    if isinstance(ngram_size, bool) or not isinstance(ngram_size, int) or ngram_size < 1:
        raise RewardError("reward.ngram_size", value=ngram_size)
    if max_penalty > 0:
        raise RewardError("reward.max_penalty", value=max_penalty)
    if language not in REPETITION_LANGUAGES:
        raise RewardError("reward.repetition_language", valid=list(REPETITION_LANGUAGES))
    return _RepetitionPenalty(ngram_size, float(max_penalty), language)


class _RepetitionPenalty:
    __name__ = "repetition_penalty_reward"

    def __init__(self, ngram_size: int, max_penalty: float, language: str = "auto"):
        from trl.rewards import get_repetition_penalty_reward  # TRL is imported by the rewards that use it (format.py)

        self.trl_reward = get_repetition_penalty_reward(ngram_size=ngram_size, max_penalty=max_penalty)
        self.language = language

    def __call__(self, completions: list, completion_ids: list | None = None, **kwargs) -> list[float]:
        if completion_ids is None:
            tokens = [text_tokens(text, self.language) for text in completion_texts(completions)]
        else:
            tokens = _tokens(completions, completion_ids)
        return [float(r) for r in self.trl_reward(tokens)]


def text_tokens(text: str, language: str = "auto") -> list[str]:
    """The tokens of `text` for the repetition penalty: see `get_repetition_penalty_reward`."""
    if language == "auto":
        language = _language(text)
    if language == "en":
        return text.lower().split()
    if language == "zh":
        words = _jieba_words(text)
        if words is not None:
            return words
    return [ch for ch in text.lower() if not ch.isspace()]


def _language(text: str) -> str:
    """ "ja" or "zh" when kana or Chinese characters make up most of the text's letters, else "en": one Chinese word
    quoted in an English text leaves the whole text split into lower-cased words."""
    letters = sum(ch.isalpha() for ch in text)
    kana, han = len(_KANA.findall(text)), len(_HAN.findall(text))
    if not letters or 2 * (kana + han) < letters:
        return "en"
    return "ja" if kana else "zh"


def _jieba_words(text: str) -> list[str] | None:
    try:
        import jieba
    except ImportError:
        logger.warning("jieba is not installed: Chinese text is split into characters for the repetition penalty.")
        return None
    jieba.setLogLevel(logging.WARNING)
    return list(jieba.cut(text))


def get_soft_overlong_reward(max_completion_len: int = 64, soft_punish_cache: int = 16):
    r"""
    TRL's [`~trl.rewards.get_soft_overlong_punishment`] (DAPO, Eq. 13): 0.0 up to `max_completion_len -
    soft_punish_cache` tokens, then a linear penalty down to -1.0 at `max_completion_len`, and -1.0 beyond. Lengths
    are `len(completion_ids)` when TRL passes them, else the number of whitespace-separated words.

    Args:
        max_completion_len (`int`, *optional*, defaults to `64`):
            Maximum completion length in tokens (words without ids). The maximum \( L_{\max} \), usually the trainer's
            `max_completion_length`.
        soft_punish_cache (`int`, *optional*, defaults to `16`):
            Length of the linear penalty zone before the maximum. The soft-penalty zone \( L_{\text{cache}} \), from 0
            to `max_completion_len`.

    Returns:
        `Callable`: A reward function returning a penalty in `[-1.0, 0.0]` per completion.

    Example:
    ```python
    >>> get_soft_overlong_reward(max_completion_len=4, soft_punish_cache=2)(["a b", "a b c", "a b c d e"])
    [0.0, -0.5, -1.0]
    ```
    """
    for name, value in (("max_completion_len", max_completion_len), ("soft_punish_cache", soft_punish_cache)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RewardError("reward.overlong_value", param=name, value=value)
    if max_completion_len < 1 or soft_punish_cache > max_completion_len:
        raise RewardError("reward.overlong_range", cache=soft_punish_cache, length=max_completion_len)
    return _SoftOverlong(max_completion_len, soft_punish_cache)


class _SoftOverlong:
    __name__ = "soft_overlong_reward"

    def __init__(self, max_completion_len: int, soft_punish_cache: int):
        from trl.rewards import get_soft_overlong_punishment

        self.trl_reward = get_soft_overlong_punishment(max_completion_len, soft_punish_cache)

    def __call__(self, completions: list | None = None, completion_ids: list | None = None, **kwargs) -> list[float]:
        if completions is None:  # TRL's own reward takes `completion_ids` alone: `reward(completion_ids=...)`
            if completion_ids is None:
                raise TypeError("soft_overlong_reward needs completions or completion_ids")
            completions = [""] * len(completion_ids)
        return [float(r) for r in self.trl_reward(_tokens(completions, completion_ids))]
