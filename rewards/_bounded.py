"""Answer checking with a time and memory bound, in a child process, for a public app.

math_verify parses answers with sympy, which evaluates what it reads: `\\boxed{10^{10^{10}}}` computes a number of ten
billion digits while holding the interpreter lock, so every other request of the app waits. Its own timeouts use
`signal.alarm`, which works only on the main thread, and rewards run on worker threads. Every reward that calls
math_verify (`accuracy`, `correctness`, `reasoning_accuracy`, `cosine_scaled`, `len_reward`) therefore checks answers
through `bounded`: on the main thread of a process that does not serve the public, in place under math_verify's own
alarms; anywhere else (a public app, a worker thread of a local app or a trainer) in one child process (started
once, reused), with
`ANSWER_CHECK_SECONDS` per reward call and `ANSWER_CHECK_MEMORY_MB` of address space; a call past its time kills the
child (the next call starts a new one) and its completions score `None`, which TRL skips.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from rewards import host


checker_logger = logging.getLogger(__name__)

ANSWER_CHECK_SECONDS = 5.0  # one reward call: a group of completions takes milliseconds
ANSWER_CHECK_MEMORY_MB = 1024  # sympy and math_verify map about 150 MB
START_SECONDS = 120.0  # importing math_verify and sympy in a fresh process, on a loaded machine


def public() -> bool:
    """Public mode, as the host application says (`rewards.host`); never in an exported script."""
    return host.is_public()


def _serve(memory_mb: int) -> None:
    """The child process: requests arrive on stdin, answers leave on stdout. Imports the
    checker once, then answers `(function, args)` requests until the pipe closes."""
    import ctypes
    import resource
    import signal

    try:  # Linux: die with the app, even in the middle of a computation
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (AttributeError, OSError):
        pass
    conn = Connection(os.dup(0), writable=False), Connection(os.dup(1), readable=False)
    os.dup2(2, 1)  # what the checker prints goes to stderr, not into the answers
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _warm_up()
    _serve_on(*conn)


def _warm_up() -> None:
    """The slow first steps, before the first timed call: importing math_verify (and TRL's rewards, when installed)
    and building its LaTeX grammar with one parse and one comparison."""
    import math_verify

    try:
        import trl.rewards  # noqa: F401
    except ImportError:  # an exported script's environment may lack TRL's rewards; the library's own run anyway
        pass
    math_verify.verify(math_verify.parse("$1$"), math_verify.parse("$\\frac{2}{2}$"))


def _serve_on(requests: Connection, answers: Connection) -> None:
    conn = answers
    conn.send(("ready", None))
    while True:
        try:
            fn, args = requests.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(("ok", fn(*args)))
        except BaseException as exc:  # MemoryError included: the child lives on, the call fails
            conn.send(("error", f"{type(exc).__name__}: {exc}"[:300]))


class ChildChecker:
    """One child process that runs picklable functions with a time bound per call. Thread-safe: calls take turns."""

    def __init__(self, seconds: float = ANSWER_CHECK_SECONDS, memory_mb: int = ANSWER_CHECK_MEMORY_MB):
        self.seconds = seconds
        self.memory_mb = memory_mb
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._requests: Connection | None = None
        self._conn: Connection | None = None

    def _start(self) -> None:
        # A fresh interpreter, not a fork of this one (it has threads: Gradio's, torch's).
        process = subprocess.Popen(
            [sys.executable, "-c", f"from rewards._bounded import _serve; _serve({int(self.memory_mb)})"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        )
        requests = Connection(os.dup(process.stdin.fileno()), readable=False)
        answers = Connection(os.dup(process.stdout.fileno()), writable=False)
        process.stdin.close()
        process.stdout.close()
        self._process, self._requests, self._conn = process, requests, answers
        if not answers.poll(START_SECONDS):
            self._stop()
            raise TimeoutError("the answer checker did not start")
        answers.recv()

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait(5)
        for conn in (self._requests, self._conn):
            if conn is not None:
                conn.close()
        self._process = self._requests = self._conn = None

    def call(self, fn: Callable, *args: Any) -> Any:
        """`fn(*args)` in the child; TimeoutError past `seconds` (the child is killed), RuntimeError if it raised."""
        with self._lock:
            status, value = self._call(fn, args, retry=True)
        if status != "ok":
            raise RuntimeError(value)
        return value

    def _call(self, fn: Callable, args: tuple, retry: bool) -> tuple[str, Any]:
        if self._process is None or self._process.poll() is not None:
            self._stop()
            self._start()
        try:
            self._requests.send((fn, args))
            ready = self._conn.poll(self.seconds)
        except (BrokenPipeError, EOFError, OSError):
            ready = False
        if not ready:
            self._stop()
            raise TimeoutError(f"answer checking took more than {self.seconds:g} s")
        try:
            return self._conn.recv()
        except (EOFError, OSError):
            # The child ended without an answer. It dies with the thread that started it (PR_SET_PDEATHSIG), which
            # may be a worker thread that has since ended: a fresh child gets the call once more.
            self._stop()
            if retry:
                return self._call(fn, args, retry=False)
            raise RuntimeError("the answer checker ended") from None


CHECKER = ChildChecker()


def in_place() -> bool:
    """Whether `bounded` runs its function in this process: on the main thread of one that does not serve the public,
    where math_verify's own alarms bound it."""
    return not public() and threading.current_thread() is threading.main_thread()


def bounded(fn: Callable, *args: Any, size: int) -> list:
    """`fn(*args)`, bounded: in the checker process; `size` Nones (TRL skips them) when it fails or runs out of time.
    On the main thread of a process that does not serve the public (a script, an exported trainer, a test), in
    place: there math_verify's own `signal.alarm` timeouts bound it (`rewards._text.math_verify_timeouts`)."""
    if in_place():
        return fn(*args)
    try:
        return CHECKER.call(fn, *args)
    except (TimeoutError, RuntimeError) as exc:
        checker_logger.warning("Answer checking gave up on %d completion(s): %s", size, exc)
        return [None] * size
