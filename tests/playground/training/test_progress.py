"""The time left, per phase, from each phase's own step times (a fake clock: seconds set by the test)."""

import pytest

from playground.training.progress import PhaseClock, eval_points, run_eta


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_grpo_eta_counts_only_grpo_time_not_loading_warmup_or_evals():
    """Loading 100 s, a base eval of 30 s, a warm-up of 2 steps of 5 s, then GRPO steps of 10 s with an eval after
    step 1: at step 1 of 20 the time left is 19 GRPO steps and the evals left, not 160 s x 19."""
    t = Clock()
    clock = PhaseClock(t)
    t.now = 100.0  # loading: no phase
    left = clock.enter("eval")
    t.now = 130.0
    clock.step()
    clock.enter(left)
    clock.enter("warmup")
    assert run_eta(clock, warmup_steps=2, max_steps=20, evals=4) == (None, None)  # no warm-up step timed yet
    t.now = 135.0
    clock.step()
    assert run_eta(clock, warmup_steps=2, max_steps=20, evals=4)[0] == pytest.approx(5.0)
    t.now = 137.0
    assert run_eta(clock, warmup_steps=2, max_steps=20, evals=4)[0] == pytest.approx(3.0)  # counts down in a step
    t.now = 140.0
    clock.step()
    clock.enter("grpo")
    t.now = 150.0
    clock.step()
    left = clock.enter("eval")  # the eval after step 1 pauses GRPO's clock
    t.now = 180.0
    clock.step()
    clock.enter(left)
    phase, total = run_eta(clock, warmup_steps=2, max_steps=20, evals=4)
    assert phase == pytest.approx(19 * 10.0)  # GRPO's own steps only
    assert total == pytest.approx(19 * 10.0 + 2 * 30.0)  # and the two evals left (of 4), at 30 s each
    t.now = 184.0
    assert run_eta(clock, warmup_steps=2, max_steps=20, evals=4)[0] == pytest.approx(19 * 10.0 - 4.0)


def test_final_eval_counts_down_from_its_own_time_not_zero():
    t = Clock()
    clock = PhaseClock(t)
    clock.enter("grpo")
    t.now = 10.0
    clock.step()
    left = clock.enter("eval")
    t.now = 20.0
    clock.step()
    clock.enter(left)
    t.now = 30.0
    clock.step()  # the last GRPO step, then its eval
    clock.enter("eval")
    t.now = 34.0
    assert run_eta(clock, warmup_steps=0, max_steps=2, evals=2) == (pytest.approx(6.0), pytest.approx(6.0))
    t.now = 60.0
    assert run_eta(clock, warmup_steps=0, max_steps=2, evals=2) == (0.0, 0.0)  # late, never negative


@pytest.mark.parametrize(
    ("max_steps", "every", "warmup", "expected"),
    [(20, 5, True, 6), (20, 5, False, 5), (7, 3, False, 4), (3, 0, True, 0), (2, 10, False, 2)],
)
def test_eval_points_count_base_warmup_every_n_and_the_last_step(max_steps, every, warmup, expected):
    assert eval_points(max_steps, every, warmup) == expected
