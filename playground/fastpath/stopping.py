"""Stop inside a rollout: the page's Stop ends a generation within one decode step, not after the whole step.

The training thread runs its `trainer.train` under `stop_rollouts_when(should_stop)`. Every decode step of a rollout,
on each path (the fast decoder's loops, and `generate` through `stopping_criteria()`), calls `check()`, which raises
`RolloutStopped` once `should_stop()` says yes. The step under way is dropped before its optimizer step (the weights
are still those of the last finished step), and the job saves that step's checkpoint. The check is the calling
thread's own: a preview or a lab sampling in another thread is never stopped by a run's Stop.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import torch
from transformers import StoppingCriteria, StoppingCriteriaList


class RolloutStopped(BaseException):
    """Raised at a decode step once Stop is asked: a `BaseException`, so no library's `except Exception` keeps the
    generation going."""


_local = threading.local()


@contextmanager
def stop_rollouts_when(should_stop: Callable[[], bool] | None) -> Iterator[None]:
    """Within the block, this thread's rollouts end at the decode step where `should_stop()` says yes (None: never)."""
    before = getattr(_local, "should_stop", None)
    _local.should_stop = should_stop
    try:
        yield
    finally:
        _local.should_stop = before


def check() -> None:
    """One decode step's check: raises `RolloutStopped` once this thread's `should_stop` says yes."""
    should_stop = getattr(_local, "should_stop", None)
    if should_stop is not None and should_stop():
        raise RolloutStopped


class _Check(StoppingCriteria):
    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor, **kwargs) -> torch.BoolTensor:
        check()
        return torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)


def stopping_criteria() -> dict:
    """`generate`'s keyword for the check at each decode step, or nothing outside `stop_rollouts_when`."""
    if getattr(_local, "should_stop", None) is None:
        return {}
    return {"stopping_criteria": StoppingCriteriaList([_Check()])}
