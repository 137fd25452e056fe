"""The `Lesson` record: a recipe, with its title, text and the figure to expect in English and Chinese from the
text catalogue (`playground.texts.lessons`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playground.scoring import RewardChoice
from playground.spec import RunSpec
from playground.texts import LANGS
from playground.texts.core import template


@dataclass(frozen=True)
class Lesson:
    """One lesson. `overrides` uses the flat field names of the CLI (`max_steps`, `dataset_name`, ...)."""

    id: str
    preview_prompt: str
    overrides: dict[str, Any] = field(default_factory=dict)
    rewards: tuple[RewardChoice, ...] = ()
    # What the Learn tab draws from the eval rows: reward metric names, `eval_reward` or `empty_section_rate`.
    chart: tuple[str, ...] = ("eval_reward",)

    def _texts(self, part: str) -> dict[str, str]:
        return {lang: template(f"learn.lesson.{self.id}.{part}", lang) for lang in LANGS}

    @property
    def title(self) -> dict[str, str]:
        """`{"en": ..., "zh": ...}`"""
        return self._texts("title")

    @property
    def text(self) -> dict[str, str]:
        return self._texts("text")

    @property
    def expected(self) -> dict[str, str]:
        return self._texts("expected")

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
