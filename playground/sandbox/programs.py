"""The `code_tests` reward's runner: programs run against test cases in a sandbox worker, through `Sandbox`'s public
API. `playground.bootstrap()` installs it into the reward library (`rewards.code.install_program_runner`).

Each call of the reward (one group of one owner: a visitor's request, a training step) gets a fresh runner worker
with the limits of the current policy (`code_policy()`: public mode on a Space: no network, 512 MB, 2 s per call),
stopped when the call returns, so nothing of one call's programs or test cases is left for another. The runner runs
no program itself: each test runs in a confined child that is never reused (`program_tests.py`). Each program gets
one request to the runner, so a program that hangs or crashes the runner fails alone, and scores 0.0.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

from playground.sandbox.client import Sandbox, SandboxError
from playground.sandbox.settings import require_custom_code


logger = logging.getLogger(__name__)

RUNNER_SOURCE = Path(__file__).with_name("program_tests.py")
# The runner stops starting tests at this share of the sandbox's per-call timeout, to return before the worker is
# killed for it.
BUDGET_SHARE = 0.75
# Seconds the runner's call may take past the policy's per-call timeout: forking a child per test and waiting
# `program_tests.GRACE` for its verdict, on a loaded machine.
RUNNER_SLACK = 1.0


class ProgramRunner:
    """`runner(programs, tests, time_limit)`: each program's pass rate over its tests, in a fresh runner worker."""

    def sandbox(self) -> Sandbox:
        """A runner worker of its own for one call, started (a worker that cannot start is an error of the setup,
        not a failing program)."""
        policy = require_custom_code()
        limits = dataclasses.replace(policy, children=True, timeout=policy.timeout + RUNNER_SLACK)
        sandbox = Sandbox(RUNNER_SOURCE.read_text(encoding="utf-8"), ["run_code_tests"], limits)
        sandbox.start()
        return sandbox

    def __call__(self, programs: list[str], tests: list[list], time_limit: float) -> list[float | None]:
        sandbox = self.sandbox()
        budget = BUDGET_SHARE * (sandbox.limits.timeout - RUNNER_SLACK)
        rates: list[float | None] = []
        try:
            for program, cases in zip(programs, tests, strict=True):
                try:
                    result = sandbox.call(
                        "run_code_tests", [program], tests=[cases], time_limit=time_limit, budget=budget
                    )
                    rates.append(result.values[0])
                except SandboxError as exc:  # the runner was stopped (the program held it too long): it fails
                    logger.info("code_tests: a program failed in the sandbox: %s", exc)
                    rates.append(0.0)
        finally:
            sandbox.close()
        return rates
