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


# A lesson run through its phases, as the page reads them: (status, phase, elapsed, the run's own time left, warm-up
# step, GRPO step). Its reference run took 300 s.
PHASES = [
    ("loading", None, 5.0, None, 0, 0),
    ("loading", "eval", 30.0, None, 0, 0),  # the base model's eval
    ("loading", "warmup", 60.0, None, 3, 0),
    ("loading", "warmup", 120.0, None, 20, 0),
    ("running", "eval", 140.0, None, 20, 0),  # the warmed-up model's eval
    ("running", "grpo", 160.0, 150.0, 20, 1),  # GRPO's first step: the run's own time left takes over
    ("running", "eval", 235.0, 80.0, 20, 10),
    ("running", "grpo", 300.0, 10.0, 20, 19),
    ("finished", None, 312.0, None, 20, 20),
]


def test_one_time_left_and_one_share_done_for_the_whole_run_through_its_phases():
    from playground.training.progress import whole_run

    seen = [
        whole_run(
            status=status,
            elapsed=elapsed,
            eta=eta,
            reference_s=300.0,
            warmup_step=warm,
            warmup_steps=20,
            step=step,
            max_steps=20,
        )
        for status, _, elapsed, eta, warm, step in PHASES
    ]
    lefts, done = [left for left, _ in seen], [share for _, share in seen]
    assert lefts[:5] == pytest.approx([295.0, 270.0, 240.0, 180.0, 160.0])  # the reference's, less the time spent
    assert lefts[5:8] == [150.0, 80.0, 10.0] and lefts[8] is None
    assert done == sorted(done) and done[0] > 0.0 and done[-1] == 1.0  # one bar: it never starts again at 0
    assert done[4] == pytest.approx(140 / 300) and done[5] == pytest.approx(160 / 310)


def test_a_continued_run_counts_its_earlier_pieces_in_the_share_done():
    from playground.training.progress import whole_run

    # 1325 s before the continue, 10 s since; 10 steps of 20 done, 1300 s left by its own step times
    left, done = whole_run(status="running", elapsed=1335.0, eta=1300.0, step=10, max_steps=20)
    assert left == 1300.0 and done == pytest.approx(1335 / 2635)
    # stopped: no time left, the steps done over all of them
    stopped = whole_run(
        status="stopped", elapsed=1335.0, eta=1300.0, warmup_step=20, warmup_steps=20, step=10, max_steps=20
    )
    assert stopped == (None, pytest.approx(30 / 40))
