"""Visitor workers: in public mode, library rewards score visitor text in a bounded worker process, never in the app.

A `VisitorWorker` is a sandbox worker (`Sandbox`: a separate, confined process with no network) that runs the
trusted `scorer.py`: it builds the selected library rewards and scores with them. Each call has a deadline (the
worker is killed and replaced past it), the worker an address-space cap (`RLIMIT_AS`) and a CPU budget per call, so
a regex, a similarity table, a math_verify parse or a model's forward pass on visitor-sized input can hold only its
own worker: the app's interpreter and its lock stay free for every other visitor.

Two kinds of worker: `text` ones score every library reward that reads text only; `model` ones (more memory, the Hub
cache readable) load the model of a `judge` or `reward_model` reward and run it. `code_tests` builds in the app: its
programs already run in fresh confined children (`playground.sandbox.programs`).

A worker belongs to one owner, the owner key of a server-issued browser token, and is never reused for another:
`VisitorWorkers.get(owner, kind)` keeps one per owner and kind, reused by that owner's later calls (Try on text does
not start a worker per call). A worker idle for `Caps.worker_idle_seconds` stops; past `max_visitor_workers` (or
`max_model_workers`) live ones, the least recently used idle one stops. Without an owner (`None`: one MCP call, one
training run, an API call that sent no token) a fresh worker serves the rewards of that one `build_rewards` call and
stops with them. Calls to one worker take turns, so one visitor's slow calls queue behind each other, not in front of
other visitors'.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from playground.errors import RewardError
from playground.sandbox.client import Sandbox, SandboxError
from playground.sandbox.settings import SandboxLimits
from playground.scoring import LOCAL
from playground.settings import is_public


logger = logging.getLogger(__name__)

SCORER_SOURCE = Path(__file__).with_name("scorer.py")
# Library rewards that stay in the app's process in public mode (see the module's docstring).
IN_APP = frozenset({"code_tests"})
# Library rewards that load a model: they score in a `model` worker.
MODEL_REWARDS = frozenset({"reward_model", "judge"})
TEXT, MODEL = "text", "model"
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
# A worker that loads a causal LM or a classifier: torch maps about 600 MB, the embedded 135M model about 600 MB more
# once dequantized; the Hub cache is readable (a Hub id the gate admitted loads from it). One call includes the
# model's first load, the judge's forward passes over the group the gate admitted, or the reward model's.
MODEL_LIMITS = replace(VISITOR_LIMITS, timeout=60.0, load_timeout=60.0, memory_mb=4096, shared_reads=True)


def limits_of(kind: str) -> SandboxLimits:
    """The limits of a worker of `kind`; a model worker may also read the playground's converted models (the embedded
    model, converted once by the app: `local_models`)."""
    if kind != MODEL:
        return VISITOR_LIMITS
    from playground.models import cache_root

    folder = cache_root()
    folder.mkdir(parents=True, exist_ok=True)
    return replace(MODEL_LIMITS, read_paths=(*MODEL_LIMITS.read_paths, str(folder)))


def local_models(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """`params` of model reward `name` with the embedded model (by name or Hub id, when the Hub has it not) as the
    folder the app converted it into: the worker's home is its own empty folder, and it may not write a model."""
    from playground.models import EMBEDDED, EMBEDDED_HUB_ID, ModelSource, resolve_path
    from rewards.registry import REGISTRY

    spec = REGISTRY.get(name)
    if spec is None:
        return params
    out = {**spec.defaults(), **params}
    for param in spec.params:
        value = out.get(param.name)
        if param.loads_model and isinstance(value, str) and value.strip() in (EMBEDDED, EMBEDDED_HUB_ID):
            out[param.name] = resolve_path(ModelSource.parse(value))
    return out


_OWNER: contextvars.ContextVar[str | None] = contextvars.ContextVar("visitor_owner", default=None)
# The client address of the request being handled (`calling_from`, set by the app for every event in public mode): a
# call without an owner then scores in the shared pool, charged to this address.
_ADDRESS: contextvars.ContextVar[str | None] = contextvars.ContextVar("visitor_address", default=None)
ANONYMOUS = "anonymous:"  # the owner keys of the shared pool's workers: "anonymous:0", ...


def in_worker(name: str, public: bool | None = None) -> bool:
    """Whether library reward `name` scores in a visitor worker: in public mode, every one but `IN_APP`."""
    return is_public(public) and name not in IN_APP


def worker_kind(name: str, params: dict[str, Any] | None = None, depth: int = 0) -> str:
    """The kind of worker library reward `name` scores in: `model` for the rewards that load a model (a composite
    reward, `formula`, with such a term among its `terms` too), else `text`."""
    if name in MODEL_REWARDS:
        return MODEL
    terms = (params or {}).get("terms")
    if name == "formula" and not (isinstance(terms, str) and terms.strip()):  # its variables name library rewards
        words = set(re.findall(r"[A-Za-z_]\w*", str((params or {}).get("expression") or "")))
        return MODEL if words & MODEL_REWARDS else TEXT
    if isinstance(terms, str) and terms.strip() and depth < 4:
        try:
            bound = json.loads(terms)
        except ValueError:
            return TEXT  # the reward refuses it when it is built
        for term in bound.values() if isinstance(bound, dict) else ():
            if isinstance(term, dict) and worker_kind(str(term.get("name")), term.get("params"), depth + 1) == MODEL:
                return MODEL
    return TEXT


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


@contextlib.contextmanager
def calling_from(address: str | None) -> Iterator[None]:
    """Within this block, work without an owner comes from a visitor at `address` (a request the app handles): its
    library rewards score in the shared pool's workers, charged to that address, never in workers of their own."""
    token = _ADDRESS.set(address or "?")
    try:
        yield
    finally:
        _ADDRESS.reset(token)


class AddressCharges:
    """The calls without a browser token that each client address has scoring in the shared pool."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}

    @contextlib.contextmanager
    def charge(self, address: str, cap: int) -> Iterator[None]:
        with self._lock:
            if self._running.get(address, 0) >= cap:
                raise RewardError(
                    "admission.anonymous_busy", count=cap, env="PLAYGROUND_MAX_ANONYMOUS_CALLS_PER_ADDRESS"
                )
            self._running[address] = self._running.get(address, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self._running[address] -= 1
                if not self._running[address]:
                    del self._running[address]


class VisitorWorker:
    """One owner's worker: builds library rewards and scores with them (`reward`). `last_used` and `busy` tell
    `VisitorWorkers` which one is idle, and since when."""

    def __init__(self, limits: SandboxLimits | None = None, kind: str = TEXT, charges: AddressCharges | None = None):
        self.kind = kind
        self.charges = charges  # a shared pool's worker: each call is charged to its client address
        source = SCORER_SOURCE.read_text(encoding="utf-8")
        self.sandbox = Sandbox(source, ["build", "score"], limits or limits_of(kind), own_code=True)
        self.last_used = time.monotonic()
        self.busy = 0
        self._count = threading.Lock()

    def reward(self, name: str, params: dict[str, Any], shown_as: str) -> VisitorReward:
        """The reward `name` with `params`, built in the worker now, so a bad parameter fails here, as in the app."""
        self._call("build", name, params, shown_as, [], {})
        return VisitorReward(self, name, params, shown_as)

    def score(self, name: str, params: dict[str, Any], shown_as: str, completions: list, kwargs: dict) -> list:
        return self._call("score", name, params, shown_as, completions, kwargs)

    def _call(self, function: str, name: str, params: dict, shown_as: str, completions: list, kwargs: dict) -> list:
        with self._count:
            self.busy += 1
        try:
            if self.kind == MODEL:
                params = local_models(name, params)
            with self._charged():
                result = self.sandbox.call(
                    function, completions, shown_as=shown_as, pg_reward=name, pg_params=params, **kwargs
                )
        except SandboxError as exc:
            if exc.error_type == "RewardFailure":  # the reward's own error, as the app would have raised it
                raise _reward_error(exc.error_detail) from None
            raise
        finally:
            with self._count:
                self.busy -= 1
                self.last_used = time.monotonic()
        return result.values

    def _charged(self):
        if self.charges is None:
            return contextlib.nullcontext()
        from playground.admission import Caps

        return self.charges.charge(_ADDRESS.get() or "?", Caps.from_env().max_anonymous_calls_per_address)

    @property
    def pid(self) -> int | None:
        return self.sandbox.pid

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
        kind = worker_kind(state["reward"], state["params"])
        self.worker, self.reward, self.params = VisitorWorker(kind=kind), state["reward"], state["params"]
        self.__name__ = state["name"]


def close_workers(funcs) -> None:
    """Stop the visitor workers behind `funcs` (other rewards are left alone): a training run's, when it ends."""
    for worker in {id(f.worker): f.worker for f in funcs if isinstance(f, VisitorReward)}.values():
        if worker.charges is None:  # a shared pool's worker outlives any one caller
            worker.close()


class VisitorWorkers:
    """The workers of owners, one per owner and kind. Without an owner: within a request (`calling_from`), a worker
    of the shared pool (`anonymous_workers` of each kind, the address picks one), each call charged to the address;
    outside one (a training run, the CLI), a fresh worker nobody else gets (`fresh` counts them).

    Bounds (read from `Caps` at each `get`, so an operator's variables apply): at most `max_visitor_workers` text
    workers and `max_model_workers` model workers live at once, the least recently used idle one stopped first (a
    busy one only when none is idle: its call finishes, and a later call of its rewards starts a fresh worker); a
    worker idle for `worker_idle_seconds` stops (checked at each `get` and by a reaper thread).
    """

    def __init__(self, caps=None):
        self._caps = caps
        self._lock = threading.Lock()
        self._workers: OrderedDict[tuple[str, str], VisitorWorker] = OrderedDict()
        self._reaper: threading.Thread | None = None
        self.charges = AddressCharges()
        self.fresh = 0  # workers started for no owner and no request

    def caps(self):
        from playground.admission import Caps

        return self._caps or Caps.from_env()

    def get(self, owner: str | None, kind: str = TEXT) -> VisitorWorker:
        caps = self.caps()
        if owner is None and _ADDRESS.get() is None:
            self.fresh += 1
            return VisitorWorker(kind=kind)
        charges = None
        if owner is None:
            owner = f"{ANONYMOUS}{zlib.crc32(str(_ADDRESS.get()).encode()) % max(1, caps.anonymous_workers)}"
            charges = self.charges
        limit = caps.max_model_workers if kind == MODEL else caps.max_visitor_workers
        with self._lock:
            stopped = self._expired(caps.worker_idle_seconds)
            worker = self._workers.pop((owner, kind), None) or VisitorWorker(kind=kind, charges=charges)
            self._workers[(owner, kind)] = worker
            while sum(k == kind for _, k in self._workers) > max(1, limit):
                stopped.append(self._evict(kind))
            self._start_reaper(caps.worker_idle_seconds)
        for old in stopped:  # outside the lock: closing waits for a call in progress
            old.close()
        return worker

    def _evict(self, kind: str) -> VisitorWorker:
        """The least recently used worker of `kind`, idle if any is (the newest, just handed out, never)."""
        keys = [key for key in self._workers if key[1] == kind][:-1]
        idle = [key for key in keys if not self._workers[key].busy]
        return self._workers.pop(min(idle or keys, key=lambda key: self._workers[key].last_used))

    def _expired(self, idle_seconds: float) -> list[VisitorWorker]:
        cutoff = time.monotonic() - idle_seconds
        old = [key for key, w in self._workers.items() if not w.busy and w.last_used < cutoff]
        return [self._workers.pop(key) for key in old]

    def _start_reaper(self, idle_seconds: float) -> None:
        if self._reaper is None or not self._reaper.is_alive():
            self._reaper = threading.Thread(target=self._reap, name="visitor-worker-reaper", daemon=True)
            self._reaper.start()

    def _reap(self) -> None:
        while True:
            idle_seconds = self.caps().worker_idle_seconds
            time.sleep(min(max(idle_seconds / 4, 0.05), 30.0))
            with self._lock:
                stopped = self._expired(idle_seconds)
                if not stopped and not self._workers:
                    self._reaper = None
                    return
            for old in stopped:
                old.close()

    def live(self) -> dict[tuple[str, str], int | None]:
        """{(owner, kind): the worker's pid (None before its first call)} of each kept worker."""
        with self._lock:
            return {key: worker.pid for key, worker in self._workers.items()}

    def close(self, owner: str | None = None) -> None:
        """Stop the workers of `owner` (None: every kept worker)."""
        with self._lock:
            keys = [key for key in self._workers if owner is None or key[0] == owner]
            workers = [self._workers.pop(key) for key in keys]
        for worker in workers:
            worker.close()


WORKERS = VisitorWorkers()


def visitor_worker(owner: str | None = None, kind: str = TEXT) -> VisitorWorker:
    """The worker of `kind` for `owner` (default: the one `acting_for` set; none: a fresh one)."""
    return WORKERS.get(owner if owner is not None else current_owner(), kind)


class VisitorRewards:
    """Library rewards built and scoring in `owner`'s visitor workers (default: the owner `acting_for` set; without
    one, workers for these rewards only): one for text rewards, one for the rewards that load a model; `IN_APP`
    rewards in this process."""

    def __init__(self, owner: str | None = None):
        self.owner = owner
        self._workers: dict[str, VisitorWorker] = {}

    def build(self, name: str, params: dict[str, Any], metric: str):
        if name in IN_APP:
            return LOCAL.build(name, params, metric)
        kind = worker_kind(name, params)
        if kind not in self._workers:
            self._workers[kind] = visitor_worker(self.owner, kind)
        return self._workers[kind].reward(name, params, metric)


def reward_executor(owner: str | None = None, public: bool | None = None):
    """Where library rewards run (`playground.scoring.build_rewards`'s `executor`): in public mode `owner`'s visitor
    workers, else this process."""
    return VisitorRewards(owner) if is_public(public) else LOCAL
