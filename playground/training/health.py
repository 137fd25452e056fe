"""Health alerts: read a run's logged metrics and say, in plain words, what looks wrong and what to try.

The input is the list of metrics rows as TRL's `GRPOTrainer` logs them (`reward`, `reward_std`, `frac_reward_zero_std`,
`kl`, `completions/mean_length`, `completions/clipped_ratio`, `rewards/<fn>/mean`, `rewards/<fn>/std`, ...). Any key
may be missing or None, and rows without a key are skipped for that key. Each alert reports the latest state at most
once; the advice follows the usual GRPO troubleshooting list (reward scale, learning rate, KL weight beta, group size,
checking the reward function).
"""

from __future__ import annotations

import logging
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


logger = logging.getLogger(__name__)

HIGH_FRACTION = 0.9  # no_signal: fraction of groups
# clipped: half the completions cut off in every one of the last steps is already a problem worth a look (a run at
# 75-88% went unflagged at 0.9), and most rewards then score truncated text.
CLIPPED_FRACTION = 0.5
COLLAPSE_RATIO = 0.1  # collapse: mean length below this share of its first value...
COLLAPSE_TOKENS = 3.0  # ...and below this many tokens
ONE_TOKEN = 1.5  # collapse: a mean length at or below this is "about one token"
KL_SPIKE_FACTOR = 5.0
KL_SPIKE_MIN = 0.05
KL_HISTORY = 3  # previous kl values needed before a spike can be called
DOMINANT_SHARE = 0.9
# A spread at or below this is none: float noise leaves 1e-8-ish stds where every completion scored the same (TRL's
# `frac_reward_zero_std` counts a group as flat only below about 1e-8, so eight answers at 0.2222 can pass as varied).
ZERO_STD = 1e-6
WINDOW = 5  # first / last steps compared by flat_reward and length_hacking
SIGNAL_WINDOW = 10  # no_signal also holds while the mean over this many latest steps stays high (one lucky step)
COLD_START = (
    "No weighting can help a reward that never varies; use a cold start: an SFT warm-up (sft_warmup_steps), a "
    "completion prefix such as the first tag (completion_prefix) or a partial-credit reward (tag_layout)."
)
LENGTH_GROWTH = 1.5  # length_hacking: last-window length over first-window length
REWARD_FLAT = 0.05  # length_hacking: a non-length reward mean moving less than this is flat
LENGTH_REWARD_PREFIXES = ("length", "soft_overlong")


@dataclass
class Alert:
    code: str
    message: str
    advice: str
    step: int


Series = list[tuple[int, float]]  # (step, value) for the rows that have a finite value


# --- reading the metrics -------------------------------------------------------------------------------------------


def metric_value(value: Any) -> float | None:
    """A logged metric as a float, or None when it is missing, not a number, or not finite."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _step(row: dict, index: int) -> int:
    step = metric_value(row.get("step"))
    return int(step) if step is not None else index + 1


def _series(metrics: list[dict], key: str) -> Series:
    rows = [(i, row) for i, row in enumerate(metrics) if isinstance(row, dict)]
    return [(_step(row, i), v) for i, row in rows if (v := metric_value(row.get(key))) is not None]


def _values(series: Series) -> list[float]:
    return [v for _, v in series]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _reward_functions(metrics: list[dict]) -> list[str]:
    """Reward function names from the `rewards/<fn>/mean` keys, in first-seen order."""
    names: dict[str, None] = {}
    for row in metrics:
        if isinstance(row, dict):
            for key in row:
                if isinstance(key, str) and key.startswith("rewards/") and key.endswith("/mean"):
                    names[key[len("rewards/") : -len("/mean")]] = None
    return list(names)


def _pct(fraction: float) -> str:
    return f"{100 * fraction:.0f}%"


def _share(values: list[float]) -> str:
    """'all' or 'at least 93%' of ..., for fractions that are all high."""
    low = min(values)
    return "all" if low >= 1.0 else f"at least {_pct(low)}"


# --- the checks ----------------------------------------------------------------------------------------------------


def _no_signal(metrics: list[dict], k: int, **_: Any) -> Alert | None:
    """Most groups without spread: in each of the last `k` steps, or on average over the last `SIGNAL_WINDOW`."""
    series = _series(metrics, "frac_reward_zero_std")
    last = series[-k:]
    window = series[-SIGNAL_WINDOW:]
    recent = len(last) >= k and all(v >= HIGH_FRACTION for _, v in last)
    sustained = len(window) >= SIGNAL_WINDOW and _mean(_values(window)) >= HIGH_FRACTION
    spread = _series(metrics, "reward_std")[-k:]
    no_spread = len(spread) >= k and all(v <= ZERO_STD for _, v in spread)
    if not (recent or sustained or no_spread):
        return None
    constant = _constant_rewards(metrics, k)
    everything_constant = bool(constant) and set(constant) == set(_reward_functions(metrics))
    if no_spread and not recent:
        rewards = _values(_series(metrics, "reward"))
        score = f" ({rewards[-1]:.4g})" if rewards else ""
        message = (
            f"In the last {k} steps reward_std stayed below {ZERO_STD:g}: every completion got the same total "
            f"reward{score}, so GRPO has no advantage to learn from (frac_reward_zero_std misses a spread of float "
            "noise)."
        )
    elif recent:
        message = (
            f"In the last {k} steps, {_share(_values(last))} of the groups gave every completion the same "
            "reward, so GRPO has no advantage to learn from."
        )
    else:
        message = (
            f"Over the last {len(window)} steps, {_pct(_mean(_values(window)))} of the groups on average gave every "
            "completion the same reward, so GRPO has almost no advantage to learn from."
        )
    advice = (
        COLD_START
        if everything_constant
        else "Make the reward more graded (partial credit instead of pass/fail), or raise temperature or "
        "num_generations so the completions of a group differ."
    )
    return Alert("no_signal", message, advice, (spread if no_spread and not recent else series)[-1][0])


def _constant_rewards(metrics: list[dict], k: int) -> list[str]:
    """Reward functions whose `rewards/<fn>/std` was 0 at every one of at least `k` logged steps, and whose mean
    never changed: each completion of each group got the same score from them."""
    out = []
    for fn in _reward_functions(metrics):
        stds = _values(_series(metrics, f"rewards/{fn}/std"))
        means = _values(_series(metrics, f"rewards/{fn}/mean"))
        if len(stds) >= k and max(stds) <= ZERO_STD and means and max(means) - min(means) <= ZERO_STD:
            out.append(fn)
    return out


def _constant_reward(metrics: list[dict], k: int, **_: Any) -> Alert | None:
    constant = _constant_rewards(metrics, k)
    if not constant:
        return None
    steps = len(_series(metrics, f"rewards/{constant[0]}/std"))
    listed = ", ".join(f"'{fn}' ({_values(_series(metrics, f'rewards/{fn}/mean'))[-1]:.3g})" for fn in constant)
    verb = "it adds" if len(constant) == 1 else "they add"
    return Alert(
        "constant_reward",
        f"{listed} gave every completion the same score in all {steps} steps, so {verb} nothing to the advantages, "
        "whatever the weights.",
        COLD_START,
        _series(metrics, f"rewards/{constant[0]}/std")[-1][0],
    )


def _clipped(metrics: list[dict], k: int, **_: Any) -> Alert | None:
    last = _series(metrics, "completions/clipped_ratio")[-k:]
    if len(last) < k or any(v < CLIPPED_FRACTION for _, v in last):
        return None
    return Alert(
        "clipped",
        f"In the last {k} steps, {_share(_values(last))} of the completions hit max_completion_length "
        "and were cut off before they finished.",
        "Raise max_completion_length, or reward shorter answers (for example with a length penalty).",
        last[-1][0],
    )


def _collapse(metrics: list[dict], k: int, **_: Any) -> Alert | None:
    lengths = _series(metrics, "completions/mean_length")
    if len(lengths) < 2:
        return None
    first, (step, latest) = lengths[0][1], lengths[-1]
    shrunk = latest < COLLAPSE_RATIO * first and latest < COLLAPSE_TOKENS
    one_token = len(lengths) >= k and all(v <= ONE_TOKEN for _, v in lengths[-k:])
    if not (shrunk or one_token):
        return None
    return Alert(
        "collapse",
        f"Completions collapsed to {latest:.1f} tokens on average (they were {first:.1f} at step {lengths[0][0]}).",
        "Lower learning_rate and raise beta (the KL weight) so the policy stays near the base model, and check that "
        "the reward does not pay for empty or one-token answers.",
        step,
    )


def _kl_spike(metrics: list[dict], **_: Any) -> Alert | None:
    kl = _series(metrics, "kl")
    if len(kl) < KL_HISTORY + 1:
        return None
    step, latest = kl[-1]
    median = statistics.median(_values(kl[:-1]))
    if latest <= KL_SPIKE_FACTOR * median or latest <= KL_SPIKE_MIN:
        return None
    return Alert(
        "kl_spike",
        f"The KL to the base model jumped to {latest:.3g} at step {step}, more than {KL_SPIKE_FACTOR:.0f}x its "
        f"median so far ({median:.3g}): the policy is moving away from the base model fast.",
        "Lower learning_rate or raise beta (the KL weight) to keep each update small.",
        step,
    )


def _dominant_reward(metrics: list[dict], weights: dict[str, float] | None, k: int = 3, **_: Any) -> Alert | None:
    if weights:  # a reward that never varied is constant_reward's case: no weight would make it count
        constant = set(_constant_rewards(metrics, k))
        weights = {fn: w for fn, w in weights.items() if fn not in constant}
    if not weights or len(weights) < 2:
        return None
    keys = [f"rewards/{fn}/{stat}" for fn in weights for stat in ("mean", "std")]
    index, row = next(
        ((i, r) for i, r in reversed(list(enumerate(metrics))) if isinstance(r, dict) and any(k in r for k in keys)),
        (None, None),
    )
    if row is None:
        return None
    shares = _weighted(row, weights, "std")
    total = sum(shares.values())
    if len(shares) < 2 or total <= ZERO_STD:  # no spread at all: weights change nothing (no_signal's case)
        return None
    fn = max(shares, key=shares.__getitem__)
    share = shares[fn] / total
    if share < DOMINANT_SHARE:
        return None
    others = ", ".join(f"'{name}'" for name in shares if name != fn)
    if all(metric_value(row.get(f"rewards/{name}/std")) <= ZERO_STD for name in shares if name != fn):
        scores = ", ".join(
            f"'{name}' ({metric_value(row.get(f'rewards/{name}/mean')) or 0:.3g})" for name in shares if name != fn
        )
        return Alert(
            "nothing_to_weigh",
            f"Only '{fn}' varies: {scores} gave every completion of a group the same score at step "
            f"{_step(row, index)}, so there is nothing to weigh against it yet.",
            "No weight can make a reward count before it varies; give it a cold start (sft_warmup_steps, "
            "completion_prefix, a partial-credit reward such as tag_layout) and weigh the rewards once each varies.",
            _step(row, index),
        )
    return Alert(
        "dominant_reward",
        f"'{fn}' makes up {_pct(share)} of the weighted reward, so the other rewards ({others}) barely change the "
        "advantages.",
        f"Rescale the rewards to similar ranges (for example 0 to 1) or lower the weight of '{fn}', so every reward "
        "counts.",
        _step(row, index),
    )


def _weighted(row: dict, weights: dict[str, float], stat: str) -> dict[str, float]:
    """|weight x rewards/<fn>/<stat>| for the functions that have a finite value in `row`."""
    out = {}
    for fn, weight in weights.items():
        value, w = metric_value(row.get(f"rewards/{fn}/{stat}")), metric_value(weight)
        if value is not None and w is not None:
            out[fn] = abs(w * value)
    return out


def _flat_reward(metrics: list[dict], flat_after: int, **_: Any) -> Alert | None:
    """Judged on the held-out eval curve when the run has one (same prompts and seeds at every point); else on the
    training reward, whose steps draw different prompts."""
    if _series(metrics, "eval_reward"):
        return _flat_eval(metrics, flat_after)
    reward = _series(metrics, "reward")
    if len(reward) < max(flat_after, WINDOW + 1):
        return None
    first, last = _mean(_values(reward[:WINDOW])), _mean(_values(reward[-WINDOW:]))
    spread = _values(_series(metrics, "reward_std"))
    tolerance = 0.5 * _mean(spread) if spread else 0.0
    change = abs(last - first)
    if change >= max(tolerance, 1e-6):
        return None
    step = reward[-1][0]
    return Alert(
        "flat_reward",
        f"After {len(reward)} steps the mean reward is {last:.3g}, about what it was over the first {WINDOW} steps "
        f"({first:.3g}): the policy is not learning.",
        "Raise learning_rate, check that the reward function tells good completions from bad ones, or raise "
        "num_generations for more varied groups.",
        step,
    )


def _flat_eval(metrics: list[dict], flat_after: int) -> Alert | None:
    """The latest eval point against the one GRPO started from (the last eval at step 0: after any warm-up)."""
    evals = [row for row in metrics if isinstance(row, dict) and metric_value(row.get("eval_reward")) is not None]
    start = [row for row in evals if metric_value(row.get("step")) == 0] or evals[:1]
    first, latest = start[-1], evals[-1]
    trained = metric_value(latest.get("step")) or 0
    if trained < flat_after or latest is first:
        return None
    spread = [v for row in evals if (v := metric_value(row.get("eval_reward_std"))) is not None]
    tolerance = 0.5 * _mean(spread) if spread else 0.0
    before, after = float(first["eval_reward"]), float(latest["eval_reward"])
    if abs(after - before) >= max(tolerance, 1e-6):
        return None
    return Alert(
        "flat_reward",
        f"After {int(trained)} steps the eval reward on the held-out prompts is {after:.3g}, about what it was when "
        f"GRPO started ({before:.3g}): the policy is not learning.",
        "Raise learning_rate, check that the reward function tells good completions from bad ones, or raise "
        "num_generations for more varied groups; a reward that never varies needs a cold start.",
        int(trained),
    )


def _length_hacking(metrics: list[dict], **_: Any) -> Alert | None:
    lengths = _series(metrics, "completions/mean_length")
    if len(lengths) < 2 * WINDOW:
        return None
    before, after = _mean(_values(lengths[:WINDOW])), _mean(_values(lengths[-WINDOW:]))
    if before <= 0 or after <= LENGTH_GROWTH * before:
        return None
    names = [fn for fn in _reward_functions(metrics) if not fn.startswith(LENGTH_REWARD_PREFIXES)]
    if not names or not all(_flat(metrics, f"rewards/{fn}/mean") for fn in names):
        return None
    listed = ", ".join(f"'{fn}'" for fn in names)
    return Alert(
        "length_hacking",
        f"Completions grew from {before:.0f} to {after:.0f} tokens on average while the other rewards ({listed}) did "
        "not improve: the policy may be gaming the reward with length.",
        "Cap max_completion_length, add a length penalty (for example soft_overlong), and check that the reward "
        "cannot be raised by padding the answer.",
        lengths[-1][0],
    )


def _flat(metrics: list[dict], key: str) -> bool:
    values = _values(_series(metrics, key))
    if len(values) < 2:
        return True  # too few values to show any change
    window = min(WINDOW, len(values) // 2)
    return abs(_mean(values[-window:]) - _mean(values[:window])) < REWARD_FLAT


CHECKS: tuple[Callable[..., Alert | None], ...] = (
    _no_signal,
    _constant_reward,
    _clipped,
    _collapse,
    _kl_spike,
    _dominant_reward,
    _flat_reward,
    _length_hacking,
)


def health_alerts(
    metrics: list[dict], *, weights: dict[str, float] | None = None, k: int = 3, flat_after: int = 10
) -> list[Alert]:
    """The alerts for the latest state of a run, at most one per code, in a fixed order.

    `weights` maps reward function names (as in `rewards/<fn>/mean`) to their weights; without it `dominant_reward`
    is not checked. `k` is how many consecutive steps a condition must hold; `flat_after` is the number of steps
    before a flat reward is called out.
    """
    if not metrics:
        return []
    k = max(1, k)
    alerts = []
    for check in CHECKS:
        alert = check(metrics, k=k, weights=weights, flat_after=flat_after)
        if alert is not None:
            alerts.append(alert)
    return alerts
