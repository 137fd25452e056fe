"""What an application that runs the reward library tells it; the library imports nothing of its host.

Without a host the library runs as it would in an exported script: answers are checked in this process, judge models
load with `transformers`, and errors are plain `RewardError`s in English. The playground calls `configure` from
`playground.bootstrap()`, which each of its entry points calls once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from rewards.errors import RewardError


_public: Callable[[], bool] = lambda: False  # noqa: E731
_load_model: Callable[[str], tuple[Any, Any]] | str | None = None


def configure(
    *,
    error_class: type[RewardError] | None = None,
    public: Callable[[], bool] | None = None,
    load_model: Callable[[str], tuple[Any, Any]] | str | None = None,
) -> None:
    """Set what the host provides; each argument left `None` keeps its current value.

    - `error_class`: a subclass of `RewardError` that every `RewardError(...)` the library raises is instead, so the
      host's handlers of its own error family catch it and translate its key.
    - `public`: whether the app serves the public, asked at each call; accuracy rewards then check answers in a child
      process with a time and memory bound (`rewards._bounded`).
    - `load_model`: `(model, tokenizer)` of a causal LM id, for the judge (the host's loader knows its own models); a
      callable, or the `"module:name"` of one, imported at the first load (a loader that itself imports the library).
    """
    global _public, _load_model
    if error_class is not None:
        if not issubclass(error_class, RewardError):
            raise TypeError(f"{error_class!r} is not a subclass of RewardError")
        RewardError.host_class = error_class
    if public is not None:
        _public = public
    if load_model is not None:
        _load_model = load_model


def is_public() -> bool:
    """Public mode, as the host says (never without a host)."""
    return bool(_public())


def load_model(model_id: str) -> tuple[Any, Any]:
    """`(model, tokenizer)` of a causal LM: the host's loader, else `transformers` from the Hub id or folder."""
    global _load_model
    if isinstance(_load_model, str):
        module, _, name = _load_model.partition(":")
        _load_model = getattr(importlib.import_module(module), name)
    if _load_model is not None:
        return _load_model(model_id)
    from transformers import AutoModelForCausalLM, AutoTokenizer

    return AutoModelForCausalLM.from_pretrained(model_id), AutoTokenizer.from_pretrained(model_id)
