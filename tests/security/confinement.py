"""What the security tests need from the kernel: seccomp and Landlock. Where a worker could not apply one, a test
fails (CI must not pass without testing the sandbox), unless the machine is declared to lack it:
`PLAYGROUND_TEST_NO_SECCOMP=1` or `PLAYGROUND_TEST_NO_LANDLOCK=1`, and then it skips with the reason."""

import os

import pytest


DECLARED = {"seccomp": "PLAYGROUND_TEST_NO_SECCOMP", "landlock": "PLAYGROUND_TEST_NO_LANDLOCK"}


def require_confinement(features: dict, *steps: str) -> None:
    """Fail (or skip, where the machine is declared to lack it) unless each step in `steps` (default: both) was
    applied, as `Sandbox.features` reports."""
    for step in steps or tuple(DECLARED):
        if features.get(step) is True:
            continue
        reason = f"{step} is unavailable here: {features.get(step)}"
        if os.environ.get(DECLARED[step], "").strip() in ("1", "true", "yes"):
            pytest.skip(f"{reason} ({DECLARED[step]} is set)")
        pytest.fail(f"{reason}; set {DECLARED[step]}=1 where the machine is known to lack it")
