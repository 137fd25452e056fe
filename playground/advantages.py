"""Group-relative advantages, computed exactly as TRL 1.16's `GRPOTrainer._generate_and_score_completions`.

- A reward function that returns None for a completion gives NaN, and the weighted sum uses `nansum`.
- A completion for which every function returned None is unscorable: its total is NaN, it is left out of the group
  baseline, and its advantage is 0.
- std is Bessel-corrected and NaN-aware (the formula of `trl.trainer.utils.nanstd`, repeated here because importing
  that module costs 5 s), and advantages are divided by `std + 1e-4`.
- `scale_rewards`: "group" (std within each group), "batch" (std over the whole batch) or "none" (no division).
- `multi_objective_aggregation` (TRL's `GRPOConfig` field): "sum_then_normalize" (the default: weighted sum, then
  the group baseline above) or "normalize_then_sum" (each function normalized within its group first, then the
  weighted sum normalized over the whole batch; `scale_rewards` is not used, as in TRL).
- The batch: what TRL scores in one call, `generation_batch_size` completions (several groups). "batch" scaling and
  "normalize_then_sum" take their std over it; `compute_advantages(batch_size=...)` splits a longer table the same way.

`AdvantageSettings` holds every run field that changes an advantage, read from the run spec that trains
(`AdvantageSettings.of(spec)`): the Preview, the Reward lab, Compare and the trainer all use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING


if TYPE_CHECKING:
    import torch


SCALE_REWARDS = ("group", "batch", "none")
AGGREGATIONS = ("sum_then_normalize", "normalize_then_sum")
EPSILON = 1e-4  # TRL's constant; keeps a zero-std group from dividing by zero


@dataclass(frozen=True)
class AdvantageSettings:
    """The run fields that change an advantage besides the rewards' weights and the group size (`num_generations`):
    TRL's `scale_rewards`, `multi_objective_aggregation`, and the batch they normalize over (`generation_batch_size`
    completions; None: the whole table given)."""

    scale_rewards: str = "group"
    multi_objective_aggregation: str = "sum_then_normalize"
    generation_batch_size: int | None = None

    def __post_init__(self):
        from playground.errors import PlaygroundError

        for name, value, valid in (
            ("scale_rewards", self.scale_rewards, SCALE_REWARDS),
            ("multi_objective_aggregation", self.multi_objective_aggregation, AGGREGATIONS),
        ):
            if value not in valid:
                raise PlaygroundError("spec.bound.choices", name=name, valid=", ".join(valid), value=value)

    @classmethod
    def of(cls, spec, *, whole_table: bool = False) -> AdvantageSettings:
        """The settings of a run spec (`playground.spec.RunSpec`): its `scale_rewards`, `multi_objective_aggregation`
        and `generation_batch_size()` (see `batched`). `whole_table`: no batch (one group scored alone)."""
        settings = cls(spec.grpo.scale_rewards, spec.grpo.multi_objective_aggregation)
        if whole_table:
            return settings
        return settings.batched(spec.generation_batch_size(), spec.grpo.num_generations)

    def batched(self, batch: int | None, num_generations: int) -> AdvantageSettings:
        """These settings over batches of `batch` completions, which must hold whole groups of `num_generations`
        where the batch counts (`batch_wide`), as TRL requires; elsewhere a batch of part of a group is dropped."""
        from playground.errors import PlaygroundError

        if batch and batch % num_generations:
            if self.batch_wide:
                raise PlaygroundError("spec.generation_batch", batch=batch, g=num_generations)
            batch = None
        return AdvantageSettings(self.scale_rewards, self.multi_objective_aggregation, batch or None)

    @property
    def batch_wide(self) -> bool:
        """Whether a completion's advantage depends on the other groups of its batch (batch std, or per-batch
        normalization), so that a group scored alone differs from the same group in a training batch."""
        return self.scale_rewards == "batch" or self.multi_objective_aggregation == "normalize_then_sum"

    def to_json(self) -> dict[str, object]:
        return {
            "scale_rewards": self.scale_rewards,
            "multi_objective_aggregation": self.multi_objective_aggregation,
            "generation_batch_size": self.generation_batch_size,
        }


@dataclass
class Advantages:
    rewards: torch.Tensor  # weighted total per completion, NaN when unscorable
    mean: torch.Tensor  # group mean, repeated per completion
    std: torch.Tensor  # the std used for scaling (group or batch), repeated per completion
    advantages: torch.Tensor
    is_std_zero: torch.Tensor  # bool per completion, as TRL logs frac_reward_zero_std


def nanstd(tensor: torch.Tensor, dim: int | None = None, keepdim: bool = False) -> torch.Tensor:
    """Bessel-corrected std ignoring NaNs, as `trl.trainer.utils.nanstd`."""
    import torch

    mean = torch.nanmean(tensor, dim=dim, keepdim=True)
    variance = torch.nanmean((tensor - mean) ** 2, dim=dim, keepdim=True)
    count = torch.sum(~torch.isnan(tensor), dim=dim, keepdim=True)
    correction = count / (count - 1)
    correction = torch.where(count > 1, correction, torch.full_like(correction, float("nan")))
    std = torch.sqrt(variance * correction)
    if keepdim:
        return std
    return std.squeeze() if dim is None else std.squeeze(dim)


def to_tensor(rewards_per_func: Sequence[Sequence[float | None]]) -> torch.Tensor:
    """Rows are completions, columns reward functions; None becomes NaN, as in TRL."""
    import torch

    rows = [[float("nan") if v is None else float(v) for v in row] for row in rewards_per_func]
    return torch.tensor(rows, dtype=torch.float32).reshape(len(rows), -1)


def compute_advantages(
    rewards_per_func: torch.Tensor | Sequence[Sequence[float | None]],
    weights: Sequence[float],
    num_generations: int,
    scale_rewards: str = "group",
    multi_objective_aggregation: str = "sum_then_normalize",
    batch_size: int | None = None,
) -> Advantages:
    """TRL's advantages of a table (rows = completions, `num_generations` per group in order; columns = reward
    functions). With `batch_size` (TRL's `generation_batch_size`, a multiple of `num_generations`) the table is
    scored in batches of that many completions, as training scores them; the last batch may be shorter."""
    import torch

    if scale_rewards not in SCALE_REWARDS:
        raise ValueError(f"Invalid value for scale_rewards: {scale_rewards}. Must be one of {SCALE_REWARDS}.")
    if multi_objective_aggregation not in AGGREGATIONS:
        raise ValueError(
            f"Invalid multi_objective_aggregation: {multi_objective_aggregation}. Must be one of {AGGREGATIONS}."
        )
    if not isinstance(rewards_per_func, torch.Tensor):
        rewards_per_func = to_tensor(rewards_per_func)
    if rewards_per_func.shape[0] % num_generations:
        raise ValueError(f"{rewards_per_func.shape[0]} completions do not split into groups of {num_generations}.")
    if batch_size and rewards_per_func.shape[0] > batch_size:
        if batch_size % num_generations:
            raise ValueError(f"A batch of {batch_size} completions does not split into groups of {num_generations}.")
        parts = [
            compute_advantages(chunk, weights, num_generations, scale_rewards, multi_objective_aggregation)
            for chunk in rewards_per_func.split(batch_size)
        ]
        return Advantages(*(torch.cat([getattr(p, f) for p in parts]) for f in Advantages.__dataclass_fields__))
    weights_t = torch.tensor(list(weights), dtype=rewards_per_func.dtype)
    unscorable = torch.isnan(rewards_per_func).all(dim=1)
    if multi_objective_aggregation == "normalize_then_sum":
        return _normalize_then_sum(rewards_per_func, weights_t, num_generations, unscorable)
    rewards = (rewards_per_func * weights_t.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable] = torch.nan
    mean = torch.nanmean(rewards.view(-1, num_generations), dim=1).repeat_interleave(num_generations, dim=0)
    if scale_rewards in ("group", "none"):
        if num_generations > 1:
            std = nanstd(rewards.view(-1, num_generations), dim=1).repeat_interleave(num_generations, dim=0)
        else:
            std = torch.zeros_like(rewards)
    else:
        std = nanstd(rewards).expand_as(rewards) if rewards.numel() > 1 else torch.zeros_like(rewards)
    advantages = rewards - mean
    if scale_rewards != "none":
        advantages = advantages / (std + EPSILON)
    is_std_zero = torch.isclose(std, torch.zeros_like(std))
    advantages = torch.nan_to_num(advantages, nan=0.0)
    return Advantages(rewards=rewards, mean=mean, std=std, advantages=advantages, is_std_zero=is_std_zero)


def _normalize_then_sum(rewards_per_func, weights_t, num_generations: int, unscorable) -> Advantages:
    """TRL's "normalize_then_sum": per-function group z-scores, weighted sum, then z-scored over the whole batch."""
    import torch

    grouped = rewards_per_func.view(-1, num_generations, rewards_per_func.shape[1])
    mean_k = torch.nanmean(grouped, dim=1, keepdim=True)
    std_k = nanstd(grouped, dim=1, keepdim=True) if num_generations > 1 else torch.zeros_like(mean_k)
    reward_k = ((grouped - mean_k) / (std_k + EPSILON)).view(-1, rewards_per_func.shape[1])
    rewards = (reward_k * weights_t.unsqueeze(0)).nansum(dim=1)
    rewards[unscorable] = torch.nan
    std = nanstd(rewards).expand_as(rewards) if rewards.numel() > 1 else torch.zeros_like(rewards)
    mean = torch.nanmean(rewards).expand_as(rewards)
    advantages = torch.nan_to_num((rewards - mean) / (std + EPSILON), nan=0.0)
    is_std_zero = torch.isclose(std, torch.zeros_like(std))
    return Advantages(rewards=rewards, mean=mean, std=std, advantages=advantages, is_std_zero=is_std_zero)


# --- group diagnostics ---------------------------------------------------------------------------------------------
# One reading of a scored table, shown alike by the Rewards tab, the Preview and the Reward lab.

# A group whose aggregated rewards differ by at most this (relative to their size, in float64) gives no learning
# signal: float32 noise leaves TRL a std of about 1e-8 where every completion scored the same, and advantages of 1e-4.
ZERO_SPREAD = 1e-9
DOMINANCE_SHARE = 0.9  # a function dominates when it makes up this share of the spread of what is summed
CLIPPED_SHARE = 0.5  # as the training alert: half the completions cut off at the token limit is worth a look


@dataclass
class GroupDiagnostics:
    """What a table of rewards gives GRPO to learn from, group by group (`diagnose`)."""

    no_signal: list[bool]  # per group: every completion's aggregated reward is the same (all advantages ~0)
    shares: dict[str, float]  # each varying function's share of the spread of what is summed; {} without a signal
    dominant: str | None  # the function making up `DOMINANCE_SHARE` of that spread, beside another that varies
    flat: dict[str, float | None]  # function -> its one value (None: one per group), constant within every group
    # while the total varies somewhere
    clipped: int | None = None  # completions cut at the token limit (None: lengths not known)
    completions: int = 0

    @property
    def signal(self) -> bool:
        return not all(self.no_signal)

    @property
    def mostly_clipped(self) -> bool:
        return bool(self.clipped) and self.clipped >= CLIPPED_SHARE * self.completions


def diagnose(
    rewards_per_func: torch.Tensor | Sequence[Sequence[float | None]],
    names: Sequence[str],
    weights: Sequence[float],
    num_generations: int,
    multi_objective_aggregation: str = "sum_then_normalize",
    *,
    lengths: Sequence[int] | None = None,
    max_completion_length: int | None = None,
) -> GroupDiagnostics:
    """No signal, dominance, flat functions and clipped completions of a table (rows = completions, `num_generations`
    per group in order; columns = `names`), under the aggregation that sums the rewards.

    - no signal: within a group every aggregated reward is equal (float noise aside); a group of unscorable rows too;
    - shares and dominance: each function's weighted within-group spread of what is summed (its raw values, or its
      group z-scores under "normalize_then_sum"), averaged over the groups; a function constant everywhere has none,
      and dominance needs two functions that vary and a spread at all;
    - flat: the functions that gave every completion of a group one same score, in every group, where the total
      varies somewhere (they move no advantage);
    - clipped: completions whose `lengths` (token ids) reached `max_completion_length`.
    """
    import torch

    values = rewards_per_func if isinstance(rewards_per_func, torch.Tensor) else to_tensor(rewards_per_func)
    values = values.double()
    g, k = num_generations, values.shape[1]
    totals = compute_advantages(values, weights, g, "group", multi_objective_aggregation).rewards.view(-1, g)
    no_signal = []
    for row in totals:
        finite = row[torch.isfinite(row)]
        size = 1.0 + (finite.abs().max().item() if finite.numel() else 0.0)
        no_signal.append(finite.numel() < 2 or (finite.max() - finite.min()).item() <= ZERO_SPREAD * size)
    grouped = values.view(-1, g, k)
    if multi_objective_aggregation == "normalize_then_sum":
        grouped = (grouped - torch.nanmean(grouped, dim=1, keepdim=True)) / (
            nanstd(grouped, dim=1, keepdim=True) + EPSILON
        )
    lowest = torch.where(torch.isnan(grouped), torch.inf, grouped).amin(dim=1)
    highest = torch.where(torch.isnan(grouped), -torch.inf, grouped).amax(dim=1)
    constant = (highest - lowest <= ZERO_SPREAD * (1 + highest.abs())) | (highest < lowest)  # (groups, functions)
    weighted = grouped * torch.tensor([abs(float(w)) for w in weights], dtype=values.dtype)
    spread = torch.nan_to_num(nanstd(weighted, dim=1), nan=0.0).masked_fill(constant, 0.0).mean(dim=0).tolist()
    total = sum(spread)
    varying = [j for j in range(k) if not bool(constant[:, j].all())]
    shares = {} if total <= 0 or all(no_signal) else {names[j]: round(spread[j] / total, 4) for j in varying}
    top = max(shares, key=shares.get) if shares else None
    dominant = top if top is not None and len(varying) >= 2 and shares[top] >= DOMINANCE_SHARE else None
    flat: dict[str, float | None] = {}
    if not all(no_signal):
        for j in range(k):
            column = [v for v in values[:, j].tolist() if v == v]  # not NaN
            if column and bool(constant[:, j].all()):
                flat[names[j]] = column[0] if max(column) - min(column) <= ZERO_SPREAD * (1 + abs(column[0])) else None
    clipped = None
    if lengths is not None and max_completion_length:
        clipped = sum(1 for n in lengths if n >= max_completion_length)
    return GroupDiagnostics(no_signal, shares, dominant, flat, clipped, values.shape[0])
