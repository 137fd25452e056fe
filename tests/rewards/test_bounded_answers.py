"""Every reward that calls math_verify checks answers through the library's bounded answer checker
(`rewards._bounded`), locally too: a power tower that sympy would evaluate for hours ends within the checker's bound,
on a worker thread (where math_verify's own `signal.alarm` timeouts are off, as in TRL's trainer and the app)."""

import threading

import pytest

from rewards import _bounded
from rewards.accuracy import accuracy_reward, get_correctness_reward
from rewards.reasoning import get_cosine_scaled_reward, get_reasoning_accuracy_reward, len_reward


TOWER = r"The answer is \boxed{10^{10^{10^{10}}}}"  # sympy computes 10^(10^(10^10)) when it parses or compares it
HONEST = r"The answer is \boxed{2}"

CASES = {
    "accuracy": (lambda c: accuracy_reward(c, solution=["2"] * len(c)), [1.0]),
    "correctness": (lambda c: get_correctness_reward(mode="math_verify")(c, answer=["2"] * len(c)), [1.0]),
    "reasoning_accuracy": (
        lambda c: get_reasoning_accuracy_reward()([f"Thinking.</think>{t}" for t in c], solution=["2"] * len(c)),
        [1.0],
    ),
    "cosine_scaled": (
        lambda c: get_cosine_scaled_reward(length_unit="characters")(c, solution=["2"] * len(c)),
        [pytest.approx(1.0, abs=0.01)],
    ),
    # open-r1 parses the solution as LaTeX only, and a solution it cannot parse counts as correct: "$2$", not "2"
    "len_reward": (lambda c: len_reward(c + ["x" + c[0]], solution=["$2$"] * (len(c) + 1))[:1], [0.5]),
}


def on_a_worker_thread(fn, seconds: float):
    """`fn()` on another thread, as TRL calls rewards; its result, or a failure if it is still running after
    `seconds` (the thread is left to finish)."""
    result = []
    thread = threading.Thread(target=lambda: result.append(fn()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still checking after {seconds:g} s: math_verify ran unbounded"
    return result[0]


@pytest.fixture
def quick_checker(monkeypatch):
    monkeypatch.setattr(_bounded.CHECKER, "seconds", 2.0)  # a tower gives up after 2 s instead of 5
    monkeypatch.setattr(_bounded, "public", lambda: False)  # local mode (the host's default outside the app)
    yield _bounded.CHECKER


@pytest.mark.integration  # the answer checker is a process of its own
@pytest.mark.parametrize("name", list(CASES))
def test_a_power_tower_ends_within_the_answer_checkers_bound(quick_checker, name):
    reward, honest = CASES[name]
    on_a_worker_thread(lambda: reward([HONEST]), 120)  # the checker's start (imports) is not the tower's time
    values = on_a_worker_thread(lambda: reward([TOWER]), 60)
    assert values in ([None], [0.0]), values  # given up (None, which TRL skips), or counted wrong
    assert on_a_worker_thread(lambda: reward([HONEST]), 120) == honest  # a fresh checker scores the next call
