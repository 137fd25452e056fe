"""LLM-judge reward: a local causal LM reads a rubric and the completion, and the reward is its probability of "yes".

Deterministic (one forward pass, no sampling), batched (left-padded), and time-limited: completions not scored when
`time_limit` seconds have passed get `None` (TRL then skips them). It runs in-process, not in the sandbox, because it
is library code that only reads text. On the embedded SmolLM2-135M the judgement is weak: it follows surface cues
(length, politeness words) more than the rubric; use a larger instruction-tuned model for real work.
"""

from __future__ import annotations

import functools
import inspect
import logging
import re
import threading
import time

from rewards import host
from rewards._text import column, completion_text
from rewards.errors import RewardError


logger = logging.getLogger(__name__)

TEMPLATE = (
    "You are a strict grader. Criteria: {rubric}\n\nQuestion: {prompt}\n\nAnswer: {completion}\n\n"
    "Does the answer meet the criteria? Reply with yes or no."
)
_YES = ("yes", "Yes", " yes", " Yes", "YES")
_NO = ("no", "No", " no", " No", "NO")
ITEM = re.compile(r"\{\{\s*item\.([A-Za-z_]\w*)\s*\}\}")
_LOCK = threading.Lock()
_LOADED: dict[str, tuple] = {}


def load_judge(model_id: str):
    """(model, tokenizer) of the judge; "embedded" is the app's embedded model. One judge model per process."""
    with _LOCK:
        if model_id not in _LOADED:
            try:  # the host's loader (the playground's knows the embedded model), else transformers
                model, tokenizer = host.load_model(model_id)
            except Exception as exc:  # ModelLoadError and friends: name the judge in the message
                raise RewardError("reward.judge_load", model=model_id, error=str(exc)) from exc
            _LOADED.clear()
            _LOADED[model_id] = (model, tokenizer)
        return _LOADED[model_id]


def item_rubrics(rubric: str, kwargs: dict, n: int) -> list[str]:
    """
    The rubric of each of `n` completions: `{{item.<column>}}` references (OpenAI's score_model templates) filled
    with that row's value of the dataset column, e.g. the reference answer the judge compares with.
    """
    names = sorted(set(ITEM.findall(rubric)))
    if not names:
        return [rubric] * n
    values = {name: column("judge", name, kwargs, n) for name in names}
    return [ITEM.sub(lambda m, i=i: str(values[m.group(1)][i]), rubric) for i in range(n)]


def _token_ids(tokenizer, words: tuple[str, ...]) -> list[int]:
    ids = set()
    for word in words:
        encoded = tokenizer.encode(word, add_special_tokens=False)
        if len(encoded) == 1:
            ids.add(encoded[0])
    return sorted(ids)


def get_judge_reward(
    rubric: str = "The answer is polite, on topic and helpful.",
    model: str = "embedded",
    batch_size: int = 8,
    time_limit: float = 120.0,
):
    r"""
    Reward function that asks a local causal LM whether each completion meets a rubric.

    Args:
        rubric (`str`, *optional*, defaults to `"The answer is polite, on topic and helpful."`):
            What a good answer does. One or two sentences; `{{item.<column>}}` is filled with the row's value of that
            dataset column (as in OpenAI's score_model graders), e.g. `Reference answer: {{item.answer}}`.
        model (`str`, *optional*, defaults to `"embedded"`):
            'embedded', a Hub id or a local folder of a causal LM. `"embedded"` is SmolLM2-135M: weak.
        batch_size (`int`, *optional*, defaults to `8`):
            Completions per forward pass.
        time_limit (`float`, *optional*, defaults to `120.0`):
            Seconds per call; the rest get None. Completions not judged in time get `None`.

    Returns:
        `Callable`: A reward function returning P(yes) / (P(yes) + P(no)) in [0, 1] per completion.

    Example:
    ```python
    >>> polite = ["Thank you for asking! Plants use sunlight, water and air to make food.", "Go away."]
    >>> scores = get_judge_reward()(polite, prompts=["How do plants make food?"] * 2)  # the playground's model
    >>> [round(s, 2) for s in scores]
    [0.23, 0.16]
    ```
    """
    if not isinstance(rubric, str) or not rubric.strip():
        raise RewardError("reward.judge_rubric")
    if not isinstance(model, str) or not model.strip():
        raise RewardError("reward.judge_model")
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise RewardError("reward.batch_size", value=batch_size)
    if not time_limit > 0:
        raise RewardError("reward.time_limit", value=time_limit)
    return _JudgeReward(rubric.strip(), model.strip(), batch_size, float(time_limit))


@functools.cache
def keeps_last_logits(model_class: type) -> bool:
    """Whether `model_class.forward` takes `logits_to_keep` (transformers' causal LMs do), so that the judge computes
    the vocabulary's logits at the last position only: a vocabulary-wide row for every token of the prompt is about a
    fifth of SmolLM2-135M's forward pass, and 200 KB of memory per token."""
    try:
        return "logits_to_keep" in inspect.signature(model_class.forward).parameters
    except (TypeError, ValueError):  # no signature to read
        return False


def last_logits(model, batch):
    """The logits of the last position of each row of `batch` (left-padded): (rows, vocabulary)."""
    if keeps_last_logits(type(model)):
        return model(**batch, logits_to_keep=1).logits[:, -1]
    return model(**batch).logits[:, -1]


class _JudgeReward:
    __name__ = "judge_reward"

    def __init__(self, rubric: str, model: str, batch_size: int, time_limit: float):
        self.rubric = rubric
        self.model = model
        self.batch_size = batch_size
        self.time_limit = time_limit

    def __call__(self, completions: list, **kwargs) -> list[float | None]:
        import torch

        model, tokenizer = load_judge(self.model)
        yes, no = _token_ids(tokenizer, _YES), _token_ids(tokenizer, _NO)
        if not yes or not no:
            raise RewardError("reward.judge_tokens", model=self.model)
        prompts = kwargs.get("prompts") or [""] * len(completions)
        rubrics = item_rubrics(self.rubric, kwargs, len(completions))
        texts = [self._render(tokenizer, *row) for row in zip(rubrics, prompts, completions, strict=True)]
        out: list[float | None] = []
        start = time.monotonic()
        side = tokenizer.padding_side
        tokenizer.padding_side = "left"
        try:
            for first in range(0, len(texts), self.batch_size):
                if time.monotonic() - start > self.time_limit:
                    logger.warning(
                        "Judge time limit (%.0f s) reached; %d completions unscored",
                        self.time_limit,
                        len(texts) - first,
                    )
                    out += [None] * (len(texts) - first)
                    break
                batch = tokenizer(
                    texts[first : first + self.batch_size], return_tensors="pt", padding=True, add_special_tokens=False
                ).to(model.device)
                with torch.inference_mode():
                    logits = last_logits(model, batch).float()
                p_yes = torch.logsumexp(logits[:, yes], dim=-1)
                p_no = torch.logsumexp(logits[:, no], dim=-1)
                out += [round(float(x), 6) for x in torch.sigmoid(p_yes - p_no)]
        finally:
            tokenizer.padding_side = side
        return out

    def _render(self, tokenizer, rubric, prompt, completion) -> str:
        question = prompt if isinstance(prompt, str) else "\n".join(m["content"] for m in prompt)
        content = TEMPLATE.format(rubric=rubric, prompt=question, completion=completion_text(completion))
        if getattr(tokenizer, "chat_template", None):
            return tokenizer.apply_chat_template(
                [{"role": "user", "content": content}], add_generation_prompt=True, tokenize=False
            )
        return content + "\nAnswer:"
