"""The test runner of the `code_tests` reward. The app never imports this file: `playground.sandbox.programs` loads
its source into a sandbox worker (`Sandbox`), which runs the completions' code under the sandbox's limits.

`run_code_tests(completions, tests, time_limit, budget)` gets one extracted program per completion and its test
cases, and returns the fraction of tests each program passes. A test case is either

- `{"input": ..., "output": ...}`: the program reads `input` on stdin and passes when its stdout, stripped, has the
  same lines as `output`, each line stripped (open-r1's check, over every line); or
- a string of Python run after the program in the same namespace (e.g. `assert add(1, 2) == 3`): it passes when
  nothing raises.

Each test runs in a child process of its own, forked from this runner and never reused: the child closes every
descriptor but stdin, stdout, stderr and the pipe its one-byte verdict goes back on, installs the full seccomp filter
again (no fork, signals only to itself, `confine.confine_child`), and runs the program in fresh globals, as
`__main__`, with `time_limit` seconds of wall clock (`signal.setitimer`) and a CPU limit. The runner waits
`time_limit` plus a grace for the verdict, then kills the child. So a program cannot change the runner, later tests,
or other programs, and cannot reach the reply pipe (the runner is not dumpable: its /proc entries are closed to its
children). What a program can still do is pass its own tests by cheating (it runs in the test's namespace), as in
any in-process test runner. Tests not started within `budget` seconds of the call count as failed, so the call ends
before the sandbox's own timeout.
"""

import builtins
import io
import math
import os
import resource
import select
import signal
import sys
import time

from playground.sandbox import confine


GRACE = 0.25  # seconds past `time_limit` the runner waits for a child's verdict before killing it


class _TimeLimit(BaseException):
    """Raised in the program when its time is up; a BaseException so that `except Exception` cannot swallow it."""


def _alarm(signum, frame):
    raise _TimeLimit()


def _run_one(code, test, time_limit):
    saved_builtins = dict(builtins.__dict__)
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    stdin = test.get("input", "") if isinstance(test, dict) else ""
    out = io.StringIO()
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(str(stdin)), out, io.StringIO()
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    passed = False
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        try:
            exec(compile(code, "<completion>", "exec"), namespace)
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise
        if isinstance(test, dict):
            passed = _same_lines(out.getvalue(), str(test.get("output", "")))
        else:
            exec(compile(str(test), "<test>", "exec"), namespace)
            passed = True
    except (Exception, SystemExit, _TimeLimit):  # a failing, raising, exiting or slow program fails this test
        passed = False
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        builtins.__dict__.clear()
        builtins.__dict__.update(saved_builtins)
    return passed


def _run_in_child(code, test, time_limit):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one program, one test, then it exits
        status = 1
        try:
            os.close(read)
            os.dup2(write, 3)
            os.closerange(4, resource.getrlimit(resource.RLIMIT_NOFILE)[0])  # the runner's reply pipe among them
            confine.confine_child(math.ceil(time_limit) + 1)
            verdict = _run_one(code, test, time_limit)
            os.write(3, b"1" if verdict else b"0")
            status = 0
        finally:
            os._exit(status)
    os.close(write)
    passed = False
    try:
        poller = select.poll()
        poller.register(read, select.POLLIN)
        if poller.poll((time_limit + GRACE) * 1000):
            passed = os.read(read, 1) == b"1"
    finally:
        os.close(read)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    return passed


def _same_lines(got, expected):
    return [line.strip() for line in got.strip().split("\n")] == [
        line.strip() for line in expected.strip().split("\n")
    ]


def run_code_tests(completions, tests, time_limit=1.0, budget=1.5, **kwargs):
    start = time.monotonic()
    rewards = []
    for code, cases in zip(completions, tests, strict=True):
        if cases is None or len(cases) == 0:
            rewards.append(None)
            continue
        if not code.strip():
            rewards.append(0.0)
            continue
        passed = 0
        for case in cases:
            left = budget - (time.monotonic() - start)
            if left <= 0.01:
                break
            passed += _run_in_child(code, case, min(float(time_limit), left))
        rewards.append(passed / len(cases))
    return rewards
