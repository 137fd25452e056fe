"""Public mode's limits on training runs, and the fair queue's bookkeeping (`JobManager` in `job.py` uses both).

In public mode (a Space) strangers share one machine that trains one run at a time. A start while a run goes joins a
FIFO queue (at most one queued run per visitor, `max_queued` in all) instead of being refused, and each run is held to
caps that keep one visitor from holding the machine: steps, wall time, custom reward functions, and the reward time a
step may take (custom functions × the sandbox's per-call timeout). Each cap reads an environment variable.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any

from playground.errors import PlaygroundError
from playground.spec import RunSpec


@dataclass(frozen=True)
class PublicCaps:
    """Limits on one run in public mode.

    Args:
        max_steps (`int`, *optional*, defaults to `200`):
            Most `max_steps` a run may ask for (`PLAYGROUND_MAX_STEPS`).
        max_minutes (`float`, *optional*, defaults to `30`):
            Wall-clock minutes a run may take once it starts; it is then stopped and keeps its adapter
            (`PLAYGROUND_MAX_RUN_MINUTES`).
        max_custom_functions (`int`, *optional*, defaults to `3`):
            Most custom (sandboxed) reward functions one run may use (`PLAYGROUND_MAX_CUSTOM_FUNCTIONS`).
        max_reward_seconds (`float`, *optional*, defaults to `6`):
            Most reward time one step may take: custom functions × the sandbox's per-call timeout
            (`PLAYGROUND_MAX_REWARD_SECONDS`).
        max_queued (`int`, *optional*, defaults to `10`):
            Most runs waiting in the queue, all visitors together (`PLAYGROUND_MAX_QUEUED`).
    """

    max_steps: int = 200
    max_minutes: float = 30.0
    max_custom_functions: int = 3
    max_reward_seconds: float = 6.0
    max_queued: int = 10

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> PublicCaps:
        environ = os.environ if environ is None else environ
        names = {
            "max_steps": ("PLAYGROUND_MAX_STEPS", int),
            "max_minutes": ("PLAYGROUND_MAX_RUN_MINUTES", float),
            "max_custom_functions": ("PLAYGROUND_MAX_CUSTOM_FUNCTIONS", int),
            "max_reward_seconds": ("PLAYGROUND_MAX_REWARD_SECONDS", float),
            "max_queued": ("PLAYGROUND_MAX_QUEUED", int),
        }
        values: dict[str, Any] = {}
        for name, (variable, kind) in names.items():
            if environ.get(variable):
                try:
                    values[name] = kind(environ[variable])
                except ValueError:
                    raise PlaygroundError(f"{variable} must be a number, got {environ[variable]!r}.") from None
        return cls(**values)

    def check(self, spec: RunSpec, custom_names: list[str], call_timeout: float) -> None:
        """Refuse a run over a cap, with a message that names the cap, its variable and the value asked for."""
        steps = spec.grpo.max_steps
        if steps > self.max_steps:
            raise PlaygroundError(
                f"This app is public: a run may take at most {self.max_steps} steps (PLAYGROUND_MAX_STEPS); "
                f"this one asks for {steps}. Lower max_steps, or run the app yourself for longer runs."
            )
        if len(custom_names) > self.max_custom_functions:
            raise PlaygroundError(
                f"This app is public: a run may use at most {self.max_custom_functions} custom reward functions "
                f"(PLAYGROUND_MAX_CUSTOM_FUNCTIONS); this one uses {len(custom_names)} ({', '.join(custom_names)})."
            )
        seconds = len(custom_names) * call_timeout
        if seconds > self.max_reward_seconds:
            raise PlaygroundError(
                f"This app is public: the custom rewards of one step may take at most {self.max_reward_seconds:g} s "
                f"(PLAYGROUND_MAX_REWARD_SECONDS); {len(custom_names)} functions × {call_timeout:g} s per call "
                f"could take {seconds:g} s."
            )


def custom_reward_names(spec: RunSpec, custom_rewards: dict | None) -> list[str]:
    """The spec's rewards that are not library rewards: sandboxed custom code."""
    import rewards  # noqa: F401  (fills the registry)
    from rewards.registry import REGISTRY

    names = [choice.name for choice in spec.rewards if choice.name not in REGISTRY]
    return sorted(set(names) | set(custom_rewards or ()))


@dataclass
class Waiting:
    """One queued start: what `JobManager.start` was given, kept until the machine is free."""

    spec: RunSpec
    owner: str | None
    custom_rewards: dict | None
    queued_at: float = field(default_factory=time.time)


def estimate_wait(
    current: dict[str, Any] | None, ahead: list[RunSpec], seconds_per_step: float | None
) -> float | None:
    """Seconds until a run behind `ahead` starts: the current run's ETA, then each queued run's steps at the current
    pace (seconds per step of the run going now, or of the last run). None while no pace is known."""
    if seconds_per_step is None:
        return None
    wait = 0.0
    if current is not None:
        remaining = current.get("eta")
        if remaining is None:
            remaining = max(int(current.get("max_steps") or 0) - int(current.get("step") or 0), 0) * seconds_per_step
        wait += float(remaining)
    return wait + sum(spec.grpo.max_steps for spec in ahead) * seconds_per_step
