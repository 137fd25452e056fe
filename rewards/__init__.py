"""The reward library: TRL-signature reward functions `f(completions, **kwargs) -> list[float | None]`.

`registry` holds the declarative specs and imports nothing of the library; `library` registers every family's rewards
into it, and this package imports it, so `import rewards` (or any `rewards.*` module) fills the registry.
May import `playground.errors` and TRL; `judge` loads its model through `playground.models`
inside the call (never at import), and nothing else of the engine.
"""

from rewards import library  # noqa: F401  (registers every reward family into REGISTRY)
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
