"""Fail closed: public mode runs custom code and `code_tests` only where seccomp and Landlock can both be applied, and
says so in both languages where they cannot; an operator accepts the risk with `PLAYGROUND_ALLOW_UNCONFINED=1`. On
the machine that runs these tests, both must be there (`confinement.require_confinement`), so CI cannot pass without
testing the sandbox."""

import pytest

from playground.errors import PlaygroundError
from playground.sandbox import PUBLIC_LIMITS, Sandbox, confine
from playground.sandbox.settings import code_policy, kernel_confinement, require_custom_code
from rewards.registry import build_reward
from tests.security.confinement import require_confinement


PROGRAM = "```python\ndef add(a, b):\n    return a + b\n```"


@pytest.fixture
def public(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "1")
    for name in ("PLAYGROUND_CUSTOM_CODE", "SPACE_ID", "PLAYGROUND_ALLOW_UNCONFINED"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def no_landlock(monkeypatch):
    """A kernel without Landlock, as this process sees it."""
    monkeypatch.setattr(confine, "landlock_abi", lambda: 0)


def test_this_machine_confines_a_public_worker(public):
    require_confinement(kernel_confinement())
    sandbox = Sandbox("def reward(completions, **kwargs):\n    return [0.0] * len(completions)\n", ["reward"])
    try:
        sandbox.start()
        require_confinement(sandbox.features)
        assert sandbox.limits.require_confinement
    finally:
        sandbox.close()


def test_public_mode_refuses_code_without_landlock(public, no_landlock):
    with pytest.raises(PlaygroundError) as err:
        require_custom_code()
    assert err.value.key == "sandbox.unconfined" and err.value.values == {"missing": "landlock"}
    english, chinese = err.value.render("en"), err.value.render("zh")
    assert "PLAYGROUND_ALLOW_UNCONFINED=1" in english and "PLAYGROUND_ALLOW_UNCONFINED=1" in chinese
    assert "landlock" in chinese and "自定义代码" in chinese
    with pytest.raises(PlaygroundError) as err:
        build_reward("code_tests", {})([PROGRAM], tests=[["assert add(1, 2) == 3"]])
    assert err.value.key == "sandbox.unconfined"
    with pytest.raises(PlaygroundError):
        Sandbox("x = 1\n", [], PUBLIC_LIMITS).start()


def test_the_operator_may_accept_the_risk(public, no_landlock, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_ALLOW_UNCONFINED", "1")
    assert not require_custom_code().require_confinement
    assert build_reward("code_tests", {})([PROGRAM], tests=[["assert add(1, 2) == 3"]]) == [1.0]


def test_library_rewards_still_score_without_landlock_or_custom_code(public, no_landlock, monkeypatch):
    """The visitor worker runs the playground's own code: the custom-code switch and the fail-closed check spare it."""
    from playground.isolation.visitor import reward_executor
    from playground.scoring import RewardChoice, build_rewards

    monkeypatch.setenv("PLAYGROUND_CUSTOM_CODE", "off")
    funcs, _ = build_rewards([RewardChoice("regex", 1.0, {"pattern": "a+"})], executor=reward_executor())
    try:
        assert funcs[0](["aaa", "b"]) == [1.0, 0.0]
    finally:
        funcs[0].worker.close()


def test_local_mode_does_not_require_confinement(monkeypatch, no_landlock):
    monkeypatch.setenv("PLAYGROUND_PUBLIC", "0")
    monkeypatch.delenv("SPACE_ID", raising=False)
    assert not code_policy().limits.require_confinement
    assert not require_custom_code().require_confinement
