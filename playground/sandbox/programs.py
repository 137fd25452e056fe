"""The `code_tests` reward's runner: programs run against test cases in a sandbox worker, through `Sandbox`'s public
API. Importing this module installs the runner into the reward library (`rewards.code.install_program_runner`); the
app, the CLI and the trainer import it.

One worker per process serves every `code_tests` reward, with the limits of the current policy (`code_policy()`:
public mode on a Space: no network, 512 MB, 2 s per call); it is replaced when the policy's limits change. Each
program gets one call, so a program that hangs, crashes the worker or runs out of memory fails alone: the sandbox
kills and replaces the worker, and the program scores 0.0.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from playground.sandbox.client import Sandbox, SandboxError
from playground.sandbox.settings import require_custom_code
from rewards.code import install_program_runner


logger = logging.getLogger(__name__)

RUNNER_SOURCE = Path(__file__).with_name("program_tests.py")
# The runner stops starting tests at this share of the sandbox's per-call timeout, to return before the worker is
# killed for it.
BUDGET_SHARE = 0.75


class ProgramRunner:
    """`runner(programs, tests, time_limit)`: each program's pass rate over its tests, in a sandbox worker."""

    def __init__(self):
        self._sandbox: Sandbox | None = None
        self._lock = threading.Lock()

    def sandbox(self) -> Sandbox:
        limits = require_custom_code()
        with self._lock:
            if self._sandbox is None or self._sandbox.limits != limits:
                if self._sandbox is not None:
                    self._sandbox.close()
                self._sandbox = Sandbox(RUNNER_SOURCE.read_text(encoding="utf-8"), ["run_code_tests"], limits)
            return self._sandbox

    def __call__(self, programs: list[str], tests: list[list], time_limit: float) -> list[float | None]:
        sandbox = self.sandbox()
        sandbox.start()  # a worker that cannot start is an error of the setup, not a failing program
        budget = BUDGET_SHARE * sandbox.limits.timeout
        rates: list[float | None] = []
        for program, cases in zip(programs, tests, strict=True):
            try:
                result = sandbox.call("run_code_tests", [program], tests=[cases], time_limit=time_limit, budget=budget)
                rates.append(result.values[0])
            except SandboxError as exc:  # the program hung, crashed the worker or ran out of memory: it fails
                logger.info("code_tests: a program failed in the sandbox: %s", exc)
                rates.append(0.0)
        return rates


install_program_runner(ProgramRunner())
