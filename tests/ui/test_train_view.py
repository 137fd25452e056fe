"""The Train tab's status and progress lines: one time left in both, the whole run's in every phase, none after
Stop, and the same phase in both."""

import re

import pytest

from playground.ui.train_tab import progress_html, status_text


SNAP = dict(run_id="r", status="running", step=1, max_steps=20, elapsed=200.0, error=None, warmup_steps=0)


def etas(snap: dict, lang: str = "en") -> tuple[list[str], list[str]]:
    eta = r"(?:ETA|预计剩余) ([^,.;，。；·<(（]+?)(?= ?[(（,.;，。；·<]|$)"
    return re.findall(eta, status_text(snap, True, lang)), re.findall(eta, progress_html(snap, lang))


def test_status_and_progress_show_the_same_time_left_from_the_runs_own_estimate():
    snap = SNAP | dict(phase="grpo", eta=250.0, phase_eta=190.0)
    status, progress = etas(snap)
    assert status == progress == ["4m 10s"]  # the run's: GRPO steps and evals left, not elapsed / steps


def test_warm_up_shows_the_whole_runs_time_left_not_its_own():
    snap = SNAP | dict(status="loading", step=0, phase="warmup", warmup_step=1, warmup_steps=5, eta=None)
    snap["phase_eta"] = 20.0  # the warm-up's own: not what the page shows
    assert etas(snap) == (["—"], ["—"])  # no GRPO step timed and no reference run: not known yet
    assert etas(snap | dict(reference_s=500.0)) == (["5m 00s"], ["5m 00s"])
    assert etas(snap | dict(reference_s=500.0), "zh") == (["5 分 00 秒"], ["5 分 00 秒"])
    assert "Phase: warm-up (SFT)" in status_text(snap, True, "en") and "Phase: warm-up (SFT)" in progress_html(
        snap, "en"
    )


def test_an_eval_shows_the_eval_phase_in_both_lines_and_its_time_left():
    snap = SNAP | dict(step=20, phase="eval", warmup_step=5, warmup_steps=5, eta=6.0, phase_eta=6.0)
    status, progress = status_text(snap, True, "en"), progress_html(snap, "en")
    assert "scoring its held-out eval prompts" in status and "warm-up" not in status
    assert "Phase: scoring the eval prompts" in progress and "SFT" not in progress
    assert etas(snap) == (["6s"], ["6s"])  # the final eval's own time, not "0s"


def test_no_time_left_once_stop_was_pressed_or_the_run_ended():
    for status in ("stopping", "stopped", "finished"):
        snap = SNAP | dict(status=status, phase="grpo", eta=250.0, phase_eta=190.0)
        assert etas(snap) == ([], []), status
        assert "Step 1 of 20" in progress_html(snap, "en")
    warm = SNAP | dict(status="stopping", phase="warmup", warmup_step=1, warmup_steps=5, eta=None, phase_eta=20.0)
    assert etas(warm) == ([], []) and "SFT step 1 of 5" in progress_html(warm, "en")


def test_the_lab_metrics_keep_the_rank_correlation_out_of_the_last_bullet():
    from types import SimpleNamespace

    from playground.ui.lab_tab import _metrics

    summary = SimpleNamespace(
        verdict="Good signal",
        reward=0.5,
        reward_std=0.2,
        frac_reward_zero_std=0.1,
        rewards={"a": {"mean": 0.5, "std": 0.1}, "b": {"mean": 0.4, "std": 0.2}},
        correlations={"a~b": 0.25},
        shares={"a": 0.6, "b": 0.4},
        milliseconds=1.0,
        diagnostics=None,
    )
    lines = _metrics(summary, "en").splitlines()
    at = next(i for i, line in enumerate(lines) if "Spearman" in line)
    assert lines[at - 1] == "" and lines[at - 2].startswith("- `rewards/b/mean`")
    assert lines[at + 1] == ""  # the shares make a paragraph of their own too


def test_the_lab_prompt_table_shows_3_decimals_not_float32_noise():
    from types import SimpleNamespace

    import numpy as np

    from playground.ui.lab_tab import _prompt_frame

    noisy = float(np.float32(-85.05))  # -85.05000305175781
    summary = SimpleNamespace(prompts=[{"prompt": "Say hi.", "mean": noisy, "std": 0.5, "zero_std": False}])
    html = _prompt_frame(summary, "en").to_html()
    assert "-85.050" in html and "-85.050003" not in html


def test_text_columns_share_what_the_numbers_leave():
    """The completion column gets a share of the table, not its own width (which made it as wide as the table)."""
    from playground.ui.common import text_widths

    columns = ["step", "length(ideal_length=5)", "format", "advantage", "prompt", "completion"]
    widths = text_widths(columns, {"prompt": 1, "completion": 2})
    assert widths == ["auto", "auto", "auto", "auto", "20%", "40%"]
    # Chinese headers take twice the room a letter takes: less is left for the text.
    zh = text_widths(["步", "优势优势优势", "生成结果"], {"生成结果": 1})
    latin = text_widths(["s", "abcdef", "text"], {"text": 1})
    assert zh == ["auto", "auto", "82%"] and latin == ["auto", "auto", "86%"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_another_sessions_live_run_is_named_with_its_recipe(lang):
    """A second session sees the live run's charts beside its own form: the status names that run, its lesson and its
    rewards."""
    from types import SimpleNamespace

    from playground.lessons import get_lesson
    from playground.ui.i18n import tr
    from playground.ui.train_tab import other_run_label
    from tests.support.tiny_models import tiny_spec

    fmt = get_lesson("format")
    job = SimpleNamespace(spec=fmt.run_spec(), run=SimpleNamespace(id="20260101-format"))
    label = other_run_label(job, lang)
    rewards = ", ".join(f"`{c.name}` × {c.weight:g}" for c in fmt.run_spec().rewards)
    assert label == tr(
        lang, "train.status.other_lesson", run="20260101-format", rewards=rewards, lesson=fmt.title[lang]
    )
    plain = SimpleNamespace(spec=tiny_spec("tiny"), run=SimpleNamespace(id="20260101-mine"))
    length = "`length` × 1"
    assert other_run_label(plain, lang) == tr(lang, "train.status.other_recipe", run="20260101-mine", rewards=length)
