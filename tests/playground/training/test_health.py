"""Health alerts: each synthetic history triggers exactly its alert; a healthy one triggers none."""

import pytest

from playground.training.health import Alert, health_alerts


WEIGHTS = {"length": 1.0, "accuracy": 1.0}


def row(step: int, **overrides) -> dict:
    """One TRL log row of a healthy run: reward rising, varied groups, short completions, small KL."""
    base = {
        "step": step,
        "loss": 0.01,
        "reward": 0.2 + 0.05 * step,
        "reward_std": 0.3,
        "frac_reward_zero_std": 0.1,
        "kl": 0.001 * step,
        "completions/mean_length": 40.0 + step,
        "completions/clipped_ratio": 0.05,
        "completions/mean_terminated_length": 38.0 + step,
        "rewards/length/mean": 0.5,
        "rewards/length/std": 0.3,
        "rewards/accuracy/mean": 0.1 + 0.04 * step,
        "rewards/accuracy/std": 0.3,
    }
    base.update(overrides)
    return base


def history(n: int = 12, **series) -> list[dict]:
    """`n` healthy rows; each keyword maps a metric to a function of the step that overrides it."""
    return [row(s, **{key.replace("__", "/"): f(s) for key, f in series.items()}) for s in range(1, n + 1)]


def last(n_last: int, value, otherwise, n: int = 12):
    return lambda s: value if s > n - n_last else otherwise(s)


CASES = {
    "healthy": (history(), set()),
    "no_signal": (history(frac_reward_zero_std=last(3, 0.95, lambda s: 0.2)), {"no_signal"}),
    "no_signal_only_two_steps": (history(frac_reward_zero_std=last(2, 1.0, lambda s: 0.2)), set()),
    "clipped": (history(completions__clipped_ratio=last(3, 1.0, lambda s: 0.1)), {"clipped"}),
    "clipped_dips_once": (
        history(completions__clipped_ratio=lambda s: 0.3 if s == 11 else (1.0 if s > 9 else 0.1)),
        set(),
    ),
    "collapse_to_one_token": (history(completions__mean_length=last(3, 1.0, lambda s: 40.0)), {"collapse"}),
    "collapse_shrunk": (history(completions__mean_length=last(1, 2.5, lambda s: 40.0)), {"collapse"}),
    "short_but_not_collapsed": (history(completions__mean_length=last(3, 3.5, lambda s: 40.0)), set()),
    "kl_spike": (history(kl=last(1, 0.5, lambda s: 0.01)), {"kl_spike"}),
    "kl_big_but_steady": (history(kl=lambda s: 0.2), set()),
    "kl_jump_below_floor": (history(kl=last(1, 0.04, lambda s: 0.001)), set()),
    "dominant_reward_std": (history(rewards__length__std=lambda s: 10.0), {"dominant_reward"}),
    # no spread at all in the latest step: weights change nothing, so no weighting advice (big means do not matter)
    "no_weighting_advice_when_nothing_varies": (
        history(
            rewards__length__std=last(1, 0.0, lambda s: 0.3),
            rewards__accuracy__std=last(1, 0.0, lambda s: 0.3),
            rewards__length__mean=lambda s: 50.0,
        ),
        set(),
    ),
    # only 'length' varies now (accuracy all 0, as a strict format at the start): nothing to weigh yet
    "nothing_to_weigh": (
        history(rewards__accuracy__std=last(2, 0.0, lambda s: 0.3), rewards__accuracy__mean=lambda s: 0.0),
        {"nothing_to_weigh"},
    ),
    "flat_reward": (history(reward=lambda s: 0.5), {"flat_reward"}),
    # one lucky step after a run of zero-signal steps does not clear no_signal (the window mean stays >= 0.9)
    "no_signal_lucky_step": (history(frac_reward_zero_std=lambda s: 0.0 if s == 12 else 1.0), {"no_signal"}),
    "no_signal_cleared_by_a_real_change": (history(frac_reward_zero_std=last(3, 0.0, lambda s: 1.0)), set()),
    # 'accuracy' scored every completion alike at every step: no weight can help (and no dominance advice either)
    "constant_reward": (
        history(
            rewards__length__std=lambda s: 10.0,
            rewards__accuracy__std=lambda s: 0.0,
            rewards__accuracy__mean=lambda s: 0.0,
        ),
        {"constant_reward"},
    ),
    "flat_reward_within_noise": (history(reward=lambda s: 0.5 + 0.01 * (s % 3)), {"flat_reward"}),
    "too_early_to_call_flat": (history(n=8, reward=lambda s: 0.5), set()),
    "length_hacking": (
        history(
            completions__mean_length=lambda s: 40.0 + 10 * s,
            rewards__length__mean=lambda s: 0.1 * s,
            rewards__accuracy__mean=lambda s: 0.3 + 0.001 * s,
        ),
        {"length_hacking"},
    ),
    "longer_and_better": (history(completions__mean_length=lambda s: 40.0 + 10 * s), set()),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_history_triggers_exactly_its_alert(name):
    metrics, expected = CASES[name]
    alerts = health_alerts(metrics, weights=WEIGHTS)
    assert {a.code for a in alerts} == expected
    assert len(alerts) == len(expected)  # at most once per code
    for alert in alerts:
        assert alert.step == 12
        assert alert.message.endswith(".") and alert.advice.endswith(".")
        assert len(alert.advice.split(". ")) == 1  # one sentence


ADVICE_WORDS = {
    "no_signal": ("graded", "temperature", "num_generations"),
    "clipped": ("max_completion_length",),
    "collapse_to_one_token": ("learning_rate", "beta"),
    "kl_spike": ("learning_rate", "beta"),
    "dominant_reward_std": ("'length'", "weight"),
    "flat_reward": ("learning_rate", "reward function", "num_generations"),
    "constant_reward": ("No weighting can help", "sft_warmup_steps", "completion_prefix", "tag_layout"),
    "length_hacking": ("length penalty", "max_completion_length"),
}


@pytest.mark.parametrize("name", list(ADVICE_WORDS))
def test_advice_names_the_knob_to_turn(name):
    [alert] = health_alerts(CASES[name][0], weights=WEIGHTS)
    for word in ADVICE_WORDS[name]:
        assert word in alert.advice


def test_messages_carry_the_numbers():
    [kl] = health_alerts(CASES["kl_spike"][0])
    assert kl == Alert("kl_spike", kl.message, kl.advice, 12)
    assert "0.5 at step 12" in kl.message and "(0.01)" in kl.message
    [collapse] = health_alerts(CASES["collapse_to_one_token"][0])
    assert "1.0 tokens" in collapse.message and "40.0 at step 1" in collapse.message
    [dominant] = health_alerts(CASES["dominant_reward_std"][0], weights=WEIGHTS)
    assert "'length' makes up 97%" in dominant.message and "('accuracy')" in dominant.message
    [no_signal] = health_alerts(CASES["no_signal"][0])
    assert "at least 95% of the groups" in no_signal.message
    [clipped] = health_alerts(CASES["clipped"][0])
    assert "all of the completions" in clipped.message
    [hacking] = health_alerts(CASES["length_hacking"][0])
    assert "from 70 to 140 tokens" in hacking.message and "('accuracy')" in hacking.message


def test_dominant_reward_needs_weights_and_respects_them():
    metrics = CASES["dominant_reward_std"][0]
    assert health_alerts(metrics) == []
    assert health_alerts(metrics, weights={"length": 0.02, "accuracy": 1.0}) == []  # 0.2 vs 0.3: balanced
    assert health_alerts(metrics, weights={"length": 1.0}) == []  # a single reward cannot dominate others


def test_thresholds_are_parameters():
    metrics = history(frac_reward_zero_std=last(2, 1.0, lambda s: 0.2))
    assert [a.code for a in health_alerts(metrics, k=2)] == ["no_signal"]
    flat = history(n=8, reward=lambda s: 0.5)
    assert [a.code for a in health_alerts(flat, flat_after=8)] == ["flat_reward"]


def test_alerts_come_in_a_fixed_order_when_several_fire():
    metrics = history(
        frac_reward_zero_std=lambda s: 1.0,
        completions__clipped_ratio=lambda s: 1.0,
        kl=last(1, 0.9, lambda s: 0.01),
        reward=lambda s: 0.5,
    )
    assert [a.code for a in health_alerts(metrics)] == ["no_signal", "clipped", "kl_spike", "flat_reward"]


@pytest.mark.parametrize(
    "metrics",
    [
        [],
        [{}],
        [{"step": 1}],
        [{"step": None, "reward": None, "kl": None, "completions/mean_length": None}] * 20,
        [{"reward": "0.5", "kl": "high", "frac_reward_zero_std": True, "rewards/length/mean": None}] * 20,
        [{"step": s, "reward": float("nan"), "kl": float("inf"), "reward_std": None} for s in range(20)],
        [{"step": 1, "rewards/length/std": 1.0, "rewards/accuracy/std": None}],
        ["not a dict", None, {"step": 2, "reward": 0.5}],
    ],
)
def test_missing_none_and_garbage_values_give_no_alert(metrics):
    assert health_alerts(metrics, weights=WEIGHTS) == []


def test_missing_keys_only_disable_their_own_checks():
    metrics = [{k: v for k, v in r.items() if not k.startswith("completions/")} for r in CASES["kl_spike"][0]]
    metrics[5]["kl"] = None
    del metrics[7]["reward"]
    metrics.append({"train_runtime": 12.5, "train_loss": 0.02})  # TRL's end-of-training summary row
    assert [a.code for a in health_alerts(metrics, weights=WEIGHTS)] == ["kl_spike"]


def test_steps_default_to_row_positions():
    metrics = [{k: v for k, v in r.items() if k != "step"} for r in CASES["clipped"][0]]
    [alert] = health_alerts(metrics)
    assert (alert.code, alert.step) == ("clipped", 12)


def test_no_signal_with_every_reward_constant_points_at_the_cold_start():
    metrics = history(
        frac_reward_zero_std=lambda s: 1.0,
        rewards__length__std=lambda s: 0.0,
        rewards__length__mean=lambda s: 0.0,
        rewards__accuracy__std=lambda s: 0.0,
        rewards__accuracy__mean=lambda s: 0.0,
        reward=lambda s: 0.2 + 0.05 * s,
    )
    alerts = {a.code: a for a in health_alerts(metrics, weights=WEIGHTS)}
    assert set(alerts) == {"no_signal", "constant_reward"}
    assert "No weighting can help" in alerts["no_signal"].advice and "sft_warmup_steps" in alerts["no_signal"].advice
    assert "'length' (0), 'accuracy' (0) gave every completion the same score in all 12 steps, so they add" in (
        alerts["constant_reward"].message
    )


def test_nothing_to_weigh_says_so_instead_of_lowering_a_weight():
    [alert] = health_alerts(CASES["nothing_to_weigh"][0], weights=WEIGHTS)
    assert alert.message == (
        "Only 'length' varies: 'accuracy' (0) gave every completion of a group the same score at step 12, so there is "
        "nothing to weigh against it yet."
    )
    assert "weight of" not in alert.advice and "No weight can make a reward count before it varies" in alert.advice
    assert "sft_warmup_steps" in alert.advice


def test_a_constant_non_zero_reward_with_float_noise_is_no_signal():
    """Eight completions at 0.2222 (tag_layout of the bare prefix): TRL logs reward_std 1.6e-8 and, since that is
    above its own zero test, frac_reward_zero_std 0; the reward still gives no advantage to learn from."""
    metrics = history(
        6,
        reward=lambda s: 0.2222222,
        reward_std=lambda s: 1.6e-8,
        frac_reward_zero_std=lambda s: 0.0,
        rewards__length__mean=lambda s: 0.2222222,
        rewards__length__std=lambda s: 1.6e-8,
        rewards__accuracy__mean=lambda s: 0.0,
        rewards__accuracy__std=lambda s: 0.0,
    )
    alerts = {a.code: a for a in health_alerts(metrics, weights=WEIGHTS)}
    assert set(alerts) == {"no_signal", "constant_reward"}
    assert alerts["no_signal"].message == (
        "In the last 3 steps reward_std stayed below 1e-06: every completion got the same total reward (0.2222), so "
        "GRPO has no advantage to learn from (frac_reward_zero_std misses a spread of float noise)."
    )
    assert "No weighting can help" in alerts["no_signal"].advice
    assert alerts["constant_reward"].message.startswith("'length' (0.222), 'accuracy' (0) gave every completion")
    assert health_alerts(history(6, reward_std=lambda s: 1e-4), weights=WEIGHTS) == []  # a small real spread is fine


def eval_row(step, reward, of="grpo", std=0.2):
    return {"step": step, "phase": "eval", "eval_of": of, "eval_reward": reward, "eval_reward_std": std}


def test_flat_reward_is_judged_on_the_eval_curve_when_there_is_one():
    # the per-step training reward looks flat (different prompts each step) but the eval curve rose: no alert
    rising = history(reward=lambda s: 0.5) + [eval_row(0, 0.0, "warmup"), eval_row(6, 0.3), eval_row(12, 0.6)]
    assert "flat_reward" not in {a.code for a in health_alerts(rising)}
    # a training reward that rises while the eval curve stays put: the alert, with the eval numbers
    flat = history() + [eval_row(0, 0.0, "base"), eval_row(0, 0.3, "warmup"), eval_row(6, 0.31), eval_row(12, 0.32)]
    [alert] = [a for a in health_alerts(flat) if a.code == "flat_reward"]
    assert alert.step == 12
    assert "eval reward on the held-out prompts is 0.32" in alert.message and "(0.3)" in alert.message
    # too few GRPO steps to call it
    early = history(n=4) + [eval_row(0, 0.3, "warmup"), eval_row(4, 0.3)]
    assert "flat_reward" not in {a.code for a in health_alerts(early)}


def test_normalize_then_sum_has_no_dominant_reward():
    """With TRL's normalize_then_sum each reward is normalized in its group before the weighted sum: the length
    reward's spread of tens of characters no longer drowns format's 0 or 1, so the history that alerts under the
    plain sum alerts no more, and the other checks still run."""
    metrics, expected = CASES["dominant_reward_std"]
    assert "dominant_reward" in {a.code for a in health_alerts(metrics, weights=WEIGHTS)}
    alerts = health_alerts(metrics, weights=WEIGHTS, aggregation="normalize_then_sum")
    assert {a.code for a in alerts} == expected - {"dominant_reward"}
    [kl] = health_alerts(CASES["kl_spike"][0], weights=WEIGHTS, aggregation="normalize_then_sum")
    assert kl.code == "kl_spike"


# --- the group diagnostics a run logs (advantages.diagnose, as the Rewards tab reads a group) ----------------------


def diagnosed(n: int = 12, length: float = 0.5, accuracy: float = 0.5, no_signal: float = 0.1, **series) -> list:
    """A healthy history whose rows also carry the diagnostics a run logs: each reward's share of the within-group
    spread, and the share of groups without one."""
    shares = {"diagnostics/share/length": length, "diagnostics/share/accuracy": accuracy}
    return [{**r, **shares, "diagnostics/no_signal": no_signal} for r in history(n, **series)]


def codes(metrics) -> set[str]:
    return {a.code for a in health_alerts(metrics, weights=WEIGHTS)}


def test_no_dominance_where_the_groups_have_no_spread():
    """The batch's stds say 'length' is 97% of the spread, but within the groups nothing varies (the diagnostics'
    shares are all 0, as in a lesson's Preview where every row scored 0.000 / 0.222): no dominance, no weighting
    advice; the no-signal alert says what is wrong."""
    metrics = diagnosed(length=0.0, accuracy=0.0, no_signal=1.0, rewards__length__std=lambda s: 10.0)
    assert "dominant_reward" in codes(history(rewards__length__std=lambda s: 10.0))  # TRL's batch stds alone
    assert codes(metrics) == {"no_signal"}


def test_dominance_follows_the_diagnostics_not_the_batch_stds():
    balanced_batch = diagnosed(length=0.95, accuracy=0.05)
    [alert] = health_alerts(balanced_batch, weights=WEIGHTS)
    assert alert.code == "dominant_reward" and "95%" in str(alert.message) and "'accuracy'" in str(alert.message)
    assert codes(diagnosed(length=0.6, accuracy=0.4, rewards__length__std=lambda s: 10.0)) == set()


def test_one_varying_reward_has_nothing_to_weigh():
    [alert] = health_alerts(diagnosed(length=1.0, accuracy=0.0, rewards__accuracy__std=lambda s: 0.2), weights=WEIGHTS)
    assert alert.code == "nothing_to_weigh" and "'length'" in str(alert.message) and "'accuracy'" in str(alert.message)


def test_no_signal_reads_the_diagnostics_share_of_groups():
    """TRL counts a group as flat only below a std of about 1e-8, so float noise passes as a spread; the diagnostics
    read a group as the Rewards tab does."""
    assert "no_signal" in codes(diagnosed(no_signal=1.0, length=0.6, accuracy=0.4))
    assert "no_signal" not in codes(diagnosed(no_signal=0.2, frac_reward_zero_std=lambda s: 1.0))
