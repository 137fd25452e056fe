"""Length rewards: the seed article's length target and its weighted combination with the section format."""

from __future__ import annotations

from rewards._text import completion_texts
from rewards.errors import RewardError
from rewards.format import format_reward


def get_length_reward(ideal_length: int = 100):
    r"""
    Reward function that prefers completions of `ideal_length` characters: `-abs(ideal_length - len(text))`.

    Args:
        ideal_length (`int`, *optional*, defaults to `100`):
            Target completion length, in characters. Characters, not tokens; must be non-negative.

    Returns:
        `Callable`: A reward function returning `0.0` for a completion of exactly `ideal_length` characters and
        minus the distance in characters otherwise.

    Example:
    ```python
    >>> get_length_reward(ideal_length=5)(["hello", "hi"])
    [0.0, -3.0]
    ```
    """
    _check_length(ideal_length)
    return _LengthReward(int(ideal_length))


class _LengthReward:
    __name__ = "length_reward"

    def __init__(self, ideal_length: int):
        self.ideal_length = ideal_length

    def __call__(self, completions: list, **kwargs) -> list[float]:
        return [float(-abs(self.ideal_length - len(text))) for text in completion_texts(completions)]


def get_combined_reward(length_weight: float = 0.7, format_weight: float = 0.3, ideal_length: int = 100):
    r"""
    The seed article's combined reward: `length_weight * length + format_weight * format`, where `length` is
    [`get_length_reward`] and `format` is [`format_reward`] (`<intro>`/`<body>`/`<conclusion>` sections).

    Args:
        length_weight (`float`, *optional*, defaults to `0.7`):
            Weight of the length reward.
        format_weight (`float`, *optional*, defaults to `0.3`):
            Weight of the format reward.
        ideal_length (`int`, *optional*, defaults to `100`):
            Target completion length, in characters. The length reward's target.

    Returns:
        `Callable`: A reward function returning the weighted sum per completion.

    Example:
    ```python
    >>> get_combined_reward(ideal_length=10)(["<intro>a</intro><body>b</body><conclusion>c</conclusion>", "0" * 10])
    [-31.9, 0.0]
    ```
    """
    _check_length(ideal_length)
    return _CombinedReward(float(length_weight), float(format_weight), int(ideal_length))


class _CombinedReward:
    __name__ = "combined_reward"

    def __init__(self, length_weight: float, format_weight: float, ideal_length: int):
        self.length_weight = length_weight
        self.format_weight = format_weight
        self.length = _LengthReward(ideal_length)

    def __call__(self, completions: list, **kwargs) -> list[float]:
        lengths = self.length(completions)
        formats = format_reward(completions)
        # Rounded so that e.g. 0.7 * -43 + 0.3 reads -29.8, not -29.799999999999997.
        return [
            round(self.length_weight * le + self.format_weight * fo, 10)
            for le, fo in zip(lengths, formats, strict=True)
        ]


def _check_length(ideal_length: int) -> None:
    if isinstance(ideal_length, bool) or not isinstance(ideal_length, int) or ideal_length < 0:
        raise RewardError("reward.ideal_length", value=ideal_length)
