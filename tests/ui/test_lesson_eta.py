"""A lesson run's time left covers the whole run from its start: before its own step times are known (loading, the
held-out eval before training, the SFT warm-up) it is the lesson's reference run's time less the time elapsed, then
the run's own estimate."""

import html

import pytest

from playground.lessons import get_lesson, reference_seconds
from playground.ui.train_tab import progress_html, status_text, whole_run_of
from tests.ui.test_train_view import SNAP, etas


def test_a_run_of_a_lessons_recipe_has_its_reference_time():
    fmt = get_lesson("format")
    assert reference_seconds(fmt.run_spec()) == pytest.approx(fmt.reference().run["wall_s"])
    assert reference_seconds(fmt.run_spec(model_name_or_path="embedded")) == pytest.approx(353.4)
    # a recipe changed in what sets its time, another model, or a lesson without a reference run: none
    assert reference_seconds(fmt.run_spec(max_steps=5)) is None
    assert reference_seconds(fmt.run_spec(sft_warmup_steps=0)) is None
    assert reference_seconds(fmt.run_spec(model_name_or_path="HuggingFaceTB/SmolLM2-360M-Instruct")) is None
    assert reference_seconds(get_lesson("groups").run_spec()) is None
    # the seed or the learning rate do not change the time
    assert reference_seconds(fmt.run_spec(seed=7, learning_rate=1e-4)) == pytest.approx(353.4)


def test_a_trap_has_its_own_reference_time_and_a_shared_machines_time_is_none():
    combine = get_lesson("combine")
    trap, fix = combine.reference(trap=True), combine.reference()
    assert not trap.busy and reference_seconds(combine.run_spec(trap=True)) == pytest.approx(trap.run["wall_s"])
    # the fix was measured at one thread beside another run on 2 cores: its 511 s would mislead a quiet machine
    assert not fix.busy and fix.run["threads"] == 1 < fix.run["cores"] and not fix.quiet_time
    assert reference_seconds(combine.run_spec()) is None
    assert trap.quiet_time and get_lesson("format").reference().quiet_time  # no thread count recorded: all cores
    assert not get_lesson("format").reference().busy  # load 2.0 on 2 cores: the previous run's tail, not shared


LESSON = SNAP | dict(max_steps=20, warmup_steps=20, reference_s=353.4)


@pytest.mark.parametrize(
    ("phase", "elapsed", "fields", "left"),
    [
        ("loading", 5.0, dict(status="loading", phase=None), 348.4),  # loading the model
        ("base eval", 40.0, dict(status="loading", phase="eval", phase_eta=None), 313.4),  # the eval before training
        ("warm-up", 90.0, dict(phase="warmup", warmup_step=3, phase_eta=60.0), 263.4),  # not the warm-up's own 60 s
    ],
)
def test_a_lesson_run_shows_the_whole_runs_time_left_from_the_start(phase, elapsed, fields, left):
    snap = LESSON | dict(step=0, eta=None, phase_eta=None, warmup_step=0) | fields | dict(elapsed=elapsed)
    seconds, _ = whole_run_of(snap)
    assert seconds == pytest.approx(left), phase
    status, progress = etas(snap)
    assert progress and all("—" not in text for text in status + progress), phase


def test_the_warm_up_says_the_eta_is_the_whole_runs():
    snap = LESSON | dict(step=0, phase="warmup", warmup_step=3, eta=None, phase_eta=60.0, elapsed=90.0)
    assert "the whole run's ETA 4m 23s" in status_text(snap, True, "en")
    assert "the whole run's ETA 4m 23s" in html.unescape(progress_html(snap, "en"))
    assert "整个训练预计剩余 4 分 23 秒" in status_text(snap, True, "zh")


def test_the_runs_own_estimate_takes_over_once_grpo_has_a_step_time():
    snap = LESSON | dict(step=3, phase="grpo", eta=200.0, phase_eta=180.0, elapsed=150.0)
    assert whole_run_of(snap) == (200.0, pytest.approx(150.0 / 350.0))
    # slower than the reference: no negative or zero time from it, and never the warm-up's own time
    slow = LESSON | dict(step=0, phase="warmup", warmup_step=3, eta=None, phase_eta=60.0, elapsed=400.0)
    assert whole_run_of(slow) == (None, pytest.approx(3 / 40))
    text = status_text(slow, True, "en")
    assert "the whole run's ETA —" in text and "warm-up ETA" not in text
