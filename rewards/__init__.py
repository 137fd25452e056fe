"""The reward library: TRL-signature reward functions `f(completions, **kwargs) -> list[float | None]`.

`registry` holds the declarative specs and imports nothing of the library; `library` registers every family's rewards
into it, and this package imports it, so `import rewards` (or any `rewards.*` module) fills the registry.
Imports nothing of the playground: an application that hosts the library tells it what it needs (its error class,
public mode, its model loader) through `rewards.host`. `RewardError` (`rewards.errors`) is what every reward raises
for bad input.
"""

from rewards import library  # noqa: F401  (registers every reward family into REGISTRY)
from rewards.errors import RewardError
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
    "RewardError",
    "RewardSpec",
    "build_reward",
    "get_spec",
    "list_specs",
    "metric_name",
    "required_columns",
    "resolve_params",
]
