"""The visitor worker's code. The app never imports this file: `playground.isolation.visitor` loads its source into a
sandbox worker (`Sandbox`), which builds the selected library rewards and scores visitor text with them there, so a
regex, a similarity table or a math_verify parse of visitor-sized input holds that worker, never the app.

`build(completions, pg_reward, pg_params)` builds a reward (its errors come back as `RewardFailure`);
`score(completions, pg_reward, pg_params, **kwargs)` scores with it. Built rewards are kept for the worker's life,
which belongs to one owner.
"""

import json

import playground
from playground.errors import PlaygroundError
from rewards.registry import build_reward


_BUILT = {}
_SET_UP = []  # the worker's process set up for the playground (`playground.bootstrap()`), at its first reward
MODEL_REWARDS = frozenset({"reward_model", "judge"})


def _quiet_loading():
    """No progress bars while a model loads: tqdm's monitor thread would outlive the call, and the sandbox stops a
    worker that leaves a thread running."""
    try:
        import tqdm

        tqdm.tqdm.monitor_interval = 0
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
    except ImportError:
        pass


class RewardFailure(Exception):
    """A reward's own error, sent back as its catalogue key and values (JSON), so the page renders it in its
    language."""


def _failure(exc):
    return RewardFailure(json.dumps({"key": exc.key, "values": exc.values, "text": str(exc)}, default=str))


def _reward(name, params):
    if not _SET_UP:
        _SET_UP.append(playground.bootstrap())
    key = json.dumps([name, params], sort_keys=True, default=str)
    if key not in _BUILT:
        if name in MODEL_REWARDS:
            _quiet_loading()
        try:
            _BUILT[key] = build_reward(name, params)
        except PlaygroundError as exc:
            raise _failure(exc) from None
    return _BUILT[key]


def build(completions, pg_reward, pg_params, **kwargs):
    _reward(pg_reward, pg_params)
    return []


def score(completions, pg_reward, pg_params, **kwargs):
    func = _reward(pg_reward, pg_params)
    try:
        return func(completions, **kwargs)
    except PlaygroundError as exc:
        raise _failure(exc) from None
