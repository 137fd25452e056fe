"""What TRL would log at step 0 for a table of rewards, and what it means: signal per prompt, correlation, dominance.

Everything here works on the cached reward table (rows = completions grouped by prompt, columns = reward functions),
so changing weights, `scale_rewards`, `multi_objective_aggregation` or switching a function off recomputes the
totals and advantages without generating again (`summarize` takes about a millisecond for 16 x 8 completions).
The metrics are computed as TRL 1.16's `GRPOTrainer._generate_and_score_completions` logs them:

- `rewards/<fn>/mean` and `/std`: NaN-aware mean and Bessel-corrected std of each function's raw values;
- `reward` and `reward_std`: the same of the weighted sum of the raw values (unscorable completions left out);
- `frac_reward_zero_std`: the share of completions whose group (or, with "batch" or "normalize_then_sum", whose
  batch) std is zero, i.e. whose advantage is 0.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from playground.advantages import AdvantageSettings, GroupDiagnostics, compute_advantages, diagnose, nanstd, to_tensor
from playground.errors import PlaygroundError
from playground.texts import Text, msg


# Below this share of prompts with a signal, the verdict calls the signal weak.
WEAK_SIGNAL = 0.5


@dataclass
class Summary:
    """The step-0 metrics plus per-prompt signal, correlations, dominance and a verdict."""

    reward: float
    reward_std: float
    frac_reward_zero_std: float
    rewards: dict[str, dict[str, float]]
    prompts: list[dict[str, Any]]  # {"prompt", "mean", "std", "zero_std"}
    advantages: list[float]
    totals: list[float | None]
    correlations: dict[str, float | None]  # "a ~ b" -> Spearman's rho over completions
    shares: dict[str, float]  # function -> share of the within-group spread of the weighted total
    dominant: str | None
    verdict: str  # a catalogue `Text`: English, rendered in the page's language by the page
    milliseconds: float = 0.0
    settings: dict[str, Any] = field(default_factory=dict)
    diagnostics: GroupDiagnostics | None = None  # no signal, shares, flat and clipped (`playground.advantages`)

    def to_json(self) -> dict[str, Any]:
        """The dry run's JSON: exactly the keys `python -m playground dryrun --json` prints."""
        return {
            "reward": self.reward,
            "reward_std": self.reward_std,
            "frac_reward_zero_std": self.frac_reward_zero_std,
            "rewards": self.rewards,
            "prompts": self.prompts,
            "verdict": str(self.verdict),
        }

    def to_full_json(self) -> dict[str, Any]:
        data = self.to_json()
        data.update(
            correlations=self.correlations,
            shares=self.shares,
            dominant=self.dominant,
            advantages=self.advantages,
            totals=self.totals,
            milliseconds=round(self.milliseconds, 3),
            settings=self.settings,
        )
        return data

    @property
    def signal_count(self) -> int:
        return sum(not p["zero_std"] for p in self.prompts)


def _number(x: float) -> float:
    """JSON-safe float: NaN (e.g. the std of one value) reads 0.0, as the UI shows it."""
    return round(x, 6) if math.isfinite(x) else 0.0


def summarize(
    table: Sequence[Sequence[float | None]],
    names: Sequence[str],
    weights: Sequence[float],
    num_generations: int,
    *,
    prompts: Sequence[str] | None = None,
    enabled: Sequence[bool] | None = None,
    advantage: AdvantageSettings | None = None,
    lengths: Sequence[int] | None = None,
    max_completion_length: int | None = None,
) -> Summary:
    """Summarize `table` (rows = completions, G per prompt in order; columns = `names`) with these settings:
    `advantage` is the run's (`AdvantageSettings.of(spec)`), its batch taken as training takes it."""
    import torch

    start = time.perf_counter()
    advantage = advantage or AdvantageSettings()
    enabled = list(enabled) if enabled is not None else [True] * len(names)
    if not (len(names) == len(weights) == len(enabled)):
        raise PlaygroundError("lab_engine.switches")
    keep = [j for j, on in enumerate(enabled) if on]
    if not keep:
        raise PlaygroundError("lab_engine.all_off")
    names = [names[j] for j in keep]
    weights = [float(weights[j]) for j in keep]
    values = to_tensor([[row[j] for j in keep] for row in table])
    g = num_generations
    n_prompts = values.shape[0] // g
    adv = compute_advantages(
        values,
        weights,
        g,
        advantage.scale_rewards,
        advantage.multi_objective_aggregation,
        batch_size=advantage.generation_batch_size,
    )
    # What TRL logs: the weighted sum of the raw values, whatever the aggregation.
    raw = (values * torch.tensor(weights).unsqueeze(0)).nansum(dim=1)
    raw[torch.isnan(values).all(dim=1)] = torch.nan
    rewards = {
        name: {"mean": _number(torch.nanmean(values[:, j]).item()), "std": _number(nanstd(values[:, j]).item())}
        for j, name in enumerate(names)
    }
    found = diagnose(
        values,
        names,
        weights,
        g,
        advantage.multi_objective_aggregation,
        lengths=lengths,
        max_completion_length=max_completion_length,
    )
    texts = list(prompts) if prompts is not None else [msg("lab_engine.prompt_n", n=i + 1) for i in range(n_prompts)]
    per_prompt = []
    for p in range(n_prompts):
        block = raw[p * g : (p + 1) * g]
        per_prompt.append(
            {
                "prompt": texts[p],
                "mean": _number(torch.nanmean(block).item()),
                "std": _number(nanstd(block).item()),
                # No signal: every completion of the group scored the same (every advantage 0, float noise aside).
                "zero_std": found.no_signal[p],
            }
        )
    summary = Summary(
        reward=_number(torch.nanmean(raw).item()),
        reward_std=_number(nanstd(raw).item()),
        frac_reward_zero_std=_number(adv.is_std_zero.float().mean().item()),
        rewards=rewards,
        prompts=per_prompt,
        advantages=[round(a, 6) for a in adv.advantages.tolist()],
        totals=[None if not math.isfinite(t) else round(t, 6) for t in raw.tolist()],
        correlations=_correlations(values, names),
        shares=found.shares,
        dominant=found.dominant,
        verdict="",
        settings={
            "weights": dict(zip(names, weights, strict=True)),
            **advantage.to_json(),
            "num_generations": g,
            "max_completion_length": max_completion_length,
        },
        diagnostics=found,
    )
    summary.verdict = verdict(summary)
    summary.milliseconds = (time.perf_counter() - start) * 1000
    return summary


def spearman(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Spearman's rank correlation (ties get their average rank); None when either side is constant."""
    if len(a) < 2:
        return None
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    if va == 0 or vb == 0:
        return None
    return round(cov / math.sqrt(va * vb), 4)


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def _correlations(values, names: list[str]) -> dict[str, float | None]:
    out = {}
    columns = values.T.tolist()
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pairs = [(x, y) for x, y in zip(columns[i], columns[j], strict=True) if x == x and y == y]  # not NaN
            out[f"{names[i]} ~ {names[j]}"] = spearman([x for x, _ in pairs], [y for _, y in pairs])
    return out


def verdict_kind(summary: Summary) -> tuple[str, dict[str, Any]]:
    """(kind, values) of the verdict: kind is "none", "good", "weak" or "usable" (`lab_engine.verdict.<kind>` in the
    catalogue); values fill it (`dominated` fills its clause, or is None)."""
    n = len(summary.prompts)
    k = summary.signal_count
    values: dict[str, Any] = {"n": n, "k": k, "dominated": None}
    if k == 0:
        return "none", values
    share = summary.shares.get(summary.dominant or "", 0.0)
    if summary.dominant:
        values["dominated"] = {"name": repr(summary.dominant), "share": f"{share:.0%}"}
    if k == n:
        return "good", values
    return ("weak" if k / n < WEAK_SIGNAL else "usable"), values


def verdict(summary: Summary) -> Text:
    """One sentence on whether training on these prompts with these rewards would learn anything: English as a
    `str` (the CLI and the JSON API print it), rendered in the page's language by the page."""
    kind, values = verdict_kind(summary)
    dominated = values.pop("dominated")
    clause = msg("lab_engine.verdict.dominated", **dominated) if dominated else ""
    return msg(f"lab_engine.verdict.{kind}", dominated=clause, **values)
