"""Reasoning rewards from TRL and open-r1: answer after the reasoning, length-scaled correctness, reasoning steps.

Every function here takes standard (`str`) or conversational completions, as TRL passes them, and ignores extra
keyword arguments. math_verify runs in the library's answer checker (`rewards._bounded.bounded`: a child process with
a time and memory bound per call), in a public app, locally and in an exported script alike: sympy evaluates what
it parses, and `\\boxed{10^{10^{10^{10}}}}` would otherwise hold the caller's interpreter for hours.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from rewards._bounded import bounded, in_place
from rewards._text import column, completion_text, completion_texts, math_verify_timeouts
from rewards.errors import RewardError


COSINE_LENGTH_UNITS = ("tokens", "characters")


def _messages(completions: list) -> list[list[dict[str, str]]]:
    """Completions as TRL's accuracy rewards read them: one assistant message each."""
    return [[{"role": "assistant", "content": completion_text(c)}] for c in completions]


def get_reasoning_accuracy_reward(reasoning_delimiters: Sequence[str] = ("</think>",)):
    r"""
    TRL's [`~trl.rewards.reasoning_accuracy_reward`]: the text after the reasoning (after the first of
    `reasoning_delimiters` found, split at its last occurrence) is checked against the `solution` column with
    math_verify. A completion whose reasoning never ends gets 0.0; an unparseable solution gets `None` (TRL skips the
    example).

    Args:
        reasoning_delimiters (`list[str]`, *optional*, defaults to `["</think>"]`):
            Strings that end the reasoning (comma-separated).

    Returns:
        `Callable`: A reward function returning 1.0, 0.0 or `None` per completion.

    Example:
    ```python
    >>> get_reasoning_accuracy_reward()([r"<think>1/3?</think> \boxed{\frac{1}{3}}", r"<think>\boxed{\frac{1}{3}}"],
    ...                                 solution=[r"\frac{1}{3}", r"\frac{1}{3}"])
    [1.0, 0.0]
    ```
    """
    delimiters = [str(d) for d in reasoning_delimiters if str(d)]
    if not delimiters:
        raise RewardError("reward.delimiters")
    return _ReasoningAccuracy(delimiters)


class _ReasoningAccuracy:
    __name__ = "reasoning_accuracy_reward"

    def __init__(self, delimiters: list[str]):
        self.delimiters = delimiters

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        solution = column("reasoning_accuracy", "solution", kwargs, len(completions))
        messages, solutions = _messages(completions), [str(s) for s in solution]
        if in_place():  # bounded by math_verify's own alarms (rewards/_bounded.py); TRL's extra logging works here
            return _reasoning_accuracy(messages, solutions, self.delimiters, kwargs.get("log_extra"))
        return bounded(_reasoning_accuracy, messages, solutions, self.delimiters, size=len(messages))


def _reasoning_accuracy(messages: list, solutions: list[str], delimiters: list[str], log_extra=None) -> list:
    """TRL's `reasoning_accuracy_reward`, bounded (`rewards._bounded.bounded`)."""
    from trl.rewards import reasoning_accuracy_reward

    return reasoning_accuracy_reward(messages, solutions, reasoning_delimiters=delimiters, log_extra=log_extra)


def _accuracy(messages: list, solutions: list[str]) -> list[float | None]:
    """TRL's `accuracy_reward`, in the answer checker."""
    from trl.rewards import accuracy_reward

    return accuracy_reward(messages, solutions)


def get_cosine_scaled_reward(
    max_len: int = 1000,
    min_value_wrong: float = -1.0,
    max_value_wrong: float = -0.5,
    min_value_correct: float = 0.5,
    max_value_correct: float = 1.0,
    length_unit: str = "tokens",
):
    r"""
    Correctness scaled by length on a cosine schedule (Appendix C.1 of "Demystifying Long Chain-of-Thought
    Reasoning", https://huggingface.co/papers/2502.03373): `v_min + 0.5 * (v_max - v_min) * (1 + cos(pi * p))` with
    `p = min(length / max_len, 1)`. A correct completion runs from `max_value_correct` (empty) down to
    `min_value_correct` (at `max_len`); a wrong one from `min_value_wrong` up to `max_value_wrong`, so a short wrong
    answer is penalized most. Correctness is TRL's [`~trl.rewards.accuracy_reward`] against the `solution` column.

    - `length_unit="tokens"` is TRL's [`~trl.rewards.get_cosine_scaled_reward`]: the length is
      `len(completion_ids)` (whitespace-separated words when TRL passes no ids, e.g. on text).
    - `length_unit="characters"` is open-r1's `get_cosine_scaled_reward`: the length is `len(text)`.

    Both modes clamp `p` at 1 (TRL's fix: cos is periodic, so without it a completion of twice `max_len` would earn
    the short-completion reward again) and give `None` for an unparseable solution, as TRL does; open-r1 does
    neither (it gives 1.0 for an unparseable solution). The tokens mode checks answers with TRL's checker; the
    characters mode with open-r1's (the solution read by LaTeX extraction, the answer as `accuracy` reads it), but
    where open-r1 finds no LaTeX in the solution (`72`, `1/3`, `(1, 2)`, `1+2x`, `100\%`) and pays 1.0 to every
    completion, right or wrong, the solution is read as one LaTeX expression (`$1/3$`): right answers earn the correct
    range, wrong ones the wrong range.

    Args:
        max_len (`int`, *optional*, defaults to `1000`):
            Length at which the schedule reaches its long-completion bound. The default, 1000, is open-r1's.
        min_value_wrong (`float`, *optional*, defaults to `-1.0`):
            Reward of an empty wrong completion.
        max_value_wrong (`float`, *optional*, defaults to `-0.5`):
            Reward of a wrong completion of max_len.
        min_value_correct (`float`, *optional*, defaults to `0.5`):
            Reward of a correct completion of max_len.
        max_value_correct (`float`, *optional*, defaults to `1.0`):
            Reward of an empty correct completion.
        length_unit (`str`, *optional*, defaults to `"tokens"`):
            tokens (TRL; words without token ids) or characters (open-r1).

    Returns:
        `Callable`: A reward function returning a float (or `None`) per completion.

    Example:
    ```python
    >>> reward = get_cosine_scaled_reward(max_len=100)
    >>> reward([r"\boxed{\frac{1}{3}}", r"\boxed{\frac{1}{2}}"], solution=[r"\frac{1}{3}"] * 2,
    ...        completion_ids=[[1] * 50, [1] * 50])
    [0.75, -0.75]
    ```
    """
    if isinstance(max_len, bool) or not isinstance(max_len, int) or max_len < 1:
        raise RewardError("reward.cosine_max_len", value=max_len)
    if length_unit not in COSINE_LENGTH_UNITS:
        raise RewardError("reward.cosine_unit", valid=list(COSINE_LENGTH_UNITS))
    values = (min_value_wrong, max_value_wrong, min_value_correct, max_value_correct)
    return _CosineScaled(max_len, *(float(v) for v in values), length_unit)


class _CosineScaled:
    __name__ = "cosine_scaled_reward"

    def __init__(self, max_len: int, min_wrong: float, max_wrong: float, min_correct: float, max_correct: float, unit):
        self.max_len, self.unit = max_len, unit
        self.min_wrong, self.max_wrong = min_wrong, max_wrong
        self.min_correct, self.max_correct = min_correct, max_correct

    def __call__(self, completions: list, completion_ids: list | None = None, **kwargs) -> list[float | None]:
        solution = [str(s) for s in column("cosine_scaled", "solution", kwargs, len(completions))]
        texts = completion_texts(completions)
        # characters: open-r1's check of the texts; tokens and words: TRL's accuracy_reward of the messages
        check, answers = (
            (_open_r1_correct_all, texts) if self.unit == "characters" else (_accuracy, _messages(completions))
        )
        correct = bounded(check, answers, solution, size=len(texts))
        if self.unit == "characters":
            lengths = [len(t) for t in texts]
        elif completion_ids is not None:
            if len(completion_ids) != len(completions):
                raise RewardError("reward.completion_ids", count=len(completion_ids), n=len(completions))
            lengths = [len(ids) for ids in completion_ids]
        else:
            lengths = [len(t.split()) for t in texts]
        return [self._score(ok, n) for ok, n in zip(correct, lengths, strict=True)]

    def _score(self, correct: float | None, length: int) -> float | None:
        if correct is None:
            return None
        cosine = math.cos(min(length / self.max_len, 1.0) * math.pi)
        # A wrong completion swaps the bounds: the shortest gets min_value_wrong, the longest max_value_wrong.
        low, high = (self.min_correct, self.max_correct) if correct else (self.max_wrong, self.min_wrong)
        return float(low + 0.5 * (high - low) * (1.0 + cosine))


def len_reward(completions: list, solution: list[str] | None = None, prompts: list | None = None, **kwargs):
    r"""
    open-r1's `len_reward`, the length penalty of the Kimi 1.5 report (https://huggingface.co/papers/2501.12599):
    with `lambda = 0.5 - (len - min_len) / (max_len - min_len)` over the completions of one prompt (lengths in
    characters), a correct completion gets `lambda` and a wrong one `min(0, lambda)`; 0.0 for all when the lengths
    are equal. Correctness is math_verify against the `solution` column, as open-r1 parses it; an unparseable
    solution counts as correct.

    The group is the completions of the same prompt (TRL's `prompts`), as in the report; open-r1 takes min and max
    over the whole batch it is given, which is the same when called without `prompts` or with one prompt.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        solution (`list[str]`):
            Reference solutions in LaTeX (the `solution` column).
        prompts (`list`, *optional*):
            TRL's prompts; completions with equal prompts form a group.

    Returns:
        `list[float]`: One reward in `[-0.5, 0.5]` per completion.

    Example:
    ```python
    >>> len_reward([r"\boxed{2}", r"\boxed{2} because 1 + 1 = 2"], solution=["2", "2"])
    [0.5, -0.5]
    ```
    """
    texts = completion_texts(completions)
    solution = column("len_reward", "solution", {**kwargs, "solution": solution}, len(texts))
    # An answer the checker gave up on (past its time or memory) counts as wrong.
    correct = bounded(_kimi_all, texts, [str(gold) for gold in solution], size=len(texts))
    groups: dict[str, list[int]] = {}
    keys = [repr(p) for p in prompts] if prompts is not None and len(prompts) == len(texts) else [""] * len(texts)
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    rewards = [0.0] * len(texts)
    for members in groups.values():
        lengths = [len(texts[i]) for i in members]
        shortest, longest = min(lengths), max(lengths)
        if shortest == longest:
            continue
        for i, length in zip(members, lengths, strict=True):
            value = 0.5 - (length - shortest) / (longest - shortest)
            rewards[i] = float(value if correct[i] else min(0.0, value))
    return rewards


def _kimi_all(texts: list[str], golds: list[str]) -> list[bool]:
    return [_kimi_correct(text, gold) for text, gold in zip(texts, golds, strict=True)]


def _kimi_correct(text: str, gold: str) -> bool:
    """open-r1's correctness check of `len_reward`: LaTeX extraction only; an unparseable gold counts as correct."""
    gold_parsed = _latex_gold(gold)
    return True if not gold_parsed else _verify_answer(text, gold_parsed)


def _open_r1_correct_all(texts: list[str], golds: list[str]) -> list[float | None]:
    """The characters mode's check: open-r1's (LaTeX extraction of the solution), with a solution that holds no
    LaTeX read as one LaTeX expression instead of paying every completion; None when nothing parses."""
    out: list[float | None] = []
    for text, gold in zip(texts, golds, strict=True):
        gold_parsed = _latex_gold(gold) or _latex_gold(f"${gold}$")
        out.append(float(_verify_answer(text, gold_parsed)) if gold_parsed else None)
    return out


def _latex_gold(gold: str) -> list:
    from math_verify import LatexExtractionConfig, parse

    parsing_timeout, _ = math_verify_timeouts()
    config = [LatexExtractionConfig()]
    return parse(gold, extraction_mode="first_match", extraction_config=config, parsing_timeout=parsing_timeout)


def _verify_answer(text: str, gold_parsed: list) -> bool:
    """open-r1's (and TRL's) reading of an answer: LaTeX, a boxed answer first, then verified against the gold."""
    from latex2sympy2_extended import NormalizationConfig
    from math_verify import LatexExtractionConfig, parse, verify

    parsing_timeout, verify_timeout = math_verify_timeouts()
    normalization = NormalizationConfig(
        nits=False, malformed_operators=False, basic_latex=True, equations=True, boxed=True, units=True
    )
    config = LatexExtractionConfig(
        normalization_config=normalization, boxed_match_priority=0, try_extract_without_anchor=False
    )
    answer = parse(text, extraction_config=[config], extraction_mode="first_match", parsing_timeout=parsing_timeout)
    return bool(verify(answer, gold_parsed, timeout_seconds=verify_timeout))


# open-r1's step markers: "Step 1:", a numbered list item at the very start ("1."; no re.MULTILINE, so only there),
# "-" or "*" bullets after a newline, and the transition words First, / Second, / Next, / Finally,.
_STEP = re.compile(r"(Step \d+:|^\d+\.|\n-|\n\*|First,|Second,|Next,|Finally,)")


def reasoning_steps_reward(completions: list, **kwargs) -> list[float]:
    r"""
    open-r1's `reasoning_steps_reward`: `min(1, markers / 3)`, where markers counts "Step N:", a leading "1.",
    "-"/"*" bullets and the words First, / Second, / Next, / Finally,. Three markers earn full credit (open-r1's
    magic number, to encourage three steps or more).

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.

    Returns:
        `list[float]`: One reward in `[0, 1]` per completion.

    Example:
    ```python
    >>> reasoning_steps_reward(["Step 1: add\nStep 2: carry\nStep 3: done", "Just the answer."])
    [1.0, 0.0]
    ```
    """
    return [min(1.0, len(_STEP.findall(text)) / 3) for text in completion_texts(completions)]
