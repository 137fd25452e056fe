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
    # What the Learn tab draws from the eval rows: reward metric names, `eval_reward`, `empty_section_rate` or
    # `sentence_rate` (playground.training.answer_shape).
    chart: tuple[str, ...] = ("eval_reward",)
    # A lesson that teaches a trap and its fix: the recipe is the fix, and `trap` (rewards and flat field overrides
    # applied over the fix's) is the trap, one click away, with its own reference run `reference/<id>_trap.jsonl`.
    trap: tuple[tuple[RewardChoice, ...], dict[str, Any]] | None = None
    # What the Learn tab draws of the trap's reference run, beside `chart` of the fix's (the trap's rewards differ).
    trap_chart: tuple[str, ...] = ()

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

    def reference(self, trap: bool = False):
        """The run `bench/lessons.py` measured for this lesson's recipe, or for its `trap`
        (`playground.lessons.reference`); None when none is shipped."""
        from playground.lessons.reference import load_reference

        if trap and self.trap is None:
            return None
        return load_reference(f"{self.id}_trap" if trap else self.id)

    def run_spec(self, trap: bool = False, **extra: Any) -> RunSpec:
        """The lesson's recipe (or its `trap`) as a run spec; `extra` (flat field names) is applied last, e.g.
        `max_steps=5`."""
        rewards, overrides = self.rewards, dict(self.overrides)
        if trap:
            if self.trap is None:
                raise ValueError(f"lesson {self.id!r} has no trap")
            rewards, overrides = self.trap[0], {**overrides, **self.trap[1]}
        spec = RunSpec()
        if rewards:
            spec.rewards = [RewardChoice(r.name, r.weight, dict(r.params)) for r in rewards]
        for name, value in {**overrides, **extra}.items():
            spec.set(name, value)
        return spec
