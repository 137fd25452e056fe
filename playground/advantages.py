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
