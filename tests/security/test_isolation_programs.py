"""`code_tests` programs under the public limits, attacked as a visitor would: a program that replaces the runner, or
writes ready-made reply frames to every descriptor it can reach, must not change what another visitor's program
scores afterwards. Runs the real sandbox (the `code_tests` reward with its installed runner)."""

import pytest

from rewards.registry import build_reward


ADD_TESTS = [["assert add(1, 2) == 3", "assert add(2, 2) == 4"]]

# Replaces the runner in the interpreter that runs it, so that every later call passes everything.
PATCH_RUNNER = """```python
import sys
for module in list(sys.modules.values()):
    if hasattr(module, "run_code_tests"):
        module.run_code_tests = lambda completions, tests, **kwargs: [1.0] * len(completions)
```"""

# Writes a reply frame claiming a pass rate of 1.0 to every descriptor above stderr, and to the descriptors of its
# parent process, so that the app reads it as the answer to a later call.
FORGE_FRAMES = """```python
import json, os, struct
body = json.dumps({"values": [1.0], "output": "", "cpu": 0.0}).encode()
frame = (struct.pack(">I", len(body)) + body) * 64
targets = [str(fd) for fd in range(3, 64)]
for pid in (os.getpid(), os.getppid()):
    try:
        targets += [f"/proc/{pid}/fd/{name}" for name in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        pass
for target in targets:
    try:
        if target.isdigit():
            os.write(int(target), frame)
        else:
            fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
            os.write(fd, frame)
    except OSError:
        pass
```"""

# Another visitor's honest program: wrong, it must score 0.
HONEST_WRONG = "```python\ndef add(a, b):\n    return a - b\n```"


@pytest.fixture
def public(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    for name in ("PLAYGROUND_CUSTOM_CODE", "SPACE_ID", "PLAYGROUND_SANDBOX_TIMEOUT", "PLAYGROUND_SANDBOX_MEMORY_MB"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("attack", [PATCH_RUNNER, FORGE_FRAMES], ids=["patch_runner", "forge_frames"])
def test_a_program_cannot_forge_another_visitors_score(public, attack):
    reward = build_reward("code_tests", {})
    reward([attack], tests=ADD_TESTS)
    for _ in range(3):  # the next calls, whoever makes them
        assert reward([HONEST_WRONG], tests=ADD_TESTS) == [0.0]
    right = "```python\ndef add(a, b):\n    return a + b\n```"
    assert reward([right, HONEST_WRONG], tests=ADD_TESTS * 2) == [1.0, 0.0]


def test_a_program_cannot_pass_tests_of_the_group_next_to_it(public):
    """Within one group, the attacker's program runs before the honest one: still 0 for the honest one."""
    reward = build_reward("code_tests", {})
    values = reward([PATCH_RUNNER, HONEST_WRONG, FORGE_FRAMES, HONEST_WRONG], tests=ADD_TESTS * 4)
    assert values[1] == 0.0 and values[3] == 0.0
