"""Sandboxes for the tests: short limits (1 s per call, 2 s to load, 512 MB), closed after each test."""

import pytest

from playground.sandbox import Sandbox, SandboxLimits


LIMITS = SandboxLimits(timeout=1.0, load_timeout=2.0, memory_mb=512)
PROBE = """

def probe(completions, **kwargs):
    return [float(len(c)) for c in completions]
"""


@pytest.fixture(autouse=True)
def local_policy(monkeypatch):
    """The tests choose their own limits; the machine's settings must not change them."""
    for name in (
        "PLAYGROUND_CUSTOM_CODE",
        "PLAYGROUND_PUBLIC",
        "SPACE_ID",
        "PLAYGROUND_SANDBOX_TIMEOUT",
        "PLAYGROUND_SANDBOX_MEMORY_MB",
        "PLAYGROUND_SANDBOX_READ_PATHS",
    ):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def make_sandbox():
    made = []

    def make(source=None, functions=("reward",), limits=LIMITS):
        sandbox = Sandbox(source, functions, limits)
        made.append(sandbox)
        return sandbox

    yield make
    for sandbox in made:
        sandbox.close()


@pytest.fixture(scope="module")
def bystander():
    """Another session's sandbox, started once per module: nothing a bad reward does may touch it."""
    sandbox = Sandbox(PROBE, ["probe"], LIMITS)
    sandbox.start()
    sandbox.first_pid = sandbox.pid
    yield sandbox
    sandbox.close()
