"""Accuracy rewards: compare the completion's final answer with a reference answer from the dataset."""

from __future__ import annotations

import math
import re

from rewards._bounded import bounded, in_place
from rewards._text import column, completion_text, completion_texts, math_verify_timeouts
from rewards.errors import RewardError


CORRECTNESS_MODES = ("auto", "numeric", "math_verify")

_ANSWER_TAG = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
# A number or fraction not glued to a word ("v2") or a date ("1/2/2020"), with a minus sign that is not a hyphen
# ("3-4"), and thousands separators only in groups of 3. Units may follow ("5km").
_NUMBER = re.compile(
    r"(?:(?<![\w)])-|(?<![\w./]))(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:/\d+(?:\.\d+)?)?(?![\d/])"
)
_FRAC = re.compile(r"\\[dt]?frac\{\s*(-?[\d.]+)\s*\}\{\s*([\d.]+)\s*\}")
# A reference that math_verify cannot parse bare is retried inside $...$ only if it looks like math.
_MATHY = re.compile(r"[\\^_{}\d=+*/-]")
_PLAIN_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d+)?|\.\d+)")


def get_correctness_reward(column: str = "answer", mode: str = "auto"):
    r"""
    Reward function that compares the completion's final answer with the reference answer in a dataset column.

    The reference is read from `kwargs[column]`; for a GSM8K-style reference (`"...reasoning... #### 72"`) only the
    text after the last `####` is used. Modes:

    - `"numeric"`: the number is extracted from the completion from, in order of preference, the last
      `<answer>…</answer>`, the last `\boxed{…}`, the text after the last `####`, else the whole text; the last number
      of that region is taken (`$`, `,` thousands separators, `{,}`, `a/b` and `\frac{a}{b}` are handled).
      Reference and prediction are compared as floats with `math.isclose(rel_tol=1e-6, abs_tol=1e-6)`.
    - `"math_verify"`: reference and prediction (the `<answer>` content if there is one, else the whole text) are
      parsed as LaTeX/expressions by `math_verify.parse` and compared with `math_verify.verify`, so `\frac{1}{2}`,
      `0.5` and `\boxed{\frac12}` agree. A reference (or `<answer>` content) that does not parse bare is retried inside
      `$…$`.
    - `"auto"`: `"numeric"` when the reference is a plain number, otherwise `"math_verify"`.

    Args:
        column (`str`, *optional*, defaults to `"answer"`):
            Dataset column with the reference answer.
        mode (`str`, *optional*, defaults to `"auto"`):
            numeric compares numbers, math_verify compares LaTeX, auto picks by the reference. One of `"auto"`,
            `"numeric"`, `"math_verify"`.

    Returns:
        `Callable`: A reward function returning 1.0 (correct), 0.0 (wrong or no answer found), or `None` when the
        reference answer is missing or cannot be parsed, so that TRL skips the example.

    Example:
    ```python
    >>> get_correctness_reward()(["Half of 144 is #### 72", r"\boxed{71}", "72"], answer=["72", "72", None])
    [1.0, 0.0, None]
    ```
    """
    if not isinstance(column, str) or not column.strip():
        raise RewardError("reward.needs_column", name="correctness", value=column)
    if mode not in CORRECTNESS_MODES:
        raise RewardError(
            "reward.option", name="correctness", option="mode", valid=list(CORRECTNESS_MODES), value=mode
        )
    return _CorrectnessReward(column.strip(), mode)


class _CorrectnessReward:
    __name__ = "correctness_reward"

    def __init__(self, column: str, mode: str):
        self.column = column
        self.mode = mode

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        golds = column("correctness", self.column, kwargs, len(completions))
        texts = completion_texts(completions)
        if self.mode != "numeric":  # math_verify in a child process, bounded (rewards/_bounded.py)
            return bounded(_score_all, self.mode, texts, list(golds), size=len(texts))
        return _score_all(self.mode, texts, golds)

    def _score(self, text: str, gold) -> float | None:
        gold = _gold_text(gold)
        if gold is None:
            return None
        mode = self.mode
        if mode == "auto":
            mode = "numeric" if _plain_number(gold) is not None else "math_verify"
        if mode == "math_verify":
            return _math_verify_score(text, gold)
        gold_value = extract_number(gold)
        if gold_value is None:
            return None
        pred = extract_number(text)
        return 1.0 if pred is not None and math.isclose(pred, gold_value, rel_tol=1e-6, abs_tol=1e-6) else 0.0


def _score_all(mode: str, texts: list[str], golds: list) -> list[float | None]:
    reward = _CorrectnessReward("answer", mode)
    return [reward._score(text, gold) for text, gold in zip(texts, golds, strict=True)]


def _gold_text(gold) -> str | None:
    if gold is None or (isinstance(gold, float) and math.isnan(gold)):
        return None
    text = str(gold)
    if "####" in text:
        text = text.rsplit("####", 1)[1]
    text = text.strip()
    return text or None


def _plain_number(text: str) -> float | None:
    cleaned = re.sub(r"[\s$,]", "", text.replace("{,}", ",").replace("\\$", "$")).removesuffix("%").rstrip(".")
    return float(cleaned) if _PLAIN_NUMBER.fullmatch(cleaned) else None


def _last_boxed(text: str) -> str | None:
    start = text.rfind("\\boxed{")
    if start < 0:
        return None
    depth, i = 1, start + len("\\boxed{")
    for j in range(i, len(text)):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            return text[i:j]
    return text[i:]


def extract_number(text: str) -> float | None:
    r"""
    The final numeric answer of a text: the last number of the last `<answer>…</answer>`, else of the last
    `\boxed{…}`, else of the text after the last `####`, else of the whole text. `None` if that region has none.

    Example:
    ```python
    >>> extract_number(r"It costs $1,234.50, so \boxed{1{,}234.5}")
    1234.5
    ```
    """
    text = text.replace("−", "-")
    answers = _ANSWER_TAG.findall(text)
    if answers:
        region = answers[-1]
    elif (boxed := _last_boxed(text)) is not None:
        region = boxed
    elif "####" in text:
        region = text.rsplit("####", 1)[1]
    else:
        region = text
    region = _FRAC.sub(r"\1/\2", region.replace("{,}", ",").replace("\\$", "").replace("$", ""))
    for number in reversed(_NUMBER.findall(region)):
        num, _, den = number.replace(",", "").partition("/")
        if not den:
            return float(num)
        if float(den) != 0:
            return float(num) / float(den)
    return None


def _math_verify_score(text: str, gold: str) -> float | None:
    from math_verify import parse, verify

    parsing_timeout, verify_timeout = math_verify_timeouts()
    gold_parsed = parse(gold, parsing_timeout=parsing_timeout)
    if not gold_parsed and "$" not in gold and _MATHY.search(gold):
        gold_parsed = parse(f"${gold}$", parsing_timeout=parsing_timeout)
    if not gold_parsed:
        return None
    answers = _ANSWER_TAG.findall(text)
    pred_parsed = parse(answers[-1] if answers else text, parsing_timeout=parsing_timeout)
    if not pred_parsed and answers and "$" not in answers[-1]:
        pred_parsed = parse(f"${answers[-1]}$", parsing_timeout=parsing_timeout)
    if not pred_parsed:
        return 0.0
    return float(verify(gold_parsed, pred_parsed, timeout_seconds=verify_timeout))


def accuracy_reward(completions: list, solution: list[str] | None = None, **kwargs) -> list[float | None]:
    r"""
    TRL's [`~trl.rewards.accuracy_reward`]: the completion's boxed/LaTeX answer is checked against the `solution`
    column with math_verify; `None` when the solution cannot be parsed. TRL's function only reads conversational
    completions; standard (`str`) ones are wrapped into an assistant message first. TRL disables math_verify's
    `signal.alarm` timeouts off the main thread.

    Args:
        completions (`list[str]` or `list[list[dict[str, str]]]`):
            Standard or conversational completions.
        solution (`list[str]`):
            Reference solutions in LaTeX, one per completion (the `solution` dataset column).
        **kwargs:
            `log_extra` is forwarded to TRL; the rest is ignored.

    Returns:
        `list[float | None]`: 1.0, 0.0, or `None` per completion.

    Example:
    ```python
    >>> accuracy_reward([r"\boxed{\frac{1}{3}}", r"\boxed{\frac{1}{2}}"], solution=[r"\frac{1}{3}", r"\frac{1}{3}"])
    [1.0, 0.0]
    ```
    """
    from trl.rewards import accuracy_reward as trl_accuracy_reward

    solution = column("accuracy", "solution", {**kwargs, "solution": solution}, len(completions))
    messages = [[{"role": "assistant", "content": completion_text(c)}] for c in completions]
    if in_place():  # bounded by math_verify's own alarms (rewards/_bounded.py); TRL's extra logging works here
        return trl_accuracy_reward(messages, [str(s) for s in solution], log_extra=kwargs.get("log_extra"))
    return bounded(trl_accuracy_reward, messages, [str(s) for s in solution], size=len(messages))
