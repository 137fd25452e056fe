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
from dataclasses import asdict, dataclass
from typing import Any

from playground.texts import Text, msg


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
COLD_START = "alert.cold_start"
LENGTH_GROWTH = 1.5  # length_hacking: last-window length over first-window length
REWARD_FLAT = 0.05  # length_hacking: a non-length reward mean moving less than this is flat
LENGTH_REWARD_PREFIXES = ("length", "soft_overlong")
# The group diagnostics a run logs each step (playground/training/run_trainer.py: `advantages.diagnose` of the step's
# rewards, as the Rewards tab, the Preview and the lab read a group); the checks prefer them to TRL's batch metrics.
DIAGNOSTICS = "diagnostics/"


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
    return msg("alert.share.all") if low >= 1.0 else msg("alert.share.at_least", pct=_pct(low))


# An alert that stops because a broader one now describes the same runs: a reward that never varies makes every other
# reward the only one that varies ("nothing to weigh"); once it has been flat for `k` steps `constant_reward` names it,
# and the dominance check leaves it out. The alert log marks the narrower one replaced, not resolved.
SUPERSEDED_BY: dict[str, tuple[str, ...]] = {"nothing_to_weigh": ("constant_reward",)}


# --- the checks ----------------------------------------------------------------------------------------------------


def _no_signal(metrics: list[dict], k: int, **_: Any) -> Alert | None:
    """Most groups without spread: in each of the last `k` steps, or on average over the last `SIGNAL_WINDOW`. The
    share of groups is the playground's diagnostics (`diagnostics/no_signal`, as the Rewards tab reads a group) where
    the run logged them, else TRL's `frac_reward_zero_std`."""
    series = _series(metrics, DIAGNOSTICS + "no_signal") or _series(metrics, "frac_reward_zero_std")
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
        score = msg("alert.no_signal.score", value=rewards[-1]) if rewards else ""
        message = msg("alert.no_signal.float_noise", k=k, limit=ZERO_STD, score=score)
    elif recent:
        message = msg("alert.no_signal.recent", k=k, share=_share(_values(last)))
    else:
        message = msg("alert.no_signal.sustained", k=len(window), pct=_pct(_mean(_values(window))))
    advice = msg(COLD_START if everything_constant else "alert.no_signal.advice")
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
    key = "alert.constant_reward.one" if len(constant) == 1 else "alert.constant_reward.many"
    return Alert(
        "constant_reward",
        msg(key, listed=listed, steps=steps),
        msg(COLD_START),
        _series(metrics, f"rewards/{constant[0]}/std")[-1][0],
    )


def _clipped(metrics: list[dict], k: int, **_: Any) -> Alert | None:
    last = _series(metrics, "completions/clipped_ratio")[-k:]
    if len(last) < k or any(v < CLIPPED_FRACTION for _, v in last):
        return None
    return Alert(
        "clipped",
        msg("alert.clipped", k=k, share=_share(_values(last))),
        msg("alert.clipped.advice"),
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
        msg("alert.collapse", latest=latest, first=first, step=lengths[0][0]),
        msg("alert.collapse.advice"),
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
        msg("alert.kl_spike", latest=latest, step=step, factor=KL_SPIKE_FACTOR, median=median),
        msg("alert.kl_spike.advice"),
        step,
    )


def _dominant_reward(metrics: list[dict], weights: dict[str, float] | None, k: int = 3, **_: Any) -> Alert | None:
    if weights:  # a reward that never varied is constant_reward's case: no weight would make it count
        constant = set(_constant_rewards(metrics, k))
        weights = {fn: w for fn, w in weights.items() if fn not in constant}
    if not weights or len(weights) < 2:
        return None
    diagnosed = _diagnosed_shares(metrics, weights)
    if diagnosed is not None:
        return _dominant_by_diagnostics(weights, *diagnosed)
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
            msg("alert.nothing_to_weigh", fn=fn, scores=scores, step=_step(row, index)),
            msg("alert.nothing_to_weigh.advice"),
            _step(row, index),
        )
    return Alert(
        "dominant_reward",
        msg("alert.dominant_reward", fn=fn, pct=_pct(share), others=others),
        msg("alert.dominant_reward.advice", fn=fn),
        _step(row, index),
    )


def _diagnosed_shares(metrics: list[dict], weights: dict[str, float]) -> tuple[int, dict, dict[str, float]] | None:
    """(index, row, each weighted function's share of the within-group spread) of the latest row with the group
    diagnostics (`diagnostics/share/<fn>`); None for a run that did not log them."""
    for index in range(len(metrics) - 1, -1, -1):
        row = metrics[index]
        if isinstance(row, dict) and any(f"{DIAGNOSTICS}share/{fn}" in row for fn in weights):
            shares = {fn: metric_value(row.get(f"{DIAGNOSTICS}share/{fn}")) or 0.0 for fn in weights}
            return index, row, shares
    return None


def _dominant_by_diagnostics(weights, index: int, row: dict, shares: dict[str, float]) -> Alert | None:
    """Dominance as the Rewards tab reads it (`advantages.diagnose`): none without a spread; one function the only
    one that varies (nothing to weigh), or making up `DOMINANT_SHARE` of the spread beside another that varies."""
    varying = {fn: share for fn, share in shares.items() if share > ZERO_STD}
    if not varying:
        return None
    step = _step(row, index)
    fn = max(varying, key=varying.__getitem__)
    others = [name for name in weights if name != fn]
    if len(varying) == 1:
        scores = ", ".join(f"'{name}' ({metric_value(row.get(f'rewards/{name}/mean')) or 0:.3g})" for name in others)
        return Alert(
            "nothing_to_weigh",
            msg("alert.nothing_to_weigh", fn=fn, scores=scores, step=step),
            msg("alert.nothing_to_weigh.advice"),
            step,
        )
    if varying[fn] < DOMINANT_SHARE:
        return None
    listed = ", ".join(f"'{name}'" for name in varying if name != fn)
    return Alert(
        "dominant_reward",
        msg("alert.dominant_reward", fn=fn, pct=_pct(varying[fn]), others=listed),
        msg("alert.dominant_reward.advice", fn=fn),
        step,
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
        msg("alert.flat_reward", n=len(reward), last=last, window=WINDOW, first=first),
        msg("alert.flat_reward.advice"),
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
        msg("alert.flat_eval", n=int(trained), after=after, before=before),
        msg("alert.flat_eval.advice"),
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
        msg("alert.length_hacking", before=before, after=after, listed=listed),
        msg("alert.length_hacking.advice"),
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


def alert_record(alert: Alert) -> dict:
    """The alert as a run's status stores it (JSON): its fields in English, and under `texts` the catalogue key and
    values of its message and advice, so that a page reads them back in its own language (`Text.from_json`)."""
    record = asdict(alert)
    record["texts"] = {k: v.to_json() for k in ("message", "advice") if isinstance(v := getattr(alert, k), Text)}
    return record


def health_alerts(
    metrics: list[dict],
    *,
    weights: dict[str, float] | None = None,
    k: int = 3,
    flat_after: int = 10,
    aggregation: str = "sum_then_normalize",
) -> list[Alert]:
    """The alerts for the latest state of a run, at most one per code, in a fixed order.

    `weights` maps reward function names (as in `rewards/<fn>/mean`) to their weights; without it `dominant_reward`
    is not checked. Nor is it with TRL's `multi_objective_aggregation="normalize_then_sum"` (`aggregation`): each
    reward is normalized within its group before the weighted sum, so a reward's scale cannot drown the others. `k`
    is how many consecutive steps a condition must hold; `flat_after` is the number of steps before a flat reward is
    called out.
    """
    if aggregation == "normalize_then_sum":
        weights = None
    if not metrics:
        return []
    k = max(1, k)
    alerts = []
    for check in CHECKS:
        alert = check(metrics, k=k, weights=weights, flat_after=flat_after)
        if alert is not None:
            alerts.append(alert)
    return alerts
