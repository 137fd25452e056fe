"""Reference-similarity rewards: how close the completion is to a reference text in a dataset column.

The metrics are those of OpenAI's `text_similarity` grader, from well-kept packages: ROUGE-1 to ROUGE-5 and ROUGE-L
(`rouge-score`, F-measure), BLEU and chrF (`sacrebleu`), GLEU (`nltk`, a dependency of `rouge-score`), and two fuzzy
ratios (`rapidfuzz`): `fuzzy_match` is the scorer of OpenAI's own rapidfuzz grader example, `fuzz.WRatio` with
`utils.default_process` (lower-cased, punctuation removed), and `fuzzy` the plain normalized Levenshtein ratio
`fuzz.ratio`. Chinese, Japanese and Korean have no spaces between words, so text with CJK characters is compared
character by character (ROUGE and GLEU on characters, BLEU with sacrebleu's `zh` tokenizer); chrF and the fuzzy
ratios work on characters anyway.

Not available: OpenAI's `meteor` needs the WordNet data, which nltk downloads from the internet at first use and no
PyPI package ships, so it cannot run offline; `cosine` compares OpenAI embeddings, a remote model.
"""

from __future__ import annotations

import re

from rewards._text import column, completion_texts
from rewards.errors import RewardError


ROUGE_N = tuple(f"rouge_{n}" for n in range(1, 6))
METRICS = ("rouge_l", "bleu", "chrf", "fuzzy", "fuzzy_match", "gleu", *ROUGE_N)
_EAST_ASIAN_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|[^\W_]+", re.UNICODE)


def has_cjk(text: str) -> bool:
    return bool(_EAST_ASIAN_SCRIPT.search(text))


class _Tokens:
    """rouge-score tokenizer: lower-cased words, each CJK character a word of its own (rouge-score's default
    tokenizer drops every non-ASCII character, which would make any two Chinese texts score 0)."""

    def tokenize(self, text: str) -> list[str]:
        return _WORD.findall(text.lower())


def similarity(prediction: str, reference: str, metric: str) -> float:
    """Similarity in [0, 1] between two texts; `metric` is one of METRICS."""
    if not prediction.strip() or not reference.strip():
        return 0.0
    if metric == "rouge_l" or metric in ROUGE_N:
        from rouge_score.rouge_scorer import RougeScorer

        key = "rougeL" if metric == "rouge_l" else metric.replace("_", "")
        return float(RougeScorer([key], tokenizer=_Tokens()).score(reference, prediction)[key].fmeasure)
    if metric == "bleu":
        from sacrebleu.metrics import BLEU

        tokenize = "zh" if has_cjk(reference) or has_cjk(prediction) else "13a"
        bleu = BLEU(tokenize=tokenize, effective_order=True)
        return float(bleu.sentence_score(prediction, [reference]).score) / 100
    if metric == "gleu":
        from nltk.translate.gleu_score import sentence_gleu

        tokens = _Tokens()
        return float(sentence_gleu([tokens.tokenize(reference)], tokens.tokenize(prediction)))
    if metric == "chrf":
        from sacrebleu.metrics import CHRF

        return float(CHRF().sentence_score(prediction, [reference]).score) / 100
    if metric == "fuzzy":
        from rapidfuzz import fuzz

        return float(fuzz.ratio(prediction, reference)) / 100
    if metric == "fuzzy_match":
        from rapidfuzz import fuzz, utils

        return float(fuzz.WRatio(prediction, reference, processor=utils.default_process)) / 100
    raise RewardError("reward.similarity_metric", value=metric, valid=list(METRICS))


def get_similarity_reward(column: str = "reference", metric: str = "rouge_l"):
    r"""
    Reward function that scores the completion's similarity to the reference text in a dataset column.

    Args:
        column (`str`, *optional*, defaults to `"reference"`):
            Dataset column with the reference text.
        metric (`str`, *optional*, defaults to `"rouge_l"`):
            rouge_l, rouge_1..rouge_5, bleu, gleu, chrf, fuzzy_match (OpenAI's WRatio) or fuzzy (Levenshtein).
            `"rouge_l"` is the longest common subsequence F-measure, `"rouge_1"` to `"rouge_5"` the n-gram overlap
            F-measure, `"bleu"` and `"gleu"` sentence BLEU and GLEU, `"chrf"` the character n-gram F-score,
            `"fuzzy_match"` rapidfuzz WRatio after lower-casing and removing punctuation (OpenAI's example), `"fuzzy"`
            the normalized Levenshtein ratio.

    Returns:
        `Callable`: A reward function returning a similarity in [0, 1], or `None` when the reference is missing.

    Example:
    ```python
    >>> get_similarity_reward(metric="fuzzy")(["the cat sat", "a dog"], reference=["the cat sat", "the cat sat"])
    [1.0, 0.25]
    ```
    """
    if not isinstance(column, str) or not column.strip():
        raise RewardError("reward.needs_column", name="similarity", value=column)
    if metric not in METRICS:
        raise RewardError("reward.option", name="similarity", option="metric", valid=list(METRICS), value=metric)
    return _SimilarityReward(column.strip(), metric)


class _SimilarityReward:
    __name__ = "similarity_reward"

    def __init__(self, column: str, metric: str):
        self.column = column
        self.metric = metric

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        references = column("similarity", self.column, kwargs, len(completions))
        return [
            None if ref is None else round(similarity(text, str(ref), self.metric), 6)
            for text, ref in zip(completion_texts(completions), references, strict=True)
        ]


STRING_OPERATIONS = ("eq", "ne", "like", "ilike")


def get_string_check_reward(column: str = "reference", operation: str = "eq"):
    r"""
    Reward function that compares the completion with a reference string, as OpenAI's `string_check` grader does.

    Args:
        column (`str`, *optional*, defaults to `"reference"`):
            Dataset column with the reference string.
        operation (`str`, *optional*, defaults to `"eq"`):
            eq, ne, like or ilike. `"eq"` (equal), `"ne"` (not equal), `"like"` (contains the reference) or `"ilike"`
            (contains it, ignoring case), as OpenAI's `string_check` defines them: exact, nothing is stripped (`"Paris
            "` is not `"Paris"`).

    Returns:
        `Callable`: A reward function returning 1.0 or 0.0, or `None` when the reference is missing.

    Example:
    ```python
    >>> get_string_check_reward(operation="ilike")(["The answer is PARIS.", "Lyon"], reference=["paris", "paris"])
    [1.0, 0.0]
    ```
    """
    if not isinstance(column, str) or not column.strip():
        raise RewardError("reward.needs_column", name="string_check", value=column)
    if operation not in STRING_OPERATIONS:
        raise RewardError(
            "reward.option", name="string_check", option="operation", valid=list(STRING_OPERATIONS), value=operation
        )
    return _StringCheckReward(column.strip(), operation)


class _StringCheckReward:
    __name__ = "string_check_reward"

    def __init__(self, column: str, operation: str):
        self.column = column
        self.operation = operation

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        references = column("string_check", self.column, kwargs, len(completions))
        return [
            None if ref is None else float(self._check(text, str(ref)))
            for text, ref in zip(completion_texts(completions), references, strict=True)
        ]

    def _check(self, text: str, ref: str) -> bool:
        if self.operation == "eq":
            return text == ref
        if self.operation == "ne":
            return text != ref
        if self.operation == "like":
            return ref in text
        return ref.lower() in text.lower()
