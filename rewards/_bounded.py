"""Answer checking with a time and memory bound, in a child process, for a public app.

math_verify parses answers with sympy, which evaluates what it reads: `\\boxed{10^{10^{10}}}` computes a number of ten
billion digits while holding the interpreter lock, so every other request of the app waits. Its own timeouts use
`signal.alarm`, which works only on the main thread, and rewards run on worker threads. In public mode the accuracy
rewards therefore check answers in one child process (started once, reused), with `ANSWER_CHECK_SECONDS` per reward
call and `ANSWER_CHECK_MEMORY_MB` of address space; a call past its time kills the child (the next call starts a
new one) and its completions score `None`, which TRL skips.
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
    import math_verify  # noqa: F401  (the slow import happens before the first timed call)

    _serve_on(*conn)


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
                status, value = self._conn.recv()
            except (EOFError, OSError):
                self._stop()
                raise RuntimeError("the answer checker ended") from None
        if status != "ok":
            raise RuntimeError(value)
        return value


CHECKER = ChildChecker()


def bounded(fn: Callable, *args: Any, size: int) -> list:
    """`fn(*args)` in the checker process; `size` Nones (TRL skips them) when it fails or runs out of time."""
    try:
        return CHECKER.call(fn, *args)
    except (TimeoutError, RuntimeError) as exc:
        checker_logger.warning("Answer checking gave up on %d completion(s): %s", size, exc)
        return [None] * size
