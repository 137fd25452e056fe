"""Reward-model reward: a sequence-classification model with one label scores prompt + completion.

TRL's `GRPOTrainer` accepts a model id (or folder) in `reward_funcs` and loads it with
`AutoModelForSequenceClassification.from_pretrained(id, num_labels=1)`; its reward is `logits[:, 0]` of the prompt
and completion joined (plain text) or rendered through the reward tokenizer's chat template (conversations), padded
on the right, without special tokens added. This reward does exactly that, so the preview and the dry run show the
values training will use; `trl_reward_func` is the id to hand to TRL itself.
"""

from __future__ import annotations

import logging
import threading

from rewards._text import completion_text
from rewards.errors import RewardError


logger = logging.getLogger(__name__)

_LOCK = threading.Lock()
_LOADED: dict[str, tuple] = {}  # model id -> (model, tokenizer); one process-wide copy per reward model


def load_classifier(model_id: str):
    """(model, tokenizer) of a one-label sequence classifier, loaded once per process, as TRL loads it."""
    with _LOCK:
        if model_id not in _LOADED:
            from transformers import AutoModelForSequenceClassification, AutoTokenizer

            try:
                model = AutoModelForSequenceClassification.from_pretrained(model_id, num_labels=1).eval()
                tokenizer = AutoTokenizer.from_pretrained(model_id)
            except (OSError, ValueError) as exc:
                raise RewardError("reward.model_load", model=model_id, error=str(exc).splitlines()[0]) from exc
            if tokenizer.pad_token_id is None:
                tokenizer.pad_token = tokenizer.eos_token
            if model.config.pad_token_id is None:
                model.config.pad_token_id = tokenizer.pad_token_id
            _LOADED.clear()  # keep one reward model in memory
            _LOADED[model_id] = (model, tokenizer)
        return _LOADED[model_id]


def get_reward_model_reward(model: str = "", batch_size: int = 8):
    r"""
    Reward function that scores each prompt + completion with a sequence-classification reward model.

    Args:
        model (`str`, *optional*, defaults to `""`):
            Hub id or local folder of the reward model. A model loadable by `AutoModelForSequenceClassification` with
            one label.
        batch_size (`int`, *optional*, defaults to `8`):
            Completions per forward pass.

    Returns:
        `Callable`: A reward function returning the model's logit per completion (unbounded; higher is better).

    Example:
    ```python
    >>> reward = get_reward_model_reward("./my-reward-model")
    >>> reward(["A kind answer."], prompts=["Say something."])
    [1.73]
    ```
    """
    if not isinstance(model, str):
        raise RewardError("reward.model_id", value=model)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise RewardError("reward.batch_size", value=batch_size)
    return _RewardModelReward(model.strip(), batch_size)


class _RewardModelReward:
    __name__ = "reward_model_reward"

    def __init__(self, model: str, batch_size: int):
        self.model = model
        self.batch_size = batch_size

    @property
    def trl_reward_func(self) -> str:
        """What to put in TRL's `reward_funcs` for this reward: the model id, as TRL loads it."""
        return self.model

    def __call__(self, completions: list, **kwargs) -> list[float]:
        import torch

        if not self.model:
            raise RewardError("reward.model_missing")
        model, tokenizer = load_classifier(self.model)
        prompts = kwargs.get("prompts") or [""] * len(completions)
        texts = [_text(tokenizer, p, c) for p, c in zip(prompts, completions, strict=True)]
        out: list[float] = []
        for start in range(0, len(texts), self.batch_size):
            batch = tokenizer(
                text=texts[start : start + self.batch_size],
                return_tensors="pt",
                padding=True,
                padding_side="right",
                add_special_tokens=False,
            )
            with torch.inference_mode():
                out += [float(x) for x in model(**batch).logits[:, 0]]
        return out


def _text(tokenizer, prompt, completion) -> str:
    """Prompt + completion as TRL joins them for a reward model."""
    if isinstance(prompt, list):
        messages = list(prompt)
        messages += completion if isinstance(completion, list) else [{"role": "assistant", "content": completion}]
        if getattr(tokenizer, "chat_template", None):
            return tokenizer.apply_chat_template(messages, tokenize=False)
        return "".join(m["content"] for m in messages)
    return str(prompt or "") + completion_text(completion)
