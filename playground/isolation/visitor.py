"""Visitor workers: in public mode, library rewards score visitor text in a bounded worker process, never in the app.

A `VisitorWorker` is a sandbox worker (`Sandbox`: a separate, confined process with no network) that runs the
trusted `scorer.py`: it builds the selected library rewards and scores with them. Each call has a deadline (the
worker is killed and replaced past it), the worker an address-space cap (`RLIMIT_AS`) and a CPU budget per call, so
a regex, a similarity table or a math_verify parse of visitor-sized input can hold only its own worker: the app's
interpreter and its lock stay free for every other visitor.

A worker belongs to one owner and is never reused for another: `VisitorWorkers.get(owner)` keeps one per owner key
(a server-issued browser token), and without an owner (`None`: one MCP call, one training run, one request that
named none) a fresh worker serves the rewards of that one `build_rewards` call and stops with them. Calls to one
worker take turns, so one visitor's slow calls queue behind each other, not in front of other visitors'.

Rewards that load a model (`reward_model`, `judge`) stay in the app's process, limited in public mode to the app's
own model, whose load and sampling the admission gate prices; `code_tests` stays too: its programs already run in
fresh confined children (`playground.sandbox.programs`).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from playground.errors import RewardError
from playground.runtime.mode import is_public
from playground.sandbox.client import Sandbox, SandboxError
from playground.sandbox.settings import SandboxLimits


logger = logging.getLogger(__name__)

SCORER_SOURCE = Path(__file__).with_name("scorer.py")
# Library rewards that stay in the app's process in public mode (see the module's docstring).
IN_APP = frozenset({"reward_model", "judge", "code_tests"})
VISITOR_LIMITS = SandboxLimits(
    timeout=10.0,  # one reward call on a group: milliseconds for honest input, up to the gate's largest in seconds
    load_timeout=60.0,  # importing the reward library in a fresh interpreter on a loaded machine
    memory_mb=1024,  # the library with math_verify and sympy maps about 150 MB; an n x m table past this fails
    cpu_seconds=600,  # the worker's life; each call may use about `timeout` CPU seconds (`confine.allow_cpu`)
    disk_mb=16,
    disk_files=200,
    clean_between_calls=True,
    network=False,
    shared_reads=False,
    nice=10,  # the app's process keeps its share of the CPU while a worker computes
)
MAX_OWNED = 16  # owners with a worker kept between requests; past it the least recently used one is stopped
_OWNER: contextvars.ContextVar[str | None] = contextvars.ContextVar("visitor_owner", default=None)


def in_worker(name: str, public: bool | None = None) -> bool:
    """Whether library reward `name` scores in a visitor worker: in public mode, every one but `IN_APP`."""
    return is_public(public) and name not in IN_APP


@contextlib.contextmanager
def acting_for(owner: str | None) -> Iterator[None]:
    """Within this block, `build_rewards` gives library rewards the worker of `owner` (a browser token's owner key)."""
    token = _OWNER.set(owner)
    try:
        yield
    finally:
        _OWNER.reset(token)


def current_owner() -> str | None:
    return _OWNER.get()


class VisitorWorker:
    """One owner's worker: builds library rewards and scores with them (`reward`)."""

    def __init__(self, limits: SandboxLimits = VISITOR_LIMITS):
        self.sandbox = Sandbox(SCORER_SOURCE.read_text(encoding="utf-8"), ["build", "score"], limits, own_code=True)

    def reward(self, name: str, params: dict[str, Any], shown_as: str) -> VisitorReward:
        """The reward `name` with `params`, built in the worker now, so a bad parameter fails here, as in the app."""
        self._call("build", name, params, shown_as, [], {})
        return VisitorReward(self, name, params, shown_as)

    def score(self, name: str, params: dict[str, Any], shown_as: str, completions: list, kwargs: dict) -> list:
        return self._call("score", name, params, shown_as, completions, kwargs)

    def _call(self, function: str, name: str, params: dict, shown_as: str, completions: list, kwargs: dict) -> list:
        try:
            result = self.sandbox.call(
                function, completions, shown_as=shown_as, pg_reward=name, pg_params=params, **kwargs
            )
        except SandboxError as exc:
            if exc.error_type == "RewardFailure":  # the reward's own error, as the app would have raised it
                raise _reward_error(exc.error_detail) from None
            raise
        return result.values

    def close(self) -> None:
        self.sandbox.close()


def _reward_error(detail: str | None) -> RewardError:
    try:
        sent = json.loads(detail or "")
        return RewardError(str(sent["key"]), **dict(sent.get("values") or {}))
    except (ValueError, KeyError, TypeError):
        return RewardError(str(detail or "")[:1000])


class VisitorReward:
    """A library reward that scores in a `VisitorWorker`: what `build_rewards` returns for it in public mode.

    It keeps the reward's metric name as `__name__`, so TRL logs `rewards/<name>/mean`. Pickling keeps the reward and
    its parameters, not the process: an unpickled copy gets a fresh worker of its own.
    """

    def __init__(self, worker: VisitorWorker, name: str, params: dict[str, Any], shown_as: str):
        self.worker, self.reward, self.params = worker, name, dict(params)
        self.__name__ = shown_as

    def __call__(self, completions: list, **kwargs: Any) -> list[float | None]:
        return self.worker.score(self.reward, self.params, self.__name__, list(completions), kwargs)

    def __repr__(self) -> str:
        return f"<{self.reward} reward in a visitor worker>"

    def __getstate__(self) -> dict[str, Any]:
        return {"reward": self.reward, "params": self.params, "name": self.__name__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.worker, self.reward, self.params = VisitorWorker(), state["reward"], state["params"]
        self.__name__ = state["name"]


def close_workers(funcs) -> None:
    """Stop the visitor workers behind `funcs` (other rewards are left alone): a training run's, when it ends."""
    for worker in {id(f.worker): f.worker for f in funcs if isinstance(f, VisitorReward)}.values():
        worker.close()


class VisitorWorkers:
    """The workers of owners, one each (at most `limit` kept); `get(None)` is a fresh worker nobody else gets."""

    def __init__(self, limit: int = MAX_OWNED):
        self.limit = limit
        self._lock = threading.Lock()
        self._workers: OrderedDict[str, VisitorWorker] = OrderedDict()

    def get(self, owner: str | None) -> VisitorWorker:
        if owner is None:
            return VisitorWorker()
        evicted = []
        with self._lock:
            worker = self._workers.pop(owner, None) or VisitorWorker()
            self._workers[owner] = worker
            while len(self._workers) > self.limit:
                evicted.append(self._workers.popitem(last=False)[1])
        for old in evicted:  # outside the lock: closing waits for a call in progress
            old.close()
        return worker

    def close(self, owner: str) -> None:
        with self._lock:
            worker = self._workers.pop(owner, None)
        if worker is not None:
            worker.close()


WORKERS = VisitorWorkers()


def visitor_worker(owner: str | None = None) -> VisitorWorker:
    """The worker for `owner` (default: the one `acting_for` set; none: a fresh one)."""
    return WORKERS.get(owner if owner is not None else current_owner())
