"""The reward library: TRL-signature reward functions `f(completions, **kwargs) -> list[float | None]`."""

from rewards.registry import (
    REGISTRY,
    Example,
    NamedReward,
    Param,
    RewardSpec,
    build_reward,
    get_spec,
    list_specs,
    metric_name,
    required_columns,
    resolve_params,
)


__all__ = [
    "REGISTRY",
    "Example",
    "NamedReward",
    "Param",
    "RewardSpec",
    "build_reward",
    "get_spec",
    "list_specs",
    "metric_name",
    "required_columns",
    "resolve_params",
]
