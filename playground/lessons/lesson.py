"""The `Lesson` record: a recipe, its text in English and Chinese, and the figure to expect."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playground.scoring import RewardChoice
from playground.spec import RunSpec


@dataclass(frozen=True)
class Lesson:
    """One lesson. `overrides` uses the flat field names of the CLI (`max_steps`, `dataset_name`, ...)."""

    id: str
    title: dict[str, str]
    text: dict[str, str]
    expected: dict[str, str]
    preview_prompt: str
    overrides: dict[str, Any] = field(default_factory=dict)
    rewards: tuple[RewardChoice, ...] = ()
    # What the Learn tab draws from the eval rows: reward metric names, `eval_reward` or `empty_section_rate`.
    chart: tuple[str, ...] = ("eval_reward",)

    def reference(self):
        """The run `bench/lessons.py` measured for this lesson (`playground.lessons.reference`), or None."""
        from playground.lessons.reference import load_reference

        return load_reference(self.id)

    def run_spec(self, **extra: Any) -> RunSpec:
        """The lesson's recipe as a run spec; `extra` (flat field names) is applied last, e.g. `max_steps=5`."""
        spec = RunSpec()
        if self.rewards:
            spec.rewards = [RewardChoice(r.name, r.weight, dict(r.params)) for r in self.rewards]
        for name, value in {**self.overrides, **extra}.items():
            spec.set(name, value)
        return spec
